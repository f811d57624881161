//! A tiny HTTP/1.1 client over a loopback socket, enough for chromedriver's WebDriver API and
//! the game server: one request per connection (`Connection: close`), the whole answer read.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// An answer: status code and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// Sends `method path` to `127.0.0.1:port` with `body` (sent as `content_type`) and extra
/// `headers`, and reads the answer.
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    body: Option<(&str, &[u8])>,
    headers: &[(&str, &str)],
) -> std::io::Result<Answer> {
    // A signal meant for another test's child can interrupt a call of this thread (EINTR):
    // the connection is tried again, and reads go on (`read_some`).
    let mut stream = loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            other => break other?,
        }
    };
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some((content_type, bytes)) = body {
        head.push_str(&format!(
            "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
            bytes.len()
        ));
    } else if method == "POST" {
        head.push_str("Content-Length: 0\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if let Some((_, bytes)) = body {
        stream.write_all(bytes)?;
    }
    // Read the head, then as much body as it announces: a server may keep the connection
    // open whatever the request said (chromedriver does).
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let split = loop {
        if let Some(p) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        let n = read_some(&mut stream, &mut buf)?;
        if n == 0 {
            return Err(std::io::Error::other(
                "closed before the end of the headers",
            ));
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let lower = head.to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line: {head}")))?;
    let length = lower
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = lower.contains("transfer-encoding: chunked");
    let mut body = raw[split + 4..].to_vec();
    loop {
        let done = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = read_some(&mut stream, &mut buf)?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buf[..n]);
    }
    if chunked {
        body = dechunk(&body);
    }
    Ok(Answer {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// One `read`, again when a signal interrupted it.
fn read_some(stream: &mut TcpStream, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match stream.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// The body of a chunked answer.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = raw.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&raw[..end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .unwrap_or(0);
        if size == 0 || raw.len() < end + 2 + size {
            break;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[(end + 4 + size).min(raw.len())..];
    }
    out
}

/// POSTs `value` as JSON and parses the JSON answer.
pub fn post_json(port: u16, path: &str, value: &serde_json::Value) -> (u16, serde_json::Value) {
    let bytes = value.to_string();
    let answer = request(
        port,
        "POST",
        path,
        Some(("application/json", bytes.as_bytes())),
        &[],
    )
    .unwrap_or_else(|e| panic!("POST {path}: {e}"));
    let parsed = serde_json::from_str(&answer.body)
        .unwrap_or_else(|e| panic!("POST {path}: {e}: {}", answer.body));
    (answer.status, parsed)
}

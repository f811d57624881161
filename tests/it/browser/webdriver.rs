//! Headless Chromium driven through chromedriver's WebDriver HTTP API: a session, script
//! execution, element clicks and keys, screenshots, and a poll for conditions (never a
//! fixed sleep).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::http::request;

/// The browser and its driver, or why they cannot be had here.
pub fn find_tools() -> Result<(PathBuf, PathBuf), String> {
    let find = |names: &[&str]| {
        names.iter().find_map(|name| {
            let p = Path::new(name);
            if p.is_absolute() {
                return p.is_file().then(|| p.to_path_buf());
            }
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(name))
                    .find(|p| p.is_file())
            })
        })
    };
    let browser = find(&[
        "/usr/bin/chromium",
        "chromium",
        "chromium-browser",
        "google-chrome",
    ])
    .ok_or("no chromium")?;
    let driver = find(&["/usr/bin/chromedriver", "chromedriver"]).ok_or("no chromedriver")?;
    Ok((browser, driver))
}

/// A free loopback port (the driver takes it right after).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub struct Driver {
    child: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

impl Driver {
    /// Starts chromedriver and a headless Chromium session of `width` x `height`.
    pub fn start(browser: &Path, driver: &Path, width: u32, height: u32) -> Result<Driver, String> {
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start chromedriver: {e}"))?;
        let profile = tempfile::tempdir().unwrap();
        let mut d = Driver {
            child,
            port,
            session: String::new(),
            _profile: profile,
        };
        let t0 = Instant::now();
        while request(port, "GET", "/status", None, &[]).is_err() {
            if t0.elapsed() > Duration::from_secs(20) {
                return Err("chromedriver did not answer in 20 s".into());
            }
            std::thread::yield_now();
        }
        // The flags this machine's notes give: no sandbox as root, and no background
        // connections, which its closed network refuses.
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            format!("--user-data-dir={}", d._profile.path().display()),
            format!("--window-size={width},{height}"),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": browser, "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let answer = d.call("POST", "/session", Some(caps))?;
        d.session = answer["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session: {answer}"))?
            .to_string();
        Ok(d)
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let bytes = body.map(|b| b.to_string());
        let answer = request(
            self.port,
            method,
            path,
            bytes.as_ref().map(|b| ("application/json", b.as_bytes())),
            &[],
        )
        .map_err(|e| format!("{method} {path}: {e}"))?;
        let v: Value = serde_json::from_str(&answer.body)
            .map_err(|e| format!("{method} {path}: {e}: {}", answer.body))?;
        if answer.status != 200 {
            return Err(format!("{method} {path}: {} {}", answer.status, v["value"]));
        }
        Ok(v["value"].clone())
    }

    fn session_call(&self, method: &str, rest: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{rest}", self.session);
        self.call(method, &path, body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` (a function body; `arguments` are `args`) in the page.
    pub fn js(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Polls `script` until it returns true, for at most `secs` seconds.
    pub fn wait_for(&self, script: &str, secs: u64, what: &str) {
        let t0 = Instant::now();
        loop {
            if self.js(script, json!([])) == json!(true) {
                return;
            }
            if t0.elapsed() > Duration::from_secs(secs) {
                let message = self.js(
                    "return document.getElementById('message').textContent",
                    json!([]),
                );
                panic!("timed out waiting for {what} (page says {message})");
            }
            std::thread::yield_now();
        }
    }

    pub fn element(&self, css: &str) -> String {
        let v = self.session_call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.session_call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Types `text` into the element (a file input takes a path).
    pub fn send_keys(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.session_call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    pub fn clear(&self, css: &str) {
        let id = self.element(css);
        self.session_call("POST", &format!("/element/{id}/clear"), Some(json!({})));
    }

    /// Presses `keys` (WebDriver key strings) on whatever has the focus.
    pub fn keys(&self, keys: &str) {
        let mut actions = Vec::new();
        const SHIFT: &str = "\u{E008}";
        for k in keys.chars() {
            // A capital is typed as a person types it, with shift held.
            let shifted = k.is_ascii_uppercase();
            if shifted {
                actions.push(json!({"type": "keyDown", "value": SHIFT}));
            }
            actions.push(json!({"type": "keyDown", "value": k.to_string()}));
            actions.push(json!({"type": "keyUp", "value": k.to_string()}));
            if shifted {
                actions.push(json!({"type": "keyUp", "value": SHIFT}));
            }
        }
        self.session_call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// A right click on the element (the page turns back on `contextmenu`).
    pub fn right_click(&self, css: &str) {
        // At the element's centre, from the viewport's corner.
        let rect = self.js(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); \
             return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]",
            json!([css]),
        );
        let (x, y) = (rect[0].as_i64().unwrap(), rect[1].as_i64().unwrap());
        self.session_call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "origin": "viewport", "x": x, "y": y},
                {"type": "pointerDown", "button": 2},
                {"type": "pointerUp", "button": 2}
            ]}]})),
        );
        self.session_call("DELETE", "/actions", None);
    }

    pub fn set_window(&self, width: u32, height: u32) {
        self.session_call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// A DevTools command through chromedriver (for the colour scheme emulation).
    pub fn cdp(&self, cmd: &str, params: Value) {
        self.session_call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": cmd, "params": params})),
        );
    }

    /// Saves a PNG of the viewport at `path`.
    pub fn screenshot(&self, path: &Path) {
        let b64 = self.session_call("GET", "/screenshot", None);
        let bytes = decode_base64(b64.as_str().expect("base64 text"));
        std::fs::write(path, bytes).unwrap();
    }

    /// The browser's console entries of level SEVERE (errors), when the driver keeps them.
    pub fn console_errors(&self) -> Vec<String> {
        let path = format!("/session/{}/se/log", self.session);
        match self.call("POST", &path, Some(json!({"type": "browser"}))) {
            Ok(Value::Array(entries)) => entries
                .iter()
                .filter(|e| e["level"] == "SEVERE")
                .map(|e| e["message"].to_string())
                .collect(),
            _ => Vec::new(),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
                &[],
            );
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            _ => 63,
        }
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(decode_base64("aGVsbG8="), b"hello");
    assert_eq!(decode_base64("aGk="), b"hi");
    assert_eq!(decode_base64("YWJj"), b"abc");
}

//! `--serve`: the game as a local web app. A small synchronous HTTP server on loopback hands
//! out the page (HTML, JS and CSS built into the binary: nothing is fetched from elsewhere)
//! and answers its JSON endpoints ([`api`]); the page draws any board from the geometry the
//! server sends ([`wire`]). [`page::standalone`] puts the same player and one level in a
//! single HTML file for `--render FILE.html`.
//!
//! Only the page's own origin is served: requests naming another host (DNS rebinding) or
//! sent from another origin are refused, and a POST must say `application/json`, which a
//! foreign page cannot send without a preflight the server never grants.

pub mod api;
pub mod error;
pub mod page;
pub mod spec;
pub mod wire;

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response, Server};

use error::ApiError;

/// What `--serve` was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// The loopback port (0: any free one; the address is printed).
    pub port: u16,
    /// Open the page in the desktop's browser.
    pub open: bool,
    /// The only folder the page may save into (none: saving is refused).
    pub save_dir: Option<PathBuf>,
}

/// Largest request body: a 1000x250 level as JSON is under 2 MB.
const MAX_BODY: u64 = 16 << 20;

/// Requests answered at once; more are told to come back (the machine has few cores, and a
/// solve holds one).
const MAX_BUSY: usize = 8;

/// Runs the server until `cancel` is raised. Prints `serving on http://127.0.0.1:PORT/` on
/// standard output once it listens.
pub fn run(opts: &ServeOptions, cancel: &'static AtomicBool) -> Result<(), String> {
    if let Some(dir) = &opts.save_dir
        && !dir.is_dir()
    {
        return Err(format!("--save-dir {}: not a folder", dir.display()));
    }
    let server = Server::http(("127.0.0.1", opts.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", opts.port))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or("the server has no IP address")?;
    let url = format!("http://127.0.0.1:{port}/");
    println!("serving on {url}");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if opts.open {
        open_browser(&url);
    }
    let site = Arc::new(Site {
        port,
        save_dir: opts.save_dir.clone(),
        busy: AtomicUsize::new(0),
    });
    while !cancel.load(Ordering::SeqCst) {
        let request = match server.recv_timeout(Duration::from_millis(200)) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(e) => return Err(format!("the server failed: {e}")),
        };
        if site.busy.fetch_add(1, Ordering::SeqCst) >= MAX_BUSY {
            site.busy.fetch_sub(1, Ordering::SeqCst);
            let e = ApiError {
                status: 503,
                message: "busy: try again in a moment".into(),
            };
            let _ = request.respond(error_response(&e));
            continue;
        }
        let site = Arc::clone(&site);
        std::thread::spawn(move || {
            site.answer(request, cancel);
            site.busy.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

/// Asks the desktop to open `url`; a failure is only reported (the address is printed).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("cannot open a browser ({opener}: {e}); open {url} by hand");
    }
}

/// The server's settings, shared by the request threads.
struct Site {
    port: u16,
    save_dir: Option<PathBuf>,
    busy: AtomicUsize,
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn error_response(e: &ApiError) -> Response<std::io::Cursor<Vec<u8>>> {
    json_response(e.status, json!({ "error": e.message }).to_string())
}

fn json_response(status: u16, body: String) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(body.into_bytes())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"))
}

fn asset(content_type: &str, body: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(body.as_bytes().to_vec())
        .with_header(header("Content-Type", content_type))
        .with_header(header("X-Content-Type-Options", "nosniff"))
}

impl Site {
    fn answer(&self, mut request: Request, cancel: &AtomicBool) {
        let response = match self.route(&mut request, cancel) {
            Ok(r) => r,
            Err(e) => error_response(&e),
        };
        let _ = request.respond(response);
    }

    /// The value of a request header, if given.
    fn header<'r>(request: &'r Request, name: &str) -> Option<&'r str> {
        request
            .headers()
            .iter()
            .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str())
    }

    /// Refuses a request for another host or from another origin.
    fn check_origin(&self, request: &Request) -> Result<(), ApiError> {
        let ours = [
            format!("127.0.0.1:{}", self.port),
            format!("localhost:{}", self.port),
        ];
        let host = Self::header(request, "Host").unwrap_or("");
        if !ours.iter().any(|h| h == host) {
            return Err(ApiError::forbidden(format!(
                "this server answers for 127.0.0.1:{} only, not `{host}`",
                self.port
            )));
        }
        if let Some(origin) = Self::header(request, "Origin")
            && !ours.iter().any(|h| origin == format!("http://{h}"))
        {
            return Err(ApiError::forbidden(format!(
                "requests from `{origin}` are not served"
            )));
        }
        Ok(())
    }

    fn route(
        &self,
        request: &mut Request,
        cancel: &AtomicBool,
    ) -> Result<Response<std::io::Cursor<Vec<u8>>>, ApiError> {
        self.check_origin(request)?;
        let path = request
            .url()
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .to_string();
        let method = request.method().clone();
        match (&method, path.as_str()) {
            (Method::Get, "/" | "/index.html") => {
                Ok(asset("text/html; charset=utf-8", &page::served()))
            }
            (Method::Get, "/app.js") => Ok(asset("text/javascript; charset=utf-8", page::JS)),
            (Method::Get, "/app.css") => Ok(asset("text/css; charset=utf-8", page::CSS)),
            (Method::Get, "/favicon.ico") => {
                Ok(Response::from_data(Vec::new()).with_status_code(204))
            }
            (Method::Post, api) if api.starts_with("/api/") => {
                let body = read_json(request)?;
                let answer = match api {
                    "/api/generate" => api::generate(&body, cancel),
                    "/api/open" => api::open(&body),
                    "/api/solve" => api::solve(&body, cancel),
                    "/api/explain" => api::explain(&body),
                    "/api/watch" => api::watch(&body, cancel),
                    "/api/export" => api::export(&body),
                    "/api/save" => api::save(&body, self.save_dir.as_deref()),
                    _ => Err(ApiError {
                        status: 404,
                        message: format!("no endpoint {api}"),
                    }),
                }?;
                Ok(json_response(200, answer))
            }
            (Method::Get, _) | (Method::Post, _) => Err(ApiError {
                status: 404,
                message: format!("nothing at {path}"),
            }),
            _ => Err(ApiError {
                status: 405,
                message: format!("{method} is not served"),
            }),
        }
    }
}

/// The request body as JSON: at most [`MAX_BODY`] bytes, sent as `application/json`.
fn read_json(request: &mut Request) -> Result<Value, ApiError> {
    let is_json = Site::header(request, "Content-Type")
        .is_some_and(|t| t.trim_start().starts_with("application/json"));
    if !is_json {
        return Err(ApiError {
            status: 415,
            message: "send the request as Content-Type: application/json".into(),
        });
    }
    if request.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad(format!("cannot read the request: {e}")))?;
    if bytes.len() as u64 > MAX_BODY {
        return Err(too_large());
    }
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("malformed JSON: {e}")))
}

fn too_large() -> ApiError {
    ApiError {
        status: 413,
        message: format!("a request may carry at most {MAX_BODY} bytes"),
    }
}

//! `phineloops --serve` as a child process on a free port, ended when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common::cli::BIN;

pub struct Server {
    child: Child,
    pub port: u16,
}

impl Server {
    /// Starts the server saving into `save_dir`; its first line tells the port.
    pub fn start(save_dir: &Path) -> Server {
        let mut child = Command::new(BIN)
            .args(["--serve", "--port", "0", "--save-dir"])
            .arg(save_dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start phineloops --serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .strip_prefix("serving on http://127.0.0.1:")
            .and_then(|rest| rest.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"));
        Server { child, port }
    }

    pub fn url(&self, rest: &str) -> String {
        format!("http://127.0.0.1:{}/{rest}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

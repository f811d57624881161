//! Runs the `phineloops` binary for the CLI tests: exit code, stdout and stderr of one run,
//! with a check that it neither panicked nor died of a signal.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_phineloops");

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    pub stderr: String,
    /// Standard output as written.
    pub raw_stdout: Vec<u8>,
}

/// The [`Run`] of a finished process; `what` names it in failure messages.
pub fn finish(out: Output, what: &str) -> Run {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{what} panicked:\n{stderr}");
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{what} was killed by a signal:\n{stderr}"));
    Run {
        code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
        raw_stdout: out.stdout,
    }
}

/// Runs the binary with `args` and an empty standard input.
pub fn run(args: &[&str]) -> Run {
    let out = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("failed to start phineloops");
    finish(out, &format!("phineloops {args:?}"))
}

/// Runs the binary with `args`, feeding `input` on standard input.
pub fn run_stdin(args: &[&str], input: &[u8]) -> Run {
    run_env(args, &[], Some(input))
}

/// Runs the binary with `args`, the variables `env` set and `NO_COLOR` removed, and `stdin`
/// (or an empty standard input).
pub fn run_env(args: &[&str], env: &[(&str, &str)], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("failed to start phineloops");
    let writer = stdin.map(|input| {
        let mut pipe = child.stdin.take().unwrap();
        let input = input.to_vec();
        // The child may exit before reading everything: a broken pipe here is not a failure.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
    let out = child
        .wait_with_output()
        .expect("failed to wait for phineloops");
    if let Some(w) = writer {
        w.join().unwrap();
    }
    finish(out, &format!("phineloops {args:?}"))
}

/// `path` as an argument.
pub fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// A fresh temporary folder, removed when dropped.
pub fn tmpdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("cannot create a temporary directory")
}

//! Standard output and error that never panic: `println!` panics when the reader has gone
//! (`| head`) and when the disk is full. A closed pipe ends the output quietly, as `cat` does
//! (later writes are skipped, [`closed`] tells long runs to stop); any other failure is an
//! error for the caller to report (exit 2). Messages to stderr are best effort.

use std::io::Write;

use super::error::CliError;
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether the reader of standard output has gone.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Writes `bytes` to standard output and flushes them.
pub fn bytes(bytes: &[u8]) -> Result<(), CliError> {
    if closed() {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(CliError::Output(format!(
            "cannot write to standard output: {e}"
        ))),
    }
}

/// Writes `text` and a newline to standard output.
pub fn line(text: &str) -> Result<(), CliError> {
    let mut b = Vec::with_capacity(text.len() + 1);
    b.extend_from_slice(text.as_bytes());
    b.push(b'\n');
    bytes(&b)
}

/// Writes a line to standard error, ignoring failures (there is nowhere left to report them).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `text` with its control characters escaped (`\n`, `\u{1b}` ...): file contents and file
/// names reach messages, and a raw escape sequence there could rewrite the user's terminal.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(escape_controls("a\u{1b}[2Jb\n"), "a\\u{1b}[2Jb\\n");
        assert_eq!(escape_controls("plain é ✓"), "plain é ✓");
        assert_eq!(escape_controls("tab\there"), "tab\\there");
    }
}

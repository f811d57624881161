//! [`LevelError`]: why a level could not be read or written, naming the file and line.

use std::fmt;

/// A read or write failure, displayed as `source:line: message` (or `source: message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelError {
    /// File name as the user gave it, or `<stdin>` / `<stdout>`.
    pub source: String,
    /// 1-based line number, when the problem is on a line.
    pub line: Option<usize>,
    /// What was wrong or expected, for the user.
    pub message: String,
}

impl LevelError {
    /// An error on 1-based line `line` of `source`.
    pub fn at_line(source: &str, line: usize, message: impl Into<String>) -> LevelError {
        LevelError {
            source: source.to_string(),
            line: Some(line),
            message: message.into(),
        }
    }

    /// An error about `source` as a whole (no line).
    pub fn whole_file(source: &str, message: impl Into<String>) -> LevelError {
        LevelError {
            source: source.to_string(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.source, line, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

impl std::error::Error for LevelError {}

//! The errors of the command line, and the one place that turns them into a message and an
//! exit code.

use std::fmt;

use super::out::escape_controls;
use crate::level::LevelError;

/// Why a command stopped before its verdict: each is reported as `error: ...` and exit 2.
#[derive(Debug)]
pub enum CliError {
    /// The command line asks for something impossible.
    Usage(String),
    /// A level that cannot be read or parsed.
    Input(LevelError),
    /// Another input (a folder of levels, a SAT model) that cannot be read or used.
    Read(String),
    /// A file or stream that cannot be written, or a picture that cannot be drawn.
    Output(String),
    /// The interactive game could not start (bad level, no terminal) or its terminal failed.
    Play(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(msg)
            | CliError::Read(msg)
            | CliError::Output(msg)
            | CliError::Play(msg) => f.write_str(msg),
            CliError::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Input(e) => Some(e),
            _ => None,
        }
    }
}

impl From<LevelError> for CliError {
    fn from(e: LevelError) -> Self {
        CliError::Input(e)
    }
}

impl CliError {
    /// The exit code of this error: every one is a usage or input error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_)
            | CliError::Input(_)
            | CliError::Read(_)
            | CliError::Output(_)
            | CliError::Play(_) => super::run::EXIT_USAGE,
        }
    }
}

/// Prints `error` and gives the exit code for it: the only place an error becomes an exit.
pub fn report(error: &CliError) -> i32 {
    errln!("error: {}", escape_controls(&error.to_string()));
    error.exit_code()
}

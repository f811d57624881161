//! The command-line front end: argument parsing and the runner that prints and picks exit codes.

#[macro_use]
pub(crate) mod out;
pub(crate) mod args;
pub(crate) mod bench;
pub(crate) mod board;
pub(crate) mod cnf;
pub(crate) mod count;
pub(crate) mod deduce;
pub(crate) mod error;
pub(crate) mod explain;
pub(crate) mod interrupt;
mod json;
pub(crate) mod run;
pub(crate) mod show;
pub(crate) mod trace;

use std::io::IsTerminal;

use clap::{CommandFactory, FromArgMatches};

pub(crate) use args::Args;

/// Parses the process arguments, runs the command and returns the exit code.
pub fn main() -> i32 {
    interrupt::install();
    // A value typed with an escape sequence in it must not reach the terminal raw: then the
    // error is built without colours and printed escaped.
    let raw_controls =
        std::env::args_os().any(|a| a.to_string_lossy().chars().any(char::is_control));
    let mut command = Args::command();
    if raw_controls {
        command = command.color(clap::ColorChoice::Never);
    }
    let parsed = command
        .try_get_matches()
        .and_then(|m| Args::from_arg_matches(&m).map(|a| (a, m)));
    let (args, matches) = match parsed {
        Ok(p) => p,
        Err(e) => {
            let code = if e.use_stderr() {
                run::EXIT_USAGE
            } else {
                run::EXIT_OK
            };
            let plain = e.render().to_string();
            if e.use_stderr() && raw_controls {
                let text = e.render().ansi().to_string();
                let lines: Vec<String> = text.lines().map(out::escape_controls).collect();
                errln!("{}", lines.join("\n"));
                return code;
            }
            if e.use_stderr() || std::io::stdout().is_terminal() {
                // Usage errors, and help on a terminal (in colour): clap prints them.
                let _ = e.print();
                return code;
            }
            // Help and version into a pipe or a file: a closed pipe is quiet, a full disk is
            // an error, as for every other output.
            return match out::bytes(plain.as_bytes()) {
                Ok(()) => code,
                Err(e) => error::report(&e),
            };
        }
    };
    match args::check_mode_options(&matches).and_then(|()| args.into_command()) {
        Ok(cmd) => run::run(cmd),
        Err(msg) => {
            let code = error::report(&error::CliError::Usage(msg));
            errln!("For more information, try '--help'.");
            code
        }
    }
}

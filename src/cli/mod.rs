//! The command-line front end: argument parsing and the runner that prints and picks exit codes.

pub mod args;
pub mod run;

use clap::Parser;

pub use args::{Args, Command};

/// Parses the process arguments, runs the command and returns the exit code.
pub fn main() -> i32 {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() {
                run::EXIT_USAGE
            } else {
                run::EXIT_OK
            };
            let _ = e.print();
            return code;
        }
    };
    match args.command() {
        Ok(cmd) => run::run(cmd),
        Err(msg) => {
            eprintln!("error: {msg}");
            eprintln!("For more information, try '--help'.");
            run::EXIT_USAGE
        }
    }
}

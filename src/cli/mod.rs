//! The command-line front end: argument parsing and the runner that prints and picks exit codes.

pub mod args;
pub mod bench;
pub mod cnf;
pub mod count;
pub mod explain;
pub mod run;
pub mod show;
pub mod trace;

use clap::{CommandFactory, FromArgMatches};

pub use args::{Args, Command};

/// Parses the process arguments, runs the command and returns the exit code.
pub fn main() -> i32 {
    let parsed = Args::command()
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
            let _ = e.print();
            return code;
        }
    };
    match args::check_mode_options(&matches).and_then(|()| args.into_command()) {
        Ok(cmd) => run::run(cmd),
        Err(msg) => {
            eprintln!("error: {msg}");
            eprintln!("For more information, try '--help'.");
            run::EXIT_USAGE
        }
    }
}

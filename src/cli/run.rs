//! Runs a [`Command`]: the only place that prints and chooses exit codes.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::args::Command;
use crate::check::first_defect;
use crate::generate::{GenerateOptions, generate};
use crate::level::{LevelError, level_bytes, parse_level, save_atomic};
use crate::model::Game;
use crate::solve::{Outcome, SolveOptions, SolveStats, solve};

/// Exit codes.
pub const EXIT_OK: i32 = 0;
pub const EXIT_NO: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_CANCELLED: i32 = 3;

fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn read_input(path: &Path) -> Result<Game, LevelError> {
    if is_stdio(path) {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| LevelError::whole_file("<stdin>", format!("cannot read: {e}")))?;
        parse_level("<stdin>", &bytes)
    } else {
        crate::level::load_level(path)
    }
}

fn write_output(path: &Path, game: &Game) -> Result<(), LevelError> {
    let bytes = level_bytes(game);
    if is_stdio(path) {
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes)
            .and_then(|_| out.flush())
            .map_err(|e| LevelError::whole_file("<stdout>", format!("cannot write: {e}")))
    } else {
        save_atomic(path, &bytes)
    }
}

fn fail(e: impl std::fmt::Display) -> i32 {
    eprintln!("error: {e}");
    EXIT_USAGE
}

/// Runs `cmd`, printing results, and returns the process exit code.
pub fn run(cmd: Command) -> i32 {
    match cmd {
        Command::Generate {
            width,
            height,
            output,
            nbcc,
            seed,
        } => {
            let seed = seed.unwrap_or_else(|| {
                let s = fastrand::u64(..);
                eprintln!("seed: {s}");
                s
            });
            let mut opts = GenerateOptions::new(height, width, seed);
            opts.max_components = nbcc;
            let game = generate(&opts);
            match write_output(&output, &game) {
                Ok(()) => EXIT_OK,
                Err(e) => fail(e),
            }
        }
        Command::Check { input, verbose } => {
            let game = match read_input(&input) {
                Ok(g) => g,
                Err(e) => return fail(e),
            };
            match first_defect(&game) {
                None => {
                    println!("SOLVED: true");
                    EXIT_OK
                }
                Some(d) => {
                    println!("SOLVED: false");
                    if verbose {
                        eprintln!("{d}");
                    }
                    EXIT_NO
                }
            }
        }
        Command::Solve {
            input,
            output,
            method,
            threads,
            stats,
        } => {
            let t0 = Instant::now();
            let game = match read_input(&input) {
                Ok(g) => g,
                Err(e) => return fail(e),
            };
            let parse_time = t0.elapsed();
            let cancel = AtomicBool::new(false);
            let (outcome, st) = solve(
                &game,
                &SolveOptions {
                    method,
                    threads,
                    flow: true,
                },
                &cancel,
            );
            // With `-o -` the level owns stdout, so the verdict goes to stderr.
            let to_stdout = !output.as_deref().is_some_and(is_stdio);
            let verdict = |solved: bool| {
                if to_stdout {
                    println!("SOLVED: {solved}");
                } else {
                    eprintln!("SOLVED: {solved}");
                }
            };
            let code = match outcome {
                Outcome::Solved(solution) => {
                    let t = Instant::now();
                    if let Some(out) = &output
                        && let Err(e) = write_output(out, &solution)
                    {
                        return fail(e);
                    }
                    if stats {
                        eprintln!("write: {:.3} ms", t.elapsed().as_secs_f64() * 1e3);
                    }
                    verdict(true);
                    EXIT_OK
                }
                Outcome::Unsolvable => {
                    verdict(false);
                    eprintln!("no solution: the search space is exhausted; nothing written");
                    EXIT_NO
                }
                Outcome::Cancelled => {
                    verdict(false);
                    eprintln!("cancelled before an answer; nothing written");
                    EXIT_CANCELLED
                }
            };
            if stats {
                print_stats(&st, parse_time);
            }
            code
        }
    }
}

fn print_stats(st: &SolveStats, parse: std::time::Duration) {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let largest = st.region_sizes.iter().max().copied().unwrap_or(0);
    eprintln!("cells: {}", st.cells);
    eprintln!("fixed after propagation: {}", st.fixed_after_propagation);
    eprintln!(
        "regions: {} (largest {largest} cells)",
        st.region_sizes.len()
    );
    eprintln!(
        "search nodes: {}, backtracks: {}",
        st.counters.nodes, st.counters.backtracks
    );
    eprintln!(
        "time ms: parse {:.3}, propagate {:.3}, regions {:.3}, search {:.3}, verify {:.3}",
        ms(parse),
        ms(st.propagate_time),
        ms(st.regions_time),
        ms(st.search_time),
        ms(st.verify_time)
    );
}

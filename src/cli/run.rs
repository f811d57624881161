//! Runs a [`Command`]: the only place that prints and chooses exit codes.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::args::Command;
use crate::check::first_defect;
use crate::generate::unsolvable::unsolvable_variant;
use crate::generate::{generate, generate_unique};
use crate::level::{LevelError, level_bytes, parse_level, save_atomic};
use crate::model::Game;
use crate::solve::{Outcome, SolveOptions, SolveStats, solve};

/// Exit codes.
pub const EXIT_OK: i32 = 0;
pub const EXIT_NO: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_CANCELLED: i32 = 3;

pub(super) fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

pub(super) fn read_input(path: &Path) -> Result<Game, LevelError> {
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

pub(super) fn write_output(path: &Path, game: &Game) -> Result<(), LevelError> {
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

pub(super) fn fail(e: impl std::fmt::Display) -> i32 {
    eprintln!("error: {e}");
    EXIT_USAGE
}

/// Runs `cmd`, printing results, and returns the process exit code.
pub fn run(cmd: Command) -> i32 {
    match cmd {
        Command::Generate {
            output,
            mut options,
            seed,
            unsolvable,
            unique,
            view,
        } => {
            options.seed = seed.unwrap_or_else(|| {
                let s = fastrand::u64(..);
                eprintln!("seed: {s}");
                s
            });
            let mut game = if unique {
                match generate_unique(&options) {
                    Ok(made) => made.level,
                    Err(e) => {
                        eprintln!("error: {e}; nothing written");
                        return EXIT_NO;
                    }
                }
            } else {
                generate(&options)
            };
            if let Some(kind) = unsolvable {
                match unsolvable_variant(&game, kind, options.seed) {
                    Ok((bad, alteration)) => {
                        eprintln!("altered {}", alteration.describe(options.width));
                        game = bad;
                    }
                    Err(e) => {
                        eprintln!("error: {e}; nothing written");
                        return EXIT_NO;
                    }
                }
            }
            if let Some(output) = &output
                && let Err(e) = write_output(output, &game)
            {
                return fail(e);
            }
            let level_on_stdout = output.as_deref().is_some_and(is_stdio);
            match super::show::show(&game, &view, level_on_stdout) {
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
                        if let Some(why) = super::explain::why_unsolvable(&game) {
                            eprintln!("no solution: {}", why.message(&game));
                        }
                    }
                    EXIT_NO
                }
            }
        }
        Command::Count {
            input,
            limit,
            timeout,
            stats,
        } => super::count::run_count(&input, limit, timeout, stats),
        Command::Bench {
            dir,
            timeout,
            csv,
            threads,
        } => super::bench::run_bench(&dir, timeout, csv.as_deref(), threads),
        Command::Solve {
            input,
            output,
            method,
            threads,
            stats,
            json,
            timeout,
            flow,
            view,
            trace,
        } => {
            let t0 = Instant::now();
            let game = match read_input(&input) {
                Ok(g) => g,
                Err(e) => return fail(e),
            };
            let parse_time = t0.elapsed();
            let cancel = AtomicBool::new(false);
            let opts = SolveOptions {
                method,
                threads,
                flow,
                timeout,
            };
            let (outcome, st) = if trace {
                super::trace::solve_with_trace(&game, flow, timeout)
            } else {
                solve(&game, &opts, &cancel)
            };
            // With `-o -` the level owns stdout, so the verdict goes to stderr.
            let to_stdout = !output.as_deref().is_some_and(is_stdio);
            let say = |line: &str| {
                if to_stdout {
                    println!("{line}");
                } else {
                    eprintln!("{line}");
                }
            };
            let mut write_time = Duration::ZERO;
            let mut reason = None;
            let (code, verdict) = match outcome {
                Outcome::Solved(solution) => {
                    let t = Instant::now();
                    if let Some(out) = &output
                        && let Err(e) = write_output(out, &solution)
                    {
                        return fail(e);
                    }
                    write_time = t.elapsed();
                    say("SOLVED: true");
                    if let Err(e) = super::show::show(&solution, &view, !to_stdout) {
                        return fail(e);
                    }
                    (EXIT_OK, "solved")
                }
                Outcome::Unsolvable => {
                    say("SOLVED: false");
                    let why = super::explain::reason_after_search(&game, &st);
                    eprintln!("no solution: {}; nothing written", why.message(&game));
                    if view.explain
                        && let Err(e) = super::show::show(&game, &view, !to_stdout)
                    {
                        return fail(e);
                    }
                    reason = Some(why);
                    (EXIT_NO, "unsolvable")
                }
                Outcome::TimedOut => {
                    say("SOLVED: false");
                    eprintln!("timed out before an answer; nothing written");
                    (EXIT_CANCELLED, "timeout")
                }
                Outcome::Cancelled => {
                    say("SOLVED: false");
                    eprintln!("cancelled before an answer; nothing written");
                    (EXIT_CANCELLED, "cancelled")
                }
                Outcome::Rejected(why) => {
                    say("SOLVED: false");
                    eprintln!("error: {why}; nothing written");
                    (EXIT_USAGE, "error")
                }
            };
            let times = Phases {
                parse: parse_time,
                write: write_time,
                total: t0.elapsed(),
            };
            if stats {
                print_stats(&st, &times);
            }
            if json {
                let mut line = stats_json(&st, &times, verdict, method);
                if let Some(why) = &reason {
                    line.pop();
                    line.push_str(&format!(",\"reason\":{}}}", why.to_json(&game)));
                }
                say(&line);
            }
            code
        }
        Command::ToCnf { input, output } => super::cnf::run_to_cnf(&input, &output),
        Command::FromModel {
            model,
            level,
            output,
        } => super::cnf::run_from_model(&model, &level, output.as_deref()),
        Command::Print { input, view } => {
            let game = match read_input(&input) {
                Ok(g) => g,
                Err(e) => return fail(e),
            };
            match super::show::show(&game, &view, false) {
                Ok(()) => EXIT_OK,
                Err(e) => fail(e),
            }
        }
        Command::Play(opts) => match crate::play::run(&opts) {
            Ok(()) => EXIT_OK,
            Err(e) => fail(e),
        },
    }
}

struct Phases {
    parse: Duration,
    write: Duration,
    total: Duration,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn print_stats(st: &SolveStats, t: &Phases) {
    let largest = st.region_sizes.iter().max().copied().unwrap_or(0);
    eprintln!("cells: {}", st.cells);
    eprintln!("fixed after propagation: {}", st.fixed_after_propagation);
    eprintln!("fixed by the flow filter: {}", st.counters.filter_fixed);
    eprintln!(
        "regions: {} (largest {largest} cells)",
        st.region_sizes.len()
    );
    eprintln!("jobs: {} on {} worker threads", st.jobs, st.threads);
    eprintln!(
        "search nodes: {}, backtracks: {}, restarts: {}",
        st.counters.nodes, st.counters.backtracks, st.counters.restarts
    );
    eprintln!(
        "time ms: parse {:.3}, propagate {:.3}, regions {:.3}, search {:.3}, verify {:.3}, write {:.3}, total {:.3}",
        ms(t.parse),
        ms(st.propagate_time),
        ms(st.regions_time),
        ms(st.search_time),
        ms(st.verify_time),
        ms(t.write),
        ms(t.total)
    );
}

/// The statistics as one JSON object (hand-written: flat numbers and short names only).
fn stats_json(st: &SolveStats, t: &Phases, verdict: &str, method: crate::solve::Method) -> String {
    let sizes: Vec<String> = {
        let mut s = st.region_sizes.clone();
        s.sort_unstable_by(|a, b| b.cmp(a));
        s.iter().map(|n| n.to_string()).collect()
    };
    format!(
        concat!(
            "{{\"result\":\"{}\",\"method\":\"{}\",\"threads\":{},\"cells\":{},\"fixed_after_propagation\":{},\"fixed_by_flow_filter\":{},",
            "\"regions\":{},\"region_sizes\":[{}],\"jobs\":{},\"nodes\":{},\"backtracks\":{},\"restarts\":{},",
            "\"time_ms\":{{\"parse\":{:.3},\"propagate\":{:.3},\"regions\":{:.3},\"search\":{:.3},",
            "\"verify\":{:.3},\"write\":{:.3},\"total\":{:.3}}}}}"
        ),
        verdict,
        format!("{method:?}").to_lowercase(),
        st.threads,
        st.cells,
        st.fixed_after_propagation,
        st.counters.filter_fixed,
        st.region_sizes.len(),
        sizes.join(","),
        st.jobs,
        st.counters.nodes,
        st.counters.backtracks,
        st.counters.restarts,
        ms(t.parse),
        ms(st.propagate_time),
        ms(st.regions_time),
        ms(st.search_time),
        ms(st.verify_time),
        ms(t.write),
        ms(t.total)
    )
}

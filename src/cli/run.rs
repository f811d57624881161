//! Runs a [`Command`], one function per command; errors become exit codes in [`super::error::report`].

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::CommandFactory;

use super::args::{Command, Reading, SolveJob, View};
use super::board::Loaded;
use super::error::{CliError, report};
use super::interrupt;
use super::out;
use crate::board::BoardLevel;
use crate::check::first_defect;
use crate::generate::unsolvable::unsolvable_variant;
use crate::generate::{Breakage, GenerateOptions, generate, generate_unique};
use crate::level::any::{AnyLevel, LevelFormat, any_level_bytes};
use crate::level::write::{Content, save_content_cancellable};
use crate::level::{Saved, check_writable, level_bytes};
use crate::model::Game;
use crate::solve::{Method, Outcome, SolveOptions, SolveStats, solve};

/// Exit codes.
pub const EXIT_OK: i32 = 0;
/// The level is not solved, or has no solution.
pub const EXIT_NO: i32 = 1;
/// A usage or input error.
pub const EXIT_USAGE: i32 = 2;
/// Timed out or cancelled (Ctrl-C, SIGTERM).
pub const EXIT_CANCELLED: i32 = 3;

/// Whether `path` names standard input or output: `-`, or (for output) the process's own
/// stdout under one of its usual names, which is written like `-` rather than opened anew (a
/// fresh open would start at offset 0 and overwrite what the verdict lines put there).
pub(super) fn is_stdio(path: &Path) -> bool {
    ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
        .iter()
        .any(|name| path.as_os_str() == *name)
}

/// Saves `bytes` at `path` (or stdout), watching the cancel flag. `Ok(false)` when a signal
/// stopped it: nothing was put in place.
pub(super) fn save(path: &Path, bytes: &[u8]) -> Result<bool, CliError> {
    if is_stdio(path) {
        return out::bytes(bytes).map(|()| true);
    }
    save_content(path, Content::Bytes(bytes))
}

/// Saves `content` at `path` (a file, not stdout), watching the cancel flag: a level is
/// formatted while it is written. `Ok(false)` when a signal stopped it.
pub(super) fn save_content(path: &Path, content: Content<'_>) -> Result<bool, CliError> {
    interrupt::cooperative(true);
    let saved = save_content_cancellable(path, content, &interrupt::CANCEL)
        .map_err(|e| CliError::Output(e.to_string()))?;
    Ok(saved == Saved::Written)
}

/// Saves a level at `path` (or stdout) like [`save`], formatted while it is written.
pub(super) fn save_game(path: &Path, game: &Game) -> Result<bool, CliError> {
    if is_stdio(path) {
        return save(path, &level_bytes(game));
    }
    save_content(path, Content::Level(game))
}

/// Saves a level on any board at `path` (or stdout) in `format` like [`save`]; the board
/// format is formatted while it is written, so a large solution never sits in memory as
/// text.
pub(super) fn save_board_level(
    path: &Path,
    level: &BoardLevel,
    format: LevelFormat,
) -> Result<bool, CliError> {
    if format != LevelFormat::Board || is_stdio(path) || !level.board().is_uniform() {
        let bytes =
            any_level_bytes(&AnyLevel::Board(level.clone()), format).map_err(CliError::Output)?;
        return save(path, &bytes);
    }
    save_content(path, Content::Board(level))
}

/// Checks, before the long work, that the files to write can be written, and are different
/// files (a picture written over the level just saved would leave one of them lost).
pub(super) fn check_outputs<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<(), CliError> {
    let mut seen: Vec<PathBuf> = Vec::new();
    for path in paths {
        if is_stdio(path) {
            continue;
        }
        let at = resolved(path);
        if seen.contains(&at) {
            return Err(CliError::Usage(format!(
                "{} is named as two outputs (-o and --render): give each its own file",
                path.display()
            )));
        }
        seen.push(at);
        check_writable(path).map_err(|e| CliError::Output(e.to_string()))?;
    }
    Ok(())
}

/// Where `path` leads: links and `..` resolved, for an existing file or one in an existing
/// folder; the path itself otherwise.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// The exit of a mode stopped by a signal.
/// Prints a verdict line (`SOLVED: ...`) on stdout, or on stderr when the level itself goes
/// to stdout (`-o -`).
pub(super) fn verdict(to_stdout: bool, line: &str) -> Result<(), CliError> {
    if to_stdout {
        out::line(line)
    } else {
        errln!("{line}");
        Ok(())
    }
}

/// A signal while the picture of a level was drawn, after the level itself was done.
fn cancelled_drawing(level_saved: bool) -> i32 {
    if level_saved {
        errln!("cancelled while drawing the picture; the level was saved, the picture was not");
    } else {
        errln!("cancelled while drawing the picture; nothing written");
    }
    EXIT_CANCELLED
}

pub(super) fn cancelled(what: &str) -> i32 {
    errln!("cancelled {what}; nothing written");
    EXIT_CANCELLED
}

/// Runs `cmd`, printing results, and returns the process exit code.
pub fn run(cmd: Command) -> i32 {
    let result = match cmd {
        Command::Generate {
            output,
            options,
            seed,
            difficulty: Some(want),
            view,
            board: Some(board),
            ..
        } => super::deduce::run_generate(
            output,
            (options.width, options.height),
            seed,
            want,
            &view,
            board,
        ),
        Command::Generate {
            output,
            options,
            seed,
            unsolvable,
            unique,
            view,
            board: Some(board),
            ..
        } => super::board::run_generate(output, &options, (seed, unsolvable), unique, &view, board),
        Command::Generate {
            output,
            options,
            seed,
            unsolvable,
            move_i,
            unique,
            view,
            board: None,
            ..
        } => run_generate(output, options, seed, unsolvable, move_i, unique, view),
        Command::Check {
            input,
            reading,
            verbose,
        } => match super::board::read(&input, reading) {
            Ok(Loaded::Course(game)) => run_check(&game, verbose),
            Ok(Loaded::Board(level, _)) => super::board::run_check(&level, verbose),
            Err(e) => Err(e),
        },
        Command::Count {
            input,
            reading,
            limit,
            timeout,
            stats,
        } => {
            let (loaded, timeout) = read_within(&input, reading, timeout);
            match loaded {
                Ok(Loaded::Course(game)) => super::count::run_count(game, limit, timeout, stats),
                Ok(Loaded::Board(level, _)) => {
                    super::board::run_count(&level, limit, timeout, stats)
                }
                Err(e) => Err(e),
            }
        }
        Command::UniqueCheck {
            input,
            reading,
            timeout,
            stats,
        } => {
            let (loaded, timeout) = read_within(&input, reading, timeout);
            match loaded {
                Ok(Loaded::Course(game)) => super::count::run_unique_check(game, timeout, stats),
                Ok(Loaded::Board(level, _)) => {
                    super::board::run_unique_check(&level, timeout, stats)
                }
                Err(e) => Err(e),
            }
        }
        Command::Bench {
            dir,
            timeout,
            csv,
            threads,
            solvers,
            plot,
        } => super::bench::run_bench(&super::bench::BenchRun {
            dir: &dir,
            timeout,
            csv: csv.as_deref(),
            plot: plot.as_deref(),
            threads,
            solvers: &solvers,
        }),
        Command::Solve(job) => run_solve(job),
        Command::ToCnf {
            input,
            reading,
            output,
        } => match super::board::read(&input, reading) {
            Ok(Loaded::Course(game)) => super::cnf::run_to_cnf(&game, &output),
            Ok(Loaded::Board(level, _)) => super::board::run_to_cnf(&level, &output),
            Err(e) => Err(e),
        },
        Command::FromModel {
            model,
            level,
            output,
            reading,
        } => super::cnf::run_from_model(&model, &level, output.as_deref(), reading),
        Command::Print {
            input,
            reading,
            view,
        } => run_print(&input, reading, &view),
        Command::Completions(shell) => run_completions(shell),
        Command::Man => run_man(),
        Command::Deduce(job) => super::deduce::run(job),
        Command::Play(opts) => run_play(&opts),
        Command::Serve(opts) => run_serve(&opts),
    };
    result.unwrap_or_else(|e| report(&e))
}

/// `--generate`: makes a level (optionally unique, altered or unsolvable), saves and shows it.
fn run_generate(
    output: Option<PathBuf>,
    mut options: GenerateOptions,
    seed: Option<u64>,
    unsolvable: Option<Breakage>,
    move_i: Option<usize>,
    unique: bool,
    view: View,
) -> Result<i32, CliError> {
    let outputs = output.iter().chain(view.render.iter().map(|(p, _)| p));
    check_outputs(outputs.map(PathBuf::as_path))?;
    options.seed = seed.unwrap_or_else(|| {
        let s = fastrand::u64(..);
        errln!("seed: {s}");
        s
    });
    let mut game = if unique {
        match generate_unique(&options) {
            Ok(made) => made.level,
            Err(e) => {
                errln!("error: {e}; nothing written");
                return Ok(EXIT_NO);
            }
        }
    } else {
        generate(&options)
    };
    if let Some(count) = move_i {
        game = crate::generate::straight::move_straights(&game, count, options.seed);
    }
    if let Some(kind) = unsolvable {
        match unsolvable_variant(&game, kind, options.seed) {
            Ok((bad, alteration)) => {
                errln!("altered {}", alteration.describe(options.width));
                game = bad;
            }
            Err(e) => {
                errln!("error: {e}; nothing written");
                return Ok(EXIT_NO);
            }
        }
    }
    if let Some(output) = &output {
        match save_game(output, &game) {
            Ok(true) => {}
            Ok(false) => return Ok(cancelled("while writing the level")),
            Err(e) => return Err(e),
        }
    }
    let level_on_stdout = output.as_deref().is_some_and(is_stdio);
    super::show::show(&game, &view, level_on_stdout)?;
    // A signal after the level was saved leaves it in place: only a picture being drawn can
    // have been cut short.
    Ok(if interrupt::cancelled() && view.render.is_some() {
        cancelled_drawing(output.is_some())
    } else {
        EXIT_OK
    })
}

/// `--check`: prints whether the level is solved, and with `verbose` why not.
fn run_check(game: &Game, verbose: bool) -> Result<i32, CliError> {
    let game = game.clone();
    let (verdict, code) = match first_defect(&game) {
        None => ("SOLVED: true", EXIT_OK),
        Some(d) => {
            if verbose {
                errln!("{d}");
                if let Some(why) = super::explain::why_unsolvable(&game) {
                    errln!("no solution: {}", why.message(&game));
                }
            }
            ("SOLVED: false", EXIT_NO)
        }
    };
    out::line(verdict)?;
    Ok(code)
}

/// `--solve`: solves the level, writes the verified solution and reports on the run.
/// Reads a level for `--count` or `--unique-check` under a watch that ends the run when
/// `timeout` passes during the read (as `--solve` does), and returns the time left.
fn read_within(
    input: &Path,
    reading: Reading,
    timeout: Option<Duration>,
) -> (Result<Loaded, CliError>, Option<Duration>) {
    let t0 = Instant::now();
    let watch = interrupt::watch_reading(timeout);
    let loaded = super::board::read(input, reading);
    drop(watch);
    (loaded, timeout.map(|t| t.saturating_sub(t0.elapsed())))
}

fn run_solve(job: SolveJob) -> Result<i32, CliError> {
    let SolveJob {
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
        reading,
    } = job;
    let outputs = output.iter().chain(view.render.iter().map(|(p, _)| p));
    check_outputs(outputs.map(PathBuf::as_path))?;
    // With `-o -` the level owns stdout, so the verdict goes to stderr.
    let to_stdout = !output.as_deref().is_some_and(is_stdio);
    if to_stdout {
        interrupt::forced_verdict(Some("SOLVED: false"));
    }
    // The parallel parse and output formatting run on rayon's global pool: -t sizes it.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    let t0 = Instant::now();
    let watch = interrupt::watch_reading(timeout);
    let loaded = super::board::read(&input, reading)?;
    drop(watch);
    let loaded = match loaded {
        // Learning runs on the any-board engine's board: a course level goes there too, and
        // its answer comes back in the course format.
        Loaded::Course(game) if method == Method::Learn => {
            Loaded::Board(BoardLevel::from_game(&game), LevelFormat::Course)
        }
        other => other,
    };
    let game = match loaded {
        Loaded::Course(game) => game,
        Loaded::Board(level, format) => {
            let job = super::board::BoardJob {
                output: output.as_deref(),
                format,
                stats,
                json,
                timeout,
                view: &view,
                method,
            };
            return super::board::run_solve(&level, &job, t0);
        }
    };
    let parse_time = t0.elapsed();
    interrupt::cooperative(true);
    // The timeout covers the whole command: reading a huge level counts.
    let timeout = timeout.map(|t| t.saturating_sub(parse_time));
    let opts = SolveOptions {
        method,
        threads,
        flow,
        timeout,
    };
    let (outcome, st) = if trace {
        super::trace::solve_with_trace(&game, flow, timeout)
    } else {
        solve(&game, &opts, &interrupt::CANCEL)
    };
    let say = |line: &str| verdict(to_stdout, line);
    let mut write_time = Duration::ZERO;
    let mut reason = None;
    let (code, verdict, note) = match outcome {
        Outcome::Solved(solution) => {
            let t = Instant::now();
            let written = match &output {
                Some(out) => save_game(out, &solution),
                None => Ok(true),
            };
            write_time = t.elapsed();
            match written {
                Err(e) => return Err(e),
                Ok(false) => (
                    EXIT_CANCELLED,
                    "cancelled",
                    Some("cancelled while writing the solution; nothing written"),
                ),
                Ok(true) => {
                    say("SOLVED: true")?;
                    super::show::show(&solution, &view, !to_stdout)?;
                    if interrupt::cancelled() && view.render.is_some() {
                        return Ok(cancelled_drawing(output.is_some()));
                    }
                    (EXIT_OK, "solved", None)
                }
            }
        }
        Outcome::Unsolvable => {
            say("SOLVED: false")?;
            let why = super::explain::reason_after_search(&game, &st);
            if view.explain && view.render.is_some() {
                errln!(
                    "no solution: {}; no level written, the picture shows why",
                    why.message(&game)
                );
            } else {
                errln!("no solution: {}; nothing written", why.message(&game));
            }
            if view.explain {
                super::show::show(&game, &view, !to_stdout)?;
            }
            reason = Some(why);
            (EXIT_NO, "unsolvable", None)
        }
        Outcome::TimedOut => (
            EXIT_CANCELLED,
            "timeout",
            Some("timed out before an answer; nothing written"),
        ),
        Outcome::Cancelled => (
            EXIT_CANCELLED,
            "cancelled",
            Some("cancelled before an answer; nothing written"),
        ),
        Outcome::Rejected(why) => {
            say("SOLVED: false")?;
            errln!("error: {why}; nothing written");
            (EXIT_USAGE, "error", None)
        }
    };
    if let Some(note) = note {
        say("SOLVED: false")?;
        errln!("{note}");
    }
    let times = Phases {
        parse: parse_time,
        write: write_time,
        total: t0.elapsed(),
    };
    if stats {
        print_stats(&st, &times);
    }
    if json {
        let why = reason.as_ref().map(|r| (r, &game));
        let line = super::json::solve_report(&st, &times, verdict, method, why);
        say(&line)?
    }
    Ok(code)
}

/// `--print FILE`: shows a level as text and/or a picture.
fn run_print(input: &Path, reading: Reading, view: &View) -> Result<i32, CliError> {
    check_outputs(view.render.iter().map(|(p, _)| p.as_path()))?;
    match super::board::read(input, reading)? {
        Loaded::Course(game) => super::show::show(&game, view, false)?,
        Loaded::Board(level, _) => super::board::show(&level, view, false)?,
    }
    Ok(if interrupt::cancelled() && view.render.is_some() {
        cancelled_drawing(false)
    } else {
        EXIT_OK
    })
}

/// `--completions SHELL`: prints the shell completion script.
fn run_completions(shell: clap_complete::Shell) -> Result<i32, CliError> {
    let mut script = Vec::new();
    clap_complete::generate(
        shell,
        &mut super::Args::command(),
        "phineloops",
        &mut script,
    );
    out::bytes(&script)?;
    Ok(EXIT_OK)
}

/// `--man`: prints the manual page.
fn run_man() -> Result<i32, CliError> {
    let mut page = Vec::new();
    let rendered = clap_mangen::Man::new(super::Args::command()).render(&mut page);
    rendered.map_err(|e| CliError::Output(e.to_string()))?;
    out::bytes(&page)?;
    Ok(EXIT_OK)
}

/// `--play`: the interactive game.
fn run_play(opts: &crate::play::PlayOptions) -> Result<i32, CliError> {
    check_outputs(opts.save.as_deref())?;
    interrupt::cooperative(true);
    crate::play::run(opts, &interrupt::CANCEL).map_err(CliError::Play)?;
    Ok(if interrupt::cancelled() {
        EXIT_CANCELLED
    } else {
        EXIT_OK
    })
}

/// `--serve`: the web app, until Ctrl-C or SIGTERM.
fn run_serve(opts: &crate::serve::ServeOptions) -> Result<i32, CliError> {
    interrupt::cooperative(true);
    crate::serve::run(opts, &interrupt::CANCEL).map_err(CliError::Usage)?;
    Ok(EXIT_OK)
}

pub(super) struct Phases {
    pub(super) parse: Duration,
    pub(super) write: Duration,
    pub(super) total: Duration,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn print_stats(st: &SolveStats, t: &Phases) {
    let largest = st.region_sizes.iter().max().copied().unwrap_or(0);
    errln!("cells: {}", st.cells);
    errln!("fixed after propagation: {}", st.fixed_after_propagation);
    errln!("fixed by the flow filter: {}", st.counters.filter_fixed);
    errln!(
        "regions: {} (largest {largest} cells)",
        st.region_sizes.len()
    );
    errln!("jobs: {} on {} worker threads", st.jobs, st.threads);
    errln!(
        "search nodes: {}, backtracks: {}, restarts: {}, backjumps: {}, tie-break switches: {}, replayed: {}, picked by repair: {}",
        st.counters.nodes,
        st.counters.backtracks,
        st.counters.restarts,
        st.counters.backjumps,
        st.counters.tie_break_switches,
        st.counters.replayed,
        st.counters.repair_picks
    );
    errln!(
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

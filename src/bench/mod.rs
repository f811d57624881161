//! The solver comparison: every solving method, and any external solver
//! ([`external::ExternalSolver`]), on every level file of a folder, each run under a time
//! limit, each answer verified, one [`Row`] per file (formatted by [`table`], drawn by
//! [`plot`]).

pub mod external;
pub mod family;
pub mod plot;
pub mod table;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::anyboard;
use crate::board::{BoardLevel, Rules};
use crate::check::is_solved;
use crate::level::any::{AnyLevel, parse_any};
use crate::model::Game;
use crate::solve::{Method, Outcome, SolveOptions, solve};
pub use external::ExternalSolver;

/// The methods compared, in column order (`cp` only when built with the `cp` feature).
pub const METHODS: &[Method] = &[
    Method::Auto,
    Method::Csp,
    Method::Line,
    Method::Snail,
    #[cfg(feature = "cp")]
    Method::Cp,
    Method::Learn,
];

/// Settings shared by every run of a comparison.
#[derive(Clone, Debug)]
pub struct BenchOptions<'a> {
    /// Time limit of each run.
    pub timeout: Duration,
    /// Worker threads given to each solve.
    pub threads: usize,
    /// Raised to stop the whole comparison (Ctrl-C): the level's remaining runs are skipped.
    pub cancel: Option<&'static AtomicBool>,
    /// Other programs run after our methods, one column each.
    pub solvers: &'a [ExternalSolver],
}

/// The column names of a comparison: our methods (lower case), then the external solvers.
pub fn columns(solvers: &[ExternalSolver]) -> Vec<String> {
    METHODS
        .iter()
        .map(|m| format!("{m:?}").to_lowercase())
        .chain(solvers.iter().map(|s| s.name.clone()))
        .collect()
}

/// How one run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunResult {
    /// A verified solution, after this long.
    Solved(Duration),
    /// The method proved there is no solution, after this long.
    NoSolution(Duration),
    /// The time limit passed, or the comparison was cancelled, before an answer.
    TimedOut,
    /// A wrong answer: a grid that is not a solution, or "no solution" when another method
    /// found one.
    Wrong(String),
    /// An external solver ended without an answer or a claim (a crash, a usage error).
    Failed(String),
    /// The method does not apply to this level (a square engine's order on another board,
    /// the SAT formula under Net rules).
    NotApplicable,
}

/// One level file's results, one run per entry of [`METHODS`].
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The level's file name, as given.
    pub file: String,
    /// Columns of the level.
    pub width: usize,
    /// Rows of the level.
    pub height: usize,
    /// Instance family read from the file name (see [`family::family_of`]).
    pub family: String,
    /// One result per column of [`columns`]: our methods in [`METHODS`] order, then the
    /// external solvers; shorter when the comparison was cancelled.
    pub runs: Vec<RunResult>,
}

/// Extensions of level files: ours are `.txt`, the public course levels `.dat`, hexapipes'
/// puzzles `.json`, SGT Net game IDs `.sgt`. Anything else in the folder (a manifest, a
/// README) is not a level and is left out.
pub const LEVEL_EXTENSIONS: [&str; 4] = ["txt", "dat", "json", "sgt"];

/// The regular, non-hidden level files directly inside `dir`, sorted by name.
pub fn level_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        let path = entry.path();
        let level = path
            .extension()
            .is_some_and(|e| LEVEL_EXTENSIONS.iter().any(|l| e.eq_ignore_ascii_case(l)));
        if !hidden && level && path.is_file() {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// Runs every method, then every external solver, on `game` (read from `path`, shown as
/// `file`), calling `after_run` with the column's name once each run is over.
pub fn bench_level(
    file: &str,
    path: &Path,
    game: &Game,
    opts: &BenchOptions,
    mut after_run: impl FnMut(&str, &RunResult),
) -> Row {
    let names = columns(opts.solvers);
    let mut runs = our_runs(opts, &names, &mut after_run, |method, cancel| {
        let solve_opts = SolveOptions {
            method,
            threads: opts.threads,
            timeout: Some(opts.timeout),
            ..SolveOptions::default()
        };
        let t = Instant::now();
        let (outcome, _) = solve(game, &solve_opts, cancel);
        let elapsed = t.elapsed();
        match outcome {
            Outcome::Solved(g) if g.same_shapes(game) && is_solved(&g) => {
                RunResult::Solved(elapsed)
            }
            Outcome::Solved(_) => RunResult::Wrong("the answer is not a solution".into()),
            Outcome::Unsolvable => RunResult::NoSolution(elapsed),
            Outcome::TimedOut | Outcome::Cancelled => RunResult::TimedOut,
            Outcome::Rejected(why) => RunResult::Wrong(why),
        }
    });
    let check = |bytes: &[u8], answer: &Path| -> Result<(), String> {
        let g = crate::level::parse_level(&answer.to_string_lossy(), bytes)
            .map_err(|e| format!("the answer is not a level: {e}"))?;
        if !g.same_shapes(game) {
            return Err("the answer is not a turning of the level".into());
        }
        if !is_solved(&g) {
            return Err("the answer is not solved".into());
        }
        Ok(())
    };
    run_external(opts, path, &check, &names, &mut runs, &mut after_run);
    Row {
        file: file.to_string(),
        width: game.width(),
        height: game.height(),
        family: family::family_of(file),
        runs: refuted(runs, &names),
    }
}

/// Runs `run` for each of our methods in [`METHODS`] order, until the comparison is
/// cancelled, calling `after_run` with the column's name after each.
fn our_runs(
    opts: &BenchOptions,
    names: &[String],
    after_run: &mut impl FnMut(&str, &RunResult),
    mut run: impl FnMut(Method, &AtomicBool) -> RunResult,
) -> Vec<RunResult> {
    let own = AtomicBool::new(false);
    let cancel = opts.cancel.unwrap_or(&own);
    let mut runs = Vec::with_capacity(names.len());
    for (i, &method) in METHODS.iter().enumerate() {
        if cancel.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let result = run(method, cancel);
        after_run(&names[i], &result);
        runs.push(result);
    }
    runs
}

/// Runs every external solver after our columns, judging answers with `check`.
fn run_external(
    opts: &BenchOptions,
    path: &Path,
    check: &external::AnswerCheck,
    names: &[String],
    runs: &mut Vec<RunResult>,
    after_run: &mut impl FnMut(&str, &RunResult),
) {
    let own = AtomicBool::new(false);
    let cancel = opts.cancel.unwrap_or(&own);
    for (i, solver) in opts.solvers.iter().enumerate() {
        if cancel.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let result = solver.run(path, check, opts.timeout, cancel);
        after_run(&names[METHODS.len() + i], &result);
        runs.push(result);
    }
}

/// `runs` with every proof of "no solution" that a verified solution contradicts marked
/// wrong.
fn refuted(mut runs: Vec<RunResult>, names: &[String]) -> Vec<RunResult> {
    if let Some(i) = runs.iter().position(|r| matches!(r, RunResult::Solved(_))) {
        let winner = names[i].clone();
        for r in &mut runs {
            if matches!(r, RunResult::NoSolution(_)) {
                *r = RunResult::Wrong(format!("claims no solution, but {winner} found one"));
            }
        }
    }
    runs
}

/// [`bench_level`] for a level on any other board (or under Net rules), each method as
/// `--solve -m` runs it: `auto` the any-board engine with its hand-over to learning, `csp`
/// the engine alone, `cp` its formula under Infinity rules, `learn` conflict learning;
/// `line` and `snail` are orders of the bounded square engine and do not apply. An answer
/// is judged on the board's geometry and rules.
pub fn bench_board_level(
    file: &str,
    path: &Path,
    level: &BoardLevel,
    opts: &BenchOptions,
    mut after_run: impl FnMut(&str, &RunResult),
) -> Row {
    let names = columns(opts.solvers);
    let mut runs = our_runs(opts, &names, &mut after_run, |method, cancel| {
        let t = Instant::now();
        let outcome = match method {
            Method::Auto => Some(crate::learn::solve_auto(level, Some(opts.timeout), cancel).0),
            Method::Csp => Some(anyboard::solve_level(level, Some(opts.timeout), cancel).0),
            Method::Learn => Some(crate::learn::solve(level, Some(opts.timeout), cancel).0),
            #[cfg(feature = "cp")]
            Method::Cp if level.rules() == Rules::Infinity => {
                Some(anyboard::cp::solve_sat(level, Some(opts.timeout), cancel).0)
            }
            _ => None,
        };
        let elapsed = t.elapsed();
        match outcome {
            None => RunResult::NotApplicable,
            Some(anyboard::Outcome::Solved(s)) => match judged(&s, level) {
                Ok(()) => RunResult::Solved(elapsed),
                Err(why) => RunResult::Wrong(why),
            },
            Some(anyboard::Outcome::NoSolution) => RunResult::NoSolution(elapsed),
            Some(anyboard::Outcome::TimedOut | anyboard::Outcome::Cancelled) => RunResult::TimedOut,
        }
    });
    let rules = level.rules();
    let check = |bytes: &[u8], answer: &Path| -> Result<(), String> {
        let read = parse_any(&answer.to_string_lossy(), bytes, level.board().wrap().any())
            .map_err(|e| format!("the answer is not a level: {e}"))?;
        let answer = match read.0 {
            AnyLevel::Course(g) => BoardLevel::from_game(&g),
            AnyLevel::Board(b) => b,
        };
        // Only the turns are the solver's: the level's rules, barriers and locks are judged
        // from the level, whatever the answer's format can hold.
        judged(&with_level_rules(answer, level)?, level)
    };
    run_external(opts, path, &check, &names, &mut runs, &mut after_run);
    let b = level.board();
    let mut family = family::family_of(file);
    let kind = format!(
        "{}{}{}",
        b.tiling().name(),
        if b.wrap().any() { " wrap" } else { "" },
        if rules == Rules::Net { " net" } else { "" }
    );
    family = if family == "-" {
        kind
    } else {
        format!("{family} {kind}")
    };
    Row {
        file: file.to_string(),
        width: b.width(),
        height: b.height(),
        family,
        runs: refuted(runs, &names),
    }
}

/// `answer`'s turns on `level`'s board, with `level`'s rules, barriers and locks.
fn with_level_rules(answer: BoardLevel, level: &BoardLevel) -> Result<BoardLevel, String> {
    let (a, b) = (answer.board(), level.board());
    if (a.tiling(), a.width(), a.height(), a.wrap())
        != (b.tiling(), b.width(), b.height(), b.wrap())
    {
        return Err("the answer is on another board".into());
    }
    let cells = 0..b.len();
    BoardLevel::new(b.clone(), answer.masks().to_vec())
        .and_then(|l| l.with_barriers(cells.clone().map(|c| level.barrier(c)).collect()))
        .and_then(|l| l.with_locked(cells.map(|c| level.is_locked(c)).collect()))
        .map(|l| l.with_rules(level.rules()))
        .map_err(|e| format!("the answer is not a level of this board: {e}"))
}

/// `Ok` when `answer` is a turning of `level` (locks kept) that solves it under its rules.
fn judged(answer: &BoardLevel, level: &BoardLevel) -> Result<(), String> {
    if !answer.is_turning_of(level) {
        return Err("the answer is not a turning of the level".into());
    }
    match anyboard::first_fault(answer) {
        None => Ok(()),
        Some(fault) => Err(format!(
            "the answer is not solved: {}",
            fault.describe(answer)
        )),
    }
}

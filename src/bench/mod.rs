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

use crate::check::is_solved;
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

/// Extensions of level files: ours are `.txt`, the public course levels `.dat`. Anything else
/// in the folder (a manifest, a README) is not a level and is left out.
pub const LEVEL_EXTENSIONS: [&str; 2] = ["txt", "dat"];

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
    let mut runs = Vec::with_capacity(names.len());
    let own = AtomicBool::new(false);
    let cancel = opts.cancel.unwrap_or(&own);
    for (i, &method) in METHODS.iter().enumerate() {
        let solve_opts = SolveOptions {
            method,
            threads: opts.threads,
            timeout: Some(opts.timeout),
            ..SolveOptions::default()
        };
        if cancel.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let t = Instant::now();
        let (outcome, _) = solve(game, &solve_opts, cancel);
        let elapsed = t.elapsed();
        let result = match outcome {
            Outcome::Solved(g) if g.same_shapes(game) && is_solved(&g) => {
                RunResult::Solved(elapsed)
            }
            Outcome::Solved(_) => RunResult::Wrong("the answer is not a solution".into()),
            Outcome::Unsolvable => RunResult::NoSolution(elapsed),
            Outcome::TimedOut | Outcome::Cancelled => RunResult::TimedOut,
            Outcome::Rejected(why) => RunResult::Wrong(why),
        };
        after_run(&names[i], &result);
        runs.push(result);
    }
    for (i, solver) in opts.solvers.iter().enumerate() {
        if cancel.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let result = solver.run(path, game, opts.timeout, cancel);
        after_run(&names[METHODS.len() + i], &result);
        runs.push(result);
    }
    // A proof of "no solution" contradicted by a verified solution is a wrong answer.
    if let Some(i) = runs.iter().position(|r| matches!(r, RunResult::Solved(_))) {
        let winner = names[i].clone();
        for r in &mut runs {
            if matches!(r, RunResult::NoSolution(_)) {
                *r = RunResult::Wrong(format!("claims no solution, but {winner} found one"));
            }
        }
    }
    Row {
        file: file.to_string(),
        width: game.width(),
        height: game.height(),
        family: family::family_of(file),
        runs,
    }
}

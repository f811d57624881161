//! `-m cp`: the level's [`Cnf`] handed to batsat (MiniSat 2.2 in pure Rust, with clause
//! learning and restarts), after the counting checks of [`crate::explain`] that resolution is
//! bad at. The library checks our stop callback after every conflict, so the
//! timeout and the cancel flag interrupt it promptly. The answer is checked by the solver's
//! usual verifier before it is returned.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use batsat::{Callbacks, Lit, SolverInterface, SolverOpts, Var, lbool};

use super::{Cnf, decode, encode};
use crate::model::Game;
use crate::solve::{Outcome, SolveOptions, SolveStats, verified};

/// How a SAT run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatEnd {
    /// `values[v]` for each variable `v` (index 0 unused).
    Model(Vec<bool>),
    /// The formula has no model: the level has no solution.
    Unsatisfiable,
    /// The caller's flag was raised first.
    Cancelled,
    /// The deadline passed first.
    TimedOut,
}

/// Library counters of one run.
#[derive(Clone, Copy, Debug, Default)]
pub struct SatCounters {
    /// Decisions made by the SAT solver.
    pub decisions: u64,
    /// Conflicts met.
    pub conflicts: u64,
    /// Restarts of the SAT solver's search.
    pub restarts: u64,
}

/// Stops the library when the caller's flag is raised or the deadline passes.
#[derive(Clone, Copy)]
struct Stop<'a> {
    cancel: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl Callbacks for Stop<'_> {
    fn stop(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Runs batsat on `cnf`.
pub fn solve_cnf(
    cnf: &Cnf,
    cancel: &AtomicBool,
    deadline: Option<Instant>,
) -> (SatEnd, SatCounters) {
    let stop = Stop { cancel, deadline };
    let mut solver = batsat::Solver::new(SolverOpts::default(), stop);
    let vars: Vec<Var> = (0..cnf.vars).map(|_| solver.new_var_default()).collect();
    let mut clause = Vec::with_capacity(8);
    let mut ok = true;
    for (k, c) in cnf.clauses().enumerate() {
        // Loading a large formula takes seconds: the flag and the deadline are read before
        // the first clause and every 65,536 after, not only once the library searches.
        if k.is_multiple_of(65_536) && stop.stop() {
            let end = if cancel.load(Ordering::Relaxed) {
                SatEnd::Cancelled
            } else {
                SatEnd::TimedOut
            };
            return (end, SatCounters::default());
        }
        clause.clear();
        clause.extend(
            c.iter()
                .map(|&l| Lit::new(vars[l.unsigned_abs() as usize - 1], l > 0)),
        );
        if !solver.add_clause_reuse(&mut clause) {
            ok = false;
            break;
        }
    }
    let answer = if ok {
        solver.solve_limited(&[])
    } else {
        lbool::FALSE
    };
    let counters = SatCounters {
        decisions: solver.num_decisions(),
        conflicts: solver.num_conflicts(),
        restarts: solver.num_restarts(),
    };
    let end = if answer == lbool::TRUE {
        let mut values = vec![false; cnf.vars as usize + 1];
        for (k, &v) in vars.iter().enumerate() {
            values[k + 1] = solver.value_var(v) == lbool::TRUE;
        }
        SatEnd::Model(values)
    } else if answer == lbool::FALSE {
        SatEnd::Unsatisfiable
    } else if cancel.load(Ordering::Relaxed) {
        SatEnd::Cancelled
    } else {
        SatEnd::TimedOut
    };
    (end, counters)
}

/// The largest level `-m cp` takes: 1024x1024 cells. Measured: a 2048x2048 level used 9.2 GB
/// (about 2.2 KB a cell for the clauses and batsat's copy of them), so this bounds the method
/// near 2.3 GB instead of letting the allocator abort.
pub const MAX_CP_CELLS: usize = 1 << 20;

/// Solves `game` with the SAT library (the `-m cp` method). Search nodes in the statistics
/// are the library's decisions, backtracks its conflicts.
pub fn solve_cp(game: &Game, opts: &SolveOptions, cancel: &AtomicBool) -> (Outcome, SolveStats) {
    if game.len() > MAX_CP_CELLS {
        return (
            Outcome::Rejected(format!(
                "-m cp takes levels of at most {MAX_CP_CELLS} cells (this one has {}): its formula and the SAT library's copy cost about 2 KB a cell; use -m auto",
                game.len()
            )),
            SolveStats::default(),
        );
    }
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let mut stats = SolveStats {
        cells: game.len(),
        threads: 1,
        region_sizes: vec![game.len()],
        jobs: 1,
        ..SolveStats::default()
    };
    let t = Instant::now();
    // Counting arguments (odd ends, unbalanced colours, a deficient set) need exponentially
    // long resolution proofs, so CDCL alone takes seconds on a broken 16x12 dominoes level;
    // the explainer's checks settle those at once and are sound (never fire on a solvable
    // level, see tests/it/explain.rs).
    let refuted = crate::explain::explain(game).is_some();
    stats.propagate_time = t.elapsed();
    if refuted {
        return (Outcome::Unsolvable, stats);
    }
    let stopped = || {
        if cancel.load(Ordering::Relaxed) {
            Some(Outcome::Cancelled)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Outcome::TimedOut)
        } else {
            None
        }
    };
    if let Some(end) = stopped() {
        return (end, stats);
    }
    let t = Instant::now();
    let cnf = encode(game);
    stats.regions_time = t.elapsed();
    let t = Instant::now();
    let (end, counters) = solve_cnf(&cnf, cancel, deadline);
    stats.search_time = t.elapsed();
    stats.counters.nodes = counters.decisions;
    stats.counters.backtracks = counters.conflicts;
    stats.counters.restarts = counters.restarts;
    match end {
        SatEnd::Model(values) => match decode(game, &cnf, &values) {
            Ok(solution) => verified(solution, stats),
            Err(e) => (
                Outcome::Rejected(format!(
                    "internal error: the SAT model is not a level ({e})"
                )),
                stats,
            ),
        },
        SatEnd::Unsatisfiable => (Outcome::Unsolvable, stats),
        SatEnd::Cancelled => (Outcome::Cancelled, stats),
        SatEnd::TimedOut => (Outcome::TimedOut, stats),
    }
}

//! `-m cp`: the level's CNF handed to the SAT library ([`crate::cnf::sat`]), after the
//! counting checks of [`crate::explain`] that resolution is bad at. Lives here, not in `cnf`,
//! so the solver's outcome and statistics stay the solver's: `cnf` knows nothing of `solve`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Outcome, SolveOptions, SolveStats, verified};
use crate::cnf::sat::{SatEnd, solve_cnf};
use crate::cnf::{decode, encode_until};
use crate::model::Game;

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
    let cnf = encode_until(game, &|| stopped().is_some());
    stats.regions_time = t.elapsed();
    let Some(cnf) = cnf else {
        return (stopped().unwrap_or(Outcome::TimedOut), stats);
    };
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

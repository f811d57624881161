//! The "no solution" reason the CLI prints: the cheap analyses of [`crate::explain`], else
//! what the search's statistics say.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::explain::{Reason, explain};
use crate::model::Game;
use crate::solve::{Outcome, SolveOptions, SolveStats, solve};

/// Time `--check --verbose` gives the solver to prove "no solution" when no cheap reason
/// applies.
const CHECK_SOLVE_LIMIT: Duration = Duration::from_secs(5);

/// The reason after a search proved there is no solution.
pub fn reason_after_search(game: &Game, st: &SolveStats) -> Reason {
    explain(game).unwrap_or_else(|| Reason::Exhausted {
        regions: st.region_sizes.len(),
        largest: st.region_sizes.iter().copied().max().unwrap_or(0),
        nodes: st.counters.nodes,
    })
}

/// Above this many cells `--check --verbose` does not look for a reason: checking stays a
/// quick pass over the grid.
const CHECK_EXPLAIN_MAX_CELLS: usize = 1 << 20;

/// For `--check --verbose` of an unsolved level: why no rotation of it is solved, if it has
/// no solution (a cheap reason, else a short solve); `None` when it has one, the solve ran
/// out of time, or the level is larger than `CHECK_EXPLAIN_MAX_CELLS` (2^20).
pub fn why_unsolvable(game: &Game) -> Option<Reason> {
    if game.len() > CHECK_EXPLAIN_MAX_CELLS {
        return None;
    }
    if let Some(r) = explain(game) {
        return Some(r);
    }
    let opts = SolveOptions {
        timeout: Some(CHECK_SOLVE_LIMIT),
        ..SolveOptions::default()
    };
    match solve(game, &opts, &AtomicBool::new(false)) {
        (Outcome::Unsolvable, st) => Some(reason_after_search(game, &st)),
        _ => None,
    }
}

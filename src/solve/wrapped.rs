//! The square engine on a square board that wraps. Where every wrapped length is even the
//! board is still two-coloured (a cell and its neighbour across a seam differ in colour), so
//! the degree witness and its filter ([`super::flow`]) hold there as on the bounded board:
//! the whole engine runs, on a board whose neighbours come from a table
//! ([`Board::wrapped`]). That is what finishes levels of mostly one-end pieces (a matching
//! problem) on wrapped boards, where the any-board engine and conflict learning thrash.
//! The first pass is the bounded board's, with stand-ins across the seams, then a worklist
//! over the seams ([`first_pass_wrapped`]).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::board::Board;
use super::first_pass::first_pass_wrapped;
use super::pool::Limits;
use super::regions::find_grid_regions_until;
use super::{Outcome, SolveOptions, SolveStats, extract, search_regions, verified_by};
use crate::model::Game;

/// Whether the square engine may solve a board of `height` x `width` cells wrapping as told:
/// every wrapped length even (two colours across the seams) and at least 4, so that no cell
/// meets another across two of its sides.
pub fn wraps_two_coloured(height: usize, width: usize, wrap_rows: bool, wrap_cols: bool) -> bool {
    let fits = |len: usize, wraps: bool| !wraps || (len >= 4 && len.is_multiple_of(2));
    (wrap_rows || wrap_cols) && fits(height, wrap_rows) && fits(width, wrap_cols)
}

/// Solves `game`'s shapes on a square board whose columns wrap (`wrap_rows`: the top row
/// meets the bottom one) and/or whose rows wrap (`wrap_cols`), which must be
/// [`wraps_two_coloured`]. The bounded-board verifier does not apply, so the caller's
/// `defect` judges the answer (`None`: solved) before it is returned as solved.
pub fn solve_wrapped(
    game: &Game,
    (wrap_rows, wrap_cols): (bool, bool),
    opts: &SolveOptions,
    cancel: &AtomicBool,
    defect: impl Fn(&Game) -> Option<String>,
) -> (Outcome, SolveStats) {
    assert!(
        wraps_two_coloured(game.height(), game.width(), wrap_rows, wrap_cols),
        "the witness needs two colours across the seams"
    );
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let mut stats = SolveStats {
        cells: game.len(),
        threads: opts.threads.max(1),
        ..SolveStats::default()
    };
    let limits = Limits { cancel, deadline };
    let stopped = || limits.stopped();
    let halted = || stopped().is_some();
    // Building the board and the first pass take most of a second at 4096x4096 before the
    // pass looks at the flag: a time limit already spent (by a slow read) stops here.
    let t = Instant::now();
    if let Some(end) = stopped() {
        return (end, stats);
    }
    let board = Board::wrapped(game, wrap_rows, wrap_cols);
    if let Some(end) = stopped() {
        stats.propagate_time = t.elapsed();
        return (end, stats);
    }
    let wrap = (wrap_rows, wrap_cols);
    let (mut state, propagated) = first_pass_wrapped(&board, wrap, opts.threads, &halted);
    stats.propagate_time = t.elapsed();
    match propagated {
        None => return (stopped().unwrap_or(Outcome::Cancelled), stats),
        Some(false) => return (Outcome::Unsolvable, stats),
        Some(true) => {}
    }
    stats.fixed_after_propagation = board.cells().filter(|&c| state.is_fixed(c)).count();

    let t = Instant::now();
    let Some(regions) = find_grid_regions_until(&board, &state, &halted) else {
        stats.regions_time = t.elapsed();
        return (stopped().unwrap_or(Outcome::Cancelled), stats);
    };
    let stats_since = (&mut stats, t);
    if let Err(end) = search_regions(&board, &mut state, &regions, opts, limits, stats_since) {
        return (end, stats);
    }
    verified_by(extract(game, &board, &state), stats, defect)
}

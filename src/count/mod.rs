//! Solution counting: propagate, split the undecided cells into independent regions, count each
//! region with the component-splitting [`counter::Counter`] and multiply. Counts are exact and
//! of any size ([`number::Count`]); an optional limit stops as soon as the answer is known to
//! reach it.

pub mod counter;
pub mod number;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::model::Game;
use crate::solve::board::Board;
use crate::solve::regions::find_regions;
use counter::{CountCounters, Counter};
use number::Count;

#[derive(Clone, Debug, Default)]
pub struct CountOptions {
    /// Stop once the count is known to be at least this (≥ 1).
    pub limit: Option<u64>,
    /// Give up after this long (the whole count, from the call).
    pub timeout: Option<Duration>,
}

/// What the count concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountOutcome {
    /// The number of solutions (zero: the level has no solution).
    Exact(BigUint),
    /// There are at least this many solutions (the limit was reached).
    AtLeast(u64),
    TimedOut,
    Cancelled,
}

/// Figures about one count, for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct CountStats {
    pub cells: usize,
    pub fixed_after_propagation: usize,
    pub region_sizes: Vec<usize>,
    pub counters: CountCounters,
    pub propagate_time: Duration,
    pub count_time: Duration,
}

/// Counts the solutions of `game` (its orientations are ignored: only the shapes matter).
/// Two solutions are different when some cell has a different connection mask. Raising
/// `cancel` from another thread stops the count promptly with [`CountOutcome::Cancelled`].
pub fn count_solutions(
    game: &Game,
    opts: &CountOptions,
    cancel: &AtomicBool,
) -> (CountOutcome, CountStats) {
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let limit = opts.limit.map(|k| k.max(1));
    let mut stats = CountStats {
        cells: game.len(),
        ..CountStats::default()
    };
    let t = Instant::now();
    let board = Board::new(game);
    let (mut state, consistent) = crate::solve::first_pass::first_pass(&board);
    stats.propagate_time = t.elapsed();
    if !consistent {
        return (CountOutcome::Exact(BigUint::ZERO), stats);
    }
    stats.fixed_after_propagation = board.cells().filter(|&c| state.is_fixed(c)).count();

    let t = Instant::now();
    let mut seen = vec![false; board.len()];
    let regions = find_regions(&board, &state, board.cells(), &mut seen);
    drop(seen);
    stats.region_sizes = (0..regions.len()).map(|i| regions.get(i).len()).collect();
    let stop = || cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let mut counter = Counter::new(&board);
    let mut total = Count::ONE;
    // Smallest first: a region without a solution is usually found sooner there.
    let mut order: Vec<usize> = (0..regions.len()).collect();
    order.sort_by_key(|&r| regions.get(r).len());
    for r in order {
        let counted = counter.count(&board, &mut state, regions.get(r), limit, false, &stop);
        let Ok(c) = counted else {
            stats.counters = counter.counters;
            stats.count_time = t.elapsed();
            let end = if cancel.load(Ordering::Relaxed) {
                CountOutcome::Cancelled
            } else {
                CountOutcome::TimedOut
            };
            return (end, stats);
        };
        total.mul_assign(&c);
        if total.is_zero() {
            break;
        }
        if let Some(k) = limit {
            total.cap(k);
        }
    }
    stats.counters = counter.counters;
    stats.count_time = t.elapsed();
    let outcome = match limit {
        Some(k) if total.to_u128() == Some(u128::from(k)) => CountOutcome::AtLeast(k),
        _ => CountOutcome::Exact(total.to_biguint()),
    };
    (outcome, stats)
}

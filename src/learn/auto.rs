//! `-m auto` on a board: one of the any-board engine and conflict learning first, within a
//! budget that grows with the board, then the other for a level the first has not settled
//! by then. The engine is the faster of the two wherever propagation and probing decide
//! most cells (random, loops, mazes, path tilings), so it goes first on those. Learning,
//! from its repaired near-solution, is what finishes levels of mostly one-end pieces on
//! hexagonal and wrapped boards (a matching problem, where the engine's chronological
//! search thrashes: hexagonal dominoes 128x128, no answer in 15 s against 0.3 s), so it
//! goes first where at least two cells in three hold a one-end piece. Square boards that wrap
//! with even lengths stay with the engine, which hands them to the square engine's witness:
//! learning was far slower there on every level tried. Handing over instead of racing keeps both threads
//! on the method that suits the level.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::solve::{LearnStats, solve, solve_pausing, solve_raced};
use crate::anyboard::{Outcome, Stats, solve_level};
use crate::board::{BoardLevel, Rules};

/// The engine's budget before learning takes over: a second plus 2 µs a cell (33 s at
/// 4096x4096, several times what the engine needs for any family it solves there).
fn engine_budget(cells: usize) -> Duration {
    Duration::from_secs(1) + Duration::from_micros(2 * cells as u64)
}

/// Solves `level` as `-m auto` does on boards (see the module doc). The learning figures
/// are there when learning ran.
pub fn solve_auto(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, Stats, Option<LearnStats>) {
    // Under Net rules the engine's loop and island propagators decide what learning's tree
    // theory only refutes: hexagonal Net 256x256 (seed 1), 0.14 s against 15.8 s.
    if level.rules() == Rules::Net {
        let (o, st) = solve_level(level, timeout, cancel);
        return (o, st, None);
    }
    // A square board that wraps with even lengths goes to the square engine, whose flow
    // witness and probing outrun learning on every family there: handing over after the
    // budget only lost the time left. Path tilings at 256x256 on a torus (seed 1): the
    // engine alone 1.7 s at 75 % bent and 23 s at 90 %; handed over after 1.1 s, learning
    // had no answer in 60 s.
    if crate::anyboard::takes_square_engine(level) {
        let (o, st) = solve_level(level, timeout, cancel);
        return (o, st, None);
    }
    let budget = engine_budget(level.board().len());
    if one_end_heavy(level) {
        learning_first(level, timeout, cancel, budget)
    } else {
        handover(level, timeout, cancel, budget)
    }
}

/// Whether at least two cells in three hold a one-end piece.
pub(super) fn one_end_heavy(level: &BoardLevel) -> bool {
    let ones = level.masks().iter().filter(|m| m.count_ones() == 1).count();
    3 * ones >= 2 * level.masks().len()
}

/// Learning within four times the engine's `budget`, then the engine within its budget, then
/// learning again for the time left, two searches raced ([`solve_raced`]), the first
/// carrying on the first slice's search. Learning is the
/// one of the two that finishes these levels; the engine still gets the slice it gets first
/// elsewhere. It used to get all the time left, and on path tilings of a hexagonal board,
/// where learning needs longer than its first slice, nothing finished: 96x96 seed 3 had no
/// answer in 60 s under `auto`, against 5.5 s under `-m learn -t 2`.
fn learning_first(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    budget: Duration,
) -> (Outcome, Stats, Option<LearnStats>) {
    let t0 = Instant::now();
    let left = || timeout.map(|t| t.saturating_sub(t0.elapsed()));
    // A slice of at most `d` from the time left: whether it is all of it.
    let slice = |d: Duration| {
        let left = left().unwrap_or(Duration::MAX);
        (left.min(d), left <= d)
    };
    let (first, last) = slice(4 * budget);
    // One search first: most such levels take it well within its slice, and two searches
    // at once cost them a third more (hexagonal dominoes 1024x1024: 0.45 s against 0.64 s).
    let (outcome, ls, paused) = solve_pausing(level, Some(first), cancel);
    if last || !matches!(outcome, Outcome::TimedOut) || cancel.load(Ordering::Relaxed) {
        let st = ls.as_engine_stats();
        return (outcome, st, Some(ls));
    }
    let (second, last) = slice(budget);
    let (outcome, st) = solve_level(level, Some(second), cancel);
    if last || !matches!(outcome, Outcome::TimedOut) || cancel.load(Ordering::Relaxed) {
        return (outcome, st, Some(ls));
    }
    let (outcome, ls) = solve_raced(level, left(), cancel, paused);
    (outcome, ls.as_engine_stats(), Some(ls))
}

/// [`solve_auto`] with the engine's budget given.
fn handover(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    budget: Duration,
) -> (Outcome, Stats, Option<LearnStats>) {
    let t0 = Instant::now();
    if timeout.is_some_and(|t| t <= budget) {
        let (o, st) = solve_level(level, timeout, cancel);
        return (o, st, None);
    }
    let (outcome, st) = solve_level(level, Some(budget), cancel);
    if !matches!(outcome, Outcome::TimedOut) || cancel.load(Ordering::Relaxed) {
        return (outcome, st, None);
    }
    let left = timeout.map(|t| t.saturating_sub(t0.elapsed()));
    let (outcome, ls) = solve(level, left, cancel);
    (outcome, st, Some(ls))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fixtures::{random_connections, scrambled};
    use crate::board::{Board, Tiling, Wrap};

    #[test]
    fn a_level_the_engine_leaves_goes_to_learning_and_comes_back_verified() {
        let cancel = AtomicBool::new(false);
        let mut rng = fastrand::Rng::with_seed(28);
        // An odd width: a torus the square engine does not take, so `solve_auto` hands it over.
        for (tiling, wrap) in [
            (Tiling::Hexagonal, Wrap::NONE),
            (Tiling::Square, Wrap::BOTH),
        ] {
            let b = Board::new(tiling, 11, 10, wrap).unwrap();
            assert!(!crate::anyboard::takes_square_engine(
                &BoardLevel::new(b.clone(), vec![0; b.len()]).unwrap()
            ));
            let solved = random_connections(&b, &mut rng);
            let level = scrambled(&b, &solved, Rules::Infinity, 50, &mut rng);
            // No budget: the engine times out at once and learning answers.
            let (o, _, ls) = handover(&level, None, &cancel, Duration::ZERO);
            assert!(ls.is_some(), "learning did not run on {tiling:?}");
            match o {
                Outcome::Solved(s) => {
                    assert!(s.is_turning_of(&level) && crate::anyboard::is_solved(&s))
                }
                other => panic!("{other:?}"),
            }
            // A budget the engine meets: no learning.
            let (o, _, ls) = handover(&level, None, &cancel, Duration::from_secs(60));
            assert!(ls.is_none() && matches!(o, Outcome::Solved(_)));
        }
    }
}

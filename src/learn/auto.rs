//! `-m auto` on a board: the any-board engine first, within a budget that grows with the
//! board, then conflict learning for a level the engine has not settled by then. The engine
//! is the faster of the two wherever propagation and probing decide most cells (random,
//! loops, mazes, path tilings); learning is what finishes levels of mostly one-end pieces on
//! hexagonal and wrapped boards (a matching problem, where the engine's chronological
//! search thrashes: hexagonal dominoes 128x128, no answer in 15 s against 0.3 s). Handing
//! over instead of racing keeps both threads on the engine for the levels it solves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::solve::{LearnStats, solve};
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
    handover(level, timeout, cancel, engine_budget(level.board().len()))
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
        for (tiling, wrap) in [
            (Tiling::Hexagonal, Wrap::NONE),
            (Tiling::Square, Wrap::BOTH),
        ] {
            let b = Board::new(tiling, 12, 10, wrap).unwrap();
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

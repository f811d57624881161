//! `-m cp` on any board: the level's formula ([`crate::cnf::board`]) handed to the SAT
//! library, the model read back into turns and verified like every other answer. The
//! formula knows no Net rules (one tree is not a clause set of this encoding), so a level
//! under them is refused by [`solve_sat`]'s callers; barriers and locks are in the formula.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::net_verify::first_fault;
use super::solve::{Outcome, Stats};
use crate::board::{BoardLevel, Rules};
use crate::cnf::board::{board_cnf, decode_board};
use crate::cnf::sat::{SatEnd, solve_clauses};

/// Solves `level` (Infinity rules) with the SAT library. Search nodes in the statistics are
/// the library's decisions.
pub fn solve_sat(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, Stats) {
    assert_eq!(
        level.rules(),
        Rules::Infinity,
        "the formula knows no Net rules"
    );
    let deadline = timeout.map(|t| Instant::now() + t);
    let mut stats = Stats {
        cells: level.board().len(),
        regions: 1,
        largest_region: level.board().len(),
        ..Stats::default()
    };
    // Resolution needs exponentially many steps for such a parity argument.
    if level.odd_ends() {
        return (Outcome::NoSolution, stats);
    }
    let t = Instant::now();
    let cnf = board_cnf(level);
    stats.propagate_time = t.elapsed();
    let t = Instant::now();
    let (end, counters) = solve_clauses(cnf.vars, cnf.clauses(), cancel, deadline);
    stats.search_time = t.elapsed();
    stats.nodes = counters.decisions;
    let outcome = match end {
        SatEnd::Model(values) => {
            let t = Instant::now();
            let solved =
                decode_board(level, &cnf, &values).expect("a model sets one orientation per cell");
            assert!(
                first_fault(&solved).is_none() && solved.is_turning_of(level),
                "the SAT model is not a solution of the level"
            );
            stats.verify_time = t.elapsed();
            Outcome::Solved(solved)
        }
        SatEnd::Unsatisfiable => Outcome::NoSolution,
        SatEnd::TimedOut => Outcome::TimedOut,
        SatEnd::Cancelled => Outcome::Cancelled,
    };
    (outcome, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anyboard::net_verify::first_fault;
    use crate::board::{Board, Tiling, Wrap};
    use crate::generate::board_families::{BoardFamily, generate_on_board};

    /// On random small levels of every board kind, with barriers and locks, the formula
    /// agrees with the engine's search on whether there is a solution, and its answers are
    /// solutions of the level.
    #[test]
    fn the_formula_agrees_with_the_search_on_every_board_kind() {
        let mut rng = fastrand::Rng::with_seed(11);
        let kinds = [
            (Tiling::Square, Wrap::NONE),
            (Tiling::Square, Wrap::BOTH),
            (
                Tiling::Square,
                Wrap {
                    horizontal: true,
                    vertical: false,
                },
            ),
            (Tiling::Hexagonal, Wrap::NONE),
            (Tiling::Hexagonal, Wrap::BOTH),
        ];
        let cancel = AtomicBool::new(false);
        let (mut solved, mut unsolvable) = (0, 0);
        for (tiling, wrap) in kinds {
            for _ in 0..60 {
                let (w, h) = (rng.usize(2..5), rng.usize(2..5));
                let board = Board::new(tiling, w, h, wrap).unwrap();
                let k = board.sides();
                let family = BoardFamily::Random { density: 0.5 };
                let (mut level, _) = generate_on_board(&board, family, rng.u64(..));
                if rng.bool() {
                    // One side more or fewer somewhere: often no solution is left.
                    let c = rng.usize(..level.board().len());
                    level.masks_mut()[c] ^= 1 << rng.u8(..k);
                }
                if rng.bool() {
                    let locked = (0..level.board().len()).map(|_| rng.u8(..8) == 0).collect();
                    level = level.with_locked(locked).unwrap();
                }
                if rng.bool() {
                    let b = level.board().clone();
                    let mut walls = vec![0u8; b.len()];
                    for (c, s) in b.edges() {
                        if rng.u8(..6) == 0 {
                            let (n, t) = b.neighbour(c, s).unwrap();
                            walls[c] |= 1 << s;
                            walls[n] |= 1 << t;
                        }
                    }
                    level = level.with_barriers(walls).unwrap();
                }
                let search = super::super::net_search::solve_level(&level, None, &cancel).0;
                let sat = solve_sat(&level, None, &cancel).0;
                match (&search, &sat) {
                    (Outcome::Solved(_), Outcome::Solved(s)) => {
                        assert!(first_fault(s).is_none() && s.is_turning_of(&level), "{s:?}");
                        solved += 1;
                    }
                    (Outcome::NoSolution, Outcome::NoSolution) => unsolvable += 1,
                    _ => panic!("search {search:?} against SAT {sat:?} on {level:?}"),
                }
            }
        }
        // Random masks are mostly unsolvable; a few must be solvable for this to test answers.
        assert!(
            solved >= 5 && unsolvable >= 5,
            "{solved} solved, {unsolvable} not"
        );
    }
}

//! Unique levels on any board, as Simon Tatham's Net generator makes them: solve the scrambled
//! level for two solutions; while there are two, change the intended solution where they
//! differ (add or remove one connection at a cell on which they disagree) and try again.
//! Under the Infinity Loop rules every set of connections is a solved level, so each change
//! keeps the level solvable; only the ambiguous areas change.

use std::sync::atomic::AtomicBool;

use super::board_families::scramble;
use crate::anyboard::two_solutions;
use crate::board::BoardLevel;

/// Changes `solution` (a solved level) until its scrambled form has exactly one solution;
/// returns the scrambled level and its solution. Gives up after `rounds` changes.
pub fn make_unique(
    mut solution: BoardLevel,
    rng: &mut fastrand::Rng,
    rounds: usize,
    cancel: &AtomicBool,
) -> Result<(BoardLevel, BoardLevel), String> {
    for _ in 0..=rounds {
        let mut level = solution.clone();
        scramble(&mut level, rng);
        let sols = two_solutions(&level, None, cancel).map_err(|_| "cancelled".to_string())?;
        let [a, b] = &sols[..] else {
            // Never empty: the scrambled intended solution is a solution.
            return Ok((level, solution));
        };
        let differ: Vec<usize> = (0..a.masks().len())
            .filter(|&c| a.masks()[c] != b.masks()[c])
            .collect();
        let cell = differ[rng.usize(..differ.len())];
        let board = solution.board().clone();
        let sides: Vec<usize> = (0..board.sides() as usize)
            .filter(|&s| board.neighbour(cell, s).is_some())
            .collect();
        let s = sides[rng.usize(..sides.len())];
        let (n, t) = board.neighbour(cell, s).expect("a side with a neighbour");
        let masks = solution.masks_mut();
        masks[cell] ^= 1 << s;
        masks[n] ^= 1 << t;
    }
    Err(format!(
        "no unique level after {rounds} changes; try another seed"
    ))
}

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

/// As [`make_unique`], under Net rules: `solution` is a spanning tree of its board (solved
/// under Net rules) and stays one. While the scrambled level has a second solution, a
/// connection of that other solution at a cell where the two differ is added to the tree,
/// which closes one cycle, and a connection of that cycle is removed — one touching a cell
/// where the two differ when there is one, so the change stays in the ambiguous area (SGT
/// Net's perturbation). Barriers and locks are not added here: they only take solutions
/// away, so the caller adds them after.
pub fn make_unique_net(
    mut solution: BoardLevel,
    rng: &mut fastrand::Rng,
    rounds: usize,
    cancel: &AtomicBool,
) -> Result<(BoardLevel, BoardLevel), String> {
    let solution_rules = solution.rules();
    assert_eq!(solution_rules, crate::board::Rules::Net, "a Net level");
    for _ in 0..=rounds {
        let mut level = solution.clone();
        scramble(&mut level, rng);
        let sols = crate::anyboard::two_solutions_level(&level, None, cancel)
            .map_err(|_| "cancelled".to_string())?;
        let [a, b] = &sols[..] else {
            return Ok((level, solution));
        };
        // The solution found first need not be ours: compare ours with whichever differs.
        let other = if a.masks() == solution.masks() { b } else { a };
        swap_one_connection(&mut solution, other, rng);
    }
    Err(format!(
        "no unique level after {rounds} changes; try another seed"
    ))
}

/// Adds to the tree `tree` one connection `other` has and it lacks, and removes another of
/// the cycle that closes (see [`make_unique_net`]).
fn swap_one_connection(tree: &mut BoardLevel, other: &BoardLevel, rng: &mut fastrand::Rng) {
    let board = tree.board().clone();
    let k = board.sides() as usize;
    let differ: Vec<bool> = (0..board.len())
        .map(|c| tree.masks()[c] != other.masks()[c])
        .collect();
    let cells: Vec<usize> = (0..board.len()).filter(|&c| differ[c]).collect();
    let c = cells[rng.usize(..cells.len())];
    // Same shape, different masks: `other` connects some side here that the tree does not.
    let extra = other.masks()[c] & !tree.masks()[c];
    let sides: Vec<usize> = (0..k).filter(|&s| extra >> s & 1 == 1).collect();
    let s = sides[rng.usize(..sides.len())];
    let (n, t) = board
        .neighbour(c, s)
        .expect("a solution connects no border");
    // The tree's path from n back to c: with the new connection, the cycle.
    let path = tree_path(tree, n, c);
    let touching: Vec<(usize, usize)> = path
        .iter()
        .copied()
        .filter(|&(x, side)| differ[x] || differ[board.neighbour(x, side).expect("linked").0])
        .collect();
    let pool = if touching.is_empty() {
        &path
    } else {
        &touching
    };
    let (x, side) = pool[rng.usize(..pool.len())];
    let (y, back) = board.neighbour(x, side).expect("linked");
    let masks = tree.masks_mut();
    masks[c] |= 1 << s;
    masks[n] |= 1 << t;
    masks[x] &= !(1 << side);
    masks[y] &= !(1 << back);
}

/// The connections (as `(cell, side)`) of the path from `from` to `to` in the tree `tree`.
fn tree_path(tree: &BoardLevel, from: usize, to: usize) -> Vec<(usize, usize)> {
    let board = tree.board();
    let k = board.sides() as usize;
    let mut came = vec![u32::MAX; board.len()];
    came[from] = from as u32 * 8;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(x) = queue.pop_front() {
        if x == to {
            break;
        }
        for side in 0..k {
            if tree.masks()[x] >> side & 1 == 1
                && let Some((y, back)) = board.neighbour(x, side)
                && came[y] == u32::MAX
            {
                // Where y came from: x's cell and the side of y facing it.
                came[y] = (x as u32) * 8 + back as u32;
                queue.push_back(y);
            }
        }
    }
    let mut path = Vec::new();
    let mut y = to;
    while y != from {
        let entry = came[y];
        assert_ne!(entry, u32::MAX, "a spanning tree joins every cell");
        let back = (entry & 7) as usize;
        path.push((y, back));
        y = (entry >> 3) as usize;
    }
    path
}

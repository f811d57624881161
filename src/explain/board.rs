//! Why a level on any board has no solution, as a set of cells that has none on its own: the
//! cells with their pieces, every side towards a cell outside the set left free (either way),
//! every side on the board's edge or behind a barrier empty. Such a set is a certificate: a
//! solution of the level would be one of the set. The reasons, cheapest to read first:
//!
//! - a wipe-out: propagation over a few cells around the cell that whole-board propagation
//!   emptied empties a cell of them (grown ring by ring until it does, then thinned one cell at
//!   a time while it still does);
//! - an odd number of piece ends (every connection joins two ends), over the whole board;
//! - else the search was exhausted, which no smaller set than the board stands for.
//!
//! Like the square explanations (the module above), this is independent of the solver: its
//! own propagation over the board's link table, so it explains and the engine decides.

use std::collections::VecDeque;

use crate::board::{BoardLevel, NO_LINK};

/// Why a board level has no solution (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardReason {
    /// Propagation over `cells` alone leaves `cell` (one of them) no orientation.
    Wipeout {
        /// The cell left without an orientation.
        cell: usize,
        /// The cells read, ascending.
        cells: Vec<usize>,
    },
    /// The pieces have this many ends in all, an odd number.
    OddEnds {
        /// Total ends.
        ends: usize,
    },
    /// No cheap reason: the search over the whole board found no solution.
    Exhausted {
        /// Cells of the board.
        cells: usize,
    },
}

impl BoardReason {
    /// The cells to shade: the wipe-out's set; none for a reason about the whole board (as
    /// the square reasons do).
    pub fn cells(&self) -> Vec<usize> {
        match self {
            BoardReason::Wipeout { cells, .. } => cells.clone(),
            BoardReason::OddEnds { .. } => Vec::new(),
            BoardReason::Exhausted { .. } => Vec::new(),
        }
    }

    /// One line for the terminal.
    pub fn message(&self, level: &BoardLevel) -> String {
        match self {
            BoardReason::Wipeout { cell, cells } => {
                let board = level.board();
                let (r, c) = board.row_col(*cell);
                let shaded = match cells.len() {
                    1 => "the shaded cell admits no turning on its own (sides to other cells left free): propagating its piece".to_string(),
                    n => format!("the {n} shaded cells admit no turning on their own (sides to other cells left free): propagating their pieces"),
                };
                // Mixed grids' cells are not in rows: hexapipes' tile number names them.
                let at = if board.is_uniform() {
                    format!("the cell at row {}, column {}", r + 1, c + 1)
                } else {
                    format!("tile {cell}")
                };
                format!("{shaded} leaves {at} no orientation")
            }
            BoardReason::OddEnds { ends } => format!(
                "the pieces have {ends} ends in all, an odd number, but every connection joins two"
            ),
            BoardReason::Exhausted { cells } => {
                format!("no cheap reason: the search over all {cells} cells was exhausted")
            }
        }
    }
}

/// The reason `level` (known to have no solution) has none, under Infinity rules (sound under
/// Net rules too: their solutions are Infinity solutions).
pub fn board_reason(level: &BoardLevel) -> BoardReason {
    if let Some((cell, cells)) = wipeout(level) {
        return BoardReason::Wipeout { cell, cells };
    }
    let ends: usize = level.masks().iter().map(|m| m.count_ones() as usize).sum();
    if ends % 2 == 1 {
        return BoardReason::OddEnds { ends };
    }
    BoardReason::Exhausted {
        cells: level.board().len(),
    }
}

/// Sets of at most this many cells are thinned (each try is a propagation over the set).
const THIN_MAX: usize = 512;

/// A small set of cells whose propagation alone empties one of them, if whole-board
/// propagation empties a cell: the cell and the set, ascending.
fn wipeout(level: &BoardLevel) -> Option<(usize, Vec<usize>)> {
    let n = level.board().len();
    let everything = vec![true; n];
    let all: Vec<usize> = (0..n).collect();
    let emptied = propagate_alone(level, &everything, &all)?;
    let mut radius = 1;
    let mut set = loop {
        let ball = ball(level, emptied, radius);
        if ball.len() == n {
            break all;
        }
        let mut inside = vec![false; n];
        ball.iter().for_each(|&c| inside[c] = true);
        if propagate_alone(level, &inside, &ball).is_some() {
            break ball;
        }
        radius *= 2;
    };
    if set.len() <= THIN_MAX {
        set = thinned(level, set);
    }
    set.sort_unstable();
    let mut inside = vec![false; n];
    set.iter().for_each(|&c| inside[c] = true);
    let cell = propagate_alone(level, &inside, &set).expect("the set still empties a cell");
    Some((cell, set))
}

/// `set` without each cell, farthest first, whose removal keeps the set emptying a cell.
fn thinned(level: &BoardLevel, mut set: Vec<usize>) -> Vec<usize> {
    let n = level.board().len();
    let mut inside = vec![false; n];
    set.iter().for_each(|&c| inside[c] = true);
    // The ball lists cells nearest first: try the far ones first.
    let mut i = set.len();
    while i > 0 {
        i -= 1;
        let c = set[i];
        inside[c] = false;
        let without: Vec<usize> = set.iter().copied().filter(|&x| x != c).collect();
        if propagate_alone(level, &inside, &without).is_some() {
            set = without;
        } else {
            inside[c] = true;
        }
    }
    set
}

/// The cells within `radius` steps of `centre`, nearest first.
fn ball(level: &BoardLevel, centre: usize, radius: usize) -> Vec<usize> {
    let b = level.board();
    let k = b.sides() as usize;
    let mut dist = vec![usize::MAX; b.len()];
    let mut out = vec![centre];
    let mut queue = VecDeque::from([centre]);
    dist[centre] = 0;
    while let Some(c) = queue.pop_front() {
        if dist[c] == radius {
            continue;
        }
        for &l in &b.links()[c * k..c * k + k] {
            if l == NO_LINK {
                continue;
            }
            let nb = (l >> 3) as usize;
            if dist[nb] == usize::MAX {
                dist[nb] = dist[c] + 1;
                out.push(nb);
                queue.push_back(nb);
            }
        }
    }
    out
}

/// Arc consistency over the cells `cells` (those marked in `inside`) alone: a side towards a
/// cell outside is free, a side on the edge or behind a barrier empty, a locked cell keeps its
/// turn. The first cell left no orientation, or `None` at a fixed point.
pub fn propagate_alone(level: &BoardLevel, inside: &[bool], cells: &[usize]) -> Option<usize> {
    let b = level.board();
    let k = b.sides();
    let masks = level.masks();
    // Orientation r of a cell is its mask turned r times; at most `k` of them.
    let turns = |c: usize| {
        if level.is_locked(c) {
            1
        } else {
            b.period(c, masks[c])
        }
    };
    let mut dom: Vec<u8> = vec![0; b.len()];
    for &c in cells {
        dom[c] = ((1u16 << turns(c)) - 1) as u8;
    }
    // Sides every orientation left connects, and sides some orientation connects.
    let sides = |dom: &[u8], c: usize| {
        let (mut must, mut may) = (u8::MAX, 0u8);
        for r in 0..turns(c) {
            if dom[c] >> r & 1 == 1 {
                let m = b.turn(c, masks[c], r);
                must &= m;
                may |= m;
            }
        }
        (must, may)
    };
    let ku = k as usize;
    let mut queue: VecDeque<usize> = cells.iter().copied().collect();
    let mut queued = vec![false; b.len()];
    cells.iter().for_each(|&c| queued[c] = true);
    while let Some(c) = queue.pop_front() {
        queued[c] = false;
        let (mut req, mut forb) = (0u8, level.barrier(c));
        for s in 0..ku {
            let l = b.links()[c * ku + s];
            if l == NO_LINK {
                forb |= 1 << s;
                continue;
            }
            let (nb, t) = ((l >> 3) as usize, l & 7);
            if !inside[nb] {
                continue;
            }
            let (must, may) = sides(&dom, nb);
            req |= (must >> t & 1) << s;
            forb |= (!may >> t & 1) << s;
        }
        let mut keep = 0u8;
        for r in 0..turns(c) {
            let m = b.turn(c, masks[c], r);
            if dom[c] >> r & 1 == 1 && m & forb == 0 && m & req == req {
                keep |= 1 << r;
            }
        }
        if keep == 0 {
            return Some(c);
        }
        if keep != dom[c] {
            dom[c] = keep;
            for s in 0..ku {
                let l = b.links()[c * ku + s];
                if l != NO_LINK {
                    let nb = (l >> 3) as usize;
                    if inside[nb] && !queued[nb] {
                        queued[nb] = true;
                        queue.push_back(nb);
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fixtures::small_boards;

    /// Turnings [`set_has_a_turning`] tries at most (a debug build tries about a million a
    /// second).
    const BRUTE_MAX: u64 = 1 << 17;

    /// Whether some turning of the cells of `set` alone (sides to other cells free, edge sides
    /// empty) joins every end, by trying every turning (written apart from the propagation);
    /// `None` when there are more than [`BRUTE_MAX`] turnings.
    fn set_has_a_turning(level: &BoardLevel, set: &[usize]) -> Option<bool> {
        let b = level.board();
        let k = b.sides();
        let turns: Vec<u8> = set.iter().map(|&c| b.period(c, level.masks()[c])).collect();
        if turns.iter().map(|&t| t as u64).product::<u64>() > BRUTE_MAX {
            return None;
        }
        let mut pick = vec![0u8; set.len()];
        let mut current = level.masks().to_vec();
        loop {
            for (i, &c) in set.iter().enumerate() {
                current[c] = b.turn(c, level.masks()[c], pick[i]);
            }
            let fits = set.iter().all(|&c| {
                (0..k as usize).all(|s| {
                    let on = current[c] >> s & 1 == 1;
                    match b.neighbour(c, s) {
                        None => !on,
                        Some((nb, t)) if set.contains(&nb) => on == (current[nb] >> t & 1 == 1),
                        Some(_) => true,
                    }
                })
            });
            if fits {
                return Some(true);
            }
            // The next turning, as a mixed-radix counter.
            let mut i = 0;
            loop {
                if i == set.len() {
                    return Some(false);
                }
                pick[i] += 1;
                if pick[i] < turns[i] {
                    break;
                }
                pick[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn every_shaded_set_has_no_turning_on_its_own() {
        let mut rng = fastrand::Rng::with_seed(31);
        let (mut wipeouts, mut odd, mut exhausted) = (0, 0, 0);
        for b in small_boards(1..=3, 9) {
            for _ in 0..12 {
                let k = b.sides();
                let masks = (0..b.len())
                    .map(|_| rng.u8(..((1u16 << k) - 1) as u8))
                    .collect();
                let level = BoardLevel::new(b.clone(), masks).unwrap();
                let never = std::sync::atomic::AtomicBool::new(false);
                let solved = matches!(
                    crate::anyboard::solve(&level, None, &never).0,
                    crate::anyboard::Outcome::Solved(_)
                );
                if solved {
                    // A solvable level: no propagation over any set may empty a cell.
                    assert!(wipeout(&level).is_none(), "{level:?}");
                    continue;
                }
                match board_reason(&level) {
                    BoardReason::Wipeout { cell, cells } => {
                        assert!(cells.contains(&cell));
                        let alone = set_has_a_turning(&level, &cells);
                        assert_ne!(alone, Some(true), "{level:?} {cells:?}");
                        wipeouts += alone.is_some() as usize;
                    }
                    BoardReason::OddEnds { ends } => {
                        assert_eq!(ends % 2, 1);
                        let all: Vec<usize> = (0..level.board().len()).collect();
                        let alone = set_has_a_turning(&level, &all);
                        assert_ne!(alone, Some(true), "{level:?}");
                        odd += alone.is_some() as usize;
                    }
                    BoardReason::Exhausted { .. } => exhausted += 1,
                }
            }
        }
        assert!(wipeouts > 50 && odd > 0, "{wipeouts} {odd} {exhausted}");
    }
}

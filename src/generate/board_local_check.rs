//! [`local_check`](super::local_check) on any board: arc consistency over the cells within
//! `radius` steps of one cell (steps along the board's links, so a wrap is a step like any
//! other), independent of every solver. Each cell in the window keeps the turns whose sides
//! agree with the border, its barriers and some turn of each neighbour inside the window;
//! neighbours outside it constrain nothing, and a locked cell keeps its own turn. An empty
//! domain proves the level unsolvable by a contradiction near the cell, under either rules
//! (Net asks every connection to be answered too). The unsolvable-variant maker uses it to
//! set aside changes that break the level only where they are.

use crate::board::{Board, BoardLevel};

/// True when the window of cells within `radius` steps of `center` is arc consistent.
pub fn board_locally_consistent(level: &BoardLevel, center: usize, radius: usize) -> bool {
    let window = Window::around(level.board(), center, radius);
    window.consistent(level)
}

/// The cells near the centre, each with a slot in the window's arrays.
struct Window {
    /// Board cell of each slot, in order of distance from the centre.
    cells: Vec<usize>,
    /// (board cell, slot) pairs sorted by cell: the window is small, so a search by halves
    /// maps cells to slots without an array the size of the board.
    slots: Vec<(usize, u32)>,
}

/// The cells within `radius` steps of `center` (along the board's links), nearest first.
pub fn cells_within(board: &Board, center: usize, radius: usize) -> Vec<usize> {
    Window::around(board, center, radius).cells
}

impl Window {
    /// The cells within `radius` steps of `center`, breadth first.
    fn around(b: &Board, center: usize, radius: usize) -> Window {
        let mut cells = vec![center];
        let mut slots = vec![(center, 0u32)];
        let mut frontier = 0;
        for _ in 0..radius {
            let end = cells.len();
            for i in frontier..end {
                for s in 0..b.sides() as usize {
                    let Some((n, _)) = b.neighbour(cells[i], s) else {
                        continue;
                    };
                    if let Err(at) = slots.binary_search_by_key(&n, |&(c, _)| c) {
                        slots.insert(at, (n, cells.len() as u32));
                        cells.push(n);
                    }
                }
            }
            frontier = end;
        }
        Window { cells, slots }
    }

    /// The slot of board cell `cell`, if it is in the window.
    fn slot(&self, cell: usize) -> Option<usize> {
        self.slots
            .binary_search_by_key(&cell, |&(c, _)| c)
            .ok()
            .map(|i| self.slots[i].1 as usize)
    }

    /// Revises every slot against its neighbours to a fixed point: false when a domain runs
    /// empty.
    fn consistent(&self, level: &BoardLevel) -> bool {
        let b = level.board();
        let k = b.sides();
        let n = self.cells.len();
        // Per slot: bit t set while turn t of the cell's mask is still possible.
        let mut domain: Vec<u8> = self
            .cells
            .iter()
            .map(|&c| {
                if level.is_locked(c) {
                    1
                } else {
                    ((1u32 << b.period(c, level.masks()[c])) - 1) as u8
                }
            })
            .collect();
        let mut queued = vec![true; n];
        let mut queue: Vec<usize> = (0..n).collect();
        while let Some(i) = queue.pop() {
            queued[i] = false;
            let c = self.cells[i];
            let m = level.masks()[c];
            let before = domain[i];
            for t in 0..8u8 {
                if domain[i] >> t & 1 == 0 {
                    continue;
                }
                let turned = b.turn(c, m, t);
                if !self.turn_fits(level, c, turned, &domain) {
                    domain[i] &= !(1 << t);
                }
            }
            if domain[i] == 0 {
                return false;
            }
            if domain[i] != before {
                for s in 0..k as usize {
                    if let Some(j) = b.neighbour(c, s).and_then(|(nc, _)| self.slot(nc))
                        && !queued[j]
                    {
                        queued[j] = true;
                        queue.push(j);
                    }
                }
            }
        }
        true
    }

    /// Whether `cell` turned to `turned` agrees with its border, its barriers and some
    /// remaining turn of each neighbour in the window.
    fn turn_fits(&self, level: &BoardLevel, cell: usize, turned: u8, domain: &[u8]) -> bool {
        let b = level.board();
        let k = b.sides();
        if turned & level.barrier(cell) != 0 {
            return false;
        }
        (0..k as usize).all(|s| {
            let on = turned >> s & 1;
            let Some((nc, ns)) = b.neighbour(cell, s) else {
                return on == 0;
            };
            if nc == cell {
                // A one-cell-wide wrap: the side faces another side of the same cell.
                return turned >> ns & 1 == on;
            }
            let Some(j) = self.slot(nc) else {
                return true;
            };
            let nm = level.masks()[nc];
            (0..8u8).any(|t| domain[j] >> t & 1 == 1 && b.turn(nc, nm, t) >> ns & 1 == on)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fixtures::{brute_force, small_boards};
    use crate::board::{Tiling, Wrap};
    use crate::generate::board_families::{BoardFamily, generate_on_board};

    #[test]
    fn every_cell_of_a_solvable_level_is_locally_consistent() {
        for (seed, board) in small_boards(3..=6, 30).iter().enumerate() {
            let family = BoardFamily::Paths { len: 3, bent: 0.75 };
            let (level, _) = generate_on_board(board, family, seed as u64);
            for c in 0..board.len() {
                assert!(board_locally_consistent(&level, c, 2), "{level:?} cell {c}");
            }
        }
    }

    #[test]
    fn a_window_refutes_only_unsolvable_levels_and_finds_a_straight_in_a_corner() {
        // The check is a relaxation: whatever it refutes has no solution (brute force).
        let mut refuted = 0;
        for (seed, board) in small_boards(2..=4, 12).iter().enumerate() {
            let mut rng = fastrand::Rng::with_seed(seed as u64);
            for _ in 0..4 {
                let k = board.sides() as u32;
                let masks = (0..board.len())
                    .map(|_| rng.u8(..(1u32 << k) as u8))
                    .collect();
                let level = BoardLevel::new(board.clone(), masks).unwrap();
                let c = rng.usize(..board.len());
                if !board_locally_consistent(&level, c, 2) {
                    refuted += 1;
                    assert!(brute_force(&level).is_empty(), "{level:?} cell {c}");
                }
            }
        }
        assert!(
            refuted > 20,
            "only {refuted} levels refuted: the test tests little"
        );
        // A hexagonal straight in the top-left corner of a bounded board has no turn.
        let b = Board::new(Tiling::Hexagonal, 5, 5, Wrap::NONE).unwrap();
        let mut masks = vec![0u8; b.len()];
        masks[0] = 0b001001;
        let level = BoardLevel::new(b, masks).unwrap();
        assert!(!board_locally_consistent(&level, 0, 1));
        assert!(!board_locally_consistent(&level, 12, 4));
        assert!(
            board_locally_consistent(&level, 24, 2),
            "the corner is out of the window"
        );
    }
}

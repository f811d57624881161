//! The verifier of a level on any board: every connection meets one across the same side pair
//! and none crosses a border. It reads the board's link table directly, nothing the solver
//! computed, so a solver bug cannot vouch for itself.

use crate::board::mask::canonical;
use crate::board::{Board, BoardLevel, NO_LINK};
use crate::par::*;

/// Where a level is not solved: a cell and one of its sides whose connection is unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defect {
    /// The cell.
    pub cell: usize,
    /// The side.
    pub side: usize,
    /// True when the side faces a border (a connection leaves the board).
    pub border: bool,
}

impl Defect {
    /// A sentence for the user: row, column and side names.
    pub fn describe(&self, level: &BoardLevel) -> String {
        let b = level.board();
        let (r, c) = b.row_col(self.cell);
        let side = b.tiling().side_names()[self.side];
        if self.border {
            format!("cell (row {r}, column {c}) connects {side}, across the border")
        } else {
            let (n, t) = b.neighbour(self.cell, self.side).expect("not a border");
            let (nr, nc) = b.row_col(n);
            let has = level.masks()[self.cell] >> self.side & 1 == 1;
            let facing = b.tiling().side_names()[t];
            if has {
                format!(
                    "cell (row {r}, column {c}) connects {side} but (row {nr}, column {nc}) does not connect {facing}"
                )
            } else {
                format!(
                    "cell (row {nr}, column {nc}) connects {facing} but (row {r}, column {c}) does not connect {side}"
                )
            }
        }
    }
}

/// The first unanswered connection in row-major order, or `None` when the level is solved.
pub fn first_defect(level: &BoardLevel) -> Option<Defect> {
    first_defect_on(level.board(), level.masks())
}

/// [`first_defect`] of `masks` on `board` (one mask per cell), without making a level of
/// them: the solver checks its answer before it copies the board into one.
pub fn first_defect_on(board: &Board, masks: &[u8]) -> Option<Defect> {
    // Nearly every level checked is solved: a branch-free pass over stripes in parallel
    // says so, and only a level with a defect is read again to name the first.
    if masks.len() != board.len() || !all_answered(board, masks) {
        return first_defect_scan(board, masks);
    }
    None
}

/// Cells per stripe of [`all_answered`].
const STRIPE: usize = 1 << 16;

/// True when every connection of `masks` on `board` is answered.
fn all_answered(board: &Board, masks: &[u8]) -> bool {
    match board.sides() {
        4 => stripes_answered::<4>(board.links(), masks),
        6 => stripes_answered::<6>(board.links(), masks),
        _ => first_defect_scan(board, masks).is_none(),
    }
}

fn stripes_answered<const K: usize>(links: &[u32], masks: &[u8]) -> bool {
    links
        .par_chunks(STRIPE * K)
        .enumerate()
        .all(|(i, rows)| stripe_answered::<K>(rows, masks, i * STRIPE))
}

/// Whether every side of the cells from `lo` on whose links are `rows` is answered: the
/// differences are or-ed together, no branch per side (a border reads as a side that
/// connects nothing).
fn stripe_answered<const K: usize>(rows: &[u32], masks: &[u8], lo: usize) -> bool {
    let mut bad = 0u8;
    for (i, row) in rows.chunks_exact(K).enumerate() {
        let row: &[u32; K] = row.try_into().expect("K sides");
        let m = masks[lo + i];
        for (s, &l) in row.iter().enumerate() {
            let other = masks
                .get((l >> 3) as usize)
                .map_or(0, |&n| n >> (l & 7) & 1);
            let other = if l == NO_LINK { 0 } else { other };
            bad |= (m >> s & 1) ^ other;
        }
    }
    bad == 0
}

/// [`first_defect_on`] cell by cell: the first defect in row-major order.
fn first_defect_scan(board: &Board, masks: &[u8]) -> Option<Defect> {
    let k = board.sides() as usize;
    for (c, (&m, links)) in masks.iter().zip(board.links().chunks_exact(k)).enumerate() {
        for (s, &l) in links.iter().enumerate() {
            let bit = m >> s & 1;
            let defect = if l == NO_LINK {
                bit == 1
            } else {
                masks[(l >> 3) as usize] >> (l & 7) & 1 != bit
            };
            if defect {
                return Some(Defect {
                    cell: c,
                    side: s,
                    border: l == NO_LINK,
                });
            }
        }
    }
    None
}

/// True when every mask of `turned` is a turn of the mask of the same cell in `original`
/// (both for cells of `sides` sides): the answer kept the level's pieces.
pub fn same_pieces(turned: &[u8], original: &[u8], sides: u8) -> bool {
    let canon: [u8; 256] = std::array::from_fn(|m| canonical(m as u8, sides));
    turned.len() == original.len()
        && turned
            .iter()
            .zip(original)
            .all(|(&a, &b)| canon[a as usize] == canon[b as usize])
}

/// True when every connection of `level` is answered.
pub fn is_solved(level: &BoardLevel) -> bool {
    first_defect(level).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Tiling, Wrap};

    /// Masks of `board` with every side pair connected or not by a fixed pseudo-random rule:
    /// solved by construction.
    fn solved_masks(board: &Board) -> Vec<u8> {
        let k = board.sides() as usize;
        let mut masks = vec![0u8; board.len()];
        let mut x = 0x9e37_79b9_u32;
        for c in 0..board.len() {
            for s in 0..k {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if let Some((n, t)) = board.neighbour(c, s)
                    && (c, s) < (n, t)
                    && x & 1 == 1
                {
                    masks[c] |= 1 << s;
                    masks[n] |= 1 << t;
                }
            }
        }
        masks
    }

    #[test]
    fn the_parallel_pass_finds_what_the_scan_finds() {
        // Boards of several stripes, so a defect lies past the first.
        let boards = [
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
        for (tiling, wrap) in boards {
            let board = Board::new(tiling, 401, 333, wrap).unwrap();
            let k = board.sides() as usize;
            let mut masks = solved_masks(&board);
            // The fast pass itself, not only its fall-back to the scan.
            assert!(all_answered(&board, &masks), "{tiling:?} {wrap:?}");
            assert_eq!(first_defect_on(&board, &masks), None);
            for cell in [0, STRIPE - 1, STRIPE, 2 * STRIPE + 17, board.len() - 1] {
                for s in 0..k {
                    masks[cell] ^= 1 << s;
                    assert!(!all_answered(&board, &masks), "cell {cell} side {s}");
                    let found = first_defect_on(&board, &masks);
                    assert!(found.is_some(), "{tiling:?} {wrap:?} cell {cell} side {s}");
                    assert_eq!(found, first_defect_scan(&board, &masks));
                    masks[cell] ^= 1 << s;
                }
            }
        }
    }
}

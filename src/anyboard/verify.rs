//! The verifier of a level on any board: every connection meets one across the same side pair
//! and none crosses a border. It reads the board's link table directly, nothing the solver
//! computed, so a solver bug cannot vouch for itself.

use crate::board::mask::canonical;
use crate::board::{Board, BoardLevel, NO_LINK};

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

//! The verifier of a level on any board: every connection meets one across the same side pair
//! and none crosses a border. It reads the board's link table directly, nothing the solver
//! computed, so a solver bug cannot vouch for itself.

use crate::board::BoardLevel;

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
    let b = level.board();
    let masks = level.masks();
    let k = b.sides() as usize;
    for (c, &m) in masks.iter().enumerate() {
        for s in 0..k {
            let bit = m >> s & 1;
            match b.neighbour(c, s) {
                None if bit == 1 => {
                    return Some(Defect {
                        cell: c,
                        side: s,
                        border: true,
                    });
                }
                None => {}
                Some((n, t)) if masks[n] >> t & 1 != bit => {
                    return Some(Defect {
                        cell: c,
                        side: s,
                        border: false,
                    });
                }
                Some(_) => {}
            }
        }
    }
    None
}

/// True when every connection of `level` is answered.
pub fn is_solved(level: &BoardLevel) -> bool {
    first_defect(level).is_none()
}

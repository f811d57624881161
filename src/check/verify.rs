//! The verifier: a grid is solved when no connection points off the border and every
//! connection meets a connection of its neighbour.

use crate::par::*;

use crate::model::Game;
use crate::model::direction::{E, N, S, W, bit};

/// Why a grid is not solved, at the first offending cell in row-major order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defect {
    /// Row of the offending cell.
    pub row: usize,
    /// Column of the offending cell.
    pub col: usize,
    /// Side index (see `crate::model::direction`).
    pub side: usize,
    /// What is wrong on that side.
    pub kind: DefectKind,
}

/// The two ways a side can be wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefectKind {
    /// The piece has a connection on a side that faces the border.
    OffBorder,
    /// The piece and its neighbour disagree about the shared side.
    Unmatched,
}

impl std::fmt::Display for Defect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = crate::model::direction::SIDE_NAMES[self.side];
        match self.kind {
            DefectKind::OffBorder => write!(
                f,
                "cell (row {}, col {}) has a connection on its {side} side, off the border",
                self.row, self.col
            ),
            DefectKind::Unmatched => write!(
                f,
                "cell (row {}, col {}) and its {side} neighbour disagree about their shared side",
                self.row, self.col
            ),
        }
    }
}

/// Rows per parallel task: small grids stay on the calling thread.
const ROWS_PER_TASK: usize = 64;

/// The first defect in row-major order, or `None` when the grid is solved. Bands of rows are
/// checked in parallel (rayon); the first band with a defect gives the answer, so it is the
/// same defect as a sequential scan finds.
pub fn first_defect(game: &Game) -> Option<Defect> {
    let h = game.height();
    if h <= ROWS_PER_TASK {
        return band_defect(game, 0..h);
    }
    (0..h.div_ceil(ROWS_PER_TASK))
        .into_par_iter()
        .find_map_first(|b| band_defect(game, b * ROWS_PER_TASK..((b + 1) * ROWS_PER_TASK).min(h)))
}

/// The first defect in row-major order among rows `rows`.
fn band_defect(game: &Game, rows: std::ops::Range<usize>) -> Option<Defect> {
    let (h, w) = (game.height(), game.width());
    let cells = game.cells();
    for r in rows {
        for c in 0..w {
            let m = cells[r * w + c].mask();
            let defect = |side, kind| {
                Some(Defect {
                    row: r,
                    col: c,
                    side,
                    kind,
                })
            };
            if r == 0 && m & bit(N) != 0 {
                return defect(N, DefectKind::OffBorder);
            }
            if c == 0 && m & bit(W) != 0 {
                return defect(W, DefectKind::OffBorder);
            }
            if c + 1 == w {
                if m & bit(E) != 0 {
                    return defect(E, DefectKind::OffBorder);
                }
            } else if (m & bit(E) != 0) != (cells[r * w + c + 1].mask() & bit(W) != 0) {
                return defect(E, DefectKind::Unmatched);
            }
            if r + 1 == h {
                if m & bit(S) != 0 {
                    return defect(S, DefectKind::OffBorder);
                }
            } else if (m & bit(S) != 0) != (cells[(r + 1) * w + c].mask() & bit(N) != 0) {
                return defect(S, DefectKind::Unmatched);
            }
        }
    }
    None
}

/// True when the grid is solved.
pub fn is_solved(game: &Game) -> bool {
    first_defect(game).is_none()
}

impl Game {
    /// True when every connection meets a connection of its neighbour and none points off
    /// the border (the orientations as they are: see [`first_defect`] for the first flaw).
    pub fn is_solved(&self) -> bool {
        is_solved(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Piece, PieceKind};

    #[test]
    fn a_pair_of_facing_ends_is_solved_and_other_turns_are_not() {
        let ok = Game::from_cells(
            1,
            2,
            vec![Piece::new(PieceKind::Q, 1), Piece::new(PieceKind::Q, 3)],
        );
        assert!(is_solved(&ok));
        let bad = Game::from_cells(
            1,
            2,
            vec![Piece::new(PieceKind::Q, 1), Piece::new(PieceKind::Q, 1)],
        );
        let d = first_defect(&bad).unwrap();
        assert_eq!(
            (d.row, d.col, d.side, d.kind),
            (0, 0, E, DefectKind::Unmatched)
        );
        let half = Game::from_cells(2, 1, vec![Piece::new(PieceKind::Q, 2), Piece::EMPTY]);
        let d = first_defect(&half).unwrap();
        assert_eq!(
            (d.row, d.col, d.side, d.kind),
            (0, 0, S, DefectKind::Unmatched)
        );
    }

    #[test]
    fn empty_grid_is_solved_and_cross_alone_is_not() {
        assert!(is_solved(&Game::empty(3, 4)));
        assert!(!is_solved(&Game::from_cells(
            1,
            1,
            vec![Piece::new(PieceKind::X, 0)]
        )));
    }

    #[test]
    fn parallel_bands_find_the_first_defect_in_row_major_order() {
        use crate::model::{Piece, PieceKind};
        let (h, w) = (300, 5);
        let mut g = Game::from_cells(h, w, vec![Piece::EMPTY; h * w]);
        assert_eq!(first_defect(&g), None);
        // Defects in several bands: the earliest one wins, as in a sequential scan.
        for &(r, c) in &[(250, 3), (130, 1), (129, 4)] {
            g.set(r, c, Piece::new(PieceKind::Q, 1));
            assert_eq!(first_defect(&g), band_defect(&g, 0..h));
        }
        assert_eq!(first_defect(&g).map(|d| (d.row, d.col)), Some((129, 4)));
    }
}

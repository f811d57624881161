//! The verifier: a grid is solved when no connection points off the border and every
//! connection meets a connection of its neighbour.

use crate::par::*;

use crate::model::direction::{E, N, S, W, bit};
use crate::model::{Game, Piece};

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
        let row = &cells[r * w..(r + 1) * w];
        let below = (r + 1 < h).then(|| &cells[(r + 1) * w..(r + 2) * w]);
        if row_sound(row, below, r == 0) {
            continue;
        }
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

/// True when row `row` has no defect, `below` being the next row (`None` for the last row):
/// a branch-free pass that only says whether the cell-by-cell scan is needed (a huge solved
/// grid is mostly checked here, four times faster).
fn row_sound(row: &[Piece], below: Option<&[Piece]>, top: bool) -> bool {
    let side = |p: &Piece, s: usize| (p.mask() >> s) & 1;
    let (Some(first), Some(last)) = (row.first(), row.last()) else {
        return true;
    };
    let mut bad = side(first, W) | side(last, E);
    for pair in row.windows(2) {
        bad |= side(&pair[0], E) ^ side(&pair[1], W);
    }
    match below {
        Some(below) => {
            for (p, q) in row.iter().zip(below) {
                bad |= side(p, S) ^ side(q, N);
            }
        }
        None => {
            for p in row {
                bad |= side(p, S);
            }
        }
    }
    if top {
        for p in row {
            bad |= side(p, N);
        }
    }
    bad == 0
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

    /// The first defect by the definition, cell by cell and side by side.
    fn naive_first_defect(game: &Game) -> Option<Defect> {
        let (h, w) = (game.height(), game.width());
        let mask = |r: usize, c: usize| game.cells()[r * w + c].mask();
        for r in 0..h {
            for c in 0..w {
                let m = mask(r, c);
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
                let east = if c + 1 == w {
                    0
                } else {
                    mask(r, c + 1) & bit(W)
                };
                if c + 1 == w && m & bit(E) != 0 {
                    return defect(E, DefectKind::OffBorder);
                }
                if c + 1 < w && (m & bit(E) != 0) != (east != 0) {
                    return defect(E, DefectKind::Unmatched);
                }
                if r + 1 == h && m & bit(S) != 0 {
                    return defect(S, DefectKind::OffBorder);
                }
                if r + 1 < h && (m & bit(S) != 0) != (mask(r + 1, c) & bit(N) != 0) {
                    return defect(S, DefectKind::Unmatched);
                }
            }
        }
        None
    }

    #[test]
    fn the_row_pass_lets_through_exactly_the_sound_rows() {
        use crate::generate::{GenerateOptions, generate};
        let mut rng = fastrand::Rng::with_seed(11);
        let mut found = 0;
        for n in 0..3000 {
            let (h, w) = (rng.usize(1..8), rng.usize(1..8));
            // Solved levels with a few cells turned, so most rows are sound and defects rare.
            let solved = generate(&GenerateOptions::new(h, w, n as u64));
            let mut cells = solved.cells().to_vec();
            for _ in 0..rng.usize(0..3) {
                let i = rng.usize(..cells.len());
                cells[i] = cells[i].with_orientation(rng.u8(..4));
            }
            let game = Game::from_cells(h, w, cells);
            let want = naive_first_defect(&game);
            found += usize::from(want.is_some());
            assert_eq!(first_defect(&game), want, "grid #{n}");
        }
        assert!(found > 500, "{found} grids with a defect");
    }
}

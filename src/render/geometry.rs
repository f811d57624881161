//! The level as straight strokes, shared by the SVG and PNG writers. Coordinates are in
//! half-cell units: cell (row, col) spans `[2col, 2col+2] x [2row, 2row+2]` and its centre is
//! `(2col+1, 2row+1)`. Connections that meet are merged into maximal straight runs (so a long
//! pipe is one stroke and round caps only show at real ends and bends); a connection that is
//! not met is a separate half-cell stroke, drawn in another colour.

use crate::model::{Game, Piece};

/// A straight stroke from `(x0, y0)` to `(x1, y1)`, horizontal or vertical.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stroke {
    /// Start x, in half-cell units.
    pub x0: usize,
    /// Start y, in half-cell units.
    pub y0: usize,
    /// End x, in half-cell units.
    pub x1: usize,
    /// End y, in half-cell units.
    pub y1: usize,
}

/// A level as strokes in half-cell units (see the module doc).
pub struct Drawing {
    /// Rows of the level, in cells.
    pub height: usize,
    /// Columns of the level, in cells.
    pub width: usize,
    /// Runs of connections that meet.
    pub pipes: Vec<Stroke>,
    /// Half connections that nothing meets (off the border or into a neighbour's blank side).
    pub loose: Vec<Stroke>,
    /// Centres of one-end pieces, drawn as small discs.
    pub ends: Vec<(usize, usize)>,
}

/// Scans one line of half segments. `half(k)` tells whether half `k` (from `k` to `k + 1`
/// along the line) is drawn and whether it is met; `emit(a, b, met)` receives each stroke.
pub(super) fn scan_line(
    halves: usize,
    half: impl Fn(usize) -> Option<bool>,
    mut emit: impl FnMut(usize, usize, bool),
) {
    let mut run: Option<usize> = None;
    for k in 0..halves {
        match half(k) {
            Some(true) => {
                run.get_or_insert(k);
            }
            other => {
                if let Some(a) = run.take() {
                    emit(a, k, true);
                }
                if other == Some(false) {
                    emit(k, k + 1, false);
                }
            }
        }
    }
    if let Some(a) = run {
        emit(a, halves, true);
    }
}

/// Half `k` of row `r` of a `w`-wide grid (cell `k / 2`'s west half when `k` is even, its
/// east half when odd): `None` without a connection there, else whether the neighbour answers.
pub(super) fn row_half(cells: &[Piece], w: usize, r: usize, k: usize) -> Option<bool> {
    let mask = |c: usize| cells[r * w + c].mask();
    let c = k / 2;
    if k.is_multiple_of(2) {
        (mask(c) & 8 != 0).then(|| c > 0 && mask(c - 1) & 2 != 0)
    } else {
        (mask(c) & 2 != 0).then(|| c + 1 < w && mask(c + 1) & 8 != 0)
    }
}

/// Half `k` of column `c` of a `w`x`h` grid (cell `k / 2`'s north half when `k` is even):
/// as [`row_half`].
pub(super) fn column_half(cells: &[Piece], w: usize, h: usize, c: usize, k: usize) -> Option<bool> {
    let mask = |r: usize| cells[r * w + c].mask();
    let r = k / 2;
    if k.is_multiple_of(2) {
        (mask(r) & 1 != 0).then(|| r > 0 && mask(r - 1) & 4 != 0)
    } else {
        (mask(r) & 4 != 0).then(|| r + 1 < h && mask(r + 1) & 1 != 0)
    }
}

/// The strokes and discs that draw `game`.
pub fn drawing(game: &Game) -> Drawing {
    let (h, w) = (game.height(), game.width());
    let cells = game.cells();
    let mut d = Drawing {
        height: h,
        width: w,
        pipes: Vec::new(),
        loose: Vec::new(),
        ends: Vec::new(),
    };
    // Half k of a row or column belongs to cell k / 2: its west/north half when k is even.
    for r in 0..h {
        let y = 2 * r + 1;
        scan_line(
            2 * w,
            |k| row_half(cells, w, r, k),
            |a, b, met| {
                let s = Stroke {
                    x0: a,
                    y0: y,
                    x1: b,
                    y1: y,
                };
                if met {
                    d.pipes.push(s)
                } else {
                    d.loose.push(s)
                }
            },
        );
    }
    for c in 0..w {
        let x = 2 * c + 1;
        scan_line(
            2 * h,
            |k| column_half(cells, w, h, c, k),
            |a, b, met| {
                let s = Stroke {
                    x0: x,
                    y0: a,
                    x1: x,
                    y1: b,
                };
                if met {
                    d.pipes.push(s)
                } else {
                    d.loose.push(s)
                }
            },
        );
    }
    for r in 0..h {
        for c in 0..w {
            if cells[r * w + c].mask().count_ones() == 1 {
                d.ends.push((2 * c + 1, 2 * r + 1));
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_level;

    fn s(x0: usize, y0: usize, x1: usize, y1: usize) -> Stroke {
        Stroke { x0, y0, x1, y1 }
    }

    #[test]
    fn a_row_of_q_i_q_is_one_run_with_two_ends() {
        // Q east, I horizontal, Q west.
        let g = parse_level("t", b"1\n3\n1 1\n2 1\n1 3\n").unwrap();
        let d = drawing(&g);
        assert_eq!(d.pipes, vec![s(1, 1, 5, 1)]);
        assert!(d.loose.is_empty());
        assert_eq!(d.ends, vec![(1, 1), (5, 1)]);
    }

    #[test]
    fn unmet_connections_are_loose_half_strokes() {
        // Q north (off the border) beside a Q east that meets nothing.
        let g = parse_level("t", b"1\n2\n1 0\n1 1\n").unwrap();
        let d = drawing(&g);
        assert!(d.pipes.is_empty());
        assert_eq!(d.loose, vec![s(3, 1, 4, 1), s(1, 0, 1, 1)]);
    }

    #[test]
    fn a_ring_of_corners_is_four_runs() {
        let g = parse_level("t", b"2\n2\n5 1\n5 2\n5 0\n5 3\n").unwrap();
        let d = drawing(&g);
        assert_eq!(
            d.pipes,
            vec![s(1, 1, 3, 1), s(1, 3, 3, 3), s(1, 1, 1, 3), s(3, 1, 3, 3)]
        );
        assert!(d.loose.is_empty() && d.ends.is_empty());
    }
}

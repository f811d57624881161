//! hexapipes' `rhombitrihexagrid.js`: rows of units of six cells (cell `6 * (row * w +
//! column) + unit`: 0 a hexagon, 1 the square east of it, 2 the triangle above that, 3 the
//! square north-east of the hexagon, 4 the triangle above the hexagon, 5 the square
//! north-west of it), each row half a unit right of the one above. Directions E, NE, N, NW,
//! W, SW, S, SE are bits 1..128. Like the triangular grid, a bounded board shifts its rows
//! back a unit every second row and leaves cells along its edges empty (still cells here).

use super::skewed::SkewedRows;
use super::{Geometry, Grid, Polygon, cell_count, js_round, whole};
use std::f64::consts::PI;

const EAST: u8 = 1;
const NORTHEAST: u8 = 2;
const NORTH: u8 = 4;
const NORTHWEST: u8 = 8;
const WEST: u8 = 16;
const SOUTHWEST: u8 = 32;
const SOUTH: u8 = 64;
const SOUTHEAST: u8 = 128;

pub(super) fn polygons() -> Vec<Polygon> {
    let s3 = 3f64.sqrt();
    vec![
        Polygon::regular(0.0, s3 / 2.0, &[1, 2, 8, 16, 32, 128]),
        Polygon::regular(0.0, 0.5, &[1, 4, 16, 64]),
        Polygon::regular(PI / 6.0, s3 / 6.0, &[2, 8, 64]),
        Polygon::regular(PI / 3.0, 0.5, &[2, 8, 32, 128]),
        Polygon::regular(PI / 2.0, s3 / 6.0, &[4, 32, 128]),
        Polygon::regular(PI / 6.0, 0.5, &[2, 8, 32, 128]),
    ]
}

pub(super) struct Rhombitrihexagonal {
    rows: SkewedRows,
    cells: usize,
}

impl Rhombitrihexagonal {
    pub(super) fn new(
        width: usize,
        height: usize,
        wrap: bool,
    ) -> Result<Rhombitrihexagonal, String> {
        let (wf, hf) = (width as f64, height as f64);
        let (w, h) = if wrap {
            (
                whole(js_round(wf / 6f64.sqrt())),
                whole(js_round(hf / 6f64.sqrt())),
            )
        } else {
            // hexapipes' sizing for about as many tiles as a square puzzle of that size.
            let a = (wf + hf) / (4.0 * wf * hf);
            let b = a + (1.0 / 6.0 + a * a).sqrt();
            (whole((wf * b).ceil()), whole((hf * b).ceil()))
        };
        let cells = cell_count(Grid::Rhombitrihexagonal, width, height, wrap, &[6, w, h])?;
        Ok(Rhombitrihexagonal {
            rows: SkewedRows {
                w,
                h,
                wrap,
                units: 6,
            },
            cells,
        })
    }
}

impl Geometry for Rhombitrihexagonal {
    fn cells(&self) -> usize {
        self.cells
    }

    fn polygon_of(&self, cell: usize) -> u8 {
        (cell % 6) as u8
    }

    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize> {
        let (r, c) = self.rows.row_col(cell);
        // Row and column steps and the unit reached (find_neighbour's table).
        let (dr, dc, unit) = match (cell % 6, direction) {
            (0, EAST) => (0, 0, 1),
            (0, NORTHEAST) => (0, 0, 3),
            (0, NORTHWEST) => (0, 0, 5),
            (0, WEST) => (0, -1, 1),
            (0, SOUTHWEST) => (1, -1, 3),
            (0, SOUTHEAST) => (1, 0, 5),
            (1, EAST) => (0, 1, 0),
            (1, NORTH) => (0, 0, 2),
            (1, WEST) => (0, 0, 0),
            (1, SOUTH) => (1, 0, 4),
            (2, NORTHEAST) => (0, 1, 5),
            (2, NORTHWEST) => (0, 0, 3),
            (2, SOUTH) => (0, 0, 1),
            (3, NORTHEAST) => (-1, 1, 0),
            (3, NORTHWEST) => (0, 0, 4),
            (3, SOUTHWEST) => (0, 0, 0),
            (3, SOUTHEAST) => (0, 0, 2),
            (4, NORTH) => (-1, 0, 1),
            (4, SOUTHWEST) => (0, 0, 5),
            (4, SOUTHEAST) => (0, 0, 3),
            (5, NORTHEAST) => (0, 0, 4),
            (5, NORTHWEST) => (-1, 0, 0),
            (5, SOUTHWEST) => (0, -1, 2),
            (5, SOUTHEAST) => (0, 0, 0),
            _ => return None,
        };
        self.rows.index(r + dr, c + dc, unit)
    }

    fn centre(&self, cell: usize) -> (f64, f64) {
        let s3 = 3f64.sqrt();
        let (dx, dy) = [
            (0.0, 0.0),
            (0.5 + s3 / 2.0, 0.0),
            (0.5 + s3 / 2.0, -s3 / 6.0 - 0.5),
            (0.25 + s3 / 4.0, -s3 / 4.0 - 0.75),
            (0.0, -1.0 - s3 / 3.0),
            (-0.25 - s3 / 4.0, -s3 / 4.0 - 0.75),
        ][cell % 6];
        let (r, c) = self.rows.row_col(cell);
        let col_dx = 1.0 + s3;
        let (r, c) = (r as f64, c as f64);
        (
            r * col_dx / 2.0 + c * col_dx + dx,
            r * (s3 / 2.0 + 1.5) + dy,
        )
    }

    fn emptied(&self) -> Vec<usize> {
        if self.rows.wrap {
            return Vec::new();
        }
        let (w, h) = (self.rows.w as isize, self.rows.h as isize);
        // hexapipes adds unit offsets to `_row_col_to_index`'s answer, -1 off the board; all
        // the places below are on it, but keep its arithmetic.
        let at = |row: isize, col: isize, unit: usize| {
            self.rows.index(row, col, unit).map_or(-1, |i| i as isize)
        };
        let mut cells = Vec::new();
        let mut empty = |index: isize, units: &[isize]| {
            cells.extend(
                units
                    .iter()
                    .map(|u| index + u)
                    .filter(|&i| i >= 0)
                    .map(|i| i as usize),
            );
        };
        // The jagged left and right edges.
        for r in 0..h {
            if r % 2 == 0 {
                empty(at(r, -(r / 2), 0), &[0, 3, 4, 5]);
            } else {
                empty(at(r, -(r / 2), 5), &[0]);
                empty(at(r, w - 1 - r / 2, 0), &[1, 2, 3]);
            }
        }
        // The last row's hexagons and east squares, and its corners.
        let dc = (h - 1) / 2;
        for c in -dc..w - dc {
            empty(at(h - 1, c, 0), &[0, 1]);
        }
        if h % 2 == 0 {
            empty(at(h - 1, w - 1 - dc, 2), &[0, 1]);
        } else {
            empty(at(h - 1, -dc, 2), &[0]);
            empty(at(h - 1, -dc, 1), &[0]);
            empty(at(h - 1, w - 1 - dc, 2), &[0]);
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::super::Grid;
    use super::super::tests::outside_cells;

    #[test]
    fn a_new_bounded_board_leaves_its_jagged_edges_outside() {
        // Found by running hexapipes (RhombitrihexaGrid(w, h, false).emptyCells).
        assert_eq!(
            outside_cells(Grid::Rhombitrihexagonal, 5, 5),
            [
                0, 3, 4, 5, 23, 31, 32, 33, 36, 37, 38, 39, 40, 41, 42, 43, 48, 49, 50
            ]
        );
        assert_eq!(
            outside_cells(Grid::Rhombitrihexagonal, 3, 3),
            [0, 3, 4, 5, 12, 13, 17, 18, 19, 20, 21]
        );
    }
}

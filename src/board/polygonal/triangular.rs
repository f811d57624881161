//! hexapipes' `triangulargrid.js`: rows of rhombi, each an up and a down triangle (cell
//! `2 * (row * w + column) + unit`: 0 up, 1 down, the down one left of the up one), each row
//! half a rhombus right of the one above. Directions E, N, W, S are bits 1, 2, 4, 8. `w` and
//! `h` are the file's width and height over sqrt 2, rounded, plus one on a bounded board,
//! whose rows then shift back a rhombus every second row to keep the board rectangular
//! (and leave a triangle at the end of each row empty; those are still cells here).

use super::skewed::SkewedRows;
use super::{Geometry, Grid, Polygon, cell_count, js_round, whole};
use std::f64::consts::PI;

const EAST: u8 = 1;
const NORTH: u8 = 2;
const WEST: u8 = 4;

pub(super) fn polygons() -> Vec<Polygon> {
    let radius_in = 3f64.sqrt() / 6.0;
    vec![
        Polygon::regular(PI / 6.0, radius_in, &[1, 4, 8]),
        Polygon::regular(-PI / 6.0, radius_in, &[1, 2, 4]),
    ]
}

pub(super) struct Triangular {
    rows: SkewedRows,
    cells: usize,
}

impl Triangular {
    pub(super) fn new(width: usize, height: usize, wrap: bool) -> Result<Triangular, String> {
        let extra = (!wrap) as usize;
        let w = whole(js_round(width as f64 / 2f64.sqrt())).saturating_add(extra);
        let h = whole(js_round(height as f64 / 2f64.sqrt())).saturating_add(extra);
        let cells = cell_count(Grid::Triangular, width, height, wrap, &[2, w, h])?;
        Ok(Triangular {
            rows: SkewedRows {
                w,
                h,
                wrap,
                units: 2,
            },
            cells,
        })
    }
}

impl Geometry for Triangular {
    fn cells(&self) -> usize {
        self.cells
    }

    fn polygon_of(&self, cell: usize) -> u8 {
        (cell % 2) as u8
    }

    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize> {
        let (r, c) = self.rows.row_col(cell);
        let (dr, dc, unit) = match (cell % 2, direction) {
            (0, EAST) => (0, 1, 1),
            (0, WEST) => (0, 0, 1),
            (0, _) => (1, 0, 1),
            (_, EAST) => (0, 0, 0),
            (_, NORTH) => (-1, 0, 0),
            _ => (0, -1, 0),
        };
        self.rows.index(r + dr, c + dc, unit)
    }

    fn centre(&self, cell: usize) -> (f64, f64) {
        let (r, c) = self.rows.row_col(cell);
        let (dx, dy) = [(0.25, 3f64.sqrt() / 12.0), (-0.25, -3f64.sqrt() / 12.0)][cell % 2];
        (
            r as f64 * 0.5 + c as f64 + dx,
            r as f64 * (3f64.sqrt() / 2.0) + dy,
        )
    }

    fn emptied(&self) -> Vec<usize> {
        if self.rows.wrap {
            return Vec::new();
        }
        // Each row's first down triangle (even rows) or last up triangle (odd rows), where
        // the rows' shift leaves a jagged edge.
        (0..self.rows.h as isize)
            .filter_map(|r| {
                if r % 2 == 0 {
                    self.rows.index(r, -(r / 2), 1)
                } else {
                    self.rows.index(r, self.rows.w as isize - 1 - r / 2, 0)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Grid;
    use super::super::tests::outside_cells;

    #[test]
    fn a_new_bounded_board_leaves_a_triangle_of_each_row_outside() {
        // 4x4 rhombi: even rows' first down triangle, odd rows' last up triangle.
        assert_eq!(outside_cells(Grid::Triangular, 4, 4), [1, 14, 17, 30]);
        assert_eq!(outside_cells(Grid::Triangular, 3, 5), [1, 10, 13, 22, 25]);
    }
}

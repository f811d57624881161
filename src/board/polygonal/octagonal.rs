//! hexapipes' `octagrid.js`: `width` x `height` octagons in rows (cells `0..w*h`, row-major),
//! then as many squares (cells `w*h..2*w*h`), square `i` sitting in the gap below and right
//! of octagon `i`. Directions E, NE, N, NW, W, SW, S, SE are bits 1..128; a square has the
//! diagonal ones only. On a bounded board the last row and column of squares lie outside
//! the octagons (hexapipes leaves them empty) but are still cells here.

use super::{Geometry, Grid, Polygon, cell_count};
use std::f64::consts::{PI, SQRT_2};

/// Column and row steps of each direction in half cells (a square is half a cell off its
/// octagon both ways); a row step up is negative.
const HALF_STEP: [(isize, isize); 8] = [
    (2, 0),
    (1, -1),
    (0, -2),
    (-1, -1),
    (-2, 0),
    (-1, 1),
    (0, 2),
    (1, 1),
];

pub(super) fn polygons() -> Vec<Polygon> {
    let d = 0.5 * (PI / 8.0).sin();
    let square_radius_in = (0.5 - d) * SQRT_2 / 2.0;
    vec![
        Polygon::regular(0.0, 0.5, &[1, 2, 4, 8, 16, 32, 64, 128]),
        Polygon::regular(PI / 4.0, square_radius_in, &[2, 8, 32, 128]),
    ]
}

pub(super) struct Octagonal {
    width: usize,
    height: usize,
    wrap: bool,
    cells: usize,
}

impl Octagonal {
    pub(super) fn new(width: usize, height: usize, wrap: bool) -> Result<Octagonal, String> {
        let cells = cell_count(Grid::Octagonal, width, height, wrap, &[2, width, height])?;
        Ok(Octagonal {
            width,
            height,
            wrap,
            cells,
        })
    }

    /// Row and column of `cell` in half cells.
    fn half_rc(&self, cell: usize) -> (isize, isize) {
        let n = self.width * self.height;
        let (i, offset) = if cell < n { (cell, 0) } else { (cell - n, 1) };
        (
            2 * (i / self.width) as isize + offset,
            2 * (i % self.width) as isize + offset,
        )
    }
}

impl Geometry for Octagonal {
    fn cells(&self) -> usize {
        self.cells
    }

    fn polygon_of(&self, cell: usize) -> u8 {
        (cell >= self.width * self.height) as u8
    }

    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize> {
        let (r2, c2) = self.half_rc(cell);
        let (dc, dr) = HALF_STEP[direction.trailing_zeros() as usize % 8];
        let (r2, c2) = (r2 + dr, c2 + dc);
        // rc_to_index: a half row is a square, floored to the octagon above left of it.
        let square = r2.rem_euclid(2) == 1;
        let (mut r, mut c) = (r2.div_euclid(2), c2.div_euclid(2));
        let (w, h) = (self.width as isize, self.height as isize);
        if self.wrap {
            (r, c) = (r.rem_euclid(h), c.rem_euclid(w));
        } else if !(0..h).contains(&r) || !(0..w).contains(&c) {
            return None;
        }
        let offset = if square { self.width * self.height } else { 0 };
        Some((r * w + c) as usize + offset)
    }

    fn centre(&self, cell: usize) -> (f64, f64) {
        let (r2, c2) = self.half_rc(cell);
        (c2 as f64 / 2.0, r2 as f64 / 2.0)
    }

    fn emptied(&self) -> Vec<usize> {
        if self.wrap {
            return Vec::new();
        }
        // The last row of squares, then the last column's but the corner.
        let (w, h) = (self.width, self.height);
        let n = 2 * w * h;
        (1..=w)
            .map(|i| n - i)
            .chain((1..h).map(|i| n - 1 - w * i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_neighbours, outside_cells};
    use super::super::{Grid, Layout};

    #[test]
    fn neighbours_of_octagrid_test_js() {
        // octagrid.test.js, "Find neighbours in a regular puzzle".
        let l = Layout::new(Grid::Octagonal, 4, 3, false).unwrap();
        assert_neighbours(
            &l,
            &[
                (0, &[1, -1, -1, -1, -1, -1, 4, 12]),
                (1, &[2, -1, -1, -1, 0, 12, 5, 13]),
                (3, &[-1, -1, -1, -1, 2, 14, 7, 15]),
                (6, &[7, 14, 2, 13, 5, 17, 10, 18]),
                (12, &[1, 0, 4, 5]),
                (20, &[9, 8, -1, -1]),
            ],
        );
        // octagrid.test.js, "Find neighbours in a wrap puzzle".
        let l = Layout::new(Grid::Octagonal, 4, 3, true).unwrap();
        assert_neighbours(
            &l,
            &[
                (0, &[1, 20, 8, 23, 3, 15, 4, 12]),
                (1, &[2, 21, 9, 20, 0, 12, 5, 13]),
                (3, &[0, 23, 11, 22, 2, 14, 7, 15]),
                (6, &[7, 14, 2, 13, 5, 17, 10, 18]),
                (12, &[1, 0, 4, 5]),
                (15, &[0, 3, 7, 4]),
                (20, &[9, 8, 0, 1]),
            ],
        );
    }

    #[test]
    fn a_new_bounded_board_leaves_its_last_squares_outside() {
        // OctaGrid(w, h, false) empties the last row of squares and the last column's.
        assert_eq!(outside_cells(Grid::Octagonal, 3, 2), [8, 9, 10, 11]);
        assert_eq!(
            outside_cells(Grid::Octagonal, 4, 3),
            [15, 19, 20, 21, 22, 23]
        );
        assert_eq!(outside_cells(Grid::Octagonal, 1, 1), [1]);
    }
}

//! hexapipes' `snubsquaregrid.js`: a square grid (`squaregrid.js`) whose every square holds
//! six cells of the snub square tiling (cell `6 * square + unit`: units 0 and 3 squares,
//! the others triangles). Directions E, N, W, S are bits 1, 2, 4, 8 (each polygon's sides
//! turned a little off the compass). `w` and `h` are the file's width and height over
//! sqrt 6, rounded. A bounded board leaves one triangle empty (still a cell here).

use super::{Geometry, Grid, Polygon, cell_count, js_round, whole};
use std::f64::consts::PI;

const EAST: u8 = 1;
const NORTH: u8 = 2;
const WEST: u8 = 4;
const SOUTH: u8 = 8;

/// Each unit's polygon: sides, angle of the first side, and direction bits.
const SHAPES: [(usize, f64, &[u8]); 6] = [
    (4, PI / 12.0, &[1, 2, 4, 8]),
    (3, -3.0 * PI / 12.0, &[1, 2, 4]),
    (3, PI / 12.0, &[1, 4, 8]),
    (4, -PI / 12.0, &[1, 2, 4, 8]),
    (3, -PI / 12.0, &[1, 2, 4]),
    (3, 3.0 * PI / 12.0, &[1, 4, 8]),
];

fn radius_in(sides: usize) -> f64 {
    if sides == 4 { 0.5 } else { 3f64.sqrt() / 6.0 }
}

pub(super) fn polygons() -> Vec<Polygon> {
    SHAPES
        .iter()
        .map(|&(n, angle, slots)| Polygon::regular(angle, radius_in(n), slots))
        .collect()
}

pub(super) struct Snubsquare {
    w: usize,
    h: usize,
    wrap: bool,
    cells: usize,
}

impl Snubsquare {
    pub(super) fn new(width: usize, height: usize, wrap: bool) -> Result<Snubsquare, String> {
        let w = whole(js_round(width as f64 / 6f64.sqrt()));
        let h = whole(js_round(height as f64 / 6f64.sqrt()));
        let cells = cell_count(Grid::Snubsquare, width, height, wrap, &[6, w, h])?;
        Ok(Snubsquare { w, h, wrap, cells })
    }

    /// `SquareGrid.find_neighbour`.
    fn square_neighbour(&self, square: usize, direction: u8) -> Option<usize> {
        let (r, c) = ((square / self.w) as isize, (square % self.w) as isize);
        let (r, c) = match direction {
            EAST => (r, c + 1),
            NORTH => (r - 1, c),
            WEST => (r, c - 1),
            _ => (r + 1, c),
        };
        let (w, h) = (self.w as isize, self.h as isize);
        let (r, c) = if self.wrap {
            (r.rem_euclid(h), c.rem_euclid(w))
        } else if (0..h).contains(&r) && (0..w).contains(&c) {
            (r, c)
        } else {
            return None;
        };
        Some((r * w + c) as usize)
    }
}

impl Geometry for Snubsquare {
    fn cells(&self) -> usize {
        self.cells
    }

    fn polygon_of(&self, cell: usize) -> u8 {
        (cell % 6) as u8
    }

    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize> {
        let (square, unit) = (cell / 6, cell % 6);
        // The unit across, and whether it lies in the next square that way.
        let (to, next_square) = match (unit, direction) {
            (0, EAST) => (1, false),
            (0, SOUTH) => (4, false),
            (0, NORTH) => (5, true),
            (0, _) => (2, true),
            (1, EAST) => (2, false),
            (1, NORTH) => (3, true),
            (1, _) => (0, false),
            (2, EAST) => (0, true),
            (2, WEST) => (1, false),
            (2, _) => (3, false),
            (3, EAST) => (5, true),
            (3, NORTH) => (2, false),
            (3, WEST) => (4, false),
            (3, _) => (1, true),
            (4, EAST) => (3, false),
            (4, NORTH) => (0, false),
            (4, _) => (5, false),
            (_, EAST) => (4, false),
            (_, WEST) => (3, true),
            _ => (0, true),
        };
        let square = if next_square {
            self.square_neighbour(square, direction)?
        } else {
            square
        };
        Some(6 * square + to)
    }

    fn centre(&self, cell: usize) -> (f64, f64) {
        let (square, unit) = (cell / 6, cell % 6);
        let step = 2.0 * (PI / 12.0).cos();
        // Where each unit sits from its square's corner: its circumradius along an angle
        // (twice that for the last triangle).
        let (times, angle) = [
            (1.0, 5.0 * PI / 6.0),
            (1.0, 5.0 * PI / 12.0),
            (1.0, PI / 12.0),
            (1.0, -PI / 3.0),
            (1.0, -3.0 * PI / 4.0),
            (2.0, -3.0 * PI / 4.0),
        ][unit];
        let sides = SHAPES[unit].0;
        let radius_out = radius_in(sides) / (PI / sides as f64).cos();
        let (r, c) = ((square / self.w) as f64, (square % self.w) as f64);
        (
            c * step + times * radius_out * angle.cos(),
            r * step - times * radius_out * angle.sin(),
        )
    }

    fn emptied(&self) -> Vec<usize> {
        if self.wrap {
            return Vec::new();
        }
        // The last row's first square's lone triangle, sticking out of the bottom left.
        vec![6 * (self.w * self.h - self.w) + 5]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_neighbours, outside_cells};
    use super::super::{Grid, Layout};

    #[test]
    fn neighbours_of_snubsquaregrid_test_js() {
        // snubsquaregrid.test.js, "Find neighbours in a regular puzzle".
        let l = Layout::new(Grid::Snubsquare, 7, 7, false).unwrap();
        assert_neighbours(
            &l,
            &[
                (24, &[25, 11, 20, 28]),
                (25, &[26, 9, 24]),
                (26, &[30, 25, 27]),
                (27, &[35, 26, 28, 43]),
                (28, &[27, 24, 29]),
                (29, &[28, 21, 42]),
            ],
        );
    }

    #[test]
    fn a_new_bounded_board_leaves_one_triangle_outside() {
        assert_eq!(outside_cells(Grid::Snubsquare, 7, 7), [41]);
        assert_eq!(outside_cells(Grid::Snubsquare, 7, 5), [23]);
    }
}

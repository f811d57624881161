//! hexapipes' `trihexagrid.js`: rows of "fish", each a hexagon and two triangles (cell
//! `3 * (row * w + fish) + unit`: 0 the hexagon, 1 the triangle pointing down above it,
//! 2 the one pointing up below it; in even rows the triangles are right of the hexagon,
//! in odd rows left). Directions NE, N, NW, SW, S, SE are bits 1..32. `w` and `h` are the
//! file's width and height over sqrt 3, rounded. A bounded board leaves one or two corner
//! triangles empty (they are still cells here).

use super::{Geometry, Grid, Polygon, cell_count, js_round, whole};
use std::f64::consts::PI;

const NORTHEAST: u8 = 1;
const NORTH: u8 = 2;
const NORTHWEST: u8 = 4;
const SOUTHWEST: u8 = 8;
const SOUTH: u8 = 16;
const SOUTHEAST: u8 = 32;

pub(super) fn polygons() -> Vec<Polygon> {
    vec![
        Polygon::regular(PI / 6.0, 0.5, &[1, 2, 4, 8, 16, 32]),
        Polygon::regular(-PI / 6.0, 1.0 / 6.0, &[SOUTHEAST, NORTH, SOUTHWEST]),
        Polygon::regular(PI / 6.0, 1.0 / 6.0, &[NORTHEAST, NORTHWEST, SOUTH]),
    ]
}

pub(super) struct Trihexagonal {
    w: usize,
    h: usize,
    wrap: bool,
    cells: usize,
}

impl Trihexagonal {
    pub(super) fn new(width: usize, height: usize, wrap: bool) -> Result<Trihexagonal, String> {
        let w = whole(js_round(width as f64 / 3f64.sqrt()));
        let h = whole(js_round(height as f64 / 3f64.sqrt()));
        let cells = cell_count(Grid::Trihexagonal, width, height, wrap, &[3, w, h])?;
        Ok(Trihexagonal { w, h, wrap, cells })
    }

    /// `_fish_to_index`, wrapping or leaving the board.
    fn fish_to_index(&self, row: isize, fish: isize, unit: usize) -> Option<usize> {
        let (w, h) = (self.w as isize, self.h as isize);
        let (row, fish) = if (0..h).contains(&row) && (0..w).contains(&fish) {
            (row, fish)
        } else if self.wrap {
            (row.rem_euclid(h), fish.rem_euclid(w))
        } else {
            return None;
        };
        Some(3 * (row * w + fish) as usize + unit)
    }
}

impl Geometry for Trihexagonal {
    fn cells(&self) -> usize {
        self.cells
    }

    fn polygon_of(&self, cell: usize) -> u8 {
        (cell % 3) as u8
    }

    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize> {
        let unit = cell % 3;
        let fish = cell / 3;
        let (r, f) = (fish / self.w, fish % self.w);
        let swims_left = r % 2 == 0;
        // Within the fish: the triangles sit ahead of the hexagon, right in even rows.
        let (to_down, to_up) = if swims_left {
            (NORTHEAST, SOUTHEAST)
        } else {
            (NORTHWEST, SOUTHWEST)
        };
        let back = |d| Grid::Trihexagonal.opposite(d);
        match unit {
            0 if direction == to_down => return Some(cell + 1),
            0 if direction == to_up => return Some(cell + 2),
            1 if direction == back(to_down) => return Some(cell - 1),
            2 if direction == back(to_up) => return Some(cell - 2),
            _ => {}
        }
        // To a neighbouring fish; an odd number of rows shifts the fish when wrapping.
        let odd = self.h % 2 == 1;
        let (mut rn, mut fn_) = (r as isize, f as isize);
        let un;
        if direction == NORTH {
            rn -= 1;
            if r == 0 && odd && unit == 0 {
                fn_ -= 1;
            }
            un = if unit == 0 { 2 } else { 0 };
        } else if direction == SOUTH {
            rn += 1;
            if r == self.h - 1 && odd && unit != 0 {
                fn_ += 1;
            }
            un = if unit == 0 { 1 } else { 0 };
        } else if direction == NORTHEAST || direction == SOUTHEAST {
            fn_ += 1;
            un = match (swims_left, direction == NORTHEAST) {
                (true, _) => 0,
                (false, true) => 1,
                (false, false) => 2,
            };
        } else {
            fn_ -= 1;
            un = match (swims_left, direction == NORTHWEST) {
                (false, _) => 0,
                (true, true) => 1,
                (true, false) => 2,
            };
        }
        self.fish_to_index(rn, fn_, un)
    }

    fn centre(&self, cell: usize) -> (f64, f64) {
        let (unit, fish) = (cell % 3, cell / 3);
        let (r, f) = (fish / self.w, fish % self.w);
        let odd_row = r % 2;
        // Half-hexagon columns: the hexagon and its triangles take two, in either order.
        let (column, dy) = match unit {
            0 => (2 * f + odd_row, 0.0),
            1 => (2 * f + 1 - odd_row, -1.0 / 3.0),
            _ => (2 * f + 1 - odd_row, 1.0 / 3.0),
        };
        (column as f64 / 3f64.sqrt(), r as f64 + dy)
    }

    fn emptied(&self) -> Vec<usize> {
        if self.wrap {
            return Vec::new();
        }
        let (w, h) = (self.w, self.h);
        // The upper right corner triangle, and the lower left one for an even number of
        // rows. For an odd number hexapipes means the lower right one, `3 * h * w - 1`, but
        // writes `3 * h * h - 1`: past the last cell when h > w, an inner up triangle of an
        // earlier row when h < w.
        let lower = if h % 2 == 0 {
            3 * (h - 1) * w + 2
        } else {
            3 * h * h - 1
        };
        vec![3 * (w - 1) + 1, lower]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_neighbours, outside_cells};
    use super::super::{Grid, Layout};

    #[test]
    fn neighbours_of_trihexagrid_test_js() {
        // trihexagrid.test.js, "Find neighbours in a regular puzzle".
        let l = Layout::new(Grid::Trihexagonal, 7, 7, false).unwrap();
        assert_neighbours(
            &l,
            &[
                (2, &[3, 0, 12]),
                (17, &[15, 12, 27]),
                (14, &[12, -1, 24]),
                (11, &[-1, 9, 21]),
                (15, &[19, 5, 16, 17, 28, 20]),
                (3, &[4, -1, 1, 2, 16, 5]),
                (16, &[15, 3, 12]),
                (4, &[6, -1, 3]),
            ],
        );
        // "Find neighbours in an even-sized wrap puzzle".
        let l = Layout::new(Grid::Trihexagonal, 7, 7, true).unwrap();
        assert_neighbours(
            &l,
            &[
                (14, &[12, 21, 24]),
                (11, &[0, 9, 21]),
                (3, &[4, 41, 1, 2, 16, 5]),
                (4, &[6, 39, 3]),
            ],
        );
        // "Find neighbours in an odd-sized wrap puzzle".
        let l = Layout::new(Grid::Trihexagonal, 5, 5, true).unwrap();
        assert_neighbours(
            &l,
            &[
                (11, &[9, 15, 18]),
                (8, &[0, 6, 15]),
                (20, &[21, 18, 3]),
                (0, &[1, 26, 7, 8, 10, 2]),
                (6, &[7, 23, 4, 5, 16, 8]),
                (15, &[10, 8, 16, 17, 25, 11]),
                (18, &[19, 11, 25, 26, 1, 20]),
                (24, &[25, 17, 22, 23, 7, 26]),
                (1, &[3, 18, 0]),
                (10, &[9, 0, 15]),
                (7, &[0, 24, 6]),
            ],
        );
    }

    #[test]
    fn a_new_bounded_board_leaves_corner_triangles_outside() {
        // 4x4 fish (even rows): the upper right and lower left triangles.
        assert_eq!(outside_cells(Grid::Trihexagonal, 7, 7), [10, 38]);
        // 3x3 (odd rows): the upper right and lower right ones, `3 * h * h - 1`.
        assert_eq!(outside_cells(Grid::Trihexagonal, 5, 5), [7, 26]);
        // 5 fish wide, 3 rows: hexapipes' `3 * h * h - 1` is 26, an up triangle in the
        // middle row, not the corner 44.
        assert_eq!(outside_cells(Grid::Trihexagonal, 9, 5), [13, 26]);
        // 3 fish wide, 5 rows: 74 is past the last cell (44), so only the upper corner.
        assert_eq!(outside_cells(Grid::Trihexagonal, 5, 9), [7]);
    }
}

//! hexapipes' `cubegrid.js`: a hexagonal grid (`hexagrid.js`) of cubes seen from a corner,
//! each hexagon cut into three rhombi (cell `3 * hexagon + face`: 0 right, 1 top, 2 left).
//! Every rhombus has sides A, B, C, D (bits 1, 2, 4, 8; A faces B, C faces D). The hexagonal
//! grid is smaller than the file's size: hexapipes scales it by 0.58 (wrapped) or 0.67 so
//! that tile counts match square puzzles of that size. A bounded board is cut to a hexagon
//! shape by emptying corner cubes (they are still cells here).

use super::{
    Geometry, Grid, Linear, Polygon, cell_count, compose, hex_centre, hex_neighbour, js_round,
    whole,
};
use std::f64::consts::PI;

/// Cube size relative to the hexagonal grid's hexagons.
const SCALE: f64 = 1.5;

/// Per face and side A..D: the hexagon direction to step (0: stay in the cube) and the
/// face reached (`#RHOMB_NEIGHBOURS`; hexagon directions E, NE, NW, W, SW, SE are 1..32).
const ACROSS: [[(u8, usize); 4]; 3] = [
    [(0, 1), (0, 2), (32, 1), (1, 2)],
    [(0, 2), (0, 0), (2, 2), (4, 0)],
    [(0, 0), (0, 1), (8, 0), (16, 1)],
];

/// Each face's rotation of the same sheared square.
const FACE_ROTATION: [f64; 3] = [-PI / 2.0, 5.0 * PI / 6.0, PI / 6.0];

/// Angle from the cube's centre to each face's centre.
const FACE_ANGLE: [f64; 3] = [-PI / 6.0, PI / 2.0, -5.0 * PI / 6.0];

pub(super) fn polygons() -> Vec<Polygon> {
    // TransformedPolygonTile(4, 0, 0.5 * SCALE, [], 0.01, 1 / sqrt 3, 0.5, PI / 6, 0, angle):
    // rotate(angle) . skew(PI / 6, 0) . scale(1 / sqrt 3, 0.5).
    let shear: Linear = [1.0, 0.0, (PI / 6.0).tan(), 1.0];
    let squash: Linear = [1.0 / 3f64.sqrt(), 0.0, 0.0, 0.5];
    FACE_ROTATION
        .iter()
        .map(|&a| {
            let turn: Linear = [a.cos(), a.sin(), -a.sin(), a.cos()];
            let m = compose(compose(turn, shear), squash);
            Polygon::transformed(0.0, 0.5 * SCALE, &[1, 2, 4, 8], m)
        })
        .collect()
}

pub(super) struct Cube {
    hex_width: usize,
    hex_height: usize,
    wrap: bool,
    cells: usize,
}

impl Cube {
    pub(super) fn new(width: usize, height: usize, wrap: bool) -> Result<Cube, String> {
        let scale = if wrap { 0.58 } else { 0.67 };
        let hex_width = whole(js_round(width as f64 * scale));
        let hex_height = whole(js_round(height as f64 * scale));
        let cells = cell_count(Grid::Cube, width, height, wrap, &[3, hex_width, hex_height])?;
        Ok(Cube {
            hex_width,
            hex_height,
            wrap,
            cells,
        })
    }
}

impl Geometry for Cube {
    fn cells(&self) -> usize {
        self.cells
    }

    fn polygon_of(&self, cell: usize) -> u8 {
        (cell % 3) as u8
    }

    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize> {
        let (cube, face) = (cell / 3, cell % 3);
        let (hex_direction, to) = ACROSS[face][direction.trailing_zeros() as usize % 4];
        if hex_direction == 0 {
            return Some(3 * cube + to);
        }
        hex_neighbour(
            cube,
            hex_direction,
            self.hex_width,
            self.hex_height,
            self.wrap,
        )
        .map(|n| 3 * n + to)
    }

    fn centre(&self, cell: usize) -> (f64, f64) {
        let (x, y) = hex_centre(cell / 3, self.hex_width);
        let a = FACE_ANGLE[cell % 3];
        let r = SCALE * 3f64.sqrt() / 6.0;
        (x * SCALE + r * a.cos(), y * SCALE - r * a.sin())
    }

    fn emptied(&self) -> Vec<usize> {
        if self.wrap {
            return Vec::new();
        }
        hexagon_shape(self.hex_width, self.hex_height)
            .into_iter()
            .flat_map(|hexagon| [3 * hexagon, 3 * hexagon + 1, 3 * hexagon + 2])
            .collect()
    }
}

/// The hexagons `HexaGrid.useShape('hexagon')` empties on a bounded `width` x `height`
/// hexagonal grid, in its order: from the middle row's ends it walks up and down each side
/// (diagonally, one row at a time) and empties every hexagon beyond, stopping a walk at a
/// hexagon already empty or off the grid.
fn hexagon_shape(width: usize, height: usize) -> Vec<usize> {
    const EAST: u8 = 1;
    const NORTHEAST: u8 = 2;
    const NORTHWEST: u8 = 4;
    const WEST: u8 = 8;
    const SOUTHWEST: u8 = 16;
    const SOUTHEAST: u8 = 32;
    let mut empty = vec![false; width * height];
    let mut order = Vec::new();
    // find_neighbour's answer where it is not empty.
    let step = |empty: &[bool], cell: usize, direction: u8| {
        hex_neighbour(cell, direction, width, height, false).filter(|&n| !empty[n])
    };
    let middle_row = height / 2;
    let left = width * middle_row;
    let right = left + width - 1;
    for (start, shift, erase) in [
        (left, NORTHEAST, WEST),
        (right, NORTHWEST, EAST),
        (left, SOUTHEAST, WEST),
        (right, SOUTHWEST, EAST),
    ] {
        let mut cell = start;
        for _ in 0..middle_row {
            let Some(next) = step(&empty, cell, shift) else {
                break;
            };
            cell = next;
            let mut beyond = step(&empty, cell, erase);
            while let Some(n) = beyond {
                empty[n] = true;
                order.push(n);
                beyond = step(&empty, n, erase);
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::super::tests::{across, outside_cells};
    use super::super::{Grid, Layout};

    #[test]
    fn neighbours_of_cubegrid_test_js() {
        // cubegrid.test.js, "Test making a cell empty" (CubeGrid(5, 5, false)): the
        // neighbour across a direction bit, -1 outside the grid.
        let l = Layout::new(Grid::Cube, 5, 5, false).unwrap();
        let across = |cell: usize, direction: u8| {
            let side = l.polygon(cell).slots.iter().position(|&d| d == direction);
            side.and_then(|s| across(&l, cell, s))
                .map_or(-1, |(n, _)| n as i64)
        };
        for (cell, direction, expected) in [
            (9, 8, 14),
            (12, 2, 14),
            (9, 4, 22),
            (18, 4, -1),
            (4, 4, -1),
            (4, 8, -1),
            (11, 4, -1),
            (24, 8, -1),
        ] {
            assert_eq!(across(cell, direction), expected, "{cell} {direction}");
        }
    }

    #[test]
    fn a_new_bounded_board_cuts_its_corner_cubes() {
        // cubegrid.test.js, "Uses hexagonal shape if no tiles are provided": CubeGrid(5, 5,
        // false) empties hexagons 0 and 6, so their rhombi.
        assert_eq!(outside_cells(Grid::Cube, 5, 5), [0, 1, 2, 18, 19, 20]);
        // Found by running hexapipes: 7x7 is a 5x5 grid of hexagons, 6x9 a 4x6 one.
        let cubes = [0, 4, 9, 19, 20, 24];
        let expected: Vec<usize> = cubes
            .iter()
            .flat_map(|c| [3 * c, 3 * c + 1, 3 * c + 2])
            .collect();
        assert_eq!(outside_cells(Grid::Cube, 7, 7), expected);
        let cubes = [0, 1, 3, 4, 7, 8, 16, 20, 23];
        let expected: Vec<usize> = cubes
            .iter()
            .flat_map(|c| [3 * c, 3 * c + 1, 3 * c + 2])
            .collect();
        assert_eq!(outside_cells(Grid::Cube, 6, 9), expected);
        // One hexagon wide: nothing to cut.
        assert!(outside_cells(Grid::Cube, 2, 9).is_empty());
    }
}

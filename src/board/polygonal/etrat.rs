//! hexapipes' `etratgrid.js`: a hexagonal grid (`hexagrid.js`) stretched vertically, each
//! hexagon replaced by a column of three cells (cell `3 * hexagon + unit`: 0 a triangle
//! pointing up, 1 a square, 2 a triangle pointing down); rows of squares alternate with
//! rows of triangles. Directions E, N, W, S are bits 1, 2, 4, 8. The hexagonal grid is
//! `width` wide and `ceil(height / 2)` (plus one for an even height) tall. A bounded board
//! leaves the top row of up triangles and the bottom row of down triangles (and, for an
//! even height, of squares) empty; they are still cells here.

use super::{Geometry, Grid, Polygon, cell_count, hex_centre, hex_neighbour};
use std::f64::consts::PI;

const EAST: u8 = 1;
const NORTH: u8 = 2;
const SOUTH: u8 = 8;

/// hexagon directions (E, NE, NW, W, SW, SE are 1..32) across east and west of each unit.
const HEX_EAST_WEST: [(u8, u8); 3] = [(2, 4), (1, 8), (32, 16)];

pub(super) fn polygons() -> Vec<Polygon> {
    let triangle_radius_in = 3f64.sqrt() / 6.0;
    vec![
        Polygon::regular(PI / 6.0, triangle_radius_in, &[1, 4, 8]),
        Polygon::regular(0.0, 0.5, &[1, 2, 4, 8]),
        Polygon::regular(-PI / 6.0, triangle_radius_in, &[1, 2, 4]),
    ]
}

pub(super) struct Etrat {
    width: usize,
    hex_height: usize,
    even_height: bool,
    wrap: bool,
    cells: usize,
}

impl Etrat {
    pub(super) fn new(width: usize, height: usize, wrap: bool) -> Result<Etrat, String> {
        let hex_height = height.div_ceil(2) + height.is_multiple_of(2) as usize;
        let cells = cell_count(Grid::Etrat, width, height, wrap, &[3, width, hex_height])?;
        Ok(Etrat {
            width,
            hex_height,
            even_height: height.is_multiple_of(2),
            wrap,
            cells,
        })
    }
}

impl Geometry for Etrat {
    fn cells(&self) -> usize {
        self.cells
    }

    fn polygon_of(&self, cell: usize) -> u8 {
        (cell % 3) as u8
    }

    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize> {
        let (hexagon, unit) = (cell / 3, cell % 3);
        match (unit, direction) {
            // Up and down the column (an up triangle has no north side, a down one no south).
            (0 | 1, SOUTH) => Some(cell + 1),
            (1 | 2, NORTH) => Some(cell - 1),
            (0, NORTH) | (2, SOUTH) => None,
            _ => {
                let (east, west) = HEX_EAST_WEST[unit];
                let across = if direction == EAST { east } else { west };
                // An up triangle meets the down triangle of the hexagon up and aside, and
                // the other way round; a square meets a square.
                let to = 2 - unit;
                hex_neighbour(hexagon, across, self.width, self.hex_height, self.wrap)
                    .map(|n| 3 * n + to)
            }
        }
    }

    fn centre(&self, cell: usize) -> (f64, f64) {
        let (x, y) = hex_centre(cell / 3, self.width);
        let row_step = 3f64.sqrt() / 2.0 + 1.0;
        let y0 = y / (3f64.sqrt() / 2.0) * row_step;
        // Triangles sit half a square plus their inradius above and below the square.
        let off = 0.5 + 3f64.sqrt() / 6.0;
        let dy = [-off, 0.0, off][cell % 3];
        (x, y0 + dy)
    }

    fn emptied(&self) -> Vec<usize> {
        if self.wrap {
            return Vec::new();
        }
        // The first row's up triangles, the last row's down triangles and, for an even
        // height, the last row's squares too.
        let even = self.even_height;
        let n = self.cells;
        (0..self.width)
            .flat_map(|i| {
                [
                    Some(3 * i),
                    Some(n - 1 - 3 * i),
                    even.then(|| n - 2 - 3 * i),
                ]
            })
            .flatten()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_neighbours, outside_cells};
    use super::super::{Grid, Layout};

    #[test]
    fn neighbours_of_etratgrid_test_js() {
        // etratgrid.test.js, "Find neighbours in a regular puzzle".
        let l = Layout::new(Grid::Etrat, 3, 6, false).unwrap();
        assert_neighbours(
            &l,
            &[
                (12, &[8, 5, 13]),
                (13, &[16, 12, 10, 14]),
                (14, &[24, 13, 21]),
            ],
        );
    }

    #[test]
    fn a_new_bounded_board_leaves_its_top_and_bottom_triangles_outside() {
        // The first row's up triangles, the last row's down triangles ...
        assert_eq!(outside_cells(Grid::Etrat, 3, 5), [0, 3, 6, 20, 23, 26]);
        // (the height's parity, not the hexagon rows': 3 tall is 2 rows of hexagons)
        assert_eq!(outside_cells(Grid::Etrat, 3, 3), [0, 3, 6, 11, 14, 17]);
        assert_eq!(
            outside_cells(Grid::Etrat, 3, 4),
            [0, 3, 6, 19, 20, 22, 23, 25, 26]
        );
        // ... and, for an even height, the last row's squares.
        assert_eq!(
            outside_cells(Grid::Etrat, 3, 6),
            [0, 3, 6, 28, 29, 31, 32, 34, 35]
        );
    }
}

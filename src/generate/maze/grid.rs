//! Grid geometry shared by the maze algorithms: neighbours of a row-major cell index and
//! opening a passage (both cells' masks).

use crate::model::direction::{E, N, S, W, bit, opposite};

/// Height and width of a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Number of rows.
    pub height: usize,
    /// Number of columns.
    pub width: usize,
}

impl Dims {
    /// A `height` × `width` grid.
    pub const fn new(height: usize, width: usize) -> Dims {
        Dims { height, width }
    }

    /// Number of cells.
    pub const fn cells(self) -> usize {
        self.height * self.width
    }

    /// The cell across `side` of cell `i`, or `None` at the border.
    #[inline]
    pub fn neighbour(self, i: usize, side: usize) -> Option<usize> {
        let (r, c) = (i / self.width, i % self.width);
        match side {
            N if r > 0 => Some(i - self.width),
            E if c + 1 < self.width => Some(i + 1),
            S if r + 1 < self.height => Some(i + self.width),
            W if c > 0 => Some(i - 1),
            _ => None,
        }
    }

    /// The sides of `i` that lead to a cell for which `keep(cell)` holds, as (side, cell) pairs
    /// in a fixed array with a length (no allocation: this runs once per carving step).
    #[inline]
    pub fn neighbours_where(
        self,
        i: usize,
        mut keep: impl FnMut(usize) -> bool,
    ) -> ([(usize, usize); 4], usize) {
        let mut out = [(0, 0); 4];
        let mut k = 0;
        for side in [N, E, S, W] {
            if let Some(j) = self.neighbour(i, side)
                && keep(j)
            {
                out[k] = (side, j);
                k += 1;
            }
        }
        (out, k)
    }
}

/// Opens the passage between `i` and its neighbour `j` across `side`.
#[inline]
pub fn open(masks: &mut [u8], i: usize, side: usize, j: usize) {
    masks[i] |= bit(side);
    masks[j] |= bit(opposite(side));
}

/// The solved grid whose pieces are exactly `masks`.
#[cfg(test)]
pub fn solved_game(height: usize, width: usize, masks: &[u8]) -> crate::model::Game {
    use crate::model::{Game, Piece};
    Game::from_cells(
        height,
        width,
        masks.iter().map(|&m| Piece::from_mask(m)).collect(),
    )
}

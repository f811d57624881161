//! [`Board`]: the shapes of a level on a grid padded with a ring of empty cells, so that the
//! four neighbours of any real cell are plain index offsets and the border needs no special
//! case: an empty neighbour forbids a connection exactly as the border does.

use crate::model::Game;

pub struct Board {
    pub height: usize,
    pub width: usize,
    /// Padded width (`width + 2`).
    pub stride: usize,
    /// Piece kind code per padded cell; the ring is empty (0).
    pub kind: Vec<u8>,
    /// Index offsets to the N, E, S, W neighbours.
    pub step: [isize; 4],
}

impl Board {
    pub fn new(game: &Game) -> Board {
        let (h, w) = (game.height(), game.width());
        let stride = w + 2;
        let mut kind = vec![0u8; (h + 2) * stride];
        for r in 0..h {
            for c in 0..w {
                kind[(r + 1) * stride + c + 1] = game.get(r, c).kind().code();
            }
        }
        Board {
            height: h,
            width: w,
            stride,
            kind,
            step: [-(stride as isize), 1, stride as isize, -1],
        }
    }

    /// A board from padded kinds (`(height + 2) * (width + 2)` of them, ring included).
    pub fn from_padded(height: usize, width: usize, kind: Vec<u8>) -> Board {
        let stride = width + 2;
        debug_assert_eq!(kind.len(), (height + 2) * stride);
        Board {
            height,
            width,
            stride,
            kind,
            step: [-(stride as isize), 1, stride as isize, -1],
        }
    }

    /// Number of padded cells.
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// Padded index of the game cell (row, col).
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.stride + col + 1
    }

    /// Game (row, col) of a padded index inside the ring.
    #[inline]
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.stride - 1, cell % self.stride - 1)
    }

    #[inline(always)]
    pub fn neighbour(&self, cell: usize, side: usize) -> usize {
        cell.wrapping_add_signed(self.step[side])
    }

    /// Padded indices of every real cell, row-major.
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.height).flat_map(move |r| (0..self.width).map(move |c| self.cell(r, c)))
    }
}

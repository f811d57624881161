//! [`Game`]: a level as height, width and one [`Piece`] byte per cell, row-major from the
//! top-left.

use super::direction::{E, N, S, W};
use super::piece::{Piece, PieceKind};

/// A level (or a solution): height × width pieces, row-major from the top-left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    height: usize,
    width: usize,
    cells: Vec<Piece>,
}

impl Game {
    /// A grid of empty cells. Both dimensions must be at least 1.
    pub fn empty(height: usize, width: usize) -> Game {
        assert!(height > 0 && width > 0, "a grid has at least one cell");
        Game {
            height,
            width,
            cells: vec![Piece::EMPTY; height * width],
        }
    }

    /// A grid from row-major cells; `cells.len()` must be `height * width`.
    pub fn from_cells(height: usize, width: usize, cells: Vec<Piece>) -> Game {
        assert!(height > 0 && width > 0, "a grid has at least one cell");
        assert_eq!(
            cells.len(),
            height * width,
            "cell count must match the size"
        );
        Game {
            height,
            width,
            cells,
        }
    }

    /// Number of rows (at least 1).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of columns (at least 1).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false: a game has at least one cell. Present for API symmetry with `len`.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The pieces, row-major.
    pub fn cells(&self) -> &[Piece] {
        &self.cells
    }

    /// The pieces, row-major, for changing in place.
    pub fn cells_mut(&mut self) -> &mut [Piece] {
        &mut self.cells
    }

    /// Row-major index of (row, col).
    #[inline]
    pub fn index(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// The piece at (row, col); panics outside the grid.
    pub fn get(&self, row: usize, col: usize) -> Piece {
        self.cells[self.index(row, col)]
    }

    /// Puts `piece` at (row, col); panics outside the grid.
    pub fn set(&mut self, row: usize, col: usize, piece: Piece) {
        let i = self.index(row, col);
        self.cells[i] = piece;
    }

    /// Index of the neighbour of cell `i` across `side`, or `None` at the border.
    #[inline]
    pub fn neighbour(&self, i: usize, side: usize) -> Option<usize> {
        let (r, c) = (i / self.width, i % self.width);
        match side {
            N if r > 0 => Some(i - self.width),
            E if c + 1 < self.width => Some(i + 1),
            S if r + 1 < self.height => Some(i + self.width),
            W if c > 0 => Some(i - 1),
            _ => None,
        }
    }

    /// Count of each piece kind, indexed by file type code.
    pub fn histogram(&self) -> [usize; 6] {
        let mut h = [0usize; 6];
        for p in &self.cells {
            h[p.kind() as usize] += 1;
        }
        h
    }

    /// The same pieces with every orientation reset to 0, i.e. the shapes without the answer.
    pub fn shapes_only(&self) -> Game {
        let cells = self.cells.iter().map(|p| Piece::new(p.kind(), 0)).collect();
        Game::from_cells(self.height, self.width, cells)
    }

    /// True when every cell holds the same kind as in `other` (orientations may differ).
    pub fn same_shapes(&self, other: &Game) -> bool {
        self.height == other.height
            && self.width == other.width
            && self
                .cells
                .iter()
                .zip(&other.cells)
                .all(|(a, b)| a.kind() == b.kind())
    }

    /// Number of non-empty cells.
    pub fn occupied(&self) -> usize {
        self.cells
            .iter()
            .filter(|p| p.kind() != PieceKind::Empty)
            .count()
    }
}

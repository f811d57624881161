//! [`BoardLevel`]: a level on any [`Board`]: one side mask per cell. A bounded square board
//! converts to and from the course format's [`Game`] without loss.

use super::{Board, Tiling, Wrap};
use crate::model::{Game, Piece};

/// A board and the piece on each of its cells, as a side mask in the board's bit order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLevel {
    board: Board,
    masks: Vec<u8>,
}

impl BoardLevel {
    /// A level of `masks` (one per cell, row-major) on `board`. Fails when the count is
    /// wrong or a mask has a bit beyond the cell's sides.
    pub fn new(board: Board, masks: Vec<u8>) -> Result<BoardLevel, String> {
        if masks.len() != board.len() {
            return Err(format!(
                "a {}x{} board has {} cells, not {}",
                board.width(),
                board.height(),
                board.len(),
                masks.len()
            ));
        }
        let full = ((1u32 << board.sides()) - 1) as u8;
        if let Some(i) = masks.iter().position(|&m| m & !full != 0) {
            return Err(format!(
                "cell {i}: mask {} has a side beyond the {} of a {} cell",
                masks[i],
                board.sides(),
                board.tiling().name()
            ));
        }
        Ok(BoardLevel { board, masks })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side mask of every cell.
    pub fn masks(&self) -> &[u8] {
        &self.masks
    }

    /// The masks, to turn pieces in place (a turn keeps the shape; see [`BoardLevel::turn`]).
    pub fn masks_mut(&mut self) -> &mut [u8] {
        &mut self.masks
    }

    /// Turns the piece of `cell` by `turns` steps up its side order.
    pub fn turn(&mut self, cell: usize, turns: u8) {
        let k = self.board.sides();
        self.masks[cell] = super::mask::rotate(self.masks[cell], k, turns);
    }

    /// Same board and, cell by cell, the same shapes (each mask a rotation of the other's).
    pub fn same_shapes(&self, other: &BoardLevel) -> bool {
        let k = self.board.sides();
        self.board == other.board
            && self
                .masks
                .iter()
                .zip(&other.masks)
                .all(|(&a, &b)| super::mask::canonical(a, k) == super::mask::canonical(b, k))
    }

    /// The course-format level of a bounded square board (its masks use the same bits).
    pub fn to_game(&self) -> Option<Game> {
        if !self.board.is_bounded_square() {
            return None;
        }
        let cells = self.masks.iter().map(|&m| Piece::from_mask(m)).collect();
        Some(Game::from_cells(
            self.board.height(),
            self.board.width(),
            cells,
        ))
    }

    /// The bounded square level of a course-format `game`.
    pub fn from_game(game: &Game) -> BoardLevel {
        let board = Board::new(Tiling::Square, game.width(), game.height(), Wrap::NONE)
            .expect("a course-format level fits a board");
        let masks = game.cells().iter().map(|p| p.mask()).collect();
        BoardLevel { board, masks }
    }
}

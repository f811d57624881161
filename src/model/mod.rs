//! The puzzle's data: sides as mask bits, pieces as bytes, and the [`Game`] grid.

pub mod direction;
pub mod game;
pub mod piece;

pub use game::Game;
pub use piece::{Piece, PieceKind};

//! The game's explained hint (`?`), its check for mistakes (`m`) and the grade beside the
//! level: the deduction ladder ([`crate::deduce`]) on the grid as it stands. Nothing here
//! turns a piece: the player reads why and turns it.

use crate::board::BoardLevel;
use crate::deduce::hint;
pub use crate::deduce::hint::Explained;
use crate::model::Game;

fn masks(game: &Game) -> Vec<u8> {
    game.cells().iter().map(|p| p.mask()).collect()
}

/// The first deduction the grid's current turns do not follow ([`hint::explained_step`]).
pub fn explained_step(game: &Game) -> Option<Explained> {
    hint::explained_step(&BoardLevel::from_game(game), &masks(game))
}

/// The cells whose current orientation no solution allows ([`hint::mistakes`]).
pub fn mistakes(game: &Game) -> Vec<usize> {
    hint::mistakes(&BoardLevel::from_game(game), &masks(game))
}

/// The level's grade in a word ([`hint::grade_word`]).
pub fn grade_word(game: &Game) -> String {
    hint::grade_word(&BoardLevel::from_game(game))
}

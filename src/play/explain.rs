//! The game's explained hint (`?`), its check for mistakes (`m`) and the grade beside the
//! level: the deduction ladder ([`crate::deduce`]) on the grid as it stands. Nothing here
//! turns a piece: the player reads why and turns it.

use crate::board::BoardLevel;
use crate::deduce::grade::{End, solve_steps};
use crate::deduce::{Difficulty, Ladder, Step, grade};
use crate::model::Game;

/// One explained step: the line to show and the cells it read (row-major indices).
pub struct Explained {
    /// `[rung rule] conclusion: why`.
    pub text: String,
    /// The cells the rule read, the concluded one first.
    pub cells: Vec<usize>,
}

/// The first deduction of the ladder that the grid's current turns do not already follow;
/// `None` when the ladder (without guessing) finds none.
pub fn explained_step(game: &Game) -> Option<Explained> {
    let level = BoardLevel::from_game(game);
    let mut found = None;
    solve_steps(&level, 6, None, |pos, d| {
        if found.is_some() {
            return;
        }
        let now = pos.orientation_of(d.cell, game.cells()[d.cell].mask());
        if now.is_some_and(|o| d.after >> o & 1 == 1) {
            return;
        }
        found = Some(Explained {
            text: format!(
                "[{} {}] {}: {}",
                d.rule.rung(),
                d.rule.name(),
                d.conclusion(pos),
                d.why(pos)
            ),
            cells: d.read.clone(),
        });
    });
    found
}

/// The cells whose current orientation no solution allows, as far as the ladder (without
/// guessing) can tell: every deduction holds in every solution, so an orientation it ruled
/// out is wrong. Empty when the ladder finds the level has no solution.
pub fn mistakes(game: &Game) -> Vec<usize> {
    let level = BoardLevel::from_game(game);
    let Ok(mut ladder) = Ladder::new(&level, 6) else {
        return Vec::new();
    };
    loop {
        match ladder.next_step() {
            Step::Deduced(_) => {}
            Step::Contradiction(_) => return Vec::new(),
            Step::Solved | Step::Stuck => break,
        }
    }
    let pos = &ladder.pos;
    (0..game.len())
        .filter(|&c| {
            pos.orientation_of(c, game.cells()[c].mask())
                .is_some_and(|o| pos.dom[c] >> o & 1 == 0)
        })
        .collect()
}

/// The level's grade in a word: its difficulty, `search` when the ladder needs a guess, or
/// `no solution`.
pub fn grade_word(game: &Game) -> String {
    let g = grade(&BoardLevel::from_game(game), None);
    match (g.end, Difficulty::of_rung(g.rung)) {
        (End::NoSolution(_), _) => "no solution".into(),
        (End::Stuck, _) | (_, None) => "search".into(),
        (End::Solved, Some(d)) => d.name().into(),
    }
}

//! What a player's front end asks of the ladder about the grid as it stands: the next
//! explained step the current turns do not follow, the pieces whose orientation no solution
//! allows, and the level's grade in a word. The terminal game and the web app both show these;
//! nothing here turns a piece.

use super::grade::{End, solve_steps};
use super::{Difficulty, Ladder, Step, grade};
use crate::board::BoardLevel;

/// One explained step: the line to show and the cells it read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// `[rung rule] conclusion: why`.
    pub text: String,
    /// The cells the rule read (row-major indices), the concluded one first.
    pub cells: Vec<usize>,
}

/// The first deduction of the ladder (without guessing) that `current` (the turns on the
/// grid, one mask per cell of `level`'s board) does not already follow; `None` when the
/// ladder finds none.
pub fn explained_step(level: &BoardLevel, current: &[u8]) -> Option<Explained> {
    let mut found = None;
    solve_steps(level, 6, None, |pos, d| {
        if found.is_some() {
            return;
        }
        let now = pos.orientation_of(d.cell, current[d.cell]);
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

/// The cells whose orientation in `current` no solution allows, as far as the ladder
/// (without guessing) can tell: every deduction holds in every solution, so an orientation it
/// ruled out is wrong. Empty when the ladder finds the level has no solution.
pub fn mistakes(level: &BoardLevel, current: &[u8]) -> Vec<usize> {
    let Ok(mut ladder) = Ladder::new(level, 6) else {
        return Vec::new();
    };
    loop {
        match ladder.next_step() {
            Step::Deduced(_) => {}
            Step::Contradiction(_) => return Vec::new(),
            Step::Solved | Step::Stuck => break,
        }
    }
    let pos = ladder.pos();
    (0..current.len())
        .filter(|&c| {
            pos.orientation_of(c, current[c])
                .is_some_and(|o| pos.dom[c] >> o & 1 == 0)
        })
        .collect()
}

/// The level's grade in a word: its difficulty, `search` when the ladder needs a guess, or
/// `no solution`.
pub fn grade_word(level: &BoardLevel) -> String {
    let g = grade(level, None);
    match (g.end, Difficulty::of_rung(g.rung)) {
        (End::NoSolution(_), _) => "no solution".into(),
        (End::Stuck, _) | (_, None) => "search".into(),
        (End::Solved, Some(d)) => d.name().into(),
    }
}

//! Explained deductions: a ladder of named, sound rules of increasing strength, each
//! concluding something about one cell (orientations it cannot take) from cells it names,
//! with one sentence saying why. The weakest rung that applies is always used first, so the
//! highest rung a solve needs grades the level (as Simon Tatham's collection grades by its
//! solvers' strength), and a generator can keep a level only if it needs exactly a rung.
//!
//! - [`position`]: per cell the orientations still possible, with a trail and (Net) networks;
//! - [`rules`]: the rules themselves, each returning at most one [`Deduction`];
//! - [`counting`]: rung 4's counting rule (open ends must pair up), over regions;
//! - [`trial`]: the short and long trials (an orientation that runs into a contradiction);
//! - [`ladder`]: worklists that pick the next deduction without rescanning the board;
//! - [`grade`]: a whole solve's rung, rule counts and score;
//! - [`why`]: the one-sentence explanations, formatted only when asked.
//!
//! It works on any [`Board`](crate::board::Board) under both rule sets; a course-format level
//! comes in through [`BoardLevel::from_game`](crate::board::BoardLevel::from_game).

pub mod counting;
pub mod grade;
pub mod hint;
pub mod ladder;
pub mod position;
pub mod rules;
pub mod trial;
pub mod why;

#[cfg(test)]
mod tests;

pub use grade::{Difficulty, Grade, grade};
pub use ladder::{Ladder, Step};
pub use position::{Contradiction, Position};

/// A named rule of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A piece cannot point at the border or a barrier.
    Border,
    /// A piece agrees with its decided neighbours across the sides it shares with them.
    Neighbour,
    /// A piece agrees with the sides every orientation left of a neighbour connects (or
    /// none does).
    Common,
    /// Net: two one-end pieces cannot face each other (they would close an island of two).
    FacingEnds,
    /// Net: a piece cannot close a loop among sure connections.
    Loop,
    /// Net: a piece cannot close off a network smaller than the whole level.
    Island,
    /// The open ends of a set of cells with one undecided side out must pair up (their
    /// number is odd, or on a two-coloured board dark and light differ, exactly when that
    /// side connects).
    Counting,
    /// Every orientation removed runs into a contradiction within a few narrowings (6 under
    /// Infinity rules, 2 under Net).
    ShortTrial,
    /// Every orientation removed runs into a contradiction, however far away.
    Trial,
    /// Nothing above applies: the search's solution sets a cell.
    Guess,
}

impl Rule {
    /// Every rule, weakest first.
    pub const ALL: [Rule; 10] = [
        Rule::Border,
        Rule::Neighbour,
        Rule::Common,
        Rule::FacingEnds,
        Rule::Loop,
        Rule::Island,
        Rule::Counting,
        Rule::ShortTrial,
        Rule::Trial,
        Rule::Guess,
    ];

    /// The rung: 1 border, 2 decided neighbours, 3 common sides, 4 rules over regions (Net's
    /// loop and island rules, then counting), 5 short trial, 6 trial, 7 search.
    pub fn rung(self) -> u8 {
        match self {
            Rule::Border => 1,
            Rule::Neighbour => 2,
            Rule::Common => 3,
            Rule::FacingEnds | Rule::Loop | Rule::Island | Rule::Counting => 4,
            Rule::ShortTrial => 5,
            Rule::Trial => 6,
            Rule::Guess => 7,
        }
    }

    /// The name printed and used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Border => "border",
            Rule::Neighbour => "neighbour",
            Rule::Common => "common-sides",
            Rule::FacingEnds => "facing-ends",
            Rule::Loop => "no-loop",
            Rule::Island => "no-island",
            Rule::Counting => "counting",
            Rule::ShortTrial => "short-trial",
            Rule::Trial => "trial",
            Rule::Guess => "guess",
        }
    }
}

/// One step of reasoning: `rule`, reading `read`, narrowed `cell` from `before` to `after`
/// (orientation bitsets), because of `why`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduction {
    /// The rule applied.
    pub rule: Rule,
    /// The cell concluded about.
    pub cell: usize,
    /// The cells the rule read, the concluded cell first.
    pub read: Vec<usize>,
    /// Its orientations before.
    pub before: u8,
    /// Its orientations after (empty: the level has no solution).
    pub after: u8,
    /// What the rule found, for [`Deduction::why`]'s sentence.
    pub detail: why::Detail,
}

/// A cell's name in explanations: `r3c5` (row and column from 0), or `t17` on a mixed grid
/// (hexapipes' tile number).
pub fn cell_name(board: &crate::board::Board, cell: usize) -> String {
    if !board.is_uniform() {
        return format!("t{cell}");
    }
    let (r, c) = board.row_col(cell);
    format!("r{r}c{c}")
}

/// A side mask's name in explanations: the side names joined by `+` (`none` when empty);
/// on a mixed grid, the sides' numbers.
pub fn mask_name(board: &crate::board::Board, mask: u8) -> String {
    let names = board.tiling().side_names();
    let parts: Vec<String> = (0..board.sides() as usize)
        .filter(|&s| mask >> s & 1 == 1)
        .map(|s| names.get(s).map_or(format!("s{s}"), |n| n.to_string()))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join("+")
    }
}

impl Deduction {
    /// The masks of the orientations of `bits` at the deduction's cell.
    pub fn masks(&self, pos: &Position, bits: u8) -> Vec<u8> {
        (0..8)
            .filter(|&o| bits >> o & 1 == 1)
            .map(|o| pos.mask(self.cell, o))
            .collect()
    }

    /// What it concludes, in words: `r2c3 is N+E` or `r2c3 is not N, E`.
    pub fn conclusion(&self, pos: &Position) -> String {
        let b = pos.board();
        let name = cell_name(b, self.cell);
        if self.after == 0 {
            return format!("{name} has no orientation left: the level has no solution");
        }
        if self.after.count_ones() == 1 {
            let m = pos.mask(self.cell, self.after.trailing_zeros());
            return format!("{name} is {}", mask_name(b, m));
        }
        let removed: Vec<String> = self
            .masks(pos, self.before & !self.after)
            .into_iter()
            .map(|m| mask_name(b, m))
            .collect();
        format!("{name} is not {}", removed.join(", "))
    }
}

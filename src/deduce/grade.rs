//! A whole solve by the ladder: [`solve_steps`] runs it to the end (guessing from a
//! verified solution when it is stuck, if one is given), and [`grade`] sums it up: the highest
//! rung used, how often each rule fired, and a score. The score weighs each deduction by its
//! rung (1, 1, 2, 4, 8, 16, 32 for rungs 1 to 7) and divides by the cells: about 1 for a level
//! solved from the border in, more the more trials and guesses it takes.

use super::ladder::{Ladder, Step};
use super::position::{Contradiction, Position};
use super::{Deduction, Rule};
use crate::board::BoardLevel;

/// The difficulty a `--generate --difficulty` level is made to, by the highest rung its
/// solve needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Difficulty {
    /// Rungs 1 and 2: the border and decided neighbours.
    Easy,
    /// Rung 3: sides common to a neighbour's orientations.
    Medium,
    /// Rungs 4 and 5: Net's loop and island rules, counting, or a short trial.
    Hard,
    /// Rung 6: a trial followed as far as it goes.
    Expert,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    /// The word of the command line and of reports.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    /// The difficulty of a level whose solve needs rung `rung`; `None` for rung 7 (a guess).
    pub fn of_rung(rung: u8) -> Option<Difficulty> {
        match rung {
            0..=2 => Some(Difficulty::Easy),
            3 => Some(Difficulty::Medium),
            4 | 5 => Some(Difficulty::Hard),
            6 => Some(Difficulty::Expert),
            _ => None,
        }
    }

    /// The highest rung a level of this difficulty needs.
    pub fn top_rung(self) -> u8 {
        match self {
            Difficulty::Easy => 2,
            Difficulty::Medium => 3,
            Difficulty::Hard => 5,
            Difficulty::Expert => 6,
        }
    }
}

/// How a ladder solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every cell decided.
    Solved,
    /// A deduction ran into a contradiction: no solution.
    NoSolution(Contradiction),
    /// Stuck below a guess and no solution to guess from.
    Stuck,
}

/// Runs the ladder (rungs up to `top`) on `level` to the end, calling `each` with every
/// deduction and the position after it. When stuck, guesses from `solution` (the masks of
/// a verified solution) if given, else ends [`End::Stuck`].
pub fn solve_steps(
    level: &BoardLevel,
    top: u8,
    solution: Option<&[u8]>,
    each: impl FnMut(&Position, &Deduction),
) -> End {
    solve_steps_with(level, top, || solution.map(<[u8]>::to_vec), each)
}

/// [`solve_steps`], asking `solution` for the masks of a verified solution only when the
/// ladder first gets stuck (`None`: end [`End::Stuck`] there), so a level that needs a guess
/// is solved once, not once to find it stuck and again to guess.
pub fn solve_steps_with(
    level: &BoardLevel,
    top: u8,
    mut solution: impl FnMut() -> Option<Vec<u8>>,
    mut each: impl FnMut(&Position, &Deduction),
) -> End {
    let mut ladder = match Ladder::new(level, top) {
        Ok(l) => l,
        Err(c) => return End::NoSolution(c),
    };
    let mut known: Option<Vec<u8>> = None;
    loop {
        match ladder.next_step() {
            Step::Deduced(d) => each(ladder.pos(), &d),
            Step::Contradiction(c) => return End::NoSolution(c),
            Step::Solved => return End::Solved,
            Step::Stuck => {
                if known.is_none() {
                    known = solution();
                }
                let Some(d) = known.as_deref().and_then(|s| ladder.guess(s)) else {
                    return End::Stuck;
                };
                if let Err(c) = ladder.apply(&d) {
                    return End::NoSolution(c);
                }
                each(ladder.pos(), &d);
            }
        }
    }
}

/// A level's grade (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    /// The highest rung used (0 when nothing needed deducing).
    pub rung: u8,
    /// How often each rule fired, in the order of [`Rule::ALL`].
    pub counts: [u32; Rule::ALL.len()],
    /// Deductions in all.
    pub steps: u32,
    /// The weighted deductions per cell (see the module doc).
    pub score: f64,
    /// How the solve ended.
    pub end: End,
}

impl Grade {
    /// The difficulty of the rung needed, when the level was solved without a guess.
    pub fn difficulty(&self) -> Option<Difficulty> {
        match self.end {
            End::Solved => Difficulty::of_rung(self.rung),
            _ => None,
        }
    }
}

/// The grade of `level`: its ladder solve, guessing from `solution` when stuck (without
/// one, a stuck solve grades rung 7 and ends there).
pub fn grade(level: &BoardLevel, solution: Option<&[u8]>) -> Grade {
    grade_with(level, || solution.map(<[u8]>::to_vec))
}

/// [`grade`], asking `solution` for a verified solution only when the ladder gets stuck.
pub fn grade_with(level: &BoardLevel, solution: impl FnMut() -> Option<Vec<u8>>) -> Grade {
    let mut counts = [0u32; Rule::ALL.len()];
    let mut rung = 0u8;
    let mut weight = 0u64;
    let end = solve_steps_with(level, 6, solution, |_, d| {
        counts[d.rule as usize] += 1;
        rung = rung.max(d.rule.rung());
        weight += 1u64 << d.rule.rung().saturating_sub(2);
    });
    if end == End::Stuck {
        rung = 7;
    }
    Grade {
        rung,
        counts,
        steps: counts.iter().sum(),
        score: weight as f64 / level.board().len() as f64,
        end,
    }
}

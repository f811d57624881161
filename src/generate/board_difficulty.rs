//! Levels made to a difficulty: a unique level (by [`super::board_unique`]) graded by the
//! deduction ladder ([`crate::deduce`]), kept only when the highest rung its solve needs is
//! the one asked for; otherwise the next seed is tried. Random connections (Infinity) or a
//! spanning tree (Net) as the solution, as `--generate --unique` makes them; the density of
//! random connections cycles over a few values, since denser levels need stronger rungs.
//! An easy Net level is built instead of searched for ([`super::forced_tree`]): a spanning
//! tree whose every piece the sides known before it pin down, which random trees on a
//! hexagonal board almost never are.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board_families::{BoardFamily, generate_on_board};
use super::board_unique::{make_unique, make_unique_net};
use crate::board::{Board, BoardLevel, Rules};
use crate::deduce::{Difficulty, Grade, grade};

/// Densities of random connections tried in turn for Infinity levels.
const DENSITIES: [f64; 4] = [0.5, 0.7, 0.35, 0.85];

/// A level made to a difficulty, with what it took.
pub struct Made {
    /// The scrambled level.
    pub level: BoardLevel,
    /// Its one solution.
    pub solution: BoardLevel,
    /// Its grade (of the asked difficulty).
    pub grade: Grade,
    /// Unique levels made and graded before this one was kept (it included).
    pub attempts: u32,
}

/// A unique level on `board` under `rules` whose ladder solve needs exactly the rungs of
/// `want`, from `seed`; gives up after `max_attempts` unique levels, at `deadline` or on
/// `cancel`. The same arguments give the same level whenever it is found before the deadline.
pub fn make_to_difficulty(
    board: &Board,
    rules: Rules,
    want: Difficulty,
    seed: u64,
    (max_attempts, deadline): (u32, Option<Instant>),
    cancel: &AtomicBool,
) -> Result<Made, String> {
    let mut attempts = 0u32;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err("cancelled".into());
        }
        if attempts >= max_attempts || deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(format!(
                "no {} level within the limits after {attempts} unique levels; try another seed or size",
                want.name()
            ));
        }
        let s = seed.wrapping_add((attempts as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let family = match rules {
            Rules::Net => BoardFamily::Maze,
            Rules::Infinity => BoardFamily::Random {
                density: DENSITIES[attempts as usize % DENSITIES.len()],
            },
        };
        attempts += 1;
        if rules == Rules::Net && want == Difficulty::Easy {
            let mut rng = fastrand::Rng::with_seed(s ^ 0x6561_7379);
            let Some(made) = forced_net(board, &mut rng) else {
                continue;
            };
            let g = grade(&made.0, None);
            if g.difficulty() == Some(want) {
                let (level, solution) = made;
                return Ok(Made {
                    level,
                    solution,
                    grade: g,
                    attempts,
                });
            }
            continue;
        }
        let (_, solution) = generate_on_board(board, family, s);
        let solution = solution.with_rules(rules);
        let mut rng = fastrand::Rng::with_seed(s ^ 0x6469_6666);
        let rounds = 64 + 4 * board.len();
        let made = match rules {
            Rules::Net => make_unique_net(solution, &mut rng, rounds, cancel),
            Rules::Infinity => make_unique(solution, &mut rng, rounds, cancel),
        };
        let Ok((level, solution)) = made else {
            continue;
        };
        let g = grade(&level, None);
        if g.difficulty() == Some(want) {
            return Ok(Made {
                level,
                solution,
                grade: g,
                attempts,
            });
        }
    }
}

/// A scrambled Net level on a [`forced_tree`](super::forced_tree) and its solution.
fn forced_net(board: &Board, rng: &mut fastrand::Rng) -> Option<(BoardLevel, BoardLevel)> {
    let masks = super::forced_tree::forced_tree(board, rng)?;
    let solution = BoardLevel::new(board.clone(), masks)
        .ok()?
        .with_rules(Rules::Net);
    let mut level = solution.clone();
    super::board_families::scramble(&mut level, rng);
    Some((level, solution))
}

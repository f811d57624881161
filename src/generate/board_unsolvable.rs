//! Unsolvable variants of a level on any board (hexagonal, wrapped, with barriers or under
//! Net rules), one piece changed, as [`super::unsolvable`] makes them on the bounded square
//! board. Every connection joins two piece ends, so an odd total of ends leaves no solution:
//! the odd variant adds or removes one side of one piece. The even variant keeps the total's
//! parity (another shape with as many ends, else two more or fewer) and keeps a candidate the
//! solver refutes, preferring one that no window of [`LOCAL_RADIUS`] steps around the change
//! refutes already ([`board_locally_consistent`]), so that the contradiction is not where the
//! change is. Only the solver's verdict is used, never its statistics. Where the solution is
//! known, a candidate that stays solvable by turning only the pieces near the change is
//! passed over without the full solver: on path tilings nearly every change of one piece
//! can be answered nearby, and each full solve of a 256x256 hexagonal candidate takes up
//! to the 2 s limit.

use std::sync::atomic::AtomicBool;

use super::board_local_check::{board_locally_consistent, cells_within};
use super::unsolvable::{
    Breakage, CANDIDATE_TIMEOUT, LOCAL_RADIUS, MAX_EVEN_TRIES, fallback_or_error,
};
use crate::anyboard::Outcome;
use crate::board::mask::{canonical, rotate, shapes};
use crate::board::{Board, BoardLevel};

/// The one piece that was changed: its cell and its mask before and after (as the level
/// file writes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardAlteration {
    /// Row-major index of the changed cell.
    pub cell: usize,
    /// The piece's mask in the solvable level.
    pub from: u8,
    /// Its mask in the variant.
    pub to: u8,
}

impl BoardAlteration {
    /// "row R, column C: mask A (N ends) -> B (M ends)" for messages.
    pub fn describe(&self, board: &Board) -> String {
        let at = if board.is_uniform() {
            let (row, col) = board.row_col(self.cell);
            format!("row {row}, column {col}")
        } else {
            format!("tile {}", self.cell)
        };
        format!(
            "{at}: mask {} ({} ends) -> {} ({} ends)",
            self.from,
            self.from.count_ones(),
            self.to,
            self.to.count_ones()
        )
    }
}

/// Steps from a change within which [`solvable_near`] may turn pieces.
const NEAR_RADIUS: usize = 10;
/// Candidates [`solvable_near`] may judge before the even variant gives up on them.
const MAX_NEAR_CHECKS: usize = 1000;

/// The variant of `level` of the given kind, its random choices drawn from `seed` (the
/// generator's seed, so one seed gives one file). `solution`, a solved turning of `level`
/// when known, lets the even variant pass over candidates solvable near the change cheaply.
/// `cancel` stops the even variant's solver calls (an error then).
pub fn board_unsolvable_variant(
    level: &BoardLevel,
    solution: Option<&BoardLevel>,
    kind: Breakage,
    seed: u64,
    cancel: &AtomicBool,
) -> Result<(BoardLevel, BoardAlteration), String> {
    // A different stream from the generator's own, which drew the level from the same seed.
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x9E37_79B9_7F4A_7C15);
    match kind {
        Breakage::OddParity => odd_parity_variant(level, &mut rng),
        Breakage::EvenParity => {
            even_parity_variant(level, solution, &mut rng, MAX_EVEN_TRIES, cancel)
        }
    }
}

/// Whether `solution` with `cell` reshaped to `shape` has a solution that turns only pieces
/// within [`NEAR_RADIUS`] steps of the cell, every other piece locked as the solution has it
/// (then the candidate is solvable). Sound under either rules: the engine judges the whole
/// level, only most of it is locked.
fn solvable_near(solution: &BoardLevel, cell: usize, shape: u8, cancel: &AtomicBool) -> bool {
    let n = solution.board().len();
    let mut locked = vec![true; n];
    for c in cells_within(solution.board(), cell, NEAR_RADIUS) {
        locked[c] = false;
    }
    let mut near = solution.clone();
    near.masks_mut()[cell] = shape;
    let near = near.with_locked(locked).expect("one flag per cell");
    let timeout = Some(std::time::Duration::from_millis(200));
    matches!(
        crate::anyboard::solve_level(&near, timeout, cancel).0,
        Outcome::Solved(_)
    )
}

/// The cells a variant may change (a locked cell shows its solution's turn: it stays; a
/// cell outside a mixed grid's drawn board stays empty), in random order.
fn free_cells(level: &BoardLevel, rng: &mut fastrand::Rng) -> Result<Vec<u32>, String> {
    let b = level.board();
    let mut cells: Vec<u32> = (0..b.len() as u32)
        .filter(|&c| !level.is_locked(c as usize) && !b.is_outside(c as usize))
        .collect();
    if cells.is_empty() {
        return Err("every cell is locked: no piece can change".into());
    }
    rng.shuffle(&mut cells);
    Ok(cells)
}

/// `level` with `cell`'s piece replaced by `shape` at a random turn.
fn replace(level: &BoardLevel, cell: usize, shape: u8, rng: &mut fastrand::Rng) -> BoardLevel {
    let k = level.board().cell_sides(cell);
    let mut g = level.clone();
    g.masks_mut()[cell] = rotate(shape, k, rng.u8(..k));
    g
}

/// `level` with one side added to or taken from one random piece: the total number of
/// ends becomes odd (if it was even, as for every solvable level).
pub fn odd_parity_variant(
    level: &BoardLevel,
    rng: &mut fastrand::Rng,
) -> Result<(BoardLevel, BoardAlteration), String> {
    let cell = free_cells(level, rng)?[0] as usize;
    let k = level.board().cell_sides(cell);
    let from = level.masks()[cell];
    let shape = from ^ 1 << rng.u8(..k);
    let g = replace(level, cell, shape, rng);
    let to = g.masks()[cell];
    Ok((g, BoardAlteration { cell, from, to }))
}

/// The shapes (canonical masks) a piece of mask `from` may become with the parity of its
/// ends kept: the other shapes with as many ends, then those with two more or fewer, each
/// group in random order.
fn even_changes(from: u8, k: u8, rng: &mut fastrand::Rng) -> Vec<u8> {
    let ends = from.count_ones();
    let own = canonical(from, k);
    let all = shapes(k);
    let mut same: Vec<u8> = all
        .iter()
        .copied()
        .filter(|&s| s != own && s.count_ones() == ends)
        .collect();
    let mut other: Vec<u8> = all
        .into_iter()
        .filter(|&s| s.count_ones().abs_diff(ends) == 2)
        .collect();
    rng.shuffle(&mut same);
    rng.shuffle(&mut other);
    same.extend(other);
    same
}

/// `level` with one piece changed, the parity of its ends kept, such that the solver proves
/// the result unsolvable. Candidates a window around the change already refutes are set
/// aside; among the others, in random order, the first the solver refutes within
/// [`CANDIDATE_TIMEOUT`] is taken (one it cannot judge in time is passed over like a solvable
/// one). After `max_tries` solver calls the first locally refuted candidate is used; an
/// error says when there is none either.
pub fn even_parity_variant(
    level: &BoardLevel,
    solution: Option<&BoardLevel>,
    rng: &mut fastrand::Rng,
    max_tries: usize,
    cancel: &AtomicBool,
) -> Result<(BoardLevel, BoardAlteration), String> {
    let refuted = |g: &BoardLevel| -> Result<bool, String> {
        match crate::learn::solve_auto(g, Some(CANDIDATE_TIMEOUT), cancel).0 {
            Outcome::NoSolution => Ok(true),
            Outcome::Solved(_) | Outcome::TimedOut => Ok(false),
            Outcome::Cancelled => Err("cancelled".into()),
        }
    };
    let mut fallback = None;
    let (mut tries, mut near_checks) = (0, 0);
    'cells: for cell in free_cells(level, rng)? {
        let cell = cell as usize;
        let from = level.masks()[cell];
        for shape in even_changes(from, level.board().cell_sides(cell), rng) {
            let candidate = replace(level, cell, shape, rng);
            let alteration = BoardAlteration {
                cell,
                from,
                to: candidate.masks()[cell],
            };
            if !board_locally_consistent(&candidate, cell, LOCAL_RADIUS) {
                if fallback.is_none() {
                    fallback = Some((candidate, alteration));
                }
                continue;
            }
            if tries == max_tries || near_checks == MAX_NEAR_CHECKS {
                break 'cells;
            }
            if let Some(solution) = solution {
                near_checks += 1;
                if solvable_near(solution, cell, shape, cancel) {
                    continue;
                }
            }
            tries += 1;
            if refuted(&candidate)? {
                return Ok((candidate, alteration));
            }
        }
    }
    let tried = format!("{tries} tries ({near_checks} more answered near the change)");
    fallback_or_error(fallback, refuted, &tried)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fixtures::{brute_force, small_boards};
    use crate::board::{Rules, Tiling, Wrap};
    use crate::generate::board_families::{BoardFamily, generate_on_board};

    fn ends(level: &BoardLevel) -> u32 {
        level.masks().iter().map(|m| m.count_ones()).sum()
    }

    /// Cells whose shape (mask up to turns) differs between the two levels.
    fn reshaped(a: &BoardLevel, b: &BoardLevel) -> Vec<usize> {
        let k = a.board().sides();
        (0..a.board().len())
            .filter(|&c| canonical(a.masks()[c], k) != canonical(b.masks()[c], k))
            .collect()
    }

    #[test]
    fn odd_variants_change_one_shape_and_leave_no_solution() {
        let cancel = AtomicBool::new(false);
        for (seed, board) in small_boards(3..=4, 16).iter().enumerate() {
            let seed = seed as u64;
            let (level, _) = generate_on_board(board, BoardFamily::Loops, seed);
            let (bad, alt) =
                board_unsolvable_variant(&level, None, Breakage::OddParity, seed, &cancel).unwrap();
            assert_eq!(ends(&bad) % 2, 1);
            assert_eq!(reshaped(&level, &bad), vec![alt.cell]);
            assert_eq!(bad.masks()[alt.cell], alt.to);
            assert!(brute_force(&bad).is_empty(), "{bad:?}");
        }
    }

    #[test]
    fn even_variants_keep_parity_and_brute_force_finds_no_solution() {
        let cancel = AtomicBool::new(false);
        let mut made = 0;
        for (seed, board) in small_boards(3..=4, 16).iter().enumerate() {
            let seed = seed as u64;
            let family = BoardFamily::Paths { len: 3, bent: 0.75 };
            let (mut level, mut solution) = generate_on_board(board, family, seed);
            if seed % 3 == 2 {
                level = level.with_rules(Rules::Net);
                solution = solution.with_rules(Rules::Net);
            }
            // With the solution known, candidates answered near the change are passed over.
            let known = seed.is_multiple_of(2).then_some(&solution);
            let Ok((bad, alt)) =
                board_unsolvable_variant(&level, known, Breakage::EvenParity, seed, &cancel)
            else {
                continue;
            };
            made += 1;
            assert_eq!(ends(&bad) % 2, 0);
            assert_eq!(reshaped(&level, &bad), vec![alt.cell]);
            assert_eq!(bad.rules(), level.rules());
            assert!(brute_force(&bad).is_empty(), "{bad:?}");
        }
        assert!(
            made > 20,
            "only {made} variants made: the test tests little"
        );
    }

    #[test]
    fn a_candidate_answered_near_the_change_has_a_solution() {
        let cancel = AtomicBool::new(false);
        let (mut near, mut far) = (0, 0);
        for (seed, board) in small_boards(3..=5, 20).iter().enumerate() {
            let mut rng = fastrand::Rng::with_seed(seed as u64);
            let family = BoardFamily::Paths { len: 3, bent: 0.5 };
            let (level, solution) = generate_on_board(board, family, seed as u64);
            let cell = rng.usize(..board.len());
            for shape in even_changes(level.masks()[cell], board.sides(), &mut rng) {
                let mut candidate = level.clone();
                candidate.masks_mut()[cell] = shape;
                if solvable_near(&solution, cell, shape, &cancel) {
                    near += 1;
                    assert!(!brute_force(&candidate).is_empty(), "{candidate:?}");
                } else {
                    far += 1;
                }
            }
        }
        assert!(
            near > 20 && far > 20,
            "{near} near, {far} not: the test tests little"
        );
    }

    #[test]
    fn an_even_variant_of_a_larger_hexagonal_level_is_not_refuted_where_it_changed() {
        // The preferred candidates survive the window around them: on 24x24 random levels
        // the solver refutes one of those long before the tries run out.
        let cancel = AtomicBool::new(false);
        let board = Board::new(Tiling::Hexagonal, 24, 24, Wrap::NONE).unwrap();
        for seed in 1..=4 {
            let family = BoardFamily::Random { density: 0.5 };
            let (level, solution) = generate_on_board(&board, family, seed);
            let known = Some(&solution);
            let (bad, alt) =
                board_unsolvable_variant(&level, known, Breakage::EvenParity, seed, &cancel)
                    .unwrap();
            assert!(board_locally_consistent(&bad, alt.cell, LOCAL_RADIUS));
            assert!(matches!(
                crate::anyboard::solve_level(&bad, None, &cancel).0,
                Outcome::NoSolution
            ));
        }
    }
}

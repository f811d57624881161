//! Levels with exactly one solution, made the way SGT Net makes them: build a random solved
//! grid, then let the counting engine find where it is ambiguous and change the grid only
//! there, instead of drawing whole levels until one happens to be unique.
//!
//! Each round propagates the level given by the current solved grid, splits the undecided
//! cells into independent regions and counts each region (up to 2). For every region with
//! another solution, a second solution is found (forbid the intended orientation of one cell
//! at a time and ask the counter for a witness) and one side on which the two solutions
//! disagree is flipped in the intended grid — a connection added or removed between two
//! cells, which changes both pieces' shapes. The old alternative is then no longer a solution
//! of the new shapes and the rest of the grid is kept. Rounds repeat until every region has one
//! solution. Regions already proved unique are remembered exactly (cells, shapes and domains),
//! so later rounds only count what changed.

use std::collections::HashSet;
use std::fmt;

use super::random_level::{GenerateOptions, generate_with_solution, scramble};
use crate::count::counter::{Counter, Stopped};
use crate::model::direction::{E, S, bit, opposite};
use crate::model::{Game, Piece, PieceKind};
use crate::solve::board::Board;
use crate::solve::flow::orientation_of;
use crate::solve::regions::find_regions;
use crate::solve::state::State;

/// Rounds of "count, then change every ambiguous region once" before giving up.
pub const MAX_ROUNDS: usize = 500;

/// Time after which [`generate_unique`] gives up. Counting is exponential in the worst case:
/// large dominoes regions (one-end pieces pairing up) can take longer than anyone waits.
pub const TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(30);

/// Mixed into the seed for the changes and the final turning of the pieces.
const UNIQUE_STREAM: u64 = 0x9E37_79B9_7F4A_7C15;

/// A level with exactly one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniqueLevel {
    /// The only solution.
    pub solution: Game,
    /// The same pieces turned at random.
    pub level: Game,
    pub stats: UniqueStats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniqueStats {
    pub rounds: usize,
    /// Sides flipped in the solved grid.
    pub changes: usize,
    /// Region counts run (regions proved unique earlier are not counted again).
    pub regions_counted: usize,
}

/// Why no unique level was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniqueError {
    pub rounds: usize,
    /// Regions that still had several solutions.
    pub ambiguous: usize,
    /// Set when [`TIME_BUDGET`] ran out (counting a region took too long).
    pub out_of_time: bool,
}

impl fmt::Display for UniqueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.out_of_time {
            return write!(
                f,
                "could not make the level unique within {} s (round {}): counting its regions takes too long for this size and family",
                TIME_BUDGET.as_secs(),
                self.rounds
            );
        }
        write!(
            f,
            "could not make the level unique: {} region(s) still have several solutions after {} rounds of changes",
            self.ambiguous, self.rounds
        )
    }
}

impl std::error::Error for UniqueError {}

/// A level like [`super::generate`] would make from `opts` (same size, family and component
/// bound), changed where needed so that it has exactly one solution. The same options give
/// the same level.
pub fn generate_unique(opts: &GenerateOptions) -> Result<UniqueLevel, UniqueError> {
    let (solved, _) = generate_with_solution(opts);
    let (h, w) = (opts.height, opts.width);
    let mut masks: Vec<u8> = solved.cells().iter().map(|p| p.mask()).collect();
    // Its own stream, so the base grid is exactly the one plain generation builds.
    let mut rng = fastrand::Rng::with_seed(opts.seed ^ UNIQUE_STREAM);
    // Removing a connection can split a component; adding one between two non-empty pieces
    // never adds a component, so a component bound allows only additions.
    let additions_only = opts.max_components.is_some();
    let mut known_unique: HashSet<Vec<u64>> = HashSet::new();
    let mut stats = UniqueStats::default();
    let mut ambiguous = Vec::new();
    let deadline = std::time::Instant::now() + TIME_BUDGET;
    let late = || std::time::Instant::now() >= deadline;
    let out_of_time = |rounds| UniqueError {
        rounds,
        ambiguous: 0,
        out_of_time: true,
    };
    for round in 1..=MAX_ROUNDS {
        stats.rounds = round;
        let game = shapes_of(&masks, h, w);
        let board = Board::new(&game);
        let (mut state, consistent) = crate::solve::first_pass::first_pass(&board);
        assert!(consistent, "the intended solution satisfies its own shapes");
        let mut seen = vec![false; board.len()];
        let regions = find_regions(&board, &state, board.cells(), &mut seen);
        let mut counter = Counter::new(&board);
        ambiguous.clear();
        for r in 0..regions.len() {
            let cells = regions.get(r);
            let key = region_key(&board, &state, cells);
            if known_unique.contains(&key) {
                continue;
            }
            stats.regions_counted += 1;
            let Ok(n) = counter.count(&board, &mut state, cells, Some(2), false, &late) else {
                return Err(out_of_time(round));
            };
            match n.to_u128() {
                Some(1) => {
                    known_unique.insert(key);
                }
                Some(0) => unreachable!("the intended solution is a solution of its region"),
                _ => ambiguous.push(r),
            }
        }
        if ambiguous.is_empty() {
            let solution = shapes_with_masks(&masks, h, w);
            let level = scramble(&masks, h, w, &mut rng);
            return Ok(UniqueLevel {
                solution,
                level,
                stats,
            });
        }
        for &r in &ambiguous {
            let cells = regions.get(r);
            let Ok(other) = other_solution(&board, &mut state, &mut counter, cells, &masks, &late)
            else {
                return Err(out_of_time(round));
            };
            let other =
                other.expect("a region with two solutions has one that differs from the intended");
            let (side_cell, side) =
                pick_side(&board, cells, &masks, &other, additions_only, &mut rng);
            let a = game_index(&board, side_cell);
            let b = game_index(&board, board.neighbour(side_cell, side));
            masks[a] ^= bit(side);
            masks[b] ^= bit(opposite(side));
            stats.changes += 1;
        }
    }
    Err(UniqueError {
        rounds: MAX_ROUNDS,
        ambiguous: ambiguous.len(),
        out_of_time: false,
    })
}

/// The shapes of a solved grid (orientation 0 everywhere).
fn shapes_of(masks: &[u8], h: usize, w: usize) -> Game {
    shapes_with_masks(masks, h, w).shapes_only()
}

fn shapes_with_masks(masks: &[u8], h: usize, w: usize) -> Game {
    Game::from_cells(h, w, masks.iter().map(|&m| Piece::from_mask(m)).collect())
}

/// Row-major game index of a padded cell.
fn game_index(board: &Board, cell: usize) -> usize {
    let (r, c) = board.row_col(cell);
    r * board.width + c
}

/// Everything a region's count depends on: its cells with their shapes and domains (the sides
/// it shares with the rest are decided, and the domains already agree with them).
fn region_key(board: &Board, state: &State, cells: &[u32]) -> Vec<u64> {
    let mut key: Vec<u64> = cells
        .iter()
        .map(|&c| {
            u64::from(c) << 16
                | u64::from(board.kind[c as usize]) << 8
                | u64::from(state.dom[c as usize])
        })
        .collect();
    key.sort_unstable();
    key
}

/// A solution of `region` other than the one in `masks`, as the connection mask of each of its
/// cells (in the order of `region`). Each cell in turn is forbidden its intended orientation;
/// the first that still admits a solution gives it. `None` when the region's solution is unique.
fn other_solution(
    board: &Board,
    state: &mut State,
    counter: &mut Counter,
    region: &[u32],
    masks: &[u8],
    stop: &impl Fn() -> bool,
) -> Result<Option<Vec<u8>>, Stopped> {
    for &c in region {
        let c = c as usize;
        let kind = board.kind[c];
        let intended = orientation_of(kind, masks[game_index(board, c)])
            .expect("the intended grid has the board's shapes");
        let rest = state.dom[c] & !(1 << intended);
        if rest == 0 {
            continue;
        }
        let mark = state.mark();
        state.narrow(board, c, rest);
        let found = if state.propagate(board) {
            match counter.count(board, state, region, Some(1), true, stop) {
                Ok(n) => n.to_u128() == Some(1),
                Err(stopped) => {
                    state.undo_to(mark);
                    return Err(stopped);
                }
            }
        } else {
            false
        };
        let other = found.then(|| {
            region
                .iter()
                .map(|&x| {
                    let x = x as usize;
                    let k = PieceKind::from_code(board.kind[x]).expect("valid kind");
                    k.mask(state.dom[x].trailing_zeros() as u8)
                })
                .collect()
        });
        state.undo_to(mark);
        if other.is_some() {
            return Ok(other);
        }
    }
    Ok(None)
}

/// A side (cell, side index) on which the intended grid and `other` disagree, chosen at random
/// (only sides `other` connects when `additions_only`).
fn pick_side(
    board: &Board,
    region: &[u32],
    masks: &[u8],
    other: &[u8],
    additions_only: bool,
    rng: &mut fastrand::Rng,
) -> (usize, usize) {
    let mut candidates = Vec::new();
    for (&c, &theirs) in region.iter().zip(other) {
        let c = c as usize;
        let ours = masks[game_index(board, c)];
        // Both ends of a differing side differ, and both are in the region: looking east and
        // south from every cell sees each side once.
        for side in [E, S] {
            let b = bit(side);
            if ours & b != theirs & b && (!additions_only || theirs & b != 0) {
                candidates.push((c, side));
            }
        }
    }
    assert!(
        !candidates.is_empty(),
        "two different solutions differ on some side"
    );
    candidates[rng.usize(..candidates.len())]
}

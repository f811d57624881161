//! Unsolvable variants of a generated level, one piece changed, like the public `messedup`
//! levels. Every connection in a solution joins two piece ends, so a level whose pieces have
//! an odd total number of ends has no solution: [`odd_parity_variant`] changes one piece's
//! shape to one with one end more or fewer. [`even_parity_variant`] keeps the total even (a
//! straight becomes a corner, an empty cell a straight, ...) so that counting ends proves
//! nothing, and keeps a candidate that the solver refutes by exhausting its search, preferring
//! one whose contradiction is not visible near the changed cell.

use std::sync::atomic::AtomicBool;

use super::local_check::locally_consistent;
use crate::model::{Game, Piece, PieceKind};
use crate::solve::{Outcome, SolveOptions, solve};

/// Which kind of unsolvable variant to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breakage {
    /// The total number of piece ends becomes odd.
    OddParity,
    /// The total stays even; the solver proves there is no solution.
    EvenParity,
}

impl Breakage {
    /// The kind's command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            Breakage::OddParity => "odd-parity",
            Breakage::EvenParity => "even-parity",
        }
    }
}

/// The one piece that was changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alteration {
    /// Row-major index of the changed cell.
    pub cell: usize,
    /// The piece's shape in the solvable level.
    pub from: PieceKind,
    /// Its shape in the unsolvable variant.
    pub to: PieceKind,
}

impl Alteration {
    /// "row R, column C: FROM -> TO" for messages.
    pub fn describe(&self, width: usize) -> String {
        format!(
            "row {}, column {}: {} -> {}",
            self.cell / width,
            self.cell % width,
            self.from.name(),
            self.to.name()
        )
    }
}

/// Number of connection ends of a shape.
const fn ends(kind: PieceKind) -> u32 {
    kind.base_mask().count_ones()
}

/// Shapes whose number of ends differs from `kind`'s by one.
fn odd_changes(kind: PieceKind) -> &'static [PieceKind] {
    use PieceKind::*;
    match kind {
        Empty => &[Q],
        Q => &[Empty, I, L],
        I | L => &[Q, T],
        T => &[I, L, X],
        X => &[T],
    }
}

/// Shapes whose number of ends differs from `kind`'s by an even number, same count first.
fn even_changes(kind: PieceKind) -> &'static [PieceKind] {
    use PieceKind::*;
    match kind {
        Empty => &[I, L, X],
        Q => &[T],
        I => &[L, Empty, X],
        L => &[I, Empty, X],
        T => &[Q],
        X => &[Empty, I, L],
    }
}

fn replace(level: &Game, cell: usize, to: PieceKind, rng: &mut fastrand::Rng) -> Game {
    let mut g = level.clone();
    g.cells_mut()[cell] = Piece::new(to, rng.u8(..to.orientations()));
    g
}

/// `level` with one random piece changed so that the total number of ends is odd (if it was
/// even, as for every solvable level).
pub fn odd_parity_variant(level: &Game, rng: &mut fastrand::Rng) -> (Game, Alteration) {
    let cell = rng.usize(..level.len());
    let from = level.cells()[cell].kind();
    let options = odd_changes(from);
    let to = options[rng.usize(..options.len())];
    debug_assert_eq!((ends(from) + ends(to)) % 2, 1);
    (replace(level, cell, to, rng), Alteration { cell, from, to })
}

/// Radius of the window in which a change must not yet show a contradiction (see
/// [`even_parity_variant`]).
pub const LOCAL_RADIUS: usize = 8;

/// `level` with one piece changed, the total number of ends keeping its parity, such that the
/// solver proves the result unsolvable.
///
/// Most such changes break the level right where they are (a straight in a corner), which
/// any propagation sees at once. To get levels that need more reasoning, candidates that
/// `locally_consistent` already refutes within `LOCAL_RADIUS` cells are set aside; among
/// the others, in random order, the first one the solver refutes is taken. Only the solver's
/// verdict is used, never its statistics, so the choice does not depend on how it searches.
/// When `max_tries` solver calls find nothing, the first locally refuted candidate is used;
/// an error says when there is none either. A candidate the solver cannot judge within
/// [`CANDIDATE_TIMEOUT`] is passed over like a solvable one: on levels that hard (path
/// tilings with most middles bent, 512x512) a single solvable candidate could otherwise hold
/// the generator for many minutes. Only there can the result depend on the machine's speed.
pub fn even_parity_variant(
    level: &Game,
    rng: &mut fastrand::Rng,
    max_tries: usize,
) -> Result<(Game, Alteration), String> {
    let mut cells: Vec<u32> = (0..level.len() as u32).collect();
    rng.shuffle(&mut cells);
    let cancel = AtomicBool::new(false);
    let opts = SolveOptions {
        timeout: Some(CANDIDATE_TIMEOUT),
        ..SolveOptions::default()
    };
    let refuted = |g: &Game| -> Result<bool, String> {
        match solve(g, &opts, &cancel).0 {
            Outcome::Unsolvable => Ok(true),
            Outcome::Solved(_) | Outcome::TimedOut => Ok(false),
            other => Err(format!("the solver gave no verdict: {other:?}")),
        }
    };
    let mut fallback = None;
    let mut tries = 0;
    'cells: for &cell in &cells {
        let cell = cell as usize;
        let from = level.cells()[cell].kind();
        for &to in even_changes(from) {
            debug_assert_eq!((ends(from) + ends(to)) % 2, 0);
            let candidate = replace(level, cell, to, rng);
            let alteration = Alteration { cell, from, to };
            if !locally_consistent(&candidate, cell, LOCAL_RADIUS) {
                if fallback.is_none() {
                    fallback = Some((candidate, alteration));
                }
                continue;
            }
            if tries == max_tries {
                break 'cells;
            }
            tries += 1;
            if refuted(&candidate)? {
                return Ok((candidate, alteration));
            }
        }
    }
    fallback_or_error(fallback, refuted, &format!("{tries} tries"))
}

/// How an even variant's search ends when no candidate it tried was refuted: with the first
/// candidate set aside as refuted near the change, once the solver agrees, else an error
/// that names what was `tried`. Shared by the square and the any-board variants.
pub(super) fn fallback_or_error<L, A>(
    fallback: Option<(L, A)>,
    refuted: impl Fn(&L) -> Result<bool, String>,
    tried: &str,
) -> Result<(L, A), String> {
    match fallback {
        Some((candidate, alteration)) if refuted(&candidate)? => Ok((candidate, alteration)),
        Some(_) => Err("the solver found a solution despite a local contradiction".into()),
        None => Err(format!(
            "no even-parity change of one piece made the level unsolvable in {tried}"
        )),
    }
}

/// Time the solver may spend judging one even-parity candidate (see [`even_parity_variant`]).
pub const CANDIDATE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Candidates the solver may try before [`unsolvable_variant`] gives up on even parity.
pub const MAX_EVEN_TRIES: usize = 200;

/// The variant of `level` of the given kind, its random choices drawn from `seed` (the
/// generator's seed, so one seed gives one file).
pub fn unsolvable_variant(
    level: &Game,
    kind: Breakage,
    seed: u64,
) -> Result<(Game, Alteration), String> {
    // A different stream from the generator's own, which drew the level from the same seed.
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x9E37_79B9_7F4A_7C15);
    match kind {
        Breakage::OddParity => Ok(odd_parity_variant(level, &mut rng)),
        Breakage::EvenParity => even_parity_variant(level, &mut rng, MAX_EVEN_TRIES),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};

    fn total_ends(g: &Game) -> u32 {
        g.cells().iter().map(|p| p.mask().count_ones()).sum()
    }

    #[test]
    fn odd_variants_have_an_odd_number_of_ends_and_no_solution() {
        let cancel = AtomicBool::new(false);
        for seed in 0..20 {
            let level = generate(&GenerateOptions::new(6, 7, seed));
            let mut rng = fastrand::Rng::with_seed(seed);
            let (bad, alt) = odd_parity_variant(&level, &mut rng);
            assert_eq!(total_ends(&bad) % 2, 1);
            assert_eq!(bad.cells()[alt.cell].kind(), alt.to);
            let changed = (0..level.len())
                .filter(|&i| level.cells()[i] != bad.cells()[i])
                .count();
            assert_eq!(changed, 1);
            let verdict = solve(&bad, &SolveOptions::default(), &cancel).0;
            assert_eq!(verdict, Outcome::Unsolvable, "seed {seed}");
        }
    }

    #[test]
    fn even_variants_keep_parity_and_are_refuted() {
        for seed in 0..20 {
            let level = generate(&GenerateOptions::new(8, 8, seed));
            let mut rng = fastrand::Rng::with_seed(seed);
            let (bad, alt) = even_parity_variant(&level, &mut rng, 200).unwrap();
            assert_eq!(total_ends(&bad) % 2, 0);
            assert_ne!(alt.from, alt.to);
            let changed = (0..level.len())
                .filter(|&i| level.cells()[i].kind() != bad.cells()[i].kind())
                .count();
            assert_eq!(changed, 1);
        }
    }
}

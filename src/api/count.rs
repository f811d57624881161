//! [`count`]: the exact number of solutions of a level, as a [`SolutionCount`] of any size.

use std::fmt;
use std::sync::atomic::AtomicBool;

use num_bigint::BigUint;

use crate::count::{CountOptions, CountOutcome, count_solutions, unique_check};
use crate::model::Game;

/// A number of solutions, exact and of any size. Two solutions are different when some cell
/// has a different set of connections (so the two turns of a straight piece that look the
/// same, or the four of a cross, are one).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SolutionCount(BigUint);

impl SolutionCount {
    /// True when the level has no solution.
    pub fn is_zero(&self) -> bool {
        self.0 == BigUint::ZERO
    }

    /// The count when it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        u128::try_from(&self.0).ok()
    }

    /// Number of decimal digits.
    pub fn digits(&self) -> usize {
        self.0.to_string().len()
    }
}

impl fmt::Display for SolutionCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq<u64> for SolutionCount {
    fn eq(&self, other: &u64) -> bool {
        self.0 == BigUint::from(*other)
    }
}

/// Counts the solutions of `game` exactly (only its shapes matter). Independent regions are
/// counted apart and multiplied, so huge counts come quickly on most levels; a large region
/// with many solutions can take long.
///
/// ```
/// let level: phineloops::Game = "1\n2\n1 0\n1 0\n".parse()?; // two one-end pieces
/// assert_eq!(phineloops::count(&level), 1); // they can only face each other
/// let cross: phineloops::Game = "1\n1\n4 0\n".parse()?;
/// assert!(phineloops::count(&cross).is_zero()); // a cross always points off the border
/// # Ok::<(), phineloops::LevelError>(())
/// ```
pub fn count(game: &Game) -> SolutionCount {
    let never = AtomicBool::new(false);
    match count_solutions(game, &CountOptions::default(), &never).0 {
        CountOutcome::Exact(n) => SolutionCount(n),
        // Without a limit, a timeout or a raised flag the count always ends exact.
        other => unreachable!("unbounded count ended with {other:?}"),
    }
}

/// True when `game` has exactly one solution. It stops at a second solution, so it can be far
/// quicker than [`count`] on a level with many.
///
/// ```
/// let pair: phineloops::Game = "1\n2\n1 0\n1 0\n".parse()?; // two one-end pieces
/// assert!(phineloops::is_unique(&pair));
/// let square: phineloops::Game = "2\n2\n1 0\n1 0\n1 0\n1 0\n".parse()?; // paired across or down
/// assert!(!phineloops::is_unique(&square));
/// # Ok::<(), phineloops::LevelError>(())
/// ```
pub fn is_unique(game: &Game) -> bool {
    let never = AtomicBool::new(false);
    let (outcome, _) = unique_check(game, &CountOptions::default(), &never, &|_| {});
    outcome == CountOutcome::Exact(1u32.into())
}

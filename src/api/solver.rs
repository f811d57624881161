//! [`Solver`]: the builder behind `phineloops --solve`, for library users, and its
//! [`Outcome`]. It owns its cancel flag unless given one, so a call needs no `AtomicBool`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::model::Game;
use crate::solve::{self, Method, SolveOptions, SolveStats};

/// Solves levels: propagation, independent regions, then a search per region on a pool of
/// worker threads. Every solution is checked by the verifier before it is returned.
///
/// ```
/// use phineloops::{Generator, Outcome, Solver};
///
/// let level = Generator::new(16, 16).seed(3).generate()?;
/// match Solver::new().threads(2).solve(&level) {
///     Outcome::Solved(solution) => {
///         assert!(solution.is_solved());
///         assert!(solution.same_shapes(&level));
///     }
///     other => panic!("a generated level has a solution: {other:?}"),
/// }
/// # Ok::<(), phineloops::GenerateError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    opts: SolveOptions,
    cancel: Option<Arc<AtomicBool>>,
}

/// What [`Solver::solve`] concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution, verified: every connection meets one and none points off the border.
    Solved(Game),
    /// The search was exhausted: the level has no solution.
    NoSolution,
    /// The timeout passed first.
    TimedOut,
    /// The cancel flag was raised first.
    Cancelled,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// The default solver: method `auto`, one thread (deterministic), no timeout.
    pub fn new() -> Solver {
        Solver {
            opts: SolveOptions::default(),
            cancel: None,
        }
    }

    /// The strategy: [`Method::Auto`] (default), `Csp`, `Line` or `Snail`.
    pub fn method(mut self, method: Method) -> Solver {
        self.opts.method = method;
        self
    }

    /// Worker threads for independent regions and races (at least 1).
    pub fn threads(mut self, n: usize) -> Solver {
        self.opts.threads = n.max(1);
        self
    }

    /// Gives up after this long with [`Outcome::TimedOut`].
    pub fn timeout(mut self, limit: Duration) -> Solver {
        self.opts.timeout = Some(limit);
        self
    }

    /// Raising this flag from another thread stops a running solve with
    /// [`Outcome::Cancelled`].
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Solver {
        self.cancel = Some(flag);
        self
    }

    /// Solves `game`: only its shapes matter, its orientations are ignored.
    ///
    /// # Panics
    /// If the engine's answer fails verification, which would be a bug in the engine: a wrong
    /// solution is never returned.
    pub fn solve(&self, game: &Game) -> Outcome {
        self.solve_with_stats(game).0
    }

    /// [`Solver::solve`] with the figures `--stats` prints (phase times, regions, search
    /// counters).
    pub fn solve_with_stats(&self, game: &Game) -> (Outcome, SolveStats) {
        let own = AtomicBool::new(false);
        let flag = self.cancel.as_deref().unwrap_or(&own);
        let (outcome, stats) = solve::solve(game, &self.opts, flag);
        let outcome = match outcome {
            solve::Outcome::Solved(g) => Outcome::Solved(g),
            solve::Outcome::Unsolvable => Outcome::NoSolution,
            solve::Outcome::TimedOut => Outcome::TimedOut,
            solve::Outcome::Cancelled => Outcome::Cancelled,
            solve::Outcome::Rejected(why) => panic!("{why}"),
        };
        (outcome, stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::unsolvable::odd_parity_variant;
    use crate::generate::{GenerateOptions, generate};
    use std::sync::atomic::Ordering;

    #[test]
    fn outcomes() {
        let level = generate(&GenerateOptions::new(12, 12, 5));
        let solved = Solver::new().method(Method::Csp).solve(&level);
        assert!(matches!(solved, Outcome::Solved(ref g) if g.is_solved()));
        let broken = odd_parity_variant(&level, &mut fastrand::Rng::with_seed(1)).0;
        assert_eq!(Solver::new().solve(&broken), Outcome::NoSolution);
        let flag = Arc::new(AtomicBool::new(true));
        let big = generate(&GenerateOptions::new(200, 200, 5));
        assert_eq!(
            Solver::new().cancel_flag(flag.clone()).solve(&big),
            Outcome::Cancelled
        );
        flag.store(false, Ordering::Relaxed);
        assert!(matches!(
            Solver::new().cancel_flag(flag).solve(&big),
            Outcome::Solved(_)
        ));
    }
}

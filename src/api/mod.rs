//! The library facade: the few types outside code needs, re-exported at the crate root.
//!
//! - [`Generator`]: a builder for random solvable levels (families, mazes, component
//!   bounds, unique levels); returns a `Result`, never panics on bad options;
//! - [`Solver`]: a builder for the solving engine (method, threads, timeout, cancel flag)
//!   whose [`Solver::solve`] gives an [`Outcome`];
//! - [`solutions`]: every solution of a level, lazily;
//! - [`count`]: the exact number of solutions as a [`SolutionCount`].

mod count;
mod generator;
mod solutions;
mod solver;

pub use count::{SolutionCount, count, is_unique};
pub use generator::{GenerateError, Generator};
pub use solutions::{Solutions, solutions};
pub use solver::{Outcome, Solver};

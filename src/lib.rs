//! phineloops: an engine for the Infinity Loop puzzle — a grid of pieces to rotate until every
//! connection meets its neighbour's and none points off the border.
//!
//! The few types most programs need are at the crate root:
//!
//! ```
//! use phineloops::{Family, Game, Generator, Outcome, Solver};
//!
//! let game: Game = Generator::new(20, 12).family(Family::Dominoes).seed(7).generate()?;
//! let text = game.to_string(); // the level file format
//! let again: Game = text.parse()?; // the strict reader
//! match Solver::new().threads(2).solve(&again) {
//!     Outcome::Solved(sol) => assert!(sol.is_solved()),
//!     Outcome::NoSolution | Outcome::TimedOut | Outcome::Cancelled => unreachable!(),
//! }
//! let firsts: Vec<Game> = phineloops::solutions(&again).take(3).collect();
//! assert!(!firsts.is_empty());
//! let n = phineloops::count(&again);
//! assert!(n.to_string().len() >= 1);
//! let unique = Generator::new(16, 16).seed(3).unique(true).generate()?;
//! assert_eq!(phineloops::solutions(&unique).take(2).count(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The modules below hold the engine itself:
//!
//! - [`model`]: pieces as connection bitmasks and the [`model::Game`] grid;
//! - [`level`]: the level file format (strict reader, atomic writer);
//! - [`check`]: the verifier;
//! - [`generate`]: random solvable levels with a bounded number of components;
//! - [`solve`]: propagation, region split and trail-based search;
//! - [`render`]: box-drawing text, SVG and (feature `png`) PNG pictures of a level;
//! - `play`: the terminal game (feature `play`);
//! - `cnf`: the level as DIMACS CNF, and `-m cp` through the batsat SAT library (feature `cp`);
//! - [`explain`]: why a level has no solution (parity, deficient set, propagation chain);
//! - [`count`](mod@count): exact solution counting with independent components multiplied;
//! - [`bench`](mod@bench): the solver comparison table over a folder of levels;
//! - `cli`: the command-line front end used by `main.rs` (feature `cli`).
//!
//! Cargo features: `cli` (default; pulls in `play` and `png`) builds the binary, `cp`
//! (default) adds the SAT-backed `-m cp` strategy, `parallel` (default) runs the parse, first
//! propagation pass, verifier and output formatting on rayon; with
//! `default-features = false` the crate is the engine alone.

#![warn(missing_docs)]

pub mod api;
pub mod bench;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod cnf;
pub mod count;
pub mod explain;
pub mod generate;
#[cfg(all(feature = "cli", target_os = "linux"))]
pub mod huge_pages;
pub mod level;
pub mod model;
mod par;
#[cfg(feature = "play")]
pub mod play;
pub mod render;
pub mod solve;

pub use api::{
    GenerateError, Generator, Outcome, SolutionCount, Solutions, Solver, count, solutions,
};
pub use generate::{Family, MazeAlgorithm};
pub use model::Game;
pub use solve::Method;

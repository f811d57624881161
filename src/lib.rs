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
//! assert!(firsts.iter().all(|s| s.is_solved()));
//! let n = phineloops::count(&again);
//! // The count and the enumeration agree: three solutions, or all there are.
//! assert_eq!(firsts.len() as u128, n.to_u128().map_or(3, |n| n.min(3)));
//! let unique = Generator::new(16, 16).seed(3).unique(true).generate()?;
//! assert_eq!(phineloops::solutions(&unique).take(2).count(), 1);
//! assert_eq!(phineloops::count(&unique), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Below the facade, [`engine`] opens the building blocks for advanced use (the solver with
//! its options and statistics, generator options, the verifier, level I/O, counting,
//! explanations, CNF, rendering). The engine's working state (boards, domains, search) stays
//! private to the crate.
//!
//! Cargo features: `cli` (default; pulls in `play` and `png`) builds the binary, `cp`
//! (default) adds the SAT-backed `-m cp` strategy, `parallel` (default) runs the parse, first
//! propagation pass, verifier and output formatting on rayon; with
//! `default-features = false` the crate is the engine alone.

#![warn(missing_docs)]

pub(crate) mod algo;
pub mod anyboard;
mod api;
pub(crate) mod bench;
pub mod board;
pub(crate) mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub(crate) mod cnf;
pub(crate) mod count;
pub mod deduce;
pub mod engine;
pub(crate) mod explain;
pub(crate) mod generate;
#[cfg(all(feature = "fast-io", target_os = "linux"))]
pub mod huge_pages;
pub mod learn;
pub(crate) mod level;
pub(crate) mod model;
mod par;
#[cfg(feature = "play")]
pub(crate) mod play;
pub(crate) mod render;
#[cfg(feature = "serve")]
pub mod serve;
pub(crate) mod solve;

pub use api::{
    GenerateError, Generator, Outcome, SolutionCount, Solutions, Solver, count, is_unique,
    solutions,
};
pub use generate::{Family, MazeAlgorithm};
pub use level::LevelError;
// Level files of any board: our board format, hexapipes' JSON, reading by content.
pub use level::any::{AnyLevel, LevelFormat, any_level_bytes, detect, load_any, parse_any};
pub use level::board_format::{
    board_level_bytes, parse_board_level, read_board_level, read_board_level_file,
};
#[cfg(feature = "json")]
pub use level::hexapipes::{hexapipes_bytes, parse_hexapipes};
pub use level::sgt::{parse_sgt, sgt_bytes};
pub use model::{Game, Piece, PieceKind};
pub use solve::Method;

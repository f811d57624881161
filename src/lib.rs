//! phineloops: an engine for the Infinity Loop puzzle — a grid of pieces to rotate until every
//! connection meets its neighbour's and none points off the border.
//!
//! - [`model`]: pieces as connection bitmasks and the [`model::Game`] grid;
//! - [`level`]: the level file format (strict reader, atomic writer);
//! - [`check`]: the verifier;
//! - [`generate`]: random solvable levels with a bounded number of components;
//! - [`solve`]: propagation, region split and trail-based search;
//! - [`render`]: box-drawing text, SVG and PNG pictures of a level;
//! - [`play`]: the terminal game;
//! - [`cnf`]: the level as DIMACS CNF, and `-m cp` through the batsat SAT library;
//! - [`explain`]: why a level has no solution (parity, deficient set, propagation chain);
//! - [`count`]: exact solution counting with independent components multiplied;
//! - [`bench`]: the solver comparison table over a folder of levels;
//! - [`cli`]: the command-line front end used by `main.rs`.

pub mod bench;
pub mod check;
pub mod cli;
pub mod cnf;
pub mod count;
pub mod explain;
pub mod generate;
pub mod level;
pub mod model;
pub mod play;
pub mod render;
pub mod solve;

//! The terminal game (`--play`): [`state`] is the pure game state machine, [`watch`] runs the
//! observed search on a thread for the watch mode, [`view`] draws a frame with ratatui, and
//! [`app`] owns the terminal and the event loop; [`explain`] gives `?`'s explained step, `m`'s
//! mistakes and the grade from the deduction ladder.

pub mod app;
pub mod explain;
pub mod state;
pub mod view;
pub mod watch;

use std::path::PathBuf;

use crate::generate::Family;

pub use app::{restore_terminal, run};

/// What `--play` was given.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayOptions {
    /// A level file, or `None` to generate one.
    pub input: Option<PathBuf>,
    /// Size of generated levels.
    pub width: usize,
    /// Height of generated levels.
    pub height: usize,
    /// Seed of the first generated level (random when `None`); `n` takes the next ones.
    pub seed: Option<u64>,
    /// `--nbcc`: at most this many connected components in generated levels.
    pub nbcc: Option<usize>,
    /// Family of generated levels.
    pub family: Family,
    /// Where `s` saves (default: beside the input as `NAME.save.txt`, or a name from the seed).
    pub save: Option<PathBuf>,
}

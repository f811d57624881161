//! [`Start`]: the one start-up path of everything that reasons about a level — solve, count,
//! unique-level repair, the solution iterator, the domain view and the game's hints: the
//! padded board, the first propagation pass, and the independent regions of what it leaves
//! undecided.

use crate::model::Game;

use super::board::Board;
use super::first_pass::first_pass_on_until;
use super::regions::{Regions, find_grid_regions_until};
use super::state::State;

/// A level's board and its state after the first propagation pass.
pub struct Start {
    /// The shapes on the padded grid.
    pub board: Board,
    /// Domains after the first pass (untrailed: the search's starting point).
    pub state: State,
    /// False when the first pass emptied a domain: the level has no solution.
    pub consistent: bool,
}

impl Start {
    /// Builds the board of `game` (orientations ignored) and runs the first pass on
    /// `threads` threads; `None` when `halted` said stop first.
    pub fn until(game: &Game, threads: usize, halted: &(dyn Fn() -> bool + Sync)) -> Option<Start> {
        let board = Board::new(game);
        let (state, consistent) = first_pass_on_until(&board, threads, halted);
        Some(Start {
            consistent: consistent?,
            board,
            state,
        })
    }

    /// [`Start::until`] on one thread, never halted.
    pub fn new(game: &Game) -> Start {
        Start::until(game, 1, &|| false).expect("never halted")
    }

    /// Cells decided by the first pass.
    pub fn fixed(&self) -> usize {
        use crate::par::*;
        // Row slices rather than cell by cell, and one bit test the compiler vectorises
        // (`count_ones` is a byte popcount it does not: 7 ms at 4096x4096, a tenth of a loops
        // level's solve).
        let (w, dom) = (self.board.width, &self.state.dom);
        (0..self.board.height)
            .into_par_iter()
            .map(|r| {
                let first = self.board.cell(r, 0);
                let row = &dom[first..first + w];
                row.iter()
                    .map(|&d| usize::from(d != 0 && d & d.wrapping_sub(1) == 0))
                    .sum::<usize>()
            })
            .sum()
    }

    /// The domains in the level's own numbering (row-major, no padding ring).
    #[cfg(feature = "cp")]
    pub fn grid_domains(&self) -> Vec<u8> {
        let (h, w) = (self.board.height, self.board.width);
        let mut out = Vec::with_capacity(h * w);
        for r in 0..h {
            let first = self.board.cell(r, 0);
            out.extend_from_slice(&self.state.dom[first..first + w]);
        }
        out
    }

    /// The independent regions of the undecided cells; `None` when `halted` said stop first.
    pub fn regions_until(&self, halted: &(impl Fn() -> bool + Sync)) -> Option<Regions> {
        find_grid_regions_until(&self.board, &self.state, halted)
    }
}

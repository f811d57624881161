//! The engine's inner loops one at a time, for benchmarks: the first propagation pass, as the
//! worklist of the search state and as the queue-free sweep the solver starts with. A
//! [`Prepared`] level holds the padded board both run on, built once outside the timed loop.

use crate::model::Game;
use crate::solve::{Board, State, first_pass_striped};

/// A level laid out for the propagation kernels (its padded board).
pub struct Prepared {
    board: Board,
}

impl Prepared {
    /// Lays out `game` once; the kernels below can then be timed alone.
    pub fn new(game: &Game) -> Prepared {
        Prepared {
            board: Board::new(game),
        }
    }

    /// Full domains narrowed to a fixed point by the worklist the search uses; false when a
    /// cell runs out of orientations (no solution).
    pub fn propagate_worklist(&self) -> bool {
        let mut state = State::new(&self.board);
        state.propagate_all(&self.board)
    }

    /// The solver's first pass: the queue-free sweep, in stripes of `stripe_rows` rows
    /// (`usize::MAX`: one stripe, one thread); false when a cell runs out of orientations.
    pub fn first_pass_sweep(&self, stripe_rows: usize) -> bool {
        first_pass_striped(&self.board, stripe_rows).1
    }
}

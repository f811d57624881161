//! The solver: propagation to a fixed point, split into independent regions, then a
//! trail-based depth-first search per region with a chosen branching [`Order`]. Every answer
//! is checked by the verifier before it is returned.

pub mod board;
pub mod flow;
pub mod regions;
pub mod search;
pub mod state;
pub mod strategy;
pub mod tables;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::check::first_defect;
use crate::model::{Game, Piece};
use board::Board;
use regions::find_regions;
pub use search::{SearchCounters, SearchEnd};
use state::State;
pub use strategy::Order;

/// A solving method as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Line,
    Snail,
    Csp,
}

impl Method {
    pub const NAMES: [&'static str; 3] = ["csp", "line", "snail"];

    pub fn from_name(name: &str) -> Option<Method> {
        match name {
            "csp" => Some(Method::Csp),
            "line" => Some(Method::Line),
            "snail" => Some(Method::Snail),
            _ => None,
        }
    }

    pub fn order(self) -> Order {
        match self {
            Method::Line => Order::Line,
            Method::Snail => Order::Snail,
            Method::Csp => Order::Mrv,
        }
    }
}

#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub method: Method,
    pub threads: usize,
    /// Keep the degree-constrained flow witness during search (see [`flow`]).
    pub flow: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            method: Method::Csp,
            threads: 1,
            flow: true,
        }
    }
}

/// What the solver concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A verified solution.
    Solved(Game),
    /// The search space was exhausted: there is no solution.
    Unsolvable,
    /// Stopped by the cancellation flag before an answer.
    Cancelled,
}

/// Figures about one run, for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    pub cells: usize,
    pub fixed_after_propagation: usize,
    pub region_sizes: Vec<usize>,
    pub counters: SearchCounters,
    pub propagate_time: Duration,
    pub regions_time: Duration,
    pub search_time: Duration,
    pub verify_time: Duration,
}

/// Solves `game` (its orientations are ignored: only the shapes matter).
pub fn solve(game: &Game, opts: &SolveOptions, cancel: &AtomicBool) -> (Outcome, SolveStats) {
    let mut stats = SolveStats {
        cells: game.len(),
        ..SolveStats::default()
    };
    let t = Instant::now();
    let board = Board::new(game);
    let mut state = State::new(&board);
    state.enqueue_all(&board);
    let consistent = state.propagate(&board);
    state.clear_trail();
    stats.propagate_time = t.elapsed();
    if !consistent {
        return (Outcome::Unsolvable, stats);
    }
    stats.fixed_after_propagation = board.cells().filter(|&c| state.is_fixed(c)).count();

    let t = Instant::now();
    let mut seen = vec![false; board.len()];
    let mut regions = find_regions(&board, &state, board.cells(), &mut seen);
    drop(seen);
    let order = opts.method.order();
    let sizes: Vec<usize> = (0..regions.len()).map(|i| regions.get(i).len()).collect();
    for i in 0..regions.len() {
        let (a, b) = (regions.starts[i], regions.starts[i + 1]);
        order.arrange(&board, &mut regions.cells[a..b]);
    }
    stats.region_sizes = sizes;
    stats.regions_time = t.elapsed();

    let t = Instant::now();
    let mut witness = opts.flow.then(|| flow::DegreeFlow::new(&board));
    for i in regions.largest_first() {
        let region = regions.get(i);
        match search::search(
            &board,
            &mut state,
            witness.as_mut(),
            region,
            order,
            cancel,
            &mut stats.counters,
        ) {
            SearchEnd::Solved => state.clear_trail(),
            SearchEnd::Exhausted => {
                stats.search_time = t.elapsed();
                return (Outcome::Unsolvable, stats);
            }
            SearchEnd::Cancelled => {
                stats.search_time = t.elapsed();
                return (Outcome::Cancelled, stats);
            }
        }
    }
    stats.search_time = t.elapsed();

    let t = Instant::now();
    let solution = extract(game, &board, &state);
    let defect = first_defect(&solution);
    stats.verify_time = t.elapsed();
    if let Some(d) = defect {
        // Propagation and search only keep consistent orientations, so this is a solver bug;
        // refusing the answer is better than writing a wrong level.
        panic!("internal error: the solver produced an unsolved grid ({d})");
    }
    (Outcome::Solved(solution), stats)
}

/// The game with every cell turned to its (single) remaining orientation.
fn extract(game: &Game, board: &Board, state: &State) -> Game {
    let mut out = game.clone();
    for r in 0..game.height() {
        for c in 0..game.width() {
            let o = state.dom[board.cell(r, c)].trailing_zeros() as u8;
            out.set(r, c, Piece::new(game.get(r, c).kind(), o));
        }
    }
    out
}

//! The solver: propagation to a fixed point, split into independent regions, then a
//! trail-based depth-first search per region (with a degree-constrained flow witness) run by a
//! master–worker pool. Methods differ only in the branching [`Order`]; `auto` races them on
//! large regions. Every answer is checked by the verifier before it is returned.

pub mod board;
pub mod flow;
pub mod flow_filter;
pub mod observed;
pub mod observer;
pub mod pool;
pub mod regions;
pub mod search;
pub mod state;
pub mod strategy;
pub mod subproblem;
pub mod tables;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::check::first_defect;
use crate::model::{Game, Piece};
use board::Board;
pub use observed::solve_observed;
use pool::{Job, Limits, PoolEnd, run_pool};
use regions::{Regions, find_regions};
pub use search::{SearchCounters, SearchEnd};
use state::State;
pub use strategy::Order;

/// A solving method as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Races the strategies on large regions; MRV on the rest.
    Auto,
    Line,
    Snail,
    Csp,
    /// A custom portfolio for library users and tests: every region of at least
    /// `RACE_MIN_CELLS` cells is raced by these (order, witness on/off) searches, smaller ones
    /// use the first. `SolveOptions::flow` does not apply.
    Race(&'static [(Order, bool)]),
}

impl Method {
    pub const NAMES: [&'static str; 4] = ["auto", "csp", "line", "snail"];

    pub fn from_name(name: &str) -> Option<Method> {
        match name {
            "auto" => Some(Method::Auto),
            "csp" => Some(Method::Csp),
            "line" => Some(Method::Line),
            "snail" => Some(Method::Snail),
            _ => None,
        }
    }

    /// The searches (order, witness on/off) this method runs on a region of `size` cells.
    fn racers(self, size: usize, flow: bool) -> Vec<(Order, bool)> {
        let raced = size >= RACE_MIN_CELLS;
        match self {
            Method::Auto if raced => vec![
                (Order::Mrv, flow),
                (Order::Line, flow),
                (Order::Snail, flow),
            ],
            Method::Auto | Method::Csp => vec![(Order::Mrv, flow)],
            Method::Line => vec![(Order::Line, flow)],
            Method::Snail => vec![(Order::Snail, flow)],
            Method::Race(racers) if raced => racers.to_vec(),
            Method::Race(racers) => racers[..1].to_vec(),
        }
    }
}

/// Regions at least this large are raced by every strategy under `auto`.
const RACE_MIN_CELLS: usize = 256;
/// Small regions are batched into jobs of about this many cells.
const BATCH_CELLS: usize = 4096;

#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub method: Method,
    pub threads: usize,
    /// Keep the degree-constrained flow witness during search (see [`flow`]).
    pub flow: bool,
    /// Give up after this long (the whole solve, from the call).
    pub timeout: Option<Duration>,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            method: Method::Auto,
            threads: 1,
            flow: true,
            timeout: None,
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
    /// Stopped by the caller's flag before an answer.
    Cancelled,
    /// The timeout passed before an answer.
    TimedOut,
    /// The answer failed verification (a solver bug); nothing should be written.
    Rejected(String),
}

/// Figures about one run, for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    pub cells: usize,
    pub fixed_after_propagation: usize,
    pub region_sizes: Vec<usize>,
    pub jobs: usize,
    pub threads: usize,
    pub counters: SearchCounters,
    pub propagate_time: Duration,
    pub regions_time: Duration,
    pub search_time: Duration,
    pub verify_time: Duration,
}

/// Solves `game` (its orientations are ignored: only the shapes matter). Raising `cancel`
/// from another thread stops the solve promptly with [`Outcome::Cancelled`].
pub fn solve(game: &Game, opts: &SolveOptions, cancel: &AtomicBool) -> (Outcome, SolveStats) {
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let mut stats = SolveStats {
        cells: game.len(),
        threads: opts.threads.max(1),
        ..SolveStats::default()
    };
    let t = Instant::now();
    let board = Board::new(game);
    let mut state = State::new(&board);
    let consistent = state.propagate_all(&board);
    stats.propagate_time = t.elapsed();
    if !consistent {
        return (Outcome::Unsolvable, stats);
    }
    stats.fixed_after_propagation = board.cells().filter(|&c| state.is_fixed(c)).count();

    let t = Instant::now();
    let mut seen = vec![false; board.len()];
    let regions = find_regions(&board, &state, board.cells(), &mut seen);
    drop(seen);
    let jobs = plan_jobs(&regions, opts);
    stats.region_sizes = (0..regions.len()).map(|i| regions.get(i).len()).collect();
    stats.jobs = jobs.len();
    stats.regions_time = t.elapsed();

    let t = Instant::now();
    let end = run_pool(
        &board,
        &mut state.dom,
        &regions,
        jobs,
        opts.threads,
        Limits { cancel, deadline },
        &mut stats.counters,
    );
    stats.search_time = t.elapsed();
    match end {
        PoolEnd::Solved => {}
        PoolEnd::Unsolvable => return (Outcome::Unsolvable, stats),
        PoolEnd::Cancelled => return (Outcome::Cancelled, stats),
        PoolEnd::TimedOut => return (Outcome::TimedOut, stats),
    }

    let t = Instant::now();
    let solution = extract(game, &board, &state);
    let defect = first_defect(&solution);
    stats.verify_time = t.elapsed();
    match defect {
        None => (Outcome::Solved(solution), stats),
        Some(d) => (
            Outcome::Rejected(format!(
                "internal error: the solver's answer is not solved ({d})"
            )),
            stats,
        ),
    }
}

/// Cuts the work into jobs: large regions first, one job per strategy when raced; small
/// regions batched.
fn plan_jobs(regions: &Regions, opts: &SolveOptions) -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut batch: Vec<usize> = Vec::new();
    let mut batch_cells = 0;
    let batch_racer = opts.method.racers(1, opts.flow)[0];
    for r in regions.largest_first() {
        let size = regions.get(r).len();
        let racers = opts.method.racers(size, opts.flow);
        if racers.len() > 1 || size >= BATCH_CELLS {
            for &(order, flow) in &racers {
                jobs.push(Job {
                    regions: vec![r],
                    order,
                    flow,
                    raced: racers.len() > 1,
                });
            }
            continue;
        }
        batch.push(r);
        batch_cells += size;
        if batch_cells >= BATCH_CELLS {
            jobs.push(Job {
                regions: std::mem::take(&mut batch),
                order: batch_racer.0,
                flow: batch_racer.1,
                raced: false,
            });
            batch_cells = 0;
        }
    }
    if !batch.is_empty() {
        jobs.push(Job {
            regions: batch,
            order: batch_racer.0,
            flow: batch_racer.1,
            raced: false,
        });
    }
    jobs
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

//! The solver: propagation to a fixed point, split into independent regions, then a
//! trail-based depth-first search per region (with a degree-constrained flow witness) run by a
//! master–worker pool. Methods differ only in the branching [`Order`]; `auto` races them on
//! large regions. Every answer is checked by the verifier before it is returned.

mod backjump;
mod board;
mod cluster;
#[cfg(feature = "cp")]
mod cp;
mod first_pass;
mod flow;
mod flow_filter;
mod observed;
mod observer;
mod pool;
mod probe;
mod regions;
mod search;
mod start;
mod state;
mod strategy;
mod subproblem;
mod tables;
mod tiny;
mod wrapped;

// The core the rest of the crate builds on, and all it may use of `solve`: the padded square
// board, orientation domains with their trail and propagation, the first pass, the region
// split, the degree witness and its filter, probing beside a known solution, the MRV measure,
// and the observer hooks. The search, the pool, the search's probes and racing stay private.
pub(crate) use board::Board;
pub(crate) use first_pass::first_pass_striped;
pub(crate) use flow::{DegreeFlow, orientation_of};
pub(crate) use flow_filter::{FilterEnd, FlowFilter};
pub use observer::{Domain, Event, NoObserver, Observer, OnEvent};
pub(crate) use probe::{ProbeEnd, probe_beside, witness_of};
pub(crate) use regions::{Regions, find_regions};
pub(crate) use start::Start;
pub(crate) use state::State;
pub(crate) use strategy::mrv_measure;
#[cfg(feature = "play")]
pub(crate) use tables::FULL_DOMAIN;
pub(crate) use tables::sides;
pub(crate) use wrapped::{solve_wrapped, wraps_two_coloured};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::check::first_defect;
use crate::model::{Game, Piece};
pub use observed::solve_observed;
use pool::{Job, Limits, PoolEnd, run_pool};
pub use search::{SearchCounters, SearchEnd};
pub use strategy::Order;

/// A solving method as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Races the strategies on large regions; MRV on the rest.
    Auto,
    /// Static order: row by row from the bottom-right corner (see [`Order::Line`]).
    Line,
    /// Static order: a spiral from the outer ring inwards (see [`Order::Snail`]).
    Snail,
    /// MRV (fewest remaining orientations first) on every region, no racing.
    Csp,
    /// A custom portfolio for library users and tests: every region of at least
    /// `RACE_MIN_CELLS` cells is raced by these (order, witness on/off) searches, smaller ones
    /// use the first. `SolveOptions::flow` does not apply.
    Race(&'static [(Order, bool)]),
    /// The whole level as a SAT formula for the batsat library (feature `cp`).
    #[cfg(feature = "cp")]
    Cp,
    /// Conflict learning over the connections ([`crate::learn`]), the whole level at once.
    Learn,
}

impl Method {
    /// The searches (order, witness on/off) this method runs on a region of `size` cells
    /// with `threads` workers.
    fn racers(self, size: usize, flow: bool, threads: usize) -> Vec<(Order, bool)> {
        let raced = size >= RACE_MIN_CELLS;
        match self {
            // MRV's time on one large region depends on its last tie-break far more than on
            // the level (straight 1024x1024 seed 4 under `csp -t 2`: 11.9 s in line order
            // alone, 4.1 s raced); a second worker that has no region of its own runs MRV
            // in another order.
            Method::Csp if raced && threads > 1 => {
                vec![(Order::Mrv, flow), (Order::MrvShuffled, flow)]
            }
            Method::Auto if raced => vec![
                (Order::Mrv, flow),
                (Order::MrvShuffled, flow),
                (Order::Line, flow),
                (Order::Snail, flow),
            ],
            Method::Auto | Method::Csp => vec![(Order::Mrv, flow)],
            Method::Line => vec![(Order::Line, flow)],
            Method::Snail => vec![(Order::Snail, flow)],
            Method::Race(racers) if raced => racers.to_vec(),
            Method::Race(racers) => racers[..1].to_vec(),
            // Never planned: `solve` hands the level to the SAT library first.
            #[cfg(feature = "cp")]
            Method::Cp => vec![(Order::Mrv, flow)],
            // Never planned: `solve` hands the level to the learning search first.
            Method::Learn => vec![(Order::Mrv, flow)],
        }
    }
}

/// Regions at least this large are raced by every strategy under `auto`.
const RACE_MIN_CELLS: usize = 256;
/// Small regions are batched into jobs of about this many cells.
const BATCH_CELLS: usize = 4096;
/// Tiny regions are batched into jobs of about this many cells.
const TINY_BATCH_CELLS: usize = 16384;
// Tiny regions are never raced: `plan_jobs` batches them all.
const _: () = assert!(tiny::TINY_CELLS < RACE_MIN_CELLS);

/// How to solve: method, worker threads, flow witness and time limit.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Search strategy (or SAT with `Method::Cp`, feature `cp`).
    pub method: Method,
    /// Worker threads for propagation and the region jobs (0 is taken as 1).
    pub threads: usize,
    /// Keep the degree-constrained flow witness during search (see `flow`).
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
    /// Cells of the level (height × width).
    pub cells: usize,
    /// Cells with a single orientation left after the first propagation pass.
    pub fixed_after_propagation: usize,
    /// Undecided cells of each independent region after propagation.
    pub region_sizes: Vec<usize>,
    /// Jobs the regions were cut into (one per strategy for a raced region).
    pub jobs: usize,
    /// Worker threads used.
    pub threads: usize,
    /// Search counters summed over all jobs.
    pub counters: SearchCounters,
    /// Wall time of the first propagation pass.
    pub propagate_time: Duration,
    /// Wall time to find the independent regions and plan the jobs.
    pub regions_time: Duration,
    /// Wall time of the region searches.
    pub search_time: Duration,
    /// Wall time of the final verification of the solved grid.
    pub verify_time: Duration,
}

/// Solves `game` (its orientations are ignored: only the shapes matter). Raising `cancel`
/// from another thread stops the solve promptly with [`Outcome::Cancelled`].
pub fn solve(game: &Game, opts: &SolveOptions, cancel: &AtomicBool) -> (Outcome, SolveStats) {
    // Up to this many cells, handing each data-parallel loop to rayon's global pool costs more
    // than the loop (a 3x3 solve: 50 us, against 15 us without the `parallel` feature): one
    // hand-off to a one-thread pool runs them all in place (examples/small_solves.rs).
    #[cfg(feature = "parallel")]
    if game.len() <= SMALL_GRID_CELLS && rayon::current_thread_index().is_none() {
        static SMALL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
        let pool =
            SMALL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(1).build().ok());
        if let Some(pool) = pool {
            return pool.install(|| solve_here(game, opts, cancel));
        }
    }
    solve_here(game, opts, cancel)
}

/// Grids up to this size solve on [`solve`]'s one-thread pool.
#[cfg(feature = "parallel")]
const SMALL_GRID_CELLS: usize = 4096;

fn solve_here(game: &Game, opts: &SolveOptions, cancel: &AtomicBool) -> (Outcome, SolveStats) {
    #[cfg(feature = "cp")]
    if opts.method == Method::Cp {
        return cp::solve_cp(game, opts, cancel);
    }
    if opts.method == Method::Learn {
        return crate::learn::solve_game(game, opts, cancel);
    }
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let mut stats = SolveStats {
        cells: game.len(),
        threads: opts.threads.max(1),
        ..SolveStats::default()
    };
    let t = Instant::now();
    // Before the pool, each phase reads the flag and the deadline too: on huge grids each
    // takes seconds.
    let limits = Limits { cancel, deadline };
    let stopped = || limits.stopped();
    let halted = || stopped().is_some();
    let start = Start::until(game, opts.threads, &halted);
    stats.propagate_time = t.elapsed();
    let Some(start) = start else {
        return (stopped().unwrap_or(Outcome::Cancelled), stats);
    };
    if !start.consistent {
        return (Outcome::Unsolvable, stats);
    }
    stats.fixed_after_propagation = start.fixed();

    let t = Instant::now();
    let regions = start.regions_until(&halted);
    let Start {
        board, mut state, ..
    } = start;
    let Some(regions) = regions else {
        stats.regions_time = t.elapsed();
        return (stopped().unwrap_or(Outcome::Cancelled), stats);
    };
    if let Err(end) = search_regions(&board, &mut state, &regions, opts, limits, (&mut stats, t)) {
        return (end, stats);
    }
    verified(extract(game, &board, &state), stats)
}

/// Plans the jobs of `regions` (found since `since`) and runs the pool on them, writing every
/// region's answer into `state`; the outcome when some region was not solved.
fn search_regions(
    board: &Board,
    state: &mut State,
    regions: &Regions,
    opts: &SolveOptions,
    limits: Limits<'_>,
    (stats, since): (&mut SolveStats, Instant),
) -> Result<(), Outcome> {
    let jobs = plan_jobs(regions, opts);
    stats.region_sizes = (0..regions.len()).map(|i| regions.get(i).len()).collect();
    stats.jobs = jobs.len();
    stats.regions_time = since.elapsed();
    let t = Instant::now();
    let end = run_pool(
        board,
        &mut state.dom,
        regions,
        jobs,
        opts.threads,
        limits,
        &mut stats.counters,
    );
    stats.search_time = t.elapsed();
    match end {
        PoolEnd::Solved => Ok(()),
        PoolEnd::Unsolvable => Err(Outcome::Unsolvable),
        PoolEnd::Cancelled => Err(Outcome::Cancelled),
        PoolEnd::TimedOut => Err(Outcome::TimedOut),
    }
}

/// The outcome for a candidate solution: [`Outcome::Solved`] only if the verifier accepts it.
/// Every method's answer goes through here.
pub(crate) fn verified(solution: Game, stats: SolveStats) -> (Outcome, SolveStats) {
    verified_by(solution, stats, |g| first_defect(g).map(|d| d.to_string()))
}

/// [`verified`] by the judge `defect` (`None`: solved), for boards the course-format
/// verifier does not describe.
fn verified_by(
    solution: Game,
    mut stats: SolveStats,
    defect: impl Fn(&Game) -> Option<String>,
) -> (Outcome, SolveStats) {
    let t = Instant::now();
    let defect = defect(&solution);
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
/// regions batched. Under `auto` (and `csp` on several workers) the first racer (MRV) of a
/// region runs alone at first: the others wait [`auto_race_delay`] and go last in the
/// queue, so on a machine with few cores they neither slow the usual winner down nor hold
/// a worker other regions need.
fn plan_jobs(regions: &Regions, opts: &SolveOptions) -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut later = Vec::new();
    let now = Instant::now();
    let mut batch: Vec<usize> = Vec::new();
    let mut batch_cells = 0;
    let batch_racer = opts.method.racers(1, opts.flow, opts.threads)[0];
    // MRV changes its tie-break in turns where no other order runs beside it: regions
    // nobody races, and every region when one worker runs the racers one after the other.
    let takes_turns =
        |order: Order, raced: bool| order == Order::Mrv && (!raced || opts.threads <= 1);
    let batch_job = |regions: Vec<usize>| Job {
        regions,
        order: batch_racer.0,
        flow: batch_racer.1,
        raced: false,
        turns: takes_turns(batch_racer.0, false),
        not_before: None,
    };
    for r in regions.largest_first_above(tiny::TINY_CELLS) {
        let size = regions.get(r).len();
        let racers = opts.method.racers(size, opts.flow, opts.threads);
        if racers.len() > 1 || size >= BATCH_CELLS {
            for (k, &(order, flow)) in racers.iter().enumerate() {
                let delayed = k > 0 && matches!(opts.method, Method::Auto | Method::Csp);
                let job = Job {
                    regions: vec![r],
                    order,
                    flow,
                    raced: racers.len() > 1,
                    turns: takes_turns(order, racers.len() > 1),
                    not_before: delayed.then(|| now + auto_race_delay(size)),
                };
                if delayed {
                    later.push(job);
                } else {
                    jobs.push(job);
                }
            }
            continue;
        }
        batch.push(r);
        batch_cells += size;
        if batch_cells >= BATCH_CELLS {
            jobs.push(batch_job(std::mem::take(&mut batch)));
            batch_cells = 0;
        }
    }
    if !batch.is_empty() {
        jobs.push(batch_job(std::mem::take(&mut batch)));
    }
    // Tiny regions (solved in place, a few hundred nanoseconds each) last, in grid order: a
    // job then reads the board and domains front to back instead of at random, which on
    // random 4096x4096 halved the time of its hundred thousand regions.
    let mut cells = 0;
    for r in (0..regions.len()).filter(|&r| regions.get(r).len() <= tiny::TINY_CELLS) {
        batch.push(r);
        cells += regions.get(r).len();
        if cells >= TINY_BATCH_CELLS {
            cells = 0;
            jobs.push(batch_job(std::mem::take(&mut batch)));
        }
    }
    if !batch.is_empty() {
        jobs.push(batch_job(batch));
    }
    jobs.extend(later);
    jobs
}

/// How long MRV runs alone on a region of `cells` cells under `auto` before the other
/// strategies join the race: about twice what MRV with the witness usually needs (0.4 s for
/// a million-cell dominoes level), so the race only starts on regions where it struggles.
fn auto_race_delay(cells: usize) -> Duration {
    Duration::from_micros(cells as u64).max(Duration::from_millis(100))
}

/// The game with every cell turned to its (single) remaining orientation.
fn extract(game: &Game, board: &Board, state: &State) -> Game {
    use crate::par::*;
    let (h, w) = (game.height(), game.width());
    // Row by row in parallel (huge grids), from the level's rows: a copy of the level first,
    // then the turns, was a sequential pass over the cells more (4 ms at 4096x4096).
    let mut cells = vec![Piece::EMPTY; h * w];
    if w > 0 {
        cells
            .par_chunks_mut(w)
            .zip(game.cells().par_chunks(w))
            .enumerate()
            .for_each(|(r, (out, row))| {
                let dom = &state.dom[board.cell(r, 0)..];
                for ((o, p), &d) in out.iter_mut().zip(row).zip(dom) {
                    *o = Piece::new(p.kind(), d.trailing_zeros() as u8);
                }
            });
    }
    Game::from_cells(h, w, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, generate};
    use crate::model::PieceKind;

    fn regions_of(game: &Game) -> Regions {
        let board = Board::new(game);
        let mut state = State::new(&board);
        assert!(state.propagate_all(&board));
        let mut seen = vec![false; board.len()];
        find_regions(&board, &state, board.cells(), &mut seen)
    }

    #[test]
    fn every_region_is_planned_once_and_tiny_ones_in_grid_order() {
        // Random levels leave many tiny regions and a few larger ones.
        let mut o = GenerateOptions::new(120, 120, 3);
        o.family = Family::Random;
        let regions = regions_of(&generate(&o));
        let tiny = (0..regions.len())
            .filter(|&r| regions.get(r).len() <= tiny::TINY_CELLS)
            .count();
        assert!(
            tiny > 50 && tiny < regions.len(),
            "{tiny} of {}",
            regions.len()
        );
        let opts = SolveOptions {
            method: Method::Csp,
            ..SolveOptions::default()
        };
        let jobs = plan_jobs(&regions, &opts);
        let mut planned: Vec<usize> = jobs.iter().flat_map(|j| j.regions.clone()).collect();
        let tiny_order: Vec<usize> = planned
            .iter()
            .copied()
            .filter(|&r| regions.get(r).len() <= tiny::TINY_CELLS)
            .collect();
        assert!(tiny_order.is_sorted());
        planned.sort_unstable();
        assert_eq!(planned, (0..regions.len()).collect::<Vec<_>>());
    }

    /// Several regions large enough to be raced: dominoes bands between empty rows.
    fn dominoes_bands() -> Regions {
        let mut cells = Vec::new();
        for seed in 0..3 {
            let mut o = GenerateOptions::new(20, 40, seed);
            o.family = Family::Dominoes;
            cells.extend_from_slice(generate(&o).cells());
            cells.extend(std::iter::repeat_n(Piece::new(PieceKind::Empty, 0), 40));
        }
        regions_of(&Game::from_cells(63, 40, cells))
    }

    #[test]
    fn auto_queues_late_racers_after_every_first_racer() {
        let regions = dominoes_bands();
        let raced = (0..regions.len())
            .filter(|&r| regions.get(r).len() >= RACE_MIN_CELLS)
            .count();
        assert!(raced >= 2, "{raced} raced regions");
        let auto = SolveOptions::default();
        let jobs = plan_jobs(&regions, &auto);
        let first_late = jobs.iter().position(|j| j.not_before.is_some()).unwrap();
        assert!(jobs[first_late..].iter().all(|j| j.not_before.is_some()));
        assert_eq!(jobs.len() - first_late, 3 * raced);
        assert!(jobs[..first_late].iter().all(|j| j.order == Order::Mrv));
        // A custom race starts everyone at once.
        const BOTH: &[(Order, bool)] = &[(Order::Mrv, true), (Order::Line, true)];
        let race = SolveOptions {
            method: Method::Race(BOTH),
            ..SolveOptions::default()
        };
        assert!(
            plan_jobs(&regions, &race)
                .iter()
                .all(|j| j.not_before.is_none())
        );
    }

    #[test]
    fn which_mrv_jobs_race_and_which_change_tie_breaks() {
        let regions = dominoes_bands();
        let plan = |method: Method, threads: usize| {
            let opts = SolveOptions {
                method,
                threads,
                ..SolveOptions::default()
            };
            plan_jobs(&regions, &opts)
        };
        // `csp` on one worker: nothing races, every MRV job changes tie-breaks.
        let csp = plan(Method::Csp, 1);
        assert!(csp.iter().all(|j| !j.raced && j.turns));
        // On two, a large region is raced by MRV in a second order, which starts late;
        // neither racer changes tie-breaks, every other job does.
        let csp = plan(Method::Csp, 2);
        assert!(csp.iter().any(|j| j.raced));
        assert!(csp.iter().all(|j| j.turns != j.raced));
        for j in csp.iter().filter(|j| j.raced) {
            assert!(matches!(j.order, Order::Mrv | Order::MrvShuffled));
            assert_eq!(j.not_before.is_some(), j.order == Order::MrvShuffled);
        }
        // `auto` on two workers: the racers keep their orders; on one, MRV runs the region
        // alone until it is solved, so it changes tie-breaks.
        let two = plan(Method::Auto, 2);
        assert!(two.iter().any(|j| j.raced));
        assert!(two.iter().all(|j| j.turns != j.raced));
        let one = plan(Method::Auto, 1);
        assert!(one.iter().all(|j| j.turns == (j.order == Order::Mrv)));
        assert!(one.iter().any(|j| j.raced && j.turns));
        // Static orders never do.
        assert!(plan(Method::Line, 2).iter().all(|j| !j.turns));
    }
}

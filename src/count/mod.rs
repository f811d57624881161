//! Solution counting: propagate, split the undecided cells into independent regions, count each
//! region and multiply. A region whose bounding box is narrow enough is counted by the frontier
//! sweep ([`frontier`]), linear in its cells whatever the count; the others, and any whose
//! frontier grows past a bound, by the component-splitting search [`counter::Counter`]. Counts
//! are exact and of any size ([`number::Count`]). With a limit K the count stops once more than
//! K solutions are known; K = 1 is one run of the solver.
//!
//! Two solutions are different when some cell has a different connection set (orientations
//! of a piece with the same connections, such as the two halves of an X's turn, are one).

pub mod counter;
#[cfg(test)]
mod counter_tests;
pub mod frontier;
pub mod kasteleyn;
#[cfg(test)]
mod kasteleyn_tests;
pub mod modular_det;
pub mod number;
#[cfg(test)]
mod probing_tests;
#[cfg(feature = "cp")]
mod sat_race;

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::model::Game;
use crate::solve::{
    Board, DegreeFlow, FilterEnd, FlowFilter, Outcome, ProbeEnd, Regions, SolveOptions, Start,
    State, find_regions, probe_beside, solve, witness_of,
};
use counter::{CountCounters, Counter};
use frontier::{FrontierCounters, count_frontier, extent};
use kasteleyn::{DeterminantCounters, Planned};
use number::Count;

/// Regions whose bounding box is at most this wide (in the narrower dimension) are tried with
/// the frontier sweep first.
pub const FRONTIER_MAX_WIDTH: usize = 48;

/// Frontier states above which the sweep hands the region to the search.
pub const FRONTIER_MAX_STATES: usize = 1 << 20;

/// The same bound when the count has a limit.
pub const FRONTIER_MAX_STATES_LIMITED: usize = 1 << 12;

/// Counts the solutions of one region (undecided cells of a propagated state, sharing no
/// undecided side with other cells): the frontier sweep when the region is narrow and its
/// frontier stays small, else the search. The sweep runs along the region's longer dimension
/// and, when that needs too many states and the count has no limit, along the other one if it
/// is narrow enough too (a square region's two sweeps can differ a lot: decided cells cut one
/// frontier and not the other); `sweep` forces rows (`Some(true)`) or columns (`Some(false)`).
/// Under a limit, the sweep hands a region over to the search sooner, and the determinant of
/// a planar matching problem is not tried, unless `exact_first` says so (for regions where a
/// limited search has already failed to stop soon). `in_region` is scratch of `board.len()`
/// falses.
#[allow(clippy::too_many_arguments)]
pub fn count_region(
    board: &Board,
    state: &mut State,
    region: &[u32],
    (sweep, limit, exact_first): (Option<bool>, Option<u64>, bool),
    counter: &mut Counter,
    in_region: &mut [bool],
    frontier_counters: &mut FrontierCounters,
    determinant: &mut DeterminantCounters,
    stop: &impl Fn() -> bool,
) -> Result<Count, counter::Stopped> {
    if region.is_empty() {
        return Ok(Count::ONE);
    }
    // An exact count of a planar matching problem: polynomial whatever the region's shape.
    if sweep.is_none() && (limit.is_none() || exact_first) {
        match kasteleyn::plan(board, state, region) {
            Planned::Matrix(plan) => {
                determinant.regions += 1;
                determinant.cells += region.len() as u64;
                determinant.branch_cells = determinant.branch_cells.max(plan.branch_cells as u64);
                determinant.cases += plan.cases.len() as u64;
                let n = plan.count();
                return Ok(match u128::try_from(&n) {
                    Ok(v) => Count::Small(v),
                    Err(_) => Count::Big(n),
                });
            }
            Planned::Zero => {
                determinant.regions += 1;
                determinant.cells += region.len() as u64;
                return Ok(Count::ZERO);
            }
            Planned::Unsuited => {}
        }
    }
    let (rows, cols) = extent(board, region);
    let longer = cols <= rows;
    let directions: &[bool] = match (sweep, limit) {
        (Some(by_rows), _) => &[by_rows],
        (None, Some(_)) => &[longer],
        (None, None) => &[longer, !longer],
    };
    // Under a limit the search usually stops soon: hand over to it earlier.
    let max_states = if limit.is_some() && !exact_first {
        FRONTIER_MAX_STATES_LIMITED
    } else {
        FRONTIER_MAX_STATES
    };
    for &by_rows in directions {
        let width = if by_rows { cols } else { rows };
        if width > FRONTIER_MAX_WIDTH {
            continue;
        }
        if let Some(c) = count_frontier(
            board,
            state,
            region,
            Some(by_rows),
            limit,
            max_states,
            in_region,
            frontier_counters,
            stop,
        )? {
            return Ok(c);
        }
    }
    counter.count(board, state, region, limit, false, stop)
}

/// Narrows the domains of a propagated `state` with the solver's degree-flow filter
/// ([`FlowFilter`]), region by region: a side on no alternating cycle of the degree relaxation
/// has the same value in every solution, so no solution is lost, while on domino-like levels
/// most of the grid is decided and the rest falls apart into small pockets. Returns the
/// regions of what is still undecided, or `None` when the level has no solution.
pub fn flow_prune(board: &Board, state: &mut State) -> Option<Regions> {
    let mut seen = vec![false; board.len()];
    let regions = find_regions(board, state, board.cells(), &mut seen);
    let mut flow = DegreeFlow::new(board);
    let mut filter = FlowFilter::new(board);
    for r in 0..regions.len() {
        let cells = regions.get(r);
        if !flow.init(board, state, cells)
            || filter.run(board, state, &mut flow, cells) == FilterEnd::Infeasible
        {
            return None;
        }
    }
    seen.fill(false);
    Some(find_regions(board, state, board.cells(), &mut seen))
}

/// Removes from every region of `regions` each orientation that propagation refutes, all
/// but the one `guide` (a solution) gives each cell ([`probe_beside`]). A count only needs
/// this where its guided search could not go past the guide (a unique level, say), and it
/// keeps every solution: a value is only removed when it has none. What the probes leave
/// fixed is the guide's, and a region left all fixed has the guide as its only solution.
fn beside_guide(
    board: &Board,
    state: &mut State,
    regions: &Regions,
    guide: &Game,
    stopped: &impl Fn() -> bool,
) -> ProbeEnd {
    let witness = witness_of(board, |g| guide.cells()[g].mask());
    for r in 0..regions.len() {
        match probe_beside(board, state, regions.get(r), &witness, stopped) {
            ProbeEnd::Done => {}
            end => return end,
        }
    }
    ProbeEnd::Done
}

/// Where a count has got to, for a progress display.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountProgress {
    /// Regions fully counted, and how many there are.
    pub regions_done: usize,
    /// Number of regions to count.
    pub regions: usize,
    /// Undecided cells in the counted regions, and in all of them.
    pub cells_done: usize,
    /// Undecided cells in all regions.
    pub cells: usize,
    /// Cells of the region being counted.
    pub current_region: usize,
    /// Time since the count started.
    pub elapsed: Duration,
}

/// Limits of a count (none by default: count everything, take as long as needed).
#[derive(Clone, Debug, Default)]
pub struct CountOptions {
    /// Stop once more than this many solutions (≥ 1) are known: the answer is then "at least
    /// K". K = 1 runs the solver once.
    pub limit: Option<u64>,
    /// Give up after this long (the whole count, from the call).
    pub timeout: Option<Duration>,
}

/// What the count concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountOutcome {
    /// The number of solutions (zero: the level has no solution).
    Exact(BigUint),
    /// There are at least this many solutions: the count stopped there (with K = 1 after the
    /// first solution; otherwise once K + 1 were known).
    AtLeast(u64),
    /// The timeout passed before an answer.
    TimedOut,
    /// The caller's flag was raised before an answer.
    Cancelled,
}

/// Figures about one count, for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct CountStats {
    /// Cells of the level (height × width).
    pub cells: usize,
    /// Cells with a single orientation left after the first propagation pass.
    pub fixed_after_propagation: usize,
    /// Cells fixed once the degree-flow filter has run too (`flow_prune`).
    pub fixed_by_flow: usize,
    /// Cells fixed once the alternatives to the first solution have been probed too (a
    /// limited count's second pass: [`beside_guide`]).
    pub fixed_by_probing: usize,
    /// Undecided cells of each independent region left after the flow filter.
    pub region_sizes: Vec<usize>,
    /// Search counters summed over the regions.
    pub counters: CountCounters,
    /// Frontier counters summed over the regions.
    pub frontier: FrontierCounters,
    /// Regions counted by determinants ([`kasteleyn`]).
    pub determinant: DeterminantCounters,
    /// Wall time of the first propagation pass.
    pub propagate_time: Duration,
    /// Wall time of the flow filter and the counting of the regions (with a limit, also of
    /// the solver run that finds the first solution).
    pub count_time: Duration,
    /// When a limited count raced a SAT enumeration (`cp` feature): how that went.
    pub sat: Option<SatRace>,
}

/// A limited count's SAT racer, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatRace {
    /// Whether its answer was the one given.
    pub won: bool,
    /// Conflicts it met.
    pub conflicts: u64,
}

/// Counts the solutions of `game` (its orientations are ignored: only the shapes matter).
/// Two solutions are different when some cell has a different connection mask. Raising
/// `cancel` from another thread stops the count promptly with [`CountOutcome::Cancelled`].
pub fn count_solutions(
    game: &Game,
    opts: &CountOptions,
    cancel: &AtomicBool,
) -> (CountOutcome, CountStats) {
    count_solutions_with_progress(game, opts, cancel, &|_| {})
}

/// [`count_solutions`], calling `progress` when a region starts and now and then during a long
/// region (at most every 256 search nodes or frontier cells).
pub fn count_solutions_with_progress(
    game: &Game,
    opts: &CountOptions,
    cancel: &AtomicBool,
    progress: &dyn Fn(&CountProgress),
) -> (CountOutcome, CountStats) {
    count_solutions_swept(game, opts, cancel, progress, None)
}

/// [`count_solutions_with_progress`] with every frontier sweep run along rows (`Some(true)`)
/// or columns (`Some(false)`) only: the same count by a different order of work, for checking
/// one against the other.
pub fn count_solutions_swept(
    game: &Game,
    opts: &CountOptions,
    cancel: &AtomicBool,
    progress: &dyn Fn(&CountProgress),
    sweep: Option<bool>,
) -> (CountOutcome, CountStats) {
    let requested = opts.limit.map(|k| k.max(1));
    if requested == Some(1) {
        return count_one(game, opts, cancel, fresh_stats(game));
    }
    // One more than K: the count must tell "exactly K" from "more than K".
    let limit = requested.map(|k| k.saturating_add(1));
    count_limited(game, opts, (requested, limit), cancel, (progress, sweep))
}

/// The figures of a count of `game` before it starts.
fn fresh_stats(game: &Game) -> CountStats {
    CountStats {
        cells: game.len(),
        ..CountStats::default()
    }
}

/// Tells whether `game` has no solution (`Exact(0)`), exactly one (`Exact(1)`) or more
/// (`AtLeast(2)`): a count that stops at the second solution. `--count-limit 2` has to tell
/// two solutions from three, which can take far longer. `opts.limit` is not read.
pub fn unique_check(
    game: &Game,
    opts: &CountOptions,
    cancel: &AtomicBool,
    progress: &dyn Fn(&CountProgress),
) -> (CountOutcome, CountStats) {
    let (outcome, stats) = count_limited(game, opts, (Some(2), Some(2)), cancel, (progress, None));
    let outcome = match outcome {
        // The SAT racer reports the models it found beyond the known one.
        CountOutcome::AtLeast(_) => CountOutcome::AtLeast(2),
        other => other,
    };
    (outcome, stats)
}

/// Called as a count goes (see [`count_solutions_with_progress`]).
type Progress<'a> = &'a dyn Fn(&CountProgress);

/// A count that stops once `limit` solutions are known (an answer of "at least" then reports
/// `requested`), after the solver's first run has found one to start from.
fn count_limited(
    game: &Game,
    opts: &CountOptions,
    (requested, limit): (Option<u64>, Option<u64>),
    cancel: &AtomicBool,
    (progress, sweep): (Progress<'_>, Option<bool>),
) -> (CountOutcome, CountStats) {
    let mut stats = fresh_stats(game);
    let start = Instant::now();
    let deadline = opts.timeout.map(|t| start + t);
    // Under a limit the solver finds one solution first (the count's search then starts from
    // it: see `Counter::guide`); without one there is nothing more to find.
    let solve_start = Instant::now();
    let guide = match limit {
        Some(_) => match first_solution(game, opts, cancel) {
            First::Found(g) => Some(g),
            First::Ended(outcome, st) => {
                stats.fixed_after_propagation = st.fixed_after_propagation;
                stats.propagate_time = st.propagate_time;
                return (outcome, stats);
            }
            First::Unknown => None,
        },
        None => None,
    };
    let solve_time = solve_start.elapsed();
    let rest = Rest {
        requested,
        limit,
        deadline,
        start,
        progress,
        sweep,
        stats,
        solve_time,
    };
    #[cfg(feature = "cp")]
    if let (Some(first), Some(k1)) = (&guide, limit)
        && sat_race::worth_racing(game, k1)
    {
        let first = first.clone();
        // The SAT side looks for the models beyond the known one.
        return sat_race::race(game, &first, k1 - 1, cancel, deadline, |flag| {
            count_rest(game, Some(first.clone()), rest, flag)
        });
    }
    count_rest(game, guide, rest, cancel)
}

/// What the rest of a count needs from its start.
struct Rest<'a> {
    requested: Option<u64>,
    limit: Option<u64>,
    deadline: Option<Instant>,
    start: Instant,
    progress: &'a dyn Fn(&CountProgress),
    sweep: Option<bool>,
    stats: CountStats,
    solve_time: Duration,
}

/// The count after the solver's first run (`guide`, its solution, if any), stopped by
/// `cancel` or the deadline. With a solution known, the guided search first counts each
/// region of the propagated level within [`guided_checks`]: it walks down to the known
/// solution, and on most levels with more than one finds the next one right after. A region
/// it cannot settle within that (a level with a unique solution, say) sends the count to the
/// second pass, with no cap, which runs the flow filter first: it cuts the regions up. On a unique 256x256 dominoes level the guided search alone took 1.3 million
/// nodes and 3-6 s in one region of 31,837 cells; after the filter there are 35 regions of
/// at most 2,016 cells, counted in 0.1 s. The filter costs a fifth of the count where the
/// guided search soon finds more solutions (512x512 dominoes: 380 ms to 460 ms), so it is
/// not run before it is needed.
fn count_rest(
    game: &Game,
    guide: Option<Game>,
    rest: Rest,
    cancel: &AtomicBool,
) -> (CountOutcome, CountStats) {
    let t = Instant::now();
    if guide.is_some()
        && let Some(done) = count_pass(game, guide.as_ref(), &rest, cancel, true)
    {
        return done;
    }
    let first_pass = t.elapsed();
    let (outcome, mut stats) =
        count_pass(game, guide.as_ref(), &rest, cancel, false).expect("a pass without a cap ends");
    stats.count_time += first_pass;
    (outcome, stats)
}

/// Stop checks (one per 256 search nodes or 64 frontier cells) the first, guided pass of
/// [`count_rest`] gives a region of `cells` cells: half a node a cell, and 64 checks more
/// for small regions. Walking down to the known solution takes about a third of a node a
/// cell or less (1024x1024 dominoes: 326,118 nodes for the sixth solution in a region of
/// 1,047,618 cells; public 128x128 dist.1: 5,009 for 15,006).
fn guided_checks(cells: usize) -> u64 {
    cells as u64 / 512 + 64
}

/// One pass of [`count_rest`]: `guided`, no flow filter and each region's search capped
/// (`None` when one went over its cap); else the flow filter and no cap.
fn count_pass(
    game: &Game,
    guide: Option<&Game>,
    rest: &Rest,
    cancel: &AtomicBool,
    guided: bool,
) -> Option<(CountOutcome, CountStats)> {
    let &Rest {
        requested,
        limit,
        deadline,
        start,
        progress,
        sweep,
        ref stats,
        solve_time,
    } = rest;
    let mut stats = stats.clone();
    let t = Instant::now();
    let propagated = Start::new(game);
    stats.propagate_time = t.elapsed();
    if !propagated.consistent {
        return Some((CountOutcome::Exact(BigUint::ZERO), stats));
    }
    stats.fixed_after_propagation = propagated.fixed();
    let Start {
        board, mut state, ..
    } = propagated;
    stats.fixed_by_flow = stats.fixed_after_propagation;

    let t = Instant::now();
    let pruned = if guided {
        let mut seen = vec![false; board.len()];
        Some(find_regions(&board, &state, board.cells(), &mut seen))
    } else {
        flow_prune(&board, &mut state)
    };
    let Some(regions) = pruned else {
        stats.count_time = t.elapsed() + solve_time;
        return Some((CountOutcome::Exact(BigUint::ZERO), stats));
    };
    stats.fixed_by_flow = board.cells().filter(|&c| state.is_fixed(c)).count();
    stats.fixed_by_probing = stats.fixed_by_flow;
    let stopped =
        || cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let regions = match guide {
        Some(sol) if !guided => match beside_guide(&board, &mut state, &regions, sol, &stopped) {
            ProbeEnd::Done => {
                stats.fixed_by_probing = board.cells().filter(|&c| state.is_fixed(c)).count();
                let mut seen = vec![false; board.len()];
                find_regions(&board, &state, board.cells(), &mut seen)
            }
            ProbeEnd::Infeasible => {
                stats.count_time = t.elapsed() + solve_time;
                return Some((CountOutcome::Exact(BigUint::ZERO), stats));
            }
            ProbeEnd::Cancelled => {
                stats.count_time = t.elapsed() + solve_time;
                return Some((stopped_by(cancel), stats));
            }
        },
        _ => regions,
    };
    stats.region_sizes = (0..regions.len()).map(|i| regions.get(i).len()).collect();
    let mut report = CountProgress {
        regions: regions.len(),
        cells: regions.cells.len(),
        ..CountProgress::default()
    };
    let current = Cell::new(report);
    // The current region's stop checks and its cap in the guided pass.
    let (checks, cap, capped) = (Cell::new(0u64), Cell::new(u64::MAX), Cell::new(false));
    let stop = || {
        let mut p = current.get();
        p.elapsed = start.elapsed();
        progress(&p);
        checks.set(checks.get() + 1);
        if checks.get() > cap.get() {
            capped.set(true);
            return true;
        }
        cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)
    };
    let mut counter = Counter::new(&board);
    if let Some(sol) = guide {
        let mut masks = vec![0u8; board.len()];
        for c in board.cells() {
            let (r, col) = board.row_col(c);
            masks[c] = sol.get(r, col).mask();
        }
        counter.guide(masks);
    }
    let mut in_region = vec![false; board.len()];
    let mut total = Count::ONE;
    // Smallest first: a region without a solution is usually found sooner there.
    let mut order: Vec<usize> = (0..regions.len()).collect();
    order.sort_by_key(|&r| regions.get(r).len());
    for r in order {
        let cells = regions.get(r);
        report.current_region = cells.len();
        report.elapsed = start.elapsed();
        current.set(report);
        progress(&report);
        checks.set(0);
        if guided {
            cap.set(guided_checks(cells.len()));
        }
        // Once the guided pass has failed, the limited search is not expected to stop soon:
        // on a unique 400x400 dominoes level it took 1.2 million nodes and 5 s in all, where
        // the sweep with its full bound and the determinant take 2.4 s.
        let counted = count_region(
            &board,
            &mut state,
            cells,
            (sweep, limit, !guided),
            &mut counter,
            &mut in_region,
            &mut stats.frontier,
            &mut stats.determinant,
            &stop,
        );
        report.regions_done += 1;
        report.cells_done += cells.len();
        let Ok(c) = counted else {
            if capped.get() {
                return None;
            }
            stats.counters = counter.counters;
            stats.count_time = t.elapsed() + solve_time;
            return Some((stopped_by(cancel), stats));
        };
        total.mul_assign(&c);
        if total.is_zero() {
            break;
        }
        if let Some(k) = limit {
            total.cap(k);
        }
    }
    stats.counters = counter.counters;
    stats.count_time = t.elapsed() + solve_time;
    let outcome = match (requested, limit) {
        (Some(k), Some(k1)) if total.to_u128() == Some(u128::from(k1)) => CountOutcome::AtLeast(k),
        _ => CountOutcome::Exact(total.to_biguint()),
    };
    Some((outcome, stats))
}

/// How a count that stopped before its end ended: cancelled when `cancel` is raised, else
/// out of time.
fn stopped_by(cancel: &AtomicBool) -> CountOutcome {
    if cancel.load(Ordering::Relaxed) {
        CountOutcome::Cancelled
    } else {
        CountOutcome::TimedOut
    }
}

/// What the solver's first run told a limited count.
enum First {
    /// A verified solution.
    Found(Game),
    /// The count is over: no solution, or stopped (with the solver's figures).
    Ended(CountOutcome, crate::solve::SolveStats),
    /// The solver's answer failed verification: count without its help.
    Unknown,
}

/// One run of the solver (with its flow witness and strategies).
fn first_solution(game: &Game, opts: &CountOptions, cancel: &AtomicBool) -> First {
    let solve_opts = SolveOptions {
        timeout: opts.timeout,
        ..SolveOptions::default()
    };
    let (outcome, st) = solve(game, &solve_opts, cancel);
    match outcome {
        Outcome::Solved(g) => First::Found(g),
        Outcome::Unsolvable => First::Ended(CountOutcome::Exact(BigUint::ZERO), st),
        Outcome::Cancelled => First::Ended(CountOutcome::Cancelled, st),
        Outcome::TimedOut => First::Ended(CountOutcome::TimedOut, st),
        Outcome::Rejected(_) => First::Unknown,
    }
}

/// `--count-limit 1`: one run of the solver (with its flow witness and strategies).
fn count_one(
    game: &Game,
    opts: &CountOptions,
    cancel: &AtomicBool,
    mut stats: CountStats,
) -> (CountOutcome, CountStats) {
    let t = Instant::now();
    let solve_opts = SolveOptions {
        timeout: opts.timeout,
        ..SolveOptions::default()
    };
    let (outcome, st) = solve(game, &solve_opts, cancel);
    stats.fixed_after_propagation = st.fixed_after_propagation;
    stats.region_sizes = st.region_sizes;
    stats.propagate_time = st.propagate_time;
    stats.count_time = t.elapsed().saturating_sub(st.propagate_time);
    let end = match outcome {
        Outcome::Solved(_) => CountOutcome::AtLeast(1),
        Outcome::Unsolvable => CountOutcome::Exact(BigUint::ZERO),
        Outcome::Cancelled => CountOutcome::Cancelled,
        Outcome::TimedOut => CountOutcome::TimedOut,
        // A solver bug: the exact count still gives a trustworthy answer.
        Outcome::Rejected(_) => {
            let opts = CountOptions {
                limit: Some(2),
                ..opts.clone()
            };
            let (o, s) = count_solutions(game, &opts, cancel);
            stats = s;
            match o {
                CountOutcome::Exact(n) if n > BigUint::ZERO => CountOutcome::AtLeast(1),
                CountOutcome::AtLeast(_) => CountOutcome::AtLeast(1),
                other => other,
            }
        }
    };
    (end, stats)
}

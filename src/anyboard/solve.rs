//! Solving and counting on any board: compile the level into a [`Network`], propagate, split
//! the undecided cells into regions, probe the cells of large regions (which usually splits
//! them), search each region on its own (in parallel), then verify the assembled answer
//! against the board before returning it.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use super::first_pass::Start;
use super::network::{Network, State};
use super::probe::probe_cells;
use super::regions::{LocalIndex, regions, sub_network};
use super::search::{Budget, Search, Stop};
use super::shapes::Shapes;
use super::shares::in_parallel;
use super::triangles::{has_inner_triangles, triangle_pass};
use super::verify::first_defect_on;
use crate::board::{BoardLevel, Lattice, Links};
use crate::par::*;

/// What a solve ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A verified solution.
    Solved(BoardLevel),
    /// The search was exhausted: no solution exists.
    NoSolution,
    /// The time limit passed first.
    TimedOut,
    /// The cancel flag was raised first.
    Cancelled,
}

/// Figures of one run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Cells of the board.
    pub cells: usize,
    /// Cells with one orientation left after the first propagation.
    pub fixed_after_propagation: usize,
    /// Regions searched.
    pub regions: usize,
    /// Cells of the largest region.
    pub largest_region: usize,
    /// Search decisions over all regions.
    pub nodes: u64,
    /// Time to build the network and propagate (the probes included).
    pub propagate_time: Duration,
    /// Of that, the time in the triangle pass and the probes over the large regions.
    pub probe_time: Duration,
    /// Time to find the regions.
    pub regions_time: Duration,
    /// Time in the searches.
    pub search_time: Duration,
    /// Time to verify the answer.
    pub verify_time: Duration,
}

/// A count of solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly this many.
    Exact(BigUint),
    /// More than the limit asked for.
    MoreThan(u64),
}

/// The level's network: shapes interned once per distinct mask, the board's links borrowed.
pub(super) struct Compiled<'a> {
    pub(super) shapes: Shapes,
    pub(super) shape: Vec<u8>,
    links: Links<'a>,
    lattice: Option<Lattice>,
}

pub(super) fn compile(level: &BoardLevel) -> Compiled<'_> {
    let (shapes, shape) = Shapes::of_cells(level.board(), level.masks());
    Compiled {
        shapes,
        shape,
        links: level.board().link_view(),
        lattice: level.board().lattice(),
    }
}

impl Compiled<'_> {
    pub(super) fn network(&self) -> Network<'_> {
        Network {
            k: self.shapes.sides() as usize,
            shapes: &self.shapes,
            shape: Cow::Borrowed(&self.shape),
            links: self.links.borrowed(),
            lattice: self.lattice,
        }
    }
}

/// A region at least this large goes through the triangle pass ([`triangle_pass`]) and, if
/// still this large, is probed ([`probe_cells`]) before it is searched: below it the
/// search is cheaper (random levels' regions have tens to hundreds of cells), above it a
/// weakly propagated level (a hexagonal maze) would be searched as one region of a million
/// cells.
pub(super) const PROBE_REGION: usize = 2048;

/// Propagated domains and their regions, largest first.
type Settled = (State, Vec<Vec<u32>>);

/// The propagated domains of `level`'s cells and their regions (largest first), or `None`
/// when propagation finds no solution; the time of the triangles and probes is added to
/// `probe_time`.
fn propagated(
    net: &Network,
    budget: &Budget,
    probe_time: &mut Duration,
) -> Result<Option<Settled>, Stop> {
    let mut st = State::new(net, net.full_domains());
    budget.check()?;
    // The triangles first: on a hexagonal maze they decide nearly every cell the probes
    // would, for much less. Where most cells are undecided they run on all of them, which
    // spares a look at the regions (8 % of a 256x256 hexagonal maze's instructions);
    // elsewhere only on the large regions (on random levels they cost more than they save).
    let all_open = match open_by_preview(net, &mut st, budget)? {
        None => return Ok(None),
        // Arc consistency would leave most cells open: the triangles' sweeps do its work
        // as they go, and its own pass is spared (a tenth of a 4096x4096 hexagonal maze's
        // solve).
        Some(true) => {
            let every = Start::Every;
            if !timed(probe_time, || triangle_pass(net, &mut st, every, budget))? {
                return Ok(None);
            }
            true
        }
        Some(false) => {
            if !st.propagate_root(net, budget)? {
                return Ok(None);
            }
            budget.check()?;
            let open = mostly_open(&st.dom);
            if open
                && !timed(probe_time, || {
                    triangle_pass(net, &mut st, Start::Undecided, budget)
                })?
            {
                return Ok(None);
            }
            open
        }
    };
    let mut parts = regions(net, &st.dom, budget)?;
    if !all_open {
        let large = large_cells(&parts, budget)?;
        if large.is_empty() {
            return Ok(Some((st, parts)));
        }
        drop(parts);
        if !timed(probe_time, || {
            triangle_pass(net, &mut st, Start::Cells(&large), budget)
        })? {
            return Ok(None);
        }
        parts = regions(net, &st.dom, budget)?;
    }
    let large = large_cells(&parts, budget)?;
    if large.is_empty() {
        return Ok(Some((st, parts)));
    }
    drop(parts);
    if !timed(probe_time, || {
        in_parallel(net, &mut st, &large, budget, probe_cells)
    })? {
        return Ok(None);
    }
    let parts = regions(net, &st.dom, budget)?;
    Ok(Some((st, parts)))
}

/// Whether at least [`PROBE_REGION`] cells and one cell in [`MOSTLY_OPEN`] of `dom` are
/// undecided, judged on every 64th cell: counting them all cost half a percent of a random
/// level's solve, where the answer is far from the line.
fn mostly_open(dom: &[u8]) -> bool {
    let sampled = dom
        .iter()
        .step_by(64)
        .filter(|d| d.count_ones() > 1)
        .count();
    sampled * 64 >= PROBE_REGION && sampled * 64 * MOSTLY_OPEN >= dom.len()
}

/// Whether arc consistency would leave most cells open ([`mostly_open`]), judged by its
/// fixed point within a band of [`PREVIEW_CELLS`] cells mid-board
/// ([`State::preview_open`]); `Some(false)` without a look where the triangles have no
/// sweeps of their own (no hexagonal lattice) or the board is small, `None` when the band
/// has no solution.
fn open_by_preview(net: &Network, st: &mut State, budget: &Budget) -> Result<Option<bool>, Stop> {
    let n = st.dom.len();
    if n < PREVIEW_BOARD || !has_inner_triangles(net) {
        return Ok(Some(false));
    }
    let lo = n / 2 - PREVIEW_CELLS / 2;
    let open = st.preview_open(net, budget, lo, PREVIEW_CELLS)?;
    Ok(open.map(|open| open * MOSTLY_OPEN >= PREVIEW_CELLS))
}

/// Cells in the band [`open_by_preview`] looks at: 16 rows of a 4096-wide board.
const PREVIEW_CELLS: usize = 1 << 16;

/// Boards from this many cells get the preview: below, the first pass is cheap anyway.
const PREVIEW_BOARD: usize = 1 << 20;

/// The triangles run on every undecided cell when at least one cell in this many is.
const MOSTLY_OPEN: usize = 4;

/// The cells of the regions of at least [`PROBE_REGION`] cells, ascending.
fn large_cells(parts: &[Vec<u32>], budget: &Budget) -> Result<Vec<u32>, Stop> {
    // Each step reads every cell of the large regions: seconds at 4096x4096.
    budget.check()?;
    let mut large: Vec<u32> = parts
        .iter()
        .take_while(|r| r.len() >= PROBE_REGION)
        .flatten()
        .copied()
        .collect();
    // Each region is ascending: the stable sort only merges them.
    large.sort();
    budget.check()?;
    Ok(large)
}

/// `pass()`, its time added to `spent`.
fn timed<T>(spent: &mut Duration, pass: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let kept = pass();
    *spent += t.elapsed();
    kept
}

/// A region's domains when it has a solution, and the decisions its search made.
type RegionResult = Result<(Option<Vec<u8>>, u64), Stop>;

/// Solves `level`: a verified solution, or proof that there is none, or a stop.
pub fn solve(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let deadline = timeout.map(|t| t0 + t);
    let mut stats = Stats {
        cells: level.board().len(),
        ..Stats::default()
    };
    let root_budget = Budget {
        cancel,
        halt: None,
        deadline,
        outer: None,
    };
    // Compiling and the first domains take most of a second at 4096x4096 before the first
    // pass looks at the budget: a time limit already spent (by a slow read) stops here.
    match root_budget.check() {
        Err(Stop::TimedOut) => return (Outcome::TimedOut, stats),
        Err(Stop::Cancelled) => return (Outcome::Cancelled, stats),
        Ok(()) => {}
    }
    let compiled = compile(level);
    let net = compiled.network();
    let propagation = root_budget
        .check()
        .and_then(|()| propagated(&net, &root_budget, &mut stats.probe_time));
    stats.propagate_time = t0.elapsed();
    let (mut st, parts) = match propagation {
        Ok(Some(settled)) => settled,
        Ok(None) => return (Outcome::NoSolution, stats),
        Err(Stop::TimedOut) => return (Outcome::TimedOut, stats),
        Err(Stop::Cancelled) => return (Outcome::Cancelled, stats),
    };
    stats.fixed_after_propagation = st.dom.iter().filter(|d| d.count_ones() == 1).count();

    let t1 = Instant::now();
    let local = LocalIndex::new(st.dom.len(), &parts);
    stats.regions = parts.len();
    stats.largest_region = parts.first().map_or(0, Vec::len);
    stats.regions_time = t1.elapsed();

    let t2 = Instant::now();
    let halt = AtomicBool::new(false);
    let results: Vec<RegionResult> = parts
        .par_iter()
        .map(|cells| {
            let budget = root_budget.halted_by(&halt);
            let (sub, dom) = sub_network(&net, &st.dom, cells, &local, &budget)?;
            let mut search = Search::within(&sub, State::new(&sub, dom), budget)?;
            let found = search.first();
            if let Ok(false) = found {
                // One region without a solution settles the whole level.
                halt.store(true, Ordering::Relaxed);
            }
            found.map(|ok| (ok.then(|| std::mem::take(&mut search.st.dom)), search.nodes))
        })
        .collect();
    stats.search_time = t2.elapsed();
    let mut stop = None;
    for (cells, result) in parts.iter().zip(results) {
        match result {
            Ok((Some(dom), nodes)) => {
                stats.nodes += nodes;
                for (&c, d) in cells.iter().zip(dom) {
                    st.dom[c as usize] = d;
                }
            }
            Ok((None, nodes)) => {
                stats.nodes += nodes;
                return (Outcome::NoSolution, stats);
            }
            Err(s) => stop = stop.or(Some(s)),
        }
    }
    match stop {
        Some(Stop::TimedOut) => return (Outcome::TimedOut, stats),
        Some(Stop::Cancelled) if !halt.load(Ordering::Relaxed) => {
            return (Outcome::Cancelled, stats);
        }
        _ => {}
    }

    let t3 = Instant::now();
    // The answer's masks take the domains' place, a byte each: a new array was 16 MB of
    // fresh pages at 4096x4096. The sides, demand words and flags go before verification.
    let mut masks = std::mem::take(&mut st.dom);
    drop(st);
    masks
        .par_iter_mut()
        .zip(compiled.shape.par_iter())
        .for_each(|(d, &s)| *d = compiled.shapes.get(s).masks[d.trailing_zeros() as usize]);
    // Checked on the masks before they make a level: the pieces by a table of canonical
    // masks rather than two turns per cell (a tenth of a 4096x4096 solve).
    let verdict = first_defect_on(level.board(), &masks);
    let same = level.board().same_pieces(&masks, level.masks());
    stats.verify_time = t3.elapsed();
    assert!(
        verdict.is_none() && same,
        "the solver's answer failed verification: {verdict:?}"
    );
    let solution = BoardLevel::new(level.board().clone(), masks).expect("same board");
    (Outcome::Solved(solution), stats)
}

/// Counts the solutions of `level`, or tells there are more than `limit`.
pub fn count(
    level: &BoardLevel,
    limit: Option<u64>,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<(Count, Stats), Stop> {
    count_until(level, limit, timeout, cancel, None)
}

/// [`count`] that also stops (`Stop::Cancelled`) once `halt` is raised.
pub fn count_until(
    level: &BoardLevel,
    limit: Option<u64>,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    halt: Option<&AtomicBool>,
) -> Result<(Count, Stats), Stop> {
    let t0 = Instant::now();
    let budget = Budget {
        cancel,
        halt,
        deadline: timeout.map(|t| t0 + t),
        outer: None,
    };
    let mut stats = Stats {
        cells: level.board().len(),
        ..Stats::default()
    };
    let compiled = compile(level);
    let net = compiled.network();
    let Some((st, parts)) = propagated(&net, &budget, &mut stats.probe_time)? else {
        return Ok((Count::Exact(BigUint::ZERO), stats));
    };
    stats.propagate_time = t0.elapsed();
    stats.fixed_after_propagation = st.dom.iter().filter(|d| d.count_ones() == 1).count();
    let local = LocalIndex::new(st.dom.len(), &parts);
    stats.regions = parts.len();
    stats.largest_region = parts.first().map_or(0, Vec::len);
    // A region's count is a `u64`: without a limit, one region past it can only be told
    // apart (never reached by a search in practice), while the product of the regions' counts
    // is exact at any size.
    let cap = limit.unwrap_or(u64::MAX - 1);
    // Smallest regions first: a region without a solution is found before a long count.
    let mut product = BigUint::from(1u32);
    // A limit of 0 is passed before any region is searched, by the one assignment of the
    // cells propagation decided.
    let mut over = limit == Some(0);
    for cells in parts.iter().rev() {
        let (sub, dom) = sub_network(&net, &st.dom, cells, &local, &budget)?;
        let mut search = Search::within(&sub, State::new(&sub, dom), budget)?;
        // Once the product is past the limit, only whether a region has a solution matters.
        let n = search.count(if over { 1 } else { cap })?;
        stats.nodes += search.nodes;
        if n == 0 {
            return Ok((Count::Exact(BigUint::ZERO), stats));
        }
        if !over {
            product *= n;
            over = n > cap || (limit.is_some() && product > BigUint::from(cap));
        }
    }
    Ok(match over {
        true => (Count::MoreThan(cap), stats),
        false => (Count::Exact(product), stats),
    })
}

/// Up to two solutions of `level`, each verified: none, the only one, or two that differ
/// (in one region). What uniqueness checks and the unique generator need.
pub fn two_solutions(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<Vec<BoardLevel>, Stop> {
    two_solutions_until(level, timeout, cancel, None)
}

/// [`two_solutions`] that also stops (`Stop::Cancelled`) once `halt` is raised.
pub fn two_solutions_until(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    halt: Option<&AtomicBool>,
) -> Result<Vec<BoardLevel>, Stop> {
    let budget = Budget {
        cancel,
        halt,
        deadline: timeout.map(|t| Instant::now() + t),
        outer: None,
    };
    let compiled = compile(level);
    let net = compiled.network();
    let mut probe_time = Duration::ZERO;
    let Some((mut st, parts)) = propagated(&net, &budget, &mut probe_time)? else {
        return Ok(Vec::new());
    };
    let local = LocalIndex::new(st.dom.len(), &parts);
    let mut second: Option<(usize, Vec<u8>)> = None;
    for (i, cells) in parts.iter().enumerate().rev() {
        let (sub, dom) = sub_network(&net, &st.dom, cells, &local, &budget)?;
        let mut search = Search::within(&sub, State::new(&sub, dom), budget)?;
        let mut found: Vec<Vec<u8>> = Vec::new();
        // Once one region has two solutions, the others need only one.
        let want = if second.is_some() { 1 } else { 2 };
        search.each(|s| {
            found.push(s.dom.clone());
            found.len() < want
        })?;
        let mut found = found.into_iter();
        let Some(first) = found.next() else {
            return Ok(Vec::new());
        };
        if let Some(other) = found.next() {
            second = Some((i, other));
        }
        for (&c, d) in cells.iter().zip(first) {
            st.dom[c as usize] = d;
        }
    }
    let assemble = |dom: &[u8]| {
        let masks: Vec<u8> = dom
            .iter()
            .zip(compiled.shape.iter())
            .map(|(&d, &s)| compiled.shapes.get(s).masks[d.trailing_zeros() as usize])
            .collect();
        assert!(
            first_defect_on(level.board(), &masks).is_none()
                && level.board().same_pieces(&masks, level.masks()),
            "the solver's answer failed verification"
        );
        BoardLevel::new(level.board().clone(), masks).expect("same board")
    };
    let mut out = vec![assemble(&st.dom)];
    if let Some((i, other)) = second {
        for (&c, d) in parts[i].iter().zip(other) {
            st.dom[c as usize] = d;
        }
        out.push(assemble(&st.dom));
    }
    Ok(out)
}

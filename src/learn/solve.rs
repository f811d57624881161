//! The entry points: a level of any board solved by learning, the answer verified by the
//! board's verifier (which shares nothing with this search) before it is returned; "no
//! solution" only when the empty clause was derived.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::edges::Edges;
use super::local::Paused;
use super::net::TreeTheory;
use super::race::{race, two_threads};
use super::search::{Counters, Phases, Solver, TUNING, Tuning};
use crate::anyboard::net_verify::first_fault;
use crate::anyboard::search::{Budget, Stop};
use crate::anyboard::solve::Outcome;
use crate::board::{BoardLevel, Rules};

/// Figures of one learning solve, for `--stats` and `--json`.
#[derive(Clone, Debug, Default)]
pub struct LearnStats {
    /// Cells of the board.
    pub cells: usize,
    /// Variables: pairs of facing sides a connection may cross.
    pub edges: usize,
    /// The search's counters.
    pub counters: Counters,
    /// Building the edges and tables.
    pub setup_time: Duration,
    /// The search, root propagation included.
    pub search_time: Duration,
    /// Verifying the answer.
    pub verify_time: Duration,
}

impl LearnStats {
    /// Mean literals per learned clause.
    pub fn mean_learned_size(&self) -> f64 {
        self.counters.learned_literals as f64 / self.counters.learned.max(1) as f64
    }

    /// These figures in the any-board engine's form (`--stats`, `--json`).
    pub fn as_engine_stats(&self) -> crate::anyboard::Stats {
        crate::anyboard::Stats {
            cells: self.cells,
            fixed_after_propagation: self.counters.fixed_cells as usize,
            regions: self.counters.regions as usize,
            largest_region: self.counters.largest_region as usize,
            nodes: self.counters.decisions,
            propagate_time: self.setup_time,
            search_time: self.search_time,
            verify_time: self.verify_time,
            ..crate::anyboard::Stats::default()
        }
    }

    /// Mean levels undone per conflict.
    pub fn mean_backjump(&self) -> f64 {
        self.counters.backjumped_levels as f64 / self.counters.conflicts.max(1) as f64
    }
}

/// Solves `level` (under its rules; barriers and locks allowed) by conflict learning.
pub fn solve(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, LearnStats) {
    let (outcome, stats, _) = run(level, timeout, cancel, false, Phases::Matching);
    (outcome, stats)
}

/// [`solve`], also returning the search when its time ran out and it can be carried on.
pub(super) fn solve_pausing(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, LearnStats, Option<Paused>) {
    let ran = run_with(level, timeout, cancel, Run::matching(None, TUNING, None));
    (ran.outcome, ran.stats, ran.paused)
}

/// [`solve`] that also stops once `halt` is raised (another search settled the question).
pub(super) fn solve_halting(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    halt: &AtomicBool,
) -> Outcome {
    run_with(
        level,
        timeout,
        cancel,
        Run::matching(Some(halt), TUNING, None),
    )
    .outcome
}

/// A clause over the level's sides: each literal a cell, one of its sides, and whether the
/// literal says "connected".
pub type SideClause = Vec<(usize, usize, bool)>;

/// What a recorded run learned (tests).
#[derive(Default)]
#[cfg_attr(not(test), expect(dead_code, reason = "only the tests record"))]
pub(crate) struct Recorded {
    /// Every clause learned, the tree theory's lemmas and reasons among them.
    pub learned: Vec<SideClause>,
    /// Net rules: the tree theory's lemmas and reasons alone.
    pub tree: Vec<SideClause>,
}

/// `-m learn`: one search for 1 s plus 8 µs a cell, then [`solve_raced`] for the time left,
/// carrying that search on.
pub fn solve_learning(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, LearnStats) {
    let t0 = Instant::now();
    let alone = Duration::from_secs(1) + Duration::from_micros(8 * level.board().len() as u64);
    if timeout.is_some_and(|t| t <= alone) {
        return solve(level, timeout, cancel);
    }
    let (outcome, stats, paused) = solve_pausing(level, Some(alone), cancel);
    if !matches!(outcome, Outcome::TimedOut) || cancel.load(Ordering::Relaxed) {
        return (outcome, stats);
    }
    solve_raced(
        level,
        timeout.map(|t| t.saturating_sub(t0.elapsed())),
        cancel,
        paused,
    )
}

/// [`solve`] on two threads when the pool has them and the level is one region (see
/// [`one_region`]): two searches that differ in their activity decay, the first answer winning
/// and stopping the other. One search of such a level leaves the second core idle, and
/// their times vary several-fold with the restarts; but two at once slow the levels one
/// search settles quickly (hexagonal dominoes 1024x1024: 0.45 s against 0.64 s), so
/// callers race only after one search had its time. Otherwise [`solve`]. The first search
/// carries on `resume`, the search of the slice before, when there is one; on one thread
/// that search alone is carried on.
pub(super) fn solve_raced(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    resume: Option<Paused>,
) -> (Outcome, LearnStats) {
    if !two_threads() || level.rules() == Rules::Net || !one_region(level) {
        let ran = run_with(level, timeout, cancel, Run::matching(None, TUNING, resume));
        return (ran.outcome, ran.stats);
    }
    let search = |resume, tuning, settled: &AtomicBool| {
        let how = Run::matching(Some(settled), tuning, resume);
        let ran = run_with(level, timeout, cancel, how);
        (ran.outcome, ran.stats)
    };
    race([resume, None], search, |(outcome, _)| {
        matches!(outcome, Outcome::Solved(_) | Outcome::NoSolution)
    })
}

/// How [`run_with`] searches.
struct Run<'a> {
    /// Raised when another search settled the level.
    halt: Option<&'a AtomicBool>,
    tuning: Tuning,
    /// Keep every clause learned (tests).
    record: bool,
    phases: Phases,
    /// A search of the level's one region to carry on ([`Paused`]) instead of a new one.
    resume: Option<Paused>,
}

impl<'a> Run<'a> {
    /// A search from the near-solution's phases that records nothing.
    fn matching(halt: Option<&'a AtomicBool>, tuning: Tuning, resume: Option<Paused>) -> Self {
        Run {
            halt,
            tuning,
            record: false,
            phases: Phases::Matching,
            resume,
        }
    }
}

/// What [`run_with`] found.
struct Ran {
    outcome: Outcome,
    stats: LearnStats,
    recorded: Recorded,
    /// The one-region search, when its time ran out.
    paused: Option<Paused>,
}

/// [`solve`], also returning, with `record`, every clause the search learned (for tests).
pub(crate) fn run(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    record: bool,
    phases: Phases,
) -> (Outcome, LearnStats, Recorded) {
    let how = Run {
        halt: None,
        tuning: TUNING,
        record,
        phases,
        resume: None,
    };
    let ran = run_with(level, timeout, cancel, how);
    (ran.outcome, ran.stats, ran.recorded)
}

/// [`run`] as `how` says.
fn run_with(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    how: Run<'_>,
) -> Ran {
    let Run {
        halt,
        tuning,
        record,
        phases,
        resume,
    } = how;
    let t0 = Instant::now();
    let budget = Budget {
        cancel,
        halt,
        deadline: timeout.map(|t| t0 + t),
        outer: None,
    };
    let mut stats = LearnStats {
        cells: level.board().len(),
        ..LearnStats::default()
    };
    if let Some(paused) = resume {
        stats.edges = paused.edges();
        let search = || super::local::resume(paused, &budget, tuning);
        return one_region_search(level, search, stats);
    }
    let edges = Edges::new(level);
    stats.edges = edges.connections();
    let net = level.rules() == Rules::Net;
    if !net && !record && phases == Phases::Matching && one_region(level) {
        stats.setup_time = t0.elapsed();
        let search =
            || super::local::solve_region(edges, &budget, false, (Phases::Matching, tuning));
        return one_region_search(level, search, stats);
    }
    // Under Infinity rules this solver only propagates at the root: each region's search
    // makes its own phases.
    let mut solver = if net {
        Solver::new(edges, phases)
    } else {
        Solver::for_root(edges)
    };
    if net {
        solver.net = Some(TreeTheory::new(&solver.e));
        solver.record = record.then(Vec::new);
        solver.record_tree = record.then(Vec::new);
    }
    stats.setup_time = t0.elapsed();
    let t1 = Instant::now();
    let mut learned = Vec::new();
    // Per cell, the mask of its turn when solved.
    let end: Result<Option<Vec<u8>>, Stop> = match budget.check() {
        Err(s) => Err(s),
        Ok(()) if !solver.root() => Ok(None),
        // One tree joins the whole board: no region stands alone.
        Ok(()) if net => solver
            .search(&budget)
            .map(|ok| ok.then(|| solver.e.turns(solver.values()).collect())),
        Ok(()) => super::regions::search_regions(
            &mut solver,
            &budget,
            record.then_some(&mut learned),
            phases,
        ),
    };
    if let Some(r) = solver.record.take() {
        learned = r;
    }
    stats.search_time = t1.elapsed();
    stats.counters = solver.stats.clone();
    let sides = |clauses: &[Vec<u32>]| -> Vec<SideClause> {
        clauses
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&l| {
                        let end = solver.e.ends(l >> 1)[0];
                        ((end >> 3) as usize, (end & 7) as usize, l & 1 == 0)
                    })
                    .collect()
            })
            .collect()
    };
    let recorded = Recorded {
        learned: sides(&learned),
        tree: sides(solver.record_tree.as_deref().unwrap_or_default()),
    };
    let outcome = verified(level, end, &mut stats);
    Ran {
        outcome,
        stats,
        recorded,
        paused: None,
    }
}

/// The outcome of `search`, the search of a level that is one region (see [`one_region`]):
/// a new one or one carried on.
fn one_region_search(
    level: &BoardLevel,
    search: impl FnOnce() -> super::local::Answer,
    mut stats: LearnStats,
) -> Ran {
    let t1 = Instant::now();
    let answer = search();
    stats.search_time = t1.elapsed();
    stats.counters = answer.stats;
    stats.counters.regions = 1;
    stats.counters.largest_region = stats.cells as u64;
    let end = answer.end.map(|solved| solved.then_some(answer.masks));
    let outcome = verified(level, end, &mut stats);
    Ran {
        outcome,
        stats,
        recorded: Recorded::default(),
        paused: answer.paused,
    }
}

/// Whether `level` is searched as one region without a root propagation first: a level of
/// mostly one-end pieces (two cells in three), whose root propagation decides almost
/// nothing (843 of 16.8 million cells of a 4096x4096 hexagonal level) and leaves one region
/// of nearly every cell, which was copied whole (with the root pass and the region split,
/// 15 % of a 1024x1024 hexagonal solve). Without barriers a board's cells are joined by
/// its edges, as a region's are.
fn one_region(level: &BoardLevel) -> bool {
    !level.has_barriers() && super::auto::one_end_heavy(level)
}

/// The outcome of a search that ended with `end` (per cell, the mask of its turn when
/// solved), its answer verified first.
fn verified(
    level: &BoardLevel,
    end: Result<Option<Vec<u8>>, Stop>,
    stats: &mut LearnStats,
) -> Outcome {
    match end {
        Ok(Some(masks)) => {
            let t = Instant::now();
            let mut solved = level.clone();
            solved.masks_mut().copy_from_slice(&masks);
            assert!(
                first_fault(&solved).is_none() && solved.is_turning_of(level),
                "the learning search's answer failed verification"
            );
            stats.verify_time = t.elapsed();
            Outcome::Solved(solved)
        }
        Ok(None) => Outcome::NoSolution,
        Err(Stop::TimedOut) => Outcome::TimedOut,
        Err(Stop::Cancelled) => Outcome::Cancelled,
    }
}

/// `-m learn` on a course-format level (the bounded square engine's front door).
pub fn solve_game(
    game: &crate::model::Game,
    opts: &crate::solve::SolveOptions,
    cancel: &AtomicBool,
) -> (crate::solve::Outcome, crate::solve::SolveStats) {
    use crate::solve::{Outcome as GameOutcome, SolveStats};
    let level = BoardLevel::from_game(game);
    let (outcome, st) = solve(&level, opts.timeout, cancel);
    let mut stats = SolveStats {
        cells: game.len(),
        threads: 1,
        region_sizes: vec![game.len()],
        jobs: 1,
        propagate_time: st.setup_time,
        search_time: st.search_time,
        ..SolveStats::default()
    };
    stats.counters.nodes = st.counters.decisions;
    stats.counters.backtracks = st.counters.conflicts;
    stats.counters.restarts = st.counters.restarts;
    match outcome {
        Outcome::Solved(s) => {
            let g = s
                .to_game()
                .expect("a course level's answer is a course level");
            crate::solve::verified(g, stats)
        }
        Outcome::NoSolution => (GameOutcome::Unsolvable, stats),
        Outcome::TimedOut => (GameOutcome::TimedOut, stats),
        Outcome::Cancelled => (GameOutcome::Cancelled, stats),
    }
}

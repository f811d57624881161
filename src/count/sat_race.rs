//! A limited count races a SAT enumeration once the first solution is known. The counting
//! search learns nothing from its failures, and on levels of many short paths (a window of a
//! generated dominoes level) it needs tens of millions of nodes to rule out a second solution
//! that clause learning finds or refutes in milliseconds; where the search is quick, the SAT
//! side is stopped as soon as it answers. The SAT side encodes the level, rules out the known
//! solution and each model it finds (`cnf::block_solution`, `cnf::block_model`), and goes on
//! from its learned clauses until the limit or unsatisfiability.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use super::{CountOutcome, CountStats, SatRace};
use crate::cnf::sat::{ModelCount, SatEnd, count_models};
use crate::cnf::{block_model, block_solution, encode_domains_until};
use crate::model::Game;
use crate::solve::Start;

/// Levels up to this many cells race: the formula costs about 2 KB a cell, so larger levels
/// would pay hundreds of megabytes for a racer that easy levels never need.
pub const MAX_CELLS: usize = 1 << 16;
/// Limits (K + 1 solutions to look for) up to this race: each model found costs one more SAT
/// run, so large limits are the counting search's work.
pub const MAX_LIMIT: u64 = 64;
/// The SAT side waits this long before it starts: most limited counts end sooner, and then it
/// costs neither a core nor memory (128x128 dist.1 `--count-limit 2`, 20-30 ms, took 60-80 ms
/// with both sides started at once on a loaded machine).
const HEAD_START: Duration = Duration::from_millis(10);

/// Whether a count for `limit` solutions of `game` races SAT.
pub fn worth_racing(game: &Game, limit: u64) -> bool {
    game.len() <= MAX_CELLS && limit <= MAX_LIMIT
}

/// Counts the solutions of `game` up to `requested` + 1 (one of them, `first`, known): the
/// counting search `engine` on this thread, stopped through the flag it is given, against the
/// SAT enumeration on another; the first decisive answer wins and stops the other.
pub fn race(
    game: &Game,
    first: &Game,
    requested: u64,
    cancel: &AtomicBool,
    deadline: Option<Instant>,
    engine: impl FnOnce(&AtomicBool) -> (CountOutcome, CountStats),
) -> (CountOutcome, CountStats) {
    let domains = first_pass_domains(game, cancel);
    let sat_done = AtomicBool::new(false);
    let engine_done = AtomicBool::new(false);
    let (by_engine, by_sat) = std::thread::scope(|s| {
        let sat = s.spawn(|| {
            let start = Instant::now() + HEAD_START;
            while !engine_done.load(Ordering::Relaxed) && Instant::now() < start {
                std::thread::park_timeout(start.saturating_duration_since(Instant::now()));
            }
            let stops = (cancel, &engine_done, deadline);
            let r = sat_count(game, domains.as_deref(), first, requested, stops);
            sat_done.store(true, Ordering::Relaxed);
            r
        });
        let by_engine = engine(&sat_done);
        engine_done.store(true, Ordering::Relaxed);
        sat.thread().unpark();
        (by_engine, sat.join().expect("the SAT racer does not panic"))
    });
    let (outcome, mut stats) = by_engine;
    let (sat_outcome, conflicts) = by_sat;
    let won = sat_outcome.is_some();
    stats.sat = Some(SatRace { won, conflicts });
    let decisive =
        |o: &CountOutcome| matches!(o, CountOutcome::Exact(_) | CountOutcome::AtLeast(_));
    let outcome = match sat_outcome {
        Some(o) => o,
        None if decisive(&outcome) => outcome,
        // Both stopped: the engine saw the SAT side's flag, so say why from the caller's.
        None if cancel.load(Ordering::Relaxed) => CountOutcome::Cancelled,
        None => CountOutcome::TimedOut,
    };
    (outcome, stats)
}

/// The domains the first propagation pass leaves (row-major), for the SAT side's formula:
/// on a level propagation mostly settles, the formula of what it leaves is a fraction of the
/// whole one, and loads and solves in a fraction of the time (a 64x64 window of a unique
/// dominoes level: 52k clauses instead of 120k, 14-17 ms instead of about 40). Computed on
/// the caller's thread: the pass uses the thread pool, and a pool worker that runs a count
/// waits for the SAT thread, so the SAT thread must not wait for the pool (it deadlocked).
fn first_pass_domains(game: &Game, cancel: &AtomicBool) -> Option<Vec<u8>> {
    let start = Start::until(game, 1, &|| cancel.load(Ordering::Relaxed))?;
    start.consistent.then(|| start.grid_domains())
}

/// The SAT side over the formula of `game` narrowed to `domains` (if any): `Some` count
/// when it finished, with its conflicts. It stops on the cancel flag, once the engine is
/// done, or at the deadline.
fn sat_count(
    game: &Game,
    domains: Option<&[u8]>,
    first: &Game,
    requested: u64,
    (cancel, engine_done, deadline): (&AtomicBool, &AtomicBool, Option<Instant>),
) -> (Option<CountOutcome>, u64) {
    let stopped = || {
        cancel.load(Ordering::Relaxed)
            || engine_done.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    let Some(cnf) = encode_domains_until(game, domains, &stopped) else {
        return (None, 0);
    };
    let known = [block_solution(&cnf, first)];
    let block = |values: &[bool]| block_model(&cnf, game, values);
    let (count, counters) = count_models(
        cnf.vars,
        cnf.clauses(),
        &known,
        requested,
        &block,
        cancel,
        engine_done,
        deadline,
    );
    let outcome = match count {
        ModelCount::Exact(n) => Some(CountOutcome::Exact(BigUint::from(1 + n))),
        ModelCount::Reached => Some(CountOutcome::AtLeast(requested)),
        ModelCount::Stopped(SatEnd::Cancelled | SatEnd::TimedOut) => None,
        ModelCount::Stopped(_) => None,
    };
    (outcome, counters.conflicts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{CountOptions, count_solutions};
    use crate::generate::{Family, GenerateOptions, generate_with_solution};

    fn exact(game: &Game) -> u64 {
        let opts = CountOptions {
            limit: None,
            timeout: None,
        };
        match count_solutions(game, &opts, &AtomicBool::new(false)).0 {
            CountOutcome::Exact(n) => u64::try_from(n).unwrap(),
            other => panic!("unexpected {other:?}"),
        }
    }

    /// The SAT side alone, from the generator's solution, against the exact count of the
    /// counting search, for every limit up to beyond the count.
    #[test]
    fn the_sat_side_counts_what_the_search_counts() {
        let families = [
            Family::Dominoes,
            Family::Random,
            Family::Loops,
            Family::Mixed,
        ];
        let no = AtomicBool::new(false);
        let mut several = 0;
        for seed in 0..24u64 {
            let mut o = GenerateOptions::new(4 + seed as usize % 3, 5, seed);
            o.family = families[seed as usize % families.len()];
            let (solution, game) = generate_with_solution(&o);
            let truth = exact(&game);
            several += usize::from(truth > 1);
            for k in 1..=truth + 1 {
                let domains = first_pass_domains(&game, &no);
                assert!(domains.is_some());
                let (got, _) = sat_count(&game, domains.as_deref(), &solution, k, (&no, &no, None));
                let (whole, _) = sat_count(&game, None, &solution, k, (&no, &no, None));
                assert_eq!(got, whole, "seed {seed}, limit {k}");
                let want = if truth > k {
                    CountOutcome::AtLeast(k)
                } else {
                    CountOutcome::Exact(BigUint::from(truth))
                };
                assert_eq!(got, Some(want), "seed {seed}, limit {k}, {truth} solutions");
            }
        }
        assert!(several >= 6, "only {several} levels with several solutions");
    }

    /// A raised flag stops the SAT side without an answer, and the race then says why.
    #[test]
    fn a_stopped_race_says_cancelled() {
        let mut o = GenerateOptions::new(6, 6, 3);
        o.family = Family::Dominoes;
        let (solution, game) = generate_with_solution(&o);
        let raised = AtomicBool::new(true);
        let no = AtomicBool::new(false);
        assert_eq!(
            sat_count(&game, None, &solution, 2, (&raised, &no, None)).0,
            None
        );
        let (outcome, stats) = race(&game, &solution, 2, &raised, None, |_| {
            (CountOutcome::Cancelled, CountStats::default())
        });
        assert_eq!(outcome, CountOutcome::Cancelled);
        assert_eq!(stats.sat.map(|s| s.won), Some(false));
    }
}

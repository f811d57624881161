//! A solution other than a known one, or the proof that there is none, by conflict learning:
//! the level's constraints plus one clause, "some connection differs from the known
//! solution's", searched from the known solution's connections as first phases. Telling one
//! solution from two this way is one satisfiability question, where enumerating the
//! solutions of a large region can go on without end: a 33x33 torus of dominoes, solved in
//! 10 ms, had no answer from the engine's enumeration in 30 s. Infinity rules (Net rules have
//! their own enumeration).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::edges::Edges;
use super::search::{DECISION, Solver};
use super::solve::solve_halting;
use crate::anyboard::net_verify::first_fault;
use crate::anyboard::search::{Budget, Stop};
use crate::anyboard::solve::{count_until, two_solutions_until};
use crate::anyboard::{
    Count, Outcome, Stats, count_level, solve_level, takes_square_engine, two_solutions_level,
};
use crate::board::{BoardLevel, Rules};

/// The engine's head start: 20 ms and 50 ns a cell. Most levels' enumeration ends sooner,
/// and learning's setup (its tables and a near-solution, not interrupted) would then only
/// delay the answer: a unique 128x128 hexagonal random level took 5 ms alone and 14 ms with
/// both started at once, a 1024x1024 one 66 ms and 76 ms after a head start of 20 ms.
fn head_start(cells: usize) -> Duration {
    Duration::from_millis(20) + Duration::from_nanos(50 * cells as u64)
}

/// Up to two solutions of `level`, each verified: none, the only one, or two (what
/// `--unique-check` asks). Under Infinity rules the engine's enumeration
/// ([`crate::anyboard::two_solutions`]), quick where propagation leaves small regions, races
/// learning (a solution, then [`another_solution`]) on a thread of its own; the first answer
/// stops the other. Net rules, barriers and locks keep the Net engine's enumeration.
pub fn two_solutions(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<Vec<BoardLevel>, Stop> {
    // The engine's enumeration on these is the Net engine's, which has no halt flag.
    if level.needs_net_engine() || level.odd_ends() {
        return two_solutions_level(level, timeout, cancel);
    }
    raced(
        level,
        timeout,
        cancel,
        |halt| two_solutions_until(level, timeout, cancel, Some(halt)),
        |deadline, halt| learned_solutions(level, 2, deadline, cancel, halt),
    )
}

/// Limits of a count below this many solutions are raced by learning, which finds each
/// solution past the first by a search of its own with one clause more per solution known.
const LEARNED_COUNT: u64 = 16;

/// The solutions of `level` counted, or more than `limit` of them told (what `--count
/// --count-limit K` asks). A small limit under Infinity rules is [`two_solutions`]' race:
/// the engine's count against learning's solutions one after another, each excluding those
/// before. The engine's enumeration alone had no answer in 30 s on a 33x33 torus of
/// dominoes with several solutions, which learning tells in milliseconds. Otherwise the
/// engine's count ([`count_level`]).
pub fn count_limited(
    level: &BoardLevel,
    limit: Option<u64>,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<(Count, Stats), Stop> {
    let Some(k) = limit.filter(|&k| k < LEARNED_COUNT) else {
        return count_level(level, limit, timeout, cancel);
    };
    if level.needs_net_engine() || level.odd_ends() {
        return count_level(level, limit, timeout, cancel);
    }
    raced(
        level,
        timeout,
        cancel,
        |halt| count_until(level, limit, timeout, cancel, Some(halt)),
        |deadline, halt| {
            let count = learned_count(level, k, deadline, cancel, halt)?;
            // Learning's own figures are not the engine's: only the board's size carries.
            let stats = Stats {
                cells: level.board().len(),
                ..Stats::default()
            };
            Ok((count, stats))
        },
    )
}

/// The solutions of `level` counted by learning ([`learned_solutions`]), or more than `limit`
/// of them told.
fn learned_count(
    level: &BoardLevel,
    limit: u64,
    deadline: Option<Instant>,
    cancel: &AtomicBool,
    halt: &AtomicBool,
) -> Result<Count, Stop> {
    let n = limit.saturating_add(1).try_into().unwrap_or(usize::MAX);
    let found = learned_solutions(level, n, deadline, cancel, halt)?.len() as u64;
    Ok(if found > limit {
        Count::MoreThan(limit)
    } else {
        Count::Exact(found.into())
    })
}

/// `engine(halt)` on this thread against `learning(deadline, halt)` on a thread of its own,
/// started after [`head_start`]: the first answer raises `halt`, which stops the other.
fn raced<R: Send>(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    engine: impl FnOnce(&AtomicBool) -> Result<R, Stop>,
    learning: impl FnOnce(Option<Instant>, &AtomicBool) -> Result<R, Stop> + Send,
) -> Result<R, Stop> {
    let deadline = timeout.map(|t| Instant::now() + t);
    let halt = AtomicBool::new(false);
    let (by_engine, by_learning) = std::thread::scope(|scope| {
        let learning = scope.spawn(|| {
            let start = Instant::now() + head_start(level.board().len());
            while !halt.load(Ordering::Relaxed) && Instant::now() < start {
                std::thread::park_timeout(start.saturating_duration_since(Instant::now()));
            }
            if halt.load(Ordering::Relaxed) {
                return Err(Stop::Cancelled);
            }
            let r = learning(deadline, &halt);
            if r.is_ok() {
                halt.store(true, Ordering::Relaxed);
            }
            r
        });
        let r = engine(&halt);
        // An answer, or the user's cancel (which a search on `halt` alone would not see).
        if r.is_ok() || cancel.load(Ordering::Relaxed) {
            halt.store(true, Ordering::Relaxed);
        }
        learning.thread().unpark();
        (
            r,
            learning.join().expect("the learning search does not panic"),
        )
    });
    match (by_engine, by_learning) {
        (Ok(r), _) | (_, Ok(r)) => Ok(r),
        // Neither answered: the user's reasons come first (a halt only follows an answer).
        (Err(e), _) => Err(if cancel.load(Ordering::Relaxed) {
            Stop::Cancelled
        } else {
            e
        }),
    }
}

/// Up to `n` (at least one) solutions of `level` by learning: a solution, then others, each
/// differing from all found before.
fn learned_solutions(
    level: &BoardLevel,
    n: usize,
    deadline: Option<Instant>,
    cancel: &AtomicBool,
    halt: &AtomicBool,
) -> Result<Vec<BoardLevel>, Stop> {
    let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    // On a square board that wraps with even lengths the square engine's witness finds the
    // first solution where learning searched for seconds (three-cell paths on a 256x256
    // torus: 2.2 s against 10 s). It reads one flag: the race's halt, which the user's
    // cancel raises too ([`raced`]).
    let first = if takes_square_engine(level) {
        solve_level(level, left, halt).0
    } else {
        solve_halting(level, left, cancel, halt)
    };
    let first = match first {
        Outcome::Solved(s) => s,
        Outcome::NoSolution => return Ok(Vec::new()),
        Outcome::TimedOut => return Err(Stop::TimedOut),
        Outcome::Cancelled => return Err(Stop::Cancelled),
    };
    let budget = Budget {
        cancel,
        halt: Some(halt),
        deadline,
        outer: None,
    };
    let mut found = vec![first];
    while found.len() < n {
        match another_solution(level, &found, &budget)? {
            Some(other) => found.push(other),
            None => break,
        }
    }
    Ok(found)
}

/// A verified solution of `level` whose connections differ somewhere from each of `known`
/// (solutions of `level`, at least one), or `None` when there is no other. Its search starts
/// from the last known solution's connections as first phases.
pub fn another_solution(
    level: &BoardLevel,
    known: &[BoardLevel],
    budget: &Budget,
) -> Result<Option<BoardLevel>, Stop> {
    assert_eq!(
        level.rules(),
        Rules::Infinity,
        "Net rules enumerate otherwise"
    );
    let last = known.last().expect("a known solution");
    let e = Edges::new(level);
    let mut missing = vec![false; e.len()];
    for v in e.missing() {
        missing[v as usize] = true;
    }
    let value_in = |sol: &BoardLevel, v: u32| {
        let end = e.ends(v)[0];
        sol.masks()[(end >> 3) as usize] >> (end & 7) & 1
    };
    let phase: Vec<u8> = (0..e.len() as u32)
        .map(|v| {
            if missing[v as usize] {
                0
            } else {
                value_in(last, v)
            }
        })
        .collect();
    // Per known solution and edge, the literal that says it differs: "not connected" where
    // that solution connects it (`2v + 1`), "connected" where it does not (`2v`).
    let differs: Vec<Vec<u32>> = known
        .iter()
        .map(|sol| {
            (0..e.len() as u32)
                .filter(|&v| !missing[v as usize])
                .map(|v| 2 * v + u32::from(value_in(sol, v) == 1))
                .collect()
        })
        .collect();
    let mut s = Solver::with_phases(e, phase);
    for clause in &differs {
        match clause[..] {
            // No edge to differ on: the known solution is the only one.
            [] => return Ok(None),
            [l] => match s.lit_value(l) {
                0 => return Ok(None),
                1 => {}
                _ => s.assign(l, DECISION),
            },
            // A glue clause: reduction never drops it.
            _ => {
                s.db.add(clause, 1);
            }
        }
    }
    if !s.run(budget)? {
        return Ok(None);
    }
    let mut other = level.clone();
    for (m, t) in other.masks_mut().iter_mut().zip(s.e.turns(s.values())) {
        *m = t;
    }
    assert!(
        first_fault(&other).is_none()
            && other.is_turning_of(level)
            && known.iter().all(|k| other.masks() != k.masks()),
        "the next solution failed verification"
    );
    Ok(Some(other))
}

/// [`another_solution`] with no deadline, stopped by `cancel` only (tests).
#[cfg(test)]
pub(crate) fn another_solution_until(
    level: &BoardLevel,
    known: &BoardLevel,
    cancel: &AtomicBool,
) -> Result<Option<BoardLevel>, Stop> {
    let budget = Budget {
        cancel,
        halt: None,
        outer: None,
        deadline: None,
    };
    another_solution(level, std::slice::from_ref(known), &budget)
}

/// [`learned_solutions`] with no deadline, stopped by `cancel` only (tests).
#[cfg(test)]
pub(crate) fn learned_solutions_until(
    level: &BoardLevel,
    n: usize,
    cancel: &AtomicBool,
) -> Result<Vec<BoardLevel>, Stop> {
    learned_solutions(level, n, None, cancel, &AtomicBool::new(false))
}

/// [`learned_count`] with no deadline, stopped by `cancel` only (tests).
#[cfg(test)]
pub(crate) fn learned_count_until(
    level: &BoardLevel,
    limit: u64,
    cancel: &AtomicBool,
) -> Result<Count, Stop> {
    learned_count(level, limit, None, cancel, &AtomicBool::new(false))
}

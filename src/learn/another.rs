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
use crate::anyboard::solve::two_solutions_until;
use crate::anyboard::{Outcome, two_solutions_level};
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
            let r = by_learning(level, deadline, cancel, &halt);
            if r.is_ok() {
                halt.store(true, Ordering::Relaxed);
            }
            r
        });
        let r = two_solutions_until(level, timeout, cancel, Some(&halt));
        if r.is_ok() {
            halt.store(true, Ordering::Relaxed);
        }
        learning.thread().unpark();
        (
            r,
            learning.join().expect("the learning search does not panic"),
        )
    });
    match (by_engine, by_learning) {
        (Ok(sols), _) | (_, Ok(sols)) => Ok(sols),
        // Neither answered: the user's reasons come first (a halt only follows an answer).
        (Err(e), _) => Err(if cancel.load(Ordering::Relaxed) {
            Stop::Cancelled
        } else {
            e
        }),
    }
}

/// A solution by learning, then another one: up to two solutions of `level`.
fn by_learning(
    level: &BoardLevel,
    deadline: Option<Instant>,
    cancel: &AtomicBool,
    halt: &AtomicBool,
) -> Result<Vec<BoardLevel>, Stop> {
    let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let first = match solve_halting(level, left, cancel, halt) {
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
    Ok(match another_solution(level, &first, &budget)? {
        Some(other) => vec![first, other],
        None => vec![first],
    })
}

/// A verified solution of `level` whose connections differ somewhere from `known` (a
/// solution of `level`), or `None` when `known` is the only one.
pub fn another_solution(
    level: &BoardLevel,
    known: &BoardLevel,
    budget: &Budget,
) -> Result<Option<BoardLevel>, Stop> {
    assert_eq!(
        level.rules(),
        Rules::Infinity,
        "Net rules enumerate otherwise"
    );
    let e = Edges::new(level);
    let mut missing = vec![false; e.len()];
    for v in e.missing() {
        missing[v as usize] = true;
    }
    let known_value = |v: u32| {
        let end = e.ends(v)[0];
        known.masks()[(end >> 3) as usize] >> (end & 7) & 1
    };
    let phase: Vec<u8> = (0..e.len() as u32)
        .map(|v| {
            if missing[v as usize] {
                0
            } else {
                known_value(v)
            }
        })
        .collect();
    // Per edge, the literal that says it differs: "not connected" where the known solution
    // connects it (`2v + 1`), "connected" where it does not (`2v`).
    let differs: Vec<u32> = (0..e.len() as u32)
        .filter(|&v| !missing[v as usize])
        .map(|v| 2 * v + u32::from(known_value(v) == 1))
        .collect();
    let mut s = Solver::with_phases(e, phase);
    match differs.len() {
        0 => return Ok(None),
        1 => s.assign(differs[0], DECISION),
        // A glue clause: reduction never drops it.
        _ => {
            s.db.add(&differs, 1);
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
            && other.masks() != known.masks(),
        "the second solution failed verification"
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
    another_solution(level, known, &budget)
}

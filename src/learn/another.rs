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
/// learning (a solution, then another by [`Beside`]) on a thread of its own; the first answer
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

/// Limits of a count below this many solutions are raced by learning, whose one search past
/// the first solution carries a clause more per solution found.
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
    let raced_limit = limit.filter(|&k| k < LEARNED_COUNT);
    let Some(k) = raced_limit.filter(|_| !level.needs_net_engine() && !level.odd_ends()) else {
        return count_level(level, limit, timeout, cancel);
    };
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
    if n > 1 {
        // One search for all the others, each found solution excluded in turn: what it
        // learned looking for one carries over to the next.
        let mut beside = Beside::new(level, &found);
        while found.len() < n {
            match beside.next(level, &found, &budget)? {
                Some(other) => {
                    beside.exclude(&other);
                    found.push(other);
                }
                None => break,
            }
        }
    }
    Ok(found)
}

/// Learning's search for solutions of a level other than the known ones: the level's
/// constraints plus, per known solution, the clause "some connection differs from it".
struct Beside {
    s: Solver,
    /// Per edge, whether it is missing (facing a border or a barrier: never connected).
    missing: Vec<bool>,
    /// No solution is left: a known one had no edge to differ on, or a clause failed at
    /// the root.
    exhausted: bool,
    /// Whether the search ran (the next one goes on from its root, without re-propagating
    /// every cell).
    started: bool,
}

impl Beside {
    /// The search beside `known` (at least one), from the last one's connections as first
    /// phases.
    fn new(level: &BoardLevel, known: &[BoardLevel]) -> Beside {
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
        let phase: Vec<u8> = (0..e.len() as u32)
            .map(|v| {
                if missing[v as usize] {
                    0
                } else {
                    value_in(&e, last, v)
                }
            })
            .collect();
        let mut b = Beside {
            s: Solver::with_phases(e, phase),
            missing,
            exhausted: false,
            started: false,
        };
        for k in known {
            b.exclude(k);
        }
        b
    }

    /// Adds the clause "some connection differs from `sol`" (a solution of the level), at
    /// the root.
    fn exclude(&mut self, sol: &BoardLevel) {
        if self.exhausted {
            return;
        }
        self.s.backtrack(0);
        // Per edge, the literal that says it differs: "not connected" where `sol` connects
        // it (`2v + 1`), "connected" where it does not (`2v`); those not false at the root
        // first, as the clause's watches.
        let e = &self.s.e;
        let mut clause: Vec<u32> = (0..e.len() as u32)
            .filter(|&v| !self.missing[v as usize])
            .map(|v| 2 * v + u32::from(value_in(e, sol, v) == 1))
            .collect();
        clause.sort_by_key(|&l| self.s.lit_value(l) == 0);
        let open = clause.iter().take(2).filter(|&&l| self.s.lit_value(l) != 0);
        match (open.count(), clause.first().map(|&l| self.s.lit_value(l))) {
            // Every literal false at the root, or none at all: no other solution.
            (0, _) => self.exhausted = true,
            (_, Some(1)) => {}
            (1, _) => {
                self.s.assign(clause[0], DECISION);
                self.exhausted = self.s.propagate().is_some();
            }
            // A glue clause: reduction never drops it.
            _ => {
                self.s.db.add(&clause, 1);
            }
        }
    }

    /// The next solution besides the excluded ones, verified against `level` and `known`
    /// (the solutions excluded so far), or `None` when there is none.
    fn next(
        &mut self,
        level: &BoardLevel,
        known: &[BoardLevel],
        budget: &Budget,
    ) -> Result<Option<BoardLevel>, Stop> {
        if self.exhausted {
            return Ok(None);
        }
        let found = if self.started {
            budget.check()?;
            self.s.search(budget)?
        } else {
            self.started = true;
            self.s.run(budget)?
        };
        if !found {
            self.exhausted = true;
            return Ok(None);
        }
        let mut other = level.clone();
        for (m, t) in other
            .masks_mut()
            .iter_mut()
            .zip(self.s.e.turns(self.s.values()))
        {
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
}

/// Whether `sol` connects edge `v` (0 or 1).
fn value_in(e: &Edges, sol: &BoardLevel, v: u32) -> u8 {
    let end = e.ends(v)[0];
    sol.masks()[(end >> 3) as usize] >> (end & 7) & 1
}

/// A solution of `level` other than `known` by learning, with no deadline, stopped by
/// `cancel` only (tests).
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
    let known = std::slice::from_ref(known);
    Beside::new(level, known).next(level, known, &budget)
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

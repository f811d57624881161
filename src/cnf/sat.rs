//! A [`Cnf`] handed to batsat (MiniSat 2.2 in pure Rust, with clause learning and restarts):
//! the engine of the `-m cp` strategy, which lives in `solve::cp` and wraps this in the
//! solver's outcome. The library checks our stop callback after every conflict, so the
//! timeout and the cancel flag interrupt it promptly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use batsat::{Callbacks, Lit, SolverInterface, SolverOpts, Var, lbool};

use super::Cnf;

/// How a SAT run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatEnd {
    /// `values[v]` for each variable `v` (index 0 unused).
    Model(Vec<bool>),
    /// The formula has no model: the level has no solution.
    Unsatisfiable,
    /// The caller's flag was raised first.
    Cancelled,
    /// The deadline passed first.
    TimedOut,
}

/// Library counters of one run.
#[derive(Clone, Copy, Debug, Default)]
pub struct SatCounters {
    /// Decisions made by the SAT solver.
    pub decisions: u64,
    /// Conflicts met.
    pub conflicts: u64,
    /// Restarts of the SAT solver's search.
    pub restarts: u64,
}

/// Stops the library when the caller's flag (or a race's, `also`) is raised or the deadline
/// passes.
#[derive(Clone, Copy)]
struct Stop<'a> {
    cancel: &'a AtomicBool,
    also: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
}

impl Callbacks for Stop<'_> {
    fn stop(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
            || self.also.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Stop<'_> {
    /// Why the run stopped: the caller's flag, else the time (a race's flag is the caller's
    /// business: it reads as a time-out here and the race knows better).
    fn end(&self) -> SatEnd {
        if self.cancel.load(Ordering::Relaxed) {
            SatEnd::Cancelled
        } else {
            SatEnd::TimedOut
        }
    }
}

/// A formula loaded into batsat, with its variables.
struct Loaded<'a> {
    solver: batsat::Solver<Stop<'a>>,
    vars: Vec<Var>,
    /// False when a clause already made the formula unsatisfiable while loading.
    ok: bool,
}

/// Loads the clauses over variables `1..=n_vars`; `Err` with why when `stop` fired first.
/// Loading a large formula takes seconds (a million-cell level has five million variables):
/// the flag and the deadline are read every 8,192 variables and clauses, not only once the
/// library searches.
fn load<'a, 'c>(
    n_vars: u32,
    clauses: impl Iterator<Item = &'c [i32]>,
    stop: Stop<'a>,
) -> Result<Loaded<'a>, SatEnd> {
    if stop.stop() {
        return Err(stop.end());
    }
    let mut solver = batsat::Solver::new(SolverOpts::default(), stop);
    let mut vars: Vec<Var> = Vec::with_capacity(n_vars as usize);
    for k in 0..n_vars {
        if k.is_multiple_of(8_192) && stop.stop() {
            return Err(stop.end());
        }
        vars.push(solver.new_var_default());
    }
    let mut clause = Vec::with_capacity(8);
    for (k, c) in clauses.enumerate() {
        if k.is_multiple_of(8_192) && stop.stop() {
            return Err(stop.end());
        }
        clause.clear();
        clause.extend(
            c.iter()
                .map(|&l| Lit::new(vars[l.unsigned_abs() as usize - 1], l > 0)),
        );
        if !solver.add_clause_reuse(&mut clause) {
            return Ok(Loaded {
                solver,
                vars,
                ok: false,
            });
        }
    }
    Ok(Loaded {
        solver,
        vars,
        ok: true,
    })
}

impl Loaded<'_> {
    fn counters(&self) -> SatCounters {
        SatCounters {
            decisions: self.solver.num_decisions(),
            conflicts: self.solver.num_conflicts(),
            restarts: self.solver.num_restarts(),
        }
    }

    /// `values[v]` of the current model (index 0 unused).
    fn model(&self) -> Vec<bool> {
        let mut values = vec![false; self.vars.len() + 1];
        for (k, &v) in self.vars.iter().enumerate() {
            values[k + 1] = self.solver.value_var(v) == lbool::TRUE;
        }
        values
    }

    /// Adds a clause of DIMACS literals; false when the formula became unsatisfiable.
    fn add(&mut self, lits: &[i32]) -> bool {
        let mut clause: Vec<Lit> = lits
            .iter()
            .map(|&l| Lit::new(self.vars[l.unsigned_abs() as usize - 1], l > 0))
            .collect();
        self.solver.add_clause_reuse(&mut clause)
    }
}

/// Runs batsat on `cnf`.
pub fn solve_cnf(
    cnf: &Cnf,
    cancel: &AtomicBool,
    deadline: Option<Instant>,
) -> (SatEnd, SatCounters) {
    solve_clauses(cnf.vars, cnf.clauses(), cancel, deadline)
}

/// Runs batsat on the clauses over variables `1..=vars` (any board's formula, or the
/// course format's).
pub fn solve_clauses<'c>(
    n_vars: u32,
    clauses: impl Iterator<Item = &'c [i32]>,
    cancel: &AtomicBool,
    deadline: Option<Instant>,
) -> (SatEnd, SatCounters) {
    let stop = Stop {
        cancel,
        also: None,
        deadline,
    };
    let mut loaded = match load(n_vars, clauses, stop) {
        Ok(l) => l,
        Err(end) => return (end, SatCounters::default()),
    };
    let answer = if loaded.ok {
        loaded.solver.solve_limited(&[])
    } else {
        lbool::FALSE
    };
    let end = if answer == lbool::TRUE {
        SatEnd::Model(loaded.model())
    } else if answer == lbool::FALSE {
        SatEnd::Unsatisfiable
    } else {
        stop.end()
    };
    (end, loaded.counters())
}

/// How a count of models up to a limit ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelCount {
    /// Exactly this many models besides the ones blocked from the start.
    Exact(u64),
    /// At least the limit's number of further models.
    Reached,
    /// Stopped first: [`SatEnd::Cancelled`] or [`SatEnd::TimedOut`].
    Stopped(SatEnd),
}

/// Counts the models of the clauses that `known` (clauses, one per known model, each ruling
/// that model out) leaves, up to `limit`: each model found is ruled out in turn by `block`'s
/// clause and the library goes on from what it learned. `race` stops it like `cancel` does,
/// for a caller racing it against another method.
#[allow(clippy::too_many_arguments)]
pub fn count_models<'c>(
    n_vars: u32,
    clauses: impl Iterator<Item = &'c [i32]>,
    known: &[Vec<i32>],
    limit: u64,
    block: &dyn Fn(&[bool]) -> Vec<i32>,
    cancel: &AtomicBool,
    race: &AtomicBool,
    deadline: Option<Instant>,
) -> (ModelCount, SatCounters) {
    let stop = Stop {
        cancel,
        also: Some(race),
        deadline,
    };
    let mut loaded = match load(n_vars, clauses, stop) {
        Ok(l) => l,
        Err(end) => return (ModelCount::Stopped(end), SatCounters::default()),
    };
    let mut ok = loaded.ok;
    for clause in known {
        ok = ok && loaded.add(clause);
    }
    let mut found = 0;
    while ok && found < limit {
        let answer = loaded.solver.solve_limited(&[]);
        if answer == lbool::FALSE {
            break;
        }
        if answer != lbool::TRUE {
            return (ModelCount::Stopped(stop.end()), loaded.counters());
        }
        found += 1;
        let clause = block(&loaded.model());
        ok = loaded.add(&clause);
    }
    let count = if found == limit {
        ModelCount::Reached
    } else {
        ModelCount::Exact(found)
    };
    (count, loaded.counters())
}

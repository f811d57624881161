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

/// Stops the library when the caller's flag is raised or the deadline passes.
#[derive(Clone, Copy)]
struct Stop<'a> {
    cancel: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl Callbacks for Stop<'_> {
    fn stop(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
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
    let stop = Stop { cancel, deadline };
    let stopped = || {
        let end = if cancel.load(Ordering::Relaxed) {
            SatEnd::Cancelled
        } else {
            SatEnd::TimedOut
        };
        (end, SatCounters::default())
    };
    if stop.stop() {
        return stopped();
    }
    let mut solver = batsat::Solver::new(SolverOpts::default(), stop);
    // Loading a large formula takes seconds (a million-cell level has five million
    // variables): the flag and the deadline are read every 65,536 variables and clauses,
    // not only once the library searches.
    let mut vars: Vec<Var> = Vec::with_capacity(n_vars as usize);
    for k in 0..n_vars {
        if k.is_multiple_of(65_536) && stop.stop() {
            return stopped();
        }
        vars.push(solver.new_var_default());
    }
    let mut clause = Vec::with_capacity(8);
    let mut ok = true;
    for (k, c) in clauses.enumerate() {
        if k.is_multiple_of(65_536) && stop.stop() {
            return stopped();
        }
        clause.clear();
        clause.extend(
            c.iter()
                .map(|&l| Lit::new(vars[l.unsigned_abs() as usize - 1], l > 0)),
        );
        if !solver.add_clause_reuse(&mut clause) {
            ok = false;
            break;
        }
    }
    let answer = if ok {
        solver.solve_limited(&[])
    } else {
        lbool::FALSE
    };
    let counters = SatCounters {
        decisions: solver.num_decisions(),
        conflicts: solver.num_conflicts(),
        restarts: solver.num_restarts(),
    };
    let end = if answer == lbool::TRUE {
        let mut values = vec![false; n_vars as usize + 1];
        for (k, &v) in vars.iter().enumerate() {
            values[k + 1] = solver.value_var(v) == lbool::TRUE;
        }
        SatEnd::Model(values)
    } else if answer == lbool::FALSE {
        SatEnd::Unsatisfiable
    } else if cancel.load(Ordering::Relaxed) {
        SatEnd::Cancelled
    } else {
        SatEnd::TimedOut
    };
    (end, counters)
}

//! Conflict analysis: resolve the failed constraint's clause with the reasons of the literals
//! set at the current level, latest first, until one literal of that level is left (the first
//! unique implication point); the learned clause is its negation and the negated literals of
//! earlier levels. Literals whose reason is covered by the rest of the clause are then
//! dropped (MiniSat's local minimisation), and the clause asserts at the highest level left.

use super::clauses::{Lit, var};
use super::search::{CELL, Conflict, DECISION, Solver, TREE};

impl Solver {
    /// The clause of `reason` for `implied` (`None`: the failed constraint itself), every
    /// literal false but `implied`.
    fn reason_clause(&mut self, reason: Conflict, implied: Option<Lit>, out: &mut Vec<Lit>) {
        match reason {
            Conflict::Cell(c) => self.explain_cell(c as usize, implied, out),
            Conflict::Clause(id) => {
                out.clear();
                out.extend_from_slice(self.db.clause(id));
            }
            Conflict::Theory | Conflict::Pocket => {
                unreachable!("a lemma is analysed as the clause it was added as")
            }
            Conflict::Tree(x) => {
                self.stats.tree_explained += 1;
                let t = self.net.as_mut().expect("a tree reason without the theory");
                t.explain(&self.e, &self.val, &self.pos, x, out);
                // Tests check every explanation against the brute-force solutions.
                for r in [&mut self.record, &mut self.record_tree]
                    .into_iter()
                    .flatten()
                {
                    r.push(out.clone());
                }
            }
        }
    }

    fn reason_of(&self, v: u32) -> Option<Conflict> {
        match self.reason[v as usize] {
            DECISION => None,
            TREE => Some(Conflict::Tree(v)),
            r if r & CELL != 0 => Some(Conflict::Cell(r & !CELL)),
            r => Some(Conflict::Clause(r)),
        }
    }

    /// Analyses `conflict` into `learnt` (the asserting literal first, a literal of the level
    /// to jump back to second) and returns that level.
    pub(super) fn analyze(&mut self, conflict: Conflict, learnt: &mut Vec<Lit>) -> u32 {
        let now = self.decision_level();
        learnt.clear();
        learnt.push(0);
        let mut clause = Vec::new();
        let mut pending = 0u32;
        let mut at = self.trail.len();
        let mut implied: Option<Lit> = None;
        let mut reason = conflict;
        loop {
            self.reason_clause(reason, implied, &mut clause);
            if let Conflict::Clause(id) = reason {
                self.db.bump(id);
            }
            for &q in clause.iter().skip(implied.is_some() as usize) {
                let v = var(q);
                if self.seen[v as usize] != 0 || self.level[v as usize] == 0 {
                    continue;
                }
                self.seen[v as usize] = 1;
                self.bump_var(v);
                if self.level[v as usize] == now {
                    pending += 1;
                } else {
                    learnt.push(q);
                }
            }
            // The latest seen literal of this level (after a chronological backtrack, seen
            // literals of lower levels can sit above it on the trail).
            let p = loop {
                at -= 1;
                let p = self.trail[at];
                let v = var(p) as usize;
                if self.seen[v] != 0 && self.level[v] == now {
                    break p;
                }
            };
            self.seen[var(p) as usize] = 0;
            pending -= 1;
            if pending == 0 {
                learnt[0] = p ^ 1;
                break;
            }
            implied = Some(p);
            reason = self
                .reason_of(var(p))
                .expect("a literal below the UIP was implied");
        }
        let marked: Vec<Lit> = learnt[1..].to_vec();
        self.minimise(learnt, &mut clause);
        for &q in &marked {
            self.seen[var(q) as usize] = 0;
        }
        // The literal of the highest level after the asserting one goes second (watched).
        let mut back = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for i in 2..learnt.len() {
                if self.level[var(learnt[i]) as usize] > self.level[var(learnt[best]) as usize] {
                    best = i;
                }
            }
            learnt.swap(1, best);
            back = self.level[var(learnt[1]) as usize];
        }
        back
    }

    /// Drops from `learnt` each literal (after the first) whose reason's other literals are
    /// all in the clause or fixed at level 0. `seen` marks the clause's variables; the caller
    /// clears them.
    fn minimise(&mut self, learnt: &mut Vec<Lit>, scratch: &mut Vec<Lit>) {
        let mut kept = 1;
        for i in 1..learnt.len() {
            let q = learnt[i];
            let redundant = match self.reason_of(var(q)) {
                None => false,
                Some(r) => {
                    self.reason_clause(r, Some(q ^ 1), scratch);
                    scratch[1..].iter().all(|&x| {
                        let v = var(x) as usize;
                        self.seen[v] != 0 || self.level[v] == 0
                    })
                }
            };
            // A dropped literal stays marked: each reason names only earlier literals, so
            // leaning on another dropped one never goes round in a circle.
            if !redundant {
                learnt[kept] = q;
                kept += 1;
            }
        }
        learnt.truncate(kept);
    }
}

//! Conflict analysis: resolve the failed constraint's clause with the reasons of the literals
//! set at the current level, latest first, until one literal of that level is left (the first
//! unique implication point); the learned clause is its negation and the negated literals of
//! earlier levels. Literals that follow from the rest of the clause through their reasons are
//! then dropped (MiniSat's recursive minimisation), and the clause asserts at the highest
//! level left.

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

    /// Drops from `learnt` each literal (after the first) implied by the others: its reason's
    /// literals are in the clause, fixed at level 0, or implied by the clause in turn,
    /// followed back through their reasons (MiniSat's recursive minimisation). `seen` marks
    /// the clause's variables; the caller clears them.
    fn minimise(&mut self, learnt: &mut Vec<Lit>, scratch: &mut Vec<Lit>) {
        // A reason chain can only end in the clause on the levels the clause has.
        let levels = learnt[1..].iter().fold(0u32, |a, &q| {
            a | abstract_level(self.level[var(q) as usize])
        });
        let mut marked = Vec::new();
        let mut stack = Vec::new();
        let mut kept = 1;
        for i in 1..learnt.len() {
            let q = learnt[i];
            let redundant = self.reason_of(var(q)).is_some()
                && self.implied_by_clause(q, levels, &mut stack, &mut marked, scratch);
            if !redundant {
                learnt[kept] = q;
                kept += 1;
            }
        }
        self.stats.minimised += (learnt.len() - kept) as u64;
        learnt.truncate(kept);
        for &v in &marked {
            self.seen[v as usize] = 0;
        }
    }

    /// Whether the false literal `q` (implied) follows from the literals marked in `seen`:
    /// every literal of its reason is marked, fixed at level 0, or follows in turn. Literals
    /// found to follow stay marked `1` (a dropped clause literal keeps its mark too: each
    /// reason names only earlier literals, so the walk never goes round in a circle); those
    /// found not to are marked `2` so no later walk retries them. Both are pushed on `marked`.
    fn implied_by_clause(
        &mut self,
        q: Lit,
        levels: u32,
        stack: &mut Vec<Lit>,
        marked: &mut Vec<u32>,
        scratch: &mut Vec<Lit>,
    ) -> bool {
        stack.clear();
        stack.push(q);
        let top = marked.len();
        let mut reasons = 0;
        while let Some(p) = stack.pop() {
            reasons += 1;
            let r = self
                .reason_of(var(p))
                .expect("only implied literals are followed");
            self.reason_clause(r, Some(p ^ 1), scratch);
            for &x in &scratch[1..] {
                let v = var(x);
                let (seen, level) = (self.seen[v as usize], self.level[v as usize]);
                if seen == 1 || level == 0 {
                    continue;
                }
                if seen == 0 && self.reason_of(v).is_some() && abstract_level(level) & levels != 0 {
                    self.seen[v as usize] = 1;
                    marked.push(v);
                    stack.push(x);
                    continue;
                }
                // Not implied: what this walk marked is undecided, so only the failure of
                // `x` is remembered.
                for &m in &marked[top..] {
                    self.seen[m as usize] = 0;
                }
                marked.truncate(top);
                if seen == 0 {
                    self.seen[v as usize] = 2;
                    marked.push(v);
                }
                return false;
            }
        }
        if reasons > 1 {
            self.stats.minimised_deep += 1;
        }
        true
    }
}

/// One bit per level, shared by levels 32 apart: a literal whose level's bit is not among the
/// clause's cannot follow from it.
#[inline]
fn abstract_level(level: u32) -> u32 {
    1 << (level & 31)
}

//! Failed-literal probing at level 0, between restarts: each open edge is set both ways in
//! turn and propagated; a side that fails is analysed like any conflict, whose clause (a
//! unit, as the probe was the only decision) is then a fact. On path tilings of four cells
//! this is what CaDiCaL gains over its own search without inprocessing (hexagonal paths4
//! 128x128 seed 1: 18-21k conflicts with probing, 49k without); each round costs at most a share of
//! the propagations the search made since the last.

use super::clauses::Lit;
use super::search::{DECISION, Solver, UNSET};

/// Where the probes left off, and how much they may spend.
#[derive(Default)]
pub(super) struct Prober {
    /// The next edge to probe (rounds go round the edges).
    next: usize,
    /// Propagations of the search when the last round ended.
    search_mark: u64,
    /// Propagations the probes made so far.
    spent: u64,
    /// The share (per thousand) of the search's propagations the next round may spend.
    effort: u64,
}

/// A probe round may spend this share (per thousand) of the search's propagations since
/// the last, halved after each round in which fewer than one probe in [`POOR_YIELD`] failed
/// (down to [`MIN_EFFORT`]) and doubled back after one where more did.
const EFFORT_PER_MILLE: u64 = 150;
const MIN_EFFORT: u64 = 10;
const POOR_YIELD: u64 = 100;

impl Solver {
    /// A round of probes at level 0, after a restart: false when it refutes the level.
    pub(super) fn probe_round(&mut self) -> bool {
        debug_assert_eq!(self.decision_level(), 0);
        let mut p = std::mem::take(&mut self.prober);
        let total = self.stats.propagations;
        if p.effort == 0 {
            p.effort = EFFORT_PER_MILLE;
        }
        let allowance = (total - p.spent - p.search_mark) * p.effort / 1000;
        let (probes, failed) = (self.stats.probes, self.stats.failed_literals);
        let start = total;
        let n = self.val.len();
        let mut learnt = Vec::new();
        let mut ok = true;
        for _ in 0..n {
            if self.stats.propagations - start >= allowance {
                break;
            }
            let v = p.next;
            p.next = (p.next + 1) % n;
            for side in 0..2u32 {
                if self.val[v] != UNSET {
                    break;
                }
                if !self.probe(v as u32 * 2 + side, &mut learnt) {
                    ok = false;
                    break;
                }
            }
            if !ok {
                break;
            }
        }
        let (probes, failed) = (
            self.stats.probes - probes,
            self.stats.failed_literals - failed,
        );
        p.effort = if failed * POOR_YIELD < probes {
            (p.effort / 2).max(MIN_EFFORT)
        } else {
            (p.effort * 2).min(EFFORT_PER_MILLE)
        };
        p.spent += self.stats.propagations - start;
        p.search_mark = self.stats.propagations - p.spent;
        self.prober = p;
        ok
    }

    /// Sets `l` at level 1 and propagates; on a conflict learns its clause and propagates
    /// that at level 0. False when level 0 fails.
    fn probe(&mut self, l: Lit, learnt: &mut Vec<Lit>) -> bool {
        self.stats.probes += 1;
        self.trail_lim.push(self.trail.len() as u32);
        self.assign(l, DECISION);
        match self.propagate() {
            None => {
                self.undo_probe();
                true
            }
            Some(conflict) => {
                self.stats.failed_literals += 1;
                let back = self.analyze(conflict, learnt);
                debug_assert_eq!(back, 0);
                self.undo_probe();
                self.learn_clause(learnt);
                self.propagate().is_none()
            }
        }
    }
}

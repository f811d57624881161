//! [`Solver`]: the CDCL loop over the edges. The trail holds the true literals in the order
//! they were set; each new one wakes the two cells of its edge and the clauses watching its
//! negation. A conflict is analysed (`analyze.rs`) into a clause that is added, jumped back
//! to and propagated; decisions take the most active open edge in its target phase: its
//! value in the longest conflict-free assignment met so far (CaDiCaL's target phases).
//! Going back to that assignment after every conflict, instead of to each edge's last
//! value, is what finishes path tilings of hexagonal boards: 96x96, seeds 1-3, 96k, 43k and
//! 43k conflicts with saved phases against 4.5k, 4.0k and 7.1k; the target is never reset,
//! as resetting it every 1,000 or 10,000 conflicts (CaDiCaL's rephasing) undid most of that
//! (128x128 seed 1: 24k and 288k conflicts, against 11k).

use super::clauses::{ClauseDb, Lit, var};
use super::edges::Edges;
use super::heap::VarHeap;
use super::net::TreeTheory;
use super::pockets::Pockets;
use super::probing::Prober;
use crate::anyboard::search::{Budget, Stop};

/// `val` of an edge not assigned yet.
pub(super) const UNSET: u8 = 2;
/// `reason` of a decision (or an edge not assigned).
pub(super) const DECISION: u32 = u32::MAX;
/// Flag of a `reason` that is a cell (its number below); otherwise a clause number.
pub(super) const CELL: u32 = 1 << 31;
/// `reason` of an edge the tree theory (Net rules) set; explained by the theory.
pub(super) const TREE: u32 = CELL - 1;

/// What failed: a cell with no turn left, a clause with every literal false, or (Net rules)
/// the tree theory, whose lemma waits in `Solver::lemma`.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    Cell(u32),
    Clause(u32),
    Theory,
    /// A set of cells closed off with an odd number of ends left; its lemma waits in
    /// `Solver::lemma`.
    Pocket,
    /// As a reason only: the tree theory set this edge.
    Tree(u32),
}

/// What a theory lemma became once added.
enum Lemma {
    /// Every literal of it was fixed at level 0: no solution.
    Refuted,
    /// One literal: now a fact at level 0.
    Unit,
    /// A clause to analyse, at its highest level.
    Clause(u32),
}

/// Figures of one search.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// Decisions made.
    pub decisions: u64,
    /// Conflicts met (each gives a learned clause, but the last when unsolvable).
    pub conflicts: u64,
    /// Literals taken off the trail and propagated.
    pub propagations: u64,
    /// Clauses learned (units included).
    pub learned: u64,
    /// Literals of the learned clauses, summed.
    pub learned_literals: u64,
    /// Levels undone by the backjumps, summed.
    pub backjumped_levels: u64,
    /// Restarts (learned clauses kept).
    pub restarts: u64,
    /// Clause database reductions.
    pub reductions: u64,
    /// Clauses the reductions dropped.
    pub dropped: u64,
    /// Edges fixed by the first propagation.
    pub fixed_at_root: u64,
    /// Cells with every edge fixed by the first propagation.
    pub fixed_cells: u64,
    /// Regions searched apart after the first propagation.
    pub regions: u64,
    /// Cells of the largest region.
    pub largest_region: u64,
    /// Net rules: lemmas of the tree theory (a cycle or a closed network refused).
    pub lemmas: u64,
    /// Net rules: edges the tree theory set (off: they would close a cycle).
    pub tree_implied: u64,
    /// Net rules: reasons of those edges built for conflict analysis.
    pub tree_explained: u64,
    /// Cells the near-solution's walks left in defect, summed over the regions.
    pub defects_left: u64,
    /// Searches of balls around those defects (cells further away held).
    pub neighbourhoods: u64,
    /// Odd pockets found (see `pockets.rs`).
    pub pockets: u64,
    /// Literals probed at level 0 (see `probing.rs`).
    pub probes: u64,
    /// Probes that failed (each a fact learned).
    pub failed_literals: u64,
    /// Conflicts after which the search went back one level instead of jumping.
    pub chronological: u64,
    /// Literals minimisation dropped from learned clauses as implied by the rest.
    pub minimised: u64,
    /// Those of them whose implication went through more than one reason (what recursive
    /// minimisation adds to MiniSat's local one).
    pub minimised_deep: u64,
}

impl Counters {
    /// Adds a region's search figures to these.
    pub fn add(&mut self, part: &Counters) {
        self.decisions += part.decisions;
        self.conflicts += part.conflicts;
        self.propagations += part.propagations;
        self.learned += part.learned;
        self.learned_literals += part.learned_literals;
        self.backjumped_levels += part.backjumped_levels;
        self.restarts += part.restarts;
        self.reductions += part.reductions;
        self.dropped += part.dropped;
        self.defects_left += part.defects_left;
        self.neighbourhoods += part.neighbourhoods;
        self.pockets += part.pockets;
        self.probes += part.probes;
        self.failed_literals += part.failed_literals;
        self.chronological += part.chronological;
        self.minimised += part.minimised;
        self.minimised_deep += part.minimised_deep;
    }
}

/// How a search restarts and how fast it forgets which edges were active: the two racers
/// of `solve.rs` differ in it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tuning {
    /// Restarts come after this many times the next Luby number of conflicts.
    pub restart_unit: u64,
    /// The factor each conflict ages every edge's activity by.
    pub var_decay: f64,
}

/// One search's tuning. The slow decay is for path tilings on large boards, where a faster
/// one kept the search in the last few conflicts' corner: hexagonal three-cell paths 256x256
/// seeds 1 and 2, one search, 973k and 1.1M conflicts at 0.95 against 192k and 39k at 0.98.
pub(super) const TUNING: Tuning = Tuning {
    restart_unit: 100,
    var_decay: 0.98,
};
/// The first clause database reduction, and the growth of the interval after each.
const REDUCE_FIRST: u64 = 2000;
const REDUCE_STEP: u64 = 300;
/// Backjumps over more levels than this go back one level only (CaDiCaL's default).
const CHRONO_LIMIT: u32 = 100;
/// Decisions between two looks at the budget (a decision can propagate a long chain).
const CHECK_DECISIONS: u64 = 256;

/// Where the first decision on each edge goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phases {
    /// A near-solution: shaped cells turned greedily, then a b-matching ([`super::phase`]).
    Matching,
    /// Whether the first turn of the edge's lower cell connects it: no foresight, so the
    /// search conflicts and learns much more (the tests use it to exercise learning, and
    /// its searches backtrack chronologically after every conflict).
    #[cfg_attr(not(test), allow(dead_code))]
    FirstTurn,
}

pub(super) struct Solver {
    pub e: Edges,
    /// Per edge: 1 connected, 0 not, [`UNSET`].
    pub val: Vec<u8>,
    pub level: Vec<u32>,
    /// Per edge: [`DECISION`], [`CELL`] | cell, or a clause number.
    pub reason: Vec<u32>,
    /// Per edge, its place on the trail.
    pub pos: Vec<u32>,
    pub trail: Vec<Lit>,
    /// Trail length at the start of each decision level.
    pub trail_lim: Vec<u32>,
    qhead: usize,
    /// Per edge, its last value (the phase of the next decision on it).
    phase: Vec<u8>,
    /// Per edge, its value in the longest conflict-free assignment so far, its saved phase
    /// where that assignment left it open ([`UNSET`]: no conflict yet), the phase decisions
    /// take first.
    target: Vec<u8>,
    /// The trail length of that assignment.
    target_len: usize,
    /// The trail length up to which the last propagation met no conflict.
    no_conflict_until: usize,
    pub heap: VarHeap,
    pub var_inc: f64,
    pub db: ClauseDb,
    pub seen: Vec<u8>,
    pub stats: Counters,
    /// When set, every learned clause is copied here (tests check each against the
    /// brute-force solutions).
    pub record: Option<Vec<Vec<Lit>>>,
    /// When set (tests, Net rules), the tree theory's lemmas and reasons are also copied
    /// here, for a check of their shape that needs no solution.
    pub record_tree: Option<Vec<Vec<Lit>>>,
    /// Net rules: no cycle, no island (`None` under Infinity rules).
    pub net: Option<TreeTheory>,
    /// The tree theory's last lemma.
    lemma: Vec<Lit>,
    /// Conflicts after which the search stops as if timed out (a ball's search, see
    /// `local.rs`; unlimited otherwise).
    pub conflict_limit: u64,
    /// Restarts and activity decay ([`TUNING`] unless a racer takes another).
    pub tuning: Tuning,
    /// Literals the tree theory forces, waiting to be set.
    implied: Vec<Lit>,
    /// The looks for odd pockets (`None`: a solver that only propagates at the root).
    pockets: Option<Pockets>,
    /// Where failed-literal probing left off.
    pub(super) prober: Prober,
    /// Backjumps over more levels than this go back one level only ([`CHRONO_LIMIT`]; 0 in
    /// the tests' first-turn searches, so that every conflict exercises it).
    chrono_limit: u32,
    /// The conflict count at which the clause database is next reduced.
    next_reduce: u64,
}

impl Solver {
    /// A solver for `e`, nothing assigned, its first phases as `phases` says.
    pub fn new(e: Edges, phases: Phases) -> Solver {
        let n = e.len();
        let phase: Vec<u8> = match phases {
            Phases::Matching => super::phase::near_solution(&e)
                .map(|mask| super::repair::phases_of(&e, &mask))
                .unwrap_or_else(|| vec![0; n]),
            Phases::FirstTurn => (0..n)
                .map(|v| {
                    let end = e.ends(v as u32)[0];
                    e.mask((end >> 3) as usize, 0) >> (end & 7) & 1
                })
                .collect(),
        };
        let mut s = Solver::with_phases(e, phase);
        if phases == Phases::FirstTurn {
            s.chrono_limit = 0;
        }
        s
    }

    /// Frees what only this solver's own search uses, keeping the edges, their values and
    /// the counters: the whole board's solver once its regions have solvers of their own
    /// (at the peak of a 1024x1024 hexagonal dominoes solve, about 100 bytes a cell).
    pub fn keep_only_values(&mut self) {
        self.level = Vec::new();
        self.reason = Vec::new();
        self.pos = Vec::new();
        self.trail = Vec::new();
        self.trail_lim = Vec::new();
        self.phase = Vec::new();
        self.target = Vec::new();
        self.heap = VarHeap::new(0);
        self.db = ClauseDb::new(0);
        self.seen = Vec::new();
        self.lemma = Vec::new();
        self.implied = Vec::new();
        self.pockets = None;
    }

    /// A solver for `e`, nothing assigned, each edge's first phase given (1 connected).
    pub fn with_phases(e: Edges, phase: Vec<u8>) -> Solver {
        let heap = VarHeap::new(e.len());
        let mut s = Solver::build(e, phase, heap);
        s.pockets = Some(Pockets::new(&s.e));
        s
    }

    /// A solver for `e` that only propagates at the root ([`Solver::root`]), as under
    /// Infinity rules, where each region then gets a solver of its own: it has no order of
    /// the variables and no phases (at 1024x1024 hexagonal, 50 MB at the peak).
    pub fn for_root(e: Edges) -> Solver {
        Solver::build(e, Vec::new(), VarHeap::new(0))
    }

    fn build(e: Edges, phase: Vec<u8>, heap: VarHeap) -> Solver {
        let n = e.len();
        let mut val = vec![UNSET; n];
        for v in e.missing() {
            val[v as usize] = 0;
        }
        Solver {
            val,
            level: vec![0; n],
            reason: vec![DECISION; n],
            pos: vec![0; n],
            trail: Vec::with_capacity(n),
            trail_lim: Vec::new(),
            qhead: 0,
            target: vec![UNSET; phase.len()],
            target_len: 0,
            no_conflict_until: 0,
            phase,
            heap,
            var_inc: 1.0,
            db: ClauseDb::new(n),
            seen: vec![0; n],
            stats: Counters::default(),
            record: None,
            record_tree: None,
            net: None,
            lemma: Vec::new(),
            conflict_limit: u64::MAX,
            tuning: TUNING,
            implied: Vec::new(),
            pockets: None,
            prober: Prober::default(),
            chrono_limit: CHRONO_LIMIT,
            next_reduce: REDUCE_FIRST,
            e,
        }
    }

    #[inline]
    pub fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    /// 1 when `l` is true, 0 when false, [`UNSET`].
    #[inline(always)]
    pub fn lit_value(&self, l: Lit) -> u8 {
        let v = self.val[var(l) as usize];
        if v == UNSET { UNSET } else { v ^ (l & 1) as u8 }
    }

    /// Makes `l` true at the current level.
    #[inline]
    pub fn assign(&mut self, l: Lit, reason: u32) {
        self.assign_at(l, reason, self.decision_level());
    }

    /// Makes `l` true at level `lvl` (at most the current one), as its reason allows.
    #[inline]
    pub(super) fn assign_at(&mut self, l: Lit, reason: u32, lvl: u32) {
        let v = var(l) as usize;
        debug_assert_eq!(self.val[v], UNSET);
        debug_assert!(lvl <= self.decision_level());
        self.val[v] = 1 - (l & 1) as u8;
        self.level[v] = lvl;
        self.reason[v] = reason;
        self.pos[v] = self.trail.len() as u32;
        self.trail.push(l);
    }

    /// Whether implied literals take the highest level of their reason instead of the
    /// current one, which lets a long backjump be cut short; not under Net rules, whose
    /// tree theory keeps its state by level.
    #[inline(always)]
    fn chrono(&self) -> bool {
        self.net.is_none()
    }

    /// The level of a literal implied by a reason whose highest level is `top`.
    #[inline(always)]
    pub(super) fn implied_level(&self, top: u32) -> u32 {
        if self.chrono() {
            top
        } else {
            self.decision_level()
        }
    }

    /// Propagates the trail from where it stopped: the first conflict, or none.
    pub fn propagate(&mut self) -> Option<Conflict> {
        while self.qhead < self.trail.len() {
            let l = self.trail[self.qhead];
            self.qhead += 1;
            self.stats.propagations += 1;
            let v = var(l) as usize;
            for end in self.e.ends(v as u32) {
                let cell = (end >> 3) as usize;
                if let Err(c) = self.propagate_cell(cell) {
                    return Some(c);
                }
            }
            if let Some(t) = &mut self.net {
                if t.propagate(&self.e, &self.val, l, &mut self.lemma, &mut self.implied) {
                    self.implied.clear();
                    return Some(Conflict::Theory);
                }
                let mut implied = std::mem::take(&mut self.implied);
                for &q in &implied {
                    // An edge found twice (from both its ends) is set once.
                    if self.val[var(q) as usize] == UNSET {
                        self.stats.tree_implied += 1;
                        self.assign(q, TREE);
                    }
                }
                implied.clear();
                self.implied = implied;
            }
            if let Err(c) = self.propagate_clauses(l ^ 1) {
                return Some(c);
            }
        }
        None
    }

    /// Adds the lemma waiting in `lemma`, the tree theory's (`tree`) or an odd pocket's:
    /// sorted by level, latest first, so its watches sit on the literals undone first; the
    /// search is taken back to its highest level, where analysis expects a failed clause to
    /// have a literal.
    fn add_lemma(&mut self, tree: bool) -> Lemma {
        let mut lemma = std::mem::take(&mut self.lemma);
        if let Some(r) = &mut self.record {
            r.push(lemma.clone());
        }
        if tree {
            self.stats.lemmas += 1;
            if let Some(r) = &mut self.record_tree {
                r.push(lemma.clone());
            }
        }
        lemma.sort_unstable_by_key(|&l| {
            let v = var(l) as usize;
            std::cmp::Reverse((self.level[v], self.pos[v]))
        });
        let top = lemma.first().map_or(0, |&l| self.level[var(l) as usize]);
        let result = if top == 0 {
            Lemma::Refuted
        } else if lemma.len() == 1 {
            self.backtrack(0);
            self.assign(lemma[0], DECISION);
            Lemma::Unit
        } else {
            self.backtrack(top);
            let lbd = self.lbd(&lemma);
            Lemma::Clause(self.db.add(&lemma, lbd))
        };
        self.lemma = lemma;
        result
    }

    /// Visits the clauses watching `false_lit`, which just became false.
    fn propagate_clauses(&mut self, false_lit: Lit) -> Result<(), Conflict> {
        if self.db.watches.is_empty() {
            return Ok(());
        }
        let mut ws = std::mem::take(&mut self.db.watches[false_lit as usize]);
        let (mut i, mut j) = (0, 0);
        let mut result = Ok(());
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if self.lit_value(w.blocker) == 1 {
                ws[j] = w;
                j += 1;
                continue;
            }
            let start = self.db.heads[w.clause as usize].start as usize;
            let len = self.db.heads[w.clause as usize].len as usize;
            let c = &mut self.db.lits[start..start + len];
            if c[0] == false_lit {
                c.swap(0, 1);
            }
            let first = c[0];
            if first != w.blocker && self.lit_value(first) == 1 {
                ws[j] = super::clauses::Watch {
                    clause: w.clause,
                    blocker: first,
                };
                j += 1;
                continue;
            }
            // A new literal to watch: any not false; in a long clause, from where the last
            // search stopped. The clause "some edge differs from the known solution" of a
            // second-solution search has every edge: scanned from its start at each move,
            // its watch cost most of a 256x256 torus's check. Shorter clauses keep the scan
            // from the start, and the searches of the learned clauses their course.
            let from = if len >= LONG_CLAUSE {
                self.db.heads[w.clause as usize].pos as usize
            } else {
                2
            };
            let found = (from..len)
                .chain(2..from)
                .find(|&k| self.lit_value(self.db.lits[start + k]) != 0);
            if let Some(k) = found {
                let lk = self.db.lits[start + k];
                self.db.heads[w.clause as usize].pos = k as u32;
                self.db.lits.swap(start + 1, start + k);
                self.db.watches[lk as usize].push(super::clauses::Watch {
                    clause: w.clause,
                    blocker: first,
                });
                continue;
            }
            ws[j] = super::clauses::Watch {
                clause: w.clause,
                blocker: first,
            };
            j += 1;
            match self.lit_value(first) {
                0 => {
                    result = Err(Conflict::Clause(w.clause));
                    while i < ws.len() {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                }
                UNSET => {
                    let c = &self.db.lits[start + 1..start + len];
                    let top = c.iter().map(|&q| self.level[var(q) as usize]).max();
                    self.assign_at(first, w.clause, self.implied_level(top.unwrap_or(0)));
                }
                _ => {}
            }
        }
        ws.truncate(j);
        self.db.watches[false_lit as usize] = ws;
        result
    }

    /// Undoes a probe's level, the saved phases left as they were before it.
    pub(super) fn undo_probe(&mut self) {
        self.unassign_above(0, false);
    }

    /// Undoes every level above `lvl`, saving the phases.
    pub fn backtrack(&mut self, lvl: u32) {
        if self.decision_level() <= lvl {
            return;
        }
        self.update_target();
        self.unassign_above(lvl, true);
    }

    /// Unassigns every literal of a level above `lvl`, saving each edge's value as its
    /// phase when `save_phases`. Literals of lower levels set since the level began (after
    /// a chronological backtrack) stay, moved down the trail, and are propagated again: what
    /// they implied together with the literals undone is gone.
    fn unassign_above(&mut self, lvl: u32, save_phases: bool) {
        let lim = self.trail_lim[lvl as usize] as usize;
        let mut kept = lim;
        for i in lim..self.trail.len() {
            let l = self.trail[i];
            let v = var(l) as usize;
            if self.level[v] <= lvl {
                self.trail[kept] = l;
                self.pos[v] = kept as u32;
                kept += 1;
                continue;
            }
            if save_phases {
                self.phase[v] = self.val[v];
            }
            self.val[v] = UNSET;
            self.reason[v] = DECISION;
            self.heap.insert(v as u32);
        }
        if let Some(t) = &mut self.net {
            t.backtrack(lvl as usize);
        }
        if let Some(p) = &mut self.pockets {
            p.backtrack(lim);
        }
        self.trail.truncate(kept);
        self.trail_lim.truncate(lvl as usize);
        self.qhead = lim;
    }

    /// Keeps the current assignment, saved phases elsewhere, as the target when its
    /// conflict-free part is the longest yet (called before each backtrack).
    fn update_target(&mut self) {
        if self.no_conflict_until <= self.target_len || self.target.is_empty() {
            return;
        }
        self.target_len = self.no_conflict_until;
        for (t, (&v, &p)) in self.target.iter_mut().zip(self.val.iter().zip(&self.phase)) {
            *t = if v == UNSET { p } else { v };
        }
    }

    /// Bumps `v`'s activity.
    pub fn bump_var(&mut self, v: u32) {
        if self.heap.bump(v, self.var_inc) {
            self.heap.rescale(1e-100);
            self.var_inc *= 1e-100;
        }
    }

    /// The next decision: the most active open edge in its target phase, else its saved one.
    fn decide(&mut self) -> Option<Lit> {
        while let Some(v) = self.heap.pop() {
            if self.val[v as usize] == UNSET {
                let t = self.target[v as usize];
                let p = if t == UNSET {
                    self.phase[v as usize]
                } else {
                    t
                };
                return Some(v * 2 + 1 - p as u32);
            }
        }
        None
    }

    /// Root propagation over every cell: false when it already fails.
    pub fn root(&mut self) -> bool {
        if self
            .net
            .as_ref()
            .is_some_and(TreeTheory::has_walled_in_cell)
        {
            return false;
        }
        for c in 0..self.e.cells() {
            if self.propagate_cell(c).is_err() {
                return false;
            }
        }
        let ok = self.propagate().is_none();
        self.stats.fixed_at_root = self.trail.len() as u64;
        ok
    }

    /// Searches until every edge is set (true) or the empty clause is learned (false).
    pub fn run(&mut self, budget: &Budget) -> Result<bool, Stop> {
        budget.check()?;
        if !self.root() {
            return Ok(false);
        }
        self.search(budget)
    }

    /// [`Solver::run`] after the root propagation.
    pub fn search(&mut self, budget: &Budget) -> Result<bool, Stop> {
        let mut luby_index = 0u32;
        let mut restart_at = self.tuning.restart_unit * luby(luby_index);
        let mut since_restart = 0u64;
        let mut learnt = Vec::new();
        loop {
            let found = self.propagate().or_else(|| self.odd_pocket());
            self.no_conflict_until = match found {
                None => self.trail.len(),
                Some(_) => self.trail_lim.last().map_or(0, |&l| l as usize),
            };
            if let Some(mut conflict) = found {
                self.stats.conflicts += 1;
                since_restart += 1;
                if self.decision_level() == 0 {
                    return Ok(false);
                }
                if let Conflict::Theory | Conflict::Pocket = conflict {
                    match self.add_lemma(matches!(conflict, Conflict::Theory)) {
                        Lemma::Refuted => return Ok(false),
                        Lemma::Unit => continue,
                        Lemma::Clause(id) => conflict = Conflict::Clause(id),
                    }
                }
                // Literals set below the current level (after a chronological backtrack)
                // can fail a constraint at a lower level: analysis starts from there.
                let failed_at = self.conflict_level(conflict, &mut learnt);
                if failed_at == 0 {
                    return Ok(false);
                }
                if failed_at < self.decision_level() {
                    self.backtrack(failed_at);
                }
                let back = self.analyze(conflict, &mut learnt);
                let now = self.decision_level();
                // A long jump only to re-decide most of the same levels from their target
                // phases is cut short: the learned clause asserts at its own level, out of
                // order on the trail (CaDiCaL's chronological backtracking).
                let to = if self.chrono() && learnt.len() > 1 && now - back > self.chrono_limit {
                    self.stats.chronological += 1;
                    now - 1
                } else {
                    back
                };
                self.stats.backjumped_levels += (now - to) as u64;
                self.backtrack(to);
                self.learn_clause(&learnt);
                self.var_inc /= self.tuning.var_decay;
                self.db.decay();
                if self.stats.conflicts.is_multiple_of(256) {
                    budget.check()?;
                }
                if self.stats.conflicts >= self.conflict_limit {
                    return Err(Stop::TimedOut);
                }
                continue;
            }
            if since_restart >= restart_at {
                since_restart = 0;
                luby_index += 1;
                restart_at = self.tuning.restart_unit * luby(luby_index);
                self.stats.restarts += 1;
                self.backtrack(0);
                // Net rules' tree theory is left out: its lemmas need the search's own handling.
                if self.net.is_none() && !self.probe_round() {
                    return Ok(false);
                }
                continue;
            }
            if self.stats.conflicts >= self.next_reduce {
                // The schedule lives in the solver, so a search carried on after its time
                // slice (`local::resume`) keeps it instead of reducing at once.
                let reductions = self.stats.reductions + 1;
                self.next_reduce = self.stats.conflicts + REDUCE_FIRST + REDUCE_STEP * reductions;
                self.reduce();
            }
            let Some(d) = self.decide() else {
                return Ok(true);
            };
            self.stats.decisions += 1;
            if self.stats.decisions.is_multiple_of(CHECK_DECISIONS) {
                budget.check()?;
            }
            self.trail_lim.push(self.trail.len() as u32);
            if let Some(t) = &mut self.net {
                t.push_level();
            }
            self.assign(d, DECISION);
        }
    }

    /// An odd pocket around the edges set since the last look, its lemma in `lemma`.
    fn odd_pocket(&mut self) -> Option<Conflict> {
        let p = self.pockets.as_mut()?;
        if !p.odd(
            &self.e,
            &self.val,
            &self.level,
            &self.pos,
            &self.trail,
            &mut self.lemma,
        ) {
            return None;
        }
        self.stats.pockets += 1;
        Some(Conflict::Pocket)
    }

    /// The highest level among the literals of the constraint `conflict` failed
    /// (`scratch` is overwritten).
    fn conflict_level(&mut self, conflict: Conflict, scratch: &mut Vec<Lit>) -> u32 {
        if !self.chrono() {
            return self.decision_level();
        }
        let lits: &[Lit] = match conflict {
            Conflict::Cell(c) => {
                self.explain_cell(c as usize, None, scratch);
                scratch
            }
            Conflict::Clause(id) => self.db.clause(id),
            _ => return self.decision_level(),
        };
        lits.iter()
            .map(|&q| self.level[var(q) as usize])
            .max()
            .unwrap_or(0)
    }

    /// Adds the clause `learnt` (its first literal the one it asserts, its second one of the
    /// highest level among the others: the asserted literal's level) and asserts it.
    pub(super) fn learn_clause(&mut self, learnt: &[Lit]) {
        self.stats.learned += 1;
        self.stats.learned_literals += learnt.len() as u64;
        if let Some(r) = &mut self.record {
            r.push(learnt.to_vec());
        }
        if learnt.len() == 1 {
            self.assign(learnt[0], DECISION);
            return;
        }
        let at = self.level[var(learnt[1]) as usize];
        let lbd = self.lbd(learnt);
        let id = self.db.add(learnt, lbd);
        self.assign_at(learnt[0], id, at);
    }

    /// The number of distinct decision levels among `lits`.
    fn lbd(&mut self, lits: &[Lit]) -> u32 {
        let mut levels: Vec<u32> = lits.iter().map(|&l| self.level[var(l) as usize]).collect();
        levels.sort_unstable();
        levels.dedup();
        levels.len() as u32
    }

    /// Forgets about half of the learned clauses that are not glue nor reasons.
    fn reduce(&mut self) {
        let val = &self.val;
        let reason = &self.reason;
        let db = &self.db;
        let locked = |id: u32| {
            let l = db.clause(id)[0];
            let v = var(l) as usize;
            val[v] != UNSET && reason[v] == id
        };
        let locked_ids: Vec<bool> = (0..db.heads.len() as u32).map(locked).collect();
        let (map, dropped) = self.db.reduce(|id| locked_ids[id as usize]);
        for &l in &self.trail {
            let r = &mut self.reason[var(l) as usize];
            if *r != DECISION && *r & CELL == 0 {
                *r = map[*r as usize];
                debug_assert_ne!(*r, u32::MAX, "a reason clause is kept");
            }
        }
        self.stats.reductions += 1;
        self.stats.dropped += dropped as u64;
    }

    /// The value of every edge (after a `run` that returned true).
    pub fn values(&self) -> &[u8] {
        &self.val
    }
}

/// Clauses from this many literals search for a new watch from where the last search
/// stopped ([`super::clauses::Head::pos`]).
const LONG_CLAUSE: usize = 1024;

/// The Luby sequence 1 1 2 1 1 2 4 1 ..., from index 0.
fn luby(i: u32) -> u64 {
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < i as u64 + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    let mut x = i as u64;
    while size - 1 != x {
        size = (size - 1) / 2;
        seq -= 1;
        x %= size;
    }
    1u64 << seq
}

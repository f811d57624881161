//! Rungs 5 and 6, the trials: turn a cell one way, propagate what rungs 1 to 3 (and Net's
//! joins) conclude, and if that runs into a contradiction the orientation is impossible. The
//! short trial gives up after [`short_steps`] narrowings (what a player can follow in their
//! head); the long one propagates as far as it goes. Each trial is undone on the position's
//! trail. Under Infinity rules a trial that refuted nothing is remembered with the cells it
//! revised, and answered again without running while none of them changed (see [`Memo`]).

use super::position::{Contradiction, Position};
use super::why::Detail;
use super::{Deduction, Rule};
use crate::board::Rules;

/// Narrowings a short trial may make before it gives up, under `rules`. Chosen so that both
/// trial rungs occur among generated levels of each rule set (measured on 150 unique 20x20
/// hexagonal Net levels: at 3 or 6 narrowings every level needing a trial needed only a
/// short one; at 2, 13 needed the long one). Under Infinity rules 2 catches no trial short
/// (every level needing one needs it long), 6 splits them.
pub fn short_steps(rules: Rules) -> usize {
    match rules {
        Rules::Infinity => 6,
        Rules::Net => 2,
    }
}

/// The scratch of the trials: a queue of cells to revise and who is on it, the work done, and
/// (Infinity rules) the trials that found nothing, to answer again without running them.
pub struct Trials {
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Cells revised by every trial so far (the ladder's budget reads it).
    pub work: u64,
    /// Whether trials are memoized (Infinity rules), and the memo once the first has run.
    pub(super) memoize: bool,
    memo: Option<Memo>,
    /// Trials answered from the memo.
    pub recalled: u64,
    /// Tests: run every recalled trial as well and check it refutes nothing with the work
    /// recalled.
    #[cfg(test)]
    pub(super) check_recalls: bool,
}

/// Trials that refuted nothing, with the cells they revised. A trial reads only the cells it
/// revises and their neighbours, so while none of those has changed in the position it would
/// revise the same cells in the same order and refute nothing again: it is answered from
/// here, its work counted as if it had run, so the budget runs out where it would have. A
/// ladder stuck before each of many guesses tries every undecided cell again each time, and
/// a guess changes only the cells near it. Infinity rules only: under Net rules a narrowing
/// also reads the networks, which reach across the board.
struct Memo {
    /// Changes to the position so far, and per cell the number of the last change at it or
    /// next to it.
    now: u32,
    near: Vec<u32>,
    /// Per cell, short trial then long: the last trial that refuted nothing.
    kept: Vec<Kept>,
    /// The cells each kept trial revised, kept trials' ranges in it (with the lists of
    /// trials since run again, until the next compaction).
    cells: Vec<u32>,
    /// Cells in the lists of kept trials.
    live: usize,
    /// The trial that last added each cell to `cells`, so a trial lists a cell once.
    listed: Vec<u32>,
    trials: u32,
}

/// A kept trial; `len == NOT_KEPT` for none.
#[derive(Clone, Copy)]
struct Kept {
    /// `now` when it ran.
    at: u32,
    start: u32,
    len: u32,
    work: u64,
}

const NOT_KEPT: u32 = u32::MAX;

/// How one orientation's trial ended in a contradiction: what, and after how many narrowings.
struct Refutation {
    orientation: u32,
    contradiction: Contradiction,
    steps: usize,
}

impl Trials {
    /// Scratch for `n` cells under `rules`.
    pub fn new(n: usize, rules: Rules) -> Trials {
        Trials {
            queue: Vec::new(),
            // One more, for the cell past the last that walls lead to: marked queued from
            // the start, so a wall is never pushed.
            queued: (0..=n).map(|c| c == n).collect(),
            work: 0,
            memoize: rules == Rules::Infinity,
            memo: None,
            recalled: 0,
            #[cfg(test)]
            check_recalls: false,
        }
    }

    /// `cell` of the position changed: the trials that revised it or a neighbour are stale
    /// (nothing to do before the first trial: none is kept).
    pub fn touched(&mut self, pos: &Position, cell: usize) {
        let Some(m) = &mut self.memo else {
            return;
        };
        m.now += 1;
        m.near[cell] = m.now;
        for s in 0..pos.k {
            if let Some((n, _)) = pos.across(cell, s) {
                m.near[n] = m.now;
            }
        }
    }

    /// The trial of every orientation of `cell` (undecided), making at most `limit`
    /// narrowings each (`None`: no limit); a deduction when some orientation is refuted.
    pub fn trial(
        &mut self,
        pos: &mut Position,
        cell: usize,
        limit: Option<usize>,
    ) -> Option<Deduction> {
        let slot = 2 * cell + limit.is_none() as usize;
        if self.memoize && self.memo.is_none() {
            self.memo = Some(Memo::new(pos.len()));
        }
        if let Some(m) = &self.memo
            && let Some(work) = m.recall(slot)
        {
            #[cfg(test)]
            if self.check_recalls {
                let (before, _) = (self.work, self.start_listing(cell));
                assert!(
                    self.refutations(pos, cell, limit).is_empty(),
                    "a recalled trial refutes"
                );
                assert_eq!(self.work - before, work, "a recalled trial's work differs");
                self.work = before;
            }
            self.work += work;
            self.recalled += 1;
            return None;
        }
        let (work_before, listed_from) = (self.work, self.start_listing(cell));
        let d = pos.dom[cell];
        let refuted = self.refutations(pos, cell, limit);
        if let Some(m) = &mut self.memo {
            let work = self.work - work_before;
            m.keep(slot, listed_from, refuted.is_empty().then_some(work));
        }
        if refuted.is_empty() {
            return None;
        }
        let after = refuted.iter().fold(d, |a, r| a & !(1 << r.orientation));
        let rule = if limit.is_some() {
            Rule::ShortTrial
        } else {
            Rule::Trial
        };
        let mut read = vec![cell];
        for r in &refuted {
            let at = match r.contradiction {
                Contradiction::Empty(c) | Contradiction::Loop(c, _) | Contradiction::Island(c) => c,
            };
            if !read.contains(&at) {
                read.push(at);
            }
        }
        Some(Deduction {
            rule,
            cell,
            read,
            before: d,
            after,
            detail: Detail::Trial {
                refuted: refuted
                    .iter()
                    .map(|r| (r.orientation, r.contradiction, r.steps))
                    .collect(),
            },
        })
    }

    /// The trial of every orientation of `cell`: those that run into a contradiction.
    fn refutations(
        &mut self,
        pos: &mut Position,
        cell: usize,
        limit: Option<usize>,
    ) -> Vec<Refutation> {
        let d = pos.dom[cell];
        let mut refuted = Vec::new();
        for o in (0..8u32).filter(|&o| d >> o & 1 == 1) {
            let mark = pos.mark();
            let outcome = self.propagate(pos, cell, 1 << o, limit);
            pos.undo(mark);
            if let Some((contradiction, steps)) = outcome {
                refuted.push(Refutation {
                    orientation: o,
                    contradiction,
                    steps,
                });
            }
        }
        refuted
    }

    /// Narrows `cell` to `dom` and propagates; the contradiction reached and the narrowings
    /// it took, or `None` at a fixed point or the limit.
    fn propagate(
        &mut self,
        pos: &mut Position,
        cell: usize,
        dom: u8,
        limit: Option<usize>,
    ) -> Option<(Contradiction, usize)> {
        let mut steps = 1;
        let mut result = match pos.narrow(cell, dom) {
            Err(c) => Some((c, steps)),
            Ok(()) => None,
        };
        if result.is_none() {
            self.push_neighbours(pos, cell);
        }
        // First in, first out: the narrowings nearest the trial come first.
        let mut head = 0;
        while result.is_none() && head < self.queue.len() {
            let c = self.queue[head] as usize;
            head += 1;
            self.work += 1;
            self.queued[c] = false;
            let keep = pos.supported(c);
            if keep == pos.dom[c] {
                continue;
            }
            if limit.is_some_and(|l| steps >= l) {
                break;
            }
            steps += 1;
            match pos.narrow(c, keep) {
                Err(x) => result = Some((x, steps)),
                Ok(()) => self.push_neighbours(pos, c),
            }
        }
        for &c in &self.queue {
            self.queued[c as usize] = false;
        }
        if let Some(m) = &mut self.memo {
            for &c in &self.queue[..head] {
                m.list(c);
            }
        }
        self.queue.clear();
        result
    }

    /// Starts a trial's list of revised cells with `cell` (read first, by its narrowing);
    /// where the list starts.
    fn start_listing(&mut self, cell: usize) -> usize {
        let Some(m) = &mut self.memo else {
            return 0;
        };
        m.trials += 1;
        let from = m.cells.len();
        m.list(cell as u32);
        from
    }

    fn push_neighbours(&mut self, pos: &Position, cell: usize) {
        for &l in pos.links_of(cell) {
            let n = (l >> 3) as usize;
            if !self.queued[n] {
                self.queued[n] = true;
                self.queue.push(n as u32);
            }
        }
    }
}

impl Memo {
    fn new(n: usize) -> Memo {
        let none = Kept {
            at: 0,
            start: 0,
            len: NOT_KEPT,
            work: 0,
        };
        Memo {
            now: 0,
            near: vec![0; n],
            kept: vec![none; 2 * n],
            cells: Vec::new(),
            live: 0,
            listed: vec![0; n],
            trials: 0,
        }
    }

    /// The work of the kept trial in `slot`, when none of the cells it revised (or their
    /// neighbours) has changed since it ran.
    fn recall(&self, slot: usize) -> Option<u64> {
        let k = self.kept[slot];
        if k.len == NOT_KEPT {
            return None;
        }
        let cells = &self.cells[k.start as usize..][..k.len as usize];
        cells
            .iter()
            .all(|&c| self.near[c as usize] <= k.at)
            .then_some(k.work)
    }

    /// Keeps the trial just run in `slot`, whose list starts at `from`, if it refuted
    /// nothing (`work`), else forgets the slot's trial. The lists of trials no longer kept
    /// are dropped once they outweigh the kept ones.
    fn keep(&mut self, slot: usize, from: usize, work: Option<u64>) {
        let old = self.kept[slot];
        if old.len != NOT_KEPT {
            self.live -= old.len as usize;
        }
        let len = self.cells.len() - from;
        self.kept[slot] = Kept {
            at: self.now,
            start: from as u32,
            len: if work.is_some() { len as u32 } else { NOT_KEPT },
            work: work.unwrap_or(0),
        };
        if work.is_some() {
            self.live += len;
        }
        if self.cells.len() > 2 * self.live + self.listed.len() {
            self.compact();
        }
    }

    /// Moves the kept trials' lists to the front of `cells`, dropping the rest.
    fn compact(&mut self) {
        let mut cells = Vec::with_capacity(2 * self.live);
        for k in self.kept.iter_mut().filter(|k| k.len != NOT_KEPT) {
            let start = cells.len();
            cells.extend_from_slice(&self.cells[k.start as usize..][..k.len as usize]);
            k.start = start as u32;
        }
        self.cells = cells;
    }

    /// Adds `cell` to the current trial's list, once.
    fn list(&mut self, cell: u32) {
        if self.listed[cell as usize] != self.trials {
            self.listed[cell as usize] = self.trials;
            self.cells.push(cell);
        }
    }
}

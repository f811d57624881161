//! Rungs 5 and 6, the trials: turn a cell one way, propagate what rungs 1 to 3 (and Net's
//! joins) conclude, and if that runs into a contradiction the orientation is impossible. The
//! short trial gives up after [`short_steps`] narrowings (what a player can follow in their
//! head); the long one propagates as far as it goes. Each trial is undone on the position's
//! trail.

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

/// The scratch of the trials: a queue of cells to revise and who is on it, and the work done.
pub struct Trials {
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Cells revised by every trial so far (the ladder's budget reads it).
    pub work: u64,
}

/// How one orientation's trial ended in a contradiction: what, and after how many narrowings.
struct Refutation {
    orientation: u32,
    contradiction: Contradiction,
    steps: usize,
}

impl Trials {
    /// Scratch for `n` cells.
    pub fn new(n: usize) -> Trials {
        Trials {
            queue: Vec::new(),
            queued: vec![false; n],
            work: 0,
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
        self.queue.clear();
        result
    }

    fn push_neighbours(&mut self, pos: &Position, cell: usize) {
        for s in 0..pos.k {
            if let Some((n, _)) = pos.across(cell, s)
                && !self.queued[n]
            {
                self.queued[n] = true;
                self.queue.push(n as u32);
            }
        }
    }
}

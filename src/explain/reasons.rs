//! A propagation that records why: each decided side remembers the cell that forced it and
//! when, so a wiped-out cell can be traced back through the deductions that caused it. Slower
//! than the solver's table-driven propagation and never used to solve: only to explain.

use std::collections::VecDeque;

use super::Deduction;
use crate::model::Game;
use crate::model::direction::{bit, opposite};

const UNKNOWN: u8 = 0;
const ON: u8 = 1;
const OFF: u8 = 2;
/// `forced_by` of a side nobody forced (a border side is not stored at all).
const NOBODY: usize = usize::MAX;

/// Domains over distinct orientations, and per cell side its status and who decided it.
pub struct Propagation<'a> {
    game: &'a Game,
    pub(crate) dom: Vec<u8>,
    /// Status of side `d` of cell `c` at `4 * c + d` (both cells of a side keep a copy).
    status: Vec<u8>,
    forced_by: Vec<usize>,
    time: Vec<u32>,
    clock: u32,
}

impl<'a> Propagation<'a> {
    /// Full domains for every cell of `game`, nothing decided yet: call [`Propagation::run`].
    pub fn new(game: &'a Game) -> Propagation<'a> {
        let n = game.len();
        Propagation {
            game,
            dom: game
                .cells()
                .iter()
                .map(|p| (1u8 << p.kind().orientations()) - 1)
                .collect(),
            status: vec![UNKNOWN; 4 * n],
            forced_by: vec![NOBODY; 4 * n],
            time: vec![0; 4 * n],
            clock: 0,
        }
    }

    /// Whether side `side` of `cell` may still carry a connection.
    pub fn may_use(&self, cell: usize, side: usize) -> bool {
        self.status[4 * cell + side] != OFF
    }

    /// Propagates to a fixed point; `Err(cell)` names the first cell left with no orientation.
    pub fn run(&mut self) -> Result<(), usize> {
        let n = self.game.len();
        let mut queue: VecDeque<usize> = (0..n).collect();
        let mut queued = vec![true; n];
        while let Some(c) = queue.pop_front() {
            queued[c] = false;
            let kind = self.game.cells()[c].kind();
            let mut keep = 0u8;
            for o in 0..kind.orientations() {
                if self.dom[c] & (1 << o) == 0 {
                    continue;
                }
                let m = kind.mask(o);
                let fits = (0..4).all(|d| {
                    let on = m & bit(d) != 0;
                    match self.game.neighbour(c, d) {
                        None => !on,
                        Some(_) => match self.status[4 * c + d] {
                            ON => on,
                            OFF => !on,
                            _ => true,
                        },
                    }
                });
                if fits {
                    keep |= 1 << o;
                }
            }
            if keep == 0 {
                return Err(c);
            }
            self.dom[c] = keep;
            let (mut may, mut must) = (0u8, 0xFu8);
            for o in 0..kind.orientations() {
                if keep & (1 << o) != 0 {
                    may |= kind.mask(o);
                    must &= kind.mask(o);
                }
            }
            for d in 0..4 {
                let Some(nb) = self.game.neighbour(c, d) else {
                    continue;
                };
                if self.status[4 * c + d] != UNKNOWN {
                    continue;
                }
                let st = if must & bit(d) != 0 {
                    ON
                } else if may & bit(d) == 0 {
                    OFF
                } else {
                    continue;
                };
                self.clock += 1;
                for (cell, side) in [(c, d), (nb, opposite(d))] {
                    self.status[4 * cell + side] = st;
                    self.forced_by[4 * cell + side] = c;
                    self.time[4 * cell + side] = self.clock;
                }
                if !queued[nb] {
                    queued[nb] = true;
                    queue.push_back(nb);
                }
            }
        }
        Ok(())
    }

    /// The deductions that led to `cell`'s wipe-out, earliest first: the sides of `cell` that
    /// its neighbours decided, and recursively, for the latest of them, what decided the sides
    /// of that neighbour (a bounded walk back, not the full implication graph).
    pub fn chain(&self, cell: usize) -> Vec<Deduction> {
        const MAX_STEPS: usize = 12;
        let mut out = Vec::new();
        let mut seen = vec![cell];
        let mut at = cell;
        for _ in 0..MAX_STEPS {
            // Sides of `at` decided by others, latest last.
            let mut decided: Vec<(u32, Deduction)> = (0..4)
                .filter(|&d| {
                    let by = self.forced_by[4 * at + d];
                    by != NOBODY && by != at
                })
                .map(|d| {
                    let by = self.forced_by[4 * at + d];
                    (
                        self.time[4 * at + d],
                        Deduction {
                            by,
                            side: opposite(d),
                            on: self.status[4 * at + d] == ON,
                            cell: at,
                        },
                    )
                })
                .collect();
            decided.sort_by_key(|(t, _)| *t);
            let Some((_, latest)) = decided.last().cloned() else {
                break;
            };
            // Newest step goes first in `out` while walking back; reversed at the end.
            for (_, d) in decided.into_iter().rev() {
                out.push(d);
            }
            if seen.contains(&latest.by) {
                break;
            }
            seen.push(latest.by);
            at = latest.by;
        }
        out.reverse();
        out
    }
}

//! Conflict-directed backjumping for the search with a witness.
//!
//! Every refutation in the search reads a set of cells: a propagation that empties a domain
//! reads the cells it narrowed, the cell it emptied and their neighbours; a failed witness
//! repair reads the cells its augmenting-path search reached (or the one cell with too many
//! decided connections); a probe that removes an orientation reads what its trial
//! propagation read. No assignment that agrees with the current domains on those cells is a
//! solution, whatever the other cells hold.
//!
//! Each decision frame collects the cells read by the propagation of each orientation tried
//! (what that propagation concluded depends on them) and by each refutation below it. When
//! every orientation of a frame has failed, the state before it is refuted by its collected
//! cells plus its own cell. Undoing a decision whose changes touch none of those cells leaves
//! them as they were, so the state before that decision is refuted too: the search pops such
//! decisions without trying their other orientations, down to the most recent one that
//! changed a collected cell, and hands the set to it. On a large region whose undecided
//! cells fall into independent pockets, a pocket with no solution then sends the search back
//! to the decisions that shaped it, not through every unrelated decision made since.

use super::board::Board;
use super::state::State;

/// A frame whose collected cells would pass this many entries (8 MiB) stops collecting and counts
/// as refuted by everything, so it backtracks chronologically (a failed augmenting-path
/// search can reach a whole region of millions of cells).
const WIDE: usize = 1 << 21;

/// The open frames together keep at most this many entries (64 MiB); past it, the frame
/// on top stops collecting.
const ALL_FRAMES: usize = 1 << 24;

/// The cells collected by the open frames, one segment per frame in stack order, and the
/// scratch to merge them.
pub(super) struct Conflicts {
    cells: Vec<u32>,
    /// Per open frame: where its segment starts, and whether it is refuted by everything.
    frames: Vec<(usize, bool)>,
    stamp: Vec<u32>,
    epoch: u32,
    set: Vec<u32>,
}

impl Conflicts {
    pub(super) fn new() -> Conflicts {
        Conflicts {
            cells: Vec::new(),
            frames: Vec::new(),
            stamp: Vec::new(),
            epoch: 0,
            set: Vec::new(),
        }
    }

    /// Forgets every frame (a restart).
    pub(super) fn clear(&mut self) {
        self.cells.clear();
        self.frames.clear();
    }

    /// A decision frame was pushed.
    pub(super) fn push(&mut self) {
        self.frames.push((self.cells.len(), false));
    }

    /// Adds `cells` and their neighbours to the top frame's segment.
    pub(super) fn read(&mut self, board: &Board, cells: impl Iterator<Item = usize>) {
        let Some(&mut (start, ref mut wide)) = self.frames.last_mut() else {
            return;
        };
        if *wide {
            return;
        }
        for c in cells {
            self.cells.push(c as u32);
            for s in 0..4 {
                self.cells.push(board.neighbour(c, s) as u32);
            }
            if self.cells.len() - start > WIDE || self.cells.len() > ALL_FRAMES {
                self.cells.truncate(start);
                *wide = true;
                return;
            }
        }
    }

    /// The top frame has no orientation left; `frame(k)` gives the cell and trail mark of the
    /// frame at stack index `k`. Returns how many frames to pop (at least one; all of them
    /// when the region is refuted); the frame left on top receives the refuting cells.
    pub(super) fn jump(&mut self, state: &State, frame: impl Fn(usize) -> (usize, usize)) -> usize {
        let depth = self.frames.len();
        let top = depth - 1;
        let (start, wide) = self.frames[top];
        if wide {
            // Refuted by everything: the frame below is the culprit, and refuted by everything.
            self.frames.pop();
            self.cells.truncate(start);
            if let Some(below) = self.frames.last_mut() {
                self.cells.truncate(below.0);
                below.1 = true;
            }
            return 1;
        }
        if self.stamp.len() < state.dom.len() {
            self.stamp = vec![0; state.dom.len()];
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        self.set.clear();
        let (own, mut end) = frame(top);
        for &c in self.cells[start..].iter().chain([own as u32].iter()) {
            if self.stamp[c as usize] != epoch {
                self.stamp[c as usize] = epoch;
                self.set.push(c);
            }
        }
        for below in (0..top).rev() {
            let mark = frame(below).1;
            let touched = state.changes_since(mark)[..end - mark]
                .iter()
                .any(|&(c, _)| self.stamp[c as usize] == epoch);
            if touched {
                let cut = self.frames[below + 1].0;
                self.frames.truncate(below + 1);
                self.cells.truncate(cut);
                let entry = &mut self.frames[below];
                if !entry.1 {
                    let len = self.cells.len() + self.set.len();
                    if len - entry.0 > WIDE || len > ALL_FRAMES {
                        self.cells.truncate(entry.0);
                        entry.1 = true;
                    } else {
                        self.cells.extend_from_slice(&self.set);
                    }
                }
                return top - below;
            }
            end = mark;
        }
        self.clear();
        depth
    }
}

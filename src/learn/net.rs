//! Net rules under learning: the connections must make one tree over the non-empty cells.
//! Neither rule fits a cell's table, so both are checked as a theory beside the search and
//! each violation becomes a clause that holds in every Net solution (a lemma), handed to
//! conflict analysis like any failed clause:
//!
//! - **no loop**: true edges are joined in a union-find as they are propagated; an edge whose
//!   ends are already joined closes a cycle, and the lemma is "not all of these edges", the
//!   new edge and a path of true edges between its ends;
//! - **no island**: per network (set of the union-find) the count of its cells' sides whose
//!   edge is not yet propagated; when it reaches zero the network is closed, and if it holds
//!   some but not all non-empty cells the lemma is "one of its rim edges is connected", over
//!   the edges leaving it (all false now).
//!
//! Both lemmas hold for any set of cells, whatever was decided: a cycle is never allowed, and
//! a set holding some but not all non-empty cells must be left by a connection. Once every
//! edge is set, each network has closed at some propagation, so a full assignment that
//! passes both checks is one tree: the checks are complete, not only sound.

use super::clauses::Lit;
use super::edges::{Edges, NO_EDGE};
use crate::algo::undo_union_find::UndoUnionFind;

/// The theory's state, undone with the search's levels.
pub(super) struct TreeTheory {
    /// Networks of propagated true edges; a set weighs its non-empty cells.
    sets: UndoUnionFind,
    /// Per root: sides of its cells whose edge is not propagated yet (an open edge with both
    /// ends in the set counts twice, so such a set never looks closed: the full assignment
    /// settles it).
    open: Vec<i32>,
    /// Changes to `open` as (root, amount added), undone by subtracting.
    log: Vec<(u32, i32)>,
    /// Per decision level above 0: the union-find mark and the log length at its start.
    marks: Vec<(usize, usize)>,
    nonempty: u32,
    /// Breadth-first scratch: per cell, the search that reached it and the edge it came by.
    stamp: Vec<u32>,
    now: u32,
    via: Vec<u32>,
    queue: Vec<u32>,
}

impl TreeTheory {
    /// The theory of `e`'s board, nothing propagated yet.
    pub fn new(e: &Edges) -> TreeTheory {
        let n = e.cells();
        let weights: Vec<u32> = (0..n).map(|c| (e.mask(c, 0) != 0) as u32).collect();
        let nonempty = weights.iter().sum();
        let open = (0..n)
            .map(|c| {
                (0..e.k)
                    .filter(|&s| e.side_edge[c * e.k + s] != NO_EDGE)
                    .count() as i32
            })
            .collect();
        TreeTheory {
            sets: UndoUnionFind::with_weights(weights),
            open,
            log: Vec::new(),
            marks: Vec::new(),
            nonempty,
            stamp: vec![0; n],
            now: 0,
            via: vec![0; n],
            queue: Vec::new(),
        }
    }

    /// A non-empty cell with no edge at all while other non-empty cells exist: no tree.
    pub fn has_walled_in_cell(&self) -> bool {
        self.nonempty > 1
            && (0..self.open.len()).any(|c| self.open[c] == 0 && self.sets.weight(c as u32) == 1)
    }

    /// Opens a decision level.
    pub fn push_level(&mut self) {
        self.marks.push((self.sets.mark(), self.log.len()));
    }

    /// Undoes every level above `lvl`.
    pub fn backtrack(&mut self, lvl: usize) {
        if self.marks.len() <= lvl {
            return;
        }
        let (mark, len) = self.marks[lvl];
        self.marks.truncate(lvl);
        self.sets.undo(mark);
        for &(root, amount) in self.log[len..].iter().rev() {
            self.open[root as usize] -= amount;
        }
        self.log.truncate(len);
    }

    fn add_open(&mut self, root: u32, amount: i32) {
        self.open[root as usize] += amount;
        self.log.push((root, amount));
    }

    /// Takes in literal `l` (just propagated); on a violation, writes its lemma (every
    /// literal false now) into `lemma` and returns true.
    pub fn propagate(&mut self, e: &Edges, val: &[u8], l: Lit, lemma: &mut Vec<Lit>) -> bool {
        let v = (l >> 1) as usize;
        let (a, b) = (e.ends[v * 2] >> 3, e.ends[v * 2 + 1] >> 3);
        let (ra, rb) = (self.sets.find(a), self.sets.find(b));
        if l & 1 == 0 {
            if ra == rb {
                self.cycle(e, val, v as u32, a, b, lemma);
                return true;
            }
            self.sets.union(a, b);
            let r = self.sets.find(a);
            let other = if r == ra { rb } else { ra };
            // The new root takes the other's count, less the two sides of this edge.
            self.add_open(r, self.open[other as usize] - 2);
            self.island(e, val, r, lemma)
        } else {
            self.add_open(ra, -1);
            self.add_open(rb, -1);
            self.island(e, val, ra, lemma) || self.island(e, val, rb, lemma)
        }
    }

    /// The lemma of a closed network under `root` that holds some but not all non-empty
    /// cells: one of the edges leaving it is connected.
    fn island(&mut self, e: &Edges, val: &[u8], root: u32, lemma: &mut Vec<Lit>) -> bool {
        let w = self.sets.weight(root);
        if self.open[root as usize] != 0 || w == 0 || w == self.nonempty {
            return false;
        }
        self.reach(e, val, root, u32::MAX);
        lemma.clear();
        for &c in &self.queue {
            for s in 0..e.k {
                let x = e.side_edge[c as usize * e.k + s];
                if x == NO_EDGE {
                    continue;
                }
                let (p, q) = (e.ends[x as usize * 2], e.ends[x as usize * 2 + 1]);
                let other = if p == c * 8 + s as u32 { q } else { p } >> 3;
                if self.stamp[other as usize] != self.now {
                    debug_assert_eq!(val[x as usize], 0, "a closed network's rim is off");
                    lemma.push(x * 2);
                }
            }
        }
        true
    }

    /// The lemma of edge `v` (true, from `a` to `b`) closing a cycle: not all of it and a
    /// path of true edges from `b` back to `a`.
    fn cycle(&mut self, e: &Edges, val: &[u8], v: u32, a: u32, b: u32, lemma: &mut Vec<Lit>) {
        self.reach(e, val, a, v);
        lemma.clear();
        lemma.push(v * 2 + 1);
        let mut c = b;
        while c != a {
            let x = self.via[c as usize];
            debug_assert_eq!(val[x as usize], 1);
            lemma.push(x * 2 + 1);
            let (p, q) = (e.ends[x as usize * 2] >> 3, e.ends[x as usize * 2 + 1] >> 3);
            c = if p == c { q } else { p };
        }
    }

    /// Marks with a new stamp the cells joined to `from` by true edges other than `skip`,
    /// in `queue`, each with the edge it was reached by in `via`.
    fn reach(&mut self, e: &Edges, val: &[u8], from: u32, skip: u32) {
        self.now += 1;
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from as usize] = self.now;
        let mut i = 0;
        while i < self.queue.len() {
            let c = self.queue[i] as usize;
            i += 1;
            for s in 0..e.k {
                let x = e.side_edge[c * e.k + s];
                if x == NO_EDGE || x == skip || val[x as usize] != 1 {
                    continue;
                }
                let (p, q) = (e.ends[x as usize * 2] >> 3, e.ends[x as usize * 2 + 1] >> 3);
                let other = if p as usize == c { q } else { p };
                if self.stamp[other as usize] != self.now {
                    self.stamp[other as usize] = self.now;
                    self.via[other as usize] = x;
                    self.queue.push(other);
                }
            }
        }
    }
}

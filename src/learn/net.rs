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
//!
//! The cycle rule also propagates, one step before it fails: an open edge with both ends in
//! one network is set off. Its reason is the cycle lemma's clause, built only when conflict
//! analysis asks (as the cell tables' are) from the edges assigned before it: a path of
//! connections between the edge's ends. Without it the search decided almost every edge
//! itself (hexagonal Net 128x128: 14.8k decisions for 16k cells). The island rule has no
//! such step to take: when a network has one open side left, every other side of that
//! side's cell is set, so the cell's table has set that side already (a literal reaches the
//! tables of both its cells before the theory sees it).

use super::clauses::Lit;
use super::edges::{Edges, NO_EDGE};
use super::search::UNSET;
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
    walk: Walk,
}

impl TreeTheory {
    /// The theory of `e`'s board, nothing propagated yet.
    pub fn new(e: &Edges) -> TreeTheory {
        let n = e.cells();
        let weights: Vec<u32> = (0..n).map(|c| (e.mask(c, 0) != 0) as u32).collect();
        let nonempty = weights.iter().sum();
        let open = (0..n)
            .map(|c| (0..e.k).filter(|&s| e.edge(c, s) != NO_EDGE).count() as i32)
            .collect();
        TreeTheory {
            sets: UndoUnionFind::with_weights(weights),
            open,
            log: Vec::new(),
            marks: Vec::new(),
            nonempty,
            walk: Walk {
                stamp: vec![0; n],
                now: 0,
                via: vec![0; n],
                queue: Vec::new(),
            },
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
    /// literal false now) into `lemma` and returns true. Otherwise literals the rules force
    /// are added to `implied` (unset now; the caller sets them, [`TreeTheory::explain`]
    /// gives their reasons).
    pub fn propagate(
        &mut self,
        e: &Edges,
        val: &[u8],
        l: Lit,
        lemma: &mut Vec<Lit>,
        implied: &mut Vec<Lit>,
    ) -> bool {
        let v = (l >> 1) as usize;
        let [a, b] = e.ends(v as u32).map(|x| x >> 3);
        let (ra, rb) = (self.sets.find(a), self.sets.find(b));
        if l & 1 == 0 {
            if ra == rb {
                self.cycle(e, val, v as u32, a, b, lemma);
                return true;
            }
            let small = if self.sets.weight(ra) <= self.sets.weight(rb) {
                a
            } else {
                b
            };
            self.sets.union(a, b);
            let r = self.sets.find(a);
            let other = if r == ra { rb } else { ra };
            // The new root takes the other's count, less the two sides of this edge.
            self.add_open(r, self.open[other as usize] - 2);
            if self.island(e, val, r, lemma) {
                return true;
            }
            self.forbid_inner(e, val, small, v as u32, r, implied);
        } else {
            self.add_open(ra, -1);
            self.add_open(rb, -1);
            if self.island(e, val, ra, lemma) || self.island(e, val, rb, lemma) {
                return true;
            }
        }
        false
    }

    /// After a join by edge `join` into `root`: every open edge from the cells joined to
    /// `from` (the side that weighed less) to another cell of `root`'s network would close
    /// a cycle, so it is set off.
    fn forbid_inner(
        &mut self,
        e: &Edges,
        val: &[u8],
        from: u32,
        join: u32,
        root: u32,
        out: &mut Vec<Lit>,
    ) {
        // The walk stays on `from`'s side: small to large keeps the joins' walks at
        // O(n log n) cells on the way down.
        self.reach_in(e, val, from, join, root);
        for i in 0..self.walk.queue.len() {
            let c = self.walk.queue[i];
            for s in 0..e.k {
                let x = e.edge(c as usize, s);
                if x == NO_EDGE || val[x as usize] != UNSET {
                    continue;
                }
                let other = far_cell(e, x, c);
                if self.sets.find(other) == root {
                    out.push(x * 2 + 1);
                }
            }
        }
    }

    /// The reason the theory set edge `x` off (now set, at trail position `pos[x]`): the
    /// clause `implied` first, then a path of connections made before it between its ends.
    pub fn explain(&mut self, e: &Edges, val: &[u8], pos: &[u32], x: u32, out: &mut Vec<Lit>) {
        out.clear();
        debug_assert_eq!(val[x as usize], 0, "the theory sets edges off only");
        let before = pos[x as usize];
        let [a, b] = e.ends(x).map(|y| y >> 3);
        self.walk.reach_by(e, a, |y, _| {
            val[y as usize] == 1 && pos[y as usize] < before
        });
        debug_assert_eq!(
            self.walk.stamp[b as usize], self.walk.now,
            "no path behind a cycle"
        );
        out.push(x * 2 + 1);
        self.walk.push_path(e, a, b, out);
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
        for &c in &self.walk.queue {
            for s in 0..e.k {
                let x = e.edge(c as usize, s);
                if x == NO_EDGE {
                    continue;
                }
                let other = far_cell(e, x, c);
                if self.walk.stamp[other as usize] != self.walk.now {
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
        self.walk.push_path(e, a, b, lemma);
        debug_assert!(lemma[1..].iter().all(|&l| val[(l >> 1) as usize] == 1));
    }

    /// Marks with a new stamp the cells joined to `from` by true edges other than `skip`,
    /// in `queue`, each with the edge it was reached by in `via`.
    fn reach(&mut self, e: &Edges, val: &[u8], from: u32, skip: u32) {
        self.walk
            .reach_by(e, from, |x, _| x != skip && val[x as usize] == 1);
    }

    /// [`TreeTheory::reach`] within the network under `root` (true edges set but not yet
    /// taken in may lead out of it).
    fn reach_in(&mut self, e: &Edges, val: &[u8], from: u32, skip: u32, root: u32) {
        let sets = &self.sets;
        self.walk.reach_by(e, from, |x, c| {
            x != skip && val[x as usize] == 1 && sets.find(c) == root
        });
    }
}

/// Breadth-first scratch: per cell, the walk that reached it and the edge it came by.
struct Walk {
    stamp: Vec<u32>,
    now: u32,
    via: Vec<u32>,
    queue: Vec<u32>,
}

impl Walk {
    /// After a walk from `a` that reached `b`: the "not connected" literals of the edges it
    /// took from `a` to `b`, pushed onto `out`.
    fn push_path(&self, e: &Edges, a: u32, b: u32, out: &mut Vec<Lit>) {
        let mut c = b;
        while c != a {
            let x = self.via[c as usize];
            out.push(x * 2 + 1);
            c = far_cell(e, x, c);
        }
    }

    /// Marks with a new stamp the cells joined to `from` by edges `usable` accepts (given
    /// the edge and the cell it leads to), in `queue`, each with the edge it was reached by
    /// in `via`.
    fn reach_by(&mut self, e: &Edges, from: u32, usable: impl Fn(u32, u32) -> bool) {
        self.now += 1;
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from as usize] = self.now;
        let mut i = 0;
        while i < self.queue.len() {
            let c = self.queue[i] as usize;
            i += 1;
            for s in 0..e.k {
                let x = e.edge(c, s);
                if x == NO_EDGE {
                    continue;
                }
                let other = far_cell(e, x, c as u32);
                if self.stamp[other as usize] != self.now && usable(x, other) {
                    self.stamp[other as usize] = self.now;
                    self.via[other as usize] = x;
                    self.queue.push(other);
                }
            }
        }
    }
}

/// The cell at the end of edge `x` that is not `c` (`c` itself for an edge from a cell to
/// itself, on a board one cell wide that wraps).
#[inline]
fn far_cell(e: &Edges, x: u32, c: u32) -> u32 {
    let [p, q] = e.ends(x).map(|y| y >> 3);
    if p == c { q } else { p }
}

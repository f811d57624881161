//! Odd pockets: a set of cells that the edges already set close off from the rest (every
//! edge leaving it is set) must have an even number of ends left to connect among
//! themselves, since each connection still open joins two of them. Under a partial
//! assignment where that count is odd, no turn of the cells inside completes it. Clause
//! learning alone refutes such a pocket only slowly (a parity argument, for which
//! resolution needs many clauses), and on levels of mostly one-end pieces a search closes
//! pockets all the time: each one found is a conflict whose lemma (one of the edges set
//! around or inside it must change) is learned like any other clause.
//!
//! After each propagation, the cells of the edges set since the last look are searched
//! from, breadth first over edges not set, all at once: searches that meet merge, and a
//! search with nothing left to expand has found a closed set. The ends left over every
//! cell are even in number (each connection has two), so when all but one of the sets
//! reached are closed and even, so is the last (what the earlier looks found even stays
//! so until an edge at it is set): the look stops there, which spares it the walk over
//! the large set of cells not decided yet. That stop only ever misses a pocket; a lemma
//! is only made of a set explored to its end.

use super::clauses::{Lit, var};
use super::edges::{Edges, NO_EDGE};
use super::search::UNSET;
use crate::algo::union_find::UnionFind;

/// Scratch of the looks, and how far along the trail they have looked.
pub(super) struct Pockets {
    /// Per cell, the look that last reached it.
    stamp: Vec<u32>,
    /// Per cell, the search of the current look that reached it.
    owner: Vec<u32>,
    now: u32,
    /// The searches of the current look: those that met are one set.
    searches: UnionFind,
    /// Per search (at its set's root), the parity of the ends left in the cells it has
    /// expanded, and its cells reached but not expanded yet.
    odd: Vec<u8>,
    pending: Vec<u32>,
    /// Cells reached by the current look, in the order reached.
    queue: Vec<u32>,
    /// Trail entries already looked around.
    head: usize,
}

impl Pockets {
    pub fn new(cells: usize) -> Pockets {
        Pockets {
            stamp: vec![0; cells],
            owner: vec![0; cells],
            now: 0,
            searches: UnionFind::new(0),
            odd: Vec::new(),
            pending: Vec::new(),
            queue: Vec::new(),
            head: 0,
        }
    }

    /// The trail was cut back to `len` entries.
    pub fn backtrack(&mut self, len: usize) {
        self.head = self.head.min(len);
    }

    /// Looks around both ends of every edge set since the last look: true when an odd
    /// pocket is found, its lemma in `lemma` (every literal false).
    pub fn odd(
        &mut self,
        e: &Edges,
        val: &[u8],
        level: &[u32],
        trail: &[Lit],
        lemma: &mut Vec<Lit>,
    ) -> bool {
        if self.head >= trail.len() {
            return false;
        }
        let from = self.head;
        self.head = trail.len();
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
        self.searches.clear();
        self.odd.clear();
        self.pending.clear();
        self.queue.clear();
        for &l in &trail[from..] {
            for end in e.ends(var(l)) {
                let c = (end >> 3) as usize;
                if self.stamp[c] != self.now {
                    self.stamp[c] = self.now;
                    self.owner[c] = self.searches.push();
                    self.odd.push(0);
                    self.pending.push(1);
                    self.queue.push(c as u32);
                }
            }
        }
        let mut active = self.odd.len();
        let mut head = 0;
        while head < self.queue.len() && active > 1 {
            let c = self.queue[head] as usize;
            head += 1;
            let mut r = self.searches.find(self.owner[c]);
            self.pending[r as usize] -= 1;
            // Ends left: the piece's, less the sides connected so far (a side with an
            // edge by the edge's value, a fixed rim side without one by its mark).
            let mut left = e.mask(c, 0).count_ones();
            for s in 0..e.k {
                let v = e.edge(c, s);
                if v == NO_EDGE {
                    left ^= (e.fixed[c] >> s & 1) as u32;
                    continue;
                }
                match val[v as usize] {
                    1 => left ^= 1,
                    UNSET => {
                        let (d, _) = e.facing(v, c, s);
                        if self.stamp[d] != self.now {
                            self.stamp[d] = self.now;
                            self.owner[d] = r;
                            self.pending[r as usize] += 1;
                            self.queue.push(d as u32);
                        } else {
                            let r2 = self.searches.find(self.owner[d]);
                            if r2 != r {
                                r = self.merge(r, r2);
                                active -= 1;
                            }
                        }
                    }
                    _ => {}
                }
            }
            self.odd[r as usize] ^= (left & 1) as u8;
            if self.pending[r as usize] == 0 {
                active -= 1;
                if self.odd[r as usize] == 1 {
                    self.lemma(e, val, level, r, head, lemma);
                    return true;
                }
            }
        }
        false
    }

    /// Joins the searches `a` and `b` (roots): the root of the two, which holds their
    /// sums.
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        self.searches.union(a, b);
        let r = self.searches.find(a);
        let (odd, pending) = (
            self.odd[a as usize] ^ self.odd[b as usize],
            self.pending[a as usize] + self.pending[b as usize],
        );
        self.odd[r as usize] = odd;
        self.pending[r as usize] = pending;
        r
    }

    /// The lemma of the closed set of search `r`, whose cells are among the first
    /// `reached` of the queue: one of the edges set around it (above level 0) must change.
    /// The ends left inside are the pieces' ends less the connections at the border, as each
    /// connection inside uses up two: the parity rests on the border alone.
    fn lemma(
        &mut self,
        e: &Edges,
        val: &[u8],
        level: &[u32],
        r: u32,
        reached: usize,
        lemma: &mut Vec<Lit>,
    ) {
        lemma.clear();
        for i in 0..reached {
            let c = self.queue[i] as usize;
            if self.searches.find(self.owner[c]) != r {
                continue;
            }
            for s in 0..e.k {
                let v = e.edge(c, s);
                if v == NO_EDGE || val[v as usize] == UNSET || level[v as usize] == 0 {
                    continue;
                }
                let (d, _) = e.facing(v, c, s);
                if self.stamp[d] == self.now && self.searches.find(self.owner[d]) == r {
                    // Both ends inside: a connection there uses up two ends, so it leaves
                    // the parity as it is.
                    continue;
                }
                // The literal false now: "connected" when the edge is off.
                lemma.push(2 * v + val[v as usize] as u32);
            }
        }
        lemma.sort_unstable();
        lemma.dedup();
    }
}

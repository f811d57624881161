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
//! search with nothing left to expand has found a closed set. Where the board's faces are
//! traced (`splits.rs`), only the edges that may have cut a piece off are searched from (a
//! set that was not cut off keeps the parity it had, which an earlier look found even), and
//! on a bounded board not even those when every piece they cut off is known to be even.
//! The ends left over every cell are even in number (each connection has two), so when
//! all but one of the sets reached are closed and even, so is the last (what the earlier
//! looks found even stays so until an edge at it is set): the look stops there, which
//! spares it the walk over the large set of cells not decided yet. That stop only ever misses a pocket; a lemma
//! is only made of a set explored to its end.

use super::clauses::{Lit, var};
use super::edges::{Edges, NO_EDGE};
use super::search::UNSET;
use super::splits::{Cut, Splits};
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
    /// The edges set that may cut a piece off (`None`: look around every edge set).
    splits: Option<Splits>,
    /// Trail places of the edges of the current look that may have cut a piece off.
    cuts: Vec<u32>,
}

impl Pockets {
    pub fn new(e: &Edges) -> Pockets {
        let cells = e.cells();
        Pockets {
            stamp: vec![0; cells],
            owner: vec![0; cells],
            now: 0,
            searches: UnionFind::new(0),
            odd: Vec::new(),
            pending: Vec::new(),
            queue: Vec::new(),
            head: 0,
            splits: Splits::new(e),
            cuts: Vec::new(),
        }
    }

    /// The trail was cut back to `len` entries.
    pub fn backtrack(&mut self, len: usize) {
        self.head = self.head.min(len);
        if let Some(sp) = &mut self.splits {
            sp.truncate(len);
        }
    }

    /// Looks around both ends of every edge set since the last look: true when an odd
    /// pocket is found, its lemma in `lemma` (every literal false).
    pub fn odd(
        &mut self,
        e: &Edges,
        val: &[u8],
        level: &[u32],
        pos: &[u32],
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
        debug_assert!(self.splits.as_ref().is_none_or(|sp| sp.len() == from));
        // The edges that may have cut a piece off; none of them needs a look when each
        // cut is known even.
        self.cuts.clear();
        let mut uncertain = false;
        for (i, &l) in trail.iter().enumerate().skip(from) {
            match self.splits.as_mut().map_or(Cut::May, |sp| sp.take(l)) {
                Cut::No => continue,
                Cut::Even => {}
                Cut::May | Cut::Odd => uncertain = true,
            }
            self.cuts.push(i as u32);
        }
        if !uncertain {
            return false;
        }
        let cuts = std::mem::take(&mut self.cuts);
        for &i in &cuts {
            let (i, l) = (i as usize, trail[i as usize]);
            let v = var(l);
            let [a, b] = e.ends(v).map(|end| (end >> 3) as usize);
            // The last edge of a cell cuts it off alone, and a cell with every side set is
            // even (it holds a turn of its piece): the set the edge leaves on the other side
            // has the parity it had.
            if [a, b].iter().any(|&c| last_edge(e, val, pos, c) == Some(i)) {
                continue;
            }
            for c in [a, b] {
                if let Some(c) = open_cell_of(e, val, pos, c)
                    && self.stamp[c] != self.now
                {
                    self.stamp[c] = self.now;
                    self.owner[c] = self.searches.push();
                    self.odd.push(0);
                    self.pending.push(1);
                    self.queue.push(c as u32);
                }
            }
        }
        self.cuts = cuts;
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

/// The trail position of the edge set last around `c` when every side of `c` is set
/// (`pos`: per edge, its place on the trail), else `None`.
fn last_edge(e: &Edges, val: &[u8], pos: &[u32], c: usize) -> Option<usize> {
    let mut last = None;
    for s in 0..e.k {
        let v = e.edge(c, s);
        if v == NO_EDGE {
            continue;
        }
        if val[v as usize] == UNSET {
            return None;
        }
        last = last.max(Some(pos[v as usize] as usize));
    }
    last
}

/// A cell with an edge not set in the set that `c` belonged to before its last edge cut
/// it off: `c` itself while it has one, else the cell across that last edge, and so on
/// (each step to a later edge on the trail); `None` when the set ran out of such cells,
/// all of them cut off one by one.
fn open_cell_of(e: &Edges, val: &[u8], pos: &[u32], mut c: usize) -> Option<usize> {
    loop {
        let Some(last) = last_edge(e, val, pos, c) else {
            return Some(c);
        };
        let s = (0..e.k).find(|&s| {
            let v = e.edge(c, s);
            v != NO_EDGE && pos[v as usize] as usize == last
        })?;
        let v = e.edge(c, s);
        let (d, _) = e.facing(v, c, s);
        if last_edge(e, val, pos, d) == Some(last) || d == c {
            // Cut off together: the pair was closed and even, and so is each alone.
            return None;
        }
        c = d;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::union_find::UnionFind;
    use crate::board::BoardLevel;
    use crate::board::fixtures::{random_connections, small_boards};

    /// Whether some side of `c` has an edge not set yet.
    fn has_open_side(e: &Edges, val: &[u8], c: usize) -> bool {
        (0..e.k).any(|s| {
            let v = e.edge(c, s);
            v != NO_EDGE && val[v as usize] == UNSET
        })
    }

    /// Ends left in `c`, mod 2, under `val`.
    fn left(e: &Edges, val: &[u8], c: usize) -> u32 {
        let connected = (0..e.k)
            .filter(|&s| {
                let v = e.edge(c, s);
                v != NO_EDGE && val[v as usize] == 1
            })
            .count() as u32;
        (e.mask(c, 0).count_ones() + connected) & 1
    }

    /// How many sets of cells joined by edges not set have an odd number of ends left.
    fn odd_sets(e: &Edges, val: &[u8]) -> usize {
        let mut uf = UnionFind::new(e.cells());
        for v in 0..e.len() as u32 {
            let [a, b] = e.ends(v);
            if val[v as usize] == UNSET && a != b {
                uf.union(a >> 3, b >> 3);
            }
        }
        let mut parity = vec![0u32; e.cells()];
        for c in 0..e.cells() {
            parity[uf.find(c as u32) as usize] ^= left(e, val, c);
        }
        parity.iter().filter(|&&p| p == 1).count()
    }

    /// Edges set one at a time in a random order (each cell, once every side is set, even,
    /// as propagation leaves it), a look after each: it finds an odd pocket exactly when a
    /// set of cells cut off has an odd number of ends left, its lemma all false; then the
    /// step is taken back, as a search would. With the faces' rings (`splits.rs`) and with
    /// looks from every edge alike.
    #[test]
    fn a_look_finds_an_odd_pocket_exactly_when_one_is_cut_off() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut found = [0, 0];
        for b in small_boards(2..=6, 30) {
            for _ in 0..3 {
                let level = BoardLevel::new(b.clone(), random_connections(&b, &mut rng)).unwrap();
                let mut e = Edges::new(&level);
                for turning in [true, false] {
                    e.turning = turning;
                    found[turning as usize] += run_looks(&e, &mut rng);
                }
            }
        }
        assert!(found[0] > 300 && found[1] > 300, "pockets found: {found:?}");
    }

    /// One random run of looks on `e`: the pockets found.
    fn run_looks(e: &Edges, rng: &mut fastrand::Rng) -> usize {
        let n = e.len();
        let mut val = vec![UNSET; n];
        for v in e.missing() {
            val[v as usize] = 0;
        }
        let level = vec![1u32; n];
        let mut pos = vec![0u32; n];
        let mut trail: Vec<Lit> = Vec::new();
        let mut pockets = Pockets::new(e);
        let mut lemma = Vec::new();
        let mut order: Vec<u32> = (0..n as u32)
            .filter(|&v| val[v as usize] == UNSET)
            .collect();
        rng.shuffle(&mut order);
        let mut found = 0;
        // Edges set since the last look, which a pocket found takes back.
        let mut window = Vec::new();
        let mut size = 1 + rng.usize(..6);
        for v in order {
            let first = rng.u8(..2);
            let [a, b] = e.ends(v).map(|x| (x >> 3) as usize);
            let even = |val: &[u8], c: usize| has_open_side(e, val, c) || left(e, val, c) == 0;
            let Some(x) = [first, 1 - first].into_iter().find(|&x| {
                val[v as usize] = x;
                let ok = even(&val, a) && even(&val, b);
                val[v as usize] = UNSET;
                ok
            }) else {
                continue;
            };
            val[v as usize] = x;
            pos[v as usize] = trail.len() as u32;
            trail.push(2 * v + 1 - x as u32);
            window.push(v);
            if window.len() < size {
                continue;
            }
            size = 1 + rng.usize(..6);
            let odd = pockets.odd(e, &val, &level, &pos, &trail, &mut lemma);
            assert_eq!(odd, odd_sets(e, &val) > 0, "turning {}", e.turning);
            if odd {
                found += 1;
                assert!(!lemma.is_empty());
                for &l in lemma.iter() {
                    assert_eq!(
                        val[var(l) as usize],
                        (l & 1) as u8,
                        "a lemma literal is false"
                    );
                }
                for &w in &window {
                    val[w as usize] = UNSET;
                }
                trail.truncate(trail.len() - window.len());
                pockets.backtrack(trail.len());
            }
            window.clear();
        }
        found
    }
}

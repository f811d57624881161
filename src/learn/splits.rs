//! Which set edges cut the open cells apart, by duality. The cells and the edges not set yet
//! form a graph drawn on the board, whose faces are the corners of the tiling where its
//! cells meet (with walls and borders, the larger faces they leave); setting an edge takes
//! it out. A set of edges whose removal cuts a piece off is, across the drawing, a closed
//! ring of faces (a cut's dual is a cycle), so taking out an edge can only cut a piece off
//! when the two faces on its sides are already joined through the sides of edges set
//! before. Faces joined that way are kept as disjoint sets that undo with the trail: an
//! edge whose faces are already one set *may* cut a piece off, any other surely does not.
//!
//! On a bounded board a ring also tells the parity of the piece it closes off, by
//! discrete Green's theorem: give each side a bit so that the bits around every cell add
//! up to the parity of its ends left (a side's bit flips when its edge is connected, as
//! both its cells' parities do); the cells inside a ring then add up to the bits on the
//! ring, which the sets keep as parities along their links. A cut with an even side needs
//! no look at all.
//!
//! The odd-pocket looks (`pockets.rs`) use both: a look from every edge set, as before,
//! spent most of its time meeting its own searches again around cuts that were never
//! closed, and walking pieces cut off even, thousands of cells on large boards.
//!
//! The faces are traced from each cell's turning order of its sides (one sense for every
//! cell: square and hexagonal boards; hexapipes' mixed grids keep the looks from every
//! edge). On a wrapped board a ring need not close anything off (it may go round the
//! torus): there it only says "may cut", and the parity is left to the look.

use super::clauses::{Lit, var};
use super::edges::{Edges, NO_EDGE};
use crate::algo::parity_union_find::ParityUnionFind;

/// Sides per board (`cells * sides`) above which the looks start from every edge set: the
/// sets and tables, about twelve bytes a side, stay under 48 MB a search (a square
/// 1024x1024 board, at the cap, peaked 74 MB higher with two searches raced).
const MAX_BOARD_SIDES: usize = 1 << 22;

/// No face: a variable no cell reads.
const NONE: u32 = u32::MAX;

/// What taking out an edge did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    /// Cut nothing off.
    No,
    /// Cut a piece off whose ends left are even, and so are those of the rest.
    Even,
    /// May have cut a piece off, of a parity not known here.
    May,
    /// Cut off a piece whose ends left are odd.
    Odd,
}

/// The faces joined by the sides of the edges set, in trail order.
pub(super) struct Splits {
    sets: ParityUnionFind,
    /// Per trail entry taken in, the sets' undo mark before it.
    marks: Vec<u32>,
    /// Per edge, the faces on the two sides of it, one at each end's side ([`NONE`] for a
    /// variable no cell reads).
    faces: Vec<[u32; 2]>,
    /// On a bounded board whose every part has an even number of ends, per edge, its side's
    /// bit before any connection (see the module doc).
    bits: Option<Vec<u8>>,
}

impl Splits {
    /// The faces of `e`'s drawing, each alone; `None` where they are not traced (see the
    /// module doc) or the board is too large.
    pub fn new(e: &Edges) -> Option<Splits> {
        if !e.turning || e.cells() * e.k > MAX_BOARD_SIDES {
            return None;
        }
        let (faces, count) = trace_faces(e);
        Some(Splits {
            sets: ParityUnionFind::new(count),
            marks: Vec::new(),
            faces,
            bits: if e.bounded { side_bits(e) } else { None },
        })
    }

    /// How many trail entries are taken in.
    pub fn len(&self) -> usize {
        self.marks.len()
    }

    /// Takes in trail entry `l` (the next one; its edge set as `l` says).
    pub fn take(&mut self, l: Lit) -> Cut {
        self.marks.push(self.sets.mark() as u32);
        let v = var(l) as usize;
        let [p, q] = self.faces[v];
        if p == NONE {
            return Cut::No;
        }
        // `l` is even when it connects.
        let bit = self.bits.as_ref().map_or(0, |b| b[v] ^ (1 - (l & 1) as u8));
        match (self.sets.link(p, q, bit), self.bits.is_some()) {
            (None, _) => Cut::No,
            (Some(_), false) => Cut::May,
            (Some(0), true) => Cut::Even,
            (Some(_), true) => Cut::Odd,
        }
    }

    /// Forgets the trail entries from `len` on.
    pub fn truncate(&mut self, len: usize) {
        if let Some(&m) = self.marks.get(len) {
            self.sets.undo(m as usize);
            self.marks.truncate(len);
        }
    }
}

/// Per edge, the faces at its two ends' sides, and the number of faces. The face at side
/// `s` of a cell is the one between `s` and the cell's next side with an edge; from there
/// the face goes on across `s` to the neighbour, at the side with an edge before the one
/// facing `s` (each cell's sides turn one way, so this walks round the face).
fn trace_faces(e: &Edges) -> (Vec<[u32; 2]>, usize) {
    let mut faces = vec![[NONE; 2]; e.len()];
    let end_of = |v: u32, c: usize, s: usize| usize::from(e.ends(v)[0] != (c * 8 + s) as u32);
    let mut count = 0;
    for v in 0..e.len() as u32 {
        let ends = e.ends(v);
        if ends[0] == ends[1] {
            continue;
        }
        for first in ends {
            let (mut c, mut s) = ((first >> 3) as usize, (first & 7) as usize);
            let w = e.edge(c, s);
            if faces[w as usize][end_of(w, c, s)] != NONE {
                continue;
            }
            loop {
                let w = e.edge(c, s);
                let slot = &mut faces[w as usize][end_of(w, c, s)];
                if *slot != NONE {
                    break;
                }
                *slot = count;
                let (d, t) = e.facing(w, c, s);
                (c, s) = (d, side_before(e, d, t));
            }
            count += 1;
        }
    }
    (faces, count as usize)
}

/// The side of `c` with an edge that comes last before side `t` (`t` itself when no other
/// has one).
fn side_before(e: &Edges, c: usize, t: usize) -> usize {
    (1..=e.k)
        .map(|i| (t + e.k - i) % e.k)
        .find(|&s| e.edge(c, s) != NO_EDGE)
        .unwrap_or(t)
}

/// Per edge, a bit for its side such that the bits round each cell add up to the parity
/// of the cell's ends left before any connection (its piece's ends less its fixed
/// connections): laid on a spanning forest of the open edges from the leaves up. `None`
/// when some part of the board has an odd number of ends, which no bits can match.
fn side_bits(e: &Edges) -> Option<Vec<u8>> {
    let n = e.cells();
    let mut need: Vec<u8> = (0..n)
        .map(|c| ((e.mask(c, 0).count_ones() + e.fixed[c].count_ones()) & 1) as u8)
        .collect();
    let mut up = vec![NONE; n];
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let start = order.len();
        order.push(root as u32);
        let mut head = start;
        while head < order.len() {
            let c = order[head] as usize;
            head += 1;
            for s in 0..e.k {
                if let Some((d, _)) = e.across(c, s)
                    && !seen[d]
                {
                    seen[d] = true;
                    up[d] = e.edge(c, s);
                    order.push(d as u32);
                }
            }
        }
    }
    let mut bits = vec![0u8; e.len()];
    for &c in order.iter().rev() {
        let c = c as usize;
        if up[c] == NONE {
            if need[c] == 1 {
                return None;
            }
            continue;
        }
        let v = up[c];
        bits[v as usize] = need[c];
        let [a, b] = e.ends(v);
        let parent = if (a >> 3) as usize == c {
            b >> 3
        } else {
            a >> 3
        };
        need[parent as usize] ^= need[c];
    }
    Some(bits)
}

#[cfg(test)]
mod tests {
    use super::super::search::UNSET;
    use super::*;
    use crate::algo::union_find::UnionFind;
    use crate::board::fixtures::{random_connections, small_boards};
    use crate::board::{Board, BoardLevel, Tiling, Wrap};

    /// Per cell, its part: the cells joined by the edges `open` leaves in.
    fn parts(e: &Edges, open: &[bool]) -> UnionFind {
        let mut uf = UnionFind::new(e.cells());
        for (v, &o) in open.iter().enumerate() {
            let [a, b] = e.ends(v as u32);
            if o && a != b {
                uf.union(a >> 3, b >> 3);
            }
        }
        uf
    }

    /// Per part (at its root), the parity of its ends left under `val` (1 connected).
    fn parities(e: &Edges, uf: &mut UnionFind, val: &[u8]) -> Vec<u8> {
        let mut p = vec![0u8; e.cells()];
        for c in 0..e.cells() {
            let connected = (0..e.k)
                .filter(|&s| {
                    let v = e.edge(c, s);
                    v != NO_EDGE && val[v as usize] == 1
                })
                .count() as u32;
            let left = e.mask(c, 0).count_ones() + e.fixed[c].count_ones() + connected;
            p[uf.find(c as u32) as usize] ^= (left & 1) as u8;
        }
        p
    }

    /// Square and hexagonal boards, bounded and wrapped, some with barriers, each with
    /// random pieces that fit together.
    fn levels(rng: &mut fastrand::Rng) -> Vec<BoardLevel> {
        let mut boards = small_boards(1..=6, 40);
        for tiling in Tiling::ALL {
            for wrap in [Wrap::NONE, Wrap::BOTH] {
                boards.push(Board::new(tiling, 7, 6, wrap).unwrap());
            }
        }
        let mut out = Vec::new();
        for b in boards {
            let masks = random_connections(&b, rng);
            let level = BoardLevel::new(b.clone(), masks.clone()).unwrap();
            // Barriers on some sides no piece uses: the pieces still fit.
            let mut barriers = vec![0u8; b.len()];
            for (c, s) in b.edges() {
                let (n, t) = b.neighbour(c, s).unwrap();
                if masks[c] >> s & 1 == 0 && rng.u8(..3) == 0 && (n, t) != (c, s) {
                    barriers[c] |= 1 << s;
                    barriers[n] |= 1 << t;
                }
            }
            if let Ok(walled) = level.clone().with_barriers(barriers) {
                out.push(walled);
            }
            out.push(level);
        }
        out
    }

    /// The edges of the part holding cell 0 once a third of the edges are set as in the
    /// solution `solved` (per cell, its connected sides): walls and fixed connections
    /// round it, which the whole board has not.
    fn region(e: &Edges, solved: &[u8], rng: &mut fastrand::Rng) -> Edges {
        let mut val = vec![UNSET; e.len()];
        for v in 0..e.len() as u32 {
            let [a, b] = e.ends(v);
            if a == b || rng.u8(..3) == 0 {
                val[v as usize] = solved[(a >> 3) as usize] >> (a & 7) & 1;
            }
        }
        let open: Vec<bool> = val.iter().map(|&x| x == UNSET).collect();
        let mut uf = parts(e, &open);
        let root = uf.find(0);
        let cells: Vec<u32> = (0..e.cells() as u32)
            .filter(|&c| uf.find(c) == root)
            .collect();
        let mut local = vec![0; e.cells()];
        e.region(&val, &cells, &mut local, false).0
    }

    /// Edges set one by one in a random order, to random values, as a search sets them
    /// (a step that leaves a part odd is taken back, as the search's look would refute
    /// it): every step that cuts a part in two is a ring of faces; on a bounded board,
    /// every ring is a cut, and its parity that of the piece cut off.
    #[test]
    fn every_cut_is_a_ring_and_a_ring_tells_the_pieces_parity() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut seen = [0u32; 4];
        for level in levels(&mut rng) {
            let whole = Edges::new(&level);
            let bounded = !level.board().wrap().any();
            for e in [region(&whole, level.masks(), &mut rng), whole] {
                for _ in 0..4 {
                    let mut sp = Splits::new(&e).expect("square and hexagonal boards have faces");
                    assert_eq!(
                        sp.bits.is_some(),
                        bounded,
                        "every part of a fitting level is even"
                    );
                    let mut order: Vec<u32> = (0..e.len() as u32)
                        .filter(|&v| {
                            let [a, z] = e.ends(v);
                            a != z
                        })
                        .collect();
                    rng.shuffle(&mut order);
                    let mut val = vec![2u8; e.len()];
                    let mut open = vec![true; e.len()];
                    for v in e.missing() {
                        open[v as usize] = false;
                        val[v as usize] = 0;
                    }
                    let mut taken = Vec::new();
                    for v in order {
                        let x = rng.u8(..2);
                        open[v as usize] = false;
                        val[v as usize] = x;
                        let cut = sp.take(2 * v + 1 - x as u32);
                        let [a, b] = e.ends(v).map(|end| end >> 3);
                        let mut after = parts(&e, &open);
                        let split = after.find(a) != after.find(b);
                        assert!(
                            !split || cut != Cut::No,
                            "{level:?}: edge {v} cuts, no ring"
                        );
                        if bounded {
                            assert_eq!(split, cut != Cut::No, "{level:?}: edge {v}");
                            assert_ne!(cut, Cut::May);
                            if split {
                                let p = parities(&e, &mut after, &val);
                                let piece = p[after.find(a) as usize];
                                assert_eq!(piece == 1, cut == Cut::Odd, "{level:?}: edge {v}");
                            }
                        } else {
                            assert!(matches!(cut, Cut::No | Cut::May));
                        }
                        seen[cut as usize] += 1;
                        let p = parities(&e, &mut after, &val);
                        if p.contains(&1) {
                            sp.truncate(sp.len() - 1);
                            open[v as usize] = true;
                            val[v as usize] = 2;
                        } else {
                            taken.push(2 * v + 1 - x as u32);
                        }
                    }
                    // Undone to the middle and taken in again, the rings are the same.
                    let half = taken.len() / 2;
                    let rest: Vec<Cut> = {
                        sp.truncate(half);
                        taken[half..].iter().map(|&l| sp.take(l)).collect()
                    };
                    sp.truncate(half);
                    assert_eq!(sp.len(), half);
                    let again: Vec<Cut> = taken[half..].iter().map(|&l| sp.take(l)).collect();
                    assert_eq!(rest, again);
                }
            }
        }
        assert!(
            seen.iter().all(|&n| n > 200),
            "no, even, may, odd: {seen:?}"
        );
    }
}

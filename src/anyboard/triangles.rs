//! Triangle consistency: where three cells meet at a corner, each pair of them shares an
//! edge, and the three edges close a cycle that arc consistency, reading one neighbour at a
//! time, cannot see. For each corner of a cell whose two neighbours there are neighbours of
//! each other (every inner corner of a hexagonal board; never on a square one), the cell
//! keeps only the orientations whose two edges at the corner extend to the other two cells:
//! some orientation of each agrees on the edges it shares with the cell and on the third.
//!
//! On a hexagonal maze, arc consistency leaves 88 % of the cells undecided (57,727 of 65,536 at
//! 256x256); this rule with it leaves 2 % (1,421), about what probing leaves, and its regions
//! are then small enough that the probes are not reached (1024x1024: largest region 118
//! cells; the solve's minimum of 5 runs went from 338 to 284 ms).

use super::first_pass::{Rule, Start};
use super::network::{FIXED_OFF, FIXED_ON, Network, State};
use super::search::{Budget, Stop};
use crate::board::{Lattice, MAX_SIDES};

/// Brings `st` to the fixed point of arc consistency and the triangles together, starting
/// from the cells of `start`: sweeps over stripes of the network in parallel, as
/// the first pass does ([`State::propagate_root`]), each narrowing revising every undecided
/// neighbour again. `Ok(false)` when a cell loses every orientation: no solution. `st` must be
/// propagated with its trail committed, or `start` every cell (the sweeps then do arc
/// consistency's work as they go); the trail is committed on success.
///
/// The sweeps replaced a worklist that decided each narrowing and propagated it at once,
/// on a copy of the state per thread: on a 1024x1024 hexagonal maze three quarters of that
/// pass's time went to the propagation jumping about the board.
pub fn triangle_pass(
    net: &Network,
    st: &mut State,
    start: Start,
    budget: &Budget,
) -> Result<bool, Stop> {
    st.sweep_root(net, budget, &Tables::new(net), start)
}

/// Whether the triangles have their form for the inner cells of `net`'s lattice (every
/// corner of an inner cell a triangle: a hexagonal lattice), so that their sweeps run by
/// the lattice.
pub fn has_inner_triangles(net: &Network) -> bool {
    net.lattice
        .and_then(|lat| inner_corners(&lat, net.k))
        .is_some()
}

/// [`triangle_pass`] on stripes of `stripe_cells` cells (tests use thin stripes).
#[cfg(test)]
pub fn triangle_pass_striped(
    net: &Network,
    st: &mut State,
    start: Start,
    budget: &Budget,
    stripe_cells: usize,
) -> Result<bool, Stop> {
    st.sweep_striped(net, budget, stripe_cells, &Tables::new(net), start)
}

/// The rule's look-ups for one network's shapes. A corner `j` of a cell is its sides `j`
/// and `j + 1` (mod k); a pair of connections there is `x | y << 1`, `x` on side `j`.
struct Tables {
    k: usize,
    /// Per shape and domain, four bits per corner (`j` at bit `4j`): the pairs some
    /// orientation of the domain makes there.
    pairs: Vec<u32>,
    /// Per shape, corner and set of pairs: the orientations whose pair is in the set.
    keep: Vec<u8>,
    /// Per shape, corner and the pairs of the two neighbours there (`b | e << 4`, as in
    /// `extend`): the orientations whose pair at the corner both extend. The cell's own
    /// pairs need not be read, for its domain holds only orientations making them: one
    /// look-up a corner where `extend` then `keep` were two dependent ones, and a sixth
    /// less of a 4096x4096 hexagonal maze's triangle pass.
    keep_by_neighbours: Vec<u8>,
    /// Per pair sets of the cell (x, y), of the neighbour across x (x, z) and of the one
    /// across y (y, z): the cell's pairs that extend to both.
    extend: Vec<u8>,
    /// Per shape and domain, what a cell shows an inner neighbour ([`Rule::shown`]).
    shown: Vec<u64>,
    /// For an inner cell of the network's lattice, per row parity and corner, where its
    /// neighbours' pairs for the corner's triangle are read; `None` when the network has no
    /// lattice or a corner of it no triangle.
    inner: Option<[[InnerCorner; MAX_SIDES]; 2]>,
}

/// Where the other two cells of an inner cell's corner `j` (its sides `j` and `j + 1`)
/// show their pairs for the triangle: the neighbour across side `j` at bit `x` of what it
/// shows ([`Tables::shown`]), the one across side `j + 1` at bit `y`; each the nibble of
/// the corner they share with the cell, read the other way round where their sides there
/// come in the other order.
#[derive(Clone, Copy, Default)]
struct InnerCorner {
    x: u8,
    y: u8,
}

/// The most sides a cell has for the inner form: [`Tables::shown`] holds two nibbles a
/// corner in 48 bits.
const SHOWN_SIDES: usize = 6;

/// A pair `x | y << 1` read the other way round.
const SWAPPED: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut p = 0;
    while p < 16 {
        t[p] = (p as u8 & 0b1001) | (p as u8 >> 1 & 1) << 2 | (p as u8 >> 2 & 1) << 1;
        p += 1;
    }
    t
};

impl Tables {
    fn new(net: &Network) -> Tables {
        let k = net.k;
        let n = net.shapes.count();
        let mut pairs = vec![0u32; n * 256];
        let mut keep = vec![0u8; n * k * 16];
        for i in 0..n {
            let sh = net.shapes.get(i as u8);
            let pair = |r: usize, j: usize| {
                let m = sh.masks[r];
                (m >> j & 1) | (m >> ((j + 1) % k) & 1) << 1
            };
            for d in 0..1usize << sh.period {
                for j in 0..k {
                    let set = (0..sh.period as usize)
                        .filter(|&r| d >> r & 1 == 1)
                        .fold(0u32, |p, r| p | 1 << pair(r, j));
                    pairs[i * 256 + d] |= set << (4 * j);
                }
            }
            for j in 0..k {
                for ok in 0..16 {
                    keep[(i * k + j) * 16 + ok] = (0..sh.period as usize)
                        .filter(|&r| ok >> pair(r, j) & 1 == 1)
                        .fold(0, |m, r| m | 1 << r);
                }
            }
        }
        let extend: Vec<u8> = (0..4096usize)
            .map(|i| {
                let (a, b, e) = (i & 15, i >> 4 & 15, i >> 8);
                let mut ok = 0u8;
                for x in 0..2 {
                    for y in 0..2 {
                        let here = x | y << 1;
                        if a >> here & 1 == 1
                            && (0..2)
                                .any(|z| b >> (x | z << 1) & 1 == 1 && e >> (y | z << 1) & 1 == 1)
                        {
                            ok |= 1 << here;
                        }
                    }
                }
                ok
            })
            .collect();
        let keep_by_neighbours = (0..n * k * 256)
            .map(|i| {
                let (corner, be) = (i / 256, i % 256);
                keep[corner * 16 + extend[15 | be << 4] as usize]
            })
            .collect();
        let shown = pairs
            .iter()
            .map(|&p| {
                let swapped = (0..k).fold(0u64, |w, j| {
                    w | (SWAPPED[(p >> (4 * j) & 15) as usize] as u64) << (4 * j)
                });
                p as u64 | swapped << (4 * k)
            })
            .collect();
        Tables {
            k,
            shown,
            pairs,
            keep,
            keep_by_neighbours,
            extend,
            inner: net.lattice.and_then(|lat| inner_corners(&lat, k)),
        }
    }

    /// The pairs of every corner of cell `c` at domain `dom` (see [`Tables::pairs`]).
    #[inline(always)]
    fn corners(&self, net: &Network, c: usize, dom: u8) -> u32 {
        self.pairs[(net.shape[c] as usize) << 8 | dom as usize]
    }

    /// The pairs `dom` of cell `c` makes at its corner `j`.
    #[inline(always)]
    fn corner(&self, net: &Network, c: usize, dom: u8, j: usize) -> u8 {
        (self.corners(net, c, dom) >> (4 * j) & 15) as u8
    }

    /// The pairs `dom` of cell `c` makes on its sides `s1` (bit 0) and `s2` (bit 1), two
    /// sides next to each other; `None` when they are not.
    #[inline]
    fn pair_set(&self, net: &Network, c: usize, dom: u8, s1: usize, s2: usize) -> Option<u8> {
        let k = self.k;
        let at = |j: usize| self.corner(net, c, dom, j);
        if s2 == next(s1, k) {
            Some(at(s1))
        } else if s1 == next(s2, k) {
            // The corner read the other way round: x and y swap.
            Some(SWAPPED[at(s2) as usize])
        } else {
            None
        }
    }
}

impl Rule for Tables {
    const READS_DOMAINS: bool = true;

    /// A neighbour reads a cell only through the pairs at the two corners beside their
    /// shared side.
    #[inline(always)]
    fn touched(&self, net: &Network, c: usize, old: u8, new: u8) -> u8 {
        let diff = self.corners(net, c, old) ^ self.corners(net, c, new);
        let k = self.k;
        let corners = nonzero_nibbles(diff);
        // Corner j is sides j and j + 1.
        let after = (corners << 1 | corners >> (k - 1)) & ((1u16 << k) - 1) as u8;
        corners | after
    }

    fn inner_form(&self) -> bool {
        self.inner.is_some()
    }

    /// The pairs at every corner (see [`Tables::pairs`]), then from bit `4 * k` the same
    /// pairs each read the other way round.
    #[inline(always)]
    fn shown(&self, shape: u8, dom: u8) -> u64 {
        self.shown[(shape as usize) << 8 | dom as usize]
    }

    /// Every corner of an inner cell has its triangle, its cells found by the lattice.
    /// Unlike [`Rule::keep`], no corner is passed over when one of its cells has a single
    /// pair left there: the tables then keep what arc consistency keeps, so the fixed point
    /// is the same, and the loop has no branch. A pair kept at a corner is one some
    /// orientation of each neighbour there agrees with on its side, and every side is in
    /// two corners: what this keeps fits the neighbours as arc consistency asks.
    #[inline(always)]
    fn keep_inner<const K: usize>(
        &self,
        shape: u8,
        parity: usize,
        mut dom: u8,
        at: impl Fn(usize) -> u64,
    ) -> u8 {
        let Some(inner) = &self.inner else {
            return dom;
        };
        let sh = shape as usize;
        let next: [u64; K] = std::array::from_fn(at);
        let keep = &self.keep_by_neighbours[sh * K * 256..][..K * 256];
        for (j, g) in inner[parity][..K].iter().enumerate() {
            let b = (next[j] >> g.x) as usize & 15;
            let e = (next[(j + 1) % K] >> g.y) as usize & 15;
            dom &= keep[j * 256 + (b | e << 4)];
        }
        dom
    }

    /// The orientations of `dom` that every triangle at `c`'s corners leaves; a corner with
    /// a cell of unknown domain is passed over.
    fn keep(
        &self,
        net: &Network,
        c: usize,
        mut dom: u8,
        dom_at: impl Fn(usize) -> Option<u8>,
    ) -> u8 {
        let k = self.k;
        for s in 0..k {
            let s2 = next(s, k);
            let (l1, l2) = (net.links.get(c, s), net.links.get(c, s2));
            if l1 >= FIXED_ON || l2 >= FIXED_ON {
                continue;
            }
            let (n1, t1) = ((l1 >> 3) as usize, (l1 & 7) as usize);
            let (n2, t2) = ((l2 >> 3) as usize, (l2 & 7) as usize);
            // x: the edge c-n1, y: c-n2, z: n1-n2. Where one of the three cells has one
            // pair left on its two edges of the triangle, arc consistency has already drawn
            // every consequence: the other two edges are each fixed or read through one cell.
            let a = self.corner(net, c, dom, s);
            if a.count_ones() <= 1 {
                continue;
            }
            let Some((u, w)) = shared_side(net, n1, t1, n2) else {
                continue;
            };
            let (Some(d1), Some(d2)) = (dom_at(n1), dom_at(n2)) else {
                continue;
            };
            let (Some(b), Some(e)) = (
                self.pair_set(net, n1, d1, t1, u),
                self.pair_set(net, n2, d2, t2, w),
            ) else {
                continue;
            };
            if b.count_ones() <= 1 || e.count_ones() <= 1 {
                continue;
            }
            let ok = self.extend[a as usize | (b as usize) << 4 | (e as usize) << 8];
            if ok != a {
                dom &= self.keep[(net.shape[c] as usize * k + s) * 16 + ok as usize];
                if dom == 0 {
                    return 0;
                }
            }
        }
        dom
    }
}

/// The corners of an inner cell of `lat` (see [`Tables::inner`]), if each has a triangle.
fn inner_corners(lat: &Lattice, k: usize) -> Option<[[InnerCorner; MAX_SIDES]; 2]> {
    if lat.sides != k || !lat.faces_opposite() || k > SHOWN_SIDES {
        return None;
    }
    // A neighbour's pair on sides `t` (to the cell) and `u` (to the third cell), as its
    // corner and whether it reads the other way round (`Tables::pair_set`).
    let corner_of = |t: usize, u: usize| {
        if u == next(t, k) {
            Some((t as u8, false))
        } else if t == next(u, k) {
            Some((u as u8, true))
        } else {
            None
        }
    };
    let mut inner = [[InnerCorner::default(); MAX_SIDES]; 2];
    for (parity, corners) in inner.iter_mut().enumerate() {
        for (j, corner) in corners[..k].iter_mut().enumerate() {
            let (u, w) = lat.corner(parity, j)?;
            let at = |(corner, swapped): (u8, bool)| 4 * (corner + k as u8 * swapped as u8);
            *corner = InnerCorner {
                x: at(corner_of(lat.facing[j] as usize, u)?),
                y: at(corner_of(lat.facing[next(j, k)] as usize, w)?),
            };
        }
    }
    Some(inner)
}

/// Bit `j` set where nibble `j` of `x` is not zero (a loop over the corners was a good
/// part of a narrowing's cost on a hexagonal maze).
#[inline(always)]
fn nonzero_nibbles(x: u32) -> u8 {
    let x = x | x >> 1;
    let x = (x | x >> 2) & 0x1111_1111;
    // Nibble flags 2i and 2i + 1 into the low two bits of byte i, then bytes together.
    let x = (x | x >> 3) & 0x0303_0303;
    let x = (x | x >> 6) & 0x000f_000f;
    ((x | x >> 12) & 0xff) as u8
}

/// The side after `s` on a cell of `k` sides (a division by a `k` known only at run time
/// cost a good part of the rule's time).
#[inline(always)]
fn next(s: usize, k: usize) -> usize {
    if s + 1 == k { 0 } else { s + 1 }
}

/// The side of `n1` that faces `n2` and the side of `n2` that faces back, if they are
/// neighbours; `t1` is the side of `n1` facing the third cell of the corner.
#[inline]
fn shared_side(net: &Network, n1: usize, t1: usize, n2: usize) -> Option<(usize, usize)> {
    let k = net.k;
    let links: [u32; MAX_SIDES] = std::array::from_fn(|u| {
        if u < k {
            net.links.get(n1, u)
        } else {
            FIXED_OFF
        }
    });
    let facing = |u: usize| links[u] < FIXED_ON && (links[u] >> 3) as usize == n2;
    // On a tiling whose cells all number their sides the same way round, the corner's side
    // of `n1` is next to `t1`: looked at first, before the whole cell.
    let u = [if t1 == 0 { k - 1 } else { t1 - 1 }, next(t1, k)]
        .into_iter()
        .find(|&u| facing(u))
        .or_else(|| (0..k).find(|&u| facing(u)))?;
    Some((u, (links[u] & 7) as usize))
}

#[cfg(test)]
mod tests {
    #[test]
    fn nonzero_nibbles_flags_every_nibble_alone() {
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..10_000 {
            let x = rng.u32(..) & rng.u32(..) & rng.u32(..);
            let want = (0..8).fold(0u8, |m, j| m | ((x >> (4 * j) & 15 != 0) as u8) << j);
            assert_eq!(super::nonzero_nibbles(x), want, "{x:#x}");
        }
    }
}

//! [`Network`]: the constraints of a level (or of one region of it) as flat arrays: each
//! cell's shape, and for each of its sides either the neighbour and the side that faces back,
//! or a fixed verdict (a border or a decided cell outside the region: connected or not).
//! [`State`] holds the domains with a trail for undoing, and propagates to a fixed point.

use std::borrow::Cow;

use super::shapes::{Shapes, full_domain};
use crate::board::{Lattice, Links, MAX_SIDES, NO_LINK};
use crate::par::*;

/// Networks of at least this many cells (a whole level, not a region's) build their arrays
/// in parallel: below it a thread hand-off costs more than it saves. Learning's passes over
/// a region's cells use the same line.
pub(crate) const PARALLEL_CELLS: usize = 1 << 16;

/// A side that must not carry a connection (a border, or a decided neighbour without one).
pub const FIXED_OFF: u32 = NO_LINK;
/// A side that must carry a connection (a decided neighbour connects across it).
pub const FIXED_ON: u32 = NO_LINK - 1;

/// The constraint network (see the module doc).
pub struct Network<'a> {
    /// Sides per cell.
    pub k: usize,
    /// The shape tables.
    pub shapes: &'a Shapes,
    /// Shape number of each cell.
    pub shape: Cow<'a, [u8]>,
    /// `(cell, side)` -> `neighbour * 8 + facing side`, [`FIXED_OFF`] or [`FIXED_ON`]: a
    /// whole board's own links, or a table (a region's, or a board's with barriers).
    pub links: Links<'a>,
    /// The same neighbours by arithmetic for the inner cells, when the network is a whole
    /// board's with its links as the board has them (no barrier, not a region): the first
    /// pass then sweeps without reading `links` (see `first_pass`).
    pub lattice: Option<Lattice>,
}

impl Network<'_> {
    /// Number of cells.
    pub fn len(&self) -> usize {
        self.shape.len()
    }

    /// True when the network has no cell.
    pub fn is_empty(&self) -> bool {
        self.shape.is_empty()
    }

    /// The domain of every cell with all its orientations.
    pub fn full_domains(&self) -> Vec<u8> {
        let full = |&s: &u8| full_domain(self.shapes.get(s).period);
        if self.len() >= PARALLEL_CELLS {
            self.shape.par_iter().map(full).collect()
        } else {
            self.shape.iter().map(full).collect()
        }
    }
}

/// Domains, the trail that undoes them and the propagation queue.
#[derive(Clone)]
pub struct State {
    /// One bit per orientation still possible, per cell.
    pub dom: Vec<u8>,
    /// Per cell, the sides every orientation left connects (low byte) and the sides some
    /// orientation connects (high byte).
    pub(super) sides: Vec<u16>,
    /// Per cell, what its neighbours demand of it: the sides it must connect (low byte: a
    /// neighbour surely connects across, or a fixed connection) and must not (high byte: a
    /// neighbour never does, or a border). A narrowing writes the bits of the sides it
    /// changed into the neighbours' words (see [`State::set`]), so a revision reads one word
    /// of its own instead of a word of each neighbour, and a neighbour is revised only when
    /// what faces it changed. On a 1024x1024 hexagonal random level the first pass went from
    /// 5.1 to 4.1 million revisions, each reading one word where it read six; probes gain
    /// the same (a hexagonal maze's solve from 476 to 343 ms, median of 5).
    pub(super) demand: Vec<u16>,
    /// `(cell, domain before, sides before)` for every narrowing, to undo to a mark.
    trail: Vec<(u32, u8, u16)>,
    /// Cells to revise.
    pub(super) queue: Vec<u32>,
    pub(super) queued: Vec<bool>,
}

/// What `cell` at domain `dom` surely connects (low byte) and possibly connects (high byte).
#[inline(always)]
pub(super) fn sides_of(net: &Network, cell: usize, dom: u8) -> u16 {
    net.shapes.connects(net.shape[cell], dom)
}

/// The demand word bits a neighbour's side `t` gets from a cell whose sides are `sides`,
/// read at the cell's side `s`: required if it surely connects, forbidden if it never can.
#[inline(always)]
pub(super) fn demand_bits(sides: u16, s: u32, t: u32) -> u16 {
    // Side `s`'s two bits moved together: one shift each way, where a shift per bit and
    // a negation were a tenth of a hexagonal random level's instructions.
    ((sides >> s) & 0x101 ^ 0x100) << t
}

/// The demand word of a cell of `K` sides whose neighbour across side `s` has sides
/// `sides_at(s)` and faces it with the opposite side ([`Lattice::faces_opposite`]): the
/// facing sides are constants, shifts by numbers in the code.
#[inline(always)]
pub(super) fn opposite_word<const K: usize>(sides_at: impl Fn(usize) -> u16) -> u16 {
    (0..K).fold(0, |word, s| {
        word | demand_bits(sides_at(s), ((s + K / 2) % K) as u32, s as u32)
    })
}

/// The demand words of the inner cells `from..from + out.len()` of one row of parity
/// `parity` of a lattice whose sides face opposite, into `out`: each side's neighbours as
/// a slice of the row's length, so that the loop has no bounds check and unrolls over the
/// sides.
#[inline(always)]
pub(super) fn lattice_words<const K: usize>(
    lat: &Lattice,
    parity: usize,
    sides: &[u16],
    from: usize,
    out: &mut [u16],
) {
    let len = out.len();
    if len == 0 {
        return;
    }
    let next: [&[u16]; K] =
        std::array::from_fn(|s| &sides[from.wrapping_add_signed(lat.step[parity][s])..][..len]);
    for (k, word) in out.iter_mut().enumerate() {
        *word = opposite_word::<K>(|s| next[s][k]);
    }
}

/// `word` with its bits of side `t` replaced by `bits` (from [`demand_bits`]).
#[inline(always)]
pub(super) fn with_demand(word: u16, t: u32, bits: u16) -> u16 {
    word & !(0x101 << t) | bits
}

/// The demand words of every cell of `net` given every cell's `sides` (see
/// [`State::demand`]).
pub(super) fn demands_from(net: &Network, sides: &[u16]) -> Vec<u16> {
    let pull = |c: usize| demand_of(net, c, |n| sides[n]);
    let lattice = net
        .lattice
        .filter(|l| l.sides == net.k && l.width * l.height == sides.len() && l.faces_opposite());
    let Some(lat) = lattice else {
        return if sides.len() >= PARALLEL_CELLS {
            (0..sides.len()).into_par_iter().map(pull).collect()
        } else {
            (0..sides.len()).map(pull).collect()
        };
    };
    // Row by row, the inner cells' neighbours by arithmetic: the link table (24 bytes a
    // cell on a hexagonal board) is read for the rim alone.
    let w = lat.width;
    let row_of = |(r, row): (usize, &mut [u16])| {
        let inner = if r >= 1 && r + 1 < lat.height && w >= 3 {
            1..w - 1
        } else {
            0..0
        };
        for c in (0..w).filter(|c| !inner.contains(c)) {
            row[c] = pull(r * w + c);
        }
        let (from, out) = (r * w + inner.start, &mut row[inner]);
        match lat.sides {
            6 => lattice_words::<6>(&lat, r % 2, sides, from, out),
            4 => lattice_words::<4>(&lat, r % 2, sides, from, out),
            _ => out.iter_mut().zip(from..).for_each(|(o, c)| *o = pull(c)),
        }
    };
    let mut words = vec![0u16; sides.len()];
    if sides.len() >= PARALLEL_CELLS {
        words.par_chunks_mut(w).enumerate().for_each(row_of);
    } else {
        words.chunks_mut(w).enumerate().for_each(row_of);
    }
    words
}

impl State {
    /// The state of domains `dom` of `net`'s cells, with nothing queued.
    pub fn new(net: &Network, dom: Vec<u8>) -> State {
        let n = dom.len();
        let side = |(c, &d): (usize, &u8)| sides_of(net, c, d);
        let sides: Vec<u16> = if n >= PARALLEL_CELLS {
            dom.par_iter().enumerate().map(side).collect()
        } else {
            dom.iter().enumerate().map(side).collect()
        };
        let demand = demands_from(net, &sides);
        State {
            dom,
            sides,
            demand,
            trail: Vec::new(),
            queue: Vec::new(),
            queued: vec![false; n],
        }
    }

    /// What `cell` surely connects (low byte) and possibly connects (high byte).
    #[inline(always)]
    pub fn sides(&self, cell: usize) -> u16 {
        self.sides[cell]
    }

    /// The cells narrowed since `mark`, oldest first (a cell may repeat).
    pub fn narrowed_since(&self, mark: usize) -> impl Iterator<Item = usize> + '_ {
        self.trail[mark..].iter().map(|&(c, _, _)| c as usize)
    }

    /// Gives `visit` each undecided neighbour of every cell narrowed since `mark` (a cell
    /// may come more than once): what a pass that decides cells revises next.
    pub fn undecided_neighbours_since(
        &self,
        net: &Network,
        mark: usize,
        mut visit: impl FnMut(usize),
    ) {
        let k = net.k;
        for x in self.narrowed_since(mark) {
            for s in 0..k {
                let l = net.links.get(x, s);
                if l < FIXED_ON {
                    let y = (l >> 3) as usize;
                    if self.dom[y].count_ones() > 1 {
                        visit(y);
                    }
                }
            }
        }
    }

    /// A mark to undo to.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes every narrowing since `mark`.
    pub fn undo(&mut self, net: &Network, mark: usize) {
        while self.trail.len() > mark {
            let (c, d, s) = self.trail.pop().expect("above the mark");
            let c = c as usize;
            self.dom[c] = d;
            let now = std::mem::replace(&mut self.sides[c], s);
            if now != s {
                self.tell_neighbours::<false>(net, c, now ^ s, s);
            }
        }
    }

    /// Forgets the trail (the current domains become the base).
    pub fn commit(&mut self) {
        self.trail.clear();
    }

    /// Narrows `cell` to `dom` (a subset), recording it; the neighbours facing a side whose
    /// verdict changed get it in their demand words and are queued for revision.
    #[inline]
    pub fn set(&mut self, net: &Network, cell: usize, dom: u8) {
        let old = self.dom[cell];
        if old == dom {
            return;
        }
        let old_sides = self.sides[cell];
        let new_sides = sides_of(net, cell, dom);
        self.trail.push((cell as u32, old, old_sides));
        self.dom[cell] = dom;
        if new_sides != old_sides {
            self.sides[cell] = new_sides;
            self.tell_neighbours::<true>(net, cell, new_sides ^ old_sides, new_sides);
        }
    }

    /// Writes `cell`'s verdicts `sides` on the sides whose bits differ in `changed` into the
    /// neighbours' demand words, queueing each neighbour when `QUEUE`.
    #[inline(always)]
    fn tell_neighbours<const QUEUE: bool>(
        &mut self,
        net: &Network,
        cell: usize,
        changed: u16,
        sides: u16,
    ) {
        let mut rest = changed as u8 | (changed >> 8) as u8;
        while rest != 0 {
            let s = rest.trailing_zeros();
            rest &= rest - 1;
            let l = net.links.get(cell, s as usize);
            if l < FIXED_ON {
                let n = (l >> 3) as usize;
                let t = l & 7;
                self.demand[n] = with_demand(self.demand[n], t, demand_bits(sides, s, t));
                if QUEUE && !self.queued[n] {
                    self.queued[n] = true;
                    self.queue.push(n as u32);
                }
            }
        }
    }

    pub(super) fn clear_queue(&mut self) {
        for &c in &self.queue {
            self.queued[c as usize] = false;
        }
        self.queue.clear();
    }

    /// The domain `cell` keeps given its neighbours' domains: the orientations that connect
    /// every side a neighbour surely connects and no side a neighbour surely leaves open.
    #[inline]
    pub fn supported(&self, net: &Network, cell: usize) -> u8 {
        fitting(net, cell, self.dom[cell], self.demand[cell])
    }

    /// Revises queued cells until nothing changes. False on a wipe-out (some domain
    /// empty); the queue is then empty and the domains as far as they got.
    pub fn propagate(&mut self, net: &Network) -> bool {
        while let Some(c) = self.queue.pop() {
            let c = c as usize;
            self.queued[c] = false;
            if !self.revise(net, c) {
                return false;
            }
        }
        true
    }

    /// Narrows `cell` to what its neighbours support; false on a wipe-out.
    #[inline]
    pub(super) fn revise(&mut self, net: &Network, cell: usize) -> bool {
        let new = self.supported(net, cell);
        self.narrow_to(net, cell, new)
    }

    /// Narrows `cell` to `new` (a subset of its domain) as [`State::set`] does; false, with
    /// the queue emptied, when `new` is empty.
    #[inline]
    pub(super) fn narrow_to(&mut self, net: &Network, cell: usize, new: u8) -> bool {
        if new == 0 {
            self.trail
                .push((cell as u32, self.dom[cell], self.sides[cell]));
            self.dom[cell] = 0;
            self.clear_queue();
            return false;
        }
        self.set(net, cell, new);
        true
    }

    /// Decides `cell` to the orientations `dom` and propagates; false on a wipe-out.
    pub fn decide(&mut self, net: &Network, cell: usize, dom: u8) -> bool {
        self.set(net, cell, dom);
        // The cell itself may clash with a neighbour already decided.
        self.revise(net, cell) && self.propagate(net)
    }

    /// Decides `cell` to `dom` and propagates for at most `limit` revisions: false only on a
    /// wipe-out within them, true at the fixed point or when the limit cut it short (then
    /// the domains are between the two: undo to a mark before). What a probe needs: a
    /// decision it cannot refute in that many revisions it keeps.
    ///
    /// The queue is read first in, first out here (breadth first from the decision), unlike
    /// [`State::propagate`]: a probe cut short has then revised the cells nearest to it, where
    /// a clash shows first, not a chain wandering away. On a 1024x1024 hexagonal maze it needs
    /// 63 thousand probes a thread instead of 101 thousand and removes more (0.7 s of CPU
    /// instead of 1.17 s).
    pub fn decide_within(&mut self, net: &Network, cell: usize, dom: u8, limit: usize) -> bool {
        self.set(net, cell, dom);
        if !self.revise(net, cell) {
            return false;
        }
        for head in 0..limit {
            let Some(&c) = self.queue.get(head) else {
                self.queue.clear();
                return true;
            };
            let c = c as usize;
            self.queued[c] = false;
            if !self.revise(net, c) {
                return false;
            }
        }
        self.clear_queue();
        true
    }

    /// Revises every cell once, in order, and propagates: the first pass over a network.
    /// Every narrowing is on the trail (a caller may undo to a mark taken before).
    pub fn propagate_all(&mut self, net: &Network) -> bool {
        for c in 0..self.dom.len() {
            if !self.revise(net, c) {
                return false;
            }
        }
        self.propagate(net)
    }
}

/// What of domain `d` of `cell` a demand word `demand` (see [`State::demand`]) leaves.
#[inline(always)]
pub(super) fn fitting(net: &Network, cell: usize, d: u8, demand: u16) -> u8 {
    net.shapes
        .fitting(net.shape[cell], demand as u8, (demand >> 8) as u8)
        & d
}

/// The demand word of `cell` (see [`State::demand`]), reading a neighbour's sides through
/// `sides_at`.
#[inline(always)]
pub(super) fn demand_of(net: &Network, cell: usize, sides_at: impl Fn(usize) -> u16) -> u16 {
    // The side count a constant for today's tilings, so the loop over sides unrolls.
    let k = net.k;
    match k {
        6 => demands(&net.links.of::<6>(cell), sides_at),
        4 => demands(&net.links.of::<4>(cell), sides_at),
        _ => {
            let links: [u32; MAX_SIDES] =
                std::array::from_fn(|s| if s < k { net.links.get(cell, s) } else { 0 });
            demands(&links[..k], sides_at)
        }
    }
}

/// The demand word of a cell with links `links`.
#[inline(always)]
fn demands(links: &[u32], sides_at: impl Fn(usize) -> u16) -> u16 {
    let mut word = 0u16;
    for (s, &l) in links.iter().enumerate() {
        if l >= FIXED_ON {
            word |= ((l == FIXED_ON) as u16) << s | ((l == FIXED_OFF) as u16) << (8 + s);
            continue;
        }
        word |= demand_bits(sides_at((l >> 3) as usize), l & 7, s as u32);
    }
    word
}

#[cfg(test)]
mod tests {
    /// The demand bits, read bit by bit from their definition, for every sides word.
    #[test]
    fn demand_bits_require_the_sure_sides_and_forbid_the_impossible_ones() {
        for sides in 0..=u16::MAX {
            for s in 0..8 {
                for t in 0..8 {
                    let sure = sides >> s & 1 == 1;
                    let possible = sides >> (8 + s) & 1 == 1;
                    let want = (sure as u16) << t | (!possible as u16) << (8 + t);
                    assert_eq!(super::demand_bits(sides, s, t), want, "{sides:#x} {s} {t}");
                }
            }
        }
    }
}

//! [`Network`]: the constraints of a level (or of one region of it) as flat arrays: each
//! cell's shape, and for each of its sides either the neighbour and the side that faces back,
//! or a fixed verdict (a border or a decided cell outside the region: connected or not).
//! [`State`] holds the domains with a trail for undoing, and propagates to a fixed point.

use std::borrow::Cow;

use super::shapes::{Shapes, full_domain};
use crate::board::NO_LINK;
use crate::par::*;

/// Networks of at least this many cells (a whole level, not a region's) build their arrays
/// in parallel: below it a thread hand-off costs more than it saves.
const PARALLEL_CELLS: usize = 1 << 16;

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
    /// `cell * k + side` -> `neighbour * 8 + facing side`, [`FIXED_OFF`] or [`FIXED_ON`].
    pub links: Cow<'a, [u32]>,
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
    /// orientation connects (high byte): what a neighbour's revision reads, in one load.
    pub(super) sides: Vec<u16>,
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

impl State {
    /// The state of domains `dom` of `net`'s cells, with nothing queued.
    pub fn new(net: &Network, dom: Vec<u8>) -> State {
        let n = dom.len();
        let side = |(c, &d): (usize, &u8)| sides_of(net, c, d);
        let sides = if n >= PARALLEL_CELLS {
            dom.par_iter().enumerate().map(side).collect()
        } else {
            dom.iter().enumerate().map(side).collect()
        };
        State {
            dom,
            sides,
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

    /// A mark to undo to.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes every narrowing since `mark`.
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (c, d, s) = self.trail.pop().expect("above the mark");
            self.dom[c as usize] = d;
            self.sides[c as usize] = s;
        }
    }

    /// Forgets the trail (the current domains become the base).
    pub fn commit(&mut self) {
        self.trail.clear();
    }

    /// Narrows `cell` to `dom` (a subset), recording it; when what the cell surely or
    /// possibly connects changes, its neighbours are queued for revision.
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
            let k = net.k;
            for s in 0..k {
                let l = net.links[cell * k + s];
                if l < FIXED_ON {
                    let n = (l >> 3) as usize;
                    if !self.queued[n] {
                        self.queued[n] = true;
                        self.queue.push(n as u32);
                    }
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
        supported_by(net, cell, self.dom[cell], |n| self.sides[n])
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

/// What of domain `d` of `cell` its neighbours support (see [`State::supported`]), reading a
/// neighbour's sides through `sides_at`: the first pass's stripes read their own cells' and
/// stand in for the others'.
#[inline(always)]
pub(super) fn supported_by(
    net: &Network,
    cell: usize,
    d: u8,
    sides_at: impl Fn(usize) -> u16,
) -> u8 {
    // The side count a constant for today's tilings, so the loop over sides unrolls.
    let k = net.k;
    let (req, forb) = match k {
        6 => demands(links_k::<6>(net, cell), sides_at),
        4 => demands(links_k::<4>(net, cell), sides_at),
        _ => demands(&net.links[cell * k..cell * k + k], sides_at),
    };
    net.shapes.fitting(net.shape[cell], req, forb) & d
}

#[inline(always)]
fn links_k<'n, const K: usize>(net: &'n Network, cell: usize) -> &'n [u32; K] {
    net.links[cell * K..][..K].try_into().expect("K sides")
}

/// The sides a cell with links `links` must connect (a neighbour surely connects across,
/// or a fixed connection) and must not (a neighbour never does, or a border).
#[inline(always)]
fn demands(links: &[u32], sides_at: impl Fn(usize) -> u16) -> (u8, u8) {
    let (mut req, mut forb) = (0u8, 0u8);
    for (s, &l) in links.iter().enumerate() {
        if l >= FIXED_ON {
            req |= ((l == FIXED_ON) as u8) << s;
            forb |= ((l == FIXED_OFF) as u8) << s;
            continue;
        }
        let e = sides_at((l >> 3) as usize);
        let t = l & 7;
        req |= ((e >> t) as u8 & 1) << s;
        forb |= (!(e >> (8 + t)) as u8 & 1) << s;
    }
    (req, forb)
}

//! Net rules on the any-board engine: a level compiled with its barriers (sides fixed off) and
//! locked cells (one orientation), and [`NetPropagator`], the global reasoning Net adds to the
//! local propagation of [`State`]:
//!
//! - **no loop**: connections every orientation left makes are joined in a union-find; one
//!   that closes a cycle is a wipe-out, and an orientation whose new connections would join a
//!   network to itself is removed;
//! - **no island**: the graph of connections still possible must join all non-empty cells
//!   (else a wipe-out), each of its bridges must be used, and an orientation that would close
//!   off a network smaller than the whole (no possible connection left leading out) is
//!   removed — SGT's dead-end reasoning, counted per network.
//!
//! The local propagation stays [`State`]'s; the global one runs when it is at a fixed point,
//! so possible and sure connections are the same seen from both ends.

use std::borrow::Cow;

use super::network::{FIXED_ON, Network, State};
use super::shapes::{Shapes, full_domain};
use crate::board::{BoardLevel, Rules};

/// A level compiled for the engine: shapes, barriers folded into the links, locked cells'
/// domains narrowed to their one orientation.
pub struct NetCompiled {
    shapes: Shapes,
    shape: Vec<u8>,
    links: Vec<u32>,
    /// The starting domain of every cell.
    pub domains: Vec<u8>,
    /// The rules to solve under.
    pub rules: Rules,
}

impl NetCompiled {
    /// Compiles `level` under its own rules.
    pub fn new(level: &BoardLevel) -> NetCompiled {
        let board = level.board();
        let k = board.sides() as usize;
        let mut shapes = Shapes::new(board.sides());
        let mut by_mask = [u8::MAX; 256];
        let mut shape = Vec::with_capacity(board.len());
        let mut domains = Vec::with_capacity(board.len());
        for (c, &m) in level.masks().iter().enumerate() {
            if by_mask[m as usize] == u8::MAX {
                by_mask[m as usize] = shapes.intern(m);
            }
            let s = by_mask[m as usize];
            shape.push(s);
            domains.push(if level.is_locked(c) {
                1 << shapes.orientation_of(s, m)
            } else {
                full_domain(shapes.get(s).period)
            });
        }
        let mut links = board.links().to_vec();
        if level.has_barriers() {
            for c in 0..board.len() {
                let walls = level.barrier(c);
                for s in 0..k {
                    if walls >> s & 1 == 1 {
                        links[c * k + s] = super::network::FIXED_OFF;
                    }
                }
            }
        }
        NetCompiled {
            shapes,
            shape,
            links,
            domains,
            rules: level.rules(),
        }
    }

    /// The network to propagate over.
    pub fn network(&self) -> Network<'_> {
        Network {
            k: self.shapes.sides() as usize,
            shapes: &self.shapes,
            shape: Cow::Borrowed(&self.shape),
            links: Cow::Borrowed(&self.links),
        }
    }

    /// The masks of a state with every cell decided.
    pub fn masks_of(&self, dom: &[u8]) -> Vec<u8> {
        dom.iter()
            .zip(&self.shape)
            .map(|(&d, &s)| self.shapes.get(s).masks[d.trailing_zeros() as usize])
            .collect()
    }
}

/// One frame of the iterative bridge search: the cell, the side to look at next, and the
/// half-edge it was entered by (`u32::MAX` at a root).
struct Frame {
    cell: u32,
    next: u8,
    entered_by: u32,
}

/// The scratch arrays of the global propagation (allocated once per search).
pub struct NetPropagator {
    rules: Rules,
    /// Union-find parent over sure connections.
    parent: Vec<u32>,
    /// Per root: non-empty cells in its network.
    size: Vec<u32>,
    /// Per root: possible-but-not-sure connection ends of its cells.
    open: Vec<i32>,
    /// Bridge search: discovery time (0: not yet) and lowest time reachable.
    disc: Vec<u32>,
    low: Vec<u32>,
    frames: Vec<Frame>,
    /// Narrowings found in a pass, applied after it (so a wipe-out leaves nothing queued).
    keep: Vec<u8>,
    touched: Vec<u32>,
    /// Some narrowing of this pass left a cell nothing.
    wiped: bool,
    /// Non-empty cells of the level.
    nonempty: u32,
}

/// What a global pass found.
enum Pass {
    Wipeout,
    Fixed,
    Narrowed,
}

impl NetPropagator {
    /// Scratch for `net`, whose cells' shapes are known.
    pub fn new(net: &Network, rules: Rules) -> NetPropagator {
        let n = net.len();
        let nonempty = (0..n)
            .filter(|&c| net.shapes.get(net.shape[c]).masks[0] != 0)
            .count() as u32;
        NetPropagator {
            rules,
            parent: vec![0; n],
            size: vec![0; n],
            open: vec![0; n],
            disc: vec![0; n],
            low: vec![0; n],
            frames: Vec::new(),
            keep: vec![0; n],
            touched: Vec::new(),
            wiped: false,
            nonempty,
        }
    }

    /// Propagates `st` to a fixed point of the local and (under Net rules) global reasoning;
    /// false on a wipe-out. Whatever was queued is propagated first.
    pub fn fixpoint(&mut self, net: &Network, st: &mut State) -> bool {
        loop {
            if !st.propagate(net) {
                return false;
            }
            if self.rules != Rules::Net {
                return true;
            }
            match self.pass(net, st) {
                Pass::Wipeout => return false,
                Pass::Fixed => return true,
                Pass::Narrowed => {}
            }
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = p;
            x = p;
        }
        x
    }

    /// One global pass over a locally propagated state.
    fn pass(&mut self, net: &Network, st: &mut State) -> Pass {
        if !self.join_sure(net, st) || !self.bridges(net, st) {
            self.clear_keep();
            return Pass::Wipeout;
        }
        self.count_networks(net, st);
        self.lookahead(net, st);
        self.apply(net, st)
    }

    /// Union-find over the sure connections; false when one closes a loop.
    fn join_sure(&mut self, net: &Network, st: &State) -> bool {
        let k = net.k;
        for (i, p) in self.parent.iter_mut().enumerate() {
            *p = i as u32;
        }
        for c in 0..net.len() {
            let must = st.sides(c) as u8;
            let mut rest = must;
            while rest != 0 {
                let s = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let l = net.links[c * k + s];
                // Each connection once, from its lower half-edge.
                if l >= FIXED_ON || ((c * 8 + s) as u32) > l {
                    continue;
                }
                let (a, b) = (self.find(c as u32), self.find(l >> 3));
                if a == b {
                    return false;
                }
                self.parent[a as usize] = b;
            }
        }
        true
    }

    /// Per network (union-find root): its non-empty cells and open connection ends.
    fn count_networks(&mut self, net: &Network, st: &State) {
        self.size.fill(0);
        self.open.fill(0);
        for c in 0..net.len() {
            if net.shapes.get(net.shape[c]).masks[0] == 0 {
                continue;
            }
            let r = self.find(c as u32) as usize;
            self.size[r] += 1;
            self.open[r] += open_ends(st, c) as i32;
        }
    }

    /// Narrows `cell` to the orientations of `keep` (collected, applied by [`Self::apply`]).
    fn narrow(&mut self, st: &State, cell: usize, keep: u8) {
        if self.keep[cell] == 0 {
            self.keep[cell] = st.dom[cell];
            self.touched.push(cell as u32);
        }
        self.keep[cell] &= keep;
        self.wiped |= self.keep[cell] == 0;
    }

    fn clear_keep(&mut self) {
        for &c in &self.touched {
            self.keep[c as usize] = 0;
        }
        self.touched.clear();
        self.wiped = false;
    }

    /// Applies the narrowings collected; a wipe-out when one leaves a cell nothing.
    fn apply(&mut self, net: &Network, st: &mut State) -> Pass {
        if self.touched.is_empty() {
            return Pass::Fixed;
        }
        if self.wiped {
            self.clear_keep();
            return Pass::Wipeout;
        }
        for i in 0..self.touched.len() {
            let c = self.touched[i] as usize;
            st.set(net, c, self.keep[c]);
        }
        self.clear_keep();
        Pass::Narrowed
    }

    /// Removes the orientations of undecided cells that would close a loop or an island.
    fn lookahead(&mut self, net: &Network, st: &State) {
        for c in 0..net.len() {
            let d = st.dom[c];
            if d.count_ones() < 2 {
                continue;
            }
            let sh = net.shapes.get(net.shape[c]);
            let must = st.sides(c) as u8;
            let rc = self.find(c as u32);
            let mut keep = 0u8;
            let mut rest = d;
            while rest != 0 {
                let r = rest.trailing_zeros();
                rest &= rest - 1;
                if self.orientation_fits(net, st, c, rc, sh.masks[r as usize] & !must) {
                    keep |= 1 << r;
                }
            }
            if keep != d {
                self.narrow(st, c, keep);
            }
        }
    }

    /// Whether `cell` (in network `rc`) may add the connections `new`: they must reach
    /// distinct networks other than its own, and the network they make must either be the
    /// whole level or keep a way out.
    fn orientation_fits(
        &mut self,
        net: &Network,
        st: &State,
        cell: usize,
        rc: u32,
        new: u8,
    ) -> bool {
        let k = net.k;
        let mut roots = [0u32; 8];
        let mut n_roots = 0;
        let mut size = self.size[rc as usize];
        let mut open = self.open[rc as usize] - open_ends(st, cell) as i32;
        let mut rest = new;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let l = net.links[cell * k + s];
            if l >= FIXED_ON {
                return false;
            }
            let r = self.find(l >> 3);
            if r == rc || roots[..n_roots].contains(&r) {
                return false;
            }
            roots[n_roots] = r;
            n_roots += 1;
            size += self.size[r as usize];
            // The neighbour's end becomes sure.
            open += self.open[r as usize] - 1;
        }
        if size >= self.nonempty {
            return true;
        }
        // Sides the cell may connect but will not: the neighbour's end closes too.
        let may = (st.sides(cell) >> 8) as u8;
        let mut unused = may & !(st.sides(cell) as u8) & !new;
        while unused != 0 {
            let s = unused.trailing_zeros() as usize;
            unused &= unused - 1;
            let l = net.links[cell * k + s];
            if l < FIXED_ON {
                let r = self.find(l >> 3);
                if r == rc || roots[..n_roots].contains(&r) {
                    open -= 1;
                }
            }
        }
        open > 0
    }

    /// Connectivity of the possible connections: false when they leave the non-empty cells
    /// in several parts; every bridge between non-empty parts is collected as a narrowing
    /// (both its ends must connect).
    fn bridges(&mut self, net: &Network, st: &State) -> bool {
        let k = net.k;
        self.disc.fill(0);
        let mut time = 0u32;
        let mut parts = 0;
        for root in 0..net.len() {
            if self.disc[root] != 0 || net.shapes.get(net.shape[root]).masks[0] == 0 {
                continue;
            }
            parts += 1;
            if parts > 1 {
                return false;
            }
            time += 1;
            self.disc[root] = time;
            self.low[root] = time;
            self.frames.push(Frame {
                cell: root as u32,
                next: 0,
                entered_by: u32::MAX,
            });
            while let Some(f) = self.frames.last_mut() {
                let v = f.cell as usize;
                if (f.next as usize) < k {
                    let s = f.next as usize;
                    f.next += 1;
                    let l = net.links[v * k + s];
                    if (st.sides(v) >> (8 + s)) & 1 == 0 || l >= FIXED_ON || l == f.entered_by {
                        continue;
                    }
                    let u = (l >> 3) as usize;
                    if self.disc[u] == 0 {
                        time += 1;
                        self.disc[u] = time;
                        self.low[u] = time;
                        self.frames.push(Frame {
                            cell: u as u32,
                            next: 0,
                            entered_by: (v * 8 + s) as u32,
                        });
                    } else {
                        self.low[v] = self.low[v].min(self.disc[u]);
                    }
                    continue;
                }
                let entered_by = f.entered_by;
                self.frames.pop();
                if entered_by == u32::MAX {
                    continue;
                }
                let (p, ps) = ((entered_by >> 3) as usize, (entered_by & 7) as usize);
                self.low[p] = self.low[p].min(self.low[v]);
                if self.low[v] > self.disc[p] && (st.sides(p) >> ps) & 1 == 0 {
                    // A bridge: the only way between its two parts, each non-empty.
                    let t = (net.links[p * k + ps] & 7) as usize;
                    self.narrow(st, p, with_side(net, st, p, ps));
                    self.narrow(st, v, with_side(net, st, v, t));
                }
            }
        }
        true
    }
}

/// The orientations of `cell`'s domain that connect `side`.
fn with_side(net: &Network, st: &State, cell: usize, side: usize) -> u8 {
    let sh = net.shapes.get(net.shape[cell]);
    let mut keep = 0u8;
    let mut rest = st.dom[cell];
    while rest != 0 {
        let r = rest.trailing_zeros();
        rest &= rest - 1;
        if sh.masks[r as usize] >> side & 1 == 1 {
            keep |= 1 << r;
        }
    }
    keep
}

/// Possible-but-not-sure connection ends of `cell`.
#[inline]
fn open_ends(st: &State, cell: usize) -> u32 {
    let s = st.sides(cell);
    ((s >> 8) as u8 & !(s as u8)).count_ones()
}

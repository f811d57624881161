//! Net rules on the any-board engine: a level compiled with its barriers (sides fixed off) and
//! locked cells (one orientation), and [`NetPropagator`], the global reasoning Net adds to the
//! local propagation of [`State`]:
//!
//! - **no loop**: connections every orientation left makes are joined in a union-find; one
//!   that closes a cycle is a wipe-out, and an orientation whose new connections would join a
//!   network to itself is removed;
//! - **no island**: the graph of connections still possible must join all non-empty cells
//!   (else a wipe-out), each of its bridges must be used, and an orientation that would close
//!   off a network smaller than the whole (its cells owing no further connection, so nothing
//!   can lead out) is removed — SGT's dead-end reasoning, counted per network.
//!
//! The local propagation stays [`State`]'s; the global one runs when it is at a fixed point,
//! so possible and sure connections are the same seen from both ends.

use std::borrow::Cow;

use super::network::{FIXED_ON, Network, State};
use super::shapes::{Shapes, full_domain};
use crate::algo::undo_union_find::UndoUnionFind;
use crate::board::{BoardLevel, Links, Rules};

/// A level compiled for the engine: shapes, barriers folded into the links, locked cells'
/// domains narrowed to their one orientation.
pub struct NetCompiled<'a> {
    shapes: Shapes,
    shape: Vec<u8>,
    /// The board's links, copied into a table only when barriers change them (a copy was
    /// 268 MB and a good part of a generator round at 4096x4096).
    links: Links<'a>,
    /// The starting domain of every cell.
    pub domains: Vec<u8>,
    /// The rules to solve under.
    pub rules: Rules,
}

impl<'a> NetCompiled<'a> {
    /// Compiles `level` under its own rules.
    pub fn new(level: &'a BoardLevel) -> NetCompiled<'a> {
        let board = level.board();
        let k = board.sides() as usize;
        let (shapes, shape) = Shapes::of_cells(board, level.masks());
        let mut domains = Vec::with_capacity(board.len());
        for (c, &m) in level.masks().iter().enumerate() {
            let s = shape[c];
            domains.push(if level.is_locked(c) {
                1 << shapes.orientation_of(s, m)
            } else {
                full_domain(shapes.get(s).period)
            });
        }
        let mut links = board.link_view();
        if level.has_barriers() {
            let mut table = links.to_table(board.len(), k);
            for c in 0..board.len() {
                let walls = level.barrier(c);
                for s in 0..k {
                    if walls >> s & 1 == 1 {
                        table[c * k + s] = super::network::FIXED_OFF;
                    }
                }
            }
            links = Links::Table {
                k,
                links: Cow::Owned(table),
            };
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
            links: self.links.borrowed(),
            lattice: None,
        }
    }

    /// The one-orientation domain that gives `cell` the connections `mask` (one of its
    /// shape's turnings).
    pub fn orientation_bit(&self, cell: usize, mask: u8) -> u8 {
        1 << self.shapes.orientation_of(self.shape[cell], mask)
    }

    /// The masks of a state with every cell decided.
    pub fn masks_of(&self, dom: &[u8]) -> Vec<u8> {
        dom.iter()
            .zip(&self.shape)
            .map(|(&d, &s)| self.shapes.get(s).masks[d.trailing_zeros() as usize])
            .collect()
    }
}

/// "No cell" in the per-root lists.
const NONE: u32 = u32::MAX;

/// One frame of the bridge search over networks: the network (a union-find root), the cell
/// of its list and the side looked at next, and the link it was entered by (`NONE` at the
/// start).
#[derive(Clone, Copy)]
struct Frame {
    root: u32,
    cell: u32,
    side: u8,
    entered_by: u32,
}

/// A connection joined in the union-find, to undo: both ends' joined sides before (each
/// join is one union of the union-find, undone with it).
struct Join {
    cell: u32,
    cell_joined: u8,
    other: u32,
    other_joined: u8,
}

/// Where to undo a [`NetPropagator`] to (see [`NetPropagator::mark`]).
#[derive(Clone, Copy)]
pub struct NetMark {
    joins: usize,
    live: usize,
}

/// The global propagation's state (see the module doc). The union-find of sure connections
/// is kept from one propagation to the next and undone with the search (union by size, no
/// path compression, so an undo is one reset), and so is the list of cells that may still be
/// undecided; the rest is scratch of one pass, over the undecided cells only.
pub struct NetPropagator {
    rules: Rules,
    /// Networks of sure connections; a set weighs its non-empty cells.
    sets: UndoUnionFind,
    /// Per cell: sides whose connection is in the union-find.
    joined: Vec<u8>,
    trail: Vec<Join>,
    /// The state's trail is joined up to here (`usize::MAX`: nothing joined yet).
    seen: usize,
    /// Networks of non-empty cells.
    networks: u32,
    /// Non-empty cells of the level.
    nonempty: u32,
    /// Every cell once, those of `live[..undecided]` possibly undecided, the rest decided: a
    /// pass removes the cells it finds decided by swapping them past the end, and an undo
    /// only restores the length (the swaps stay inside it). A search node then costs the
    /// cells left undecided at the root, not the board: on a board of a million cells
    /// with ten thousand left a whole-board scan per node was 97% of the generator's time.
    live: Vec<u32>,
    /// The length of `live`'s undecided part; after a pass, exactly the undecided cells.
    undecided: usize,
    /// Per root: the pass that last set its entries below.
    stamp: Vec<u32>,
    now: u32,
    /// Per root: connections its cells still owe (piece degree minus sure connections).
    owed: Vec<i32>,
    /// Per undecided cell: its network's root, this pass.
    root: Vec<u32>,
    /// Per root: its first undecided cell; per cell: the next one of the same network.
    head: Vec<u32>,
    next: Vec<u32>,
    /// Bridge search, per root: discovery time (0: not yet) and lowest time reachable.
    disc: Vec<u32>,
    low: Vec<u32>,
    frames: Vec<Frame>,
    /// Narrowings found in a pass, applied after it (so a wipe-out leaves nothing queued).
    keep: Vec<u8>,
    touched: Vec<u32>,
    /// Some narrowing of this pass left a cell nothing.
    wiped: bool,
    /// Search nodes to go before the next global pass (see [`Self::fixpoint_in_search`]).
    skip: u32,
    /// Nodes skipped after the last pass that found nothing: doubled by each such pass.
    interval: u32,
}

/// The most search nodes between two global passes once they keep finding nothing.
const MAX_SKIP: u32 = 64;

/// What a global pass found.
enum Pass {
    Wipeout,
    Fixed,
    Narrowed,
}

impl NetPropagator {
    /// The propagator of `net` under `rules`, nothing joined yet.
    pub fn new(net: &Network, rules: Rules) -> NetPropagator {
        let n = net.len();
        let weights: Vec<u32> = (0..n)
            .map(|c| (net.shapes.get(net.shape[c]).masks[0] != 0) as u32)
            .collect();
        let nonempty = weights.iter().sum();
        NetPropagator {
            rules,
            sets: UndoUnionFind::with_weights(weights),
            joined: vec![0; n],
            trail: Vec::new(),
            seen: usize::MAX,
            networks: nonempty,
            nonempty,
            live: (0..n as u32).collect(),
            undecided: n,
            stamp: vec![0; n],
            now: 0,
            owed: vec![0; n],
            // Each entry is written before it is read (a pass sets them for the undecided
            // cells and their roots), so zeros will do: zeroed memory comes from the system
            // untouched, and filling these three was 200 MB written per generator round at
            // 4096x4096, most of it never read.
            root: vec![0; n],
            head: vec![0; n],
            next: vec![0; n],
            disc: vec![0; n],
            low: vec![0; n],
            frames: Vec::new(),
            keep: vec![0; n],
            touched: Vec::new(),
            wiped: false,
            skip: 0,
            interval: 0,
        }
    }

    /// As [`NetPropagator::new`], in the memory of `old` when it served a network of the
    /// same size. The generator propagates a board of millions of cells dozens of times:
    /// fresh arrays each time came from the system as zeroed huge pages, a third of its
    /// time (the per-root arrays need no clearing: a pass writes what it reads, and its
    /// stamps go on counting).
    pub fn recycle(old: NetPropagator, net: &Network, rules: Rules) -> NetPropagator {
        let n = net.len();
        if old.joined.len() != n {
            return NetPropagator::new(net, rules);
        }
        let mut p = old;
        p.clear_keep();
        p.joined.fill(0);
        for (i, c) in p.live.iter_mut().enumerate() {
            *c = i as u32;
        }
        let weights: Vec<u32> = (0..n)
            .map(|c| (net.shapes.get(net.shape[c]).masks[0] != 0) as u32)
            .collect();
        p.nonempty = weights.iter().sum();
        p.networks = p.nonempty;
        p.sets = UndoUnionFind::with_weights(weights);
        p.undecided = n;
        p.rules = rules;
        p.trail.clear();
        p.seen = usize::MAX;
        p.frames.clear();
        p.skip = 0;
        p.interval = 0;
        p
    }

    /// A mark to undo the union-find and the undecided cells to (with [`Self::undo`]).
    pub fn mark(&self) -> NetMark {
        NetMark {
            joins: self.trail.len(),
            live: self.undecided,
        }
    }

    /// The cells possibly undecided (every undecided cell is one of them; after a global
    /// pass, exactly those).
    pub fn undecided(&self) -> &[u32] {
        &self.live[..self.undecided]
    }

    /// Undoes the joins since `mark`; `state_mark` is the state's trail length after its own
    /// undo (the joins kept cover the narrowings before it).
    pub fn undo(&mut self, mark: NetMark, state_mark: usize) {
        self.undecided = mark.live;
        let mark = mark.joins;
        while self.trail.len() > mark {
            let j = self.trail.pop().expect("above the mark");
            self.joined[j.cell as usize] = j.cell_joined;
            self.joined[j.other as usize] = j.other_joined;
            self.networks += 1;
        }
        // One union per join: the two stacks undo to the same mark.
        debug_assert!(self.sets.mark() >= mark);
        self.sets.undo(mark);
        debug_assert_eq!(self.sets.mark(), self.trail.len());
        if self.seen != usize::MAX {
            self.seen = self.seen.min(state_mark);
        }
    }

    /// After the state's trail was committed (cleared): the joins so far become the base.
    pub fn rebase(&mut self) {
        self.trail.clear();
        self.sets.commit();
        self.seen = 0;
    }

    /// Propagates `st` to a fixed point of the local and (under Net rules) global reasoning;
    /// false on a wipe-out. Whatever was queued is propagated first.
    pub fn fixpoint(&mut self, net: &Network, st: &mut State) -> bool {
        if self.rules != Rules::Net {
            return st.propagate(net);
        }
        self.passes(net, st).0
    }

    /// Local propagation, joins and global passes in turn to a fixed point under Net rules:
    /// whether it holds, and whether some pass narrowed or wiped out.
    fn passes(&mut self, net: &Network, st: &mut State) -> (bool, bool) {
        let mut found = false;
        loop {
            if !st.propagate(net) || !self.join_new(net, st) {
                return (false, found);
            }
            match self.pass(net, st) {
                Pass::Wipeout => return (false, true),
                Pass::Fixed => return (true, found),
                Pass::Narrowed => found = true,
            }
        }
    }

    /// [`Self::fixpoint`] for a search node, whose global pass (a walk over every undecided
    /// cell) is skipped while such passes find nothing: after each pass that neither narrowed
    /// nor wiped out, the next one waits twice as many nodes (at most [`MAX_SKIP`]); one that
    /// did brings the pass back at every node. A skipped node still propagates locally and
    /// joins its sure connections, so loops are refused at once. On a level with many
    /// solutions the search descends thousands of nodes where one pass in twenty narrows:
    /// a pass per node made the search quadratic in the cells left open (hexagonal 512x512:
    /// 707 passes over 3.0 million cells, 39 of them narrowing). Skipping is sound, as the
    /// passes only prune: a search must call [`Self::fixpoint`] on a state whose cells are all
    /// decided before taking it for a solution.
    pub fn fixpoint_in_search(&mut self, net: &Network, st: &mut State) -> bool {
        if self.rules != Rules::Net {
            return st.propagate(net);
        }
        if self.skip > 0 {
            self.skip -= 1;
            return st.propagate(net) && self.join_new(net, st);
        }
        let (ok, found) = self.passes(net, st);
        self.interval = if found {
            0
        } else {
            (2 * self.interval + 1).min(MAX_SKIP)
        };
        self.skip = self.interval;
        ok
    }

    /// Makes every later search node skip the global pass (tests: the search must stay exact
    /// on local propagation and the loop refusal at each join alone).
    #[cfg(test)]
    pub(crate) fn skip_every_pass(&mut self) {
        self.skip = u32::MAX;
    }

    /// Joins the sure connections of the cells narrowed since the last call (every cell the
    /// first time); false when one closes a loop.
    fn join_new(&mut self, net: &Network, st: &State) -> bool {
        let end = st.mark();
        if self.seen == usize::MAX {
            for c in 0..net.len() {
                if !self.join_cell(net, st, c) {
                    return false;
                }
            }
        } else {
            for c in st.narrowed_since(self.seen) {
                if !self.join_cell(net, st, c) {
                    return false;
                }
            }
        }
        self.seen = end;
        true
    }

    /// Joins `cell`'s sure connections not joined yet; false on a loop.
    fn join_cell(&mut self, net: &Network, st: &State, cell: usize) -> bool {
        let mut new = st.sides(cell) as u8 & !self.joined[cell];
        while new != 0 {
            let s = new.trailing_zeros() as usize;
            new &= new - 1;
            let l = net.links.get(cell, s);
            if l >= FIXED_ON {
                continue;
            }
            let (n, t) = ((l >> 3) as usize, (l & 7) as usize);
            if !self.sets.union(cell as u32, n as u32) {
                return false;
            }
            self.trail.push(Join {
                cell: cell as u32,
                cell_joined: self.joined[cell],
                other: n as u32,
                other_joined: self.joined[n],
            });
            self.networks -= 1;
            self.joined[cell] |= 1 << s;
            self.joined[n] |= 1 << t;
        }
        true
    }

    /// One global pass over a locally propagated state whose sure connections are joined.
    fn pass(&mut self, net: &Network, st: &mut State) -> Pass {
        self.group_undecided(net, st);
        if self.networks > 1 && !self.bridges(net, st) {
            self.clear_keep();
            return Pass::Wipeout;
        }
        self.lookahead(net, st);
        self.apply(net, st)
    }

    /// Drops the cells decided since from the list of undecided ones.
    pub fn drop_decided(&mut self, st: &State) {
        let mut i = 0;
        while i < self.undecided {
            if st.dom[self.live[i] as usize].count_ones() > 1 {
                i += 1;
            } else {
                self.undecided -= 1;
                self.live.swap(i, self.undecided);
            }
        }
    }

    /// Lists the undecided cells by network, and the connections each network still owes.
    fn group_undecided(&mut self, net: &Network, st: &State) {
        self.drop_decided(st);
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
        for i in 0..self.undecided {
            let u = self.live[i];
            let r = self.sets.find(u) as usize;
            self.root[u as usize] = r as u32;
            if self.stamp[r] != self.now {
                self.stamp[r] = self.now;
                self.owed[r] = 0;
                self.head[r] = NONE;
                self.disc[r] = 0;
            }
            self.owed[r] += free_ends(net, st, u as usize) as i32;
            self.next[u as usize] = self.head[r];
            self.head[r] = u;
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
        for i in 0..self.undecided {
            let c = self.live[i] as usize;
            let d = st.dom[c];
            let sh = net.shapes.get(net.shape[c]);
            let must = st.sides(c) as u8;
            let rc = self.root[c];
            let mut keep = 0u8;
            let mut rest = d;
            while rest != 0 {
                let r = rest.trailing_zeros();
                rest &= rest - 1;
                if self.orientation_fits(net, c, rc, sh.masks[r as usize] & !must) {
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
    /// whole level or still owe a connection (a cell whose sure connections are fewer than
    /// its piece's), which can only lead out of it.
    fn orientation_fits(&self, net: &Network, cell: usize, rc: u32, new: u8) -> bool {
        let mut roots = [0u32; 8];
        let mut n_roots = 0;
        let mut size = self.sets.weight(rc);
        // The cell owes exactly `new`; each neighbour it joins owes one connection fewer.
        let mut owed = self.owed[rc as usize] - 2 * new.count_ones() as i32;
        let mut rest = new;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let l = net.links.get(cell, s);
            if l >= FIXED_ON {
                return false;
            }
            // An open side's neighbour is undecided too (the state is at a local fixed
            // point), so its root is cached.
            let r = self.root[(l >> 3) as usize];
            if r == rc || roots[..n_roots].contains(&r) {
                return false;
            }
            roots[n_roots] = r;
            n_roots += 1;
            size += self.sets.weight(r);
            owed += self.owed[r as usize];
        }
        size >= self.nonempty || owed > 0
    }

    /// The networks joined by possible connections must be one: false when they fall apart
    /// (or a network has no way out); every bridge between them is collected as a narrowing
    /// (both its ends must connect). A depth-first search over networks (Tarjan's bridges),
    /// reading only the undecided cells.
    fn bridges(&mut self, net: &Network, st: &State) -> bool {
        let Some(&first) = self.undecided().first() else {
            // Several networks and nothing left to join them.
            return false;
        };
        let k = net.k;
        let mut time = 1u32;
        let start = self.root[first as usize];
        self.disc[start as usize] = time;
        self.low[start as usize] = time;
        let mut reached = 1u32;
        self.frames.push(Frame {
            root: start,
            cell: self.head[start as usize],
            side: 0,
            entered_by: NONE,
        });
        while let Some(&f) = self.frames.last() {
            let v = f.root as usize;
            if f.cell == NONE {
                self.frames.pop();
                if let Some(parent) = self.frames.last() {
                    let p = parent.root as usize;
                    self.low[p] = self.low[p].min(self.low[v]);
                    if self.low[v] > self.disc[p] {
                        // The only link between two parts, each with non-empty cells.
                        let (pc, ps) = ((f.entered_by >> 3) as usize, (f.entered_by & 7) as usize);
                        let l = net.links.get(pc, ps);
                        let (vc, vs) = ((l >> 3) as usize, (l & 7) as usize);
                        self.narrow(st, pc, with_side(net, st, pc, ps));
                        self.narrow(st, vc, with_side(net, st, vc, vs));
                    }
                }
                continue;
            }
            let c = f.cell as usize;
            let top = self.frames.last_mut().expect("looked at");
            if f.side as usize == k {
                top.cell = self.next[c];
                top.side = 0;
                continue;
            }
            top.side += 1;
            let s = f.side as usize;
            let l = net.links.get(c, s);
            // `entered_by` is the parent's end of the link in, which is what the child's end
            // links to: that link is the way back, not another one.
            if open_ends_mask(st, c) >> s & 1 == 0 || l >= FIXED_ON || l == f.entered_by {
                continue;
            }
            let u = self.root[(l >> 3) as usize] as usize;
            if u == v {
                continue;
            }
            if self.disc[u] == 0 {
                time += 1;
                reached += 1;
                self.disc[u] = time;
                self.low[u] = time;
                self.frames.push(Frame {
                    root: u as u32,
                    cell: self.head[u],
                    side: 0,
                    entered_by: (c * 8 + s) as u32,
                });
            } else {
                self.low[v] = self.low[v].min(self.disc[u]);
            }
        }
        reached == self.networks
    }
}

/// The sides of `cell` possibly but not surely connected.
#[inline]
fn open_ends_mask(st: &State, cell: usize) -> u8 {
    let s = st.sides(cell);
    (s >> 8) as u8 & !(s as u8)
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

/// Connections `cell` still owes: its piece's degree minus its sure connections.
#[inline]
fn free_ends(net: &Network, st: &State, cell: usize) -> u32 {
    let degree = net.shapes.get(net.shape[cell]).masks[0].count_ones();
    degree - (st.sides(cell) as u8).count_ones()
}

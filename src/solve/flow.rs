//! Global reasoning for the search: a degree-constrained witness.
//!
//! Every piece needs exactly `degree(kind)` connections. For empty, Q, T and X pieces that is
//! the whole rule (every set of that many sides is an orientation). An L needs one of N/S and
//! one of E/W: two *ports* of degree 1, which is exactly its set of shapes. An I gets ports
//! N/E and S/W of degree 1: that admits its two shapes and two L shapes, so only I pieces can
//! be left with a wrong shape. The grid is bipartite (checkerboard), so "every port of a region
//! gets exactly its degree of connections over its still-undecided sides" is a flow problem.
//! [`DegreeFlow`] keeps one such witness up to date through the search:
//! - no witness exists ⇒ the node has no solution (an augmenting-path search that fails from a
//!   deficit cell proves the maximum flow is short);
//! - a witness whose I and L cells have a shape in their domains *is* a solution.
//!
//! The witness is repaired locally after each decision (shortest augmenting paths from the
//! cells left short of connections), and every edge flip is trailed so backtracking restores it
//! exactly. This is what makes the domino-like `dist1` family easy: local propagation cannot
//! see that a pocket of one-end pieces has no perfect pairing; the flow sees it at once.

use super::board::Board;
use super::state::State;
use super::tables::sides;
use crate::model::PieceKind;
use crate::model::direction::opposite;

/// `PORTS[kind]` = the two ports (sides mask, required connections). Kinds with a single
/// rule put everything in port 0 and leave port 1 empty.
const PORTS: [[(u8, u8); 2]; 6] = [
    [(0xF, 0), (0, 0)],
    [(0xF, 1), (0, 0)],
    [(0b0011, 1), (0b1100, 1)],
    [(0xF, 3), (0, 0)],
    [(0xF, 4), (0, 0)],
    [(0b0101, 1), (0b1010, 1)],
];

/// The port (0 or 1) of `kind` that side `s` belongs to.
#[inline]
pub fn port_of(kind: u8, s: usize) -> usize {
    usize::from(PORTS[kind as usize][1].0 & (1 << s) != 0)
}

/// The sides mask of port `p` of `kind`.
#[inline]
pub fn port_mask(kind: u8, p: usize) -> u8 {
    PORTS[kind as usize][p].0
}

/// A flow node: cell `c`, port `p`, as one index `2c + p`.
#[inline]
fn node(c: usize, p: usize) -> usize {
    2 * c + p
}

/// `ORIENT_OF[kind * 16 + mask]` = the orientation of `kind` with connection `mask`, or 255.
const ORIENT_OF: [u8; 96] = {
    let mut t = [255u8; 96];
    let mut k = 0;
    while k < 6 {
        let kind = match PieceKind::from_code(k as u8) {
            Some(kind) => kind,
            None => unreachable!(),
        };
        let mut o = 0;
        while o < kind.orientations() {
            t[k * 16 + kind.mask(o) as usize] = o;
            o += 1;
        }
        k += 1;
    }
    t
};

/// The orientation of `kind` whose connections are `mask`, if there is one.
#[inline]
pub fn orientation_of(kind: u8, mask: u8) -> Option<u8> {
    let o = ORIENT_OF[kind as usize * 16 + mask as usize];
    (o != 255).then_some(o)
}

/// True for kinds whose rule is more than a degree (I and L): only they can be violated.
#[inline]
pub fn needs_shape(kind: u8) -> bool {
    kind == PieceKind::I as u8 || kind == PieceKind::L as u8
}

/// Long loops (set-up over a whole region) read the stop flag once per this much work.
pub const HALT_CHECK_INTERVAL: usize = 4096;

/// The degree-constrained flow witness of one search, repaired after each decision and
/// trailed so backtracking restores it (see the module doc).
pub struct DegreeFlow {
    /// Sides of each cell that carry a connection in the witness (kept symmetric).
    used: Vec<u8>,
    /// Trail of flipped edges, as (cell, side); flipping again undoes.
    flips: Vec<(u32, u8)>,
    /// BFS bookkeeping per node (cell and port): visit stamp and the side through which it was
    /// reached.
    stamp: Vec<u32>,
    epoch: u32,
    via: Vec<u8>,
    bfs: Vec<u32>,
    /// Cells whose balance must be re-examined.
    touched: Vec<u32>,
    /// The cell whose decided sides exceed its degree when the last repair failed that way;
    /// `u32::MAX` when it failed for want of an augmenting path (`bfs` then holds the nodes
    /// it could reach). Read by [`DegreeFlow::failure_cells`].
    failed: u32,
}

impl DegreeFlow {
    /// An empty witness sized for `board`; [`DegreeFlow::init`] builds it over a region.
    pub fn new(board: &Board) -> DegreeFlow {
        DegreeFlow {
            used: vec![0; board.len()],
            flips: Vec::new(),
            stamp: vec![0; 2 * board.len()],
            epoch: 0,
            via: vec![0; 2 * board.len()],
            bfs: Vec::new(),
            touched: Vec::new(),
            failed: u32::MAX,
        }
    }

    /// Trail position to come back to with [`DegreeFlow::undo_to`].
    pub fn mark(&self) -> usize {
        self.flips.len()
    }

    /// Both ends of every edge flipped since `mark` (cells whose witness shape changed).
    pub fn flipped_since<'a>(
        &'a self,
        board: &'a Board,
        mark: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        self.flips[mark..]
            .iter()
            .flat_map(move |&(c, s)| [c as usize, board.neighbour(c as usize, s as usize)])
    }

    /// Undoes every edge flip made since `mark`, restoring the witness exactly as it was.
    pub fn undo_to(&mut self, board: &Board, mark: usize) {
        while self.flips.len() > mark {
            let (c, s) = self.flips.pop().expect("flip trail longer than mark");
            self.toggle(board, c as usize, s as usize);
        }
    }

    #[inline]
    fn toggle(&mut self, board: &Board, c: usize, s: usize) {
        self.used[c] ^= 1 << s;
        self.used[board.neighbour(c, s)] ^= 1 << opposite(s);
    }

    #[inline]
    fn flip(&mut self, board: &Board, c: usize, s: usize) {
        self.toggle(board, c, s);
        self.flips.push((c as u32, s as u8));
    }

    /// Connections the witness gives port `p` of `c`, minus what the port needs.
    #[inline]
    fn excess(&self, board: &Board, c: usize, p: usize) -> i32 {
        let (mask, degree) = PORTS[board.kind[c] as usize][p];
        (self.used[c] & mask).count_ones() as i32 - i32::from(degree)
    }

    /// The witness's connection mask for `c`.
    #[inline]
    pub fn used(&self, c: usize) -> u8 {
        self.used[c]
    }

    /// True when the witness gives `c` a connection set that is not one of its orientations.
    #[inline]
    pub fn violated(&self, board: &Board, state: &State, c: usize) -> bool {
        match orientation_of(board.kind[c], self.used[c]) {
            Some(o) => state.dom[c] & (1 << o) == 0,
            None => true,
        }
    }

    /// Builds a witness for `region` (undecided cells of a propagated state): decided sides as
    /// they are, then greedy pairing, then augmenting paths. False when none exists.
    pub fn init(&mut self, board: &Board, state: &State, region: &[u32]) -> bool {
        self.init_until(board, state, region, &|| false) != Some(false)
    }

    /// [`DegreeFlow::init`] that gives up (`None`) once `halted` says so: on a region of
    /// millions of cells the set-up alone can take seconds, and a timeout must not wait for it.
    pub fn init_until(
        &mut self,
        board: &Board,
        state: &State,
        region: &[u32],
        halted: &impl Fn() -> bool,
    ) -> Option<bool> {
        for &c in region {
            self.used[c as usize] = sides(board.kind[c as usize], state.dom[c as usize]).1;
        }
        for &c in region {
            let c = c as usize;
            let open = open_sides(board, state, c);
            for s in 0..4 {
                if open & (1 << s) != 0 && self.used[c] & (1 << s) == 0 {
                    let nb = board.neighbour(c, s);
                    let (pc, pn) = (
                        port_of(board.kind[c], s),
                        port_of(board.kind[nb], opposite(s)),
                    );
                    if self.excess(board, c, pc) < 0 && self.excess(board, nb, pn) < 0 {
                        self.toggle(board, c, s);
                    }
                }
            }
        }
        if halted() {
            return None;
        }
        self.touched.clear();
        self.touched.extend_from_slice(region);
        self.rebalance(board, state, halted)
    }

    /// Brings the witness in line with the cells whose domains changed (as listed by the state's
    /// trail since a mark), then repairs it. False when no witness exists any more.
    pub fn sync(
        &mut self,
        board: &Board,
        state: &State,
        changed: impl Iterator<Item = usize>,
    ) -> bool {
        self.sync_until(board, state, changed, &|| false) != Some(false)
    }

    /// [`DegreeFlow::sync`] that gives up (`None`) once `halted` says so.
    pub fn sync_until(
        &mut self,
        board: &Board,
        state: &State,
        changed: impl Iterator<Item = usize>,
        halted: &impl Fn() -> bool,
    ) -> Option<bool> {
        self.touched.clear();
        for c in changed {
            let (may, must) = sides(board.kind[c], state.dom[c]);
            let wrong = (must & !self.used[c]) | (self.used[c] & !may);
            if wrong == 0 {
                continue;
            }
            for s in 0..4 {
                if wrong & (1 << s) != 0 {
                    self.flip(board, c, s);
                    self.touched.push(c as u32);
                    self.touched.push(board.neighbour(c, s) as u32);
                }
            }
        }
        self.rebalance(board, state, halted)
    }

    /// Removes surplus connections over open sides, then fills every deficit by an augmenting
    /// path. Works on `self.touched`. `None` when `halted` said stop (read every
    /// [`HALT_CHECK_INTERVAL`] cells, so a search's small repairs never read it).
    fn rebalance(
        &mut self,
        board: &Board,
        state: &State,
        halted: &impl Fn() -> bool,
    ) -> Option<bool> {
        // Work since the flag was last read: cells looked at plus nodes the BFS visited.
        let mut work = 0usize;
        let mut i = 0;
        while i < self.touched.len() {
            work += 1;
            if work >= HALT_CHECK_INTERVAL {
                work = 0;
                if halted() {
                    return None;
                }
            }
            let c = self.touched[i] as usize;
            i += 1;
            for p in 0..2 {
                while self.excess(board, c, p) > 0 {
                    let spare =
                        self.used[c] & open_sides(board, state, c) & port_mask(board.kind[c], p);
                    if spare == 0 {
                        self.failed = c as u32;
                        return Some(false);
                    }
                    let s = spare.trailing_zeros() as usize;
                    self.flip(board, c, s);
                    self.touched.push(board.neighbour(c, s) as u32);
                }
            }
        }
        for i in 0..self.touched.len() {
            work += 1;
            if work >= HALT_CHECK_INTERVAL {
                work = 0;
                if halted() {
                    return None;
                }
            }
            let c = self.touched[i] as usize;
            for p in 0..2 {
                while self.excess(board, c, p) < 0 {
                    let found = self.augment(board, state, c, p, halted)?;
                    work += self.bfs.len();
                    if !found {
                        self.failed = u32::MAX;
                        return Some(false);
                    }
                }
            }
        }
        Some(true)
    }

    /// The cells whose domains prove the last failed repair right: the cell with too many
    /// decided connections, or every cell the failed augmenting-path search reached (no
    /// assignment that agrees with the current domains on them has every degree; the
    /// witness is only the means of finding them). Valid until the next repair.
    pub fn failure_cells(&self) -> impl Iterator<Item = usize> + '_ {
        let single = (self.failed != u32::MAX).then_some(self.failed as usize);
        let reached = if single.is_some() { 0 } else { self.bfs.len() };
        single
            .into_iter()
            .chain(self.bfs[..reached].iter().map(|&n| n as usize / 2))
    }

    /// One augmenting path from port `sp` of `start` (short of a connection). Nodes of
    /// `start`'s colour switch on an unused open side of the port they were reached in, nodes
    /// of the other colour switch off a used one, so every port on the path keeps its count;
    /// the path ends at a port of the other colour that is also short. False when there is
    /// none, which proves no witness exists.
    /// `None` when `halted` said stop (read every [`HALT_CHECK_INTERVAL`] nodes: one search
    /// may cover a region of millions of cells).
    fn augment(
        &mut self,
        board: &Board,
        state: &State,
        start: usize,
        sp: usize,
        halted: &impl Fn() -> bool,
    ) -> Option<bool> {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        let start_node = node(start, sp);
        self.stamp[start_node] = epoch;
        self.bfs.clear();
        self.bfs.push(start_node as u32);
        let mut head = 0;
        // Colour of a cell relative to start: the BFS alternates, so depth parity is colour.
        let start_parity = parity(board, start);
        while head < self.bfs.len() {
            let un = self.bfs[head] as usize;
            head += 1;
            if head % HALT_CHECK_INTERVAL == 0 && halted() {
                return None;
            }
            let (u, pu) = (un / 2, un % 2);
            let outward = parity(board, u) == start_parity;
            let open = open_sides(board, state, u) & port_mask(board.kind[u], pu);
            let usable = if outward {
                open & !self.used[u]
            } else {
                open & self.used[u]
            };
            for s in 0..4 {
                if usable & (1 << s) == 0 {
                    continue;
                }
                let v = board.neighbour(u, s);
                let vn = node(v, port_of(board.kind[v], opposite(s)));
                if self.stamp[vn] == epoch {
                    continue;
                }
                self.stamp[vn] = epoch;
                self.via[vn] = opposite(s) as u8;
                if outward && self.excess(board, v, vn % 2) < 0 {
                    self.flip_path(board, start_node, vn);
                    return Some(true);
                }
                self.bfs.push(vn as u32);
            }
        }
        Some(false)
    }

    fn flip_path(&mut self, board: &Board, start_node: usize, end_node: usize) {
        let mut vn = end_node;
        while vn != start_node {
            let v = vn / 2;
            let s = self.via[vn] as usize;
            self.flip(board, v, s);
            let u = board.neighbour(v, s);
            vn = node(u, port_of(board.kind[u], opposite(s)));
        }
    }
}

/// The checkerboard side of `c` (the flow's bipartition): [`Board::colour`].
#[inline]
pub fn parity(board: &Board, c: usize) -> bool {
    board.colour(c)
}

/// Sides of `c` not yet decided either way.
#[inline]
fn open_sides(board: &Board, state: &State, c: usize) -> u8 {
    let (may, must) = sides(board.kind[c], state.dom[c]);
    may & !must
}

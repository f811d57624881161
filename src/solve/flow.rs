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
    /// The search forward from the short port being filled.
    forward: Lane,
    /// The search backward from the short ports of the other colour (its arrays allocated at
    /// the first repair that needs it).
    backward: Lane,
    /// Which lane's reach proves the last failed repair (see [`DegreeFlow::failure_cells`]).
    failed_lane: usize,
    /// Where the current search starts.
    sources: Vec<u32>,
    /// Nodes (cell and port) short of connections when the current repair began.
    short: Vec<u32>,
    /// Nodes the first round of a repair may visit ([`FIRST_CAP`]; tests set 1 to exercise
    /// the rounds, or no cap for the plain exhaustive search).
    first_cap: usize,
    /// Cells whose balance must be re-examined.
    touched: Vec<u32>,
    /// Paths a repair may find for other ports before its port waits ([`DEFER_AFTER`]; tests
    /// set 1 to make ports wait often).
    defer_after: usize,
    /// Ports sent to the end of `touched` so far.
    waited: usize,
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
            forward: Lane::new(2 * board.len()),
            backward: Lane::new(0),
            failed_lane: 0,
            sources: Vec::new(),
            short: Vec::new(),
            first_cap: FIRST_CAP,
            touched: Vec::new(),
            defer_after: DEFER_AFTER,
            waited: 0,
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
        excess_of(&self.used, board, c, p)
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
        // Every port short of connections is on a touched cell (the others were balanced by
        // the last repair): the backward searches start from this list.
        self.short.clear();
        for i in 0..self.touched.len() {
            if i % HALT_CHECK_INTERVAL == HALT_CHECK_INTERVAL - 1 && halted() {
                return None;
            }
            let c = self.touched[i] as usize;
            for p in 0..2 {
                if self.excess(board, c, p) < 0 {
                    self.short.push(node(c, p) as u32);
                }
            }
        }
        // A path found by the backward search may end at another short port than the one it
        // started for. After a few such paths the port waits at the end of the list: otherwise
        // a port that no path can fill repeats its capped forward search for every other port
        // the backward search fills (an unsolvable straight 1024x1024 level: 622 searches of
        // 2^18 nodes from one port, 7 s before the refutation), while those ports, taken in
        // their turn, are filled by short searches of their own. A port waits once; on its
        // second turn it searches until it is filled or refuted.
        let first_pass = self.touched.len();
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
                let mut elsewhere = 0;
                while self.excess(board, c, p) < 0 {
                    let found = self.augment(board, state, c, p, &mut work, halted)?;
                    if !found {
                        self.failed = u32::MAX;
                        return Some(false);
                    }
                    if self.excess(board, c, p) < 0 {
                        elsewhere += 1;
                        if i <= first_pass && elsewhere >= self.defer_after {
                            self.waited += 1;
                            self.touched.push(c as u32);
                            break;
                        }
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
        let bfs = match self.failed_lane {
            0 => &self.forward.bfs,
            _ => &self.backward.bfs,
        };
        let reached = if single.is_some() { 0 } else { bfs.len() };
        single
            .into_iter()
            .chain(bfs[..reached].iter().map(|&n| (n & !INWARD) as usize / 2))
    }

    /// Fills one connection of port `sp` of `start` (short) by an augmenting path, or proves
    /// that no witness exists. Nodes of the searching side's colour switch on an unused open
    /// side of the port they were reached in, nodes of the other colour switch off a used one,
    /// so every port on the path keeps its count; a path ends at a short port of the other
    /// colour.
    ///
    /// Bounded, then exact: a search forward from `start` and one backward from every short
    /// port of the other colour (the same search with the colours' roles swapped) take turns,
    /// each resuming where it stopped, under caps that grow fourfold each round, the backward
    /// one a quarter of the forward one (as large as it in the search's repairs, see
    /// [`REPAIR_FIRST_CAP`]), until one finds a path or runs out of nodes. A
    /// failure is only ever an exhausted search, whose reach proves no witness exists (see
    /// [`DegreeFlow::failure_cells`]); so a pocket that a decision left unbalanced is refuted
    /// at the cost of a few times the pocket, not of the region around it (dominoes
    /// 4096x4096: a failed repair used to visit ~15M nodes), while a failure whose two
    /// searches reach as far as each other costs at most a third more than the forward
    /// search alone (restarting both searches each round cost 2.5 times the CPU on a straight
    /// 512x512 level whose failed repairs reach past the first cap).
    /// `None` when `halted` said stop (read every [`HALT_CHECK_INTERVAL`] nodes of `work`).
    fn augment(
        &mut self,
        board: &Board,
        state: &State,
        start: usize,
        sp: usize,
        work: &mut usize,
        halted: &impl Fn() -> bool,
    ) -> Option<bool> {
        let start_node = node(start, sp) as u32;
        let start_parity = parity(board, start);
        // A repair during the search has a few short ports: let the backward search start
        // early, as a failed repair's proof is often a small pocket on the far side.
        let repair = self.short.len() <= FEW_SHORT;
        let mut cap = if repair {
            self.first_cap.min(REPAIR_FIRST_CAP)
        } else {
            self.first_cap
        };
        self.sources.clear();
        self.sources.push(start_node);
        self.forward.begin(&self.sources);
        let mut backward_started = false;
        loop {
            match self.search(0, board, state, start_parity, cap, work, halted)? {
                Reach::Path => return Some(true),
                Reach::Exhausted => {
                    self.failed_lane = 0;
                    return Some(false);
                }
                Reach::Capped => {}
            }
            let back_cap = if repair { cap } else { (cap / 4).max(1) };
            if !backward_started {
                let fits = self.other_short(board, start_parity, back_cap);
                if self.sources.is_empty() {
                    // Nothing to reach: only the exhausted forward search proves it.
                    cap = usize::MAX;
                    continue;
                }
                if fits {
                    self.backward.ensure(self.forward.mark.len());
                    self.backward.begin(&self.sources);
                    backward_started = true;
                }
            }
            if backward_started {
                match self.search(1, board, state, !start_parity, back_cap, work, halted)? {
                    Reach::Path => return Some(true),
                    Reach::Exhausted => {
                        self.failed_lane = 1;
                        return Some(false);
                    }
                    Reach::Capped => {}
                }
            }
            cap = cap.saturating_mul(4);
        }
    }

    /// Puts the ports still short of the colour opposite to `side` into `self.sources`,
    /// dropping ports no longer short from `self.short` on the way. Stops (false) once there
    /// are more than `cap`, so a repair during set-up, with thousands of short ports, does
    /// not scan them all for every search.
    fn other_short(&mut self, board: &Board, side: bool, cap: usize) -> bool {
        self.sources.clear();
        let (mut read, mut kept) = (0, 0);
        let len = self.short.len();
        while read < len && self.sources.len() <= cap {
            let n = self.short[read];
            read += 1;
            let (c, p) = (n as usize / 2, n as usize % 2);
            if self.excess(board, c, p) < 0 {
                self.short[kept] = n;
                kept += 1;
                if parity(board, c) != side {
                    self.sources.push(n);
                }
            }
        }
        self.short.copy_within(read..len, kept);
        self.short.truncate(kept + len - read);
        self.sources.len() <= cap
    }

    /// Resumes the breadth-first search of lane `lane` (0 forward, 1 backward; its sources
    /// all short ports of colour `side`, set by [`Lane::begin`]) for an augmenting path to a
    /// short port of the other colour, until it has visited more than `cap` nodes. On `Path`
    /// the path is flipped; on `Exhausted` the lane's `bfs` holds every node reached. No
    /// edge flips while a search is capped, so a later call picks up where this one stopped.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        lane: usize,
        board: &Board,
        state: &State,
        side: bool,
        cap: usize,
        work: &mut usize,
        halted: &impl Fn() -> bool,
    ) -> Option<Reach> {
        let used = &self.used;
        let l = match lane {
            0 => &mut self.forward,
            _ => &mut self.backward,
        };
        let epoch = l.epoch << VIA_BITS;
        while l.head < l.bfs.len() {
            if l.bfs.len() > cap {
                return Some(Reach::Capped);
            }
            let entry = l.bfs[l.head];
            let un = (entry & !INWARD) as usize;
            l.head += 1;
            *work += 1;
            if *work >= HALT_CHECK_INTERVAL {
                *work = 0;
                if halted() {
                    return None;
                }
            }
            let (u, pu) = (un / 2, un % 2);
            // Sources are outward and each step changes colour: the queue carries it, so no
            // cell's colour is computed (a division) on this hot path.
            let outward = entry & INWARD == 0;
            debug_assert_eq!(outward, parity(board, u) == side);
            let open = open_sides(board, state, u) & port_mask(board.kind[u], pu);
            let usable = if outward {
                open & !used[u]
            } else {
                open & used[u]
            };
            for s in 0..4 {
                if usable & (1 << s) == 0 {
                    continue;
                }
                let v = board.neighbour(u, s);
                let vn = node(v, port_of(board.kind[v], opposite(s)));
                if l.mark[vn] & !VIA_MASK == epoch {
                    continue;
                }
                l.mark[vn] = epoch | opposite(s) as u32;
                if outward && excess_of(used, board, v, vn % 2) < 0 {
                    self.flip_path(lane, board, vn);
                    return Some(Reach::Path);
                }
                l.bfs.push(vn as u32 | if outward { INWARD } else { 0 });
            }
        }
        Some(Reach::Exhausted)
    }

    fn flip_path(&mut self, lane: usize, board: &Board, end_node: usize) {
        let mut vn = end_node;
        loop {
            let l = match lane {
                0 => &self.forward,
                _ => &self.backward,
            };
            let via = l.mark[vn] & VIA_MASK;
            if via == SOURCE {
                break;
            }
            let v = vn / 2;
            let s = via as usize;
            self.flip(board, v, s);
            let u = board.neighbour(v, s);
            vn = node(u, port_of(board.kind[u], opposite(s)));
        }
    }
}

/// One breadth-first search's bookkeeping per node (cell and port): visit stamp and the side
/// through which it was reached, in one word (one cache miss per node visited, not two: on a
/// giant region the searches are bound by memory), the queue and how far it has been read.
/// Queue entries carry [`INWARD`] for nodes of the colour that switches connections off.
struct Lane {
    /// `epoch << VIA_BITS | via` of the search that last reached the node.
    mark: Vec<u32>,
    epoch: u32,
    bfs: Vec<u32>,
    head: usize,
}

impl Lane {
    fn new(nodes: usize) -> Lane {
        Lane {
            mark: vec![0; nodes],
            epoch: 0,
            bfs: Vec::new(),
            head: 0,
        }
    }

    fn ensure(&mut self, nodes: usize) {
        if self.mark.len() < nodes {
            *self = Lane::new(nodes);
        }
    }

    /// Starts a new search from `sources`.
    fn begin(&mut self, sources: &[u32]) {
        self.epoch += 1;
        if self.epoch == 1 << (32 - VIA_BITS) {
            self.mark.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        let epoch = self.epoch << VIA_BITS;
        self.bfs.clear();
        self.head = 0;
        for &n in sources {
            let n = n as usize;
            if self.mark[n] & !VIA_MASK != epoch {
                self.mark[n] = epoch | SOURCE;
                self.bfs.push(n as u32);
            }
        }
    }
}

/// `excess` over a borrowed `used` array (the searches hold a lane mutably meanwhile).
#[inline]
fn excess_of(used: &[u8], board: &Board, c: usize, p: usize) -> i32 {
    let (mask, degree) = PORTS[board.kind[c] as usize][p];
    (used[c] & mask).count_ones() as i32 - i32::from(degree)
}

/// Nodes the forward search of a repair visits before the backward search first gets a
/// turn (with a quarter as many), while many ports are short (the set-up, a restart's root
/// probe): there most repairs need ~100 nodes, and the backward searches from thousands of
/// short ports cost more than they find (dominoes 4096x4096, `-m csp -t 1`, one run each:
/// 6.6 s with 2^18 everywhere, 7.0 s with 2^14, 9.0 s with 2^10).
const FIRST_CAP: usize = 1 << 18;

/// [`FIRST_CAP`] for a repair with at most [`FEW_SHORT`] short ports: the search's repair
/// after a decision. A decision that leaves no witness is refuted by whichever search runs
/// out of nodes first, and on path tilings and straight segments that is often the backward
/// one, in a small pocket, while the forward one reaches across most of the region: at
/// 2^18 the failed repairs of a 512x512 path tiling (bent 0.75, seed 1, `-m csp -t 1`)
/// visited 25k nodes each and took most of its 5.8 s; at 2^10 they visit 1.8k and the
/// solve takes 1.0 s. Straight 512x512 seeds 1-8 took 185-680 ms against 205-955 ms. There
/// the backward search also gets as many nodes as the forward one, as neither is more
/// likely to be the short one: path tilings at bent 0.9 and 1.0, 256x256, seeds 1-3, `-t 2`,
/// 0.30-2.23 s -> 0.18-1.63 s, 11 of 12 path tilings faster, straight levels within noise.
const REPAIR_FIRST_CAP: usize = 1 << 10;

/// Short ports up to which a repair counts as the search's (see [`REPAIR_FIRST_CAP`]).
const FEW_SHORT: usize = 64;

/// Paths a port's repair may find for other ports before the port goes to the end of the
/// list. Waiting after the first one made dominoes 4096x4096 slower (2,507 ports waited in its
/// set-up, which then took 3 s more of CPU); a port no path can fill finds hundreds.
const DEFER_AFTER: usize = 4;

/// `via` of a search's source nodes (the others hold a side, 0..4).
const SOURCE: u32 = 4;

/// Low bits of a lane's `mark` holding `via`; the visit stamp is above them.
const VIA_BITS: u32 = 3;
const VIA_MASK: u32 = (1 << VIA_BITS) - 1;

/// Queue-entry flag of nodes that switch a used side off (node numbers stay below 2^31: a
/// board has fewer than 2^30 cells).
const INWARD: u32 = 1 << 31;

/// How a bounded augmenting-path search ended.
enum Reach {
    /// A path was found and flipped.
    Path,
    /// Every node reachable was visited: there is no path.
    Exhausted,
    /// The cap was reached first.
    Capped,
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, generate};
    use crate::model::{Game, Piece};
    use crate::solve::start::Start;

    /// Small dominoes levels, some with pieces changed (I <-> L, or a Q turned into an L or
    /// an I), so that repairs fail as well as succeed.
    pub(crate) fn dominoes_levels(count: u64) -> Vec<Game> {
        let mut rng = fastrand::Rng::with_seed(5);
        (0..count)
            .map(|seed| {
                let n = 6 + seed as usize % 15;
                let mut o = GenerateOptions::new(n, n + seed as usize % 3, seed);
                o.family = Family::Dominoes;
                let level = generate(&o);
                let mut cells = level.cells().to_vec();
                for _ in 0..seed % 3 {
                    let k = rng.usize(..cells.len());
                    let other = match cells[k].kind() {
                        PieceKind::I => PieceKind::L,
                        PieceKind::L => PieceKind::I,
                        PieceKind::Q if rng.bool() => PieceKind::L,
                        PieceKind::Q => PieceKind::I,
                        kind => kind,
                    };
                    cells[k] = Piece::new(other, 0);
                }
                Game::from_cells(level.height(), level.width(), cells)
            })
            .collect()
    }

    /// [`dominoes_levels`] after the first pass: each consistent level with its board, its
    /// domains and its regions.
    pub(crate) fn started_dominoes(
        count: u64,
    ) -> impl Iterator<Item = (Game, Board, State, Vec<Vec<u32>>)> {
        dominoes_levels(count).into_iter().filter_map(|game| {
            let start = Start::new(&game);
            if !start.consistent {
                return None;
            }
            let regions = start.regions_until(&|| false).expect("never halted");
            let regions = (0..regions.len())
                .map(|i| regions.get(i).to_vec())
                .collect();
            Some((game, start.board, start.state, regions))
        })
    }

    /// Every port of `region` has its degree, over sides its domain allows.
    fn balanced(flow: &DegreeFlow, board: &Board, state: &State, region: &[u32]) -> bool {
        region.iter().all(|&c| {
            let c = c as usize;
            let (may, must) = sides(board.kind[c], state.dom[c]);
            flow.used[c] & !may == 0
                && must & !flow.used[c] == 0
                && (0..2).all(|p| flow.excess(board, c, p) == 0)
        })
    }

    #[test]
    fn bounded_then_exact_repair_agrees_with_the_plain_search() {
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut repaired, mut refuted) = (0, 0);
        for (game, board, mut state, regions) in started_dominoes(150) {
            for region in regions {
                // The plain search never stops early; a cap of one node makes every repair
                // but the shortest go through the rounds and the backward searches.
                let mut plain = DegreeFlow::new(&board);
                plain.first_cap = usize::MAX;
                let mut rounds = DegreeFlow::new(&board);
                rounds.first_cap = 1;
                let ok = plain.init(&board, &state, &region);
                assert_eq!(rounds.init(&board, &state, &region), ok, "{game:?}");
                if !ok {
                    refuted += 1;
                    continue;
                }
                assert!(balanced(&rounds, &board, &state, &region));
                let base = state.mark();
                for _ in 0..region.len() {
                    let open: Vec<usize> = region
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| !state.is_fixed(c))
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    let c = open[rng.usize(..open.len())];
                    let choices: Vec<u8> =
                        (0..4).filter(|o| state.dom[c] & (1 << o) != 0).collect();
                    let o = choices[rng.usize(..choices.len())];
                    let (mark, pm, rm) = (state.mark(), plain.mark(), rounds.mark());
                    if !state.decide(&board, c, o) {
                        state.undo_to(mark);
                        continue;
                    }
                    let ok = plain.sync(&board, &state, state.changed_since(mark));
                    let got = rounds.sync(&board, &state, state.changed_since(mark));
                    assert_eq!(got, ok, "{game:?}");
                    if ok {
                        repaired += 1;
                        assert!(balanced(&rounds, &board, &state, &region), "{game:?}");
                    } else {
                        refuted += 1;
                        state.undo_to(mark);
                        plain.undo_to(&board, pm);
                        rounds.undo_to(&board, rm);
                    }
                }
                state.undo_to(base);
            }
        }
        assert!(repaired > 2000 && refuted > 200, "{repaired} {refuted}");
    }

    #[test]
    fn ports_that_wait_their_turn_give_the_plain_search_verdicts() {
        use crate::generate::straight::move_straights;
        // Straight levels, some with I pieces moved (often unsolvable): with a cap of one
        // node nearly every repair goes through the backward search, which often fills
        // another port; a port then waits at the end of the list after the first such path.
        let (mut waited, mut refuted, mut built) = (0, 0, 0);
        for seed in 0..120u64 {
            let n = 16 + seed as usize % 49;
            let mut o = GenerateOptions::new(n, n + seed as usize % 5, seed);
            o.family = Family::Straight;
            let mut game = generate(&o);
            if seed % 2 == 1 {
                game = move_straights(&game, 1 + seed as usize % 3, seed);
            }
            let start = Start::new(&game);
            if !start.consistent {
                continue;
            }
            let regions = start.regions_until(&|| false).expect("never halted");
            for r in 0..regions.len() {
                let region = regions.get(r);
                let mut plain = DegreeFlow::new(&start.board);
                plain.first_cap = usize::MAX;
                let mut rounds = DegreeFlow::new(&start.board);
                rounds.first_cap = 1;
                rounds.defer_after = 1;
                let ok = plain.init(&start.board, &start.state, region);
                assert_eq!(
                    rounds.init(&start.board, &start.state, region),
                    ok,
                    "{game:?}"
                );
                if ok {
                    built += 1;
                    assert!(balanced(&rounds, &start.board, &start.state, region));
                } else {
                    refuted += 1;
                }
                waited += rounds.waited;
            }
        }
        assert!(
            waited > 10 && refuted > 5 && built > 20,
            "{waited} {refuted} {built}"
        );
    }
}

//! [`Counter`]: counts the solutions of a set of cells of a propagated [`State`], the way #SAT
//! model counters do: branch on a cell (fewest orientations first), propagate, and whenever the
//! decision leaves the remaining undecided cells in several independent components (no
//! undecided side joins them), count each component on its own and multiply. Components of
//! independent areas multiply instead of nesting, which turns a product of many small
//! ambiguities from exponential work into a sum.
//!
//! The recursion "count(component) = Σ over orientations of Π count(sub-component)" runs on an
//! explicit stack of frames, so depth is bounded by memory, not by the thread's stack. Cell
//! lists of components live in one arena that grows and shrinks with the stack. Backtracking is
//! the state's trail, never a copy of the grid.
//!
//! Branches that cannot be completed are cut early by the solver's degree-constrained flow
//! witness ([`DegreeFlow`]): when no assignment gives every cell its number of connections,
//! the branch has no solution. Local propagation cannot see that a pocket of one-end pieces
//! has no perfect pairing; without this cut the domino-like levels make counting thrash.
//!
//! With a limit K every count is capped at K: a sum stops as soon as it reaches K, and
//! `min(Π xᵢ, K) = min(Π min(xᵢ, K), K)` when no factor is zero, so capping each factor is exact.
//!
//! An exact count caches the count of every component of at least [`CACHE_MIN_CELLS`] cells,
//! keyed by its undecided cells and their domains (component caching, as #SAT counters do):
//! a component is independent of everything else, so its count depends on nothing more, and a
//! part that a decision elsewhere did not touch is counted once instead of once per
//! orientation tried there. Keys are the full (cell, domain) lists, not hashes of them, so a
//! collision cannot change a count.
//!
//! Under a limit a large component is searched *lazily*: splitting it again costs a pass over
//! all its cells, which after every decision made `--count-limit 2` on a 128x128 level some 30
//! solves long, while a few solutions are usually found along one path. So a large component
//! keeps its cell list (undecided cells that fell apart are still counted correctly together:
//! the count of a union of independent parts is the product of theirs), is branched on in the
//! list's order (breadth-first from its first cell: each decision borders decided cells, as in
//! the solver) and is split again only after a number of decisions proportional to its size,
//! which keeps the splitting cost per decision constant.

use super::number::Count;
use crate::solve::{Board, DegreeFlow, State, sides};

/// The counting was stopped by the caller's check (timeout or cancellation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Counters a count adds to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountCounters {
    /// Orientations tried.
    pub nodes: u64,
    /// Decisions after which the remaining cells fell apart into two or more components.
    pub splits: u64,
    /// Components whose count was found in the cache.
    pub cache_hits: u64,
}

/// How often (in nodes) the stop check is called.
const STOP_CHECK_INTERVAL: u64 = 256;

/// Exact counts cache components of at least this many cells (module doc).
pub const CACHE_MIN_CELLS: u32 = 8;

/// Cells held in the cache's keys (about 4 bytes each): the cache is emptied when a new entry
/// would pass this, which bounds its memory at some 100 MB.
const CACHE_MAX_CELLS: usize = 1 << 25;

/// Cache of component counts; fixed seeds keep runs repeatable.
type Cache = std::collections::HashMap<Box<[u32]>, Count, ahash::RandomState>;

/// Under a limit, components of at least this many cells are searched lazily (module doc).
pub const LAZY_MIN_CELLS: u32 = 1024;

/// A lazily searched component is split again after (its cells / this) decisions.
const LAZY_RESPLIT_DIVISOR: u32 = 16;

enum Frame {
    /// Counting one component by branching on `cell`.
    Branch {
        /// The component's cells: `cells[start..end]` of the arena.
        comp: (u32, u32),
        cell: u32,
        /// Lazy search: where `cell` is in the component's list, and how many more decisions
        /// may pass before the next split (`None`: split after every decision).
        lazy: Option<(u32, u32)>,
        /// Cache key of the component, when its count is to be cached.
        key: Option<Box<[u32]>>,
        /// Orientations of `cell` not tried yet.
        untried: u8,
        mark: usize,
        flow_mark: usize,
        sum: Count,
    },
    /// Multiplying the counts of the components `comps[next..end]` left by one decision.
    Product {
        next: u32,
        end: u32,
        prod: Count,
        /// Arena lengths to restore when the frame is done.
        cells_top: u32,
        comps_top: u32,
        /// A lazy product (one component, not split again): where to look for the next
        /// undecided cell in its list, and the decisions left before the next split.
        lazy: Option<(u32, u32)>,
    },
}

/// Reusable scratch memory for counting on one board.
pub struct Counter {
    /// Per padded cell: the split pass that last reached it.
    stamp: Vec<u32>,
    epoch: u32,
    /// Arena of component cell lists.
    cells: Vec<u32>,
    /// Arena of components, as ranges into `cells`.
    comps: Vec<(u32, u32)>,
    frames: Vec<Frame>,
    flow: Option<DegreeFlow>,
    /// Per padded cell, the connection mask to try first (empty: none); see [`Counter::guide`].
    guide: Vec<u8>,
    /// Components of at least this many cells are searched lazily under a limit.
    lazy_min: u32,
    /// Counts of components met in exact counts (see the module doc); `None`: no caching.
    cache: Option<Cache>,
    /// Cells in the cache's keys.
    cache_cells: usize,
    /// What this counter's searches have done so far.
    pub counters: CountCounters,
}

impl Counter {
    /// A counter that cuts branches with the flow witness.
    pub fn new(board: &Board) -> Counter {
        Counter::with_flow(board, true)
    }

    /// A counter with or without the flow cut (the answers are the same; only speed differs).
    pub fn with_flow(board: &Board, flow: bool) -> Counter {
        Counter {
            stamp: vec![0; board.len()],
            epoch: 0,
            cells: Vec::new(),
            comps: Vec::new(),
            frames: Vec::new(),
            flow: flow.then(|| DegreeFlow::new(board)),
            guide: Vec::new(),
            lazy_min: LAZY_MIN_CELLS,
            cache: Some(Cache::with_hasher(ahash::RandomState::with_seeds(
                1, 2, 3, 4,
            ))),
            cache_cells: 0,
            counters: CountCounters::default(),
        }
    }

    /// Tries the connection mask `masks[cell]` (per padded cell, e.g. a known solution) first
    /// at every branch. Counts are the same; under a limit the search then walks straight down
    /// to that solution and finds others by changing its last decisions first, so "are there
    /// K solutions?" costs about one solve on levels with many solutions instead of thrashing
    /// through the dead ends an uninformed order meets. An empty `masks` removes the guide.
    pub fn guide(&mut self, masks: Vec<u8>) {
        self.guide = masks;
    }

    /// Under a limit, searches components of at least `cells` cells lazily (module doc; the
    /// default is [`LAZY_MIN_CELLS`]). Counts are the same: tests lower it to cover the lazy
    /// search on small levels.
    #[cfg(test)]
    pub fn lazy_from(&mut self, cells: u32) {
        self.lazy_min = cells.max(1);
    }

    /// Turns the component cache of exact counts on (the default) or off. Counts are the
    /// same; tests and benchmarks compare the two.
    #[cfg(test)]
    pub fn caching(&mut self, on: bool) {
        self.cache = on.then(|| Cache::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4)));
        self.cache_cells = 0;
    }

    /// Number of assignments of the undecided cells among `region` that, together with the
    /// current domains of every other cell, satisfy every side. The undecided cells of
    /// `region` must share no undecided side with undecided cells outside it (a region of
    /// [`crate::solve::find_regions`] or a union of them), and the state must be
    /// propagated.
    ///
    /// `limit` caps the answer (the count stops as soon as it is known to reach it). With
    /// `keep_witness` and `limit == Some(1)`, a found solution is left in the state (undo to a
    /// mark taken before the call to remove it); otherwise the state is restored.
    pub fn count(
        &mut self,
        board: &Board,
        state: &mut State,
        region: &[u32],
        limit: Option<u64>,
        keep_witness: bool,
        stop: &impl Fn() -> bool,
    ) -> Result<Count, Stopped> {
        debug_assert!(!keep_witness || limit == Some(1));
        let base = state.mark();
        self.cells.clear();
        self.comps.clear();
        self.frames.clear();
        self.cells.extend_from_slice(region);
        if let Some(f) = self.flow.as_mut()
            && !f.init(board, state, region)
        {
            return Ok(Count::ZERO);
        }
        let flow_base = self.flow_mark();
        let root = (0, self.cells.len() as u32);
        self.push_product(board, state, root);
        let mut ret: Option<Count> = None;
        loop {
            let Some(top) = self.frames.last_mut() else {
                let total = ret.expect("the root frame returns a count");
                if !keep_witness || total.is_zero() {
                    state.undo_to(base);
                    self.flow_undo(board, flow_base);
                }
                return Ok(total);
            };
            match top {
                Frame::Product {
                    next,
                    end,
                    prod,
                    cells_top,
                    comps_top,
                    lazy,
                } => {
                    if let Some(v) = ret.take() {
                        prod.mul_assign(&v);
                        if let Some(k) = limit {
                            prod.cap(k);
                        }
                    }
                    if prod.is_zero() || *next == *end {
                        let (c, k) = (*cells_top as usize, *comps_top as usize);
                        ret = Some(std::mem::replace(prod, Count::ZERO));
                        self.frames.pop();
                        self.cells.truncate(c);
                        self.comps.truncate(k);
                        continue;
                    }
                    let comp = self.comps[*next as usize];
                    *next += 1;
                    let frame_lazy = *lazy;
                    let mut key = None;
                    // Cells are keyed in 24 bits (a board of up to 4096x4096).
                    if limit.is_none()
                        && comp.1 - comp.0 >= CACHE_MIN_CELLS
                        && board.len() < 1 << 24
                        && let Some(cache) = self.cache.as_ref()
                    {
                        let k = self.key_of(board, state, comp);
                        if let Some(c) = cache.get(&k) {
                            self.counters.cache_hits += 1;
                            ret = Some(c.clone());
                            continue;
                        }
                        key = Some(k);
                    }
                    let is_lazy = limit.is_some() && comp.1 - comp.0 >= self.lazy_min;
                    let (cell, lazy) = match (frame_lazy, is_lazy) {
                        (Some((from, budget)), _) => {
                            let Some(at) = self.next_undecided(state, from, comp.1) else {
                                // Nothing left undecided: a factor of one.
                                ret = Some(Count::ONE);
                                continue;
                            };
                            (self.cells[at as usize], Some((at, budget)))
                        }
                        (None, true) => {
                            // Freshly split: the list starts with an undecided cell.
                            let budget = (comp.1 - comp.0) / LAZY_RESPLIT_DIVISOR;
                            (self.cells[comp.0 as usize], Some((comp.0, budget)))
                        }
                        (None, false) => (self.pick(board, state, comp), None),
                    };
                    self.frames.push(Frame::Branch {
                        comp,
                        cell,
                        lazy,
                        key,
                        untried: state.domain(cell as usize),
                        mark: state.mark(),
                        flow_mark: self.flow_mark(),
                        sum: Count::ZERO,
                    });
                }
                Frame::Branch {
                    comp,
                    cell,
                    lazy,
                    key,
                    untried,
                    mark,
                    flow_mark,
                    sum,
                } => {
                    if let Some(v) = ret.take() {
                        sum.add_assign(&v);
                        if let Some(k) = limit
                            && sum.cap(k)
                        {
                            let (mark, flow_mark) = (*mark, *flow_mark);
                            ret = Some(std::mem::replace(sum, Count::ZERO));
                            self.frames.pop();
                            if !keep_witness {
                                state.undo_to(mark);
                                self.flow_undo(board, flow_mark);
                            }
                            continue;
                        }
                    }
                    state.undo_to(*mark);
                    let (mark, flow_mark) = (*mark, *flow_mark);
                    if *untried == 0 {
                        let total = std::mem::replace(sum, Count::ZERO);
                        if let (Some(k), Some(cache)) = (key.take(), self.cache.as_mut()) {
                            if self.cache_cells + k.len() > CACHE_MAX_CELLS {
                                cache.clear();
                                self.cache_cells = 0;
                            }
                            self.cache_cells += k.len();
                            cache.insert(k, total.clone());
                        }
                        ret = Some(total);
                        self.frames.pop();
                        self.flow_undo(board, flow_mark);
                        continue;
                    }
                    let (cell, comp, lazy) = (*cell as usize, *comp, *lazy);
                    let mut o = untried.trailing_zeros() as u8;
                    if let Some(&want) = self.guide.get(cell) {
                        let kind = board.kind[cell];
                        let mut rest = *untried;
                        while rest != 0 {
                            let b = rest.trailing_zeros() as u8;
                            rest &= rest - 1;
                            if sides(kind, 1 << b).1 == want {
                                o = b;
                                break;
                            }
                        }
                    }
                    *untried &= !(1 << o);
                    self.flow_undo(board, flow_mark);
                    self.counters.nodes += 1;
                    if self.counters.nodes.is_multiple_of(STOP_CHECK_INTERVAL) && stop() {
                        state.undo_to(base);
                        self.flow_undo(board, flow_base);
                        self.frames.clear();
                        return Err(Stopped);
                    }
                    if !state.decide(board, cell, o) {
                        continue;
                    }
                    let witness = match self.flow.as_mut() {
                        Some(f) => f.sync(board, state, state.changed_since(mark)),
                        None => true,
                    };
                    if witness {
                        match lazy {
                            Some((at, budget)) if budget > 0 => {
                                self.push_lazy(comp, at, budget - 1);
                            }
                            _ => self.push_product(board, state, comp),
                        }
                    }
                }
            }
        }
    }

    /// Pushes a product of the one component `comp` as it is (no split), to be branched on
    /// from position `from` of its list.
    fn push_lazy(&mut self, comp: (u32, u32), from: u32, budget: u32) {
        let cells_top = self.cells.len() as u32;
        let comps_top = self.comps.len() as u32;
        self.comps.push(comp);
        self.frames.push(Frame::Product {
            next: comps_top,
            end: comps_top + 1,
            prod: Count::ONE,
            cells_top,
            comps_top,
            lazy: Some((from, budget)),
        });
    }

    /// The cache key of a component: its cells, each with its piece kind and domain in the
    /// low 8 bits (the kind too: a caller may change the board's pieces between counts),
    /// sorted (the list's order depends on where the split started).
    fn key_of(&self, board: &Board, state: &State, comp: (u32, u32)) -> Box<[u32]> {
        let mut k: Vec<u32> = self.cells[comp.0 as usize..comp.1 as usize]
            .iter()
            .map(|&c| {
                let c = c as usize;
                (c as u32) << 8 | u32::from(board.kind[c]) << 4 | u32::from(state.domain(c))
            })
            .collect();
        k.sort_unstable();
        k.into_boxed_slice()
    }

    /// Position of the first undecided cell of `cells[from..end]`.
    fn next_undecided(&self, state: &State, from: u32, end: u32) -> Option<u32> {
        (from..end).find(|&i| !state.is_fixed(self.cells[i as usize] as usize))
    }

    /// Splits the undecided cells of `parent` into components joined by undecided sides and
    /// pushes the frame that multiplies their counts (none left: a count of one).
    fn push_product(&mut self, board: &Board, state: &State, parent: (u32, u32)) {
        let cells_top = self.cells.len() as u32;
        let comps_top = self.comps.len() as u32;
        self.next_epoch();
        let epoch = self.epoch;
        for i in parent.0..parent.1 {
            let start = self.cells[i as usize] as usize;
            if self.stamp[start] == epoch || state.is_fixed(start) {
                continue;
            }
            self.stamp[start] = epoch;
            let first = self.cells.len();
            self.cells.push(start as u32);
            let mut head = first;
            while head < self.cells.len() {
                let c = self.cells[head] as usize;
                head += 1;
                // Undecided sides join undecided cells only (propagation is at a fixed point).
                let (may, must) = sides(board.kind[c], state.domain(c));
                let open = may & !must;
                for side in 0..4 {
                    if open & (1 << side) != 0 {
                        let nb = board.neighbour(c, side);
                        if self.stamp[nb] != epoch {
                            self.stamp[nb] = epoch;
                            self.cells.push(nb as u32);
                        }
                    }
                }
            }
            self.comps.push((first as u32, self.cells.len() as u32));
        }
        let found = &mut self.comps[comps_top as usize..];
        if found.len() > 1 {
            self.counters.splits += 1;
            // Small components first: a component without a solution ends the product sooner.
            found.sort_unstable_by_key(|&(s, e)| e - s);
        }
        self.frames.push(Frame::Product {
            next: comps_top,
            end: self.comps.len() as u32,
            prod: Count::ONE,
            cells_top,
            comps_top,
            lazy: None,
        });
    }

    /// The cell of the component to branch on: fewest orientations, then fewest undecided
    /// sides (it is the most constrained).
    fn pick(&self, board: &Board, state: &State, comp: (u32, u32)) -> u32 {
        let mut best = self.cells[comp.0 as usize];
        let mut best_key = u32::MAX;
        for &c in &self.cells[comp.0 as usize..comp.1 as usize] {
            let (options, open) = crate::solve::mrv_measure(board, state, c as usize);
            let key = options * 8 + open;
            if key < best_key {
                best_key = key;
                best = c;
                if key <= 2 * 8 + 2 {
                    break;
                }
            }
        }
        best
    }

    fn flow_mark(&self) -> usize {
        self.flow.as_ref().map_or(0, |f| f.mark())
    }

    fn flow_undo(&mut self, board: &Board, mark: usize) {
        if let Some(f) = self.flow.as_mut() {
            f.undo_to(board, mark);
        }
    }

    fn next_epoch(&mut self) {
        if self.epoch == u32::MAX {
            self.stamp.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
    }
}

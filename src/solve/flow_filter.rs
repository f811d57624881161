//! Side pruning from the degree relaxation (the flow analogue of Régin's all-different filter).
//!
//! Given one witness (every undecided cell has exactly its degree of connections), any other
//! degree-feasible assignment differs from it by alternating cycles: at every cell as many
//! sides are switched on as off. Orient each undecided side from its black cell to its white
//! cell when the witness uses it, the other way when it does not; an alternating cycle is then
//! a directed cycle. A side whose two cells lie in different strongly connected components is
//! on no cycle, so *every* solution gives it the witness's value: it is decided. Those sides
//! feed the ordinary propagation, which may decide more (I and L shapes), and the relaxation
//! is run again until nothing changes. Those later passes redo only the components whose
//! cells changed: no undecided side joins two components any more, so the others keep theirs.
//!
//! On the domino-like `dist1` family local propagation decides almost nothing, while this
//! pass decides most of the grid and cuts the rest into small independent pockets.
//! A region of more than [`FILTER_MAX_CELLS`] cells is not filtered: there the pass costs
//! seconds and saves the search almost nothing (figures at the constant).

use super::board::Board;
use super::flow::{DegreeFlow, HALT_CHECK_INTERVAL, parity, port_mask, port_of};
use super::state::State;
use super::tables::sides;
use crate::model::direction::opposite;

/// Scratch arrays for Tarjan's algorithm, one slot per flow node (cell and port, `2c + p`),
/// reused between passes.
pub struct FlowFilter {
    /// DFS discovery number (0 = not visited in this pass).
    index: Vec<u32>,
    low: Vec<u32>,
    /// Component id once assigned, `u32::MAX` while the cell is still on the Tarjan stack.
    comp: Vec<u32>,
    tarjan: Vec<u32>,
    /// Explicit DFS stack: (cell, next side to look at).
    calls: Vec<(u32, u8)>,
    /// Nodes opened by a pass over some components only (`recording`): the next sides to
    /// decide are theirs.
    visited: Vec<u32>,
    recording: bool,
    /// The last discovery number and the next component id of the current run.
    counter: u32,
    next_comp: u32,
    /// Components of this run with more than [`LARGE_COMPONENT`] nodes.
    large: Vec<u32>,
    /// One bit per component id: the components a pass redoes.
    bits: Vec<u64>,
    /// Passes after the first redo only the components that changed (off in tests: every
    /// pass is then a full one, the judge of the incremental ones).
    incremental: bool,
    /// Regions larger than this are skipped: [`FILTER_MAX_CELLS`] (tests lower it).
    max_cells: usize,
}

#[cfg(test)]
thread_local! {
    /// The tests' stand-in for [`FILTER_MAX_CELLS`], so that searches on small levels take the
    /// path of a giant region.
    pub(crate) static TEST_MAX_CELLS: std::cell::Cell<usize> =
        const { std::cell::Cell::new(FILTER_MAX_CELLS) };
}

/// A component with more nodes than this is not searched again when its cells change: a
/// pass over it costs seconds on a giant region (dominoes 4096x4096: ~2 s per pass, for a
/// dozen sides decided in the second pass and none in the third), and what it would decide
/// the search decides anyway. Smaller components are redone until nothing changes.
const LARGE_COMPONENT: usize = 1 << 20;

/// A region with more cells than this is left to the search unfiltered. The first pass is a
/// Tarjan over every port of the region, bound by memory latency: on dominoes 4096x4096
/// (16.8M cells) it took ~3 s, a third of the whole solve, to fix 6,727 cells, and the search
/// took 212,043 nodes with it against 213,158 without (2048x2048: 53,278 against 53,438;
/// 1024x1024: 13,148 against 13,179), so on a region this large it does not pay for itself.
/// Regions up to this size (straight 1024x1024, every public level) keep it.
pub const FILTER_MAX_CELLS: usize = 1 << 22;

/// What a pass found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterEnd {
    /// Nothing was done: the region has more than [`FILTER_MAX_CELLS`] cells.
    Skipped,
    /// Fixed point: every undecided side lies on an alternating cycle (sides inside a
    /// component past [`LARGE_COMPONENT`] nodes may be left to the search).
    Stable,
    /// No assignment of the cells satisfies the rules.
    Infeasible,
}

impl FlowFilter {
    /// Scratch sized for `board`, reused for every filter run.
    pub fn new(board: &Board) -> FlowFilter {
        FlowFilter {
            index: vec![0; 2 * board.len()],
            low: vec![0; 2 * board.len()],
            comp: vec![0; 2 * board.len()],
            tarjan: Vec::new(),
            calls: Vec::new(),
            visited: Vec::new(),
            recording: false,
            counter: 0,
            next_comp: 0,
            large: Vec::new(),
            bits: Vec::new(),
            incremental: true,
            #[cfg(not(test))]
            max_cells: FILTER_MAX_CELLS,
            #[cfg(test)]
            max_cells: TEST_MAX_CELLS.get(),
        }
    }

    /// Prunes `cells` (undecided cells, closed under undecided sides) to the fixed point of
    /// relaxation + propagation (but see [`LARGE_COMPONENT`]). `flow` must hold a witness for them; it is kept in sync. The
    /// state's changes are trailed as usual, so the caller can undo them.
    pub fn run(
        &mut self,
        board: &Board,
        state: &mut State,
        flow: &mut DegreeFlow,
        cells: &[u32],
    ) -> FilterEnd {
        self.run_until(board, state, flow, cells, &|| false)
            .expect("never halted")
    }

    /// [`FlowFilter::run`] that gives up (`None`) once `halted` says so; each pass over a
    /// region of millions of cells takes a while, so the flag is read inside the passes too.
    /// The state and witness are then left part-way: the caller undoes both to its marks.
    pub fn run_until(
        &mut self,
        board: &Board,
        state: &mut State,
        flow: &mut DegreeFlow,
        cells: &[u32],
        halted: &impl Fn() -> bool,
    ) -> Option<FilterEnd> {
        if cells.len() > self.max_cells {
            return Some(FilterEnd::Skipped);
        }
        // Components whose cells changed since the last pass (`None`: all of them).
        let mut dirty: Option<Vec<u32>> = None;
        loop {
            if !self.components(board, state, flow, cells, dirty.as_deref(), halted) {
                state.discard_queue();
                return None;
            }
            let (mark, flow_mark) = (state.mark(), flow.mark());
            // After a full pass every undecided side of the cells is looked at; after a pass
            // over some components, those of the nodes it opened.
            let forced = match dirty {
                None => cells.iter().try_fold(false, |f, &c| {
                    Some(self.force(board, state, flow, c, 0xF)? | f)
                }),
                Some(_) => {
                    let visited = std::mem::take(&mut self.visited);
                    let forced = visited.iter().try_fold(false, |f, &n| {
                        let (c, p) = (n / 2, n as usize % 2);
                        let mask = port_mask(board.kind[c as usize], p);
                        Some(self.force(board, state, flow, c, mask)? | f)
                    });
                    self.visited = visited;
                    forced
                }
            };
            let Some(forced) = forced else {
                state.discard_queue();
                return Some(FilterEnd::Infeasible);
            };
            if !forced {
                return Some(FilterEnd::Stable);
            }
            if halted() {
                state.discard_queue();
                return None;
            }
            if !state.propagate(board) {
                return Some(FilterEnd::Infeasible);
            }
            match flow.sync_until(board, state, state.changed_since(mark), halted) {
                Some(true) => {}
                Some(false) => return Some(FilterEnd::Infeasible),
                None => return None,
            }
            // Every undecided side now joins two nodes of one component (the others were
            // just decided), so a component none of whose cells changed keeps its cycles:
            // the next pass redoes only the components that changed.
            let mut ids = dirty.take().unwrap_or_default();
            ids.clear();
            for c in state
                .changed_since(mark)
                .chain(flow.flipped_since(board, flow_mark))
            {
                ids.extend([self.comp[2 * c], self.comp[2 * c + 1]]);
            }
            ids.retain(|id| !self.large.contains(id));
            dirty = (self.incremental && ids.len() < cells.len() / 4).then_some(ids);
        }
    }

    /// Decides the undecided sides of `c` among `sides_mask` that join two components to the
    /// witness's value. `Some(true)` when it narrowed `c`, `None` when nothing is left.
    fn force(
        &self,
        board: &Board,
        state: &mut State,
        flow: &DegreeFlow,
        c: u32,
        sides_mask: u8,
    ) -> Option<bool> {
        let c = c as usize;
        if state.is_fixed(c) {
            return Some(false);
        }
        let (may, must) = sides(board.kind[c], state.dom[c]);
        let open = may & !must & sides_mask;
        let mut on = 0u8;
        let mut off = 0u8;
        for s in 0..4 {
            if open & (1 << s) == 0 {
                continue;
            }
            let nb = board.neighbour(c, s);
            let here = 2 * c + port_of(board.kind[c], s);
            let there = 2 * nb + port_of(board.kind[nb], opposite(s));
            if self.comp[here] != self.comp[there] {
                if flow.used(c) & (1 << s) != 0 {
                    on |= 1 << s;
                } else {
                    off |= 1 << s;
                }
            }
        }
        if on | off == 0 {
            return Some(false);
        }
        let keep = keep_with(board.kind[c], state.dom[c], on, off);
        if keep == 0 {
            return None;
        }
        state.narrow(board, c, keep);
        Some(true)
    }

    /// Tarjan's strongly connected components over the alternating orientation of the
    /// undecided sides among `cells`, iteratively (regions can have millions of cells).
    /// False when `halted` said stop before the components were complete.
    fn components(
        &mut self,
        board: &Board,
        state: &State,
        flow: &DegreeFlow,
        cells: &[u32],
        dirty: Option<&[u32]>,
        halted: &impl Fn() -> bool,
    ) -> bool {
        // Nodes of components left alone keep their discovery numbers, so no search enters
        // them (no undecided side leads into them either).
        // The changed components as a bitmap over this run's ids (stale ids of cells fixed
        // before the run may lie past them: those cells are never roots).
        self.bits.clear();
        if let Some(d) = dirty {
            self.bits.resize(self.next_comp as usize / 64 + 1, 0);
            for &id in d.iter().filter(|&&id| id < self.next_comp) {
                self.bits[id as usize / 64] |= 1 << (id % 64);
            }
        }
        let limit = self.next_comp as usize;
        for &c in cells {
            for n in [2 * c as usize, 2 * c as usize + 1] {
                let id = self.comp[n] as usize;
                if dirty.is_none() || (id < limit && self.bits[id / 64] >> (id % 64) & 1 != 0) {
                    self.index[n] = 0;
                }
            }
        }
        self.visited.clear();
        self.recording = dirty.is_some();
        if dirty.is_none() {
            self.large.clear();
            self.next_comp = 0;
            self.counter = 0;
        }
        // Discovery numbers and component ids keep growing over the passes of one run, so
        // the kept components never share a number with new ones.
        let mut counter = self.counter;
        let mut next_comp = self.next_comp;
        let mut checked_at = 0u32;
        for &root in cells {
            if state.is_fixed(root as usize) {
                continue;
            }
            // Nodes opened since the flag was last read (a root's DFS may open millions).
            if counter.wrapping_sub(checked_at) as usize >= HALT_CHECK_INTERVAL {
                checked_at = counter;
                if halted() {
                    return false;
                }
            }
            // A kind with one port has no sides in port 1: that node is alone and never read.
            let ports = if port_mask(board.kind[root as usize], 1) == 0 {
                1
            } else {
                2
            };
            for root in (2 * root as usize..).take(ports) {
                if self.index[root] != 0 {
                    continue;
                }
                self.open_node(root, &mut counter);
                while let Some(&mut (un, ref mut next)) = self.calls.last_mut() {
                    if counter.wrapping_sub(checked_at) as usize >= HALT_CHECK_INTERVAL {
                        checked_at = counter;
                        if halted() {
                            self.calls.clear();
                            self.tarjan.clear();
                            return false;
                        }
                    }
                    let un = un as usize;
                    let out = out_sides(board, state, flow, un);
                    let mut descended = false;
                    while *next < 4 {
                        let s = *next as usize;
                        *next += 1;
                        if out & (1 << s) == 0 {
                            continue;
                        }
                        let v = board.neighbour(un / 2, s);
                        let vn = 2 * v + port_of(board.kind[v], opposite(s));
                        if self.index[vn] == 0 {
                            self.open_node(vn, &mut counter);
                            descended = true;
                            break;
                        }
                        if self.comp[vn] == u32::MAX {
                            self.low[un] = self.low[un].min(self.index[vn]);
                        }
                    }
                    if descended {
                        continue;
                    }
                    self.calls.pop();
                    if let Some(&(parent, _)) = self.calls.last() {
                        let p = parent as usize;
                        self.low[p] = self.low[p].min(self.low[un]);
                    }
                    if self.low[un] == self.index[un] {
                        let mut size = 0usize;
                        loop {
                            size += 1;
                            let w =
                                self.tarjan.pop().expect("tarjan stack holds the root") as usize;
                            self.comp[w] = next_comp;
                            if w == un {
                                break;
                            }
                        }
                        if size > LARGE_COMPONENT {
                            self.large.push(next_comp);
                        }
                        next_comp += 1;
                    }
                }
            }
        }
        self.counter = counter;
        self.next_comp = next_comp;
        true
    }

    #[inline]
    fn open_node(&mut self, n: usize, counter: &mut u32) {
        *counter += 1;
        self.index[n] = *counter;
        self.low[n] = *counter;
        self.comp[n] = u32::MAX;
        self.tarjan.push(n as u32);
        self.calls.push((n as u32, 0));
        if self.recording {
            self.visited.push(n as u32);
        }
    }
}

/// Undecided sides of node `n` (cell and port) along which the alternating orientation leaves
/// it: used sides from black cells, unused sides from white cells.
#[inline]
fn out_sides(board: &Board, state: &State, flow: &DegreeFlow, n: usize) -> u8 {
    let c = n / 2;
    let (may, must) = sides(board.kind[c], state.dom[c]);
    let open = may & !must & port_mask(board.kind[c], n % 2);
    if parity(board, c) {
        open & flow.used(c)
    } else {
        open & !flow.used(c)
    }
}

/// Orientations of `dom` connecting every side in `on` and none in `off`.
#[inline]
fn keep_with(kind: u8, dom: u8, on: u8, off: u8) -> u8 {
    super::tables::KEEP[kind as usize * 256 + (on | off << 4) as usize] & dom
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::flow::tests::started_dominoes;

    #[test]
    fn redoing_only_changed_components_reaches_the_full_fixed_point() {
        let (mut compared, mut repeated) = (0, 0);
        for (game, board, mut state, regions) in started_dominoes(150) {
            for region in &regions {
                let mut ends = Vec::new();
                let mut doms = Vec::new();
                for incremental in [false, true] {
                    let mut flow = DegreeFlow::new(&board);
                    if !flow.init(&board, &state, region) {
                        break;
                    }
                    let mut filter = FlowFilter::new(&board);
                    filter.incremental = incremental;
                    let mark = state.mark();
                    ends.push(filter.run(&board, &mut state, &mut flow, region));
                    doms.push(state.dom.clone());
                    // A restricted pass ran last: the changed components were redone.
                    repeated += usize::from(incremental && filter.recording);
                    state.undo_to(mark);
                }
                if ends.len() == 2 {
                    assert_eq!(ends[0], ends[1], "{game:?}");
                    if ends[0] == FilterEnd::Stable {
                        assert!(doms[0] == doms[1], "{game:?}");
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared >= 60 && repeated >= 10, "{compared} {repeated}");
    }

    /// A region searched without the filter (as a giant one is) gets the verdict of the
    /// filtered search and of the plain chronological search without a witness, and its
    /// answer is a solution.
    #[test]
    fn regions_left_unfiltered_get_the_same_verdicts_and_valid_answers() {
        use crate::solve::search::{SearchCounters, SearchEnd, search};
        use crate::solve::strategy::Order;
        let (mut solved, mut exhausted, mut judged) = (0, 0, 0);
        for (game, board, mut st, regions) in started_dominoes(120) {
            let before = st.dom.clone();
            for region in &regions {
                let mut region = region.clone();
                Order::Mrv.arrange(&board, &mut region);
                let mut ends = Vec::new();
                // The plain search is only a judge where it stays small.
                let plain = (region.len() <= 64).then_some((false, 0));
                judged += usize::from(plain.is_some());
                let configs = [(true, FILTER_MAX_CELLS), (true, 0)];
                for (flow, limit) in plain.into_iter().chain(configs) {
                    TEST_MAX_CELLS.set(limit);
                    let mark = st.mark();
                    let mut f = flow.then(|| DegreeFlow::new(&board));
                    let end = search(
                        &board,
                        &mut st,
                        f.as_mut(),
                        &region,
                        Order::Mrv,
                        &|| false,
                        &mut SearchCounters::default(),
                    );
                    TEST_MAX_CELLS.set(FILTER_MAX_CELLS);
                    if end == SearchEnd::Solved {
                        for &c in &region {
                            let c = c as usize;
                            assert_eq!(st.dom[c].count_ones(), 1, "{game:?}");
                            for side in 0..4 {
                                assert!(!st.side_open(&board, c, side), "{game:?}");
                            }
                            assert_eq!(st.supported(&board, c), st.dom[c], "{game:?}");
                        }
                    } else {
                        assert!(st.dom == before, "state restored: {game:?}");
                    }
                    st.undo_to(mark);
                    ends.push(end);
                }
                assert!(ends.iter().all(|&e| e == ends[0]), "{ends:?} {game:?}");
                match ends[0] {
                    SearchEnd::Solved => solved += 1,
                    _ => exhausted += 1,
                }
            }
        }
        assert!(
            solved >= 50 && exhausted >= 30 && judged >= 15,
            "{solved} solved, {exhausted} exhausted, {judged} judged by the plain search"
        );
    }
}

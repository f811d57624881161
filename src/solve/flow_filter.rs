//! Side pruning from the degree relaxation (the flow analogue of Régin's all-different filter).
//!
//! Given one witness (every undecided cell has exactly its degree of connections), any other
//! degree-feasible assignment differs from it by alternating cycles: at every cell as many
//! sides are switched on as off. Orient each undecided side from its black cell to its white
//! cell when the witness uses it, the other way when it does not; an alternating cycle is then
//! a directed cycle. A side whose two cells lie in different strongly connected components is
//! on no cycle, so *every* solution gives it the witness's value: it is decided. Those sides
//! feed the ordinary propagation, which may decide more (I and L shapes), and the relaxation
//! is run again until nothing changes.
//!
//! On the domino-like `dist1` family local propagation decides almost nothing, while this
//! pass decides most of the grid and cuts the rest into small independent pockets.

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
}

/// What a pass found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterEnd {
    /// Fixed point: every undecided side lies on an alternating cycle.
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
        }
    }

    /// Prunes `cells` (undecided cells, closed under undecided sides) to the fixed point of
    /// relaxation + propagation. `flow` must hold a witness for them; it is kept in sync. The
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
        loop {
            if !self.components(board, state, flow, cells, halted) {
                state.discard_queue();
                return None;
            }
            let mark = state.mark();
            let mut forced = false;
            for &c in cells {
                let c = c as usize;
                if state.is_fixed(c) {
                    continue;
                }
                let (may, must) = sides(board.kind[c], state.dom[c]);
                let open = may & !must;
                let mut on = 0u8;
                let mut off = 0u8;
                for s in 0..4 {
                    let nb = board.neighbour(c, s);
                    let here = 2 * c + port_of(board.kind[c], s);
                    let there = 2 * nb + port_of(board.kind[nb], opposite(s));
                    if open & (1 << s) != 0 && self.comp[here] != self.comp[there] {
                        if flow.used(c) & (1 << s) != 0 {
                            on |= 1 << s;
                        } else {
                            off |= 1 << s;
                        }
                    }
                }
                if on | off != 0 {
                    let keep = keep_with(board.kind[c], state.dom[c], on, off);
                    if keep == 0 {
                        state.discard_queue();
                        return Some(FilterEnd::Infeasible);
                    }
                    state.narrow(board, c, keep);
                    forced = true;
                }
            }
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
        }
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
        halted: &impl Fn() -> bool,
    ) -> bool {
        for &c in cells {
            self.index[2 * c as usize] = 0;
            self.index[2 * c as usize + 1] = 0;
        }
        let mut counter = 0u32;
        let mut next_comp = 0u32;
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
            for root in [2 * root as usize, 2 * root as usize + 1] {
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
                        loop {
                            let w =
                                self.tarjan.pop().expect("tarjan stack holds the root") as usize;
                            self.comp[w] = next_comp;
                            if w == un {
                                break;
                            }
                        }
                        next_comp += 1;
                    }
                }
            }
        }
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

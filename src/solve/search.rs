//! Depth-first search over one region: pick a cell (by the [`Order`]), try each orientation,
//! propagate, and on a wipe-out undo the trail to the decision's mark. The stack is explicit,
//! so depth is bounded by memory, not by the thread's stack.
//!
//! With a [`DegreeFlow`] witness the search only branches on cells the witness gets wrong
//! (I and L pieces given a shape they cannot take); when there is none, the witness is the
//! answer. Branching on a cell covers its whole domain, so the search stays complete.

use super::board::Board;
use super::flow::{DegreeFlow, needs_shape, orientation_of};
use super::state::State;
use super::strategy::Order;
use crate::model::PieceKind;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// Every cell of the region is fixed and consistent.
    Solved,
    /// Every branch failed: the region has no solution given its surroundings.
    Exhausted,
    /// The cancellation check said stop.
    Cancelled,
}

/// Counters a search adds to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchCounters {
    pub nodes: u64,
    pub backtracks: u64,
}

struct Frame {
    cell: u32,
    /// Orientations of `cell` not tried yet.
    untried: u8,
    /// Connections the witness wanted for `cell`: orientations sharing more go first.
    hint: u8,
    mark: usize,
    flow_mark: usize,
    pos: usize,
}

/// How often (in nodes) the cancellation flag is read.
const CANCEL_CHECK_INTERVAL: u64 = 64;

/// Solves one region of a propagated state. `region` lists its cells arranged by `order`.
/// On `Solved` the state holds the region's solution; otherwise the state is restored.
pub fn search(
    board: &Board,
    state: &mut State,
    mut flow: Option<&mut DegreeFlow>,
    region: &[u32],
    order: Order,
    cancelled: &impl Fn() -> bool,
    counters: &mut SearchCounters,
) -> SearchEnd {
    let base = state.mark();
    // With a witness only shaped cells can need a decision.
    let shaped: Vec<u32>;
    let scope: &[u32] = match flow.as_deref_mut() {
        Some(f) => {
            if !f.init(board, state, region) {
                return SearchEnd::Exhausted;
            }
            shaped = region
                .iter()
                .copied()
                .filter(|&c| needs_shape(board.kind[c as usize]))
                .collect();
            &shaped
        }
        None => region,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut pos = 0usize;
    loop {
        let next = match flow.as_deref() {
            Some(f) => order.pick(board, state, scope, &mut pos, false, |c| {
                f.violated(board, state, c)
            }),
            None => order.pick(board, state, scope, &mut pos, true, |c| !state.is_fixed(c)),
        };
        let Some(cell) = next else {
            if let Some(f) = flow.as_deref() {
                adopt_witness(board, state, f, region);
            }
            return SearchEnd::Solved;
        };
        stack.push(Frame {
            cell: cell as u32,
            untried: state.dom[cell],
            hint: flow.as_deref().map_or(0, |f| f.used(cell)),
            mark: state.mark(),
            flow_mark: flow.as_deref().map_or(0, |f| f.mark()),
            pos,
        });
        loop {
            let Some(top) = stack.last_mut() else {
                state.undo_to(base);
                return SearchEnd::Exhausted;
            };
            if top.untried == 0 {
                stack.pop();
                counters.backtracks += 1;
                continue;
            }
            let kind = board.kind[top.cell as usize];
            let o = best_orientation(kind, top.untried, top.hint);
            top.untried &= !(1 << o);
            let (cell, mark, flow_mark) = (top.cell as usize, top.mark, top.flow_mark);
            pos = top.pos;
            state.undo_to(mark);
            if let Some(f) = flow.as_deref_mut() {
                f.undo_to(board, flow_mark);
            }
            counters.nodes += 1;
            if counters.nodes.is_multiple_of(CANCEL_CHECK_INTERVAL) && cancelled() {
                state.undo_to(base);
                return SearchEnd::Cancelled;
            }
            if !state.decide(board, cell, o) {
                continue;
            }
            let witness_ok = match flow.as_deref_mut() {
                Some(f) => f.sync(board, state, state.changed_since(mark)),
                None => true,
            };
            if witness_ok {
                break;
            }
        }
    }
}

/// The untried orientation sharing the most connections with `hint` (lowest on ties).
fn best_orientation(kind: u8, untried: u8, hint: u8) -> u8 {
    let kind = PieceKind::from_code(kind).expect("board holds valid kinds");
    let mut best = untried.trailing_zeros() as u8;
    let mut best_overlap = 0;
    for o in 0..4u8 {
        if untried & (1 << o) != 0 {
            let overlap = (kind.mask(o) & hint).count_ones();
            if overlap > best_overlap {
                best_overlap = overlap;
                best = o;
            }
        }
    }
    best
}

/// Fixes every undecided cell of the region to the witness's connections.
fn adopt_witness(board: &Board, state: &mut State, flow: &DegreeFlow, region: &[u32]) {
    for &c in region {
        let c = c as usize;
        if !state.is_fixed(c) {
            let o = orientation_of(board.kind[c], flow.used(c))
                .expect("witness without violations has only valid shapes");
            state.narrow(board, c, 1 << o);
        }
    }
    state.discard_queue();
}

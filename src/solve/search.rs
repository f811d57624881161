//! Depth-first search over one region: pick a cell (by the [`Order`]), try each orientation,
//! propagate, and on a wipe-out undo the trail to the decision's mark. The stack is explicit,
//! so depth is bounded by memory, not by the thread's stack.
//!
//! With a [`DegreeFlow`] witness the search only branches on cells the witness gets wrong
//! (I and L pieces given a shape they cannot take); when there is none, the witness is the
//! answer. Branching on a cell covers its whole domain, so the search stays complete.

use super::backjump::Conflicts;
use super::board::Board;
use super::cluster::cluster_hint;
use super::flow::{DegreeFlow, needs_shape, orientation_of};
use super::flow_filter::{FilterEnd, FlowFilter};
use super::observer::{NoObserver, Observer, Watch};
use super::probe::{ProbeEnd, probe, probe_around};
use super::regions::find_regions;
use super::state::State;
use super::strategy::{Order, mrv_measure, shuffled};
use crate::model::PieceKind;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// Orientations tried (decisions made).
    pub nodes: u64,
    /// Decisions whose every orientation failed.
    pub backtracks: u64,
    /// Cells decided by the flow filter at the root of each region's search.
    pub filter_fixed: u64,
    /// Restarts of MRV searches (see `RESTART_FIRST_CUTOFF`).
    pub restarts: u64,
    /// Decisions popped by backjumping without trying their other orientations
    /// (`backjump.rs`).
    pub backjumps: u64,
    /// Times an MRV search restarted in a new tie-break order (`TURN_FIRST_FAILURES`).
    pub tie_break_switches: u64,
    /// Decisions made again as they were before a backjump or a restart undid them, and
    /// not probed again (see `undone_as`).
    pub replayed: u64,
    /// I pieces decided in their other shape first because the hint's shape needed a long
    /// witness repair and the other a short one (see `by_repair`).
    pub repair_picks: u64,
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

/// Records in `undone_as` the orientation each of `frames`' decisions has in `state`, before
/// a backjump or restart undoes them.
fn remember_undone(undone_as: &mut Vec<u8>, board: &Board, state: &State, frames: &[Frame]) {
    if frames.is_empty() {
        return;
    }
    if undone_as.len() < board.len() {
        undone_as.resize(board.len(), 0);
    }
    for f in frames {
        undone_as[f.cell as usize] = state.dom[f.cell as usize];
    }
}

/// Cells of the root probe allowed per search node spent before the restart that runs it.
/// The probe's work so stays in proportion to the search's own. With 4, five 1024x1024
/// path tilings (bent 0.75, seeds 1-5, `-t 2`) took 7.3-16.1 s; with 16, 5.8-10.7 s, each
/// seed faster, straight 512x512 seeds 1-8 and 1024x1024 seeds 1-2 within noise.
const ROOT_PROBE_PER_NODE: usize = 16;
/// Every chunk of the root probe may take at least this many cells.
const ROOT_PROBE_MIN_CELLS: usize = 16_384;

/// The cells the witness gets wrong, as a lazy min-heap keyed by the strategy's preference.
/// Every cell whose domain or witness shape changes is pushed again with its current key, so
/// an entry whose key no longer matches is stale and skipped; a pick costs a few heap
/// operations instead of a scan of the region. A final scan guards completeness.
struct Violations {
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    order: Order,
    /// Under MRV: how often deciding each cell failed (dom/wdeg). Cells that keep failing are
    /// decided first after a restart, so a pocket that an early decision made infeasible is
    /// met right below that decision instead of below unrelated ones that chronological
    /// backtracking would otherwise enumerate. Allocated at the first failure: most parts
    /// of a large region never fail, and zeroing one board-sized array per part was a tenth
    /// of a straight 1024x1024 search.
    weight: Vec<u32>,
    /// The length `weight` gets.
    board_len: usize,
    /// MRV with a witness: failures are weighted and the search restarts.
    restarts: bool,
    /// The last tie-break is the order's rank mixed with this (0: the rank itself).
    salt: u64,
}

impl Violations {
    fn key(&self, board: &Board, state: &State, c: usize) -> u64 {
        match self.order {
            Order::Mrv | Order::MrvShuffled => {
                // MRV's measure, with past failures between its two parts; then line order
                // (rank < 2^32: a grid has at most 2^30 cells).
                let (options, open) = mrv_measure(board, state, c);
                let (options, open) = (u64::from(options), u64::from(open));
                let calm = u64::from(0xFFFF - self.weight.get(c).map_or(0, |&w| w.min(0xFFFF)));
                (options << 60)
                    | (calm << 40)
                    | (open << 36)
                    | (self.rank(board, c) & 0xF_FFFF_FFFF)
            }
            _ => self.order.rank(board, c),
        }
    }

    /// The order's rank of `c`, mixed with the salt.
    fn rank(&self, board: &Board, c: usize) -> u64 {
        let rank = self.order.rank(board, c);
        if self.salt == 0 {
            rank
        } else {
            shuffled((rank ^ self.salt) & 0xF_FFFF_FFFF)
        }
    }

    #[inline]
    fn push(&mut self, board: &Board, state: &State, flow: &DegreeFlow, c: usize) {
        if !state.is_fixed(c) && flow.violated(board, state, c) {
            let key = self.key(board, state, c);
            self.heap.push(Reverse((key, c as u32)));
        }
    }

    /// Records that deciding `c` just failed.
    #[inline]
    fn failed(&mut self, c: usize) {
        if self.restarts && self.weight.is_empty() {
            self.weight = vec![0; self.board_len];
        }
        if let Some(w) = self.weight.get_mut(c) {
            *w = w.saturating_add(1);
        }
    }

    fn pick(
        &mut self,
        board: &Board,
        state: &State,
        flow: &DegreeFlow,
        scope: &[u32],
    ) -> Option<usize> {
        loop {
            while let Some(Reverse((key, c))) = self.heap.pop() {
                let c = c as usize;
                if !state.is_fixed(c)
                    && flow.violated(board, state, c)
                    && key == self.key(board, state, c)
                {
                    return Some(c);
                }
            }
            let before = self.heap.len();
            for &c in scope {
                self.push(board, state, flow, c as usize);
            }
            if self.heap.len() == before {
                return None;
            }
        }
    }
}

/// Failed decisions before the first restart of an MRV search (then 1.5 times more each
/// time).
pub(super) const RESTART_FIRST_CUTOFF: u64 = 256;

/// Failures an MRV search that changes tie-breaks may take in its first turn (its own
/// order) before it restarts in a fresh shuffled order; turn `k` then takes this many times
/// the `k`-th term of the Luby sequence (1, 1, 2, 1, 1, 2, 4, ...), each in a new order.
///
/// One MRV search's time on a straight-segment level depends on its tie-break far more than
/// on the level: at 1024x1024 `-m csp -t 1` gave no answer in 30 s on seeds 2 and 4, while
/// other orders solve them in a few seconds. Luby's sequence of turns bounds the expected
/// time by a logarithmic factor of the best fixed turn length's, whatever the distribution
/// of run times (Luby, Sinclair and Zuckerman, 1993). A search that needs fewer failures than
/// this never changes order, so it runs exactly as before (seeds 1, 3, 5, 6, 7 and 8: the
/// same nodes). Seeds 2 and 4: 3.4 and 17.8 s with 16384; 3.5 and 23.0 s with 8192.
pub(super) const TURN_FIRST_FAILURES: u64 = 16_384;

/// The salt of turn `turn` (at least 1): a distinct shuffled tie-break per turn.
fn fresh_salt(turn: u32) -> u64 {
    u64::from(turn).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24 | 1 << 40
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (`i` from 1).
fn luby(mut i: u64) -> u64 {
    loop {
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// How often (in nodes) the cancellation flag is read.
const CANCEL_CHECK_INTERVAL: u64 = 64;

/// Solves one region of a propagated state. `region` lists its cells arranged by `order`.
/// On `Solved` the state holds the region's solution; otherwise the state is restored.
///
/// With a witness, the flow filter runs first; when what it decides cuts the region into
/// parts with no undecided side between them, each part is searched on its own, one after
/// the other: a failure in one part is then never blamed on decisions in another.
pub fn search(
    board: &Board,
    state: &mut State,
    flow: Option<&mut DegreeFlow>,
    region: &[u32],
    order: Order,
    cancelled: &impl Fn() -> bool,
    counters: &mut SearchCounters,
) -> SearchEnd {
    search_by(
        board,
        state,
        flow,
        region,
        (order, u64::MAX),
        cancelled,
        counters,
    )
}

/// [`search`] in MRV order whose last tie-break changes, in turns of Luby lengths
/// ([`TURN_FIRST_FAILURES`]), from line order to fresh shuffled orders: for a region no
/// other strategy races, so that one unlucky order cannot hold it without end.
pub fn search_in_turns(
    board: &Board,
    state: &mut State,
    flow: Option<&mut DegreeFlow>,
    region: &[u32],
    cancelled: &impl Fn() -> bool,
    counters: &mut SearchCounters,
) -> SearchEnd {
    let turns = (Order::Mrv, TURN_FIRST_FAILURES);
    search_by(board, state, flow, region, turns, cancelled, counters)
}

/// [`search`] in `order`, the first turn of tie-breaks `turn_first` failures long.
fn search_by(
    board: &Board,
    state: &mut State,
    flow: Option<&mut DegreeFlow>,
    region: &[u32],
    (order, turn_first): (Order, u64),
    cancelled: &impl Fn() -> bool,
    counters: &mut SearchCounters,
) -> SearchEnd {
    let mut quiet = NoObserver;
    let mut watch = Watch::new(board, &mut quiet);
    let mut ctx = Search {
        board,
        order,
        cancelled,
        first_cutoff: RESTART_FIRST_CUTOFF,
        replay_gate: true,
        backjump: true,
        turn_first,
        counters,
        watch: &mut watch,
    };
    search_with(&mut ctx, state, flow, region)
}

/// What a region's search works with besides the state and the witness: the grid, the
/// branching order, when to stop, where to count, and who is told each step.
pub(super) struct Search<'a, 'w, O: Observer, C: Fn() -> bool> {
    pub(super) board: &'a Board,
    pub(super) order: Order,
    /// Read every [`CANCEL_CHECK_INTERVAL`] nodes and in each set-up phase.
    pub(super) cancelled: &'a C,
    /// Failed decisions before the first restart (tests restart after every backtrack).
    pub(super) first_cutoff: u64,
    /// Restart only once the failures since the last restart also outnumber the decisions
    /// on the stack (off in tests that restart after every failure).
    pub(super) replay_gate: bool,
    /// Jump back over decisions a refutation does not depend on (`backjump.rs`); off only
    /// in tests, to compare with the chronological search.
    pub(super) backjump: bool,
    /// With MRV and a witness: failures of the first turn, before the search restarts with
    /// a fresh shuffled last tie-break (`u64::MAX`: never; see [`TURN_FIRST_FAILURES`]).
    pub(super) turn_first: u64,
    pub(super) counters: &'a mut SearchCounters,
    pub(super) watch: &'a mut Watch<'w, O>,
}

/// [`search`] with the context given: the first restart cutoff, and `watch` told each step
/// ([`super::observed`]).
pub(super) fn search_with<O: Observer, C: Fn() -> bool>(
    ctx: &mut Search<'_, '_, O, C>,
    state: &mut State,
    flow: Option<&mut DegreeFlow>,
    region: &[u32],
) -> SearchEnd {
    let (board, order, cancelled) = (ctx.board, ctx.order, ctx.cancelled);
    let base = state.mark();
    let Some(f) = flow else {
        return dfs(ctx, state, None, (region, region));
    };
    let watch = &mut *ctx.watch;
    let flow_base = f.mark();
    match f.init_until(board, state, region, cancelled) {
        Some(true) => {}
        Some(false) => {
            watch.conflict(0);
            return SearchEnd::Exhausted;
        }
        None => return SearchEnd::Cancelled,
    }
    let Some(filtered) = FlowFilter::new(board).run_until(board, state, f, region, cancelled)
    else {
        watch.undo(board, state, base);
        f.undo_to(board, flow_base);
        return SearchEnd::Cancelled;
    };
    watch.narrowed(board, state, base, 0);
    if filtered == FilterEnd::Infeasible {
        watch.conflict(0);
        watch.undo(board, state, base);
        return SearchEnd::Exhausted;
    }
    if filtered == FilterEnd::Skipped {
        // Nothing decided: the region is its one part (no scan of millions of cells).
        let shaped: Vec<u32> = (region.iter().copied())
            .filter(|&c| needs_shape(board.kind[c as usize]))
            .collect();
        return dfs(ctx, state, Some(f), (region, &shaped));
    }
    let fixed = region.iter().filter(|&&c| state.is_fixed(c as usize));
    ctx.counters.filter_fixed += fixed.count() as u64;
    let mut seen = vec![false; board.len()];
    let parts = find_regions(board, state, region.iter().map(|&c| c as usize), &mut seen);
    drop(seen);
    for i in 0..parts.len() {
        // Parts solved without a node never reach the search loop's check.
        if i % 256 == 255 && cancelled() {
            ctx.watch.undo(board, state, base);
            return SearchEnd::Cancelled;
        }
        let mut cells = parts.get(i).to_vec();
        order.arrange(board, &mut cells);
        // With a witness only shaped cells can need a decision.
        let shaped: Vec<u32> = cells
            .iter()
            .copied()
            .filter(|&c| needs_shape(board.kind[c as usize]))
            .collect();
        let end = dfs(ctx, state, Some(&mut *f), (&cells, &shaped));
        if end != SearchEnd::Solved {
            ctx.watch.undo(board, state, base);
            return end;
        }
    }
    SearchEnd::Solved
}

/// Depth-first search over `cells` (undecided, closed under undecided sides), deciding only
/// cells of `scope`. On `Solved` the state holds the solution; otherwise it is restored.
fn dfs<O: Observer, C: Fn() -> bool>(
    ctx: &mut Search<'_, '_, O, C>,
    state: &mut State,
    mut flow: Option<&mut DegreeFlow>,
    (cells, scope): (&[u32], &[u32]),
) -> SearchEnd {
    let (board, order, cancelled, first_cutoff, replay_gate) = (
        ctx.board,
        ctx.order,
        ctx.cancelled,
        ctx.first_cutoff,
        ctx.replay_gate,
    );
    let counters = &mut *ctx.counters;
    let watch = &mut *ctx.watch;
    let base = state.mark();
    let flow_base = flow.as_deref().map_or(0, |f| f.mark());
    let mut stack: Vec<Frame> = Vec::new();
    let mut pos = 0usize;
    // Restarts (MRV with a witness only): after `cutoff` failed decisions, start over keeping
    // the failure weights. The cutoff grows geometrically, so some run is always long enough
    // to finish: the search stays complete.
    let mut cutoff = first_cutoff;
    let mut since_restart = 0u64;
    let mut restored: Vec<usize> = Vec::new();
    // Restarts come back here: after the root probe, above what it removed.
    let (mut restart_base, mut flow_restart_base) = (base, flow_base);
    // The root probe runs in chunks, one per restart, each at most as large as the search
    // effort so far allows (see `ROOT_PROBE_PER_NODE`): cells that failed first, then the
    // part's cells from `probe_cursor` on. Inference never costs much more than the search it
    // saves, so a giant region that restarts once is not probed whole.
    let mut probe_cursor = 0usize;
    let mut probe_chunk: Vec<u32> = Vec::new();
    let nodes_at_start = counters.nodes;
    // The part's cells, sorted, once probing is on: decisions then probe around their changes.
    let mut members: Vec<u32> = Vec::new();
    let mut around: Vec<u32> = Vec::new();
    let mut known: Vec<u8> = Vec::new();
    // With a witness, exhausted decisions jump back to the last one that shaped the cells
    // refuting them (`backjump.rs`); without, the search stays chronological (the tests use
    // it as an independent judge).
    let mut conflicts = (flow.is_some() && ctx.backjump).then(Conflicts::new);
    let mut reads: Vec<u32> = Vec::new();
    // Per cell, the orientation (as a domain bit) its decision had when a backjump jumped
    // over it or a restart undid it, 0 if none. Such a decision is nearly always made again
    // as it was (straight 1024x1024 seed 4: 369,829 of 370,815 jumped-over decisions), and
    // the first time's probing already looked around it; probing it again was most of those
    // replays' cost (about 12 of 15 µs). Probing only adds inference, so skipping it keeps
    // the search sound and complete. Allocated at the first backjump or restart.
    let mut undone_as: Vec<u8> = Vec::new();
    let mut cluster: Vec<u32> = Vec::new();
    let mut violations = Violations {
        heap: BinaryHeap::new(),
        order,
        weight: Vec::new(),
        board_len: board.len(),
        restarts: matches!(order, Order::Mrv | Order::MrvShuffled) && flow.is_some(),
        salt: 0,
    };
    // Turns of tie-breaks (see `Search::turn_first`): the turn, and the failures it may
    // still take before the search restarts in the next turn's order.
    let turn_first = ctx.turn_first;
    let mut turn = 0u32;
    let mut turn_left = turn_first;
    if let Some(f) = flow.as_deref() {
        for &c in scope {
            violations.push(board, state, f, c as usize);
        }
    }
    loop {
        let next = match flow.as_deref() {
            Some(f) => violations.pick(board, state, f, scope),
            None => order.pick(board, state, scope, &mut pos, true, |c| !state.is_fixed(c)),
        };
        let Some(cell) = next else {
            if let Some(f) = flow.as_deref() {
                let mark = state.mark();
                adopt_witness(board, state, f, cells);
                watch.narrowed(board, state, mark, 0);
            }
            return SearchEnd::Solved;
        };
        if let Some(cf) = conflicts.as_mut() {
            cf.push();
        }
        stack.push(Frame {
            cell: cell as u32,
            untried: state.dom[cell],
            hint: flow.as_deref().map_or(0, |f| {
                cluster_hint(board, state, |c| f.used(c), cell, &mut cluster)
            }),
            mark: state.mark(),
            flow_mark: flow.as_deref().map_or(0, |f| f.mark()),
            pos,
        });
        loop {
            // A restart replays every decision on the stack: wait until the failures since
            // the last one outnumber them, so replaying costs at most what it may save. On
            // a straight 1024x1024 the stack holds thousands of decisions, and restarting
            // every few hundred failures replayed them without end (seed 4: no answer in
            // 30 s; 40k nodes in 2.5 s with the gate).
            let gate = if replay_gate { stack.len() as u64 } else { 0 };
            let switch = turn_left == 0;
            let restart = (since_restart >= cutoff.max(gate) || switch) && violations.restarts;
            if let (true, true, Some(f)) = (restart, stack.len() > 1, flow.as_deref_mut()) {
                remember_undone(&mut undone_as, board, state, &stack[..stack.len() - 1]);
                watch.undo(board, state, restart_base);
                f.undo_to(board, flow_restart_base);
                stack.clear();
                if let Some(cf) = conflicts.as_mut() {
                    cf.clear();
                }
                if probe_cursor < cells.len() {
                    // A restart shows the search is failing: probe the next chunk at the root.
                    let effort = (counters.nodes - nodes_at_start) as usize;
                    let budget =
                        ROOT_PROBE_MIN_CELLS.max(effort.saturating_mul(ROOT_PROBE_PER_NODE));
                    probe_chunk.clear();
                    if probe_cursor == 0 {
                        probe_chunk.extend(
                            cells
                                .iter()
                                .filter(|&&c| {
                                    violations.weight.get(c as usize).is_some_and(|&w| w > 0)
                                })
                                .take(budget / 2),
                        );
                    }
                    let end_cursor = cells.len().min(probe_cursor + budget - probe_chunk.len());
                    probe_chunk.extend_from_slice(&cells[probe_cursor..end_cursor]);
                    probe_cursor = end_cursor;
                    let mark = state.mark();
                    let end = probe(board, state, &probe_chunk, cancelled);
                    watch.narrowed(board, state, mark, 0);
                    let synced = match end {
                        ProbeEnd::Done => {
                            f.sync_until(board, state, state.changed_since(mark), cancelled)
                        }
                        ProbeEnd::Infeasible => Some(false),
                        ProbeEnd::Cancelled => None,
                    };
                    match synced {
                        Some(true) => {}
                        Some(false) => {
                            watch.conflict(0);
                            watch.undo(board, state, base);
                            return SearchEnd::Exhausted;
                        }
                        None => {
                            watch.undo(board, state, base);
                            f.undo_to(board, flow_base);
                            return SearchEnd::Cancelled;
                        }
                    }
                    restart_base = state.mark();
                    flow_restart_base = f.mark();
                    if members.is_empty() {
                        members = cells.to_vec();
                        members.sort_unstable();
                    }
                }
                if switch {
                    // The next turn, in a new order and with its own restart schedule; the
                    // failure weights are kept. The turns' lengths grow without bound, so
                    // some turn is long enough to finish: the search stays complete.
                    turn += 1;
                    violations.salt = fresh_salt(turn);
                    turn_left = turn_first.saturating_mul(luby(u64::from(turn) + 1));
                    cutoff = first_cutoff;
                    counters.tie_break_switches += 1;
                } else {
                    cutoff += cutoff / 2 + 1;
                }
                violations.heap.clear();
                for &c in scope {
                    violations.push(board, state, f, c as usize);
                }
                counters.restarts += 1;
                watch.restart(counters.restarts);
                since_restart = 0;
                break;
            }
            let Some(top) = stack.last_mut() else {
                watch.undo(board, state, base);
                return SearchEnd::Exhausted;
            };
            if top.untried == 0 {
                let pops = match conflicts.as_mut() {
                    Some(cf) => cf.jump(state, |k| (stack[k].cell as usize, stack[k].mark)),
                    None => 1,
                };
                counters.backjumps += pops as u64 - 1;
                // The top frame failed; the ones below it were jumped over.
                let depth = stack.len();
                remember_undone(
                    &mut undone_as,
                    board,
                    state,
                    &stack[depth - pops..depth - 1],
                );
                for _ in 0..pops {
                    let cell = stack.last().expect("pops <= depth").cell as usize;
                    watch.backtrack(board, cell, stack.len());
                    stack.pop();
                }
                counters.backtracks += 1;
                continue;
            }
            let kind = board.kind[top.cell as usize];
            let o = best_orientation(kind, top.untried, top.hint);
            top.untried &= !(1 << o);
            let (cell, mark, flow_mark) = (top.cell as usize, top.mark, top.flow_mark);
            pos = top.pos;
            if let Some(f) = flow.as_deref_mut() {
                // What the undo restores may be wrong again: offer it to the picker.
                restored.clear();
                restored.extend(
                    state
                        .changed_since(mark)
                        .chain(f.flipped_since(board, flow_mark)),
                );
                watch.undo(board, state, mark);
                f.undo_to(board, flow_mark);
                for &c in &restored {
                    violations.push(board, state, f, c);
                }
            } else {
                watch.undo(board, state, mark);
            }
            // Where the hint cannot choose between an I's two shapes, one whose witness
            // repair is short goes first (see `by_repair`).
            let mut o = o;
            if let Some(f) = flow.as_deref_mut()
                && let Some(top) = stack.last_mut()
                && let Some(other) = tie_partner(board, state, top, o)
                && undone_as.get(cell).is_none_or(|&u| u != 1 << o)
            {
                // Before probing is on, what a trial repaired is what this decision would
                // repair: the trial is kept.
                let keep = members.is_empty();
                if by_repair(board, state, f, cell, [o, other], keep) == other {
                    top.untried = (top.untried | 1 << o) & !(1 << other);
                    o = other;
                    counters.repair_picks += 1;
                }
            }
            counters.nodes += 1;
            let cancel_now = counters.nodes.is_multiple_of(CANCEL_CHECK_INTERVAL) && cancelled();
            if cancel_now || watch.should_stop() {
                watch.undo(board, state, base);
                return SearchEnd::Cancelled;
            }
            let depth = stack.len();
            let replay = undone_as.get(cell).is_some_and(|&u| u == 1 << o);
            if let Some(u) = undone_as.get_mut(cell) {
                *u = 0;
            }
            counters.replayed += u64::from(replay);
            watch.decide(board, cell, o, depth);
            // Once probing is on (after the first restart), each decision also probes the
            // cells around what it changed.
            let mut consistent = state.decide(board, cell, o);
            reads.clear();
            if !consistent {
                reads.push(state.wiped() as u32);
            } else if !members.is_empty() && !replay {
                around.clear();
                around.extend(state.changed_since(mark).map(|c| c as u32));
                let in_part = |c: usize| members.binary_search(&(c as u32)).is_ok();
                consistent =
                    probe_around(board, state, &mut around, in_part, &mut reads, &mut known);
            }
            if let Some(cf) = conflicts.as_mut() {
                // What this orientation's propagation concluded rests on these cells.
                cf.read(board, state.changed_since(mark));
                cf.read(board, reads.iter().map(|&c| c as usize));
            }
            // The first change is the decision itself, already told.
            watch.narrowed(board, state, mark, 1);
            if !consistent {
                watch.conflict(depth);
                violations.failed(cell);
                since_restart += 1;
                turn_left = turn_left.saturating_sub(1);
                continue;
            }
            let witness_ok = match flow.as_deref_mut() {
                Some(f) => {
                    // A repair may search a region of millions of cells: it reads the flag.
                    let Some(ok) = f.sync_until(board, state, state.changed_since(mark), cancelled)
                    else {
                        watch.undo(board, state, base);
                        f.undo_to(board, flow_base);
                        return SearchEnd::Cancelled;
                    };
                    if !ok && let Some(cf) = conflicts.as_mut() {
                        cf.read(board, f.failure_cells());
                    }
                    if ok {
                        for c in state
                            .changed_since(mark)
                            .chain(f.flipped_since(board, flow_mark))
                        {
                            violations.push(board, state, f, c);
                        }
                    }
                    ok
                }
                None => true,
            };
            if witness_ok {
                break;
            }
            watch.conflict(stack.len());
            violations.failed(cell);
            since_restart += 1;
            turn_left = turn_left.saturating_sub(1);
        }
    }
}

/// Looks at the halt flag after which a trial repair of [`by_repair`] gives up: the flow
/// looks every `flow::HALT_CHECK_INTERVAL` nodes and cells, so one gives up after 4,096 to
/// 8,192. Path tilings at 100 % bent, 512x512, seeds 1-3 (`-m csp -t 1`, trials on every
/// I): 1.4, 5.0 and 18.4 s with one look, 13.9, 20.4 and over 30 s with two.
const TRIAL_CHECKS: u32 = 1;

/// The other shape, when the decision of `o` on the frame `top` is its first, on an I piece
/// whose other shape the hint likes as much: a lone I whose witness shape is bent, each straight shape
/// keeping one of its connections. Where the hint has a view (a cluster of I pieces
/// voting) it stays first: three-cell path tilings at 75 % bent, 1024x1024, seed 1
/// (`-t 2`), took 5.8-6.6 s before, 6.6 s with ties only, 9.5-11.9 s with every I.
fn tie_partner(board: &Board, state: &State, top: &Frame, o: u8) -> Option<u8> {
    let cell = top.cell as usize;
    let other = top.untried.trailing_zeros() as u8;
    let i = PieceKind::I;
    (board.kind[cell] == i as u8
        && state.dom[cell] == top.untried | 1 << o
        && top.untried.count_ones() == 1
        && (i.mask(o) & top.hint).count_ones() == (i.mask(other) & top.hint).count_ones())
    .then_some(other)
}

/// How a trial repair ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trial {
    Repaired,
    Failed,
    TooLong,
}

/// Of the two shapes `[first, other]` of an I, the one to decide first: `other` when
/// the witness repair after `first` takes more than a few thousand nodes and the one after
/// `other` does not, else `first`. The repair that stays short changes the witness least;
/// a long one reroutes it far away, where the search then meets the failures it causes
/// (on path tilings a failed repair there visited 40k nodes on average). A repair that
/// fails within the limit keeps `first`, whose refutation the search then makes cheaply
/// and learns from (its failure weights and the cells a backjump reads); taking `other`
/// in its place cost more on the path tilings tried. A trial that repairs may be kept as
/// the decision (`keep`, see [`trial_repair`]), the others are undone; the search keeps
/// both shapes, so it stays complete. Three-cell path tilings at 100 % bent,
/// 512x512, seeds 1-6 (`--solve -t 2`, a 30 s limit): 24.5, 15.6, 22.4 s and three with no
/// answer before; 17.7, 14.0, 6.9, 6.1, 3.6 s and one with no answer after.
fn by_repair(
    board: &Board,
    state: &mut State,
    f: &mut DegreeFlow,
    cell: usize,
    [first, other]: [u8; 2],
    keep: bool,
) -> u8 {
    #[cfg(test)]
    let marks = (state.mark(), f.mark());
    let end = trial_repair(board, state, f, cell, first, keep);
    #[cfg(test)]
    let end = if tests::EVERY_FIRST_TOO_LONG.get() {
        state.undo_to(marks.0);
        f.undo_to(board, marks.1);
        Trial::TooLong
    } else {
        end
    };
    if end != Trial::TooLong {
        return first;
    }
    match trial_repair(board, state, f, cell, other, keep) {
        Trial::Repaired => other,
        _ => first,
    }
}

/// Decides `o` on `cell` and repairs the witness within [`TRIAL_CHECKS`]. With `keep`, a
/// repair made is kept: the search's own decision of `o` then finds the state and the
/// witness as they must be, instead of repairing a second time (dominoes 512x512, whose
/// I pieces are mostly lone and bent in the witness: best of 8, 124.7 ms undone, 118.5 ms
/// kept, 117.2 ms without trials). The caller keeps it only where the decision's repair
/// would be the same: once probing is on, the decision probes before it repairs, and
/// keeping the trial there changed the search (a 256x256 path tiling: 4.6k nodes became
/// 11k). Otherwise both are undone.
fn trial_repair(
    board: &Board,
    state: &mut State,
    f: &mut DegreeFlow,
    cell: usize,
    o: u8,
    keep: bool,
) -> Trial {
    let (mark, flow_mark) = (state.mark(), f.mark());
    let end = if state.decide(board, cell, o) {
        let checks = std::cell::Cell::new(0u32);
        let too_long = || {
            checks.set(checks.get() + 1);
            checks.get() > TRIAL_CHECKS
        };
        match f.sync_until(board, state, state.changed_since(mark), &too_long) {
            Some(true) => Trial::Repaired,
            Some(false) => Trial::Failed,
            None => Trial::TooLong,
        }
    } else {
        state.discard_queue();
        Trial::Failed
    };
    if end != Trial::Repaired || !keep {
        state.undo_to(mark);
        f.undo_to(board, flow_mark);
    }
    end
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, generate};
    use crate::model::{Game, Piece};
    use crate::solve::start::Start;

    /// Solves every region of `game` with `search_with`; true when all are solved.
    fn solvable(game: &Game, flow: bool, first_cutoff: u64, counters: &mut SearchCounters) -> bool {
        solvable_with(game, flow, (first_cutoff, false), true, counters)
    }

    /// [`solvable`] with the replay gate and backjumping on or off.
    fn solvable_with(
        game: &Game,
        flow: bool,
        cutoff_gate: (u64, bool),
        backjump: bool,
        counters: &mut SearchCounters,
    ) -> bool {
        solvable_in(
            game,
            Order::Mrv,
            flow,
            cutoff_gate,
            backjump,
            u64::MAX,
            counters,
        )
    }

    /// [`solvable_with`] in the given order.
    fn solvable_in(
        game: &Game,
        order: Order,
        flow: bool,
        (first_cutoff, replay_gate): (u64, bool),
        backjump: bool,
        turn_first: u64,
        counters: &mut SearchCounters,
    ) -> bool {
        let start = Start::new(game);
        if !start.consistent {
            return false;
        }
        let regions = start.regions_until(&|| false).expect("never halted");
        let Start {
            board, mut state, ..
        } = start;
        let mut witness = DegreeFlow::new(&board);
        (0..regions.len()).all(|i| {
            let mut cells = regions.get(i).to_vec();
            order.arrange(&board, &mut cells);
            let f = flow.then_some(&mut witness);
            let mut quiet = NoObserver;
            let mut watch = Watch::new(&board, &mut quiet);
            let mut ctx = Search {
                board: &board,
                order,
                cancelled: &|| false,
                first_cutoff,
                replay_gate,
                backjump,
                turn_first,
                counters: &mut *counters,
                watch: &mut watch,
            };
            search_with(&mut ctx, &mut state, f, &cells) == SearchEnd::Solved
        })
    }

    #[test]
    fn restarting_after_every_backtrack_keeps_the_search_complete() {
        let mut rng = fastrand::Rng::with_seed(9);
        let mut counters = SearchCounters::default();
        let mut answers = [0; 2];
        for i in 0..240u64 {
            // Generated levels where degree-2 pieces changed shape (L <-> I): the parity
            // stays even, so neither propagation nor the flow filter refutes them up front.
            // The flow search rarely fails a decision on levels this small; these sizes and
            // seeds are ones where it does, which is what triggers a restart.
            let (h, w, swaps) = if i < 120 { (48, 48, 1) } else { (32, 32, 3) };
            let mut o = GenerateOptions::new(h, w, i % 120);
            o.family = Family::Dominoes;
            let mut cells = generate(&o).cells().to_vec();
            for _ in 0..swaps {
                let bends: Vec<usize> = (0..cells.len())
                    .filter(|&k| matches!(cells[k].kind(), PieceKind::I | PieceKind::L))
                    .collect();
                let k = bends[rng.usize(..bends.len())];
                let other = match cells[k].kind() {
                    PieceKind::I => PieceKind::L,
                    _ => PieceKind::I,
                };
                cells[k] = Piece::new(other, 0);
            }
            let game = Game::from_cells(h, w, cells);
            // Never restarting is the reference: the engine tests compare that search with
            // brute force and with the search without a witness.
            let plain = solvable(&game, true, u64::MAX, &mut SearchCounters::default());
            assert_eq!(solvable(&game, true, 1, &mut counters), plain, "{game:?}");
            answers[usize::from(plain)] += 1;
        }
        assert!(answers[1] > 100, "{answers:?}");
        assert!(
            counters.restarts >= 4,
            "restarts were not exercised: {counters:?}"
        );
    }

    #[test]
    fn probing_after_the_first_restart_agrees_with_the_plain_search_on_straight_levels() {
        use crate::generate::straight::move_straights;
        let mut counters = SearchCounters::default();
        let mut answers = [0; 2];
        for seed in 0..60u64 {
            let n = if seed < 30 { 8 } else { 14 };
            let mut o = GenerateOptions::new(n, n, seed);
            o.family = Family::Straight;
            let straight = generate(&o);
            let moved = move_straights(&straight, 1 + seed as usize % 3, seed);
            for game in [straight, moved] {
                // Restarting after every failure turns root and per-decision probing on at
                // the first failure; the search without a witness never probes.
                let plain = solvable(&game, false, u64::MAX, &mut SearchCounters::default());
                assert_eq!(solvable(&game, true, 1, &mut counters), plain, "{game:?}");
                answers[usize::from(plain)] += 1;
            }
        }
        assert!(answers[0] >= 10 && answers[1] >= 60, "{answers:?}");
        // The I-cluster hint (`cluster.rs`) leaves few failures on levels this small.
        assert!(
            counters.restarts >= 4,
            "probing was not exercised: {counters:?}"
        );
    }

    /// The verdict of the chronological MRV witness search: no restarts, no backjumps (the
    /// engine and oracle tests compare it with the plain search and brute force).
    fn chronological_judge(game: &Game) -> bool {
        solvable_with(
            game,
            true,
            (u64::MAX, false),
            false,
            &mut Default::default(),
        )
    }

    /// A straight level of 32 to 56 cells a side and the same level with 1 to 3 I pieces
    /// moved (often unsolvable): sizes where the witness search backtracks deep enough for
    /// jumps to happen.
    fn straight_and_moved(seed: u64) -> [Game; 2] {
        use crate::generate::straight::move_straights;
        let n = 32 + seed as usize % 3 * 12;
        let mut o = GenerateOptions::new(n, n, seed);
        o.family = Family::Straight;
        let straight = generate(&o);
        let moved = move_straights(&straight, 1 + seed as usize % 3, seed);
        [straight, moved]
    }

    #[test]
    fn the_shuffled_mrv_racer_agrees_with_the_chronological_search() {
        let mut counters = SearchCounters::default();
        let mut answers = [0; 2];
        for seed in 0..24u64 {
            for game in straight_and_moved(seed) {
                let judge = chronological_judge(&game);
                for cutoff in [u64::MAX, 4] {
                    let got = solvable_in(
                        &game,
                        Order::MrvShuffled,
                        true,
                        (cutoff, true),
                        true,
                        u64::MAX,
                        &mut counters,
                    );
                    assert_eq!(got, judge, "cutoff {cutoff}: {game:?}");
                }
                answers[usize::from(judge)] += 1;
            }
        }
        assert!(answers[0] >= 5 && answers[1] >= 20, "{answers:?}");
        assert!(counters.backtracks >= 10, "no search: {counters:?}");
    }

    #[test]
    fn the_luby_sequence_is_lubys() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        // Turns keep their own orders.
        let salts: std::collections::HashSet<u64> = (1..1000).map(fresh_salt).collect();
        assert_eq!(salts.len(), 999);
        assert!(!salts.contains(&0));
    }

    #[test]
    fn changing_tie_breaks_in_turns_agrees_with_the_chronological_search() {
        let mut counters = SearchCounters::default();
        let mut answers = [0; 2];
        for seed in 0..24u64 {
            for game in straight_and_moved(seed) {
                let judge = chronological_judge(&game);
                // Turns of 1 and 3 failures (then Luby multiples), with restarts inside
                // each turn too or not.
                for (turn_first, cutoff) in [(1, u64::MAX), (3, 4)] {
                    let got = solvable_in(
                        &game,
                        Order::Mrv,
                        true,
                        (cutoff, true),
                        true,
                        turn_first,
                        &mut counters,
                    );
                    assert_eq!(got, judge, "turns of {turn_first}: {game:?}");
                }
                answers[usize::from(judge)] += 1;
            }
        }
        assert!(answers[0] >= 5 && answers[1] >= 20, "{answers:?}");
        assert!(
            counters.tie_break_switches >= 20,
            "turns were not exercised: {counters:?}"
        );
        // Decisions undone by a restart or a jump and made again unprobed.
        assert!(counters.replayed >= 20, "no replay: {counters:?}");
    }

    #[test]
    fn backjumping_agrees_with_the_chronological_search() {
        let mut counters = SearchCounters::default();
        let mut gated_counters = SearchCounters::default();
        let mut answers = [0; 2];
        for seed in 0..40u64 {
            for game in straight_and_moved(seed) {
                let judge = chronological_judge(&game);
                for cutoff in [u64::MAX, 4] {
                    assert_eq!(
                        solvable(&game, true, cutoff, &mut counters),
                        judge,
                        "cutoff {cutoff}: {game:?}"
                    );
                }
                // Restarts held back until the failures outnumber the decisions to replay.
                let gated = solvable_with(&game, true, (4, true), true, &mut gated_counters);
                assert_eq!(gated, judge, "gated: {game:?}");
                answers[usize::from(judge)] += 1;
            }
        }
        assert!(answers[0] >= 8 && answers[1] >= 40, "{answers:?}");
        assert!(
            counters.backjumps >= 30,
            "backjumping was not exercised: {counters:?}"
        );
        // The gate held some restarts back: fewer than without it, but not none.
        assert!(
            gated_counters.restarts >= 5 && gated_counters.restarts < counters.restarts / 2,
            "the replay gate was not exercised: {gated_counters:?} against {counters:?}"
        );
    }

    thread_local! {
        /// Makes `by_repair` take every first shape's repair as too long, so that small
        /// levels exercise the picks that only long repairs cause on large ones.
        pub(super) static EVERY_FIRST_TOO_LONG: std::cell::Cell<bool> =
            const { std::cell::Cell::new(false) };
    }

    /// Three-cell path tilings of 24 to 40 cells a side, all bent, and the same level with
    /// one one-end piece turned into a straight (no solution then).
    fn paths_and_altered(seed: u64) -> [Game; 2] {
        let n = 24 + seed as usize % 3 * 8;
        let mut o = GenerateOptions::new(n, n, seed);
        o.family = Family::Paths(3);
        o.bent = 1.0;
        let level = generate(&o);
        let mut altered = level.clone();
        let q = (0..altered.len())
            .find(|&i| altered.cells()[i].kind() == PieceKind::Q)
            .expect("a path tiling has one-end pieces");
        altered.cells_mut()[q] = crate::model::Piece::new(PieceKind::I, 0);
        [level, altered]
    }

    #[test]
    fn shapes_picked_by_repair_agree_with_the_chronological_search() {
        let mut counters = SearchCounters::default();
        let mut answers = [0; 2];
        for seed in 0..24u64 {
            let [a, b] = straight_and_moved(seed);
            let [c, d] = paths_and_altered(seed);
            for game in [a, b, c, d] {
                let judge = chronological_judge(&game);
                EVERY_FIRST_TOO_LONG.set(true);
                let ours = solvable(&game, true, 4, &mut counters);
                EVERY_FIRST_TOO_LONG.set(false);
                assert_eq!(ours, judge, "{game:?}");
                answers[usize::from(judge)] += 1;
            }
        }
        assert!(answers[0] >= 24 && answers[1] >= 30, "{answers:?}");
        assert!(counters.repair_picks >= 100, "{counters:?}");
    }
}

//! [`count_frontier`]: exact count of one region by a frontier (transfer-matrix) dynamic
//! programme. The cells of the region's bounding box are swept line by line across its
//! narrower dimension; after each cell, what the rest of the sweep needs to know about the cells
//! already placed is only whether each side crossing the frontier is connected: one bit per
//! frontier column plus one for the side just behind the sweep. Solutions that agree on those
//! bits have the same completions, so their numbers are added under one key.
//!
//! Work is cells × reachable frontier states. Decided sides cannot branch, so the states are
//! at most 2^(undecided sides crossing the frontier): a narrow or thin region costs a linear
//! sweep whatever its count, even with hundreds of digits. Wide, loosely decided regions blow
//! the state count up; the caller gives a bound and falls back to search when it is exceeded.

use std::collections::HashMap;

use super::counter::Stopped;
use super::number::Count;
use crate::model::PieceKind;
use crate::model::direction::{E, N, S, W, bit};
use crate::solve::board::Board;
use crate::solve::state::State;

/// Fixed seeds: the map's iteration order (and so the run) is the same every time.
type Map = HashMap<u128, Count, ahash::RandomState>;

fn new_map(capacity: usize) -> Map {
    Map::with_capacity_and_hasher(capacity, ahash::RandomState::with_seeds(1, 2, 3, 4))
}

/// The frontier would be this many bits or more: a u128 key cannot hold it.
const MAX_WIDTH: usize = 126;

/// Number of frontier states reached so far, for progress display and `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrontierCounters {
    /// Regions counted by the sweep.
    pub regions: u64,
    /// Largest number of frontier states held at once.
    pub peak_states: u64,
}

/// Width of the frontier the sweep of `region` would need (the narrower side of its bounding
/// box).
pub fn frontier_width(board: &Board, region: &[u32]) -> usize {
    let (r0, r1, c0, c1) = bounding_box(board, region);
    (r1 - r0 + 1).min(c1 - c0 + 1)
}

fn bounding_box(board: &Board, region: &[u32]) -> (usize, usize, usize, usize) {
    let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
    for &c in region {
        let (r, col) = board.row_col(c as usize);
        r0 = r0.min(r);
        r1 = r1.max(r);
        c0 = c0.min(col);
        c1 = c1.max(col);
    }
    (r0, r1, c0, c1)
}

/// Number of assignments of the undecided cells of `region` (a region of
/// [`crate::solve::regions::find_regions`]: its sides to every other cell are decided) that
/// satisfy every side, capped at `limit`. `Ok(None)` when more than `max_states` frontier
/// states would be needed (nothing was concluded). `in_region` is scratch of `board.len()`
/// falses, left all false.
#[allow(clippy::too_many_arguments)]
pub fn count_frontier(
    board: &Board,
    state: &State,
    region: &[u32],
    limit: Option<u64>,
    max_states: usize,
    in_region: &mut [bool],
    counters: &mut FrontierCounters,
    stop: &impl Fn() -> bool,
) -> Result<Option<Count>, Stopped> {
    if region.is_empty() {
        return Ok(Some(Count::ONE));
    }
    let (r0, r1, c0, c1) = bounding_box(board, region);
    let (rows, cols) = (r1 - r0 + 1, c1 - c0 + 1);
    // Sweep along the longer dimension so the frontier spans the shorter one.
    let by_rows = cols <= rows;
    let (long, width) = if by_rows { (rows, cols) } else { (cols, rows) };
    if width > MAX_WIDTH {
        return Ok(None);
    }
    // Sides relative to the sweep: `back` faces the previous line, `ahead` the next line,
    // `before` the previous cell of the line, `after` the next one.
    let (back, ahead, before, after) = if by_rows { (N, S, W, E) } else { (W, E, N, S) };
    let cell_at = |i: usize, j: usize| {
        if by_rows {
            board.cell(r0 + i, c0 + j)
        } else {
            board.cell(r0 + j, c0 + i)
        }
    };
    for &c in region {
        in_region[c as usize] = true;
    }
    let result = sweep(
        board,
        state,
        SweepShape {
            long,
            width,
            back,
            ahead,
            before,
            after,
        },
        &cell_at,
        limit,
        max_states,
        in_region,
        counters,
        stop,
    );
    for &c in region {
        in_region[c as usize] = false;
    }
    if result.as_ref().is_ok_and(|r| r.is_some()) {
        counters.regions += 1;
    }
    result
}

struct SweepShape {
    long: usize,
    width: usize,
    back: usize,
    ahead: usize,
    before: usize,
    after: usize,
}

#[allow(clippy::too_many_arguments)]
fn sweep(
    board: &Board,
    state: &State,
    shape: SweepShape,
    cell_at: &impl Fn(usize, usize) -> usize,
    limit: Option<u64>,
    max_states: usize,
    in_region: &[bool],
    counters: &mut FrontierCounters,
    stop: &impl Fn() -> bool,
) -> Result<Option<Count>, Stopped> {
    let SweepShape {
        long,
        width,
        back,
        ahead,
        before,
        after,
    } = shape;
    // Key bit j: the `ahead` side of the last cell placed in column j; bit `width`: the `after`
    // side of the previous cell of the line. A bit is only ever set towards a region cell
    // (sides towards anything else are decided already, and the domains agree with them).
    let line_bit = 1u128 << width;
    let mut cur = new_map(64);
    cur.insert(0, Count::ONE);
    let mut next = new_map(64);
    let mut masks = [0u8; 4];
    for i in 0..long {
        for j in 0..width {
            let cell = cell_at(i, j);
            if !in_region[cell] {
                // Bits are only set towards region cells: this cell's are clear already.
                continue;
            }
            if stop() {
                return Err(Stopped);
            }
            let kind = PieceKind::from_code(board.kind[cell]).expect("valid kind");
            let dom = state.dom[cell];
            let mut n = 0;
            for o in 0..4u8 {
                if dom & (1 << o) != 0 {
                    masks[n] = kind.mask(o);
                    n += 1;
                }
            }
            let check_back = in_region[board.neighbour(cell, back)];
            let check_before = in_region[board.neighbour(cell, before)];
            let emit_ahead = in_region[board.neighbour(cell, ahead)];
            let emit_after = j + 1 < width && in_region[board.neighbour(cell, after)];
            let col_bit = 1u128 << j;
            next.clear();
            for (&key, count) in &cur {
                let from_back = key & col_bit != 0;
                let from_before = key & line_bit != 0;
                let rest = key & !(col_bit | line_bit);
                for &m in &masks[..n] {
                    if check_back && (m & bit(back) != 0) != from_back {
                        continue;
                    }
                    if check_before && (m & bit(before) != 0) != from_before {
                        continue;
                    }
                    let mut k = rest;
                    if emit_ahead && m & bit(ahead) != 0 {
                        k |= col_bit;
                    }
                    if emit_after && m & bit(after) != 0 {
                        k |= line_bit;
                    }
                    add(&mut next, k, count, limit);
                }
            }
            std::mem::swap(&mut cur, &mut next);
            counters.peak_states = counters.peak_states.max(cur.len() as u64);
            if cur.len() > max_states {
                return Ok(None);
            }
            if cur.is_empty() {
                return Ok(Some(Count::ZERO));
            }
        }
    }
    let mut total = Count::ZERO;
    for count in cur.values() {
        total.add_assign(count);
        if let Some(k) = limit {
            total.cap(k);
        }
    }
    Ok(Some(total))
}

#[inline]
fn add(map: &mut Map, key: u128, count: &Count, limit: Option<u64>) {
    match map.get_mut(&key) {
        Some(c) => {
            c.add_assign(count);
            if let Some(k) = limit {
                c.cap(k);
            }
        }
        None => {
            map.insert(key, count.clone());
        }
    }
}

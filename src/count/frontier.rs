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
use crate::solve::{Board, State};

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

/// Rows and columns of the bounding box of `region` (not empty).
pub fn extent(board: &Board, region: &[u32]) -> (usize, usize) {
    let (r0, r1, c0, c1) = bounding_box(board, region);
    (r1 - r0 + 1, c1 - c0 + 1)
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
/// [`crate::solve::find_regions`]: its sides to every other cell are decided) that
/// satisfy every side, capped at `limit`. `Ok(None)` when more than `max_states` frontier
/// states would be needed (nothing was concluded). `by_rows` forces the sweep along rows
/// (`Some(true)`) or columns (`Some(false)`); `None` sweeps along the longer dimension.
/// `in_region` is scratch of `board.len()` falses, left all false.
#[allow(clippy::too_many_arguments)]
pub fn count_frontier(
    board: &Board,
    state: &State,
    region: &[u32],
    by_rows: Option<bool>,
    limit: Option<u64>,
    max_states: usize,
    in_region: &mut [bool],
    counters: &mut FrontierCounters,
    stop: &impl Fn() -> bool,
) -> Result<Option<Count>, Stopped> {
    if region.is_empty() {
        return Ok(Some(Count::ONE));
    }
    let Some(shape) = SweepShape::of(board, region, by_rows) else {
        return Ok(None);
    };
    for &c in region {
        in_region[c as usize] = true;
    }
    let result = sweep(
        board, state, shape, limit, max_states, in_region, counters, stop,
    );
    for &c in region {
        in_region[c as usize] = false;
    }
    if result.as_ref().is_ok_and(|r| r.is_some()) {
        counters.regions += 1;
    }
    result
}

/// How a region's bounding box is swept: along its longer dimension (`long` lines of `width`
/// cells), so the frontier spans the shorter one. Sides are named relative to the sweep:
/// `back` faces the previous line, `ahead` the next line, `before` the previous cell of the
/// line, `after` the next one.
struct SweepShape {
    r0: usize,
    c0: usize,
    by_rows: bool,
    long: usize,
    width: usize,
    back: usize,
    ahead: usize,
    before: usize,
    after: usize,
}

impl SweepShape {
    /// The sweep of `region` (not empty) along rows or columns as `by_rows` says (`None`:
    /// along the longer dimension), or `None` when its frontier would be wider than
    /// [`MAX_WIDTH`].
    fn of(board: &Board, region: &[u32], by_rows: Option<bool>) -> Option<SweepShape> {
        let (r0, r1, c0, c1) = bounding_box(board, region);
        let (rows, cols) = (r1 - r0 + 1, c1 - c0 + 1);
        let by_rows = by_rows.unwrap_or(cols <= rows);
        let (long, width) = if by_rows { (rows, cols) } else { (cols, rows) };
        if width > MAX_WIDTH {
            return None;
        }
        let (back, ahead, before, after) = if by_rows { (N, S, W, E) } else { (W, E, N, S) };
        Some(SweepShape {
            r0,
            c0,
            by_rows,
            long,
            width,
            back,
            ahead,
            before,
            after,
        })
    }

    /// The padded index of cell `j` of line `i`.
    #[inline]
    fn cell(&self, board: &Board, i: usize, j: usize) -> usize {
        if self.by_rows {
            board.cell(self.r0 + i, self.c0 + j)
        } else {
            board.cell(self.r0 + j, self.c0 + i)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn sweep(
    board: &Board,
    state: &State,
    shape: SweepShape,
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
        ..
    } = shape;
    let cell_at = |i: usize, j: usize| shape.cell(board, i, j);
    // Key bit j: the `ahead` side of the last cell placed in column j; bit `width`: the `after`
    // side of the previous cell of the line. A bit is only ever set towards a region cell
    // (sides towards anything else are decided already, and the domains agree with them).
    let line_bit = 1u128 << width;
    let mut cur = new_map(64);
    cur.insert(0, Count::ONE);
    let mut next = new_map(64);
    let mut masks = [0u8; 4];
    let mut placed = 0u64;
    for i in 0..long {
        for j in 0..width {
            let cell = cell_at(i, j);
            if !in_region[cell] {
                // Bits are only set towards region cells: this cell's are clear already.
                continue;
            }
            placed += 1;
            if placed.is_multiple_of(64) && stop() {
                return Err(Stopped);
            }
            let kind = PieceKind::from_code(board.kind[cell]).expect("valid kind");
            let dom = state.domain(cell);
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

/// Connection masks of some cells: (padded cell, mask).
pub type Assignment = Vec<(u32, u8)>;

/// A solution of `region` that differs from `intended` (the connection mask wanted at each
/// padded cell) on at least one cell, as (cell, mask) for every cell of the region; `Ok(Some(
/// None))` when there is none (the intended assignment, a solution, is the only one);
/// `Ok(None)` when more than `max_states` frontier states would be needed.
///
/// The same sweep as [`count_frontier`] with one more key bit, "differs already", over sets of
/// reachable keys instead of counts: one search for a second solution, not a count. Every
/// layer is kept so a solution can be read back from the last one.
pub fn differing_solution(
    board: &Board,
    state: &State,
    region: &[u32],
    intended: &impl Fn(usize) -> u8,
    max_states: usize,
    in_region: &mut [bool],
    stop: &impl Fn() -> bool,
) -> Result<Option<Option<Assignment>>, Stopped> {
    if region.is_empty() {
        return Ok(Some(None));
    }
    let Some(shape) = SweepShape::of(board, region, None) else {
        return Ok(None);
    };
    let SweepShape {
        long,
        width,
        back,
        ahead,
        before,
        after,
        ..
    } = shape;
    let cell_at = |i: usize, j: usize| shape.cell(board, i, j);
    for &c in region {
        in_region[c as usize] = true;
    }
    let line_bit = 1u128 << width;
    let differs = 1u128 << 127;
    let hasher = ahash::RandomState::with_seeds(1, 2, 3, 4);
    let new_set = || std::collections::HashSet::with_hasher(hasher.clone());
    // (cell, its column, the keys reachable after it).
    let mut layers: Vec<(
        usize,
        usize,
        std::collections::HashSet<u128, ahash::RandomState>,
    )> = Vec::with_capacity(region.len());
    let mut first = new_set();
    first.insert(0u128);
    let transition = |cell: usize, j: usize, key: u128, m: u8| -> Option<u128> {
        let col_bit = 1u128 << j;
        if in_region[board.neighbour(cell, back)] && (m & bit(back) != 0) != (key & col_bit != 0) {
            return None;
        }
        if in_region[board.neighbour(cell, before)]
            && (m & bit(before) != 0) != (key & line_bit != 0)
        {
            return None;
        }
        let mut k = key & !(col_bit | line_bit);
        if in_region[board.neighbour(cell, ahead)] && m & bit(ahead) != 0 {
            k |= col_bit;
        }
        if j + 1 < width && in_region[board.neighbour(cell, after)] && m & bit(after) != 0 {
            k |= line_bit;
        }
        if m != intended(cell) {
            k |= differs;
        }
        Some(k)
    };
    let masks_of = |cell: usize| {
        let kind = PieceKind::from_code(board.kind[cell]).expect("valid kind");
        let dom = state.domain(cell);
        (0..4u8)
            .filter(move |&o| dom & (1 << o) != 0)
            .map(move |o| kind.mask(o))
    };
    let mut outcome = Ok(Some(None));
    'sweep: for i in 0..long {
        for j in 0..width {
            let cell = cell_at(i, j);
            if !in_region[cell] {
                continue;
            }
            if layers.len().is_multiple_of(64) && stop() {
                outcome = Err(Stopped);
                break 'sweep;
            }
            let prev = layers.last().map_or(&first, |l| &l.2);
            let mut next = new_set();
            for &key in prev {
                for m in masks_of(cell) {
                    if let Some(k) = transition(cell, j, key, m) {
                        next.insert(k);
                    }
                }
            }
            if next.len() > max_states {
                outcome = Ok(None);
                break 'sweep;
            }
            layers.push((cell, j, next));
        }
    }
    if matches!(outcome, Ok(Some(None)))
        && let Some(end) = layers
            .last()
            .and_then(|l| l.2.iter().copied().find(|k| k & differs != 0))
    {
        // Walk back: a predecessor differs from its successor only in the cell's two bits and,
        // when this cell is where the difference starts, the flag.
        let mut out = Vec::with_capacity(layers.len());
        let mut key = end;
        for t in (0..layers.len()).rev() {
            let (cell, j, _) = layers[t];
            let prev = if t == 0 { &first } else { &layers[t - 1].2 };
            let col_bit = 1u128 << j;
            let base = key & !(col_bit | line_bit);
            let mut found = None;
            'pred: for bits in [0, col_bit, line_bit, col_bit | line_bit] {
                for flag in [key & differs, 0] {
                    let p = (base & !differs) | bits | flag;
                    if !prev.contains(&p) {
                        continue;
                    }
                    for m in masks_of(cell) {
                        if transition(cell, j, p, m) == Some(key) {
                            found = Some((p, m));
                            break 'pred;
                        }
                    }
                }
            }
            let (p, m) = found.expect("every reachable key has a predecessor");
            out.push((cell as u32, m));
            key = p;
        }
        outcome = Ok(Some(Some(out)));
    }
    for &c in region {
        in_region[c as usize] = false;
    }
    outcome
}

//! The first propagation pass over a fresh grid, built for grids of hundreds of millions of
//! cells. Propagation is monotone, so every order of revisions reaches the same fixed point
//! (the largest domains in which every cell is supported by its neighbours); this pass picks a
//! cheap order. Two queue-free sweeps revise every cell once each: forwards, row by row from
//! the top, against side bytes of the row above (already revised), its own row and the row
//! below, which small row buffers hold (one table look-up per neighbour, no queue, no branch);
//! then backwards from the bottom-right corner, which carries the narrowings the forward
//! sweep could only pass east and south back north and west. Only a cell whose narrowing in
//! the backward sweep changes what an already revised neighbour (south or east) sees queues
//! that neighbour, and the worklist runs for those cells alone: on random 1024x1024 levels it
//! revises 0.26 cells per cell instead of 0.70 after the forward sweep alone, on mazes 0.06
//! instead of 0.54. The sweeps run on horizontal stripes in parallel (rayon): a stripe's
//! edge rows see their outer neighbours at full domains, so both rows at each stripe border
//! are queued again afterwards, which reconciles the stripes. Each stripe also runs its own
//! worklist to its own fixed point first, so only what crosses a stripe border is left to the
//! last, sequential worklist. The queued mark is the top bit of a cell's domain byte: no
//! extra array. [`first_pass`] gives the same domains as [`State::propagate_all`].

use crate::par::*;

use super::board::Board;
use super::state::State;
use super::tables::{FULL_DOMAIN, KEEP, SIDES};
use crate::model::direction::opposite;

/// Marks a cell already in the worklist (domains use the low four bits).
const QUEUED: u8 = 0x80;
/// Rows per stripe are at least this many, so the border rows re-queued stay a small share.
#[cfg(any(feature = "parallel", test))]
const MIN_STRIPE_ROWS: usize = 64;

/// `SIDE_BYTE[kind * 16 + domain]` = may | must << 4: what a cell may and must connect.
const SIDE_BYTE: [u8; 96] = {
    let mut t = [0u8; 96];
    let mut i = 0;
    while i < 96 {
        t[i] = SIDES[i].0 | SIDES[i].1 << 4;
        i += 1;
    }
    t
};

/// `REQ[side][b]`: the requirement (on | off << 4, as `KEEP` indexes it) that a neighbour with
/// side byte `b` across `side` puts on our side `side`.
const REQ: [[u8; 256]; 4] = {
    let mut t = [[0u8; 256]; 4];
    let mut side = 0;
    while side < 4 {
        let theirs = 1u8 << opposite(side);
        let mut b = 0;
        while b < 256 {
            let (may, must) = (b as u8 & 0xF, (b >> 4) as u8);
            let on = ((must & theirs != 0) as u8) << side;
            let off = ((may & theirs == 0) as u8) << side;
            t[side][b] = on | off << 4;
            b += 1;
        }
        side += 1;
    }
    t
};

/// `KEEP_SIDE[kind * 256 + req]` = the side byte of `KEEP[kind * 256 + req]`: the sweep's
/// chain from one cell to its east neighbour then costs one look-up, not two.
const KEEP_SIDE: [u8; 1536] = {
    let mut t = [0u8; 1536];
    let mut i = 0;
    while i < 1536 {
        t[i] = SIDE_BYTE[(i / 256) * 16 + (KEEP[i] & 0xF) as usize];
        i += 1;
    }
    t
};

/// `REQ[3][b]` by arithmetic (the west neighbour's east side: bit 1 of may, bit 5 of must),
/// off the sweep's critical path of memory look-ups.
#[inline(always)]
fn west_req(b: u8) -> u8 {
    let on = (b >> 5) & 1;
    let off = ((b >> 1) & 1) ^ 1;
    on << 3 | off << 7
}

/// `REQ[1][b]` by arithmetic (the east neighbour's west side: bit 3 of may, bit 7 of must),
/// for the backward sweep's chain.
#[inline(always)]
fn east_req(b: u8) -> u8 {
    let on = (b >> 7) & 1;
    let off = ((b >> 3) & 1) ^ 1;
    on << 1 | off << 5
}

#[inline(always)]
fn side_byte(kind: u8, dom: u8) -> u8 {
    SIDE_BYTE[kind as usize * 16 + (dom & 0xF) as usize]
}

#[inline(always)]
fn undecided(dom: u8) -> bool {
    let d = dom & 0xF;
    d & d.wrapping_sub(1) != 0
}

/// 1 when a cell of domain byte `dom` is to be queued once a neighbour changes the side they
/// share: undecided and not queued yet; else 0.
#[inline(always)]
fn queueable(dom: u8) -> u8 {
    u8::from(undecided(dom)) & !(dom >> 7) & 1
}

/// The domain byte a ring cell of `kind` starts with: an empty cell (the border) fixed at
/// orientation 0, or any other kind (a stand-in for the cell across a seam, see
/// [`first_pass_wrapped`]) at its full domain, marked queued for good so no revision ever
/// narrows it.
#[inline(always)]
fn ring_domain(kind: u8) -> u8 {
    if kind == 0 {
        FULL_DOMAIN[0]
    } else {
        FULL_DOMAIN[kind as usize] | QUEUED
    }
}

/// Makes room for `n` more writes above `top` in a stack that is written above its top
/// always and counted only when wanted (see [`run_worklist`]).
#[inline(always)]
fn make_room(stack: &mut Vec<u32>, top: usize, n: usize) {
    if stack.len() < top + n {
        let grown = (top + n).max(2 * stack.len());
        stack.resize(grown, 0);
    }
}

/// The first pass on the current rayon pool, in about four stripes per thread.
#[cfg(feature = "parallel")]
fn first_pass_until(board: &Board, halted: &(dyn Fn() -> bool + Sync)) -> (State, Option<bool>) {
    let stripes = crate::par::current_num_threads().max(1) * 4;
    let rows = board.height.div_ceil(stripes).max(MIN_STRIPE_ROWS);
    first_pass_striped_until(board, rows, halted)
}

/// The first propagation pass on `threads` threads (a pool of its own when the grid has rows
/// enough for several stripes, the calling thread otherwise) that gives up (`None`, the state then half-propagated) once `halted`
/// says so: read between the sweep and the worklist and every 65,536 revisions, so a timeout
/// is not held up by a huge grid's first pass.
pub fn first_pass_on_until(
    board: &Board,
    threads: usize,
    halted: &(dyn Fn() -> bool + Sync),
) -> (State, Option<bool>) {
    #[cfg(feature = "parallel")]
    if threads > 1
        && board.height >= 2 * MIN_STRIPE_ROWS
        && let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build()
    {
        return pool.install(|| first_pass_until(board, halted));
    }
    #[cfg(not(feature = "parallel"))]
    let _ = threads;
    first_pass_striped_until(board, usize::MAX, halted)
}

/// The first pass of a square board that wraps ([`Board::wrapped`]; the padded board of
/// `wrapped`'s kinds without its table is `plain`): the pass above runs on `plain` with
/// the ring cells on the wrapped sides standing in for the cells across the seams at their
/// full domains (never narrowed: a weaker constraint than the real cells', so nothing is
/// removed that the wrapped board keeps), then the cells along the seams are revised again
/// on the wrapped board, whose worklist carries what the seams change to the fixed point.
/// The domains are those of [`State::propagate_all`] on the wrapped board.
pub fn first_pass_wrapped(
    wrapped: &Board,
    (wrap_rows, wrap_cols): (bool, bool),
    threads: usize,
    halted: &(dyn Fn() -> bool + Sync),
) -> (State, Option<bool>) {
    let (h, w, stride) = (wrapped.height, wrapped.width, wrapped.stride);
    let mut kind = wrapped.kind.clone();
    // T at its full domain connects or not on every side: no constraint at all.
    const STAND_IN: u8 = 3;
    let rows = (0..stride).chain((h + 1) * stride..kind.len());
    let cols = (1..=h).flat_map(|r| [r * stride, r * stride + w + 1]);
    if wrap_rows {
        rows.for_each(|i| kind[i] = STAND_IN);
    }
    if wrap_cols {
        cols.for_each(|i| kind[i] = STAND_IN);
    }
    let plain = Board::from_padded(h, w, kind);
    let (state, ok) = first_pass_on_until(&plain, threads, halted);
    drop(plain);
    let mut dom = state.into_domains();
    let ring = (0..stride)
        .chain((h + 1) * stride..dom.len())
        .chain((1..=h).flat_map(|r| [r * stride, r * stride + w + 1]));
    for i in ring {
        dom[i] = FULL_DOMAIN[0];
    }
    let mut state = State::with_domains(wrapped, dom);
    if ok != Some(true) {
        return (state, ok);
    }
    let mut seams: Vec<usize> = Vec::new();
    if wrap_rows {
        seams.extend((0..w).flat_map(|c| [wrapped.cell(0, c), wrapped.cell(h - 1, c)]));
    }
    if wrap_cols {
        seams.extend((0..h).flat_map(|r| [wrapped.cell(r, 0), wrapped.cell(r, w - 1)]));
    }
    let ok = state.propagate_from_until(wrapped, seams, &|| halted());
    (state, ok)
}

/// [`first_pass`] with stripes of `stripe_rows` rows (tests use thin stripes to make chains
/// cross many stripe borders).
pub fn first_pass_striped(board: &Board, stripe_rows: usize) -> (State, bool) {
    let (state, ok) = first_pass_striped_until(board, stripe_rows, &|| false);
    (state, ok.expect("never halted"))
}

fn first_pass_striped_until(
    board: &Board,
    stripe_rows: usize,
    halted: &(dyn Fn() -> bool + Sync),
) -> (State, Option<bool>) {
    let (h, stride) = (board.height, board.stride);
    let stripe_rows = stripe_rows.clamp(1, h.max(1));
    let mut dom = vec![0u8; board.len()];
    // The ring rows: empty cells fixed at orientation 0, or stand-ins across a seam.
    for i in (0..stride).chain((h + 1) * stride..board.len()) {
        dom[i] = ring_domain(board.kind[i]);
    }
    let swept: Vec<Option<bool>> = dom[stride..(h + 1) * stride]
        .par_chunks_mut(stripe_rows * stride)
        .enumerate()
        .map(|(k, chunk)| stripe_fixed_point(board, k * stripe_rows, chunk, halted))
        .collect();
    let mut queue = Vec::new();
    // A wipe-out anywhere settles it (a stripe's fixed point holds the whole grid's), else a
    // halt.
    let mut ok = Some(true);
    for s in swept {
        ok = match (ok, s) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (None, _) | (_, None) => None,
            _ => Some(true),
        };
    }
    if ok == Some(true) && halted() {
        ok = None;
    }
    if ok == Some(true) {
        // Each stripe saw the rows just outside it at full domains: revise both rows at every
        // stripe border again, now that both sides are swept.
        for top in (stripe_rows..h).step_by(stripe_rows) {
            for row in [top - 1, top] {
                let first = board.cell(row, 0);
                for (x, d) in dom[first..first + board.width].iter_mut().enumerate() {
                    if undecided(*d) && *d & QUEUED == 0 {
                        *d |= QUEUED;
                        queue.push((first + x) as u32);
                    }
                }
            }
        }
        ok = run_worklist(board, &mut dom, 0, &mut queue, halted);
    }
    for &c in &queue {
        dom[c as usize] &= !QUEUED;
    }
    (State::with_domains(board, dom), ok)
}

/// Brings the game rows `first_row..` held in `chunk` (whole padded rows, ring columns
/// included) to their own fixed point, the rows outside seen at full domains: the two sweeps,
/// then the worklist on what the second queued. `Some(false)` on a wipe-out, `None` when
/// halted; no cell is left marked queued.
fn stripe_fixed_point(
    board: &Board,
    first_row: usize,
    chunk: &mut [u8],
    halted: &(dyn Fn() -> bool + Sync),
) -> Option<bool> {
    let swept = sweep_stripe(board, first_row, chunk);
    let Some(mut queue) = swept.then(|| sweep_back(board, first_row, chunk)).flatten() else {
        for d in chunk.iter_mut() {
            *d &= !QUEUED;
        }
        return Some(false);
    };
    let base = (first_row + 1) * board.stride;
    let ok = run_worklist(board, chunk, base, &mut queue, halted);
    for &c in &queue {
        chunk[c as usize - base] &= !QUEUED;
    }
    ok
}

/// Side bytes of full domains for the padded row `padded`.
fn full_row(board: &Board, padded: usize, out: &mut Vec<u8>) {
    let stride = board.stride;
    let kinds = &board.kind[padded * stride..(padded + 1) * stride];
    out.clear();
    out.extend(kinds.iter().map(|&k| side_byte(k, FULL_DOMAIN[k as usize])));
}

/// Sweeps the game rows `first_row..` held in `chunk` (whole padded rows, ring columns
/// included) forwards from full domains, writing every domain. False on a wipe-out.
fn sweep_stripe(board: &Board, first_row: usize, chunk: &mut [u8]) -> bool {
    let (w, stride) = (board.width, board.stride);
    let kind = &board.kind;
    let (mut above, mut here, mut below) = (Vec::new(), Vec::new(), Vec::new());
    full_row(board, first_row, &mut above);
    full_row(board, first_row + 1, &mut here);
    for (i, row) in chunk.chunks_exact_mut(stride).enumerate() {
        let padded = first_row + i + 1;
        full_row(board, padded + 1, &mut below);
        let kinds = &kind[padded * stride..(padded + 1) * stride];
        row[0] = ring_domain(kinds[0]);
        row[w + 1] = ring_domain(kinds[w + 1]);
        // Branch-free body: on random levels a quarter of the cells narrow, at random, so
        // every data-dependent branch here would be mispredicted that often.
        // The west neighbour's new side byte stays in a register: the loop-carried chain is
        // then two shifts and one look-up per cell.
        let mut west = here[0];
        let mut wiped = false;
        for x in 1..=w {
            let k = kinds[x] as usize;
            let at = k * 256
                + (REQ[0][above[x] as usize]
                    | REQ[1][here[x + 1] as usize]
                    | REQ[2][below[x] as usize]) as usize;
            // The three side bytes this cell can get, one per state of its west neighbour's
            // east side (off, free, on), looked up before that neighbour is known; the chain
            // from one cell to the next is then a shift, not a look-up.
            let free = KEEP_SIDE[at];
            let choices = u32::from(KEEP_SIDE[at | 0x80])
                | u32::from(free) << 8
                | u32::from(free) << 16
                | u32::from(KEEP_SIDE[at | 0x08]) << 24;
            let state = (west >> 1 & 1) | (west >> 4 & 2);
            let new = (choices >> (8 * state)) as u8;
            let keep = KEEP[at | usize::from(west_req(west))];
            wiped |= keep == 0;
            row[x] = keep;
            here[x] = new;
            west = new;
        }
        if wiped {
            return false;
        }
        std::mem::swap(&mut above, &mut here);
        std::mem::swap(&mut here, &mut below);
    }
    true
}

/// Sweeps the swept stripe in `chunk` backwards, from its last row's east end, revising every
/// cell against its four neighbours as they are now. Returns the cells to revise again (those
/// whose south or east neighbour, revised before them, narrowed after: marked queued in
/// `chunk`), or `None` on a wipe-out. They are pushed as they are marked, written always and
/// counted when marked, as in [`run_worklist`]: a scan of the stripe for the marks afterwards
/// took a fifth of this sweep on random levels.
fn sweep_back(board: &Board, first_row: usize, chunk: &mut [u8]) -> Option<Vec<u32>> {
    let (w, stride) = (board.width, board.stride);
    let kind = &board.kind;
    let rows = chunk.len() / stride;
    if rows == 0 {
        return Some(Vec::new());
    }
    // Side bytes of stripe row `i` as swept; the rows outside the stripe at full domains.
    let row_bytes = |chunk: &[u8], i: usize, out: &mut Vec<u8>| {
        let padded = first_row + 1 + i;
        let kinds = &kind[padded * stride..(padded + 1) * stride];
        let doms = &chunk[i * stride..(i + 1) * stride];
        out.clear();
        out.extend(kinds.iter().zip(doms).map(|(&k, &d)| side_byte(k, d)));
    };
    let (mut above, mut here, mut below) = (Vec::new(), Vec::new(), Vec::new());
    full_row(board, first_row + rows + 1, &mut below);
    row_bytes(chunk, rows - 1, &mut here);
    // Stands in for the row below the stripe's last row (another stripe's, whose border rows
    // are queued again after the sweeps anyway).
    let mut outside = vec![0u8; stride];
    let base = (first_row + 1) * stride;
    let mut queue: Vec<u32> = Vec::new();
    let mut top = 0;
    for i in (0..rows).rev() {
        match i {
            0 => full_row(board, first_row, &mut above),
            _ => row_bytes(chunk, i - 1, &mut above),
        }
        let padded = first_row + i + 1;
        let kinds = &kind[padded * stride..(padded + 1) * stride];
        let (upto, after) = chunk.split_at_mut((i + 1) * stride);
        let row = &mut upto[i * stride..];
        // The last row's south marks go to `outside` and are not queued.
        let (down, south_in): (&mut [u8], u8) = match after.get_mut(..stride) {
            Some(down) => (down, 1),
            None => (&mut outside, 0),
        };
        make_room(&mut queue, top, 2 * w);
        let (east_at, south_at) = (base + i * stride + 1, base + (i + 1) * stride);
        // As in the forward sweep, the new side byte of the east neighbour stays in a
        // register and the marks are set without a branch.
        let mut east = here[w + 1];
        let mut wiped = false;
        for x in (1..=w).rev() {
            // A decided cell keeps its support: its east and south neighbours were revised
            // against it in this sweep, its north and west ones will be. Skipping it (most
            // cells of a loops level) leaves the fixed point as it is.
            if !undecided(row[x]) {
                east = here[x];
                continue;
            }
            let k = kinds[x] as usize;
            let req = (REQ[0][above[x] as usize]
                | east_req(east)
                | REQ[2][below[x] as usize]
                | REQ[3][here[x - 1] as usize]) as usize;
            let keep = row[x] & KEEP[k * 256 + req];
            wiped |= keep == 0;
            row[x] = keep;
            let new = side_byte(k as u8, keep);
            let diff = here[x] ^ new;
            here[x] = new;
            east = new;
            let changed = diff | diff >> 4;
            // West and north are revised later in this sweep and see the change; east and
            // south were revised already: mark them for the worklist when undecided.
            let d = row[x + 1];
            let e = (changed >> 1) & queueable(d);
            row[x + 1] = d | e << 7;
            queue[top] = (east_at + x) as u32;
            top += usize::from(e);
            let d = down[x];
            let south = (changed >> 2) & queueable(d);
            down[x] = d | south << 7;
            queue[top] = (south_at + x) as u32;
            top += usize::from(south & south_in);
        }
        if wiped {
            return None;
        }
        std::mem::swap(&mut below, &mut here);
        std::mem::swap(&mut here, &mut above);
    }
    queue.truncate(top);
    Some(queue)
}

/// Revises the queued cells (marked in `dom`, which holds the padded cells from `base` on) to
/// a fixed point. A neighbour outside `dom` (another stripe's, being revised meanwhile) is
/// seen at its full domain and never queued: the stripe border rows are revised again once
/// every stripe is done. False on a wipe-out, with the remaining queue left for the caller to
/// unmark.
///
/// The queue is a stack held in `queue` with its own top: a neighbour is written above the
/// top always and counted only when it is to be queued. Which sides of a narrowed cell changed,
/// and whether the neighbour there is undecided, are coin tosses on random levels and mazes;
/// as branches they were mispredicted about twice per revision. Same pushes in the same order
/// as pushing under `if`, so the same revisions.
fn run_worklist(
    board: &Board,
    dom: &mut [u8],
    base: usize,
    queue: &mut Vec<u32>,
    halted: &(dyn Fn() -> bool + Sync),
) -> Option<bool> {
    let kind = &board.kind;
    let step = board.step;
    let len = dom.len();
    // One well-predicted compare: below `base` wraps to a huge index.
    let sb = |dom: &[u8], c: usize| {
        let (k, i) = (kind[c], c.wrapping_sub(base));
        side_byte(
            k,
            if i < len {
                dom[i]
            } else {
                FULL_DOMAIN[k as usize]
            },
        )
    };
    let mut top = queue.len();
    let mut revised = 0u32;
    let ok = loop {
        if top == 0 {
            break Some(true);
        }
        revised = revised.wrapping_add(1);
        if revised & 0xFFFF == 0 && halted() {
            break None;
        }
        top -= 1;
        let c = queue[top] as usize;
        let i = c - base;
        dom[i] &= !QUEUED;
        let old = dom[i];
        let req = REQ[0][sb(dom, c.wrapping_add_signed(step[0])) as usize]
            | REQ[1][sb(dom, c.wrapping_add_signed(step[1])) as usize]
            | REQ[2][sb(dom, c.wrapping_add_signed(step[2])) as usize]
            | REQ[3][sb(dom, c.wrapping_add_signed(step[3])) as usize];
        let k = kind[c];
        let keep = old & KEEP[k as usize * 256 + req as usize];
        if keep == old {
            continue;
        }
        if keep == 0 {
            // The popped cell stays unqueued, as `pop` left it.
            break Some(false);
        }
        dom[i] = keep;
        let diff = side_byte(k, old) ^ side_byte(k, keep);
        let changed = diff | diff >> 4;
        make_room(queue, top, 4);
        for (side, &s) in step.iter().enumerate() {
            let nb = c.wrapping_add_signed(s);
            let j = nb.wrapping_sub(base);
            // Outside `dom`: another stripe's cell, never queued from here.
            if j < len {
                let d = dom[j];
                let wanted = (changed >> side) & queueable(d);
                dom[j] = d | wanted << 7;
                queue[top] = nb as u32;
                top += usize::from(wanted);
            }
        }
    };
    queue.truncate(top);
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, MazeAlgorithm, generate};
    use crate::model::{Game, Piece, PieceKind};

    #[test]
    fn the_wrapped_pass_reaches_the_worklists_fixed_point_on_the_wrapped_board() {
        let families = [
            Family::Random,
            Family::Dominoes,
            Family::Loops,
            Family::Mixed,
            Family::Maze(MazeAlgorithm::Kruskal),
        ];
        let (mut narrowed_by_seams, mut refuted) = (0, 0);
        let mut rng = fastrand::Rng::with_seed(33);
        for (n, family) in families.into_iter().cycle().take(40).enumerate() {
            // Tall boards are cut into stripes (two threads, 64 rows or more each).
            let (h, w) = [(9, 6), (5, 12), (140, 6), (131, 4)][n % 4];
            let mut o = GenerateOptions::new(h, w, n as u64);
            o.family = family;
            let mut cells = generate(&o).cells().to_vec();
            if n % 3 == 0 {
                let i = rng.usize(..cells.len());
                cells[i] = Piece::new(PieceKind::from_code(rng.u8(0..6)).unwrap(), 0);
            }
            let game = Game::from_cells(h, w, cells);
            for wrap in [(true, true), (true, false), (false, true)] {
                let board = Board::wrapped(&game, wrap.0, wrap.1);
                let mut want = State::new(&board);
                let want_ok = want.propagate_all(&board);
                let (got, ok) = first_pass_wrapped(&board, wrap, 2, &|| false);
                assert_eq!(ok, Some(want_ok), "#{n} {wrap:?}");
                refuted += usize::from(!want_ok);
                if want_ok {
                    assert_eq!(got.dom, want.dom, "#{n} {wrap:?}");
                    let (bounded, _) = first_pass_striped(&Board::new(&game), usize::MAX);
                    narrowed_by_seams += usize::from(bounded.dom != got.dom);
                }
            }
        }
        assert!(
            narrowed_by_seams > 40 && refuted > 5,
            "{narrowed_by_seams} {refuted}"
        );
    }

    /// The reference: the state's own first pass.
    fn reference(game: &Game) -> (Vec<u8>, bool) {
        let board = Board::new(game);
        let mut state = State::new(&board);
        let ok = state.propagate_all(&board);
        (state.dom, ok)
    }

    fn assert_same(game: &Game, what: &str) {
        let board = Board::new(game);
        let (want, want_ok) = reference(game);
        for rows in [1, 2, 3, 7, MIN_STRIPE_ROWS, usize::MAX / 2] {
            let (state, ok) = first_pass_striped(&board, rows);
            assert_eq!(ok, want_ok, "{what}, stripes of {rows} rows");
            if ok {
                assert!(
                    state.dom == want,
                    "{what}, stripes of {rows} rows: domains differ"
                );
            }
        }
    }

    #[test]
    fn sweep_shortcuts_match_their_tables() {
        for b in 0..=255u8 {
            assert_eq!(west_req(b), REQ[3][b as usize], "side byte {b:#x}");
            assert_eq!(east_req(b), REQ[1][b as usize], "side byte {b:#x}");
        }
        for i in 0..1536 {
            assert_eq!(
                KEEP_SIDE[i],
                side_byte((i / 256) as u8, KEEP[i]),
                "entry {i}"
            );
        }
    }

    #[test]
    fn same_fixed_point_as_propagate_all_on_every_family() {
        let mut families = vec![
            Family::Random,
            Family::Dominoes,
            Family::Loops,
            Family::Mixed,
        ];
        families.extend(MazeAlgorithm::ALL.map(Family::Maze));
        for family in families {
            for &(h, w) in &[(1, 1), (1, 9), (9, 1), (5, 5), (17, 23), (64, 40)] {
                for seed in 0..6 {
                    let mut o = GenerateOptions::new(h, w, seed);
                    o.family = family;
                    let game = generate(&o);
                    assert_same(&game, &format!("{} {h}x{w} seed {seed}", family.name()));
                }
            }
        }
    }

    #[test]
    fn same_verdict_and_domains_on_arbitrary_shapes() {
        // Random kinds: mostly inconsistent levels, where the wipe-out must be found too.
        let mut rng = fastrand::Rng::with_seed(7);
        for n in 0..400 {
            let (h, w) = (rng.usize(1..9), rng.usize(1..9));
            let weights = [3, 2, 3, 1, 1, 3];
            let cells = (0..h * w)
                .map(|_| {
                    let mut r = rng.usize(..13);
                    let mut k = 0;
                    while r >= weights[k] {
                        r -= weights[k];
                        k += 1;
                    }
                    Piece::new(PieceKind::ALL[k], 0)
                })
                .collect();
            assert_same(&Game::from_cells(h, w, cells), &format!("shapes #{n}"));
        }
    }

    /// A solved spiral through every cell of an n x n grid, from the top-left corner inwards:
    /// the border forces it ring by ring, a chain that crosses every stripe border many times,
    /// upwards along the left side of each ring.
    fn spiral(n: usize) -> Game {
        let mut path = Vec::with_capacity(n * n);
        let (mut top, mut left, mut bottom, mut right) =
            (0isize, 0isize, n as isize - 1, n as isize - 1);
        while top <= bottom && left <= right {
            path.extend((left..=right).map(|c| (top, c)));
            path.extend((top + 1..=bottom).map(|r| (r, right)));
            if top < bottom {
                path.extend((left..right).rev().map(|c| (bottom, c)));
            }
            if left < right {
                path.extend((top + 1..bottom).rev().map(|r| (r, left)));
            }
            (top, left, bottom, right) = (top + 1, left + 1, bottom - 1, right - 1);
        }
        let mut masks = vec![0u8; n * n];
        for pair in path.windows(2) {
            let ((r0, c0), (r1, c1)) = (pair[0], pair[1]);
            let side = match (r1 - r0, c1 - c0) {
                (-1, 0) => 0,
                (0, 1) => 1,
                (1, 0) => 2,
                _ => 3,
            };
            masks[r0 as usize * n + c0 as usize] |= 1 << side;
            masks[r1 as usize * n + c1 as usize] |= 1 << opposite(side);
        }
        Game::from_cells(n, n, masks.iter().map(|&m| Piece::from_mask(m)).collect())
    }

    #[test]
    fn a_halted_pass_leaves_no_cell_marked_queued() {
        // A random level whose worklists look at the halt flag several times (every 65,536
        // revisions, and once after the sweeps), halted at each of those looks, on one stripe
        // and on several: the cells still queued must be unmarked.
        let game = generate(&GenerateOptions::new(640, 1024, 5));
        let board = Board::new(&game);
        let (want, _) = reference(&game);
        for rows in [usize::MAX, 100] {
            let calls = std::sync::atomic::AtomicUsize::new(0);
            let count = || {
                calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                false
            };
            let (state, ok) = first_pass_striped_until(&board, rows, &count);
            assert!(
                ok == Some(true) && state.dom == want,
                "stripes of {rows} rows"
            );
            let looks = calls.into_inner();
            // One stripe's worklist runs long enough to look twice or more; thin stripes'
            // are short, and the pass looks once after them.
            let least = if rows == usize::MAX { 3 } else { 1 };
            assert!(
                looks >= least,
                "stripes of {rows} rows: {looks} looks at the flag"
            );
            for halt_at in 1..=looks {
                let calls = std::sync::atomic::AtomicUsize::new(0);
                let halted =
                    || calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1 >= halt_at;
                let (state, ok) = first_pass_striped_until(&board, rows, &halted);
                let what = format!("stripes of {rows} rows, halted at look {halt_at}");
                assert_eq!(ok, None, "{what}");
                assert!(state.dom.iter().all(|&d| d & QUEUED == 0), "{what}");
            }
        }
    }

    #[test]
    fn stripes_reconcile_chains_that_cross_many_borders() {
        for n in [6, 11, 30, 57] {
            let game = spiral(n);
            assert!(crate::check::is_solved(&game), "spiral {n}");
            assert_same(&game, &format!("spiral {n}"));
            let (state, ok) = first_pass_striped(&Board::new(&game), 2);
            assert!(ok);
            // The corridor is forced from its dead end: everything is fixed.
            let board = Board::new(&game);
            assert!(board.cells().all(|c| state.is_fixed(c)), "spiral {n}");
        }
        // Long vertical corridors: straights between dead ends, one per column.
        let h = 50;
        let mut cells = Vec::new();
        for r in 0..h {
            for c in 0..9 {
                let m = match r {
                    0 => 0b0100,
                    _ if r == h - 1 => 0b0001,
                    _ => 0b0101,
                };
                cells.push(Piece::from_mask(if c % 2 == 0 { m } else { 0 }));
            }
        }
        assert_same(&Game::from_cells(h, 9, cells), "corridors");
    }
}

//! Levels with exactly one solution, made the way SGT Net makes them: build a random solved
//! grid, then let the engine find where it is ambiguous and change the grid only there,
//! instead of drawing whole levels until one happens to be unique.
//!
//! Each round propagates the level given by the current solved grid, splits the undecided
//! cells into independent regions and, in each, searches for a solution that differs from the
//! intended one (the frontier sweep of [`crate::count::frontier::differing_solution`] for narrow
//! regions, else the counting search). Where one exists, a side on which the two disagree is
//! changed in the intended grid, in a way that keeps the family:
//! - a perfect maze swaps one passage for another ([`super::maze_repair`]): still a spanning
//!   tree;
//! - dominoes and mazes never lose a connection that would leave a cell empty; loops flip the
//!   four sides of a unit square, which keeps every piece's number of connections even;
//! - with `--nbcc`/`--nbcc-exact` a change that breaks the component count is not made.
//!
//! Rounds repeat until every region has one solution. Regions already proved unique are
//! remembered exactly (cells, shapes and domains), so later rounds only search what changed.
//! A round after one that changed the grid looks only around the alternatives it changed
//! (the rest held at the intended grid: 512x512 dominoes spent 150-200 ms a round on
//! propagation and the flow filter over the whole grid, for 173 rounds); the level is only
//! returned once a round over the whole grid finds nothing.
//! The effort is bounded by a work budget counted in search steps, not by a clock: the same
//! options give the same level, or the same error, on any machine.

use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;

use super::components::count_components;
use super::maze_repair::{TreeScratch, swap_tree_edge};
use super::random_level::{Family, GenerateOptions, generate_with_solution, scramble};
use crate::count::counter::{Counter, Stopped};
use crate::count::flow_prune;
use crate::count::frontier::{differing_solution, frontier_width};
use crate::model::direction::{E, S, bit, opposite};
use crate::model::{Game, Piece, PieceKind};
use crate::solve::{
    Board, ProbeEnd, Start, State, find_regions, orientation_of, probe_beside, witness_of,
};

/// Rounds of "search, then change every ambiguous region once" before giving up.
pub const MAX_ROUNDS: usize = 500;

/// Work after which [`generate_unique`] gives up, in stop checks of the searches (one per 256
/// search nodes, or per 64 cells of a frontier sweep). A deterministic bound: whether a seed
/// succeeds does not depend on the machine or its load.
pub const WORK_BUDGET: u64 = 400_000;

/// Regions at most this wide are searched with the frontier sweep, if their frontier stays
/// below [`FRONTIER_STATES`] keys.
const FRONTIER_WIDTH: usize = 40;
const FRONTIER_STATES: usize = 1 << 16;

/// Mixed into the seed for the changes and the final turning of the pieces.
const UNIQUE_STREAM: u64 = 0x9E37_79B9_7F4A_7C15;

/// A level with exactly one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniqueLevel {
    /// The only solution.
    pub solution: Game,
    /// The same pieces turned at random.
    pub level: Game,
    /// What it took to make the level unique.
    pub stats: UniqueStats,
}

/// Work done by the uniqueness generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniqueStats {
    /// Rounds of changes made before the level was unique.
    pub rounds: usize,
    /// Changes made to the solved grid (a side flipped, a square flipped or a passage swapped).
    pub changes: usize,
    /// Region searches run (regions proved unique earlier are not searched again).
    pub regions_counted: usize,
}

/// Why no unique level was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniqueError {
    /// Rounds of changes made before giving up.
    pub rounds: usize,
    /// Regions that still had several solutions.
    pub ambiguous: usize,
    /// Set when `WORK_BUDGET` ran out (a region's search took too long).
    pub out_of_budget: bool,
}

impl fmt::Display for UniqueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.out_of_budget {
            return write!(
                f,
                "could not make the level unique: the search ran out of its work budget ({} steps) in round {}; a region of this size and family is too hard to search",
                WORK_BUDGET, self.rounds
            );
        }
        write!(
            f,
            "could not make the level unique: {} region(s) still have several solutions after {} rounds of changes that keep the family",
            self.ambiguous, self.rounds
        )
    }
}

impl std::error::Error for UniqueError {}

/// What a change to the solved grid must keep.
struct Rules {
    /// A spanning tree: repaired by passage swaps.
    tree: bool,
    /// No connection may be removed from a piece that has only that one.
    keep_nonempty: bool,
    /// Flip unit squares (every piece keeps the parity of its connections).
    squares: bool,
    max_components: Option<usize>,
    exact_components: Option<usize>,
}

impl Rules {
    fn of(opts: &GenerateOptions) -> Rules {
        let maze = matches!(opts.family, Family::Maze(_));
        Rules {
            tree: maze && opts.braid == 0.0,
            keep_nonempty: maze || matches!(opts.family, Family::Dominoes | Family::Loops),
            squares: opts.family == Family::Loops,
            // A braided maze stays one component.
            max_components: if maze { Some(1) } else { opts.max_components },
            exact_components: opts.exact_components,
        }
    }

    fn components_ok(&self, masks: &[u8], w: usize) -> bool {
        if self.max_components.is_none() && self.exact_components.is_none() {
            return true;
        }
        let n = count_components(masks, w);
        self.max_components.is_none_or(|m| n <= m) && self.exact_components.is_none_or(|e| n == e)
    }
}

/// A level like [`super::generate`] would make from `opts` (same size, family and component
/// bound), changed where needed so that it has exactly one solution. The same options give
/// the same level.
pub fn generate_unique(opts: &GenerateOptions) -> Result<UniqueLevel, UniqueError> {
    let (solved, _) = generate_with_solution(opts);
    let (h, w) = (opts.height, opts.width);
    let mut masks: Vec<u8> = solved.cells().iter().map(|p| p.mask()).collect();
    // Its own stream, so the base grid is exactly the one plain generation builds.
    let mut rng = fastrand::Rng::with_seed(opts.seed ^ UNIQUE_STREAM);
    let rules = Rules::of(opts);
    let mut known_unique: HashSet<Vec<u64>> = HashSet::new();
    let mut stats = UniqueStats::default();
    let mut ambiguous = Vec::new();
    let mut tree = TreeScratch::default();
    let work = Cell::new(0u64);
    let over = || {
        work.set(work.get() + 1);
        work.get() > WORK_BUDGET
    };
    let out_of_budget = |rounds| UniqueError {
        rounds,
        ambiguous: 0,
        out_of_budget: true,
    };
    // After a round that changed the grid, the next looks only around where it worked
    // (`window`, per cell of the grid), the rest held at the intended solution; a level is
    // only returned after a round over the whole grid finds nothing.
    let mut window: Option<Vec<bool>> = None;
    for round in 1..=MAX_ROUNDS {
        stats.rounds = round;
        let game = shapes_of(&masks, h, w);
        let Start {
            board,
            mut state,
            consistent,
        } = Start::new(&game);
        assert!(consistent, "the intended solution satisfies its own shapes");
        if let Some(inside) = &window {
            hold_outside(&board, &mut state, &masks, inside);
        }
        // The flow filter decides every side that lies on no alternating cycle: as the grid
        // nears uniqueness, what is left undecided shrinks to the real ambiguities.
        let regions = flow_prune(&board, &mut state).expect("the intended solution is a solution");
        let mut counter = Counter::new(&board);
        let mut in_region = vec![false; board.len()];
        // Built when a region is first probed: most rounds of small regions never are.
        let witness = std::cell::OnceCell::new();
        ambiguous.clear();
        for r in 0..regions.len() {
            let cells = regions.get(r);
            let key = region_key(&board, &state, cells);
            if known_unique.contains(&key) {
                continue;
            }
            stats.regions_counted += 1;
            let Ok(others) = other_solutions(
                &board,
                &mut state,
                &mut counter,
                cells,
                (&masks, &witness),
                &mut in_region,
                &over,
            ) else {
                return Err(out_of_budget(round));
            };
            if others.is_empty() {
                known_unique.insert(key);
            }
            ambiguous.extend(others);
        }
        if ambiguous.is_empty() && window.take().is_some() {
            continue;
        }
        if ambiguous.is_empty() {
            let solution = shapes_with_masks(&masks, h, w);
            let level = scramble(&masks, h, w, &mut rng);
            return Ok(UniqueLevel {
                solution,
                level,
                stats,
            });
        }
        for other in &ambiguous {
            if change(&board, &mut masks, other, &rules, &mut rng, &mut tree) {
                stats.changes += 1;
            }
        }
        window = Some(around(&board, &ambiguous, window_margin()));
    }
    Err(UniqueError {
        rounds: MAX_ROUNDS,
        ambiguous: ambiguous.len(),
        out_of_budget: false,
    })
}

/// How far around the cells of the last round's alternatives the next round looks.
const WINDOW_MARGIN: usize = 8;

#[cfg(test)]
thread_local! {
    /// The tests' stand-in for [`WINDOW_MARGIN`]: windows too narrow to see every ambiguity,
    /// so that only the closing round over the whole grid keeps the levels unique.
    static TEST_MARGIN: std::cell::Cell<usize> = const { std::cell::Cell::new(WINDOW_MARGIN) };
}

fn window_margin() -> usize {
    #[cfg(test)]
    return TEST_MARGIN.get();
    #[cfg(not(test))]
    WINDOW_MARGIN
}

/// Per cell of the grid, whether it lies within `margin` cells (in both directions) of a
/// cell of an alternative in `ambiguous`.
fn around(board: &Board, ambiguous: &[Vec<(u32, u8)>], margin: usize) -> Vec<bool> {
    let (h, w) = (board.height, board.width);
    let mut inside = vec![false; h * w];
    for &(c, _) in ambiguous.iter().flatten() {
        let (r, col) = board.row_col(c as usize);
        for rr in r.saturating_sub(margin)..(r + margin + 1).min(h) {
            let row = &mut inside[rr * w..(rr + 1) * w];
            row[col.saturating_sub(margin)..(col + margin + 1).min(w)].fill(true);
        }
    }
    inside
}

/// Decides every cell outside `inside` as the intended solution `masks` has it, and
/// propagates: a round then searches only the window, for the cost of the window.
fn hold_outside(board: &Board, state: &mut State, masks: &[u8], inside: &[bool]) {
    for c in board.cells() {
        let g = game_index(board, c);
        if !inside[g] && !state.is_fixed(c) {
            let o = orientation_of(board.kind[c], masks[g]).expect("the grid's own shape");
            state.narrow(board, c, 1 << o);
        }
    }
    let consistent = state.propagate(board);
    assert!(consistent, "the intended solution satisfies its own shapes");
}

/// Changes `masks` so that the alternative `other` ((cell, mask) over a region) is ruled out,
/// following `rules`; false when no allowed change was found this time.
fn change(
    board: &Board,
    masks: &mut [u8],
    other: &[(u32, u8)],
    rules: &Rules,
    rng: &mut fastrand::Rng,
    tree: &mut TreeScratch,
) -> bool {
    let (h, w) = (board.height, board.width);
    let mut sides = Vec::new();
    for &(c, theirs) in other {
        let g = game_index(board, c as usize);
        let ours = masks[g];
        // Both ends of a differing side differ and are in the region: looking east and south
        // from every cell sees each side once.
        for side in [E, S] {
            if (ours ^ theirs) & bit(side) != 0 {
                sides.push((g, side));
            }
        }
    }
    rng.shuffle(&mut sides);
    if rules.tree {
        return sides
            .iter()
            .any(|&(g, side)| swap_tree_edge(masks, h, w, g, side, rng, tree));
    }
    for &(g, side) in &sides {
        let flips = if rules.squares {
            square_flips(g, side, h, w, rng)
        } else {
            vec![(g, side)]
        };
        for group in flips_groups(&flips, rules.squares) {
            for &(a, s) in &group {
                flip(masks, a, s, w);
            }
            let nonempty_ok = !rules.keep_nonempty
                || group
                    .iter()
                    .all(|&(a, s)| masks[a] != 0 && masks[neighbour(a, s, w)] != 0);
            if nonempty_ok && rules.components_ok(masks, w) {
                return true;
            }
            for &(a, s) in &group {
                flip(masks, a, s, w);
            }
        }
    }
    false
}

/// The flips to try as groups: one side alone, or each unit square (four sides) in turn.
fn flips_groups(flips: &[(usize, usize)], squares: bool) -> Vec<Vec<(usize, usize)>> {
    if squares {
        flips.chunks(4).map(<[_]>::to_vec).collect()
    } else {
        flips.iter().map(|&f| vec![f]).collect()
    }
}

/// The sides (as (cell, E or S)) of the unit squares that contain side `(g, side)`, four per
/// square, in random order of squares.
fn square_flips(
    g: usize,
    side: usize,
    h: usize,
    w: usize,
    rng: &mut fastrand::Rng,
) -> Vec<(usize, usize)> {
    let (r, c) = (g / w, g % w);
    // Top-left corners of the squares holding the side.
    let mut corners = Vec::new();
    if side == E {
        if r > 0 {
            corners.push(g - w);
        }
        if r + 1 < h {
            corners.push(g);
        }
    } else {
        if c > 0 {
            corners.push(g - 1);
        }
        if c + 1 < w {
            corners.push(g);
        }
    }
    rng.shuffle(&mut corners);
    let mut out = Vec::new();
    for tl in corners {
        if tl % w + 1 >= w || tl / w + 1 >= h {
            continue;
        }
        out.extend([(tl, E), (tl, S), (tl + 1, S), (tl + w, E)]);
    }
    out
}

fn neighbour(g: usize, side: usize, w: usize) -> usize {
    if side == E { g + 1 } else { g + w }
}

fn flip(masks: &mut [u8], g: usize, side: usize, w: usize) {
    masks[g] ^= bit(side);
    masks[neighbour(g, side, w)] ^= bit(opposite(side));
}

/// The shapes of a solved grid (orientation 0 everywhere).
fn shapes_of(masks: &[u8], h: usize, w: usize) -> Game {
    shapes_with_masks(masks, h, w).shapes_only()
}

fn shapes_with_masks(masks: &[u8], h: usize, w: usize) -> Game {
    Game::from_cells(h, w, masks.iter().map(|&m| Piece::from_mask(m)).collect())
}

/// Row-major game index of a padded cell.
fn game_index(board: &Board, cell: usize) -> usize {
    let (r, c) = board.row_col(cell);
    r * board.width + c
}

/// Everything a region's count depends on: its cells with their shapes and domains (the sides
/// it shares with the rest are decided, and the domains already agree with them).
fn region_key(board: &Board, state: &State, cells: &[u32]) -> Vec<u64> {
    let mut key: Vec<u64> = cells
        .iter()
        .map(|&c| {
            u64::from(c) << 16
                | u64::from(board.kind[c as usize]) << 8
                | u64::from(state.domain(c as usize))
        })
        .collect();
    key.sort_unstable();
    key
}

/// Solutions of `region` other than the one in `masks`, each as (cell, connection mask) over
/// some of its cells (the rest as intended); empty when the intended one is the region's only
/// solution. A region larger than the smallest window is first searched window by window
/// ([`window_alternatives`]), which finds the local ambiguities of a large region many at a
/// time; only when no window has one are the alternatives to the intended orientations
/// (`witness`, by padded cell, built on first use) probed, and what they leave undecided
/// searched part by part: by the frontier sweep when a part is narrow, else by a search that
/// stops at a second solution. Regions under [`PROBED_FROM`] cells are searched whole.
fn other_solutions(
    board: &Board,
    state: &mut State,
    counter: &mut Counter,
    region: &[u32],
    (masks, witness): (&[u8], &std::cell::OnceCell<Vec<u8>>),
    in_region: &mut [bool],
    stop: &impl Fn() -> bool,
) -> Result<Vec<Vec<(u32, u8)>>, Stopped> {
    if region.len() > 16 {
        let found = window_alternatives(board, state, region, masks, stop)?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    if region.len() < PROBED_FROM {
        return other_solution_of(board, state, counter, region, masks, in_region, stop);
    }
    let witness = witness.get_or_init(|| witness_of(board, |g| masks[g]));
    for part in settled_parts(board, state, region, witness, in_region, stop)? {
        let found = other_solution_of(board, state, counter, &part, masks, in_region, stop)?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// Regions of fewer cells are searched without probes first: their search is quick, and
/// probing the many small regions of a random 512x512 level cost a tenth of its generation.
const PROBED_FROM: usize = 64;

/// The parts `region` falls into once every orientation that propagation refutes, all but
/// the intended one of each cell (`witness`), is removed ([`probe_beside`]): where the grid
/// is unique already, every cell is left fixed and no search has to prove it. Every other
/// solution keeps its orientations, so the parts hold the same alternatives.
fn settled_parts(
    board: &Board,
    state: &mut State,
    region: &[u32],
    witness: &[u8],
    seen: &mut [bool],
    stop: &impl Fn() -> bool,
) -> Result<Vec<Vec<u32>>, Stopped> {
    match probe_beside(board, state, region, witness, stop) {
        ProbeEnd::Done => {}
        ProbeEnd::Cancelled => return Err(Stopped),
        ProbeEnd::Infeasible => unreachable!("the intended solution is a solution"),
    }
    let parts = find_regions(board, state, region.iter().map(|&c| c as usize), seen);
    for &c in region {
        seen[c as usize] = false;
    }
    Ok((0..parts.len()).map(|p| parts.get(p).to_vec()).collect())
}

/// A solution of `region` other than the one in `masks` (see [`other_solutions`]), searched
/// for as a whole: by the frontier sweep when the region is narrow, else by a search that
/// stops at a second solution.
fn other_solution_of(
    board: &Board,
    state: &mut State,
    counter: &mut Counter,
    region: &[u32],
    masks: &[u8],
    in_region: &mut [bool],
    stop: &impl Fn() -> bool,
) -> Result<Vec<Vec<(u32, u8)>>, Stopped> {
    let intended = |c: usize| masks[game_index(board, c)];
    if frontier_width(board, region) <= FRONTIER_WIDTH
        && let Some(found) = differing_solution(
            board,
            state,
            region,
            &intended,
            FRONTIER_STATES,
            in_region,
            stop,
        )?
    {
        return Ok(found.into_iter().collect());
    }
    let found = other_solution(board, state, counter, region, masks, stop)?;
    Ok(found.into_iter().collect())
}

/// Stop checks (of 256 search nodes each) a cell's search may take in the second pass of
/// [`other_solution`] (the first allows one, the third sixteen times this, the last any).
const QUICK_CHECKS: u32 = 16;

/// Passes of [`window_alternatives`], cheapest first: (window height, window width, shift of
/// the window grid), with 0 for "the whole bounding box". Small squares are cheap and many
/// (one repair each per round); strips, narrow across and long along, catch long alternating
/// paths at a frontier of their narrow side.
const PASSES: [(usize, usize, usize); 12] = [
    (4, 4, 0),
    (4, 4, 2),
    (8, 8, 0),
    (8, 8, 4),
    (8, 0, 0),
    (0, 8, 0),
    (8, 0, 4),
    (0, 8, 4),
    (12, 0, 0),
    (0, 12, 0),
    (12, 0, 6),
    (0, 12, 6),
];

/// Alternatives found by one pass of [`PASSES`] after which the next passes are not run.
const ENOUGH_PER_ROUND: usize = 24;

/// Alternatives found inside windows of the region's bounding box: the cells just outside a
/// window are fixed as intended, which cuts the window off from the rest, and each part left
/// undecided inside is searched by the frontier sweep. Such an alternative is a solution of the
/// whole level (outside the window it is the intended one). Alternatives that change a cell
/// another already changes are dropped, so all of them can be repaired in the same round.
fn window_alternatives(
    board: &Board,
    state: &State,
    region: &[u32],
    masks: &[u8],
    stop: &impl Fn() -> bool,
) -> Result<Vec<Vec<(u32, u8)>>, Stopped> {
    let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
    for &c in region {
        let (r, col) = board.row_col(c as usize);
        (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(col), c1.max(col));
    }
    let mut found = Vec::new();
    let mut taken = vec![false; board.len()];
    for (wh, ww, off) in PASSES {
        let (wh, ww) = (
            if wh == 0 { r1 - r0 + 1 } else { wh },
            if ww == 0 { c1 - c0 + 1 } else { ww },
        );
        let (roff, coff) = (
            if wh > off { off } else { 0 },
            if ww > off { off } else { 0 },
        );
        for rs in (r0.saturating_sub(roff)..=r1).step_by(wh) {
            for cs in (c0.saturating_sub(coff)..=c1).step_by(ww) {
                let (re, ce) = ((rs + wh).min(r1 + 1), (cs + ww).min(c1 + 1));
                for alt in search_window(board, state, masks, (rs, re), (cs, ce), stop)? {
                    // Only alternatives that touch no cell an earlier one changes: each
                    // repair then rules its own alternative out.
                    let changed = |&&(c, m): &&(u32, u8)| m != masks[game_index(board, c as usize)];
                    if alt.iter().filter(changed).any(|&(c, _)| taken[c as usize]) {
                        continue;
                    }
                    for &(c, _) in alt.iter().filter(changed) {
                        taken[c as usize] = true;
                    }
                    found.push(alt);
                }
            }
        }
        // A few repairs per round are worth a new round; fewer, and the larger windows of the
        // next passes are searched too.
        if found.len() >= ENOUGH_PER_ROUND {
            break;
        }
    }
    Ok(found)
}

/// Alternatives inside one window (game rows `rows.0..rows.1`, columns `cols.0..cols.1`),
/// searched on a small board of its own: the window with a ring of cells fixed as intended
/// around it (cells off the grid are empty), so the work is the window's size, not the region's.
fn search_window(
    board: &Board,
    state: &State,
    masks: &[u8],
    rows: (usize, usize),
    cols: (usize, usize),
    stop: &impl Fn() -> bool,
) -> Result<Vec<Vec<(u32, u8)>>, Stopped> {
    let (h, w) = (rows.1 - rows.0 + 2, cols.1 - cols.0 + 2);
    let stride = w + 2;
    // Sub-board real cell (i, j) is game cell (rows.0 + i - 1, cols.0 + j - 1).
    let global = |i: usize, j: usize| {
        let (r, c) = ((rows.0 + i).checked_sub(1)?, (cols.0 + j).checked_sub(1)?);
        (r < board.height && c < board.width).then(|| board.cell(r, c))
    };
    let mut kind = vec![0u8; (h + 2) * stride];
    let mut dom = vec![1u8; (h + 2) * stride];
    let mut inside = Vec::new();
    for i in 0..h {
        for j in 0..w {
            let Some(g) = global(i, j) else { continue };
            let sc = (i + 1) * stride + j + 1;
            kind[sc] = board.kind[g];
            if i == 0 || j == 0 || i + 1 == h || j + 1 == w {
                let o = orientation_of(board.kind[g], masks[game_index(board, g)])
                    .expect("the intended grid has the board's shapes");
                dom[sc] = 1 << o;
            } else {
                dom[sc] = state.domain(g);
                inside.push(sc);
            }
        }
    }
    let sub = Board::from_padded(h, w, kind);
    let mut st = State::with_domains(&sub, dom);
    for &c in &inside {
        let keep = st.supported(&sub, c);
        st.narrow(&sub, c, keep);
        let consistent = keep != 0 && st.propagate(&sub);
        assert!(consistent, "the intended solution satisfies its own shapes");
    }
    let to_global = |sc: usize| {
        let (i, j) = sub.row_col(sc);
        global(i, j).expect("window cells are on the grid")
    };
    let intended = |sc: usize| masks[game_index(board, to_global(sc))];
    let mut seen = vec![false; sub.len()];
    let mut in_region = vec![false; sub.len()];
    let parts = find_regions(&sub, &st, inside.iter().copied(), &mut seen);
    let mut found = Vec::new();
    for p in 0..parts.len() {
        if let Some(Some(alt)) = differing_solution(
            &sub,
            &st,
            parts.get(p),
            &intended,
            FRONTIER_STATES,
            &mut in_region,
            stop,
        )? {
            found.push(
                alt.into_iter()
                    .map(|(sc, m)| (to_global(sc as usize) as u32, m))
                    .collect(),
            );
        }
    }
    Ok(found)
}

/// A solution of `region` other than the one in `masks`, one cell at a time: forbid the cell
/// its intended orientation and ask the counting search for a witness. A cell whose search
/// proves there is none is then fixed as intended for the cells after it (any other solution
/// agrees with the intended one on every fixed cell: the first fixed cell it differed on would
/// have given it), so the searches shrink as they go. A first pass caps each cell's search, as
/// most cells either give a witness fast or need a long proof; the cells over the cap are
/// searched again without one, in the narrower state the first pass left. `None` when the
/// intended one is the region's only solution.
fn other_solution(
    board: &Board,
    state: &mut State,
    counter: &mut Counter,
    region: &[u32],
    masks: &[u8],
    stop: &impl Fn() -> bool,
) -> Result<Option<Vec<(u32, u8)>>, Stopped> {
    let base = state.mark();
    let mut todo: Vec<usize> = region.iter().map(|&c| c as usize).collect();
    let mut over_cap = Vec::new();
    for cap in [Some(1), Some(QUICK_CHECKS), Some(QUICK_CHECKS * 16), None] {
        for &c in &todo {
            let intended = orientation_of(board.kind[c], masks[game_index(board, c)])
                .expect("the intended grid has the board's shapes");
            match differ_at(board, state, counter, region, c, intended, cap, stop) {
                Ok(Differ::Found(other)) => {
                    state.undo_to(base);
                    return Ok(Some(other));
                }
                Ok(Differ::Never) => {
                    state.narrow(board, c, 1 << intended);
                    let consistent = state.propagate(board);
                    assert!(consistent, "the intended solution satisfies its own shapes");
                }
                Ok(Differ::OverCap) => over_cap.push(c),
                Err(stopped) => {
                    state.undo_to(base);
                    return Err(stopped);
                }
            }
        }
        todo = std::mem::take(&mut over_cap);
    }
    state.undo_to(base);
    debug_assert!(todo.is_empty());
    Ok(None)
}

/// What [`differ_at`] found.
enum Differ {
    /// A solution, as (cell, connection mask) over the region.
    Found(Vec<(u32, u8)>),
    /// No solution has the cell in another orientation.
    Never,
    /// The search went over its cap: unknown.
    OverCap,
}

/// A solution with cell `c` not in orientation `intended`. The state is left as it was.
#[allow(clippy::too_many_arguments)]
fn differ_at(
    board: &Board,
    state: &mut State,
    counter: &mut Counter,
    region: &[u32],
    c: usize,
    intended: u8,
    cap: Option<u32>,
    stop: &impl Fn() -> bool,
) -> Result<Differ, Stopped> {
    let rest = state.domain(c) & !(1 << intended);
    if rest == 0 {
        return Ok(Differ::Never);
    }
    let checks = Cell::new(0u32);
    let budget_hit = Cell::new(false);
    let capped = || {
        checks.set(checks.get() + 1);
        if stop() {
            budget_hit.set(true);
            return true;
        }
        cap.is_some_and(|k| checks.get() > k)
    };
    let mark = state.mark();
    state.narrow(board, c, rest);
    let outcome = if state.propagate(board) {
        match counter.count(board, state, region, Some(1), true, &capped) {
            Ok(n) if n.to_u128() == Some(1) => Ok(Differ::Found(
                region
                    .iter()
                    .map(|&x| {
                        let k = PieceKind::from_code(board.kind[x as usize]).expect("valid kind");
                        (x, k.mask(state.domain(x as usize).trailing_zeros() as u8))
                    })
                    .collect(),
            )),
            Ok(_) => Ok(Differ::Never),
            Err(stopped) if budget_hit.get() => Err(stopped),
            Err(_) => Ok(Differ::OverCap),
        }
    } else {
        Ok(Differ::Never)
    };
    state.undo_to(mark);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{CountOptions, CountOutcome, count_solutions};
    use std::sync::atomic::AtomicBool;

    /// With windows of no margin at all, rounds after the first see only the cells of the
    /// last alternatives; the levels made are still unique, by an independent count.
    #[test]
    fn narrow_windows_still_give_unique_levels() {
        TEST_MARGIN.set(0);
        let opts = CountOptions {
            limit: Some(2),
            timeout: None,
        };
        let no = AtomicBool::new(false);
        let families = [Family::Dominoes, Family::Straight, Family::Mixed];
        for seed in 0..24u64 {
            let mut o = GenerateOptions::new(10 + seed as usize % 5, 12, seed);
            o.family = families[seed as usize % families.len()];
            let made = generate_unique(&o).expect("unique level");
            let (count, _) = count_solutions(&made.level, &opts, &no);
            assert_eq!(count, CountOutcome::Exact(1u32.into()), "seed {seed}");
        }
        TEST_MARGIN.set(WINDOW_MARGIN);
    }
}

//! Unique levels on any board, as Simon Tatham's Net generator makes them: solve the scrambled
//! level for two solutions; while there are two, change the intended solution where they
//! differ (add or remove one connection at a cell on which they disagree) and try again.
//! Under the Infinity Loop rules every set of connections is a solved level, so each change
//! keeps the level solvable; only the ambiguous areas change.

use std::sync::atomic::AtomicBool;

use super::board_families::scramble;
use crate::anyboard::beside::undecided_beside;
use crate::anyboard::net_search::{NetRound, RoundSearch};
use crate::anyboard::search::Budget;
use crate::anyboard::two_solutions;
use crate::board::{Board, BoardLevel};

/// Changes `solution` (a solved level) until its scrambled form has exactly one solution;
/// returns the scrambled level and its solution. Gives up after `rounds` rounds.
///
/// Each round propagates the scrambled level and probes the alternatives to the intended
/// orientations ([`undecided_beside`]); what is left undecided falls into areas, and each
/// area gets one change in the same round: a connection between two of its cells is added
/// or removed (under Infinity rules every set of connections is a solved level, so the level
/// stays solvable). When few cells are left, or the changes stop bringing their number down
/// (the probes may be too weak for a level that is unique after all), a search for two
/// solutions decides: one is the answer, two get a change in each area where they differ.
/// After a change, the next round lets only the cells near what it changed or left
/// undecided turn ([`WINDOW_MARGIN`]), the rest held as intended; a level is returned only
/// when a round over the whole level decides every cell, or the search finds one solution.
pub fn make_unique(
    mut solution: BoardLevel,
    rng: &mut fastrand::Rng,
    rounds: usize,
    cancel: &AtomicBool,
) -> Result<(BoardLevel, BoardLevel), String> {
    let budget = Budget {
        cancel,
        halt: None,
        deadline: None,
        outer: None,
    };
    let stopped = |_| "cancelled".to_string();
    let board = solution.board().clone();
    let mut free: Option<Vec<bool>> = None;
    let mut before = usize::MAX;
    // Cells a change of the current area already turned (all false between areas).
    let mut touched = vec![false; board.len()];
    for _ in 0..=rounds {
        let mut level = solution.clone();
        scramble(&mut level, rng);
        let undecided =
            undecided_beside(&level, &solution, free.as_deref(), &budget).map_err(stopped)?;
        let left = undecided.iter().filter(|&&u| u).count();
        let whole = free.is_none();
        if left == 0 {
            if whole {
                return Ok((level, solution));
            }
            free = None;
            continue;
        }
        let masks_before = solution.masks().to_vec();
        let mut hot = if left <= UNDECIDED_SEARCH_BELOW || (whole && left >= before) {
            let sols = two_solutions(&level, None, cancel).map_err(stopped)?;
            let [a, b] = &sols[..] else {
                // Never empty: the scrambled intended solution is a solution.
                return Ok((level, solution));
            };
            let differ: Vec<bool> = (0..a.masks().len())
                .map(|c| a.masks()[c] != b.masks()[c])
                .collect();
            for area in areas(&board, &differ) {
                flip_within(&board, &mut solution, (&area, &differ), &mut touched, rng);
            }
            differ
        } else {
            for area in areas(&board, &undecided) {
                flip_within(
                    &board,
                    &mut solution,
                    (&area, &undecided),
                    &mut touched,
                    rng,
                );
            }
            undecided
        };
        if whole {
            before = left;
        }
        for (c, h) in hot.iter_mut().enumerate() {
            *h |= solution.masks()[c] != masks_before[c];
        }
        free = Some(window(&board, &hot, WINDOW_MARGIN));
    }
    Err(format!(
        "no unique level after {rounds} rounds; try another seed"
    ))
}

/// Undecided cells at most this many: [`make_unique`] searches for two solutions rather
/// than change every area blind.
const UNDECIDED_SEARCH_BELOW: usize = 64;

/// Adds or removes the connection across one side between two cells of `area` (both
/// `inside`), picked at random: a change of an ambiguous area of a level under Infinity
/// rules. An area of one cell changes a side to any neighbour. `touched` is scratch of the
/// board's size, all false, and left so.
fn flip_within(
    board: &Board,
    solution: &mut BoardLevel,
    (area, inside): (&[usize], &[bool]),
    touched: &mut [bool],
    rng: &mut fastrand::Rng,
) {
    let k = board.sides() as usize;
    let mut sides: Vec<(usize, usize, usize, usize)> = Vec::new();
    for &c in area {
        for s in 0..k {
            if let Some((n, t)) = board.neighbour(c, s)
                && !board.is_outside(n)
                && (inside[n] || area.len() == 1)
                && !(empties(solution.masks()[c], s) || empties(solution.masks()[n], t))
            {
                sides.push((c, s, n, t));
            }
        }
    }
    if sides.is_empty() {
        return;
    }
    // A large area is ambiguous in many places at once (a hexagonal dominoes level is one
    // area of nearly every cell at first): one change per so many of its cells.
    let changes = area.len().div_ceil(CELLS_PER_CHANGE);
    let mut changed: Vec<usize> = Vec::with_capacity(2 * changes);
    for _ in 0..changes {
        let (c, s, n, t) = sides[rng.usize(..sides.len())];
        if touched[c] || touched[n] {
            continue;
        }
        touched[c] = true;
        touched[n] = true;
        changed.extend([c, n]);
        let masks = solution.masks_mut();
        masks[c] ^= 1 << s;
        masks[n] ^= 1 << t;
    }
    for c in changed {
        touched[c] = false;
    }
}

/// True when flipping side `s` of a cell of connections `mask` leaves it none: such changes
/// are not made, so a level keeps its pieces (a dominoes level its one-end pieces) and gains
/// no empty cells.
fn empties(mask: u8, s: usize) -> bool {
    mask == 1 << s
}

/// Cells of an undecided area per change [`flip_within`] makes in it.
const CELLS_PER_CHANGE: usize = 12;

/// As [`make_unique`], under Net rules, in rounds as SGT Net's generator: `solution` is a
/// spanning tree of its board and stays one. Each round scrambles it and propagates (no
/// search); when every cell is decided the level is unique. Otherwise the undecided cells
/// fall into ambiguous areas, and each area gets one change: a connection between two of its
/// cells that the tree lacks is added, which closes one cycle, and a connection of that cycle
/// (one touching the area when there is one) is removed. Every area changes in the same
/// round, so the rounds do not grow with the board. When few cells are left undecided a
/// second-solution search from the same propagated root settles it (propagation may be too
/// weak for a level that is unique after all): the solution it finds, steered away from the
/// intended one, differs in many areas and the tree changes in each.
///
/// Only the first round looks at the whole level. After a change, the next round lets only
/// the cells near the areas it left ambiguous or changed turn (within [`WINDOW_MARGIN`]
/// steps), the rest kept as intended: on a board of millions of cells a round then costs a
/// few linear scans instead of a propagation of the whole level (8 to 15 s at 4096x4096,
/// several rounds). When such a round finds nothing left to change, a round of the whole
/// level decides: a level is returned only when propagation of the whole level decides
/// every cell or a search of it is exhausted. Barriers and locks are not added here: they
/// only take solutions away, so the caller adds them after.
pub fn make_unique_net(
    mut solution: BoardLevel,
    rng: &mut fastrand::Rng,
    rounds: usize,
    cancel: &AtomicBool,
) -> Result<(BoardLevel, BoardLevel), String> {
    assert_eq!(solution.rules(), crate::board::Rules::Net, "a Net level");
    let mut paths = TreePaths::new(solution.board().len());
    let mut before = usize::MAX;
    // The cells the next round may turn (`None`: every cell).
    let mut free: Option<Vec<bool>> = None;
    let mut scratch = None;
    for _ in 0..=rounds {
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err("cancelled".into());
        }
        let mut level = solution.clone();
        scramble(&mut level, rng);
        // A second solution found with the intended orientations tried last differs in
        // every ambiguity it can, and a change in each settles them all in one round; blind
        // changes of every undecided area settle many more cells per round while there are
        // many (the search's nodes each cost a pass over the cells left). Search to the end when
        // few cells are left, or when changing the areas stopped helping (propagation may
        // be too weak for a level that is unique after all).
        let cells = solution.board().len();
        let search = |left: usize| {
            if left <= SEARCH_ALWAYS_BELOW || (left <= SEARCH_BELOW && left >= before) {
                RoundSearch::Full
            } else if left <= (cells / SEARCH_SHARE).min(SEARCH_MOST) {
                let left = left as u64;
                RoundSearch::Bounded((SEARCH_NODES_PER_CELL * left).min(SEARCH_WORK / left))
            } else {
                RoundSearch::No
            }
        };
        let round = crate::anyboard::net_search::net_round(
            &level,
            &solution,
            free.as_deref(),
            search,
            &mut scratch,
            cancel,
        )
        .map_err(|_| "cancelled".to_string())?;
        let tree_before = solution.masks().to_vec();
        let mut hot = match round {
            NetRound::Unique if free.is_none() => return Ok((level, solution)),
            NetRound::Unique => {
                free = None;
                continue;
            }
            NetRound::Other(other) => {
                // Each connected area where the other solution differs is an ambiguity of
                // its own: change the tree in every one.
                let differ: Vec<bool> = (0..other.masks().len())
                    .map(|c| other.masks()[c] != solution.masks()[c])
                    .collect();
                let found = areas(solution.board(), &differ);
                paths.root_at(&solution);
                for area in &found {
                    swap_towards(&mut solution, &other, area, rng, &mut paths);
                }
                differ
            }
            NetRound::Undecided(dom) => {
                let undecided: Vec<bool> = dom.iter().map(|d| d.count_ones() > 1).collect();
                let left = undecided.iter().filter(|&&u| u).count();
                before = left;
                paths.root_at(&solution);
                for area in areas(solution.board(), &undecided) {
                    perturb(&mut solution, &area, &undecided, rng, &mut paths);
                }
                undecided
            }
        };
        for (c, h) in hot.iter_mut().enumerate() {
            *h |= solution.masks()[c] != tree_before[c];
        }
        free = Some(window(solution.board(), &hot, WINDOW_MARGIN));
    }
    Err(format!(
        "no unique level after {rounds} rounds; try another seed"
    ))
}

/// Undecided cells at most this many: a search may say whether the level is unique (when
/// the changes of every area stop bringing the count down).
const SEARCH_BELOW: usize = 256;

/// Undecided cells at most one in this many: a bounded search for a second solution (the
/// intended orientations tried last) finds one that differs in many independent areas at
/// once; changing the tree in each settled ten thousand undecided cells of a million in
/// two rounds where changing every undecided area took twenty.
const SEARCH_SHARE: usize = 100;

/// Undecided cells at most this many for a bounded search: at 4096x4096 one over 144,000
/// cells visited 512 nodes in 86 s (its passes each read them all) and found nothing.
const SEARCH_MOST: usize = 1 << 14;

/// The nodes a bounded search may visit per undecided cell before the round falls back to
/// changing every undecided area.
const SEARCH_NODES_PER_CELL: u64 = 8;

/// A bounded search's nodes times the undecided cells (what each node reads) at most this
/// much: at 1000x1000 the searches with eight nodes a cell for about 8,000 cells
/// ran 20 s and found nothing; 2^24 against 2^26 took 4096x4096 seeds 5 and 6 from 47 and
/// 56 s of CPU to 42 s each.
const SEARCH_WORK: u64 = 1 << 24;

/// Undecided cells at most this many: a search says whether the level is unique.
const SEARCH_ALWAYS_BELOW: usize = 24;

/// Cells within this many steps of a cell the last round left ambiguous or changed may turn
/// in the next round (see [`make_unique_net`]).
const WINDOW_MARGIN: u8 = 4;

/// The cells within `margin` steps (across linked sides) of a `hot` one.
fn window(board: &crate::board::Board, hot: &[bool], margin: u8) -> Vec<bool> {
    let k = board.sides() as usize;
    let mut inside = hot.to_vec();
    let mut front: Vec<usize> = (0..hot.len()).filter(|&c| hot[c]).collect();
    let mut next = Vec::new();
    for _ in 0..margin {
        for &c in &front {
            for s in 0..k {
                if let Some((n, _)) = board.neighbour(c, s)
                    && !inside[n]
                {
                    inside[n] = true;
                    next.push(n);
                }
            }
        }
        std::mem::swap(&mut front, &mut next);
        next.clear();
    }
    inside
}

/// Connected groups of undecided cells.
fn areas(board: &crate::board::Board, undecided: &[bool]) -> Vec<Vec<usize>> {
    let k = board.sides() as usize;
    let mut seen = vec![false; undecided.len()];
    let mut out = Vec::new();
    for start in 0..undecided.len() {
        if !undecided[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut area = vec![start];
        let mut i = 0;
        while i < area.len() {
            let c = area[i];
            i += 1;
            for s in 0..k {
                if let Some((n, _)) = board.neighbour(c, s)
                    && undecided[n]
                    && !seen[n]
                {
                    seen[n] = true;
                    area.push(n);
                }
            }
        }
        out.push(area);
    }
    out
}

/// The longest cycle (in connections) a change of an undecided area may close.
const PATH_STEPS: usize = 1 << 10;

/// Changes the tree `tree` in `area` (see [`make_unique_net`]); nothing when no change is
/// found near enough.
fn perturb(
    tree: &mut BoardLevel,
    area: &[usize],
    undecided: &[bool],
    rng: &mut fastrand::Rng,
    paths: &mut TreePaths,
) {
    let board = tree.board().clone();
    let k = board.sides() as usize;
    for _ in 0..4 {
        let c = area[rng.usize(..area.len())];
        let m = tree.masks()[c];
        // A side the tree does not use, towards another cell of the area if possible.
        let free: Vec<(usize, usize, usize)> = (0..k)
            .filter(|&s| m >> s & 1 == 0)
            .filter_map(|s| board.neighbour(c, s).map(|(n, t)| (s, n, t)))
            .filter(|&(_, n, _)| !board.is_outside(n))
            .collect();
        if free.is_empty() {
            continue;
        }
        let inside: Vec<_> = free
            .iter()
            .copied()
            .filter(|&(_, n, _)| undecided[n])
            .collect();
        let pool = if inside.is_empty() { &free } else { &inside };
        let (s, n, t) = pool[rng.usize(..pool.len())];
        let Some(path) = paths.climb(&board, n, c, PATH_STEPS) else {
            continue;
        };
        let i = exchange(tree, (c, s, n, t), &path.steps, |x| undecided[x], rng);
        paths.exchanged(&board, (c, s, n, t), &path, i);
        return;
    }
}

/// Adds to the tree `tree` a connection `other` (another solution) has at a cell of `area`
/// where they differ, and removes another of the cycle it closes, one touching a cell of
/// `area` if any.
fn swap_towards(
    tree: &mut BoardLevel,
    other: &BoardLevel,
    area: &[usize],
    rng: &mut fastrand::Rng,
    paths: &mut TreePaths,
) {
    let board = tree.board().clone();
    let k = board.sides() as usize;
    let mut differ = vec![false; board.len()];
    for &c in area {
        differ[c] = tree.masks()[c] != other.masks()[c];
    }
    // Earlier changes of the same round may have touched the area: only cells where
    // `other` has a connection the tree lacks can add one.
    let cells: Vec<usize> = area
        .iter()
        .copied()
        .filter(|&c| other.masks()[c] & !tree.masks()[c] != 0)
        .collect();
    if cells.is_empty() {
        return;
    }
    let c = cells[rng.usize(..cells.len())];
    // Same shape, different masks: `other` connects some side here that the tree does not.
    let extra = other.masks()[c] & !tree.masks()[c];
    let sides: Vec<usize> = (0..k).filter(|&s| extra >> s & 1 == 1).collect();
    let s = sides[rng.usize(..sides.len())];
    let (n, t) = board
        .neighbour(c, s)
        .expect("a solution connects no border");
    let path = paths
        .climb(&board, n, c, usize::MAX)
        .expect("a spanning tree joins every cell");
    let i = exchange(tree, (c, s, n, t), &path.steps, |x| differ[x], rng);
    paths.exchanged(&board, (c, s, n, t), &path, i);
}

/// Adds to the tree the connection from cell `c`'s side `s` to cell `n`'s side `t` and
/// removes one of `path` (the tree's path from `n` back to `c`, which the new connection
/// closes into a cycle), preferring one with an end that `marked` names: the tree stays a
/// spanning tree. Returns the index in `path` of the connection removed.
fn exchange(
    tree: &mut BoardLevel,
    (c, s, n, t): (usize, usize, usize, usize),
    path: &[(usize, usize)],
    marked: impl Fn(usize) -> bool,
    rng: &mut fastrand::Rng,
) -> usize {
    let board = tree.board();
    let touching: Vec<usize> = (0..path.len())
        .filter(|&i| {
            let (x, side) = path[i];
            marked(x) || marked(board.neighbour(x, side).expect("linked").0)
        })
        .collect();
    let i = if touching.is_empty() {
        rng.usize(..path.len())
    } else {
        touching[rng.usize(..touching.len())]
    };
    let (x, side) = path[i];
    let (y, back) = board.neighbour(x, side).expect("linked");
    let masks = tree.masks_mut();
    masks[c] |= 1 << s;
    masks[n] |= 1 << t;
    masks[x] &= !(1 << side);
    masks[y] &= !(1 << back);
    i
}

/// A path in the tree (see [`TreePaths::climb`]).
struct TreePath {
    /// `(cell, side towards from)` for each cell from `to` to `from`, `from` left out.
    steps: Vec<(usize, usize)>,
    /// The first `up` steps climb from `to` to the common ancestor, the rest go down.
    up: usize,
}

/// The spanning tree the Net generator changes, rooted: per cell its parent as
/// `parent * 8 + side of the cell facing it` (`u32::MAX` at the root). Rooted once, then
/// kept rooted through each exchange by turning round the parents along part of the cycle
/// it closed; the path between two cells is found by climbing from both to where they
/// meet. The path between the two ends of a connection the tree lacks is often most of the
/// tree away: a breadth-first search from one end visited most of the board (half the time
/// of a million-cell generation), and rooting the tree again each round was a fifth of a
/// 4096x4096 one.
struct TreePaths {
    parent: Vec<u32>,
    /// Per cell: which climb of [`TreePaths::climb`] reached it (see `now`).
    stamp: Vec<u32>,
    now: u32,
}

/// No parent: the root.
const ROOT: u32 = u32::MAX;

impl TreePaths {
    fn new(n: usize) -> TreePaths {
        TreePaths {
            parent: Vec::new(),
            stamp: vec![0; n],
            now: 0,
        }
    }

    /// Roots `tree` at its first cell with a piece (cells outside a mixed grid's drawn
    /// board are empty, and not in the tree), the first time only (every change after goes
    /// through [`TreePaths::exchanged`]).
    fn root_at(&mut self, tree: &BoardLevel) {
        if !self.parent.is_empty() {
            return;
        }
        let board = tree.board();
        let k = board.sides() as usize;
        let n = board.len();
        self.parent.resize(n, ROOT);
        let mut seen = vec![false; n];
        let root = (0..n).find(|&c| tree.masks()[c] != 0).unwrap_or(0);
        let mut queue = vec![root as u32];
        seen[root] = true;
        let mut head = 0;
        while head < queue.len() {
            let x = queue[head] as usize;
            head += 1;
            for side in 0..k {
                if tree.masks()[x] >> side & 1 == 1
                    && let Some((y, back)) = board.neighbour(x, side)
                    && !seen[y]
                {
                    seen[y] = true;
                    self.parent[y] = (x as u32) * 8 + back as u32;
                    queue.push(y as u32);
                }
            }
        }
    }

    fn step(&self, c: usize) -> Option<(usize, usize)> {
        let p = self.parent[c];
        (p != ROOT).then_some(((p >> 3) as usize, (p & 7) as usize))
    }

    /// The tree's path from `to` to `from`, or `None` when it is longer than `max`: both
    /// ends climb in turn, marking what they pass, until one reaches a cell the other
    /// passed (their common ancestor: each climbs its own line to the root, and the lines
    /// join there).
    fn climb(
        &mut self,
        board: &crate::board::Board,
        from: usize,
        to: usize,
        max: usize,
    ) -> Option<TreePath> {
        if self.now >= u32::MAX - 2 {
            self.stamp.fill(0);
            self.now = 0;
        }
        let (ma, mb) = (self.now + 1, self.now + 2);
        self.now += 2;
        let (mut a, mut b) = (to, from);
        self.stamp[a] = ma;
        let meet = 'meet: {
            if self.stamp[b] == ma {
                break 'meet b;
            }
            self.stamp[b] = mb;
            for _ in 0..max {
                let (sa, sb) = (self.step(a), self.step(b));
                if let Some((p, _)) = sa {
                    a = p;
                    if self.stamp[a] == mb {
                        break 'meet a;
                    }
                    self.stamp[a] = ma;
                }
                if let Some((p, _)) = sb {
                    b = p;
                    if self.stamp[b] == ma {
                        break 'meet b;
                    }
                    self.stamp[b] = mb;
                }
                assert!(
                    sa.is_some() || sb.is_some(),
                    "a spanning tree joins every cell"
                );
            }
            return None;
        };
        let mut steps = Vec::new();
        let mut a = to;
        while a != meet {
            let (p, side) = self.step(a).expect("below the meeting cell");
            steps.push((a, side));
            a = p;
        }
        let up = steps.len();
        let mark = steps.len();
        let mut b = from;
        while b != meet {
            let (p, side) = self.step(b).expect("below the meeting cell");
            steps.push((b, side));
            b = p;
        }
        if steps.len() > max {
            return None;
        }
        // The climb from `from` holds each child's side facing its parent, from `from`
        // upwards; listed from the ancestor down, with each parent's side facing the child.
        steps[mark..].reverse();
        for e in &mut steps[mark..] {
            *e = board.neighbour(e.0, e.1).expect("a tree connection");
        }
        Some(TreePath { steps, up })
    }

    /// Keeps the rooting after the tree gained the connection between `c` (side `s`) and
    /// `n` and lost `path.steps[i]` (`path` from `c` to `n`): the part cut off hangs from
    /// the new connection, by turning round the parents from its end of it up to the cut.
    fn exchanged(
        &mut self,
        board: &crate::board::Board,
        (c, s, n, t): (usize, usize, usize, usize),
        path: &TreePath,
        i: usize,
    ) {
        let (x, side) = path.steps[i];
        let (y, _) = board.neighbour(x, side).expect("linked");
        // Climbing from `c`, the step leaves child `x`; going down, it enters child `y`.
        let (child, u, link) = if i < path.up {
            (x, c, (n as u32) * 8 + s as u32)
        } else {
            (y, n, (c as u32) * 8 + t as u32)
        };
        let mut z = u;
        let mut link = link;
        loop {
            let old = self.parent[z];
            self.parent[z] = link;
            if z == child {
                break;
            }
            let (p, up_side) = ((old >> 3) as usize, (old & 7) as usize);
            let (_, down_side) = board.neighbour(z, up_side).expect("a tree connection");
            link = (z as u32) * 8 + down_side as u32;
            z = p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Rules, Tiling, Wrap};
    use crate::generate::board_families::{BoardFamily, generate_on_board};

    fn maze(tiling: Tiling, size: usize, wrap: Wrap, seed: u64) -> BoardLevel {
        let board = Board::new(tiling, size, size, wrap).unwrap();
        generate_on_board(&board, BoardFamily::Maze, seed).1
    }

    /// After many exchanges, the kept rooting is a rooting of the changed tree: every
    /// cell but one has as parent a neighbour it is connected to, and climbing from
    /// every cell reaches that one root (no cycle of parents).
    #[test]
    fn the_rooting_follows_the_exchanges() {
        let mut rng = fastrand::Rng::with_seed(3);
        for (tiling, wrap) in [
            (Tiling::Square, Wrap::BOTH),
            (Tiling::Square, Wrap::NONE),
            (Tiling::Hexagonal, Wrap::BOTH),
        ] {
            let mut tree = maze(tiling, 12, wrap, 7);
            let board = tree.board().clone();
            let k = board.sides() as usize;
            let mut paths = TreePaths::new(board.len());
            paths.root_at(&tree);
            let mut done = 0;
            for _ in 0..400 {
                let c = rng.usize(..board.len());
                let s = rng.usize(..k);
                let Some((n, t)) = board.neighbour(c, s) else {
                    continue;
                };
                if tree.masks()[c] >> s & 1 == 1 {
                    continue;
                }
                let path = paths.climb(&board, n, c, usize::MAX).unwrap();
                let i = exchange(&mut tree, (c, s, n, t), &path.steps, |_| false, &mut rng);
                paths.exchanged(&board, (c, s, n, t), &path, i);
                done += 1;
            }
            assert!(done > 100, "{done} exchanges");
            let mut roots = 0;
            for c in 0..board.len() {
                match paths.step(c) {
                    None => roots += 1,
                    Some((p, side)) => {
                        assert_eq!(board.neighbour(c, side).unwrap().0, p);
                        assert_eq!(tree.masks()[c] >> side & 1, 1, "cell {c} side {side}");
                    }
                }
                let mut x = c;
                for _ in 0..board.len() {
                    match paths.step(x) {
                        Some((p, _)) => x = p,
                        None => break,
                    }
                }
                assert!(paths.step(x).is_none(), "a cycle of parents from {c}");
            }
            assert_eq!(roots, 1);
            assert!(
                crate::anyboard::net_verify::first_fault(&tree.clone().with_rules(Rules::Net))
                    .is_none()
            );
        }
    }

    /// Generated levels, made on boards large enough for the windowed rounds to matter,
    /// have one solution by a second-solution search of the whole level.
    #[test]
    fn unique_net_levels_have_one_solution() {
        let cancel = AtomicBool::new(false);
        for (tiling, wrap) in [
            (Tiling::Square, Wrap::BOTH),
            (Tiling::Square, Wrap::NONE),
            (Tiling::Hexagonal, Wrap::BOTH),
        ] {
            for seed in 1..=3 {
                let tree = maze(tiling, 40, wrap, seed).with_rules(Rules::Net);
                let mut rng = fastrand::Rng::with_seed(seed);
                let (level, solution) = make_unique_net(tree, &mut rng, 10_000, &cancel).unwrap();
                assert!(level.same_shapes(&solution));
                let sols =
                    crate::anyboard::net_search::net_two_solutions(&level, None, &cancel).unwrap();
                assert_eq!(sols.len(), 1, "{tiling:?} {wrap:?} seed {seed}");
                assert_eq!(sols[0].masks(), solution.masks());
            }
        }
    }
}

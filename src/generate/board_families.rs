//! Level families on any [`Board`] (square or hexagonal, bounded or wrapped), for the boards
//! the course-format generators cannot make. Under Infinity Loop rules every set of
//! connections that agrees across each link and stops at the borders is a solved level, so a
//! family only has to pick a set of edges (pairs of facing sides); the level is then those
//! edges as side masks, each piece turned by a random number of steps.
//!
//! The families work on edges and the link table alone, never on rows and columns, so a wrap
//! edge is an edge like any other: a maze on a torus uses the wrap-around passages too. An
//! edge is named by the id `cell * sides + side` of its first end (the lower of its two
//! `(cell, side)` pairs, as [`Board::edges`] lists it): a board has fewer than 2^29 cells of at
//! most 8 sides, so an id fits a `u32`, and the maze's list of edges at 4096x4096 hexagonal
//! (50M edges) is one flat 200 MB array instead of 50M tuples.
//!
//! The bounded square board keeps its own generators ([`super::random_level`]): they are the
//! fast path and their levels for a seed must not change.

use super::windowed_order::{window_rows, windowed_order};
use crate::algo::union_find::UnionFind;
use crate::board::{Board, BoardLevel, NO_LINK, Tiling, Wrap, mask};

/// What the solved level looks like.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoardFamily {
    /// Every edge carries a connection with probability `density` (0 gives an empty level,
    /// 1 a level of every edge; values outside `0..=1` act as the nearer end).
    Random {
        /// Probability of each edge being connected.
        density: f64,
    },
    /// Closed loops only: a random sum (XOR) of the board's faces, so every piece has an even
    /// number of connections.
    Loops,
    /// One spanning tree over every cell, distributed as Kruskal's algorithm over the edges
    /// in uniformly shuffled order: a single network without a cycle.
    Maze,
    /// Mostly one-end pieces facing each other in pairs (a random maximal matching); a cell
    /// left without a free neighbour joins a neighbouring piece.
    Dominoes,
    /// Paths of `len` cells (see [`super::board_paths`]): one-end pieces at both ends, each
    /// middle bent with probability `bent`.
    Paths {
        /// Cells per path (2 to 16).
        len: usize,
        /// Probability that a middle cell bends.
        bent: f64,
    },
}

/// A level of `family` on `board` for `seed`: the scrambled level and the solution it was
/// scrambled from. The same board, family and seed always give the same pair.
pub fn generate_on_board(
    board: &Board,
    family: BoardFamily,
    seed: u64,
) -> (BoardLevel, BoardLevel) {
    let mut rng = fastrand::Rng::with_seed(seed);
    // The masks come first so that the family's working memory (the maze's edge list) is
    // freed before the two copies of the board are made.
    let masks = solved_masks(board, family, &mut rng);
    let solution =
        BoardLevel::new(board.clone(), masks).expect("a family only sets sides the cells have");
    let mut scrambled = solution.clone();
    scramble(&mut scrambled, &mut rng);
    (scrambled, solution)
}

/// The side masks (one per cell, row-major) of a solved level of `family` on `board`.
pub fn solved_masks(board: &Board, family: BoardFamily, rng: &mut fastrand::Rng) -> Vec<u8> {
    match family {
        BoardFamily::Random { density } => random_masks(board, density, rng),
        BoardFamily::Loops => loop_masks(board, rng),
        BoardFamily::Maze => maze_masks(board, rng),
        BoardFamily::Dominoes => domino_masks(board, rng),
        BoardFamily::Paths { len, bent } => {
            let order = domino_order(board, window_rows(board.width()), rng);
            super::board_paths::path_masks(board, len, bent, &order, rng)
        }
    }
}

/// Turns every piece of `level` by a uniform random number of steps (`0..sides` of its
/// cell).
pub fn scramble(level: &mut BoardLevel, rng: &mut fastrand::Rng) {
    let board = level.board().clone();
    for (c, m) in level.masks_mut().iter_mut().enumerate() {
        let k = board.cell_sides(c);
        *m = mask::rotate(*m, k, rng.u8(..k));
    }
}

/// The ids of every edge (see the module doc), ascending; none at a cell outside a mixed
/// grid's drawn board, which stays empty as hexapipes leaves it.
fn edge_ids(board: &Board) -> impl Iterator<Item = u32> + '_ {
    let k = board.sides() as usize;
    board
        .links()
        .iter()
        .enumerate()
        .filter(move |&(end, &link)| {
            // The other end's id, `neighbour * sides + facing side`, compared with this one's.
            link != NO_LINK
                && end < (link as usize >> 3) * k + (link as usize & 7)
                && !board.is_outside(end / k)
                && !board.is_outside(link as usize >> 3)
        })
        .map(|(end, _)| end as u32)
}

/// Sets both ends of the link from end `id` (`cell * sides + side`, either end) in `masks`.
fn connect(board: &Board, masks: &mut [u8], id: u32) {
    let k = board.sides() as usize;
    let (cell, side) = (id as usize / k, id as usize % k);
    let (other, facing) = board
        .neighbour(cell, side)
        .expect("an edge id names a linked side");
    masks[cell] |= 1 << side;
    masks[other] |= 1 << facing;
}

/// [`BoardFamily::Random`]: each edge on with probability `density`.
fn random_masks(board: &Board, density: f64, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; board.len()];
    for id in edge_ids(board) {
        // `f64()` lies in [0, 1): density 0 never connects, density 1 always does.
        if rng.f64() < density {
            connect(board, &mut masks, id);
        }
    }
    masks
}

/// [`BoardFamily::Loops`]: each face toggled with probability 1/2. Toggling a cycle's sides
/// changes every degree by 0 or 2, so degrees stay even whatever the faces overlap.
fn loop_masks(board: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; board.len()];
    for_each_face(board, |start, walk| {
        if rng.bool() {
            toggle_walk(board, &mut masks, start, walk);
        }
    });
    masks
}

/// Calls `f` on every face of `board`, in the order of [`Board::faces`], without building that
/// list: at 4096x4096 hexagonal it would hold 33M faces (800 MB). The walks a tiling's faces
/// take are read off a small bounded board of the same tiling (every walk shows there); a
/// face is then each cell from which a walk closes, as [`Board::faces`] defines it (a test
/// holds the two to the same list).
fn for_each_face(board: &Board, mut f: impl FnMut(usize, &[u8])) {
    let walks = face_walks(board.tiling());
    for cell in 0..board.len() {
        for walk in &walks {
            if closes(board, cell, walk) {
                f(cell, walk);
            }
        }
    }
}

/// The distinct walks of a tiling's faces, in the order [`Board::faces`] tries them.
fn face_walks(tiling: Tiling) -> Vec<&'static [u8]> {
    let probe = Board::new(tiling, 3, 3, Wrap::NONE).expect("a 3x3 board exists");
    let mut walks: Vec<&'static [u8]> = Vec::new();
    for (_, walk) in probe.faces() {
        if !walks.contains(&walk) {
            walks.push(walk);
        }
    }
    walks
}

/// Whether leaving `start` by the sides of `walk`, one after the other, crosses no border and
/// comes back to `start`.
fn closes(board: &Board, start: usize, walk: &[u8]) -> bool {
    let mut cell = start;
    for &side in walk {
        match board.neighbour(cell, side as usize) {
            Some((n, _)) => cell = n,
            None => return false,
        }
    }
    cell == start
}

/// Flips every connection the closed `walk` from `start` crosses, at both ends.
fn toggle_walk(board: &Board, masks: &mut [u8], start: usize, walk: &[u8]) {
    let mut cell = start;
    for &side in walk {
        let (n, facing) = board
            .neighbour(cell, side as usize)
            .expect("a face crosses no border");
        masks[cell] ^= 1 << side;
        masks[n] ^= 1 << facing;
        cell = n;
    }
}

/// [`BoardFamily::Maze`]: the tree Kruskal's algorithm builds from the edges in uniformly
/// random order, computed by Borůvka's algorithm. Kruskal's order is the ascending order of
/// random weights, and the spanning tree of least total weight is unique when the weights are
/// distinct, so any algorithm for it builds the same maze (a test holds it to Kruskal's).
/// Kruskal in a shuffled order cost 19 s at 4096x4096 hexagonal: the shuffle and every union
/// hit random places of the 400 MB link table and of the sets. Borůvka reads the edges in
/// memory order instead (4.6 s): each round every tree takes its
/// lightest outgoing edge, which at least halves the trees, and edges inside one tree drop
/// out of the list. A weight is a hash of the edge id ([`edge_weight`]), so no order is
/// stored.
fn maze_masks(board: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let n = board.len();
    let key = rng.u64(..);
    let mut masks = vec![0u8; n];
    let mut sets = UnionFind::new(n);
    let mut lightest = LightestEdges::new(n);
    let mut edges: Vec<u32> = edge_ids(board).collect();
    let mut trees = n;
    while trees > 1 && !edges.is_empty() {
        edges.retain(|&id| {
            let (a, b) = ends(board, id);
            let (ra, rb) = (sets.find(a as u32), sets.find(b as u32));
            if ra == rb {
                return false;
            }
            let weight = (edge_weight(key, id), id);
            lightest.offer(ra, weight);
            lightest.offer(rb, weight);
            true
        });
        for id in lightest.drain() {
            let (a, b) = ends(board, id);
            // Two trees may pick the same edge: the second union finds them joined.
            if sets.union(a as u32, b as u32) {
                connect(board, &mut masks, id);
                trees -= 1;
            }
        }
    }
    masks
}

/// Each tree root's lightest outgoing edge so far in a Borůvka round, as (weight, id): the
/// id breaks ties, so the order is total and the tree unique.
struct LightestEdges {
    weight: Vec<u64>,
    id: Vec<u32>,
}

impl LightestEdges {
    /// No edge offered to any of `n` roots.
    fn new(n: usize) -> LightestEdges {
        LightestEdges {
            weight: vec![u64::MAX; n],
            id: vec![u32::MAX; n],
        }
    }

    /// Keeps the edge `id` of `weight` for `root` when it is lighter than the one kept.
    fn offer(&mut self, root: u32, (weight, id): (u64, u32)) {
        let r = root as usize;
        if (weight, id) < (self.weight[r], self.id[r]) {
            self.weight[r] = weight;
            self.id[r] = id;
        }
    }

    /// The edges kept, root by root, leaving none kept.
    fn drain(&mut self) -> impl Iterator<Item = u32> + '_ {
        self.weight
            .iter_mut()
            .zip(self.id.iter_mut())
            .filter(|(_, id)| **id != u32::MAX)
            .map(|(weight, id)| {
                *weight = u64::MAX;
                std::mem::replace(id, u32::MAX)
            })
    }
}

/// The random weight of edge `id` for a maze drawn with `key`: item `id` of a SplitMix64
/// stream seeded with `key` (a hash that passes statistical tests on consecutive inputs), so
/// the weights act as independent uniform draws and their order as a uniform shuffle.
fn edge_weight(key: u64, id: u32) -> u64 {
    let mut z = key.wrapping_add((id as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The two cells edge `id` joins.
fn ends(board: &Board, id: u32) -> (usize, usize) {
    let k = board.sides() as usize;
    let link = board.links()[id as usize];
    (id as usize / k, link as usize >> 3)
}

/// [`BoardFamily::Dominoes`]: cells in random order ([`domino_order`]); a free cell pairs
/// with a random free neighbour, or, with none left, joins a random neighbour's piece.
fn domino_masks(board: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let order = domino_order(board, window_rows(board.width()), rng);
    pair_in_order(board, &order, rng)
}

/// The order the dominoes visit the cells: one uniform shuffle on a board of at most `window`
/// rows, else the windowed random order the square dominoes use ([`windowed_order`]). A
/// uniform order at 4096x4096 hexagonal made every visit a few cache misses (7-9 s); the
/// windowed one sweeps down the board a band of rows at a time. Of two cells a row apart the
/// upper comes first with probability about 1/2 + 1/window, except across the top and bottom
/// edges of a board that wraps them, where the sweep starts and ends: there row 0 always
/// comes first.
fn domino_order(board: &Board, window: usize, rng: &mut fastrand::Rng) -> Vec<u32> {
    if window >= board.height() {
        let mut order: Vec<u32> = (0..board.len() as u32).collect();
        rng.shuffle(&mut order);
        order
    } else {
        windowed_order(
            board.height(),
            board.width(),
            window,
            |_| true,
            |_| false,
            rng,
        )
    }
}

/// The greedy matching of the cells visited in `order` (see [`domino_masks`]).
fn pair_in_order(board: &Board, order: &[u32], rng: &mut fastrand::Rng) -> Vec<u8> {
    let k = board.sides() as usize;
    let mut masks = vec![0u8; board.len()];
    for &cell in order {
        let cell = cell as usize;
        if masks[cell] != 0 {
            continue;
        }
        let linked = (0..k).filter(|&s| board.link(cell, s) != NO_LINK);
        let free = linked
            .clone()
            .filter(|&s| board.neighbour(cell, s).is_some_and(|(m, _)| masks[m] == 0));
        // A free neighbour if there is one, else any neighbour (a lone cell of a 1x1 board
        // has none and stays empty).
        let side = pick(free, rng).or_else(|| pick(linked, rng));
        if let Some(side) = side {
            connect(board, &mut masks, (cell * k + side) as u32);
        }
    }
    masks
}

/// A uniform pick among the (at most [`mask::MAX_SIDES`]) sides `sides` yields.
pub(super) fn pick(sides: impl Iterator<Item = usize>, rng: &mut fastrand::Rng) -> Option<usize> {
    let mut seen = [0usize; crate::board::MAX_SIDES];
    let mut count = 0;
    for s in sides {
        seen[count] = s;
        count += 1;
    }
    (count > 0).then(|| seen[rng.usize(..count)])
}

/// Barriers for a Net puzzle whose solution is `solution`: each side the solution does not use
/// (between two cells) gets one with probability `p`, as SGT Net's `b` parameter. Whether a
/// side gets one is a hash of `seed` and the side compared with `p`, so for one seed a higher
/// `p` gives the same barriers and more. A barrier only removes solutions and the solution
/// crosses none, so a unique level stays unique.
pub fn net_barriers(solution: &BoardLevel, p: f64, seed: u64) -> Vec<u8> {
    let board = solution.board();
    let k = board.sides() as usize;
    let mut walls = vec![0u8; board.len()];
    // A threshold on 53 bits of the hash: p = 1 takes every side.
    let limit = (p.clamp(0.0, 1.0) * (1u64 << 53) as f64) as u64;
    for id in edge_ids(board) {
        let (c, s) = (id as usize / k, id as usize % k);
        if solution.masks()[c] >> s & 1 == 1 || edge_weight(seed, id) >> 11 >= limit {
            continue;
        }
        let (n, t) = board.neighbour(c, s).expect("an edge has two ends");
        walls[c] |= 1 << s;
        walls[n] |= 1 << t;
    }
    walls
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    const FAMILIES: [BoardFamily; 8] = [
        BoardFamily::Random { density: 0.0 },
        BoardFamily::Random { density: 0.5 },
        BoardFamily::Random { density: 1.0 },
        BoardFamily::Loops,
        BoardFamily::Maze,
        BoardFamily::Dominoes,
        BoardFamily::Paths { len: 3, bent: 0.75 },
        BoardFamily::Paths { len: 4, bent: 1.0 },
    ];

    const CYLINDER: Wrap = Wrap {
        horizontal: true,
        vertical: false,
    };

    /// The shapes of board the families must handle, each at `width` x `height`.
    fn shapes_of(width: usize, height: usize) -> Vec<Board> {
        [
            (Tiling::Square, Wrap::NONE),
            (Tiling::Square, Wrap::BOTH),
            (Tiling::Square, CYLINDER),
            (Tiling::Hexagonal, Wrap::NONE),
            (Tiling::Hexagonal, Wrap::BOTH),
        ]
        .into_iter()
        .map(|(tiling, wrap)| Board::new(tiling, width, height, wrap).unwrap())
        .collect()
    }

    fn small_boards() -> Vec<Board> {
        let mut boards = Vec::new();
        for w in 2..=7 {
            for h in 2..=5 {
                boards.extend(shapes_of(w, h));
            }
        }
        boards
    }

    /// Whether `side` of `cell` lies on the rim, from rows and columns alone (not the link
    /// table), so a table and a generator wrong the same way do not pass together.
    fn on_rim(board: &Board, cell: usize, side: usize) -> bool {
        let (r, c) = board.row_col(cell);
        let (w, h) = (board.width(), board.height());
        let (top, bottom) = (r == 0, r + 1 == h);
        let (left, right) = (c == 0, c + 1 == w);
        let (rows_wrap, cols_wrap) = (board.wrap().vertical, board.wrap().horizontal);
        let vertical = |at_edge: bool| at_edge && !rows_wrap;
        let horizontal = |at_edge: bool| at_edge && !cols_wrap;
        match board.tiling() {
            Tiling::Square => match side {
                0 => vertical(top),
                1 => horizontal(right),
                2 => vertical(bottom),
                _ => horizontal(left),
            },
            Tiling::Hexagonal => {
                // Odd rows stick out half a cell to the right.
                let odd = r % 2 == 1;
                match side {
                    0 => horizontal(right),
                    1 => vertical(top) || horizontal(right && odd),
                    2 => vertical(top) || horizontal(left && !odd),
                    3 => horizontal(left),
                    4 => vertical(bottom) || horizontal(left && !odd),
                    _ => vertical(bottom) || horizontal(right && odd),
                }
            }
            Tiling::Polygonal(_) => unreachable!("nothing is generated on mixed grids"),
        }
    }

    /// Panics unless every connection stays off the rim and is answered across its link.
    fn assert_consistent(board: &Board, masks: &[u8], what: &str) {
        assert_eq!(masks.len(), board.len());
        let k = board.sides() as usize;
        for (cell, &m) in masks.iter().enumerate() {
            assert_eq!(m >> k, 0, "{what}: cell {cell} has a side beyond {k}");
            for side in 0..k {
                let on = m >> side & 1 == 1;
                let link = board.link(cell, side);
                assert_eq!(link == NO_LINK, on_rim(board, cell, side), "{what}: rim");
                if link == NO_LINK {
                    assert!(!on, "{what}: cell {cell} side {side} crosses the rim");
                } else {
                    let (n, t) = ((link >> 3) as usize, (link & 7) as usize);
                    let back = masks[n] >> t & 1 == 1;
                    assert_eq!(on, back, "{what}: cell {cell} side {side} vs {n} side {t}");
                }
            }
        }
    }

    fn degree(m: u8) -> usize {
        m.count_ones() as usize
    }

    /// Cells reached from cell 0 along the connections.
    fn reached(board: &Board, masks: &[u8]) -> usize {
        let mut seen = vec![false; board.len()];
        let mut queue = VecDeque::from([0usize]);
        seen[0] = true;
        let mut count = 1;
        while let Some(cell) = queue.pop_front() {
            for side in 0..board.sides() as usize {
                if masks[cell] >> side & 1 == 1 {
                    let (n, _) = board.neighbour(cell, side).unwrap();
                    if !seen[n] {
                        seen[n] = true;
                        count += 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        count
    }

    fn name(board: &Board, family: BoardFamily) -> String {
        format!(
            "{family:?} on {} {}x{} wrap {}",
            board.tiling().name(),
            board.width(),
            board.height(),
            board.wrap().name()
        )
    }

    #[test]
    fn every_family_agrees_across_links_and_scrambles_to_the_same_shapes() {
        for board in small_boards() {
            for family in FAMILIES {
                for seed in 0..3 {
                    let what = name(&board, family);
                    let (scrambled, solution) = generate_on_board(&board, family, seed);
                    assert_consistent(&board, solution.masks(), &what);
                    assert_eq!(solution.board(), &board);
                    assert!(scrambled.same_shapes(&solution), "{what}");
                }
            }
        }
    }

    #[test]
    fn a_maze_is_a_spanning_tree() {
        for board in small_boards() {
            for seed in 0..5 {
                let (_, solution) = generate_on_board(&board, BoardFamily::Maze, seed);
                let m = solution.masks();
                let edges: usize = m.iter().map(|&x| degree(x)).sum::<usize>() / 2;
                let what = name(&board, BoardFamily::Maze);
                assert_eq!(edges, board.len() - 1, "{what}");
                assert_eq!(reached(&board, m), board.len(), "{what}");
            }
        }
    }

    #[test]
    fn a_maze_is_kruskals_tree_for_the_order_of_its_weights() {
        for board in small_boards() {
            for seed in 0..3 {
                let found = maze_masks(&board, &mut fastrand::Rng::with_seed(seed));
                let key = fastrand::Rng::with_seed(seed).u64(..);
                let mut order: Vec<u32> = edge_ids(&board).collect();
                order.sort_by_key(|&id| (edge_weight(key, id), id));
                let mut sets = UnionFind::new(board.len());
                let mut kruskal = vec![0u8; board.len()];
                for id in order {
                    let (a, b) = ends(&board, id);
                    if sets.union(a as u32, b as u32) {
                        connect(&board, &mut kruskal, id);
                    }
                }
                assert_eq!(found, kruskal, "{}", name(&board, BoardFamily::Maze));
            }
        }
    }

    #[test]
    fn a_maze_on_a_wrapped_board_uses_wrap_edges() {
        for board in shapes_of(12, 12).into_iter().filter(|b| b.wrap().any()) {
            let (_, solution) = generate_on_board(&board, BoardFamily::Maze, 1);
            let wraps = (0..board.len())
                .flat_map(|c| (0..board.sides() as usize).map(move |s| (c, s)))
                .filter(|&(c, s)| solution.masks()[c] >> s & 1 == 1)
                .filter(|&(c, s)| {
                    let (n, _) = board.neighbour(c, s).unwrap();
                    let ((r, col), (nr, ncol)) = (board.row_col(c), board.row_col(n));
                    r.abs_diff(nr) > 1 || col.abs_diff(ncol) > 1
                })
                .count();
            assert!(wraps > 0, "{}", name(&board, BoardFamily::Maze));
        }
    }

    #[test]
    fn loops_have_even_degrees_and_hexagonal_ones_all_even_shapes() {
        for board in small_boards() {
            for seed in 0..5 {
                let (_, solution) = generate_on_board(&board, BoardFamily::Loops, seed);
                let what = name(&board, BoardFamily::Loops);
                assert!(
                    solution
                        .masks()
                        .iter()
                        .all(|&m| degree(m).is_multiple_of(2)),
                    "{what}"
                );
            }
        }
        for board in shapes_of(20, 20) {
            let (_, solution) = generate_on_board(&board, BoardFamily::Loops, 9);
            let mut degrees = [0usize; 9];
            for &m in solution.masks() {
                degrees[degree(m)] += 1;
            }
            let wanted: &[usize] = match board.tiling() {
                Tiling::Square => &[2, 4],
                Tiling::Hexagonal => &[2, 4, 6],
                Tiling::Polygonal(_) => unreachable!("nothing is generated on mixed grids"),
            };
            for &d in wanted {
                assert!(
                    degrees[d] > 0,
                    "{}: no {d}",
                    name(&board, BoardFamily::Loops)
                );
            }
        }
    }

    /// Panics unless `masks` look like dominoes: no empty cell, over 80% one-end pieces and
    /// over 60% one-end pieces facing one (about 91% and 78% on 20x20 boards; pairing with any
    /// neighbour instead of a free one gives about 70% and 30%).
    fn assert_dominoes(board: &Board, masks: &[u8], what: &str) {
        assert!(masks.iter().all(|&x| x != 0), "{what}: an empty cell");
        let ends = masks.iter().filter(|&&x| degree(x) == 1).count();
        let facing = (0..board.len())
            .filter(|&c| degree(masks[c]) == 1)
            .filter(|&c| {
                let side = masks[c].trailing_zeros() as usize;
                let (n, _) = board.neighbour(c, side).unwrap();
                degree(masks[n]) == 1
            })
            .count();
        let n = board.len();
        assert!(ends * 10 > n * 8, "{what}: {ends} one-end pieces of {n}");
        assert!(
            facing * 10 > n * 6,
            "{what}: {facing} facing pairs' ends of {n}"
        );
    }

    #[test]
    fn dominoes_are_mostly_one_end_pieces_and_leave_no_cell_empty() {
        for board in shapes_of(20, 20) {
            for seed in 0..3 {
                let (_, solution) = generate_on_board(&board, BoardFamily::Dominoes, seed);
                assert_dominoes(
                    &board,
                    solution.masks(),
                    &name(&board, BoardFamily::Dominoes),
                );
            }
        }
        for board in small_boards() {
            let (_, solution) = generate_on_board(&board, BoardFamily::Dominoes, 4);
            let what = name(&board, BoardFamily::Dominoes);
            assert!(solution.masks().iter().all(|&x| x != 0), "{what}");
        }
    }

    /// The connected pieces of `masks`, each as its cells.
    fn pieces(board: &Board, masks: &[u8]) -> Vec<Vec<usize>> {
        let mut sets = UnionFind::new(board.len());
        for (cell, &m) in masks.iter().enumerate() {
            for side in (0..board.sides() as usize).filter(|&s| m >> s & 1 == 1) {
                let (n, _) = board.neighbour(cell, side).unwrap();
                sets.union(cell as u32, n as u32);
            }
        }
        let mut by_root = vec![Vec::new(); board.len()];
        for cell in 0..board.len() {
            by_root[sets.find(cell as u32) as usize].push(cell);
        }
        by_root.retain(|p| !p.is_empty());
        by_root
    }

    #[test]
    fn paths_cover_nearly_every_cell_with_paths_of_their_length() {
        for board in shapes_of(24, 24) {
            for (len, bent) in [(3, 0.75), (4, 0.5), (3, 0.0), (3, 1.0), (2, 0.5)] {
                let family = BoardFamily::Paths { len, bent };
                let what = name(&board, family);
                for seed in 0..3 {
                    let (_, solution) = generate_on_board(&board, family, seed);
                    let masks = solution.masks();
                    assert!(masks.iter().all(|&m| m != 0), "{what}: an empty cell");
                    let pieces = pieces(&board, masks);
                    let exact = pieces.iter().filter(|p| {
                        let ends = p.iter().filter(|&&c| degree(masks[c]) == 1).count();
                        let middles = p.iter().filter(|&&c| degree(masks[c]) == 2).count();
                        p.len() == len && ends == 2 && middles == len - 2
                    });
                    let covered: usize = exact.map(|p| p.len()).sum();
                    // Left-over cells lengthen or join a few paths, and each takes a path of
                    // `len` out of the count; most stay as laid (the least seen: 0.72 of the
                    // cells for three-cell paths, 0.65 for four).
                    let share = if len == 4 { 55 } else { 65 };
                    assert!(
                        covered * 100 >= board.len() * share,
                        "{what} seed {seed}: {covered} of {} cells on paths of {len}",
                        board.len()
                    );
                }
            }
        }
    }

    /// The middles (two connections) of `masks` that go straight on: their sides opposite.
    fn straight_middles(board: &Board, masks: &[u8]) -> (usize, usize) {
        let k = board.sides() as usize;
        let middles = masks.iter().filter(|&&m| degree(m) == 2);
        let straight = middles
            .clone()
            .filter(|&&m| (0..k).any(|s| m == (1 << s) | (1 << ((s + k / 2) % k))));
        (straight.count(), middles.count())
    }

    #[test]
    fn paths_bend_as_often_as_asked() {
        for board in shapes_of(40, 40) {
            let at = |bent| {
                let family = BoardFamily::Paths { len: 4, bent };
                let (_, solution) = generate_on_board(&board, family, 5);
                straight_middles(&board, solution.masks())
            };
            let what = name(&board, BoardFamily::Paths { len: 4, bent: 0.5 });
            // A walk that cannot keep to its draw turns otherwise, and repairs add a few
            // middles of any shape: the shares stay near the draw (square 64x64, three-cell
            // paths: 0.88-0.89 straight at bent 0, 0.47-0.49 at 0.5, 0.06-0.09 at 1).
            let share = |(straight, middles): (usize, usize)| straight as f64 / middles as f64;
            let (none, half, all) = (share(at(0.0)), share(at(0.5)), share(at(1.0)));
            assert!(none >= 0.8, "{what}: {none} straight at bent 0");
            assert!(
                (0.35..=0.6).contains(&half),
                "{what}: {half} straight at bent 0.5"
            );
            assert!(all <= 0.1, "{what}: {all} straight at bent 1");
        }
    }

    #[test]
    fn windowed_dominoes_pair_like_shuffled_ones() {
        for board in shapes_of(20, 24) {
            let what = name(&board, BoardFamily::Dominoes);
            let mut rng = fastrand::Rng::with_seed(8);
            let order = domino_order(&board, 4, &mut rng);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                (0..board.len() as u32).collect::<Vec<_>>(),
                "{what}"
            );
            let masks = pair_in_order(&board, &order, &mut rng);
            assert_consistent(&board, &masks, &what);
            assert_dominoes(&board, &masks, &what);
        }
    }

    #[test]
    fn random_density_zero_is_empty_one_is_every_edge_and_half_is_about_half() {
        for board in small_boards() {
            let (_, none) = generate_on_board(&board, BoardFamily::Random { density: 0.0 }, 2);
            assert!(none.masks().iter().all(|&m| m == 0));
            let (_, all) = generate_on_board(&board, BoardFamily::Random { density: 1.0 }, 2);
            let full = ((1u32 << board.sides()) - 1) as u8;
            for (cell, &m) in all.masks().iter().enumerate() {
                let open = (0..board.sides() as usize)
                    .filter(|&s| !on_rim(&board, cell, s))
                    .fold(0u8, |acc, s| acc | 1 << s);
                assert_eq!(m, open & full, "{}", name(&board, BoardFamily::Maze));
            }
        }
        for board in shapes_of(20, 20) {
            let (_, half) = generate_on_board(&board, BoardFamily::Random { density: 0.5 }, 2);
            let on: usize = half.masks().iter().map(|&m| degree(m)).sum::<usize>() / 2;
            let edges = board.edges().count();
            assert!(
                on * 10 > edges * 4 && on * 10 < edges * 6,
                "{on} of {edges}"
            );
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_level_and_another_seed_another() {
        for board in shapes_of(7, 5) {
            for family in FAMILIES {
                let a = generate_on_board(&board, family, 11);
                assert_eq!(a, generate_on_board(&board, family, 11));
                // Density 0 and 1 leave nothing to chance on a torus (all blanks, all crosses).
                if !matches!(family, BoardFamily::Random { density } if density != 0.5) {
                    assert_ne!(a, generate_on_board(&board, family, 12));
                }
            }
        }
    }

    #[test]
    fn scrambling_turns_pieces_by_every_amount() {
        let board = Board::new(Tiling::Hexagonal, 30, 30, Wrap::NONE).unwrap();
        // One-end pieces: each turn count shows as a distinct mask.
        let solved = BoardLevel::new(board.clone(), vec![1; board.len()]).unwrap();
        let mut level = solved.clone();
        scramble(&mut level, &mut fastrand::Rng::with_seed(5));
        assert!(level.same_shapes(&solved));
        for side in 0..6 {
            let count = level.masks().iter().filter(|&&m| m == 1 << side).count();
            assert!(count > 100, "turn {side} taken {count} times of 900");
        }
    }

    #[test]
    fn streamed_faces_are_the_boards_faces() {
        for board in small_boards() {
            let mut streamed = Vec::new();
            for_each_face(&board, |start, walk| streamed.push((start, walk.to_vec())));
            let listed: Vec<(usize, Vec<u8>)> = board
                .faces()
                .into_iter()
                .map(|(start, walk)| (start, walk.to_vec()))
                .collect();
            assert_eq!(streamed, listed, "{:?}", board);
        }
    }

    #[test]
    fn edge_ids_name_each_edge_once_by_its_lower_end() {
        for board in small_boards() {
            let k = board.sides() as usize;
            let listed: Vec<u32> = board.edges().map(|(c, s)| (c * k + s) as u32).collect();
            assert_eq!(edge_ids(&board).collect::<Vec<_>>(), listed);
        }
    }

    /// Release timing at 4096x4096 hexagonal:
    /// `cargo test --release --lib board_families::tests::timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing_4096_hexagonal() {
        for wrap in [Wrap::NONE, Wrap::BOTH] {
            let board = Board::new(Tiling::Hexagonal, 4096, 4096, wrap).unwrap();
            for family in [
                BoardFamily::Random { density: 0.5 },
                BoardFamily::Loops,
                BoardFamily::Maze,
                BoardFamily::Dominoes,
            ] {
                let start = std::time::Instant::now();
                let (scrambled, _) = generate_on_board(&board, family, 1);
                let took = start.elapsed();
                let ones = scrambled.masks().iter().filter(|&&m| m != 0).count();
                println!("{}: {took:.2?} ({ones} pieces)", name(&board, family));
            }
        }
    }
}

//! Levels for the engine's tests: every small board, solved masks (random connections, a
//! random spanning tree) and their scrambling with barriers and locks. Fixtures only: each
//! test keeps its own oracle, so what these build is judged by code that shares nothing
//! with the engine.

use std::ops::RangeInclusive;

use super::mask::rotate;
use super::{Board, BoardLevel, Rules, Tiling, Wrap};

/// Every tiling and wrap at widths and heights in `sides`, up to `max_cells` cells.
pub fn small_boards(sides: RangeInclusive<usize>, max_cells: usize) -> Vec<Board> {
    let wraps = [
        Wrap::NONE,
        Wrap::BOTH,
        Wrap::from_name("horizontal").unwrap(),
        Wrap::from_name("vertical").unwrap(),
    ];
    let mut out = Vec::new();
    for tiling in Tiling::ALL {
        for w in sides.clone() {
            for h in sides.clone() {
                if w * h > max_cells {
                    continue;
                }
                for wrap in wraps {
                    if let Ok(b) = Board::new(tiling, w, h, wrap) {
                        out.push(b);
                    }
                }
            }
        }
    }
    out
}

/// Each side of the board connected with probability 2/3 (loops for Infinity rules).
pub fn random_connections(b: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; b.len()];
    for (c, s) in b.edges() {
        if rng.u8(..3) > 0 {
            let (n, t) = b.neighbour(c, s).unwrap();
            masks[c] |= 1 << s;
            masks[n] |= 1 << t;
        }
    }
    masks
}

/// A random spanning tree of the board (Kruskal's over shuffled sides).
pub fn spanning_tree(b: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut edges: Vec<(usize, usize)> = b.edges().collect();
    rng.shuffle(&mut edges);
    let mut parent: Vec<usize> = (0..b.len()).collect();
    fn root(p: &[usize], mut x: usize) -> usize {
        while p[x] != x {
            x = p[x];
        }
        x
    }
    let mut masks = vec![0u8; b.len()];
    for (c, s) in edges {
        let (n, t) = b.neighbour(c, s).unwrap();
        let (a, z) = (root(&parent, c), root(&parent, n));
        if a != z {
            parent[a] = z;
            masks[c] |= 1 << s;
            masks[n] |= 1 << t;
        }
    }
    masks
}

/// `solved` scrambled under `rules`: with probability 1/2, barriers on a third of the sides
/// it does not use (both ends); each cell locked (as solved) with probability
/// 1/`lock_one_in`; every other cell turned at random.
pub fn scrambled(
    b: &Board,
    solved: &[u8],
    rules: Rules,
    lock_one_in: u8,
    rng: &mut fastrand::Rng,
) -> BoardLevel {
    let k = b.sides();
    let mut walls = vec![0u8; b.len()];
    if rng.bool() {
        for (c, s) in b.edges() {
            if solved[c] >> s & 1 == 0 && rng.u8(..3) == 0 {
                let (n, t) = b.neighbour(c, s).unwrap();
                walls[c] |= 1 << s;
                walls[n] |= 1 << t;
            }
        }
    }
    let locked: Vec<bool> = (0..b.len()).map(|_| rng.u8(..lock_one_in) == 0).collect();
    let masks = solved
        .iter()
        .zip(&locked)
        .map(|(&m, &l)| if l { m } else { rotate(m, k, rng.u8(..k)) })
        .collect();
    BoardLevel::new(b.clone(), masks)
        .unwrap()
        .with_rules(rules)
        .with_barriers(walls)
        .unwrap()
        .with_locked(locked)
        .unwrap()
}

//! Levels for the engine's tests: every small board, solved masks (random connections, a
//! random spanning tree) and their scrambling with barriers and locks, and the brute-force
//! oracle that judges them: code that shares nothing with any engine, written once for the
//! any-board engine's, the ladder's and the learning search's tests.

use std::ops::RangeInclusive;

use super::mask::{period, rotate};
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

/// Every solution of `level`, by trying each orientation of each cell in row-major order
/// (locked cells keep theirs), checking each side once both ends are placed, and under Net
/// rules counting components and connections at the end. Shares no code with any engine.
pub fn brute_force(level: &BoardLevel) -> Vec<Vec<u8>> {
    fn go(i: usize, level: &BoardLevel, placed: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        let b = level.board();
        let k = b.sides();
        if i == placed.len() {
            if level.rules() == Rules::Infinity || is_one_tree(b, placed) {
                out.push(placed.clone());
            }
            return;
        }
        let m0 = level.masks()[i];
        let turns = if level.is_locked(i) { 1 } else { period(m0, k) };
        for r in 0..turns {
            let m = rotate(m0, k, r);
            if m & level.barrier(i) != 0 {
                continue;
            }
            placed[i] = m;
            let fits = (0..k as usize).all(|s| match b.neighbour(i, s) {
                None => m >> s & 1 == 0,
                Some((j, t)) if j < i => (placed[j] >> t & 1) == (m >> s & 1),
                Some((j, t)) if j == i => (m >> t & 1) == (m >> s & 1),
                Some(_) => true,
            });
            if fits {
                go(i + 1, level, placed, out);
            }
        }
    }
    let mut out = Vec::new();
    go(0, level, &mut vec![0; level.board().len()], &mut out);
    out
}

/// Whether the non-empty cells of `masks` on `b` form one tree (Net rules: connected, and
/// one connection fewer than cells).
pub fn is_one_tree(b: &Board, masks: &[u8]) -> bool {
    let k = b.sides() as usize;
    let cells = masks.iter().filter(|&&m| m != 0).count();
    let links: usize = masks.iter().map(|m| m.count_ones() as usize).sum::<usize>() / 2;
    let Some(start) = masks.iter().position(|&m| m != 0) else {
        return true;
    };
    let mut seen = vec![false; masks.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        for s in (0..k).filter(|&s| masks[c] >> s & 1 == 1) {
            let (n, _) = b.neighbour(c, s).unwrap();
            if !seen[n] {
                seen[n] = true;
                reached += 1;
                stack.push(n);
            }
        }
    }
    reached == cells && links + 1 == cells
}

//! The square tiling: sides N, E, S, W numbered clockwise from north (the course format's
//! connection bits), a row or column ring where the board wraps.

use super::{Board, Lattice, NO_LINK, Wrap};
use crate::par::*;

/// Row and column steps of N, E, S, W.
const STEP: [(isize, isize); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// The square board's neighbours by arithmetic (see [`Lattice`]).
pub(super) fn lattice(width: usize, height: usize) -> Lattice {
    let steps = STEP.map(|step| [step; 2]);
    Lattice::from_steps(width, height, &steps, |s| (s + 2) % 4)
}

/// The link of (`r`, `c`)'s `side` as a link table holds it.
pub(super) fn link(
    r: usize,
    c: usize,
    side: usize,
    width: usize,
    height: usize,
    wrap: Wrap,
) -> u32 {
    let (dr, dc) = STEP[side];
    match (
        wrapped(r as isize + dr, height, wrap.vertical),
        wrapped(c as isize + dc, width, wrap.horizontal),
    ) {
        (Some(nr), Some(nc)) => ((nr * width + nc) as u32) << 3 | ((side + 2) % 4) as u32,
        _ => NO_LINK,
    }
}

/// The link table of a `width` x `height` square board, built a row per task (see
/// `hexagonal::links`).
pub(super) fn links(width: usize, height: usize, wrap: Wrap) -> Vec<u32> {
    let mut links = vec![0u32; width * height * 4];
    links
        .par_chunks_mut(width * 4)
        .enumerate()
        .for_each(|(r, row)| {
            for (c, cell) in row.chunks_exact_mut(4).enumerate() {
                for (s, l) in cell.iter_mut().enumerate() {
                    *l = link(r, c, s, width, height, wrap);
                }
            }
        });
    links
}

/// `i` (one step from `0..len`) brought into `0..len` when the direction wraps, or `None`
/// past a border. A compare, not a remainder: the table of a 4096x4096 board takes 67M of
/// these, and a division per side was most of its time.
fn wrapped(i: isize, len: usize, wrap: bool) -> Option<usize> {
    let len = len as isize;
    debug_assert!((-1..=len).contains(&i), "one step off the board at most");
    if (0..len).contains(&i) {
        Some(i as usize)
    } else if wrap {
        Some(if i < 0 { i + len } else { i - len } as usize)
    } else {
        None
    }
}

/// The 2x2 blocks: east, south, west, north from the block's top-left cell.
pub(super) fn faces(board: &Board) -> Vec<(usize, &'static [u8])> {
    const ROUND: &[u8] = &[1, 2, 3, 0];
    (0..board.len())
        .filter(|&c| walkable(board, c, ROUND))
        .map(|c| (c, ROUND))
        .collect()
}

/// Whether every step of the walk from `start` crosses a link and the walk closes.
pub(super) fn walkable(board: &Board, start: usize, sides: &[u8]) -> bool {
    let mut c = start;
    for &s in sides {
        match board.neighbour(c, s as usize) {
            Some((n, _)) => c = n,
            None => return false,
        }
    }
    c == start
}

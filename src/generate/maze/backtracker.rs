//! Recursive backtracker, without recursion: an explicit stack of the current path. From the
//! top cell, open a passage to a random unvisited neighbour and push it; with none left, pop.
//! Long winding corridors and few dead ends. The stack holds at most every cell once (4 bytes
//! a cell), so 4096x4096 needs no deep call stack.

use super::grid::Dims;
use super::padded::Padded;

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let mut grid = Padded::new(dims);
    // Visited cells are those with a passage (mask not 0), and the start ([`START`]): no
    // array of flags, one cache miss less per step on a large grid.
    let start = grid.at(rng.usize(..n));
    grid.cells[start] = START;
    let mut stack: Vec<u32> = vec![start as u32];
    while let Some(&top) = stack.last() {
        let cur = top as usize;
        let (options, k) = grid.neighbours_where(cur, |b| b == 0);
        if k == 0 {
            stack.pop();
            continue;
        }
        let (side, next) = options[rng.usize(..k)];
        grid.open(cur, side, next);
        stack.push(next as u32);
    }
    grid.write_masks(masks);
}

/// The start cell, visited before it has a passage.
const START: u8 = 0x20;

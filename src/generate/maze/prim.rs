//! Randomised (simplified) Prim: a random cell of the frontier (cells next to the maze but
//! not in it) joins the maze through a random neighbour already in it, and its own outside
//! neighbours join the frontier. Many short dead ends. The frontier is an unordered list
//! (swap-remove), so each step is constant time; cells live on a [`Padded`] grid.

use super::grid::Dims;
use super::padded::Padded;

/// Marks a frontier cell in its byte (passages use the low four bits). A cell is in the maze
/// once it has a passage or is the start ([`START`]); outside when its byte is 0. One byte per
/// cell for the mask and the state: a step on a large grid costs half the cache misses of a
/// separate state array.
const FRONTIER: u8 = 0x10;
/// The start cell, in the maze before it has a passage.
const START: u8 = 0x20;

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let mut grid = Padded::new(dims);
    let start = grid.at(rng.usize(..n));
    grid.cells[start] = START;
    let mut frontier: Vec<u32> = Vec::new();
    let add = |cell: usize, grid: &mut Padded, frontier: &mut Vec<u32>| {
        let (outside, k) = grid.neighbours_where(cell, |b| b == 0);
        for &(_, j) in &outside[..k] {
            grid.cells[j] = FRONTIER;
            frontier.push(j as u32);
        }
    };
    add(start, &mut grid, &mut frontier);
    while !frontier.is_empty() {
        let cell = frontier.swap_remove(rng.usize(..frontier.len())) as usize;
        let (inside, k) = grid.neighbours_where(cell, |b| b & (0xF | START) != 0);
        let (side, j) = inside[rng.usize(..k)];
        grid.open(cell, side, j);
        add(cell, &mut grid, &mut frontier);
    }
    grid.write_masks(masks);
}

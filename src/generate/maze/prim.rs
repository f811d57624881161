//! Randomised (simplified) Prim: a random cell of the frontier (cells next to the maze but
//! not in it) joins the maze through a random neighbour already in it, and its own outside
//! neighbours join the frontier. Many short dead ends. The frontier is an unordered list
//! (swap-remove), so each step is constant time; cells live on a [`Padded`] grid.

use super::grid::Dims;
use super::padded::{Padded, WALL};
use crate::generate::prefetch::prefetch;
use crate::model::direction::{E, N, S, W};

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
    let (outside, k) = grid.neighbours_where(start, |b| b == 0);
    for &(_, j) in &outside[..k] {
        grid.cells[j] = FRONTIER;
        frontier.push(j as u32);
    }
    while !frontier.is_empty() {
        let cell = frontier.swap_remove(rng.usize(..frontier.len())) as usize;
        prefetch_next_pick(&grid.cells, &frontier, rng);
        // One look at the four neighbours finds both the maze cells to join and the outside
        // cells to add (opening the passage changes neither set).
        let mut inside = [(0, 0); 4];
        let mut outside = [0; 4];
        let (mut ki, mut ko) = (0, 0);
        for side in [N, E, S, W] {
            let q = grid.across(cell, side);
            let b = grid.cells[q];
            inside[ki] = (side, q);
            ki += usize::from(b & WALL == 0 && b & (0xF | START) != 0);
            outside[ko] = q;
            ko += usize::from(b == 0);
        }
        let (side, j) = inside[rng.usize(..ki)];
        grid.open(cell, side, j);
        for &q in &outside[..ko] {
            grid.cells[q] = FRONTIER;
            frontier.push(q as u32);
        }
    }
    grid.write_masks(masks);
}

/// Starts loading the cell the next step will most likely pick, so that its cache miss
/// overlaps this step's. Every step takes two `u64` draws (the frontier index, then the
/// side), so the next index is drawn from the second `u64` ahead, as `(x * len) >> 64` for
/// the frontier's length then: this step leaves it `frontier.len()` plus 0 to 3 new cells,
/// and the few entries those lengths can pick are prefetched (an entry at or past the current
/// end is a neighbour of this step's cell, already in the cache). Only a hint: the draws
/// and the maze are unchanged.
#[inline]
fn prefetch_next_pick(cells: &[u8], frontier: &[u32], rng: &fastrand::Rng) {
    let mut peek = rng.clone();
    peek.u64(..);
    let x = u128::from(peek.u64(..));
    let len = frontier.len();
    if len == 0 {
        return;
    }
    let pick = |n: usize| ((x * n as u128) >> 64) as usize;
    for &cell in &frontier[pick(len)..=pick(len + 3).min(len - 1)] {
        prefetch(cells, cell as usize);
    }
}

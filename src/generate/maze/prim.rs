//! Randomised (simplified) Prim: a random cell of the frontier (cells next to the maze but
//! not in it) joins the maze through a random neighbour already in it, and its own outside
//! neighbours join the frontier. Many short dead ends. The frontier is an unordered list
//! (swap-remove), so each step is constant time.

use super::grid::{Dims, open};

/// Marks a frontier cell in its mask byte (passages use the low four bits). A cell is in the
/// maze once it has a passage, or is the start; outside when its byte is 0. One byte per cell
/// for the mask and the state: a step on a large grid costs half the cache misses of a
/// separate state array.
const FRONTIER: u8 = 0x10;

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let start = rng.usize(..n);
    let mut frontier: Vec<u32> = Vec::new();
    let add = |cell: usize, masks: &mut [u8], frontier: &mut Vec<u32>| {
        let (outside, k) = dims.neighbours_where(cell, |j| masks[j] == 0 && j != start);
        for &(_, j) in &outside[..k] {
            masks[j] = FRONTIER;
            frontier.push(j as u32);
        }
    };
    add(start, masks, &mut frontier);
    while !frontier.is_empty() {
        let cell = frontier.swap_remove(rng.usize(..frontier.len())) as usize;
        let (inside, k) = dims.neighbours_where(cell, |j| masks[j] & 0xF != 0 || j == start);
        let (side, j) = inside[rng.usize(..k)];
        open(masks, cell, side, j);
        add(cell, masks, &mut frontier);
    }
    for m in masks.iter_mut() {
        *m &= 0xF;
    }
}

//! Randomised (simplified) Prim: a random cell of the frontier (cells next to the maze but
//! not in it) joins the maze through a random neighbour already in it, and its own outside
//! neighbours join the frontier. Many short dead ends. The frontier is an unordered list
//! (swap-remove), so each step is constant time.

use super::grid::{Dims, open};

const OUT: u8 = 0;
const FRONTIER: u8 = 1;
const IN: u8 = 2;

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let mut state = vec![OUT; n];
    let mut frontier: Vec<u32> = Vec::new();
    let add = |cell: usize, state: &mut Vec<u8>, frontier: &mut Vec<u32>| {
        state[cell] = IN;
        let (outside, k) = dims.neighbours_where(cell, |j| state[j] == OUT);
        for &(_, j) in &outside[..k] {
            state[j] = FRONTIER;
            frontier.push(j as u32);
        }
    };
    add(rng.usize(..n), &mut state, &mut frontier);
    while !frontier.is_empty() {
        let cell = frontier.swap_remove(rng.usize(..frontier.len())) as usize;
        let (inside, k) = dims.neighbours_where(cell, |j| state[j] == IN);
        let (side, j) = inside[rng.usize(..k)];
        open(masks, cell, side, j);
        add(cell, &mut state, &mut frontier);
    }
}

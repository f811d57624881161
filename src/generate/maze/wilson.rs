//! Wilson: loop-erased random walks. From each cell not yet in the tree, walk at random until
//! the tree is hit, remembering only the last exit taken from each cell (which erases loops
//! for free), then open the passages along the remembered path. Uniform spanning tree, like
//! Aldous–Broder, in roughly the mean hitting time instead of the cover time.

use super::grid::{Dims, open, random_step};

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    // A cell is in the tree once it has a passage, or is the root (which gets one with the
    // first walk): no array of flags beside the masks (fewer cache misses on a large grid).
    let root = rng.usize(..n);
    let in_tree = |masks: &[u8], c: usize| masks[c] != 0 || c == root;
    // Last exit side taken from each cell by the current walk.
    let mut exit = vec![0u8; n];
    // Any order of starting cells gives the uniform distribution; row-major needs no memory.
    for start in 0..n {
        if in_tree(masks, start) {
            continue;
        }
        let mut cur = start;
        while !in_tree(masks, cur) {
            let (side, next) = random_step(dims, cur, rng);
            exit[cur] = side as u8;
            cur = next;
        }
        // Opening a passage gives the next cell a mask: ask whether it was in the tree first.
        let mut cur = start;
        loop {
            let side = exit[cur] as usize;
            let next = dims
                .neighbour(cur, side)
                .expect("walks only take sides that stay on the grid");
            let reached = in_tree(masks, next);
            open(masks, cur, side, next);
            if reached {
                break;
            }
            cur = next;
        }
    }
}

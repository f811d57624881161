//! Wilson: loop-erased random walks. From each cell not yet in the tree, walk at random until
//! the tree is hit, remembering only the last exit taken from each cell (which erases loops
//! for free), then add the remembered path to the tree. Uniform spanning tree, like
//! Aldous–Broder, in roughly the mean hitting time instead of the cover time. The walks run on
//! a [`WalkGrid`] (one byte per cell, no division per step).

use super::grid::Dims;
use super::walk_grid::{WalkGrid, random_step};

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let mut grid = WalkGrid::new(dims);
    grid.set_root(grid.at(rng.usize(..n)));
    // Any order of starting cells gives the uniform distribution; row-major needs no memory.
    for r in 0..dims.height {
        for c in 0..dims.width {
            let start = grid.cell(r, c);
            if grid.in_tree(start) {
                continue;
            }
            let mut cur = start;
            while !grid.in_tree(cur) {
                let (side, next) = random_step(&grid, cur, rng);
                grid.set_exit(cur, side);
                cur = next;
            }
            let mut cur = start;
            while !grid.in_tree(cur) {
                let side = grid.exit(cur);
                grid.attach(cur, side);
                cur = grid.across(cur, side);
            }
        }
    }
    grid.write_masks(masks);
}

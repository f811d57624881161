//! Aldous–Broder: a random walk over the whole grid that adds a cell to the tree, through the
//! side it came from, when it first enters it. Gives a uniform spanning tree but needs the
//! walk's cover time, about n·log²n steps on an n-cell grid: seconds at 2048x2048 and much
//! longer above (see `super::ALDOUS_BRODER_MAX_CELLS`); Wilson builds the same distribution
//! far faster. The walk runs on a [`WalkGrid`] (one byte per cell, no division per step).

use super::grid::Dims;
use super::walk_grid::{WalkGrid, random_step};
use crate::model::direction::opposite;

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let mut grid = WalkGrid::new(dims);
    let mut cur = grid.at(rng.usize(..n));
    grid.set_root(cur);
    let mut remaining = n - 1;
    while remaining > 0 {
        let (side, next) = random_step(&grid, cur, rng);
        if !grid.in_tree(next) {
            grid.attach(next, opposite(side));
            remaining -= 1;
        }
        cur = next;
    }
    grid.write_masks(masks);
}

//! Aldous–Broder: a random walk over the whole grid that opens a passage whenever it first
//! enters a cell. Gives a uniform spanning tree but needs the walk's cover time, about
//! n·log²n steps on an n-cell grid: seconds at 1024x1024 and much longer at 4096x4096 (see
//! the README); Wilson builds the same distribution far faster.

use super::grid::{Dims, open, random_step};

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let mut visited = vec![false; n];
    let mut cur = rng.usize(..n);
    visited[cur] = true;
    let mut remaining = n - 1;
    while remaining > 0 {
        let (side, next) = random_step(dims, cur, rng);
        if !visited[next] {
            visited[next] = true;
            open(masks, cur, side, next);
            remaining -= 1;
        }
        cur = next;
    }
}

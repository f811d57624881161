//! Randomised Kruskal: every inner wall in random order, opened when the two cells are in
//! different trees (union-find). Uniform-looking texture with many short dead ends.

use super::grid::{Dims, open};
use crate::generate::union_find::UnionFind;
use crate::model::direction::{E, S};

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let n = dims.cells();
    let (h, w) = (dims.height, dims.width);
    // Wall id = cell * 2 + (0: east side, 1: south side).
    let mut walls: Vec<u32> = Vec::with_capacity(2 * n);
    for i in 0..n {
        if i % w + 1 < w {
            walls.push((2 * i) as u32);
        }
        if i / w + 1 < h {
            walls.push((2 * i + 1) as u32);
        }
    }
    rng.shuffle(&mut walls);
    let mut uf = UnionFind::new(n);
    let mut opened = 0;
    for wall in walls {
        let i = (wall >> 1) as usize;
        let (side, j) = if wall & 1 == 0 {
            (E, i + 1)
        } else {
            (S, i + w)
        };
        if uf.union(i as u32, j as u32) {
            open(masks, i, side, j);
            opened += 1;
            if opened + 1 == n {
                break;
            }
        }
    }
}

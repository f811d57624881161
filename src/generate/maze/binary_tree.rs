//! Binary tree: every cell opens its north or its west side at random (only west on the top
//! row, only north in the left column). Each cell but the top-left one gets exactly one
//! passage towards it, so this is a spanning tree; the top row and the left column are
//! unbroken corridors, and the texture is strongly biased.

use super::grid::{Dims, open};
use crate::model::direction::{N, W};

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let w = dims.width;
    for i in 1..dims.cells() {
        let (r, c) = (i / w, i % w);
        let north = r > 0 && (c == 0 || rng.bool());
        if north {
            open(masks, i, N, i - w);
        } else {
            open(masks, i, W, i - 1);
        }
    }
}

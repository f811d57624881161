//! Randomised Kruskal: inner walls in random order, each opened when its two cells are in
//! different trees (union-find). Uniform-looking texture with many short dead ends.
//!
//! Grids taller than the window ([`window_rows`]) take their walls in a windowed random order
//! ([`visit_windowed`], streamed: no array of every wall) instead of one uniform shuffle: the union-find's finds then stay in a
//! band of rows that fits the cache instead of hitting random cells of the whole grid (at
//! 8192x8192 every union of the uniform order was a few cache and TLB misses). Any order of
//! the walls gives a spanning tree, and the windowed order treats every row alike, so the
//! texture stays Kruskal's (see the test). Smaller grids keep the uniform shuffle (and their
//! mazes for a seed).

use super::grid::{Dims, open};
use crate::generate::union_find::UnionFind;
#[cfg(test)]
use crate::generate::windowed_order::MIN_WINDOW_ROWS;
use crate::generate::windowed_order::{visit_windowed, window_rows};
use crate::model::direction::{E, S};

/// How many walls ahead a wall's two cells are prefetched, and how many ahead their parents.
const FAR: usize = 12;
const NEAR: usize = 5;

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    carve_windowed(dims, masks, rng, window_rows(dims.width));
}

/// [`carve`] with windows of `window` rows (tests use small windows); a grid of at most that
/// many rows takes one uniform shuffle.
fn carve_windowed(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng, window: usize) {
    let n = dims.cells();
    let (h, w) = (dims.height, dims.width);
    // Wall id = cell * 2 + (0: east side, 1: south side).
    let exists = |wall: usize| {
        let i = wall / 2;
        if wall.is_multiple_of(2) {
            i % w + 1 < w
        } else {
            i / w + 1 < h
        }
    };
    let mut uf = UnionFind::new(n);
    let mut opened = 0;
    // Opens `wall` when it joins two trees; false once the tree is complete.
    let mut try_wall = |uf: &mut UnionFind, wall: u32| {
        let i = (wall >> 1) as usize;
        let (side, j) = if wall & 1 == 0 {
            (E, i + 1)
        } else {
            (S, i + w)
        };
        if uf.union(i as u32, j as u32) {
            open(masks, i, side, j);
            opened += 1;
        }
        opened + 1 < n
    };
    if h <= window {
        let mut walls: Vec<u32> = (0..2 * n)
            .filter(|&x| exists(x))
            .map(|x| x as u32)
            .collect();
        rng.shuffle(&mut walls);
        for wall in walls {
            if !try_wall(&mut uf, wall) {
                break;
            }
        }
    } else {
        visit_windowed(
            h,
            2 * w,
            window,
            exists,
            |wall| wall % 2 == 1,
            rng,
            |wall, next| {
                // The window (33 rows of 4-byte links) is larger than a core's L2, so each
                // find would wait for the L3 in turn: ask for the cells of the walls a few
                // places ahead, and for their parents once those cells have arrived.
                let ends = |wall: u32| {
                    let i = wall >> 1;
                    (i, if wall & 1 == 0 { i + 1 } else { i + w as u32 })
                };
                if let Some(&far) = next.get(FAR - 1) {
                    let (i, j) = ends(far);
                    uf.prefetch(i);
                    uf.prefetch(j);
                }
                if let Some(&near) = next.get(NEAR - 1) {
                    let (i, j) = ends(near);
                    uf.prefetch_parent(i);
                    uf.prefetch_parent(j);
                }
                try_wall(&mut uf, wall)
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::components::count_components;
    use crate::model::direction::bit;

    #[test]
    fn windowed_grids_are_spanning_trees() {
        // Windows of a few rows, of one row, and wider than the grid (the uniform shuffle).
        for &(h, w, window) in &[(40, 30, 3), (37, 16, 1), (5, 50, 2), (64, 64, 64)] {
            let dims = Dims::new(h, w);
            for seed in 0..5 {
                let mut masks = vec![0u8; dims.cells()];
                carve_windowed(
                    dims,
                    &mut masks,
                    &mut fastrand::Rng::with_seed(seed),
                    window,
                );
                let ends: usize = masks.iter().map(|m| m.count_ones() as usize).sum();
                assert_eq!(ends / 2, dims.cells() - 1, "{h}x{w} windows of {window}");
                assert_eq!(
                    count_components(&masks, w),
                    1,
                    "{h}x{w} windows of {window}"
                );
            }
        }
    }

    #[test]
    fn windowed_texture_is_kruskals() {
        // Share of vertical passages and of dead ends, windowed against the uniform order.
        let (h, w) = (256, 256);
        let texture = |window: usize| {
            let mut masks = vec![0u8; h * w];
            let mut rng = fastrand::Rng::with_seed(1);
            carve_windowed(Dims::new(h, w), &mut masks, &mut rng, window);
            let down = masks.iter().filter(|&&m| m & bit(S) != 0).count();
            let dead = masks.iter().filter(|m| m.count_ones() == 1).count();
            (
                down as f64 / (h * w - 1) as f64,
                dead as f64 / (h * w) as f64,
            )
        };
        let (down, dead) = texture(MIN_WINDOW_ROWS);
        let (_, uniform_dead) = texture(h);
        assert!(
            (down - 0.5).abs() < 0.01,
            "{down:.4} of the passages vertical"
        );
        assert!(
            (dead - uniform_dead).abs() < 0.01,
            "dead ends {dead:.4} vs {uniform_dead:.4}"
        );
    }
}

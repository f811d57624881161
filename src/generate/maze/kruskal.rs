//! Randomised Kruskal: inner walls in random order, each opened when its two cells are in
//! different trees (union-find). Uniform-looking texture with many short dead ends.
//!
//! Grids taller than the window ([`window_rows`]) take their walls in a windowed random order
//! ([`visit_windowed_pipelined`], streamed: no array of every wall) instead of one uniform
//! shuffle: the disjoint sets' climbs then stay in a band of rows that fits the cache instead
//! of hitting random cells of the whole grid (at 8192x8192 every union of the uniform order
//! was a few cache and TLB misses). Any order of
//! the walls gives a spanning tree, and the windowed order treats every row alike, so the
//! texture stays Kruskal's (see the test). Smaller grids keep the uniform shuffle (and their
//! mazes for a seed).
//!
//! On the windowed path a second thread draws the keys and shuffles the buckets while this
//! one opens walls ([`visit_windowed_pipelined`]), and the trees are Rem's disjoint sets
//! ([`RemSets`]), whose unions stop where two neighbours' paths meet. Neither changes a
//! maze: the order is the same, and whether a wall joins two trees does not depend on how
//! the sets are stored.

use super::grid::{Dims, open};
use crate::algo::rem_sets::RemSets;
#[cfg(test)]
use crate::generate::windowed_order::MIN_WINDOW_ROWS;
use crate::generate::windowed_order::{visit_windowed_pipelined, window_rows};
use crate::model::direction::{E, S};

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    carve_windowed(dims, masks, rng, window_rows(dims.width));
}

/// [`carve`] with windows of `window` rows (tests use small windows); a grid of at most that
/// many rows takes one uniform shuffle.
fn carve_windowed(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng, window: usize) {
    let n = dims.cells();
    let mut uf = RemSets::new(n);
    let mut opened = 0;
    // Opens `wall` when it joins two trees; false once the tree is complete.
    let mut try_wall = |uf: &mut RemSets, wall: u32| {
        let (i, side, j) = wall_sides(dims, wall);
        if uf.union(i as u32, j as u32) {
            open(masks, i, side, j);
            opened += 1;
        }
        opened + 1 < n
    };
    if dims.height <= window {
        for wall in shuffled_walls(dims, rng) {
            if !try_wall(&mut uf, wall) {
                break;
            }
        }
    } else {
        visit_windowed_pipelined(
            dims.height,
            2 * dims.width,
            window,
            |wall| wall_exists(dims, wall),
            |wall| wall % 2 == 1,
            rng,
            |wall, _| try_wall(&mut uf, wall),
        );
    }
}

/// Whether wall id `wall` (cell * 2 + 0 for its east side, 1 for its south side) is an inner
/// wall of the grid.
fn wall_exists(dims: Dims, wall: usize) -> bool {
    let i = wall / 2;
    if wall.is_multiple_of(2) {
        i % dims.width + 1 < dims.width
    } else {
        i / dims.width + 1 < dims.height
    }
}

/// The cell on the near side of `wall`, the side it faces and the cell across.
fn wall_sides(dims: Dims, wall: u32) -> (usize, usize, usize) {
    let i = (wall >> 1) as usize;
    if wall & 1 == 0 {
        (i, E, i + 1)
    } else {
        (i, S, i + dims.width)
    }
}

/// Every inner wall in one uniform shuffle (grids no taller than the window).
fn shuffled_walls(dims: Dims, rng: &mut fastrand::Rng) -> Vec<u32> {
    let mut walls: Vec<u32> = (0..2 * dims.cells())
        .filter(|&x| wall_exists(dims, x))
        .map(|x| x as u32)
        .collect();
    rng.shuffle(&mut walls);
    walls
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::components::count_components;
    use crate::model::direction::bit;

    /// The maze of [`carve_windowed`] built the plain way: union by size, no prefetching,
    /// the windowed order visited on this thread.
    fn carve_plainly(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng, window: usize) {
        use crate::algo::union_find::UnionFind;
        use crate::generate::windowed_order::visit_windowed;
        let mut uf = UnionFind::new(dims.cells());
        let mut open_wall = |wall: u32| {
            let (i, side, j) = wall_sides(dims, wall);
            if uf.union(i as u32, j as u32) {
                open(masks, i, side, j);
            }
        };
        if dims.height <= window {
            shuffled_walls(dims, rng)
                .into_iter()
                .for_each(&mut open_wall);
        } else {
            visit_windowed(
                dims.height,
                2 * dims.width,
                window,
                |wall| wall_exists(dims, wall),
                |wall| wall % 2 == 1,
                rng,
                |wall, _| {
                    open_wall(wall);
                    true
                },
            );
        }
    }

    #[test]
    fn rem_unions_and_the_drawing_thread_change_no_maze() {
        for &(h, w, window) in &[(60, 45, 4), (33, 70, 1), (8, 8, 8), (100, 9, 32)] {
            let dims = Dims::new(h, w);
            for seed in 0..4 {
                let (mut fast, mut plain) = (vec![0u8; dims.cells()], vec![0u8; dims.cells()]);
                let (mut rng_fast, mut rng_plain) = (
                    fastrand::Rng::with_seed(seed),
                    fastrand::Rng::with_seed(seed),
                );
                carve_windowed(dims, &mut fast, &mut rng_fast, window);
                carve_plainly(dims, &mut plain, &mut rng_plain, window);
                assert!(fast == plain, "{h}x{w}, windows of {window}, seed {seed}");
            }
        }
    }

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

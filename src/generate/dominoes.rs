//! The `dominoes` family, like the public `dist.1` levels: almost every piece is a one-end `Q`
//! paired face to face with a neighbour (a random maximal domino packing, cells visited in
//! random order). A cell left without a free neighbour joins an adjacent piece, which turns
//! that piece into an L, I, T or X — the few other shapes the family has.

use super::windowed_order::{window_rows, windowed_order};
use crate::model::direction::{bit, opposite};

/// Connection masks of a solved dominoes grid.
pub fn domino_masks(height: usize, width: usize, rng: &mut fastrand::Rng) -> Vec<u8> {
    domino_masks_windowed(height, width, window_rows(width), rng)
}

/// [`domino_masks`] visiting the cells in a random order over windows of `window_rows` rows
/// (one uniform shuffle when the grid has no more rows).
fn domino_masks_windowed(
    height: usize,
    width: usize,
    window_rows: usize,
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    let n = height * width;
    let mut masks = vec![0u8; n];
    // Large grids: a random order that sweeps down a window of rows, so the visits stay in
    // the cache (a uniform shuffle of 64M cells cost 3x the rest of the generation).
    let order: Vec<u32> = if window_rows >= height {
        let mut order: Vec<u32> = (0..n as u32).collect();
        rng.shuffle(&mut order);
        order
    } else {
        windowed_order(height, width, window_rows, |_| true, |_| false, rng)
    };
    let neighbours = |i: usize| {
        let (r, c) = (i / width, i % width);
        let mut v = [(usize::MAX, 0usize); 4];
        if r > 0 {
            v[0] = (i - width, 0);
        }
        if c + 1 < width {
            v[1] = (i + 1, 1);
        }
        if r + 1 < height {
            v[2] = (i + width, 2);
        }
        if c > 0 {
            v[3] = (i - 1, 3);
        }
        v
    };
    let mut free = Vec::with_capacity(4);
    for &i in &order {
        let i = i as usize;
        if masks[i] != 0 {
            continue;
        }
        free.clear();
        free.extend(
            neighbours(i)
                .into_iter()
                .filter(|&(j, _)| j != usize::MAX && masks[j] == 0),
        );
        if let Some(&(j, side)) = free.get(rng.usize(0..free.len().max(1))) {
            masks[i] |= bit(side);
            masks[j] |= bit(opposite(side));
        }
    }
    for &i in &order {
        let i = i as usize;
        if masks[i] != 0 {
            continue;
        }
        free.clear();
        free.extend(neighbours(i).into_iter().filter(|&(j, _)| j != usize::MAX));
        if let Some(&(j, side)) = free.get(rng.usize(0..free.len().max(1))) {
            masks[i] |= bit(side);
            masks[j] |= bit(opposite(side));
        }
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solved;
    use crate::generate::maze::grid::solved_game;

    #[test]
    fn windowed_visits_give_solved_grids_of_the_family() {
        // Windows of a few rows (the large-grid path) against one uniform order.
        for (h, w, window) in [(50, 20, 4), (33, 7, 1), (40, 40, 40)] {
            for seed in 0..4 {
                let masks =
                    domino_masks_windowed(h, w, window, &mut fastrand::Rng::with_seed(seed));
                assert!(
                    is_solved(&solved_game(h, w, &masks)),
                    "{h}x{w} window {window}"
                );
                assert!(masks.iter().all(|&m| m != 0), "{h}x{w}: a cell left alone");
                let one_end = masks.iter().filter(|m| m.count_ones() == 1).count();
                assert!(
                    one_end * 10 > h * w * 8,
                    "{h}x{w}: {one_end} one-end pieces"
                );
            }
        }
    }
}

//! A maximum domino packing of the grid: floor(W·H/2) disjoint pairs of neighbours (one cell
//! left over when both sides are odd), each pair a separate component of two facing one-end
//! pieces. It shows that floor(W·H/2) components fit, and `--nbcc-exact` starts from it when
//! it needs more components than the family's grid has.
//!
//! 2x2 blocks are tiled by two horizontal or two vertical dominoes at random (an odd last
//! column or row by a strip); then random flips (two parallel dominoes filling a 2x2 square
//! turn a quarter) and slides of the leftover cell mix the tiling beyond the block pattern.

use super::maze::grid::Dims;
use crate::model::direction::{E, S, bit, opposite};

/// Connection masks of a random maximum domino packing: every cell has exactly one
/// connection, except one cell when `height` and `width` are both odd.
pub fn domino_tiling(height: usize, width: usize, rng: &mut fastrand::Rng) -> Vec<u8> {
    let (h, w) = (height, width);
    let mut masks = vec![0u8; h * w];
    let pair = |masks: &mut Vec<u8>, i: usize, side: usize, j: usize| {
        masks[i] = bit(side);
        masks[j] = bit(opposite(side));
    };
    for r in (0..h.saturating_sub(1)).step_by(2) {
        for c in (0..w.saturating_sub(1)).step_by(2) {
            let i = r * w + c;
            if rng.bool() {
                pair(&mut masks, i, E, i + 1);
                pair(&mut masks, i + w, E, i + w + 1);
            } else {
                pair(&mut masks, i, S, i + w);
                pair(&mut masks, i + 1, S, i + w + 1);
            }
        }
    }
    if w % 2 == 1 {
        for r in (0..h.saturating_sub(1)).step_by(2) {
            let i = r * w + w - 1;
            pair(&mut masks, i, S, i + w);
        }
    }
    if h % 2 == 1 {
        for c in (0..w.saturating_sub(1)).step_by(2) {
            let i = (h - 1) * w + c;
            pair(&mut masks, i, E, i + 1);
        }
    }
    if h >= 2 && w >= 2 {
        for _ in 0..h * w {
            let (r, c) = (rng.usize(..h - 1), rng.usize(..w - 1));
            let i = r * w + c;
            let (a, b, d) = (i, i + 1, i + w);
            if masks[a] == bit(E) && masks[d] == bit(E) {
                pair(&mut masks, a, S, d);
                pair(&mut masks, b, S, b + w);
            } else if masks[a] == bit(S) && masks[b] == bit(S) {
                pair(&mut masks, a, E, b);
                pair(&mut masks, d, E, d + 1);
            }
        }
    }
    if h % 2 == 1 && w % 2 == 1 && h * w > 1 {
        let dims = Dims::new(h, w);
        let mut hole = h * w - 1;
        for _ in 0..h * w {
            // The domino next to the hole, lying in line with it, slides one cell into it.
            let side = rng.usize(..4);
            let Some(x) = dims.neighbour(hole, side) else {
                continue;
            };
            if masks[x] != bit(side) {
                continue;
            }
            let y = dims
                .neighbour(x, side)
                .expect("a domino's partner is on the grid");
            pair(&mut masks, hole, side, x);
            masks[y] = 0;
            hole = y;
        }
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solved;
    use crate::generate::components::count_components;
    use crate::generate::maze::grid::solved_game;

    #[test]
    fn packings_are_maximum_and_solved() {
        for h in 1..8 {
            for w in 1..8 {
                for seed in 0..8 {
                    let mut rng = fastrand::Rng::with_seed(seed);
                    let masks = domino_tiling(h, w, &mut rng);
                    assert!(is_solved(&solved_game(h, w, &masks)), "{h}x{w}");
                    assert_eq!(count_components(&masks, w), h * w / 2, "{h}x{w}");
                    let holes = masks.iter().filter(|&&m| m == 0).count();
                    assert_eq!(holes, h * w % 2, "{h}x{w}");
                    assert!(masks.iter().all(|m| m.count_ones() <= 1));
                }
            }
        }
    }
}

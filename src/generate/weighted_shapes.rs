//! Scanline generator with shape weights, for the `loops` and `mixed` families. Cells are
//! filled row by row: a cell's north and west sides are already fixed by its neighbours, so
//! only its east and south sides are free (none past the border). Among the shapes those two
//! choices can make, one is drawn with the preset's weight, then one of its masks uniformly.
//! The grid is a solution by construction; the weights set the piece mix, and the border
//! forces a few other shapes (a corner cell reached from the north must end, for instance).

use crate::model::direction::{E, N, S, W, bit};

/// Relative weight of each shape, indexed by the file type code (empty, Q, I, T, X, L).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeWeights(pub [u32; 6]);

/// Mostly corners and straights, so almost every piece has degree two and the grid is made
/// of closed loops, like the public `dist.0` levels. Fitted to their piece histogram (see
/// docs/SOLVER.md, "Generators").
pub const LOOPS: ShapeWeights = ShapeWeights([136, 99, 4527, 79, 20, 4650]);

/// Every shape, with many empty cells and one-end pieces, like the public `dist.6` levels.
/// Fitted to their piece histogram.
pub const MIXED: ShapeWeights = ShapeWeights([3608, 2233, 1111, 1386, 880, 1250]);

/// Connection masks of a solved grid drawn with `weights`.
pub fn weighted_masks(
    height: usize,
    width: usize,
    weights: ShapeWeights,
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    let mut masks = vec![0u8; height * width];
    for r in 0..height {
        for c in 0..width {
            let i = r * width + c;
            let mut fixed = 0u8;
            if r > 0 && masks[i - width] & bit(S) != 0 {
                fixed |= bit(N);
            }
            if c > 0 && masks[i - 1] & bit(E) != 0 {
                fixed |= bit(W);
            }
            let east: &[u8] = if c + 1 < width { &[0, bit(E)] } else { &[0] };
            let south: &[u8] = if r + 1 < height { &[0, bit(S)] } else { &[0] };
            let mut options = [0u8; 4];
            let mut k = 0;
            for &e in east {
                for &s in south {
                    options[k] = fixed | e | s;
                    k += 1;
                }
            }
            masks[i] = pick(&options[..k], weights, rng);
        }
    }
    masks
}

/// One of `options` (distinct masks): a shape by weight among the shapes present, then one
/// of that shape's masks uniformly.
fn pick(options: &[u8], weights: ShapeWeights, rng: &mut fastrand::Rng) -> u8 {
    let kind_of = |m: u8| crate::model::Piece::from_mask(m).kind() as usize;
    let mut present = [false; 6];
    for &m in options {
        present[kind_of(m)] = true;
    }
    let weight = |k: usize| if present[k] { weights.0[k] } else { 0 };
    let total: u32 = (0..6).map(weight).sum();
    let kind = if total == 0 {
        kind_of(options[rng.usize(..options.len())])
    } else {
        // The shape whose slice of [0, total) holds the draw.
        let mut x = rng.u32(..total);
        (0..6)
            .find(|&k| {
                let hit = x < weight(k);
                x = x.saturating_sub(weight(k));
                hit
            })
            .expect("the draw is below the total weight")
    };
    let mut same = [0u8; 4];
    let mut n = 0;
    for &m in options {
        if kind_of(m) == kind {
            same[n] = m;
            n += 1;
        }
    }
    same[rng.usize(..n)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solved;
    use crate::generate::maze::grid::solved_game;

    #[test]
    fn weighted_grids_are_solutions() {
        for weights in [LOOPS, MIXED, ShapeWeights([1; 6]), ShapeWeights([0; 6])] {
            for &(h, w) in &[(1, 1), (1, 5), (5, 1), (2, 2), (7, 9)] {
                for seed in 0..30 {
                    let mut rng = fastrand::Rng::with_seed(seed);
                    let masks = weighted_masks(h, w, weights, &mut rng);
                    assert!(is_solved(&solved_game(h, w, &masks)), "{weights:?} {h}x{w}");
                }
            }
        }
    }

    #[test]
    fn loops_are_mostly_corners_and_straights() {
        let mut rng = fastrand::Rng::with_seed(1);
        let masks = weighted_masks(64, 64, LOOPS, &mut rng);
        let two = masks.iter().filter(|m| m.count_ones() == 2).count();
        assert!(two * 10 > masks.len() * 9, "{two} of {}", masks.len());
    }
}

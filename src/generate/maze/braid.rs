//! Braiding: each dead end (a cell with one passage), taken in random order, is with
//! probability `p` joined to a neighbour it is not yet joined to, preferring a neighbour that
//! is itself a dead end (one new passage then removes two dead ends). The maze stays one
//! component and gains loops; `p = 1` leaves no dead end wherever the grid allows one.

use super::grid::{Dims, open};
use crate::model::direction::bit;

/// Removes dead ends of the maze in `masks` with probability `p` each (see the module doc).
pub fn braid(dims: Dims, masks: &mut [u8], p: f64, rng: &mut fastrand::Rng) {
    if p <= 0.0 {
        return;
    }
    let mut dead_ends: Vec<u32> = (0..dims.cells() as u32)
        .filter(|&i| masks[i as usize].count_ones() == 1)
        .collect();
    rng.shuffle(&mut dead_ends);
    for cell in dead_ends {
        let i = cell as usize;
        // `p >= 1` draws nothing, so full braiding does not depend on the draws.
        if masks[i].count_ones() != 1 || (p < 1.0 && rng.f64() >= p) {
            continue;
        }
        // Sides without a passage yet: a neighbour already joined is not a new passage.
        let joined = masks[i];
        let (mut options, mut k) = dims.neighbours_where(i, |_| true);
        let mut kept = 0;
        for t in 0..k {
            if joined & bit(options[t].0) == 0 {
                options[kept] = options[t];
                kept += 1;
            }
        }
        k = kept;
        if k == 0 {
            continue;
        }
        let mut dead = [(0, 0); 4];
        let mut d = 0;
        for &(side, j) in &options[..k] {
            if masks[j].count_ones() == 1 {
                dead[d] = (side, j);
                d += 1;
            }
        }
        let (side, j) = if d > 0 {
            dead[rng.usize(..d)]
        } else {
            options[rng.usize(..k)]
        };
        open(masks, i, side, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::components::count_components;
    use crate::generate::maze::{MazeAlgorithm, maze_masks};

    #[test]
    fn full_braiding_removes_every_dead_end_and_keeps_one_component() {
        for algorithm in MazeAlgorithm::ALL {
            for seed in 0..10 {
                let (h, w) = (9, 12);
                let mut rng = fastrand::Rng::with_seed(seed);
                let mut masks = maze_masks(h, w, algorithm, &mut rng);
                braid(Dims::new(h, w), &mut masks, 1.0, &mut rng);
                assert_eq!(count_components(&masks, w), 1);
                assert!(
                    masks.iter().all(|m| m.count_ones() >= 2),
                    "{} seed {seed}",
                    algorithm.name()
                );
            }
        }
    }

    #[test]
    fn no_braiding_changes_nothing() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut masks = maze_masks(8, 8, MazeAlgorithm::Kruskal, &mut rng);
        let before = masks.clone();
        braid(Dims::new(8, 8), &mut masks, 0.0, &mut rng);
        assert_eq!(masks, before);
    }
}

//! A small arc-consistency check around one cell, independent of the solver: every cell
//! within Manhattan distance `radius` keeps the orientations that agree with the border and
//! with some orientation of each neighbour inside the window (neighbours outside it constrain
//! nothing). An empty domain proves the level unsolvable by a contradiction near the cell.
//! The unsolvable-variant maker uses it to skip changes that break the level only locally.

use crate::model::Game;
use crate::model::direction::{E, N, S, W, bit, opposite};

/// True when the window around `center` is arc consistent (no domain runs empty).
pub fn locally_consistent(game: &Game, center: usize, radius: usize) -> bool {
    let (h, w) = (game.height() as isize, game.width() as isize);
    let (cr, cc) = (
        (center / game.width()) as isize,
        (center % game.width()) as isize,
    );
    let r = radius as isize;
    let side = 2 * r + 1;
    // Window cells in a (2r+1)² square; those farther than `radius` (Manhattan) or off the
    // grid are left out.
    let slot = |dr: isize, dc: isize| ((dr + r) * side + (dc + r)) as usize;
    let inside = |dr: isize, dc: isize| {
        let (rr, c) = (cr + dr, cc + dc);
        dr.abs() + dc.abs() <= r && rr >= 0 && rr < h && c >= 0 && c < w
    };
    let n = (side * side) as usize;
    // Per slot: bit o set when orientation o is still possible.
    let mut domain = vec![0u8; n];
    let mut masks = vec![[0u8; 4]; n];
    for dr in -r..=r {
        for dc in -r..=r {
            if !inside(dr, dc) {
                continue;
            }
            let (rr, c) = (cr + dr, cc + dc);
            let kind = game.cells()[(rr * w + c) as usize].kind();
            let s = slot(dr, dc);
            for o in 0..kind.orientations() {
                let m = kind.mask(o);
                let off = (rr == 0 && m & bit(N) != 0)
                    || (c + 1 == w && m & bit(E) != 0)
                    || (rr + 1 == h && m & bit(S) != 0)
                    || (c == 0 && m & bit(W) != 0);
                masks[s][o as usize] = m;
                if !off {
                    domain[s] |= 1 << o;
                }
            }
        }
    }
    let steps: [(usize, isize, isize); 4] = [(N, -1, 0), (E, 0, 1), (S, 1, 0), (W, 0, -1)];
    loop {
        let mut changed = false;
        for dr in -r..=r {
            for dc in -r..=r {
                if !inside(dr, dc) {
                    continue;
                }
                let s = slot(dr, dc);
                for &(sd, ddr, ddc) in &steps {
                    let (nr, nc) = (dr + ddr, dc + ddc);
                    if !inside(nr, nc) {
                        continue;
                    }
                    let t = slot(nr, nc);
                    // What the neighbour may show on the shared side: open and/or closed.
                    let (mut can_open, mut can_close) = (false, false);
                    for (o, &m) in masks[t].iter().enumerate() {
                        if domain[t] & (1 << o) != 0 {
                            if m & bit(opposite(sd)) != 0 {
                                can_open = true;
                            } else {
                                can_close = true;
                            }
                        }
                    }
                    for (o, &m) in masks[s].iter().enumerate() {
                        if domain[s] & (1 << o) == 0 {
                            continue;
                        }
                        let open = m & bit(sd) != 0;
                        if (open && !can_open) || (!open && !can_close) {
                            domain[s] &= !(1 << o);
                            changed = true;
                        }
                    }
                    if domain[s] == 0 {
                        return false;
                    }
                }
            }
        }
        if !changed {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};
    use crate::model::{Piece, PieceKind};

    #[test]
    fn generated_levels_are_locally_consistent_everywhere() {
        for seed in 0..5 {
            let g = generate(&GenerateOptions::new(9, 7, seed));
            for cell in 0..g.len() {
                assert!(locally_consistent(&g, cell, 2));
            }
        }
    }

    #[test]
    fn a_straight_in_a_corner_is_a_local_contradiction() {
        let mut g = generate(&GenerateOptions::new(5, 5, 1));
        g.cells_mut()[0] = Piece::new(PieceKind::I, 0);
        assert!(!locally_consistent(&g, 0, 1));
        assert!(!locally_consistent(&g, 6, 2));
    }
}

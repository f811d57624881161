//! What the solver's propagation pass alone leaves open: the number of orientations each cell
//! may still take, for `--print --show-domains`.

use crate::model::{Game, PieceKind};
use crate::solve::Start;

/// How many orientations propagation leaves each cell.
pub struct DomainSizes {
    /// Orientations left per cell, row-major (1 = frozen; empty cells and crosses are 1).
    pub sizes: Vec<u8>,
    /// False when propagation emptied a domain: the level has no solution. The sizes are then
    /// those at the moment of the contradiction.
    pub consistent: bool,
}

impl DomainSizes {
    /// Non-empty cells with 1, 2, 3 and 4 orientations left.
    pub fn histogram(&self, game: &Game) -> [usize; 4] {
        let mut h = [0usize; 4];
        for (p, &n) in game.cells().iter().zip(&self.sizes) {
            if p.kind() != PieceKind::Empty {
                h[(n.clamp(1, 4) - 1) as usize] += 1;
            }
        }
        h
    }
}

/// Runs the first propagation pass of the solver on `game` (orientations are ignored).
pub fn after_propagation(game: &Game) -> DomainSizes {
    let start = Start::new(game);
    let sizes = start
        .board
        .cells()
        .map(|c| start.state.domain(c).count_ones() as u8)
        .collect();
    DomainSizes {
        sizes,
        consistent: start.consistent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_level;

    #[test]
    fn corners_of_a_ring_freeze_and_a_lone_straight_stays_open() {
        // A 2x2 ring of corners: the border fixes every corner.
        let ring = parse_level("t", b"2\n2\n5 0\n5 0\n5 0\n5 0\n").unwrap();
        let d = after_propagation(&ring);
        assert!(d.consistent);
        assert_eq!(d.sizes, vec![1, 1, 1, 1]);
        assert_eq!(d.histogram(&ring), [4, 0, 0, 0]);
        // A lone cross would connect off the border on every side: contradiction.
        let bad = parse_level("t", b"1\n1\n4 0\n").unwrap();
        assert!(!after_propagation(&bad).consistent);
    }

    #[test]
    fn a_connected_level_keeps_some_cells_open() {
        let mut open = 0;
        for seed in 0..20 {
            let mut o = crate::generate::GenerateOptions::new(16, 16, seed);
            o.max_components = Some(1);
            let g = crate::generate::generate(&o);
            let d = after_propagation(&g);
            assert!(d.consistent);
            let h = d.histogram(&g);
            assert_eq!(h.iter().sum::<usize>(), g.occupied());
            assert!(h[0] > 0, "{h:?}");
            assert!(d.sizes.iter().all(|&n| (1..=4).contains(&n)));
            open += h[1] + h[2] + h[3];
        }
        assert!(open > 0, "propagation alone solved every level");
    }
}

//! I clusters: the value hint for a decision on an I piece.
//!
//! Two 4-adjacent I pieces always share their orientation (a horizontal I connects its east
//! neighbour, which as an I must then be horizontal too; vertically likewise), so a
//! 4-connected cluster of undecided I cells is one choice, and propagation decides the whole
//! cluster from any of its cells. The witness may bend each I of a cluster its own way; the
//! cell the search picked may lean neither way (a bend shares one connection with each
//! shape). The hint is then the shape most of the cluster's witness connections agree with.

use super::board::Board;
use super::state::State;
use crate::model::PieceKind;

/// Cluster cells looked at for one hint: a cluster is rarely larger, and a larger one has
/// made up its mind within this many cells.
const MAX_CELLS: usize = 64;

/// The connections to prefer when deciding the I piece `cell`: the witness's connections of
/// its cluster voted into the horizontal or vertical shape; `used(cell)` itself when the
/// vote ties. `used` gives the witness's connections of a cell; `scratch` is reused.
pub(super) fn cluster_hint(
    board: &Board,
    state: &State,
    used: impl Fn(usize) -> u8,
    cell: usize,
    scratch: &mut Vec<u32>,
) -> u8 {
    let i = PieceKind::I as u8;
    let own = used(cell);
    if board.kind[cell] != i {
        return own;
    }
    let (vertical, horizontal) = (PieceKind::I.mask(0), PieceKind::I.mask(1));
    scratch.clear();
    scratch.push(cell as u32);
    let (mut v, mut h) = (0u32, 0u32);
    let mut k = 0;
    while k < scratch.len() {
        let c = scratch[k] as usize;
        k += 1;
        let u = used(c);
        v += (u & vertical).count_ones();
        h += (u & horizontal).count_ones();
        for s in 0..4 {
            let nb = board.neighbour(c, s);
            if board.kind[nb] == i
                && !state.is_fixed(nb)
                && scratch.len() < MAX_CELLS
                && !scratch.contains(&(nb as u32))
            {
                scratch.push(nb as u32);
            }
        }
    }
    match v.cmp(&h) {
        std::cmp::Ordering::Greater => vertical,
        std::cmp::Ordering::Less => horizontal,
        std::cmp::Ordering::Equal => own,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::direction::{E, N, S, W, bit};
    use crate::model::{Game, Piece};

    #[test]
    fn adjacent_straights_share_their_orientation_in_every_solution() {
        // Brute force over small straight-segment grids (and the same with a few I pieces
        // moved): in every solved assignment, two 4-adjacent I pieces have the same
        // orientation.
        use crate::generate::straight::{move_straights, straight_masks};
        let mut checked = 0;
        for seed in 0..400u64 {
            let (h, w) = (3 - seed as usize % 2, 3 + seed as usize % 2);
            let masks = straight_masks(h, w, &mut fastrand::Rng::with_seed(seed));
            let solved =
                Game::from_cells(h, w, masks.iter().map(|&m| Piece::from_mask(m)).collect());
            let game = if seed % 3 == 0 {
                move_straights(&solved, 1, seed)
            } else {
                solved
            };
            let kinds: Vec<PieceKind> = game.cells().iter().map(|p| p.kind()).collect();
            let total: u32 = kinds.iter().map(|k| u32::from(k.orientations())).product();
            if total > 1 << 15 {
                continue;
            }
            for code in 0..total {
                let mut rest = code;
                let cells: Vec<Piece> = kinds
                    .iter()
                    .map(|&k| {
                        let n = u32::from(k.orientations());
                        let o = (rest % n) as u8;
                        rest /= n;
                        Piece::new(k, o)
                    })
                    .collect();
                let game = Game::from_cells(h, w, cells.clone());
                if !crate::check::is_solved(&game) {
                    continue;
                }
                for r in 0..h {
                    for c in 0..w {
                        let a = cells[r * w + c];
                        for (rr, cc) in [(r + 1, c), (r, c + 1)] {
                            if rr < h && cc < w {
                                let b = cells[rr * w + cc];
                                if a.kind() == PieceKind::I && b.kind() == PieceKind::I {
                                    assert_eq!(a.mask(), b.mask(), "{game:?}");
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 20, "{checked}");
    }

    #[test]
    fn the_cluster_outvotes_a_bent_cell() {
        // Three I cells in a row (Q at both ends); the witness bends the middle one and
        // runs the outer ones horizontally.
        let cells = [
            PieceKind::Q,
            PieceKind::I,
            PieceKind::I,
            PieceKind::I,
            PieceKind::Q,
        ]
        .map(|k| Piece::new(k, 0))
        .to_vec();
        let game = Game::from_cells(1, 5, cells);
        let board = Board::new(&game);
        let state = State::new(&board);
        let at = |c: usize| board.cell(0, c);
        let used = |c: usize| {
            if c == at(2) {
                bit(N) | bit(W)
            } else if c == at(1) || c == at(3) {
                bit(E) | bit(W)
            } else {
                0
            }
        };
        let mut scratch = Vec::new();
        let hint = cluster_hint(&board, &state, used, at(2), &mut scratch);
        assert_eq!(hint, bit(E) | bit(W));
        // Alone, the bent cell keeps its own connections.
        let alone = |c: usize| if c == at(2) { bit(N) | bit(W) } else { 0 };
        let hint = cluster_hint(&board, &state, alone, at(2), &mut scratch);
        assert_eq!(hint, bit(N) | bit(W));
        assert_eq!(PieceKind::I.mask(0), bit(N) | bit(S));
    }
}

//! Tiny regions solved in place. Random levels leave hundreds of thousands of regions of a
//! few cells each after the first pass (113,923 on random 4096x4096, most of 4 to 20 cells);
//! cutting each out as a board of its own, with its state, order and search, cost several
//! microseconds a region, more than the search itself. Here a region is a plain
//! backtracking over the propagated domains, in the region's own cell order (connected, so
//! each cell meets an assigned neighbour early), with scratch arrays reused from region to
//! region. A region's outside neighbours are decided (regions are the connected undecided
//! cells), so each cell's candidates are filtered against them once; a node then checks only
//! the assigned neighbours inside the region. Exhausting the candidates proves the region
//! unsolvable; a region that needs more than its node budget goes to the full search.

use super::board::Board;
use super::tables::{KEEP, SIDES};
use crate::model::direction::opposite;

/// Regions of at most this many cells are tried here first.
pub const TINY_CELLS: usize = 48;
/// Nodes per cell of the region before handing it to the full search.
const NODES_PER_CELL: usize = 64;
/// Marks a side whose neighbour is outside the region.
const OUTSIDE: u8 = u8::MAX;

/// How a tiny region ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TinyEnd {
    /// Every cell assigned (pushed to the caller's list).
    Solved,
    /// No assignment fits: the level has no solution.
    Unsolvable,
    /// The node budget ran out: the full search must decide.
    GaveUp,
}

/// Scratch reused across regions (no allocation per region once grown).
#[derive(Default)]
pub struct TinySolver {
    /// (global cell, local index), sorted: the region's cells looked up by neighbour.
    sorted: Vec<(u32, u8)>,
    /// Local index of each cell's N, E, S, W neighbour, or [`OUTSIDE`].
    nbr: Vec<[u8; 4]>,
    /// Candidates of each cell once its outside neighbours are taken into account.
    cand: Vec<u8>,
    /// Orientations of each cell not tried yet at its current depth.
    left: Vec<u8>,
    /// Connection mask of each assigned cell.
    mask: Vec<u8>,
    /// Orientation of each assigned cell.
    choice: Vec<u8>,
}

impl TinySolver {
    /// Solves the region `cells` (global padded indices of `board`, at most [`TINY_CELLS`],
    /// all undecided in `dom`, every neighbour outside them decided), pushing (cell,
    /// orientation) for each cell to `out` when solved. `nodes` counts the orientations tried.
    pub fn solve(
        &mut self,
        board: &Board,
        dom: &[u8],
        cells: &[u32],
        out: &mut Vec<(u32, u8)>,
        nodes: &mut u64,
    ) -> TinyEnd {
        let n = cells.len();
        debug_assert!(n <= TINY_CELLS);
        if n == 0 {
            return TinyEnd::Solved;
        }
        self.sorted.clear();
        self.sorted
            .extend(cells.iter().enumerate().map(|(i, &c)| (c, i as u8)));
        self.sorted.sort_unstable();
        self.nbr.clear();
        self.cand.clear();
        for &c in cells {
            let c = c as usize;
            let (mut on, mut off, mut links) = (0u8, 0u8, [OUTSIDE; 4]);
            for (side, link) in links.iter_mut().enumerate() {
                let nb = board.neighbour(c, side);
                match self.sorted.binary_search_by_key(&(nb as u32), |&(g, _)| g) {
                    Ok(j) => *link = self.sorted[j].1,
                    Err(_) => {
                        let theirs = SIDES[board.kind[nb] as usize * 16 + dom[nb] as usize].0;
                        if theirs & (1 << opposite(side)) != 0 {
                            on |= 1 << side;
                        } else {
                            off |= 1 << side;
                        }
                    }
                }
            }
            let k = board.kind[c] as usize;
            self.nbr.push(links);
            self.cand
                .push(dom[c] & 0xF & KEEP[k * 256 + (on | off << 4) as usize]);
        }
        self.left.resize(n, 0);
        self.mask.resize(n, 0);
        self.choice.resize(n, 0);
        let budget = (NODES_PER_CELL * n) as u64;
        let mut spent = 0u64;
        let mut i = 0;
        self.left[0] = self.allowed(board, cells, 0);
        loop {
            let left = self.left[i];
            if left == 0 {
                if i == 0 {
                    *nodes += spent;
                    return TinyEnd::Unsolvable;
                }
                i -= 1;
                continue;
            }
            spent += 1;
            if spent > budget {
                *nodes += spent;
                return TinyEnd::GaveUp;
            }
            let o = left.trailing_zeros() as u8;
            self.left[i] = left & (left - 1);
            self.choice[i] = o;
            let k = board.kind[cells[i] as usize] as usize;
            self.mask[i] = SIDES[k * 16 + (1usize << o)].0;
            i += 1;
            if i == n {
                break;
            }
            self.left[i] = self.allowed(board, cells, i);
        }
        *nodes += spent;
        out.extend(cells.iter().zip(&self.choice).map(|(&c, &o)| (c, o)));
        TinyEnd::Solved
    }

    /// The candidates of cell `i` that agree with its neighbours assigned so far (those
    /// before it in the region's order).
    fn allowed(&self, board: &Board, cells: &[u32], i: usize) -> u8 {
        let (mut on, mut off) = (0u8, 0u8);
        for (side, &j) in self.nbr[i].iter().enumerate() {
            if (j as usize) < i {
                if self.mask[j as usize] & (1 << opposite(side)) != 0 {
                    on |= 1 << side;
                } else {
                    off |= 1 << side;
                }
            }
        }
        let k = board.kind[cells[i] as usize] as usize;
        self.cand[i] & KEEP[k * 256 + (on | off << 4) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Game, Piece, PieceKind};
    use crate::solve::tables::FULL_DOMAIN;

    /// Whole small grids of random shapes and random domains, taken as one region in a random
    /// order: the solver's verdict agrees with brute force, and a solution it gives fits.
    #[test]
    fn agrees_with_brute_force_on_small_grids() {
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut solved, mut unsolvable) = (0, 0);
        for _ in 0..60000 {
            let (h, w) = (rng.usize(1..4), rng.usize(1..4));
            let cells = (0..h * w)
                .map(|_| Piece::new(PieceKind::ALL[rng.usize(..6)], 0))
                .collect();
            let board = Board::new(&Game::from_cells(h, w, cells));
            let mut dom: Vec<u8> = board
                .kind
                .iter()
                .map(|&k| FULL_DOMAIN[k as usize])
                .collect();
            let mut region: Vec<u32> = board.cells().map(|c| c as u32).collect();
            for &c in &region {
                let full = dom[c as usize];
                while {
                    dom[c as usize] = full & rng.u8(..);
                    dom[c as usize] == 0
                } {}
            }
            rng.shuffle(&mut region);
            let mut out = Vec::new();
            let end = TinySolver::default().solve(&board, &dom, &region, &mut out, &mut 0);
            let want = brute_force(&board, &dom, &region);
            match end {
                TinyEnd::Solved => {
                    solved += 1;
                    assert!(want, "solved a region brute force refutes");
                    let mut d = dom.clone();
                    for &(c, o) in &out {
                        assert!(dom[c as usize] & (1 << o) != 0);
                        d[c as usize] = 1 << o;
                    }
                    assert_eq!(out.len(), region.len());
                    assert!(fits(&board, &d, &region));
                }
                TinyEnd::Unsolvable => {
                    unsolvable += 1;
                    assert!(!want, "refuted a region brute force solves");
                }
                TinyEnd::GaveUp => panic!("gave up on {} cells", region.len()),
            }
        }
        assert!(
            solved > 1000 && unsolvable > 1000,
            "{solved} solved, {unsolvable} refuted"
        );
    }

    /// Every edge of a region cell matches, `dom` deciding every cell involved.
    fn fits(board: &Board, dom: &[u8], region: &[u32]) -> bool {
        let mask = |c: usize| SIDES[board.kind[c] as usize * 16 + dom[c] as usize].0;
        region.iter().all(|&c| {
            let c = c as usize;
            (0..4).all(|s| {
                let nb = board.neighbour(c, s);
                (mask(c) >> s & 1) == (mask(nb) >> opposite(s) & 1)
            })
        })
    }

    fn brute_force(board: &Board, dom: &[u8], region: &[u32]) -> bool {
        fn go(board: &Board, d: &mut Vec<u8>, region: &[u32], i: usize, orig: &[u8]) -> bool {
            if i == region.len() {
                return fits(board, d, region);
            }
            let c = region[i] as usize;
            (0..4).any(|o| {
                if orig[c] & (1 << o) == 0 {
                    return false;
                }
                d[c] = 1 << o;
                go(board, d, region, i + 1, orig)
            })
        }
        go(board, &mut dom.to_vec(), region, 0, dom)
    }
}

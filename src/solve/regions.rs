//! Independent regions: after propagation, undecided cells joined through sides that are still
//! undecided. Regions share no undecided side, so each can be solved on its own, and one
//! region without a solution makes the whole level unsolvable. Found by one BFS over flat
//! arrays, linear in the grid size.

use super::board::Board;
use super::state::State;
use super::tables::sides;

/// Regions in compressed form: region `i` is `cells[starts[i]..starts[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Regions {
    /// Padded cell indices of all regions, region after region.
    pub cells: Vec<u32>,
    /// Start of each region in `cells`, plus a final `cells.len()` (so one more than regions).
    pub starts: Vec<usize>,
}

impl Regions {
    /// Number of regions.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// True when there is no region (propagation decided every cell).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The padded cells of region `i`.
    pub fn get(&self, i: usize) -> &[u32] {
        &self.cells[self.starts[i]..self.starts[i + 1]]
    }

    /// Region indices, largest first (ties by first cell, so the order is deterministic).
    pub fn largest_first(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.len()).collect();
        idx.sort_by_key(|&i| (std::cmp::Reverse(self.get(i).len()), self.get(i)[0]));
        idx
    }
}

/// Splits the undecided cells among `candidates` into regions. `seen` must be all false on
/// entry for those cells and is left true for every undecided candidate.
pub fn find_regions(
    board: &Board,
    state: &State,
    candidates: impl Iterator<Item = usize>,
    seen: &mut [bool],
) -> Regions {
    find_regions_until(board, state, candidates, seen, &|| false).expect("never halted")
}

/// [`find_regions`] that gives up (`None`) once `halted` says so, read every few thousand
/// cells (the BFS over a grid of tens of millions of cells takes seconds).
pub fn find_regions_until(
    board: &Board,
    state: &State,
    candidates: impl Iterator<Item = usize>,
    seen: &mut [bool],
    halted: &impl Fn() -> bool,
) -> Option<Regions> {
    let mut work = 0usize;
    let mut out = Regions {
        cells: Vec::new(),
        starts: vec![0],
    };
    for start in candidates {
        if seen[start] || state.is_fixed(start) {
            continue;
        }
        seen[start] = true;
        let first = out.cells.len();
        out.cells.push(start as u32);
        let mut head = first;
        while head < out.cells.len() {
            let c = out.cells[head] as usize;
            head += 1;
            work += 1;
            if work.is_multiple_of(1 << 16) && halted() {
                return None;
            }
            for side in 0..4 {
                if state.side_open(board, c, side) {
                    let nb = board.neighbour(c, side);
                    if !seen[nb] {
                        seen[nb] = true;
                        out.cells.push(nb as u32);
                    }
                }
            }
        }
        out.starts.push(out.cells.len());
    }
    Some(out)
}

/// The regions of every real cell of a grid board: the same regions, in the same order and
/// with the same cell order, as [`find_regions`] over `board.cells()`, built for grids of
/// hundreds of millions of cells: the scan skips fixed cells row by row, each cell's open
/// sides come from one table look-up, and the seen marks are bits (an eighth of a byte per
/// cell instead of a byte). `None` once `halted` says so, read every few thousand cells.
pub fn find_grid_regions_until(
    board: &Board,
    state: &State,
    halted: &impl Fn() -> bool,
) -> Option<Regions> {
    let dom = &state.dom;
    let mut seen = vec![0u64; board.len().div_ceil(64)];
    // Sets `c`'s mark; true when it was clear.
    let mark = |seen: &mut [u64], c: usize| {
        let (word, bit) = (c / 64, 1u64 << (c % 64));
        let fresh = seen[word] & bit == 0;
        seen[word] |= bit;
        fresh
    };
    let mut out = Regions {
        cells: Vec::new(),
        starts: vec![0],
    };
    for r in 0..board.height {
        if r % 64 == 63 && halted() {
            return None;
        }
        let first = board.cell(r, 0);
        for (x, &d) in dom[first..first + board.width].iter().enumerate() {
            if d & d.wrapping_sub(1) == 0 || !mark(&mut seen, first + x) {
                continue;
            }
            let mut head = out.cells.len();
            out.cells.push((first + x) as u32);
            while head < out.cells.len() {
                let c = out.cells[head] as usize;
                head += 1;
                if head.is_multiple_of(1 << 16) && halted() {
                    return None;
                }
                let (may, must) = sides(board.kind[c], dom[c]);
                let open = may & !must;
                for side in 0..4 {
                    if open & (1 << side) != 0 {
                        let nb = board.neighbour(c, side);
                        if mark(&mut seen, nb) {
                            out.cells.push(nb as u32);
                        }
                    }
                }
            }
            out.starts.push(out.cells.len());
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, MazeAlgorithm, generate};
    use crate::solve::first_pass::first_pass_striped;

    #[test]
    fn grid_regions_are_the_plain_regions() {
        let mut families = vec![
            Family::Random,
            Family::Dominoes,
            Family::Mixed,
            Family::Hooks,
        ];
        families.extend(MazeAlgorithm::ALL.map(Family::Maze));
        let mut several = 0;
        for family in families {
            for &(h, w) in &[(1, 1), (3, 70), (40, 40), (67, 29)] {
                for seed in 0..4 {
                    let mut o = GenerateOptions::new(h, w, seed);
                    o.family = family;
                    let board = Board::new(&generate(&o));
                    let (state, ok) = first_pass_striped(&board, usize::MAX);
                    assert!(ok);
                    let mut seen = vec![false; board.len()];
                    let want = find_regions(&board, &state, board.cells(), &mut seen);
                    let got = find_grid_regions_until(&board, &state, &|| false).unwrap();
                    assert_eq!(got, want, "{} {h}x{w} seed {seed}", family.name());
                    several += usize::from(want.len() > 1);
                }
            }
        }
        assert!(several > 20, "{several} levels with several regions");
    }
}

//! Independent regions: after propagation, undecided cells joined through sides that are still
//! undecided. Regions share no undecided side, so each can be solved on its own, and one
//! region without a solution makes the whole level unsolvable. Found by one BFS over flat
//! arrays, linear in the grid size.

use super::board::Board;
use super::state::State;

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

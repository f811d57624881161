//! Branching strategies: the only thing that differs between solving methods is the order in
//! which the search decides cells. Static orders (`line`, `snail`) walk a precomputed cell
//! list; `csp` picks the candidate with the fewest orientations left (MRV) each time.

use super::board::Board;
use super::state::State;
use super::tables::sides;

/// How the search picks the next cell to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Row by row from the bottom-right corner towards the top-left.
    Line,
    /// A spiral from the outer ring inwards.
    Snail,
    /// Fewest remaining orientations first; ties go to the cell with the most decided sides.
    Mrv,
}

impl Order {
    /// Static rank of a cell (smaller is decided first); MRV uses it only to arrange scopes.
    pub fn rank(self, board: &Board, cell: usize) -> u64 {
        let (r, c) = board.row_col(cell);
        let (h, w) = (board.height, board.width);
        match self {
            Order::Line | Order::Mrv => ((h - 1 - r) * w + (w - 1 - c)) as u64,
            Order::Snail => {
                // Ring number, then the position along the ring clockwise from its top-left.
                let ring = r.min(c).min(h - 1 - r).min(w - 1 - c);
                let (top, left, bottom, right) = (ring, ring, h - 1 - ring, w - 1 - ring);
                let along = if r == top {
                    c - left
                } else if c == right {
                    (right - left) + (r - top)
                } else if r == bottom {
                    (right - left) + (bottom - top) + (right - c)
                } else {
                    2 * (right - left) + (bottom - top) + (bottom - r)
                };
                ((ring as u64) << 32) | along as u64
            }
        }
    }

    /// Puts cells in this order's static sequence (MRV keeps line order for its tie-break).
    pub fn arrange(self, board: &Board, cells: &mut [u32]) {
        cells.sort_unstable_by_key(|&c| self.rank(board, c as usize));
    }

    /// Next cell to decide: among `scope` cells for which `candidate` holds. Static orders
    /// start at `*pos` and advance it past non-candidates when `monotone` (a cell that stopped
    /// being a candidate never becomes one again deeper in the search).
    #[inline]
    pub fn pick(
        self,
        board: &Board,
        state: &State,
        scope: &[u32],
        pos: &mut usize,
        monotone: bool,
        candidate: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        match self {
            Order::Line | Order::Snail => {
                let mut i = if monotone { *pos } else { 0 };
                while i < scope.len() {
                    let c = scope[i] as usize;
                    if candidate(c) {
                        if monotone {
                            *pos = i;
                        }
                        return Some(c);
                    }
                    i += 1;
                }
                None
            }
            Order::Mrv => {
                let mut best = None;
                let mut best_key = u32::MAX;
                for &c in scope {
                    let c = c as usize;
                    if !candidate(c) {
                        continue;
                    }
                    // Fewer options first; then fewer undecided sides (less freedom around it).
                    let (may, must) = sides(board.kind[c], state.dom[c]);
                    let key = state.dom[c].count_ones() * 8 + (may & !must).count_ones();
                    if key < best_key {
                        best_key = key;
                        best = Some(c);
                        if key <= 2 * 8 + 1 {
                            break;
                        }
                    }
                }
                best
            }
        }
    }
}

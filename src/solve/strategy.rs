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
    /// [`Order::Mrv`] whose last tie-break is a fixed pseudo-random order of the cells instead
    /// of line order: the second MRV racer of `auto`. On straight-segment levels the time of
    /// one MRV search depends on its tie-break far more than on the level (1024x1024: one
    /// order solves a level in 5 s, another gives no answer in 30 s); two different orders
    /// racing each other cut that tail.
    MrvShuffled,
}

/// Mixes a cell's line rank into a pseudo-random rank (a bijection of 36-bit values, so
/// distinct cells keep distinct ranks).
pub(super) fn shuffled(rank: u64) -> u64 {
    const MASK: u64 = 0xF_FFFF_FFFF;
    let mut x = rank & MASK;
    for k in [0x0009_E377_9B97_u64, 0x0007_F4A7_C153] {
        // Odd multiplier mod 2^36 and xor-shift: both invertible on 36 bits.
        x = x.wrapping_mul(k | 1) & MASK;
        x ^= x >> 17;
    }
    x
}

impl Order {
    /// Static rank of a cell (smaller is decided first); MRV uses it only to arrange scopes.
    pub fn rank(self, board: &Board, cell: usize) -> u64 {
        let (r, c) = board.row_col(cell);
        let (h, w) = (board.height, board.width);
        match self {
            Order::Line | Order::Mrv => ((h - 1 - r) * w + (w - 1 - c)) as u64,
            Order::MrvShuffled => shuffled(((h - 1 - r) * w + (w - 1 - c)) as u64),
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
        match self {
            // Line rank falls as the padded index grows: compare the indices themselves
            // instead of computing a rank (two divisions) per comparison, which made sorting
            // a region of millions of cells a quarter of the time before its search.
            Order::Line | Order::Mrv | Order::MrvShuffled => descending(cells),
            Order::Snail => cells.sort_unstable_by_key(|&c| self.rank(board, c as usize)),
        }
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
            Order::Mrv | Order::MrvShuffled => {
                let mut best = None;
                let mut best_key = u32::MAX;
                for &c in scope {
                    let c = c as usize;
                    if !candidate(c) {
                        continue;
                    }
                    let (options, open) = mrv_measure(board, state, c);
                    let key = options * 8 + open;
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

/// What MRV ranks a cell by, most important first: how many orientations it has left, then
/// how many of its sides are still undecided (less freedom around it). The one definition of
/// MRV's preference: the plain search compares these directly, the witness search puts them
/// into its heap key together with failure weights.
#[inline]
pub fn mrv_measure(board: &Board, state: &State, c: usize) -> (u32, u32) {
    let (may, must) = sides(board.kind[c], state.dom[c]);
    (state.dom[c].count_ones(), (may & !must).count_ones())
}

/// Sorts distinct cell indices in descending order: by a bitmap over their span when they
/// fill a good part of it (linear: a region of 67 million cells took seconds to sort, which
/// a timeout had to wait for), else by comparison.
fn descending(cells: &mut [u32]) {
    let (Some(&lo), Some(&hi)) = (cells.iter().min(), cells.iter().max()) else {
        return;
    };
    let span = (hi - lo) as usize + 1;
    if cells.len() < 1 << 12 || span / 8 > cells.len() {
        cells.sort_unstable_by(|a, b| b.cmp(a));
        return;
    }
    let mut bits = vec![0u64; span.div_ceil(64)];
    for &c in cells.iter() {
        let i = (c - lo) as usize;
        bits[i / 64] |= 1 << (i % 64);
    }
    let mut out = cells.iter_mut();
    for (w, &word) in bits.iter().enumerate().rev() {
        let mut word = word;
        while word != 0 {
            let b = 63 - word.leading_zeros() as usize;
            word &= !(1 << b);
            *out.next().expect("as many bits as cells") = lo + (w * 64 + b) as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{descending, shuffled};

    #[test]
    fn the_shuffled_rank_keeps_distinct_cells_distinct_and_mixes_them() {
        // A bijection on 36 bits: no two cells of a block share a rank, so the tie-break
        // stays a total order; and it is not line order again.
        for base in [0u64, 1 << 20, (1 << 36) - 70_000] {
            let mut ranks: Vec<u64> = (base..base + 70_000).map(shuffled).collect();
            assert!(ranks.iter().all(|&r| r < 1 << 36));
            let ascending = ranks.windows(2).filter(|w| w[0] < w[1]).count();
            assert!((20_000..50_000).contains(&ascending), "{ascending}");
            ranks.sort_unstable();
            ranks.dedup();
            assert_eq!(ranks.len(), 70_000);
        }
    }

    #[test]
    fn descending_sorts_dense_and_sparse_sets() {
        let mut rng = fastrand::Rng::with_seed(5);
        for (n, span) in [
            (0, 1),
            (1, 1),
            (5000, 6000),
            (5000, 1_000_000),
            (70_000, 70_000),
        ] {
            let mut all: Vec<u32> = (0..span as u32).map(|c| c + 17).collect();
            rng.shuffle(&mut all);
            let mut cells = all[..n].to_vec();
            let mut expected = cells.clone();
            expected.sort_unstable_by(|a, b| b.cmp(a));
            descending(&mut cells);
            assert_eq!(cells, expected, "{n} of {span}");
        }
    }
}

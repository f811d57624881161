//! A carving algorithm's state bits for every slot of a [`Padded`] grid, with the same
//! indices: per 8x8 tile, `K` planes of one `u64` (a bit per slot) side by side, e.g. a
//! visited flag and the two bits of the side towards the cell's parent. At 8192x8192 the byte
//! grid is 67 MB and a random cell's byte is a miss to memory; three planes are 24 MB, which
//! mostly stay in the 32 MB L3 while the carving reads them at random, and a cell's parent
//! side is written into the line its flag was just read from (no second miss, no store
//! waiting on memory). The masks are made from the parent sides in one parallel pass.

use super::grid::Dims;
use super::padded::{Padded, WALL};
use crate::model::direction::{E, N, S, W};
use crate::par::*;

/// The plane of the parent side's low bit; the next plane holds its high bit.
pub const SIDE: usize = 1;

/// The bits (see the module doc).
pub struct TileBits<const K: usize> {
    pub words: Vec<[u64; K]>,
}

impl<const K: usize> TileBits<K> {
    /// Bits for `grid`'s slots: on its walls, set in the planes `walls` marks; clear elsewhere.
    pub fn new(grid: &Padded, walls: [bool; K]) -> TileBits<K> {
        let mut words = vec![[0u64; K]; grid.cells.len() / 64];
        words
            .par_iter_mut()
            .zip(grid.cells.par_chunks(64))
            .for_each(|(w, tile)| {
                let mut wall = 0u64;
                for (k, &b) in tile.iter().enumerate() {
                    if b & WALL != 0 {
                        wall |= 1 << k;
                    }
                }
                for (plane, &on) in w.iter_mut().zip(&walls) {
                    if on {
                        *plane = wall;
                    }
                }
            });
        TileBits { words }
    }

    /// Whether slot `p`'s bit in `plane` is set.
    #[inline]
    pub fn get(&self, plane: usize, p: usize) -> bool {
        self.words[p / 64][plane] >> (p % 64) & 1 != 0
    }

    /// Sets slot `p`'s bit in `plane`.
    #[inline]
    pub fn set(&mut self, plane: usize, p: usize) {
        self.words[p / 64][plane] |= 1 << (p % 64);
    }

    /// Sets slot `p`'s bit in `plane` and stores `side` (0..4) in the [`SIDE`] planes.
    #[inline]
    pub fn set_with_side(&mut self, plane: usize, p: usize, side: usize) {
        let w = &mut self.words[p / 64];
        let b = 1u64 << (p % 64);
        w[plane] |= b;
        w[SIDE] = w[SIDE] & !b | (side as u64 & 1) << (p % 64);
        w[SIDE + 1] = w[SIDE + 1] & !b | (side as u64 >> 1) << (p % 64);
    }

    /// Per side, the cells of tile (`tr`, `tc`) whose parent is across that side (none off
    /// the grid, nor the root); all empty for a tile off the array.
    #[inline]
    fn parents(&self, grid: &Padded, root: usize, tr: usize, tc: usize) -> [u64; 4] {
        let tw = grid.tiles_wide();
        if tc >= tw || tr >= self.words.len() / tw {
            return [0; 4];
        }
        let Dims { height, width } = grid.dims();
        let on = |first: usize, n: usize| -> u64 {
            if first >= 1 && first + 7 <= n {
                return 0xFF;
            }
            (0..8)
                .filter(|d| (1..=n).contains(&(first + d)))
                .fold(0, |m, d| m | 1 << d)
        };
        let rows = on(tr * 8, height);
        let cols = on(tc * 8, width) * COL0;
        let mut valid = (0..8)
            .filter(|y| rows >> y & 1 != 0)
            .fold(0u64, |m, y| m | 0xFF << (8 * y))
            & cols;
        let t = tr * tw + tc;
        if root / 64 == t {
            valid &= !(1 << (root % 64));
        }
        let (a, b) = (self.words[t][SIDE], self.words[t][SIDE + 1]);
        [
            valid & !a & !b,
            valid & a & !b,
            valid & !a & b,
            valid & a & b,
        ]
    }

    /// Writes the passages of the spanning tree whose every cell but `root` has its parent's
    /// side in the [`SIDE`] planes into the row-major `masks`, rows in parallel: each cell's
    /// mask is its parent side and the sides of the neighbours whose parent it is, found for a
    /// whole tile at a time with shifts of the tile's and its neighbours' words.
    pub fn write_tree_masks(&self, grid: &Padded, root: usize, masks: &mut [u8]) {
        let tw = grid.tiles_wide();
        let width = grid.dims().width;
        masks
            .par_chunks_mut(width)
            .enumerate()
            .for_each(|(r, out)| {
                let (tr, y) = ((r + 1) / 8, (r + 1) % 8);
                let at = |tr: usize, tc: usize| self.parents(grid, root, tr, tc);
                let mut left = [0; 4];
                let mut here = at(tr, 0);
                for tc in 0..tw {
                    let right = at(tr, tc + 1);
                    let above = at(tr.wrapping_sub(1), tc);
                    let below = at(tr + 1, tc);
                    let d = [
                        here[N] | here[S] << 8 | above[S] >> 56,
                        here[E] | (here[W] >> 1) & !COL7 | (right[W] & COL0) << 7,
                        here[S] | here[N] >> 8 | below[N] << 56,
                        here[W] | (here[E] << 1) & !COL0 | (left[E] & COL7) >> 7,
                    ];
                    for x in 0..8 {
                        let pc = tc * 8 + x;
                        if (1..=width).contains(&pc) {
                            let k = y * 8 + x;
                            out[pc - 1] = (0..4).fold(0, |m, s| m | ((d[s] >> k & 1) as u8) << s);
                        }
                    }
                    left = here;
                    here = right;
                }
            });
    }
}

/// The first column of a tile (bit `8 * y` for every row `y`), and the last.
const COL0: u64 = 0x0101_0101_0101_0101;
const COL7: u64 = COL0 << 7;

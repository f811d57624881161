//! A carving algorithm's state bits for every slot of a [`Padded`] grid, with the same
//! indices: per 8x8 tile, `K` planes of one `u64` (a bit per slot) side by side, e.g. a
//! visited flag and the two bits of the side towards the cell's parent. At 8192x8192 the byte
//! grid is 67 MB and a random cell's byte is a miss to memory; three planes are 24 MB, which
//! mostly stay in the 32 MB L3 while the carving reads them at random, and a cell's parent
//! side is written into the line its flag was just read from (no second miss, no store
//! waiting on memory). The masks are made from the parent sides in one parallel pass.

use super::padded::{Padded, WALL};
use crate::model::direction::{E, N, S, W, bit, opposite};
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

    /// The side stored in the [`SIDE`] planes for `p`.
    #[inline]
    pub fn side(&self, p: usize) -> usize {
        let w = &self.words[p / 64];
        ((w[SIDE] >> (p % 64) & 1) | (w[SIDE + 1] >> (p % 64) & 1) << 1) as usize
    }

    /// Writes the passages of the spanning tree whose every cell but `root` has its parent's
    /// side in the [`SIDE`] planes into the row-major `masks`: each cell's mask is its parent
    /// side and the sides of the neighbours whose parent it is.
    pub fn write_tree_masks(&self, grid: &Padded, root: usize, masks: &mut [u8]) {
        grid.write_rows(masks, |_, p| {
            let mut mask = if p == root { 0 } else { bit(self.side(p)) };
            for side in [N, E, S, W] {
                let q = grid.across(p, side);
                if grid.cells[q] & WALL == 0 && q != root && self.side(q) == opposite(side) {
                    mask |= bit(side);
                }
            }
            mask
        });
    }
}

//! One bit per slot of a [`Padded`] grid, a `u64` per 8x8 tile, with the same indices: a
//! carving algorithm's visited (or in-maze) flags in an eighth of the bytes. At 8192x8192 the
//! byte grid is 67 MB and a random cell's byte is a miss to memory; its bits are 8 MB, which
//! stay in the 32 MB L3 while the carving reads them at random, and the byte grid is then only
//! written (a store does not hold up the next step as a load does).

use super::padded::{Padded, WALL};
use crate::par::*;

/// The bits (see the module doc).
pub struct TileBits {
    words: Vec<u64>,
}

impl TileBits {
    /// Bits for `grid`'s slots: set on its walls (so a wall reads as visited), clear elsewhere.
    pub fn walls_of(grid: &Padded) -> TileBits {
        let mut words = vec![0u64; grid.cells.len() / 64];
        words
            .par_iter_mut()
            .zip(grid.cells.par_chunks(64))
            .for_each(|(w, tile)| {
                for (k, &b) in tile.iter().enumerate() {
                    if b & WALL != 0 {
                        *w |= 1 << k;
                    }
                }
            });
        TileBits { words }
    }

    /// Whether slot `p`'s bit is set.
    #[inline]
    pub fn get(&self, p: usize) -> bool {
        self.words[p / 64] >> (p % 64) & 1 != 0
    }

    /// Sets slot `p`'s bit.
    #[inline]
    pub fn set(&mut self, p: usize) {
        self.words[p / 64] |= 1 << (p % 64);
    }
}

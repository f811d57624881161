//! The grid the random-walk algorithms (Wilson, Aldous–Broder) walk on: one state byte per
//! cell on a [`Padded`] grid (8x8 tiles, a ring of walls). A step is a few integer operations
//! and one load, mostly in the cache line of the cell before; a step off the grid is seen in
//! the byte it lands on (the walk then draws again, as the row-major walks did). Each cell of
//! the tree keeps the side towards its parent; the masks are made from those in one parallel
//! pass at the end. The walk's draws are the ones the row-major code made, so a seed gives
//! the same maze as before.

use super::grid::Dims;
use super::padded::{Padded, WALL};
use crate::model::direction::{E, N, S, W, bit, opposite};

/// The cell is in the tree: its low two bits are the side towards its parent, unless [`ROOT`].
const IN_TREE: u8 = 0x40;
/// The tree's root (no parent).
const ROOT: u8 = 0x20;

/// The walk's state grid (see the module doc).
pub struct WalkGrid {
    grid: Padded,
}

impl WalkGrid {
    /// A grid with no cell in the tree yet.
    pub fn new(dims: Dims) -> WalkGrid {
        WalkGrid {
            grid: Padded::new(dims),
        }
    }

    /// The index of row-major cell `i`.
    #[inline]
    pub fn at(&self, i: usize) -> usize {
        self.grid.at(i)
    }

    /// The index of the cell in row `r`, column `c`.
    #[inline]
    pub fn cell(&self, r: usize, c: usize) -> usize {
        self.grid.cell(r, c)
    }

    /// The cell across `side` of `p`, or `None` when that is off the grid.
    #[inline]
    pub fn step(&self, p: usize, side: usize) -> Option<usize> {
        let q = self.grid.across(p, side);
        (self.grid.cells[q] & WALL == 0).then_some(q)
    }

    /// The cell across `side` of `p`, which must be on the grid.
    #[inline]
    pub fn across(&self, p: usize, side: usize) -> usize {
        self.grid.across(p, side)
    }

    /// Whether `p` is in the tree.
    #[inline]
    pub fn in_tree(&self, p: usize) -> bool {
        self.grid.cells[p] & IN_TREE != 0
    }

    /// Makes `p` the root of the tree.
    pub fn set_root(&mut self, p: usize) {
        self.grid.cells[p] = IN_TREE | ROOT;
    }

    /// Remembers `side` as the way out of `p` (not in the tree yet).
    #[inline]
    pub fn set_exit(&mut self, p: usize, side: usize) {
        self.grid.cells[p] = side as u8;
    }

    /// The side last remembered by [`WalkGrid::set_exit`] for `p`.
    #[inline]
    pub fn exit(&self, p: usize) -> usize {
        usize::from(self.grid.cells[p] & 3)
    }

    /// Adds `p` to the tree, its parent across `side`.
    #[inline]
    pub fn attach(&mut self, p: usize, side: usize) {
        self.grid.cells[p] = IN_TREE | side as u8;
    }

    /// Writes the tree's passages into `masks` (row-major, every cell in the tree): each
    /// cell's mask is its parent side and the sides of the neighbours whose parent it is.
    pub fn write_masks(&self, masks: &mut [u8]) {
        let g = &self.grid;
        g.write_rows(masks, |s, p| {
            debug_assert!(s & IN_TREE != 0, "every cell is in the tree");
            let mut mask = if s & ROOT == 0 {
                bit(usize::from(s & 3))
            } else {
                0
            };
            for side in [N, E, S, W] {
                let t = g.cells[g.across(p, side)];
                if t & (IN_TREE | ROOT | WALL) == IN_TREE && usize::from(t & 3) == opposite(side) {
                    mask |= bit(side);
                }
            }
            mask
        });
    }
}

/// One step of the walk from `p`: a side drawn as `rng.usize(..4)` draws it (the top two
/// bits of one `u64`), again while it leads off the grid.
#[inline]
pub fn random_step(grid: &WalkGrid, p: usize, rng: &mut fastrand::Rng) -> (usize, usize) {
    loop {
        let side = (rng.u64(..) >> 62) as usize;
        if let Some(q) = grid.step(p, side) {
            return (side, q);
        }
    }
}

//! The grid the random-walk algorithms (Wilson, Aldous–Broder) walk on: one state byte per
//! cell with a ring of wall cells around the grid. A step is an add and one load: no division
//! to find the row and column, and a step off the grid is seen in the byte it lands on (the
//! walk then draws again, as the row-major walks did). Each cell of the tree keeps the
//! side towards its parent; the masks are made from those in one parallel pass at the end.
//! Half the memory traffic of a mask array plus a separate array of exits, and the walk's
//! draws are the ones `random_step` made, so a seed gives the same maze as before.

use super::grid::Dims;
use crate::model::direction::{E, N, S, W, bit, opposite};
use crate::par::*;

/// The cell is off the grid (the ring).
const WALL: u8 = 0x80;
/// The cell is in the tree: its low two bits are the side towards its parent, unless [`ROOT`].
const IN_TREE: u8 = 0x40;
/// The tree's root (no parent).
const ROOT: u8 = 0x20;

/// The padded state grid (see the module doc).
pub struct WalkGrid {
    dims: Dims,
    /// Row length with the ring: `width + 2`.
    stride: usize,
    /// Index offset of a step across each side (wrapping: north and west are negative).
    offset: [usize; 4],
    state: Vec<u8>,
}

impl WalkGrid {
    /// A grid with no cell in the tree yet.
    pub fn new(dims: Dims) -> WalkGrid {
        let stride = dims.width + 2;
        let mut state = vec![0u8; stride * (dims.height + 2)];
        state[..stride].fill(WALL);
        let last = stride * (dims.height + 1);
        state[last..].fill(WALL);
        for r in 1..=dims.height {
            state[r * stride] = WALL;
            state[r * stride + stride - 1] = WALL;
        }
        let mut offset = [0usize; 4];
        offset[N] = stride.wrapping_neg();
        offset[E] = 1;
        offset[S] = stride;
        offset[W] = 1usize.wrapping_neg();
        WalkGrid {
            dims,
            stride,
            offset,
            state,
        }
    }

    /// The padded index of row-major cell `i`.
    #[inline]
    pub fn at(&self, i: usize) -> usize {
        (i / self.dims.width + 1) * self.stride + i % self.dims.width + 1
    }

    /// The padded index of row `r`, column 0.
    #[inline]
    pub fn row_start(&self, r: usize) -> usize {
        (r + 1) * self.stride + 1
    }

    /// The cell across `side` of `p`, or `None` when that is the ring.
    #[inline]
    pub fn step(&self, p: usize, side: usize) -> Option<usize> {
        let q = p.wrapping_add(self.offset[side]);
        (self.state[q] & WALL == 0).then_some(q)
    }

    /// The cell across `side` of `p`, which must be on the grid.
    #[inline]
    pub fn across(&self, p: usize, side: usize) -> usize {
        p.wrapping_add(self.offset[side])
    }

    /// Whether `p` is in the tree.
    #[inline]
    pub fn in_tree(&self, p: usize) -> bool {
        self.state[p] & IN_TREE != 0
    }

    /// Makes `p` the root of the tree.
    pub fn set_root(&mut self, p: usize) {
        self.state[p] = IN_TREE | ROOT;
    }

    /// Remembers `side` as the way out of `p` (not in the tree yet).
    #[inline]
    pub fn set_exit(&mut self, p: usize, side: usize) {
        self.state[p] = side as u8;
    }

    /// The side last remembered by [`WalkGrid::set_exit`] for `p`.
    #[inline]
    pub fn exit(&self, p: usize) -> usize {
        usize::from(self.state[p] & 3)
    }

    /// Adds `p` to the tree, its parent across `side`.
    #[inline]
    pub fn attach(&mut self, p: usize, side: usize) {
        self.state[p] = IN_TREE | side as u8;
    }

    /// Writes the tree's passages into `masks` (row-major, every cell in the tree). Each row
    /// is made from the parent sides of its cells and of their neighbours, so rows are
    /// independent.
    pub fn write_masks(&self, masks: &mut [u8]) {
        let w = self.dims.width;
        masks.par_chunks_mut(w).enumerate().for_each(|(r, row)| {
            let base = self.row_start(r);
            for (c, m) in row.iter_mut().enumerate() {
                let p = base + c;
                let s = self.state[p];
                debug_assert!(s & IN_TREE != 0, "every cell is in the tree");
                let mut mask = if s & ROOT == 0 {
                    bit(usize::from(s & 3))
                } else {
                    0
                };
                for side in [N, E, S, W] {
                    let t = self.state[self.across(p, side)];
                    if t & (IN_TREE | ROOT | WALL) == IN_TREE
                        && usize::from(t & 3) == opposite(side)
                    {
                        mask |= bit(side);
                    }
                }
                *m = mask;
            }
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

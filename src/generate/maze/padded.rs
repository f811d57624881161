//! Cell bytes for the carving algorithms that look at a cell's neighbours at every step
//! (growing tree, Prim, and the walks of Wilson and Aldous–Broder), laid out in
//! 8x8 tiles with a ring of wall cells around the grid. A tile is one 64-byte cache line, so a
//! cell's four neighbours are mostly in its own line (row-major, north and south are a line
//! each): Prim's frontier and a random walk touch a few times fewer lines, and at 8192x8192
//! those are misses to the shared L3 or memory. A neighbour off the grid is seen in its byte
//! ([`WALL`]), and finding a neighbour is a few branch-free integer operations (no division by
//! the width). The neighbours come in the order N, E, S, W as [`super::grid::Dims`] lists
//! them, so the draws, and the maze for a seed, are the ones the row-major code made.

use super::grid::Dims;
use crate::model::direction::{E, N, S, W, bit, opposite};
use crate::par::*;

/// The cell is off the grid (the ring, and the unused end of the last tiles).
pub const WALL: u8 = 0x80;

/// Tile side (cells); a tile is `TILE * TILE` bytes.
const TILE: usize = 8;

/// The tiled, padded byte grid (see the module doc).
pub struct Padded {
    dims: Dims,
    /// Tiles per tile row.
    tiles_wide: usize,
    /// Per side: the bits of the index that hold the position inside the tile along that
    /// side's axis, their value on the tile's edge towards that side, the index step inside
    /// the tile and the step into the next tile.
    edge_bits: [usize; 4],
    edge_value: [usize; 4],
    inner: [usize; 4],
    outer: [usize; 4],
    /// Mask (low four bits) and flags of every cell, ring included.
    pub cells: Vec<u8>,
}

impl Padded {
    /// A grid of cells with no passage and no flag (every slot off the grid is [`WALL`]).
    pub fn new(dims: Dims) -> Padded {
        let tiles_wide = (dims.width + 2).div_ceil(TILE);
        let tiles_high = (dims.height + 2).div_ceil(TILE);
        let len = tiles_wide * tiles_high * TILE * TILE;
        assert!(len < 1 << 31, "padded grids of at most 2^31 cells");
        let tile_row = tiles_wide * TILE * TILE;
        let neg = |x: usize| x.wrapping_neg();
        let mut grid = Padded {
            dims,
            tiles_wide,
            edge_bits: [0; 4],
            edge_value: [0; 4],
            inner: [0; 4],
            outer: [0; 4],
            cells: vec![0; len],
        };
        let col = TILE - 1;
        let row = (TILE - 1) * TILE;
        grid.edge_bits[N] = row;
        grid.edge_value[N] = 0;
        grid.inner[N] = neg(TILE);
        grid.outer[N] = neg(tile_row - row);
        grid.edge_bits[S] = row;
        grid.edge_value[S] = row;
        grid.inner[S] = TILE;
        grid.outer[S] = tile_row - row;
        grid.edge_bits[E] = col;
        grid.edge_value[E] = col;
        grid.inner[E] = 1;
        grid.outer[E] = TILE * TILE - col;
        grid.edge_bits[W] = col;
        grid.edge_value[W] = 0;
        grid.inner[W] = neg(1);
        grid.outer[W] = neg(TILE * TILE - col);
        // Tiles in parallel: the zeroed pages are first touched (and faulted in) on every
        // core, and no slot is written twice.
        let (h, w) = (dims.height, dims.width);
        grid.cells
            .par_chunks_mut(TILE * TILE)
            .enumerate()
            .for_each(|(t, tile)| {
                let (r0, c0) = ((t / tiles_wide) * TILE, (t % tiles_wide) * TILE);
                for (k, b) in tile.iter_mut().enumerate() {
                    let (pr, pc) = (r0 + k / TILE, c0 + k % TILE);
                    if !(1..=h).contains(&pr) || !(1..=w).contains(&pc) {
                        *b = WALL;
                    }
                }
            });
        grid
    }

    /// The grid's size.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Tiles per tile row (a tile is 8x8 slots, 64 consecutive indices).
    pub fn tiles_wide(&self) -> usize {
        self.tiles_wide
    }

    /// The index of the cell in row `r`, column `c`.
    #[inline]
    pub fn cell(&self, r: usize, c: usize) -> usize {
        self.index(r + 1, c + 1)
    }

    /// The index of padded row `pr`, padded column `pc` (the grid's cells are at 1..=height,
    /// 1..=width).
    #[inline]
    fn index(&self, pr: usize, pc: usize) -> usize {
        ((pr / TILE) * self.tiles_wide + pc / TILE) * TILE * TILE + (pr % TILE) * TILE + pc % TILE
    }

    /// The index of row-major cell `i`.
    #[inline]
    pub fn at(&self, i: usize) -> usize {
        self.index(i / self.dims.width + 1, i % self.dims.width + 1)
    }

    /// The slot across `side` of `p` (on the grid or a wall).
    #[inline]
    pub fn across(&self, p: usize, side: usize) -> usize {
        let step = if p & self.edge_bits[side] == self.edge_value[side] {
            self.outer[side]
        } else {
            self.inner[side]
        };
        p.wrapping_add(step)
    }

    /// The sides of `p` that lead to a cell on the grid whose byte passes `keep`, as (side,
    /// cell) pairs in N, E, S, W order.
    #[inline]
    pub fn neighbours_where(
        &self,
        p: usize,
        keep: impl Fn(u8) -> bool,
    ) -> ([(usize, usize); 4], usize) {
        let mut out = [(0, 0); 4];
        let mut k = 0;
        for side in [N, E, S, W] {
            let q = self.across(p, side);
            let b = self.cells[q];
            // Branch-free, as in `sides_where`.
            out[k] = (side, q);
            k += usize::from((b & WALL == 0) & keep(b));
        }
        (out, k)
    }

    /// The sides of `p` whose slot passes `keep` (given the slot's index), as (side, slot)
    /// pairs in N, E, S, W order; the caller's test must reject walls.
    #[inline]
    pub fn sides_where(
        &self,
        p: usize,
        keep: impl Fn(usize) -> bool,
    ) -> ([(usize, usize); 4], usize) {
        let mut out = [(0, 0); 4];
        let mut k = 0;
        for side in [N, E, S, W] {
            let q = self.across(p, side);
            // Written always, counted when kept: whether a random neighbour passes is a coin
            // toss, and a branch on it is mispredicted about half the time.
            out[k] = (side, q);
            k += usize::from(keep(q));
        }
        (out, k)
    }

    /// Opens the passage between `p` and its neighbour `q` across `side`.
    #[inline]
    pub fn open(&mut self, p: usize, side: usize, q: usize) {
        self.cells[p] |= bit(side);
        self.cells[q] |= bit(opposite(side));
    }

    /// The indices of row `r`'s cells, west to east.
    pub fn row(&self, r: usize) -> impl Iterator<Item = usize> + '_ {
        let first = self.index(r + 1, 1);
        (0..self.dims.width).scan(first, move |p, _| {
            let here = *p;
            *p = self.across(here, E);
            Some(here)
        })
    }

    /// Writes `f(byte of the cell, index)` for every cell into the row-major `masks`, rows
    /// in parallel.
    pub fn write_rows(&self, masks: &mut [u8], f: impl Fn(u8, usize) -> u8 + Sync) {
        masks
            .par_chunks_mut(self.dims.width)
            .enumerate()
            .for_each(|(r, out)| {
                for (m, p) in out.iter_mut().zip(self.row(r)) {
                    *m = f(self.cells[p], p);
                }
            });
    }

    /// Copies the masks (low four bits, flags dropped) into the row-major `masks`.
    pub fn write_masks(&self, masks: &mut [u8]) {
        self.write_rows(masks, |b, _| b & 0xF);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_keep_the_grid_geometry() {
        // Every cell's neighbours are the row-major ones, and the ring is walls.
        for &(h, w) in &[(1, 1), (1, 9), (9, 1), (7, 6), (8, 8), (13, 22), (30, 17)] {
            let dims = Dims::new(h, w);
            let g = Padded::new(dims);
            let open_slots = g.cells.iter().filter(|&&b| b == 0).count();
            assert_eq!(open_slots, h * w, "{h}x{w}");
            for i in 0..h * w {
                let p = g.at(i);
                assert_eq!(g.cells[p], 0);
                for side in [N, E, S, W] {
                    let q = g.across(p, side);
                    match dims.neighbour(i, side) {
                        Some(j) => assert_eq!(q, g.at(j), "{h}x{w} cell {i} side {side}"),
                        None => assert_eq!(g.cells[q], WALL, "{h}x{w} cell {i} side {side}"),
                    }
                }
            }
            let rows: Vec<usize> = (0..h).flat_map(|r| g.row(r)).collect();
            let want: Vec<usize> = (0..h * w).map(|i| g.at(i)).collect();
            assert_eq!(rows, want);
            let cells: Vec<usize> = (0..h)
                .flat_map(|r| (0..w).map(move |c| (r, c)))
                .map(|(r, c)| g.cell(r, c))
                .collect();
            assert_eq!(cells, want);
        }
    }
}

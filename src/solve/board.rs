//! [`Board`]: the shapes of a level on a grid padded with a ring of empty cells, so that the
//! four neighbours of any real cell are plain index offsets and the border needs no special
//! case: an empty neighbour forbids a connection exactly as the border does.

use crate::model::Game;
use crate::par::*;

/// The level's piece kinds on the padded grid (or on a compact board cut from one); the
/// solver's read-only geometry.
#[derive(Clone)]
pub struct Board {
    /// Rows of the game grid, without the ring.
    pub height: usize,
    /// Columns of the game grid, without the ring.
    pub width: usize,
    /// Padded width (`width + 2`).
    pub stride: usize,
    /// Piece kind code per padded cell; the ring is empty (0).
    pub kind: Vec<u8>,
    /// Index offsets to the N, E, S, W neighbours.
    pub step: [isize; 4],
    /// Compact boards only (see [`Board::compact`]): the N, E, S, W neighbours of each cell.
    links: Vec<u32>,
    /// Wrapped boards only (see [`Board::wrapped`]): a bit per padded cell, set on the ring
    /// cells a side crosses a seam into; the cell met there is `across` that side further.
    seams: Vec<u64>,
    /// Per side, what takes a ring cell marked in `seams` to the real cell across the seam.
    across: [isize; 4],
    /// Whether neighbours are not plain index offsets: `links` or `seams` is in use. Kept
    /// apart from their lengths so that [`Board::neighbour`] tests one bool on a plain board.
    indirect: bool,
    /// Compact boards only: each cell's padded index in the grid it was cut from, whose
    /// `height`, `width` and `stride` the board keeps (for colours and static ranks).
    origin: Vec<u32>,
}

impl Board {
    /// The padded board of `game`'s shapes (orientations are ignored).
    pub fn new(game: &Game) -> Board {
        let (h, w) = (game.height(), game.width());
        let stride = w + 2;
        let mut kind = vec![0u8; (h + 2) * stride];
        // Row by row in parallel: at 16384x16384 this is a quarter of a billion cells.
        if w > 0 {
            kind[stride..(h + 1) * stride]
                .par_chunks_mut(stride)
                .zip(game.cells().par_chunks(w))
                .for_each(|(row, pieces)| {
                    for (k, p) in row[1..=w].iter_mut().zip(pieces) {
                        *k = p.kind().code();
                    }
                });
        }
        Board {
            height: h,
            width: w,
            stride,
            kind,
            step: [-(stride as isize), 1, stride as isize, -1],
            links: Vec::new(),
            origin: Vec::new(),
            seams: Vec::new(),
            across: [0; 4],
            indirect: false,
        }
    }

    /// The padded board of `game`'s shapes on a square board that wraps: the rows' ends meet
    /// when `wrap_cols`, the columns' when `wrap_rows`. Cells keep their padded indices (so
    /// colours, positions and the row-major layout are the plain board's) and neighbours are
    /// the padded grid's offsets, but where a side crosses a wrapping seam into the ring: a
    /// bit a cell marks those ring cells, and the cell across is a fixed step further per
    /// side. A side on a border that does not wrap faces the ring as usual. A table of four
    /// neighbours a cell (268 MB at 4096x4096) cost a wrapped maze that size 0.06-0.46 s of
    /// fresh pages, and a load from it at every step.
    pub fn wrapped(game: &Game, wrap_rows: bool, wrap_cols: bool) -> Board {
        let mut board = Board::new(game);
        let (h, w, stride) = (board.height, board.width, board.stride);
        let mut seams = vec![0u64; board.kind.len().div_ceil(64)];
        let mut mark = |i: usize| seams[i / 64] |= 1 << (i % 64);
        if wrap_rows {
            (1..=w).for_each(|c| {
                mark(c);
                mark((h + 1) * stride + c);
            });
        }
        if wrap_cols {
            (1..=h).for_each(|r| {
                mark(r * stride);
                mark(r * stride + w + 1);
            });
        }
        let (down, right) = ((h * stride) as isize, w as isize);
        board.across = [down, -right, -down, right];
        board.seams = seams;
        board.indirect = true;
        board
    }

    /// True when the bottom row's south sides face the top row (a [`Board::wrapped`] board
    /// whose columns wrap).
    pub fn wraps_rows(&self) -> bool {
        self.is_linked()
            && self.origin.is_empty()
            && self.height > 0
            && self.width > 0
            && self.neighbour(self.cell(self.height - 1, 0), 2) == self.cell(0, 0)
    }

    /// True when neighbours are not plain index offsets: a wrapped board's cross its seams,
    /// a compact board's come from a table.
    pub fn is_linked(&self) -> bool {
        self.indirect
    }

    /// A board from padded kinds (`(height + 2) * (width + 2)` of them, ring included).
    pub fn from_padded(height: usize, width: usize, kind: Vec<u8>) -> Board {
        let stride = width + 2;
        debug_assert_eq!(kind.len(), (height + 2) * stride);
        Board {
            height,
            width,
            stride,
            kind,
            step: [-(stride as isize), 1, stride as isize, -1],
            links: Vec::new(),
            origin: Vec::new(),
            seams: Vec::new(),
            across: [0; 4],
            indirect: false,
        }
    }

    /// A board of `kind.len()` cells numbered compactly, neighbours given by `links` (four
    /// per cell), cut from `grid`: cell `i` is `origin[i]` there. Memory and set-up are then
    /// linear in the cells, whatever the shape's bounding box.
    pub fn compact(grid: &Board, kind: Vec<u8>, links: Vec<u32>, origin: Vec<u32>) -> Board {
        debug_assert_eq!(links.len(), 4 * kind.len());
        debug_assert_eq!(origin.len(), kind.len());
        Board {
            height: grid.height,
            width: grid.width,
            stride: grid.stride,
            kind,
            step: grid.step,
            links,
            origin,
            seams: Vec::new(),
            across: [0; 4],
            indirect: true,
        }
    }

    /// The padded index of `cell` in the grid the board was cut from (itself for a grid).
    #[inline]
    pub fn grid_index(&self, cell: usize) -> usize {
        if self.origin.is_empty() {
            cell
        } else {
            self.origin[cell] as usize
        }
    }

    /// The checkerboard colour of `cell` (the same as in the grid it was cut from).
    #[inline]
    pub fn colour(&self, cell: usize) -> bool {
        let g = self.grid_index(cell);
        (g / self.stride + g % self.stride) & 1 == 1
    }

    /// Number of padded cells.
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    /// True when the board has no cells at all (never for a board built from a [`Game`]).
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// Padded index of the game cell (row, col).
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.stride + col + 1
    }

    /// Game (row, col) of a padded index inside the ring.
    #[inline]
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        let g = self.grid_index(cell);
        (g / self.stride - 1, g % self.stride - 1)
    }

    /// Index of the neighbour across `side` (N, E, S, W = 0..4) of padded `cell`; for a
    /// compact board, from its neighbour table; for a wrapped one, across its seams.
    #[inline(always)]
    pub fn neighbour(&self, cell: usize, side: usize) -> usize {
        if !self.indirect {
            cell.wrapping_add_signed(self.step[side])
        } else if self.links.is_empty() {
            self.across_seams(cell, side)
        } else {
            self.links[4 * cell + side] as usize
        }
    }

    /// [`Board::neighbour`] on a wrapped board: the padded grid's, or across a seam.
    #[inline(always)]
    fn across_seams(&self, cell: usize, side: usize) -> usize {
        let n = cell.wrapping_add_signed(self.step[side]);
        // Past either end of the padded grid (a ring cell's outward side, a stand-in never
        // read) is cell 0, a ring corner, as a compact board's stand-in points.
        match self.seams.get(n / 64) {
            Some(w) if w >> (n % 64) & 1 == 1 => n.wrapping_add_signed(self.across[side]),
            Some(_) => n,
            None => 0,
        }
    }

    /// Padded indices of every real cell, row-major.
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.height).flat_map(move |r| (0..self.width).map(move |c| self.cell(r, c)))
    }
}

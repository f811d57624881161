//! [`Subproblem`]: one region cut out of the propagated grid into a small board of its own
//! (its bounding box plus a one-cell margin), so a worker needs memory for the region, not for
//! the whole grid. Cells of the margin and non-region cells in the box keep their domains: the
//! sides they share with the region are decided, so propagation never needs to look past them.

use super::board::Board;

pub struct Subproblem {
    pub board: Board,
    pub dom: Vec<u8>,
    /// The region's cells as local indices, in the order given.
    pub cells: Vec<u32>,
    /// Global padded index of local index 0.
    origin_row: usize,
    origin_col: usize,
    global_stride: usize,
}

impl Subproblem {
    /// Cuts `region` (global padded indices) out of `board` with domains `dom`.
    pub fn extract(board: &Board, dom: &[u8], region: &[u32]) -> Subproblem {
        let s = board.stride;
        let (mut r0, mut c0, mut r1, mut c1) = (usize::MAX, usize::MAX, 0, 0);
        for &g in region {
            let (r, c) = (g as usize / s, g as usize % s);
            r0 = r0.min(r);
            c0 = c0.min(c);
            r1 = r1.max(r);
            c1 = c1.max(c);
        }
        // Region cells are real cells, so the margin stays inside the padded grid.
        let (origin_row, origin_col) = (r0 - 1, c0 - 1);
        let (rows, cols) = (r1 - r0 + 3, c1 - c0 + 3);
        let mut kind = Vec::with_capacity(rows * cols);
        let mut sub_dom = Vec::with_capacity(rows * cols);
        for r in origin_row..origin_row + rows {
            let row = r * s + origin_col;
            kind.extend_from_slice(&board.kind[row..row + cols]);
            sub_dom.extend_from_slice(&dom[row..row + cols]);
        }
        let local = Board::from_padded(rows - 2, cols - 2, kind);
        let cells = region
            .iter()
            .map(|&g| {
                let (r, c) = (g as usize / s, g as usize % s);
                ((r - origin_row) * cols + (c - origin_col)) as u32
            })
            .collect();
        Subproblem {
            board: local,
            dom: sub_dom,
            cells,
            origin_row,
            origin_col,
            global_stride: s,
        }
    }

    /// Global padded index of a local index.
    pub fn global(&self, local: usize) -> u32 {
        let (r, c) = (local / self.board.stride, local % self.board.stride);
        ((r + self.origin_row) * self.global_stride + c + self.origin_col) as u32
    }
}

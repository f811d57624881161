//! The layout hexapipes' triangular and rhombitrihexagonal grids share (their
//! `_row_col_to_index`): `h` rows of `w` tiles of `units` cells each, cell
//! `units * (row * w + column) + unit`, every row half a tile right of the one above. A
//! bounded board shifts its rows back a tile every second row to stay rectangular; a
//! wrapped one stays a parallelogram whose edges meet.

pub(super) struct SkewedRows {
    pub w: usize,
    pub h: usize,
    pub wrap: bool,
    /// Cells per tile.
    pub units: usize,
}

impl SkewedRows {
    /// Row and (unshifted) column of `cell`'s tile.
    pub fn row_col(&self, cell: usize) -> (isize, isize) {
        let tile = cell / self.units;
        let r = (tile / self.w) as isize;
        let c = (tile % self.w) as isize;
        (r, if self.wrap { c } else { c - r / 2 })
    }

    /// The cell `unit` of the tile at `row` and (unshifted) column `col`, wrapped, or
    /// `None` off a bounded board.
    pub fn index(&self, row: isize, col: isize, unit: usize) -> Option<usize> {
        let (w, h) = (self.w as isize, self.h as isize);
        let (row, col) = if self.wrap {
            (row.rem_euclid(h), col.rem_euclid(w))
        } else {
            let col = col + row.div_euclid(2);
            if !(0..h).contains(&row) || !(0..w).contains(&col) {
                return None;
            }
            (row, col)
        };
        Some(self.units * (row * w + col) as usize + unit)
    }
}

//! [`Lattice`]: the neighbour rule of a board laid out in rows, as arithmetic. Away from its
//! edges a board of today's tilings repeats every two rows, so a cell's neighbour across a
//! side is the cell a fixed number of places away, one number per side and row parity. An
//! engine sweeping the cells in order can then find the neighbours without reading the link
//! table (24 bytes a cell on a hexagonal board, most of what a sweep would read).

use super::MAX_SIDES;

/// A board's neighbours by arithmetic (see the module doc). It speaks only for the inner
/// cells ([`Lattice::is_inner`]): there the link table says the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lattice {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Sides per cell.
    pub sides: usize,
    /// For a cell of an even row (`[0]`) and of an odd row (`[1]`), the distance in cell
    /// numbers to the neighbour across each side.
    pub step: [[isize; MAX_SIDES]; 2],
    /// The neighbour's side that faces back across each side.
    pub facing: [u8; MAX_SIDES],
    /// The row and column steps `step` was made of, per row parity and side.
    moves: [[(isize, isize); MAX_SIDES]; 2],
}

impl Lattice {
    /// A lattice of `sides` sides from the row and column steps of each side, for an even
    /// and an odd row, and the facing side of each.
    pub(super) fn from_steps(
        width: usize,
        height: usize,
        steps: &[[(isize, isize); 2]],
        facing: impl Fn(usize) -> usize,
    ) -> Lattice {
        let mut step = [[0isize; MAX_SIDES]; 2];
        let mut moves = [[(0isize, 0isize); MAX_SIDES]; 2];
        let mut faces = [0u8; MAX_SIDES];
        for (s, both) in steps.iter().enumerate() {
            for (parity, &(dr, dc)) in both.iter().enumerate() {
                step[parity][s] = dr * width as isize + dc;
                moves[parity][s] = (dr, dc);
            }
            faces[s] = facing(s) as u8;
        }
        Lattice {
            width,
            height,
            sides: steps.len(),
            step,
            facing: faces,
            moves,
        }
    }

    /// For an inner cell of row parity `parity`, the corner between its sides `s` and the
    /// next one (`s + 1` mod sides), where three cells meet when the neighbours across the
    /// two sides are neighbours of each other (every corner of a hexagonal board, none of a
    /// square one): the side of the first neighbour that faces the second and the side of
    /// the second that faces back. `None` where they do not meet.
    pub fn corner(&self, parity: usize, s: usize) -> Option<(usize, usize)> {
        let k = self.sides;
        let (r1, c1) = self.moves[parity][s];
        let (r2, c2) = self.moves[parity][(s + 1) % k];
        let p1 = (parity as isize + r1).rem_euclid(2) as usize;
        let u = (0..k).find(|&u| self.moves[p1][u] == (r2 - r1, c2 - c1))?;
        Some((u, self.facing[u] as usize))
    }

    /// Whether the side facing back across each side is the opposite one (`s + sides / 2`),
    /// as on today's tilings: an engine may then shift by constants.
    pub fn faces_opposite(&self) -> bool {
        let k = self.sides;
        (0..k).all(|s| self.facing[s] as usize == (s + k / 2) % k)
    }

    /// The farthest a neighbour of an inner cell is, in cell numbers.
    pub fn reach(&self) -> usize {
        self.step
            .iter()
            .flat_map(|row| &row[..self.sides])
            .map(|s| s.unsigned_abs())
            .max()
            .unwrap_or(0)
    }

    /// Whether `cell` is neither in the first or last row nor in the first or last column:
    /// its neighbours are then all one step away within the rectangle, wrapped or not.
    #[inline(always)]
    pub fn is_inner(&self, cell: usize) -> bool {
        let (r, c) = (cell / self.width, cell % self.width);
        (1..self.height.saturating_sub(1)).contains(&r)
            && (1..self.width.saturating_sub(1)).contains(&c)
    }
}

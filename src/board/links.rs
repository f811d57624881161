//! Who faces whom, stored small. A full link table costs 4 bytes a side (24 a hexagonal cell,
//! 400 MB at 4096x4096), and on this kind of machine the kernel's zeroing of its fresh pages
//! was most of the time it took to read a 4096x4096 hexagonal level. Today's tilings repeat:
//! a cell's links are its own number plus a fixed offset per side, the same for every cell of
//! a row class (first row, last row, an inner row of either parity) and a column class (the
//! first two columns, the last two, the rest), since no side reaches further than two columns
//! or one row, a wrap's shift included. [`LinkClasses`] keeps one byte per cell naming its
//! class and one small table of offsets per class. [`Links`] is what engines read: either
//! that, or a table of their own (a region's, or a board with barriers folded in).

use std::borrow::Cow;

use super::{MAX_SIDES, NO_LINK};
use crate::par::*;

/// Row classes times column classes.
const CLASSES: usize = 4 * 5;
/// A side that is a border, in a class's offsets.
const BORDER: i64 = i64::MIN;

/// A repeating board's links as a class per cell (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkClasses {
    /// The class of each cell.
    class: Vec<u8>,
    /// Per class (padded to a power of two, so an index needs no bounds check) and side,
    /// what to add to `cell * 8` for the link, or [`BORDER`].
    add: [[i64; MAX_SIDES]; 32],
}

/// The class of a row: the first, the last, or an inner one of each parity.
fn row_class(r: usize, height: usize) -> usize {
    if r == 0 {
        0
    } else if r + 1 == height {
        1
    } else {
        2 + r % 2
    }
}

/// The class of a column: the first two, the last two, or an inner one.
fn column_class(c: usize, width: usize) -> usize {
    if c < 2 {
        c
    } else if c + 2 >= width {
        c + 5 - width
    } else {
        2
    }
}

impl LinkClasses {
    /// The classes of a `width` x `height` board of `sides` sides whose link (as a link
    /// table holds it) across side `s` of the cell at row `r`, column `c` is
    /// `link(r, c, s)`. The tiling must repeat as the module doc says: a test checks every
    /// tiling's classes against its full table on every small board.
    pub(super) fn new(
        width: usize,
        height: usize,
        sides: usize,
        link: impl Fn(usize, usize, usize) -> u32,
    ) -> LinkClasses {
        let mut add = [[BORDER; MAX_SIDES]; 32];
        let mut seen = [false; CLASSES];
        // A representative of every class: the rows and columns each class starts at.
        let rows = [0, 1, 2, height.saturating_sub(1)];
        let columns = [0, 1, 2, width.saturating_sub(2), width.saturating_sub(1)];
        for r in rows.into_iter().filter(|&r| r < height) {
            for c in columns.into_iter().filter(|&c| c < width) {
                let class = row_class(r, height) * 5 + column_class(c, width);
                if std::mem::replace(&mut seen[class], true) {
                    continue;
                }
                let base = ((r * width + c) * 8) as i64;
                for (s, a) in add[class][..sides].iter_mut().enumerate() {
                    let l = link(r, c, s);
                    *a = if l == NO_LINK {
                        BORDER
                    } else {
                        l as i64 - base
                    };
                }
            }
        }
        let columns: Vec<u8> = (0..width).map(|c| column_class(c, width) as u8).collect();
        let mut class = vec![0u8; width * height];
        class
            .par_chunks_mut(width)
            .enumerate()
            .for_each(|(r, row)| {
                let first = (row_class(r, height) * 5) as u8;
                for (x, &c) in row.iter_mut().zip(&columns) {
                    *x = first + c;
                }
            });
        LinkClasses { class, add }
    }

    /// The link of `cell`'s `side`: `neighbour * 8 + facing side`, or [`NO_LINK`].
    #[inline(always)]
    pub fn link(&self, cell: usize, side: usize) -> u32 {
        let a = self.add[self.class[cell] as usize & 31][side & (MAX_SIDES - 1)];
        if a == BORDER {
            NO_LINK
        } else {
            (cell as i64 * 8 + a) as u32
        }
    }
}

/// The links an engine reads (see the module doc): `cell * k + side` of a table, or a
/// board's classes.
#[derive(Clone, Debug)]
pub enum Links<'a> {
    /// A table of `k` links per cell.
    Table {
        /// Sides per cell.
        k: usize,
        /// The table.
        links: Cow<'a, [u32]>,
    },
    /// A board's own links.
    Classes(&'a LinkClasses),
}

impl Links<'_> {
    /// The link of `cell`'s `side`.
    #[inline(always)]
    pub fn get(&self, cell: usize, side: usize) -> u32 {
        match self {
            Links::Table { k, links } => links[cell * k + side],
            Links::Classes(classes) => classes.link(cell, side),
        }
    }

    /// The links of `cell`'s `K` sides.
    #[inline(always)]
    pub fn of<const K: usize>(&self, cell: usize) -> [u32; K] {
        match self {
            Links::Table { links, .. } => {
                links[cell * K..][..K].try_into().expect("K sides a cell")
            }
            Links::Classes(classes) => std::array::from_fn(|s| classes.link(cell, s)),
        }
    }

    /// The same links, borrowed.
    pub fn borrowed(&self) -> Links<'_> {
        match self {
            Links::Table { k, links } => Links::Table {
                k: *k,
                links: Cow::Borrowed(links),
            },
            Links::Classes(classes) => Links::Classes(classes),
        }
    }

    /// The whole table, copied into one when these are a board's classes, for `cells`
    /// cells of `k` sides: what an engine that changes links (barriers) starts from.
    pub fn to_table(&self, cells: usize, k: usize) -> Vec<u32> {
        match self {
            Links::Table { links, .. } => links.to_vec(),
            Links::Classes(classes) => {
                let mut table = vec![0u32; cells * k];
                table.par_chunks_mut(k).enumerate().for_each(|(c, row)| {
                    for (s, l) in row.iter_mut().enumerate() {
                        *l = classes.link(c, s);
                    }
                });
                table
            }
        }
    }
}

//! The hexagonal tiling exactly as hexapipes lays it out (`src/lib/puzzle/grids/hexagrid.js`):
//! pointy-top hexagons in rows, odd rows shifted half a cell to the right; sides E, NE, NW, W,
//! SW, SE are bits 1, 2, 4, 8, 16, 32. A wrapped board joins left to right and top to bottom;
//! crossing the top or bottom edge also shifts the column (by one, or, crossing the bottom of a
//! board with an odd number of rows, by none), which keeps the neighbour relation symmetric.

use super::square::walkable;
use super::{Board, Lattice, NO_LINK};
use crate::par::*;

/// Row and column steps of E, NE, NW, W, SW, SE, from an even row and from an odd row.
const STEP: [[(isize, isize); 2]; 6] = [
    [(0, 1), (0, 1)],
    [(-1, 0), (-1, 1)],
    [(-1, -1), (-1, 0)],
    [(0, -1), (0, -1)],
    [(1, -1), (1, 0)],
    [(1, 0), (1, 1)],
];

/// The hexagonal board's neighbours by arithmetic (see [`Lattice`]).
pub(super) fn lattice(width: usize, height: usize) -> Lattice {
    Lattice::from_steps(width, height, &STEP, |s| (s + 3) % 6)
}

/// Vertical distance between row centres.
const ROW_STEP: f64 = 0.866_025_403_784_438_6;
/// Half the height of a hexagon (its circumradius when neighbours are one unit apart).
const RADIUS: f64 = 0.577_350_269_189_625_8;

/// The neighbour of (`r`, `c`) across `side`, by hexapipes' `find_neighbour`, cell by cell:
/// what [`links`] computes a row at a time (the tests' reference), and what the board's
/// link classes are made from.
pub(super) fn neighbour(
    r: usize,
    c: usize,
    side: usize,
    width: usize,
    height: usize,
    wrap: bool,
) -> Option<usize> {
    let (dr, dc) = STEP[side][r % 2];
    let (mut r, mut c) = (r as isize + dr, c as isize + dc);
    let (w, h) = (width as isize, height as isize);
    if wrap {
        if r == -1 {
            r = h - 1;
            c += 1;
        }
        if r == h {
            r = 0;
            c -= 1 - h % 2;
        }
        // At most one width off (a step, and the shift of crossing the top or bottom): a
        // compare, not a remainder per side of a table of millions.
        if c < 0 {
            c += w;
        } else if c >= w {
            c -= w;
        }
    }
    ((0..h).contains(&r) && (0..w).contains(&c)).then(|| (r * w + c) as usize)
}

/// The link of (`r`, `c`)'s `side` as a link table holds it.
pub(super) fn link(
    r: usize,
    c: usize,
    side: usize,
    width: usize,
    height: usize,
    wrap: bool,
) -> u32 {
    neighbour(r, c, side, width, height, wrap)
        .map_or(NO_LINK, |n| (n as u32) << 3 | ((side + 3) % 6) as u32)
}

/// The link table of a `width` x `height` hexagonal board, built a row per task: at
/// 4096x4096 it is 400 MB, written once. Zeroed memory is mapped lazily, so the pages are
/// touched by the threads that fill them rather than by one up-front fill. Each row first
/// works out, per side, the row it reaches and the column offset (a wrap's shift included),
/// the steps [`neighbour`] takes for every cell; per cell only the column is brought in.
pub(super) fn links(width: usize, height: usize, wrap: bool) -> Vec<u32> {
    let mut links = vec![0u32; width * height * 6];
    let (w, h) = (width as isize, height as isize);
    links
        .par_chunks_mut(width * 6)
        .enumerate()
        .for_each(|(r, row)| {
            let targets: [Option<(usize, isize)>; 6] = std::array::from_fn(|side| {
                let (dr, dc) = STEP[side][r % 2];
                let (mut tr, mut offset) = (r as isize + dr, dc);
                if wrap && tr == -1 {
                    (tr, offset) = (h - 1, offset + 1);
                } else if wrap && tr == h {
                    (tr, offset) = (0, offset - (1 - h % 2));
                }
                (0..h).contains(&tr).then(|| (tr as usize * width, offset))
            });
            // A side's link as a table entry, or every entry of a row past a border; from
            // the third column to the third last no offset leaves the row.
            let inner: [Option<(isize, u32)>; 6] = std::array::from_fn(|s| {
                targets[s].map(|(base, offset)| (base as isize + offset, ((s + 3) % 6) as u32))
            });
            let edge = |c: usize| c < 2 || c + 2 >= width;
            for (c, cell) in row.chunks_exact_mut(6).enumerate() {
                if !edge(c) {
                    for (l, t) in cell.iter_mut().zip(&inner) {
                        *l = t.map_or(NO_LINK, |(first, back)| {
                            ((first + c as isize) as u32) << 3 | back
                        });
                    }
                    continue;
                }
                for (s, l) in cell.iter_mut().enumerate() {
                    *l = match targets[s] {
                        Some((base, offset)) => {
                            let mut tc = c as isize + offset;
                            if wrap && tc < 0 {
                                tc += w;
                            } else if wrap && tc >= w {
                                tc -= w;
                            }
                            if (0..w).contains(&tc) {
                                ((base + tc as usize) as u32) << 3 | ((s + 3) % 6) as u32
                            } else {
                                NO_LINK
                            }
                        }
                        None => NO_LINK,
                    };
                }
            }
        });
    links
}

/// The triangles of mutually adjacent cells: two per cell, below and to the right of it.
pub(super) fn faces(board: &Board) -> Vec<(usize, &'static [u8])> {
    const EAST_THEN_SOUTH_WEST: &[u8] = &[0, 4, 2];
    const SOUTH_EAST_THEN_WEST: &[u8] = &[5, 3, 1];
    let mut faces = Vec::new();
    for c in 0..board.len() {
        for walk in [EAST_THEN_SOUTH_WEST, SOUTH_EAST_THEN_WEST] {
            if walkable(board, c, walk) {
                faces.push((c, walk));
            }
        }
    }
    faces
}

/// The centre of row `r`, column `c`.
pub(super) fn centre(r: usize, c: usize) -> (f64, f64) {
    let shift = if r % 2 == 1 { 0.5 } else { 0.0 };
    (c as f64 + 0.5 + shift, r as f64 * ROW_STEP + RADIUS)
}

/// The bounding box of a `width` x `height` board's hexagons.
pub(super) fn extent(width: usize, height: usize) -> (f64, f64, f64, f64) {
    let shift = if height > 1 { 0.5 } else { 0.0 };
    (
        0.0,
        0.0,
        width as f64 + shift,
        (height - 1) as f64 * ROW_STEP + 2.0 * RADIUS,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_built_table_is_hexapipes_find_neighbour() {
        for wrap in [false, true] {
            for (w, h) in (1..=7).flat_map(|w| (1..=7).map(move |h| (w, h))) {
                if wrap && (w < 2 || h < 2) {
                    continue;
                }
                let table = links(w, h, wrap);
                for r in 0..h {
                    for c in 0..w {
                        for s in 0..6 {
                            let expected = neighbour(r, c, s, w, h, wrap)
                                .map_or(NO_LINK, |n| (n as u32) << 3 | ((s + 3) % 6) as u32);
                            let got = table[(r * w + c) * 6 + s];
                            assert_eq!(got, expected, "{w}x{h} wrap {wrap}: ({r}, {c}) side {s}");
                        }
                    }
                }
            }
        }
    }
}

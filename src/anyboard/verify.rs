//! The verifier of a level on any board: every connection meets one across the same side pair
//! and none crosses a border. It reads nothing the solver computed, so a solver bug cannot
//! vouch for itself: a level is judged solved from the tiling's geometry, row against row
//! (a second derivation of the neighbours, apart from the link table the solver reads), and
//! a level with a defect is scanned through the board's link table to name the first.

use crate::board::{Board, BoardLevel, NO_LINK, Tiling, Wrap};
use crate::par::*;

/// Where a level is not solved: a cell and one of its sides whose connection is unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defect {
    /// The cell.
    pub cell: usize,
    /// The side.
    pub side: usize,
    /// True when the side faces a border (a connection leaves the board).
    pub border: bool,
}

impl Defect {
    /// A sentence for the user: row, column and side names.
    pub fn describe(&self, level: &BoardLevel) -> String {
        let b = level.board();
        let at = b.cell_label(self.cell);
        let side = b.side_label(self.cell, self.side);
        if self.border {
            format!("cell {at} connects {side}, across the border")
        } else {
            let (n, t) = b.neighbour(self.cell, self.side).expect("not a border");
            let there = b.cell_label(n);
            let has = level.masks()[self.cell] >> self.side & 1 == 1;
            let facing = b.side_label(n, t);
            if has {
                format!("cell {at} connects {side} but {there} does not connect {facing}")
            } else {
                format!("cell {there} connects {facing} but {at} does not connect {side}")
            }
        }
    }
}

/// The first unanswered connection in row-major order, or `None` when the level is solved.
pub fn first_defect(level: &BoardLevel) -> Option<Defect> {
    first_defect_on(level.board(), level.masks())
}

/// [`first_defect`] of `masks` on `board` (one mask per cell), without making a level of
/// them: the solver checks its answer before it copies the board into one.
pub fn first_defect_on(board: &Board, masks: &[u8]) -> Option<Defect> {
    // Nearly every level checked is solved: a branch-free pass over stripes in parallel
    // says so, and only a level with a defect is read again to name the first.
    if masks.len() != board.len() || !all_answered(board, masks) {
        return first_defect_scan(board, masks);
    }
    None
}

/// True when every connection of `masks` on `board` is answered, row by row in parallel from
/// the tiling's geometry (see [`square_row_answered`], [`hexagonal_row_answered`]): every
/// side pair is compared once, from the row above or the cell to the left, as plain loops over
/// two rows that the compiler vectorises, and the sides facing a border are asked to be empty.
/// It reads neither the board's link table (a solve of a million cells reads 16 to 24 MB of
/// it) nor anything the solver computed.
fn all_answered(board: &Board, masks: &[u8]) -> bool {
    let (w, h, wrap) = (board.width(), board.height(), board.wrap());
    let rows = |r: usize| &masks[r * w..][..w];
    match board.tiling() {
        Tiling::Square => (0..h)
            .into_par_iter()
            .all(|r| square_row_answered(rows, r, h, wrap)),
        Tiling::Hexagonal => (0..h)
            .into_par_iter()
            .all(|r| hexagonal_row_answered(rows, r, h, wrap.any())),
        // Cells not in rows: the scan by the links decides.
        Tiling::Polygonal(_) => first_defect_scan(board, masks).is_none(),
    }
}

/// The OR of `(a[i] >> x ^ b[i] >> y) & 1` over the pairs: nonzero when some pair differs in
/// those bits.
#[inline(always)]
fn differ(a: &[u8], x: u32, b: &[u8], y: u32) -> u8 {
    a.iter()
        .zip(b)
        .fold(0, |acc, (&p, &q)| acc | (p >> x ^ q >> y))
        & 1
}

/// The OR of `a[i] >> x` over `a`, bit 0: nonzero when some cell connects side bit `x`.
#[inline(always)]
fn any_bit(a: &[u8], x: u32) -> u8 {
    a.iter().fold(0, |acc, &p| acc | p >> x) & 1
}

/// Square row `r` of `h` (sides N, E, S, W as bits 0 to 3): E against the W of the next
/// cell (the first, across a wrap), S against the N of the row below (the top row across a
/// vertical wrap), and the sides facing a border empty.
fn square_row_answered<'m>(
    rows: impl Fn(usize) -> &'m [u8],
    r: usize,
    h: usize,
    wrap: Wrap,
) -> bool {
    let row = rows(r);
    let (first, last) = (&row[..1], &row[row.len() - 1..]);
    let mut bad = differ(row, 1, &row[1..], 3);
    bad |= if wrap.horizontal {
        differ(last, 1, first, 3)
    } else {
        any_bit(last, 1) | any_bit(first, 3)
    };
    bad |= match below(r, h, wrap.vertical) {
        Some(b) => differ(row, 2, rows(b), 0),
        None => any_bit(row, 2),
    };
    if r == 0 && !wrap.vertical {
        bad |= any_bit(row, 0);
    }
    bad == 0
}

/// Hexagonal row `r` of `h` in hexapipes' geometry (sides E, NE, NW, W, SW, SE as bits 0 to
/// 5; odd rows shifted half a cell right; crossing the bottom of a wrapped board moves one
/// column left when `h` is even): E against the W of the next cell, SW and SE against the
/// NE and NW of the row below, and the sides facing a border empty.
fn hexagonal_row_answered<'m>(
    rows: impl Fn(usize) -> &'m [u8],
    r: usize,
    h: usize,
    wrap: bool,
) -> bool {
    let row = rows(r);
    let w = row.len() as isize;
    let (first, last) = (&row[..1], &row[row.len() - 1..]);
    let mut bad = differ(row, 0, &row[1..], 3);
    bad |= if wrap {
        differ(last, 0, first, 3)
    } else {
        any_bit(last, 0) | any_bit(first, 3)
    };
    let p = (r % 2) as isize;
    match below(r, h, wrap) {
        Some(b) => {
            let shift = if b == 0 { -(1 - (h % 2) as isize) } else { 0 };
            let next = rows(b);
            // SW reaches column c + p - 1 of the row below, SE column c + p (plus the shift).
            for (side, facing, offset) in [(4, 1, p - 1 + shift), (5, 2, p + shift)] {
                let lo = (-offset).clamp(0, w);
                let hi = (w - offset).clamp(lo, w);
                let (lo_u, hi_u) = (lo as usize, hi as usize);
                bad |= differ(
                    &row[lo_u..hi_u],
                    side,
                    &next[(lo + offset) as usize..],
                    facing,
                );
                // The few cells whose target lies past an edge of the row below.
                for c in (0..lo).chain(hi..w) {
                    let m = &row[c as usize..][..1];
                    bad |= if wrap {
                        let t = (c + offset).rem_euclid(w) as usize;
                        differ(m, side, &next[t..], facing)
                    } else {
                        any_bit(m, side)
                    };
                }
            }
        }
        None => bad |= any_bit(row, 4) | any_bit(row, 5),
    }
    if !wrap {
        // NE reaches column c + p of the row above, NW column c + p - 1: past the top row or
        // the row's ends they face a border (the rest were compared from the row above).
        if r == 0 {
            bad |= any_bit(row, 1) | any_bit(row, 2);
        } else if p == 1 {
            bad |= any_bit(last, 1);
        } else {
            bad |= any_bit(first, 2);
        }
    }
    bad == 0
}

/// The row below `r` of `h`: the next, or the top one across a wrap, or none.
fn below(r: usize, h: usize, wrap: bool) -> Option<usize> {
    if r + 1 < h {
        Some(r + 1)
    } else {
        wrap.then_some(0)
    }
}

/// [`first_defect_on`] cell by cell: the first defect in row-major order.
fn first_defect_scan(board: &Board, masks: &[u8]) -> Option<Defect> {
    let k = board.sides() as usize;
    for (c, &m) in masks.iter().enumerate() {
        for s in 0..k {
            let l = board.link(c, s);
            let bit = m >> s & 1;
            let defect = if l == NO_LINK {
                bit == 1
            } else {
                masks[(l >> 3) as usize] >> (l & 7) & 1 != bit
            };
            if defect {
                return Some(Defect {
                    cell: c,
                    side: s,
                    border: l == NO_LINK,
                });
            }
        }
    }
    None
}

/// True when every connection of `level` is answered.
pub fn is_solved(level: &BoardLevel) -> bool {
    first_defect(level).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Masks of `board` with every side pair connected or not by a fixed pseudo-random rule:
    /// solved by construction.
    fn solved_masks(board: &Board) -> Vec<u8> {
        let k = board.sides() as usize;
        let mut masks = vec![0u8; board.len()];
        let mut x = 0x9e37_79b9_u32;
        for c in 0..board.len() {
            for s in 0..k {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if let Some((n, t)) = board.neighbour(c, s)
                    && (c, s) < (n, t)
                    && x & 1 == 1
                {
                    masks[c] |= 1 << s;
                    masks[n] |= 1 << t;
                }
            }
        }
        masks
    }

    /// Every board kind that can be built at `w` x `h`.
    fn boards(w: usize, h: usize) -> Vec<Board> {
        let wraps = [(false, false), (true, true), (true, false), (false, true)];
        let mut out = Vec::new();
        for tiling in [Tiling::Square, Tiling::Hexagonal] {
            for (horizontal, vertical) in wraps {
                let wrap = Wrap {
                    horizontal,
                    vertical,
                };
                out.extend(Board::new(tiling, w, h, wrap));
            }
        }
        out
    }

    #[test]
    fn the_row_pass_agrees_with_the_link_table_on_every_side_of_small_boards() {
        for (w, h) in [
            (1, 1),
            (1, 2),
            (2, 1),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (4, 3),
            (3, 4),
            (4, 4),
            (5, 5),
            (6, 7),
            (7, 6),
        ] {
            for board in boards(w, h) {
                every_turned_side_is_a_defect(&board, 0..board.len());
            }
        }
    }

    #[test]
    fn the_row_pass_agrees_with_the_scan_on_large_boards() {
        for board in boards(401, 333) {
            let n = board.len();
            every_turned_side_is_a_defect(&board, [0, 400, 401, n / 2, n - 402, n - 1]);
        }
    }

    /// A level of `board` solved by construction is accepted, and one side of any of `cells`
    /// turned on or off is a defect, found as the scan finds it.
    fn every_turned_side_is_a_defect(board: &Board, cells: impl IntoIterator<Item = usize>) {
        let (w, h) = (board.width(), board.height());
        let what = format!("{:?} {w}x{h} {}", board.tiling(), board.wrap().name());
        let mut masks = solved_masks(board);
        assert!(all_answered(board, &masks), "{what}");
        assert_eq!(first_defect_on(board, &masks), None, "{what}");
        for cell in cells {
            for s in 0..board.sides() {
                masks[cell] ^= 1 << s;
                assert!(!all_answered(board, &masks), "{what}: cell {cell} side {s}");
                assert_eq!(
                    first_defect_on(board, &masks),
                    first_defect_scan(board, &masks)
                );
                masks[cell] ^= 1 << s;
            }
        }
    }

    #[test]
    fn same_pieces_finds_a_changed_piece_in_any_stripe() {
        let original: Vec<u8> = (0..3 * crate::board::PIECE_STRIPE + 7)
            .map(|i| (i * 13 % 16) as u8)
            .collect();
        // Every cell turned a quarter (a rotation keeps the piece).
        let mut turned: Vec<u8> = original.iter().map(|&m| (m << 1 | m >> 3) & 15).collect();
        let board = Board::new(Tiling::Square, original.len(), 1, Wrap::NONE).unwrap();
        assert!(board.same_pieces(&turned, &original));
        for cell in [
            0,
            crate::board::PIECE_STRIPE - 1,
            crate::board::PIECE_STRIPE,
            2 * crate::board::PIECE_STRIPE + 3,
            turned.len() - 1,
        ] {
            let kept = turned[cell];
            // A T (three ends) for anything but a T, else an X: another piece.
            turned[cell] = if kept.count_ones() == 3 { 15 } else { 7 };
            assert!(!board.same_pieces(&turned, &original), "cell {cell}");
            turned[cell] = kept;
        }
        assert!(!board.same_pieces(&turned[1..], &original[1..original.len() - 1]));
    }
}

//! Side masks: a piece is a bitmask over its cell's sides (bit `s` = a connection across side
//! `s`), and a turn is a cyclic shift of those bits. Nothing here knows which way a side
//! faces: that is the board's business.

/// The most sides a cell may have (hexapipes' octagonal tiling has eight).
pub const MAX_SIDES: usize = 8;

/// `mask` (over `sides` bits) shifted `turns` places up the side order, wrapping around.
#[inline]
pub const fn rotate(mask: u8, sides: u8, turns: u8) -> u8 {
    let k = sides as u32;
    let t = turns as u32 % k;
    if t == 0 {
        return mask;
    }
    let full = ((1u32 << k) - 1) as u8;
    let m = mask as u32;
    (((m << t) | (m >> (k - t))) as u8) & full
}

/// How many distinct orientations `mask` has: the smallest positive shift that gives it back
/// (1 for the empty and the full mask, `sides` for a mask with no symmetry).
pub const fn period(mask: u8, sides: u8) -> u8 {
    let mut t = 1;
    while t < sides {
        if rotate(mask, sides, t) == mask {
            return t;
        }
        t += 1;
    }
    sides
}

/// The representative of `mask`'s shape: its smallest rotation.
pub const fn canonical(mask: u8, sides: u8) -> u8 {
    let mut best = mask;
    let mut t = 1;
    while t < sides {
        let r = rotate(mask, sides, t);
        if r < best {
            best = r;
        }
        t += 1;
    }
    best
}

/// The shift that turns `canonical(mask)` into `mask`.
pub fn turns_from_canonical(mask: u8, sides: u8) -> u8 {
    let c = canonical(mask, sides);
    (0..sides)
        .find(|&t| rotate(c, sides, t) == mask)
        .expect("a mask is a rotation of its canonical form")
}

/// Every shape on a cell of `sides` sides (each mask up to rotation), smallest first.
pub fn shapes(sides: u8) -> Vec<u8> {
    let full = ((1u32 << sides) - 1) as u8;
    (0..=full).filter(|&m| canonical(m, sides) == m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_turn_gives_the_mask_back_and_turns_add_up() {
        for k in 3..=8u8 {
            let full = ((1u32 << k) - 1) as u8;
            for m in 0..=full {
                assert_eq!(rotate(m, k, k), m);
                assert_eq!(rotate(rotate(m, k, 1), k, 2), rotate(m, k, 3));
                assert_eq!(rotate(m, k, 1).count_ones(), m.count_ones());
                assert_eq!(k % period(m, k), 0, "the period divides the side count");
            }
        }
    }

    #[test]
    fn shape_counts_are_the_binary_necklaces() {
        // Necklaces of k beads in two colours (OEIS A000031): 6 on four sides, 14 on six.
        assert_eq!(shapes(4).len(), 6);
        assert_eq!(shapes(6).len(), 14);
        assert_eq!(shapes(8).len(), 36);
    }

    #[test]
    fn square_turns_are_the_course_format_orientations() {
        // An L (N+E = 0b0011) turned once clockwise is E+S.
        assert_eq!(rotate(0b0011, 4, 1), 0b0110);
        assert_eq!(period(0b0101, 4), 2);
        assert_eq!(turns_from_canonical(0b1100, 4), 2);
    }
}

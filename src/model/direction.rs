//! The four sides of a cell as bits of a connection mask (N=1, E=2, S=4, W=8), and the
//! clockwise quarter turn that every piece orientation is built from.

/// Side index: north.
pub const N: usize = 0;
/// Side index: east.
pub const E: usize = 1;
/// Side index: south.
pub const S: usize = 2;
/// Side index: west.
pub const W: usize = 3;

/// All side indices, in mask-bit order.
pub const SIDES: [usize; 4] = [N, E, S, W];

/// Names used in messages, indexed by side.
pub const SIDE_NAMES: [&str; 4] = ["north", "east", "south", "west"];

/// The mask bit of a side.
#[inline]
pub const fn bit(side: usize) -> u8 {
    1 << side
}

/// The side facing `side` from the neighbouring cell.
#[inline]
pub const fn opposite(side: usize) -> usize {
    (side + 2) & 3
}

/// Rotates a connection mask one quarter turn clockwise (N→E→S→W→N).
#[inline]
pub const fn rotate_cw(mask: u8) -> u8 {
    ((mask << 1) | (mask >> 3)) & 0xF
}

/// Rotates a connection mask `turns` quarter turns clockwise.
#[inline]
pub const fn rotate_cw_by(mask: u8, turns: u8) -> u8 {
    let mut m = mask & 0xF;
    let mut t = turns & 3;
    while t > 0 {
        m = rotate_cw(m);
        t -= 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_moves_each_side_clockwise() {
        assert_eq!(rotate_cw(bit(N)), bit(E));
        assert_eq!(rotate_cw(bit(E)), bit(S));
        assert_eq!(rotate_cw(bit(S)), bit(W));
        assert_eq!(rotate_cw(bit(W)), bit(N));
        for m in 0..16u8 {
            assert_eq!(rotate_cw_by(m, 4), m);
            assert_eq!(rotate_cw(m).count_ones(), m.count_ones());
        }
    }

    #[test]
    fn opposite_sides() {
        assert_eq!(opposite(N), S);
        assert_eq!(opposite(E), W);
        assert_eq!(opposite(S), N);
        assert_eq!(opposite(W), E);
    }
}

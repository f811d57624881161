//! Lookup tables over (piece kind, domain), where a domain is a bitmask of the orientations a
//! cell may still take (bit o = orientation o). Every propagation step is a few table reads.

use crate::model::PieceKind;
use crate::model::direction::opposite;

/// All distinct orientations of each kind, as a domain.
pub const FULL_DOMAIN: [u8; 6] = {
    let mut t = [0u8; 6];
    let mut k = 0;
    while k < 6 {
        t[k] = (1u8 << kind(k).orientations()) - 1;
        k += 1;
    }
    t
};

const fn kind(k: usize) -> PieceKind {
    match PieceKind::from_code(k as u8) {
        Some(kind) => kind,
        None => unreachable!(),
    }
}

/// `SIDES[kind * 16 + domain]` = (sides connected in some orientation of the domain,
/// sides connected in every orientation of the domain). An empty domain gives (0, 0xF).
pub const SIDES: [(u8, u8); 96] = {
    let mut t = [(0u8, 0u8); 96];
    let mut k = 0;
    while k < 6 {
        let mut d = 0;
        while d < 16 {
            let (mut may, mut must) = (0u8, 0xFu8);
            let mut o = 0;
            while o < 4 {
                if d & (1 << o) != 0 && o < kind(k).orientations() as usize {
                    let m = kind(k).mask(o as u8);
                    may |= m;
                    must &= m;
                }
                o += 1;
            }
            t[k * 16 + d] = (may, must);
            d += 1;
        }
        k += 1;
    }
    t
};

/// `KEEP[kind * 256 + (on | off << 4)]` = orientations whose connections include every side
/// in `on` and none in `off`.
pub const KEEP: [u8; 1536] = {
    let mut t = [0u8; 1536];
    let mut k = 0;
    while k < 6 {
        let mut req = 0;
        while req < 256 {
            let (on, off) = ((req & 0xF) as u8, (req >> 4) as u8);
            let mut keep = 0u8;
            let mut o = 0;
            while o < kind(k).orientations() {
                let m = kind(k).mask(o);
                if m & on == on && m & off == 0 {
                    keep |= 1 << o;
                }
                o += 1;
            }
            t[k * 256 + req] = keep;
            req += 1;
        }
        k += 1;
    }
    t
};

/// (may, must) side masks of a cell.
#[inline(always)]
pub fn sides(kind: u8, dom: u8) -> (u8, u8) {
    SIDES[kind as usize * 16 + dom as usize]
}

/// The requirement a neighbour's (may, must) puts on our side `side`, as (on, off) bits.
#[inline(always)]
pub fn requirement(side: usize, neighbour: (u8, u8)) -> (u8, u8) {
    let theirs = 1u8 << opposite(side);
    let on = u8::from(neighbour.1 & theirs != 0) << side;
    let off = u8::from(neighbour.0 & theirs == 0) << side;
    (on, off)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_piece_masks() {
        assert_eq!(FULL_DOMAIN, [1, 15, 3, 15, 1, 15]);
        // A straight that may be vertical or horizontal may connect anywhere, must nowhere.
        assert_eq!(sides(2, 0b11), (0xF, 0));
        // A corner limited to NE or ES must connect east.
        assert_eq!(sides(5, 0b11), (0b0111, 0b0010));
        // Q that must connect north: orientation 0 only.
        assert_eq!(KEEP[256 + 0b0001], 0b0001);
        // T that may not connect north: only ESW (orientation 2).
        assert_eq!(KEEP[3 * 256 + (0b0001 << 4)], 0b0100);
    }
}

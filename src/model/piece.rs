//! Piece shapes and their orientations. A [`Piece`] is one byte: `kind << 2 | orientation`,
//! so a grid is a flat `Vec<Piece>` and every lookup is a small table index.

use super::direction::rotate_cw_by;

/// The six shapes, numbered as in the level file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// No connection.
    Empty = 0,
    /// One connection: a dead end.
    Q = 1,
    /// Two opposite connections: a straight.
    I = 2,
    /// Three connections.
    T = 3,
    /// Four connections.
    X = 4,
    /// Two adjacent connections: a corner.
    L = 5,
}

impl PieceKind {
    /// Every kind, in file-code order.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Empty,
        PieceKind::Q,
        PieceKind::I,
        PieceKind::T,
        PieceKind::X,
        PieceKind::L,
    ];

    /// The kind with this file type code, if any.
    pub const fn from_code(code: u8) -> Option<PieceKind> {
        match code {
            0 => Some(PieceKind::Empty),
            1 => Some(PieceKind::Q),
            2 => Some(PieceKind::I),
            3 => Some(PieceKind::T),
            4 => Some(PieceKind::X),
            5 => Some(PieceKind::L),
            _ => None,
        }
    }

    /// The file type code.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Connection mask at orientation 0 (N=1, E=2, S=4, W=8).
    pub const fn base_mask(self) -> u8 {
        match self {
            PieceKind::Empty => 0,
            PieceKind::Q => 0b0001,
            PieceKind::I => 0b0101,
            PieceKind::T => 0b1011,
            PieceKind::X => 0b1111,
            PieceKind::L => 0b0011,
        }
    }

    /// Number of distinct orientations: rotating further repeats a mask.
    pub const fn orientations(self) -> u8 {
        match self {
            PieceKind::Empty | PieceKind::X => 1,
            PieceKind::I => 2,
            PieceKind::Q | PieceKind::T | PieceKind::L => 4,
        }
    }

    /// Connection mask at `orientation` quarter turns clockwise.
    pub const fn mask(self, orientation: u8) -> u8 {
        rotate_cw_by(self.base_mask(), orientation)
    }

    /// Short name used in messages and statistics.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Empty => "empty",
            PieceKind::Q => "Q",
            PieceKind::I => "I",
            PieceKind::T => "T",
            PieceKind::X => "X",
            PieceKind::L => "L",
        }
    }
}

/// A shape in one orientation, packed in a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Piece(u8);

/// Connection mask of every packed piece code (`kind << 2 | orientation`).
const MASK_OF_CODE: [u8; 24] = {
    let mut t = [0u8; 24];
    let mut k = 0;
    while k < 6 {
        let kind = match PieceKind::from_code(k as u8) {
            Some(kind) => kind,
            None => unreachable!(),
        };
        let mut o = 0;
        while o < 4 {
            t[k * 4 + o] = kind.mask(o as u8);
            o += 1;
        }
        k += 1;
    }
    t
};

/// The piece (kind and canonical orientation) that has each connection mask.
const PIECE_OF_MASK: [Piece; 16] = {
    let mut t = [Piece(0); 16];
    let mut k = 0;
    while k < 6 {
        let kind = match PieceKind::from_code(k as u8) {
            Some(kind) => kind,
            None => unreachable!(),
        };
        let mut o = 0;
        while o < kind.orientations() {
            t[kind.mask(o) as usize] = Piece((k as u8) << 2 | o);
            o += 1;
        }
        k += 1;
    }
    t
};

impl Piece {
    /// The empty cell.
    pub const EMPTY: Piece = Piece(0);

    /// A piece of `kind` at `orientation`, which must be below `kind.orientations()`.
    pub const fn new(kind: PieceKind, orientation: u8) -> Piece {
        assert!(orientation < kind.orientations());
        Piece((kind as u8) << 2 | orientation)
    }

    /// The piece whose connections are exactly `mask` (low four bits).
    pub const fn from_mask(mask: u8) -> Piece {
        PIECE_OF_MASK[(mask & 0xF) as usize]
    }

    /// The piece's shape.
    pub const fn kind(self) -> PieceKind {
        match PieceKind::from_code(self.0 >> 2) {
            Some(k) => k,
            None => unreachable!(),
        }
    }

    /// The piece's orientation (0..4, below its kind's number of orientations).
    pub const fn orientation(self) -> u8 {
        self.0 & 3
    }

    /// Connections of this piece as a mask (N=1, E=2, S=4, W=8).
    #[inline]
    pub const fn mask(self) -> u8 {
        MASK_OF_CODE[self.0 as usize]
    }

    /// The same shape turned to another orientation (taken modulo its distinct orientations).
    pub const fn with_orientation(self, orientation: u8) -> Piece {
        let kind = self.kind();
        Piece::new(kind, orientation % kind.orientations())
    }

    /// The same shape turned one more quarter turn clockwise.
    pub const fn rotated(self) -> Piece {
        self.with_orientation(self.orientation() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::direction::{E, N, S, W, bit};

    #[test]
    fn masks_match_the_format_table() {
        let n = bit(N);
        let e = bit(E);
        let s = bit(S);
        let w = bit(W);
        let expect: &[(PieceKind, &[u8])] = &[
            (PieceKind::Empty, &[0]),
            (PieceKind::Q, &[n, e, s, w]),
            (PieceKind::I, &[n | s, e | w]),
            (PieceKind::T, &[n | e | w, n | e | s, e | s | w, s | w | n]),
            (PieceKind::X, &[n | e | s | w]),
            (PieceKind::L, &[n | e, e | s, s | w, w | n]),
        ];
        for (kind, masks) in expect {
            assert_eq!(kind.orientations() as usize, masks.len(), "{kind:?}");
            for (o, &m) in masks.iter().enumerate() {
                let p = Piece::new(*kind, o as u8);
                assert_eq!(p.mask(), m, "{kind:?} orientation {o}");
                assert_eq!(p.kind(), *kind);
                assert_eq!(p.orientation(), o as u8);
                assert_eq!(Piece::from_mask(m), p, "mask {m:04b}");
            }
        }
    }

    #[test]
    fn every_mask_has_exactly_one_piece() {
        for m in 0..16u8 {
            assert_eq!(Piece::from_mask(m).mask(), m);
        }
    }

    #[test]
    fn rotation_cycles_through_distinct_orientations() {
        for kind in PieceKind::ALL {
            let p0 = Piece::new(kind, 0);
            let mut p = p0;
            for _ in 0..kind.orientations() {
                p = p.rotated();
            }
            assert_eq!(p, p0);
            assert_eq!(
                p0.rotated().mask(),
                crate::model::direction::rotate_cw(p0.mask())
            );
        }
    }
}

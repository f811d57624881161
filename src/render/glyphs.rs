//! One box-drawing character per connection mask, so every piece in every orientation reads at
//! a glance: `╵╶╷╴` for one-end pieces, `│─` straights, `└┌┐┘` corners, `┴├┬┤` tees, `┼`
//! crosses, a space for an empty cell.

/// Glyph for each connection mask (N=1, E=2, S=4, W=8).
pub const GLYPH: [char; 16] = [
    ' ', '╵', '╶', '└', '╷', '│', '┌', '├', '╴', '┘', '─', '┴', '┐', '┤', '┬', '┼',
];

/// The glyph of a connection mask (low four bits).
#[inline]
pub fn glyph(mask: u8) -> char {
    GLYPH[(mask & 0xF) as usize]
}

/// The character drawn between two horizontally adjacent cells in the game's two-column
/// layout: a full line when both connect, a half line towards the one that does, else blank.
/// A half line is a visible mismatch.
#[cfg(any(feature = "play", test))]
#[inline]
pub fn connector(left_mask: u8, right_mask: u8) -> char {
    match (left_mask & 2 != 0, right_mask & 8 != 0) {
        (true, true) => '─',
        (true, false) => '╴',
        (false, true) => '╶',
        (false, false) => ' ',
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Piece, PieceKind};

    #[test]
    fn glyphs_follow_the_piece_table() {
        let row = |kind: PieceKind| -> String {
            (0..kind.orientations())
                .map(|o| glyph(Piece::new(kind, o).mask()))
                .collect()
        };
        assert_eq!(row(PieceKind::Empty), " ");
        assert_eq!(row(PieceKind::Q), "╵╶╷╴");
        assert_eq!(row(PieceKind::I), "│─");
        assert_eq!(row(PieceKind::T), "┴├┬┤");
        assert_eq!(row(PieceKind::X), "┼");
        assert_eq!(row(PieceKind::L), "└┌┐┘");
        // Sixteen masks, sixteen different characters.
        let mut all: Vec<char> = GLYPH.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 16);
    }

    #[test]
    fn connectors_show_half_lines_for_mismatches() {
        assert_eq!(connector(0b0010, 0b1000), '─');
        assert_eq!(connector(0b0010, 0), '╴');
        assert_eq!(connector(0, 0b1000), '╶');
        assert_eq!(connector(0b0101, 0b0101), ' ');
    }
}

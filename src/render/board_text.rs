//! A level on any [`Board`](crate::board::Board) as terminal text, for boards the course-format text
//! ([`super::unicode::draw_text`]) cannot show: wrapped square boards and hexagonal ones.
//!
//! A square board keeps the one-glyph-per-cell look of [`super::glyphs`]; when it wraps, a
//! first line says which edges join. A hexagonal cell cannot be one character (six sides, and
//! box drawing has no diagonal half lines), so each cell is a 3x3 picture of its pipes, the
//! rows offset like the board's (see [`board_text`]).

use super::board_svg::wrap_note;
use super::glyphs::glyph;
use crate::board::{BoardLevel, Tiling};

/// Characters one hexagonal cell takes across (three for its picture, one between cells).
const HEX_STRIDE: usize = 4;
/// The centre of a hexagonal cell with one connection (the knob of the pictures).
pub const HEX_END: char = '●';
/// The centre of a hexagonal cell with two connections or more.
pub const HEX_JOIN: char = '•';
/// The centre of an empty hexagonal cell, so the layout stays visible.
pub const HEX_EMPTY: char = '·';

/// The level as text, lines ending in `\n`.
///
/// Square boards: one line per row, one box-drawing glyph per cell (`└` is a corner joining
/// north and east; the same text as `--print` for a bounded board); a wrapped board starts
/// with a line such as `wraps left-right and top-bottom`.
///
/// Hexagonal boards: a header line with the legend (and, when the board wraps, a second
/// line saying so), then three lines per row of cells. Each cell is drawn three characters
/// wide with its connections around its centre, odd rows indented by two characters (half a
/// cell) as the board is laid out:
///
/// ```text
/// ╲ ╱    NW NE
/// ─•─    W  E      centre: ● one connection, • more, · none
/// ╱ ╲    SW SE
/// ```
///
/// Two cells side by side whose east and west connections meet are joined by a `─` between
/// them; a connection its neighbour does not answer stops at its own cell.
pub fn board_text(level: &BoardLevel) -> String {
    match level.board().tiling() {
        Tiling::Square => square_text(level),
        Tiling::Hexagonal => hexagonal_text(level),
        Tiling::Polygonal(_) => polygonal_text(level),
    }
}

/// Mixed cells do not fit character cells: each cell's connections by side number, a line
/// of ten cells at a time (a picture, `--render`, shows them in place).
fn polygonal_text(level: &BoardLevel) -> String {
    let board = level.board();
    let mut out = format!(
        "{} board of {} cells (connections by side, sides numbered anticlockwise; --render draws it)\n",
        board.tiling().name(),
        board.len()
    );
    for (row, masks) in level.masks().chunks(10).enumerate() {
        let cells: Vec<String> = masks
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let c = row * 10 + i;
                let sides: String = (0..board.cell_sides(c))
                    .map(|s| {
                        if m >> s & 1 == 1 {
                            char::from(b'0' + s)
                        } else {
                            '.'
                        }
                    })
                    .collect();
                format!("{c}:{sides}")
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

fn square_text(level: &BoardLevel) -> String {
    let board = level.board();
    let (w, h) = (board.width(), board.height());
    let mut out = String::with_capacity(64 + h * (w * 3 + 1));
    if let Some(note) = wrap_note(board.wrap()) {
        out.push_str(note);
        out.push('\n');
    }
    for row in level.masks().chunks(w) {
        out.extend(row.iter().map(|&m| glyph(m)));
        out.push('\n');
    }
    out
}

fn hexagonal_text(level: &BoardLevel) -> String {
    // Side bits, in the board's order E, NE, NW, W, SW, SE.
    const E: u8 = 1;
    const NE: u8 = 2;
    const NW: u8 = 4;
    const W: u8 = 8;
    const SW: u8 = 16;
    const SE: u8 = 32;
    let board = level.board();
    let masks = level.masks();
    let (w, h) = (board.width(), board.height());
    let mut out = String::with_capacity(256 + 3 * h * (HEX_STRIDE * w + 3) * 3);
    out.push_str(&format!(
        "hexagonal {w}x{h}, odd rows indented half a cell; around each centre \
         ╲ ╱ NW NE, ─ ─ W E, ╱ ╲ SW SE; centre {HEX_END} one connection, {HEX_JOIN} more, \
         {HEX_EMPTY} none\n"
    ));
    if let Some(note) = wrap_note(board.wrap()) {
        out.push_str(note);
        out.push('\n');
    }
    let mark = |m: u8, bit: u8, c: char| if m & bit != 0 { c } else { ' ' };
    let mut line = String::with_capacity((HEX_STRIDE * w + 3) * 3);
    for r in 0..h {
        let row = &masks[r * w..(r + 1) * w];
        let indent = if r % 2 == 1 { "  " } else { "" };
        for part in 0..3 {
            line.clear();
            line.push_str(indent);
            for (c, &m) in row.iter().enumerate() {
                let [left, mid, right] = match part {
                    0 => [mark(m, NW, '╲'), ' ', mark(m, NE, '╱')],
                    1 => [
                        mark(m, W, '─'),
                        match m.count_ones() {
                            0 => HEX_EMPTY,
                            1 => HEX_END,
                            _ => HEX_JOIN,
                        },
                        mark(m, E, '─'),
                    ],
                    _ => [mark(m, SW, '╱'), ' ', mark(m, SE, '╲')],
                };
                line.push(left);
                line.push(mid);
                line.push(right);
                let joined = part == 1 && m & E != 0 && row.get(c + 1).is_some_and(|n| n & W != 0);
                line.push(if joined { '─' } else { ' ' });
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Wrap};
    use crate::level::parse_level;
    use crate::render::unicode::draw_text;

    fn level(tiling: Tiling, w: usize, h: usize, wrap: Wrap, masks: Vec<u8>) -> BoardLevel {
        BoardLevel::new(Board::new(tiling, w, h, wrap).unwrap(), masks).unwrap()
    }

    /// The characters of `line` at character (not byte) positions.
    fn chars(line: &str) -> Vec<char> {
        line.chars().collect()
    }

    #[test]
    fn a_bounded_square_level_reads_as_the_course_format_text() {
        let g = parse_level("t", b"2\n3\n1 1\n2 1\n1 3\n5 1\n3 0\n5 3\n").unwrap();
        let l = BoardLevel::from_game(&g);
        assert_eq!(board_text(&l), draw_text(&g, None));
        assert_eq!(board_text(&l), "╶─╴\n┌┴┘\n");
    }

    #[test]
    fn a_wrapped_square_level_says_which_edges_wrap() {
        let horizontal = Wrap::from_name("horizontal").unwrap();
        let l = level(Tiling::Square, 2, 1, horizontal, vec![0b1010, 0b1010]);
        assert_eq!(board_text(&l), "wraps left-right\n──\n");
        let l = level(Tiling::Square, 2, 2, Wrap::BOTH, vec![0b0101, 0, 0, 0b0011]);
        assert_eq!(board_text(&l), "wraps left-right and top-bottom\n│ \n └\n");
        let vertical = Wrap::from_name("vertical").unwrap();
        let l = level(Tiling::Square, 1, 2, vertical, vec![0b0101, 0b0101]);
        assert!(board_text(&l).starts_with("wraps top-bottom\n"));
    }

    #[test]
    fn a_hexagonal_level_is_three_offset_rows_of_cell_pictures() {
        // Row 0: W+E, E+W, W; row 1: NW+SE, all six, empty; row 2: one-end NE each.
        let masks = vec![9, 9, 8, 36, 63, 0, 2, 2, 2];
        let l = level(Tiling::Hexagonal, 3, 3, Wrap::NONE, masks);
        let text = board_text(&l);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("hexagonal 3x3"), "{text}");
        let cells = &lines[1..];
        assert_eq!(cells.len(), 9, "three lines per row:\n{text}");
        // The centres: column 1, 5, 9 on even rows; two further right on odd rows.
        for r in 0..3 {
            let mid = chars(cells[3 * r + 1]);
            let shift = if r % 2 == 1 { 2 } else { 0 };
            for c in 0..3 {
                let centre = mid[1 + 4 * c + shift];
                assert!(
                    [HEX_END, HEX_JOIN, HEX_EMPTY].contains(&centre),
                    "row {r} cell {c}: {centre:?}\n{text}"
                );
            }
        }
        assert_eq!(cells[0], "");
        assert_eq!(cells[1], "─•───•───●");
        assert_eq!(cells[2], "");
        assert_eq!(cells[3], "  ╲   ╲ ╱");
        assert_eq!(cells[4], "   •  ─•─  ·");
        assert_eq!(cells[5], "    ╲ ╱ ╲");
        assert_eq!(cells[6], "  ╱   ╱   ╱");
        assert_eq!(cells[7], " ●   ●   ●");
        assert_eq!(cells[8], "");
    }

    #[test]
    fn a_wrapped_hexagonal_level_says_so_under_the_legend() {
        let l = level(Tiling::Hexagonal, 2, 2, Wrap::BOTH, vec![0; 4]);
        let text = board_text(&l);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "wraps left-right and top-bottom");
        assert_eq!(lines.len(), 2 + 6);
        assert_eq!(lines[3], " ·   ·");
        assert_eq!(lines[6], "   ·   ·");
    }
}

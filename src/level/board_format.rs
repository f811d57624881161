//! The board format: our own text format for a level on any [`Board`] (square or hexagonal,
//! bounded or wrapping), where the course format can only hold a bounded square grid and
//! hexapipes' JSON cannot say "wraps one way only". It is the course format's plain spirit
//! (one cell per line, strict, line-precise errors) with a self-describing header:
//!
//! ```text
//! board hexagonal 12x10 wrap=both
//! 5
//! 0
//! 63
//! …
//! ```
//!
//! Grammar, line by line (a line ends with `\n` or `\r\n`; spaces and tabs around a line are
//! ignored, as the course reader ignores them):
//!
//! ```text
//! file    = header cell{W*H} blank*
//! header  = "board" SEP tiling SEP W "x" H [SEP "wrap=" wrap]
//! tiling  = "square" | "hexagonal"
//! wrap    = "none" | "both" | "horizontal" | "vertical"      (absent: none)
//! W, H    = positive decimal integers, W*H at most min(MAX_CELLS, MAX_BOARD_CELLS)
//! cell    = a decimal side mask, 0 to 2^sides - 1 (15 square, 63 hexagonal)
//! blank   = a line of nothing but spaces and tabs
//! SEP     = one or more spaces or tabs
//! ```
//!
//! Cells are row-major; a mask uses the board's bit order (square N=1, E=2, S=4, W=8, the
//! course format's connection bits; hexagonal E=1, NE=2, NW=4, W=8, SW=16, SE=32, hexapipes'
//! own). The header is line 1: there are no comment lines anywhere, because a reader that
//! detects the format by content (`level::any`) looks at the first word of the file, and a
//! blank line among the cells is an error, not a separator (as in the course format). No
//! line may be longer than [`MAX_LINE_BYTES`]. The writer always writes the `wrap=` field,
//! so a file says what it is without a default to remember.

use std::io::Read;

use super::error::LevelError;
use super::parse::{MAX_CELLS, MAX_LINE_BYTES, parse_number, printable};
use crate::board::{Board, BoardLevel, MAX_BOARD_CELLS, Tiling, Wrap};

/// The word a board-format file starts with.
pub const MAGIC: &str = "board";

/// After the last cell line, [`read_board_level`] reads at most this much more to check that
/// only blank lines follow (as the course reader does).
const TRAILING_BYTES: usize = 1 << 20;

/// Bytes per read step of [`read_board_level`].
const READ_STEP: usize = 1 << 20;

/// The header's figures.
struct Header {
    tiling: Tiling,
    width: usize,
    height: usize,
    wrap: Wrap,
}

impl Header {
    fn cells(&self) -> usize {
        self.width * self.height
    }
}

/// The header grammar, for messages.
const HEADER_SHAPE: &str = "`board <tiling> <W>x<H> [wrap=none|both|horizontal|vertical]`";

/// Parses line 1, already trimmed.
fn parse_header(source: &str, line: &[u8]) -> Result<Header, LevelError> {
    let fail = |msg: String| LevelError::at_line(source, 1, msg);
    let mut fields = line
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|f| !f.is_empty());
    if fields.next() != Some(MAGIC.as_bytes()) {
        return Err(fail(format!(
            "expected the header {HEADER_SHAPE}, found `{}`",
            printable(line)
        )));
    }
    let Some(tiling) = fields.next() else {
        return Err(fail(format!(
            "the header names no tiling (expected {HEADER_SHAPE})"
        )));
    };
    let tiling = std::str::from_utf8(tiling)
        .ok()
        .and_then(Tiling::from_name)
        .ok_or_else(|| {
            fail(format!(
                "unknown tiling `{}` (expected {})",
                printable(tiling),
                tiling_names()
            ))
        })?;
    let Some(size) = fields.next() else {
        return Err(fail(format!(
            "the header gives no size (expected {HEADER_SHAPE})"
        )));
    };
    let (width, height) = parse_size(size).map_err(fail)?;
    let wrap = match fields.next() {
        None => Wrap::NONE,
        Some(field) => {
            let name = field.strip_prefix(b"wrap=").ok_or_else(|| {
                fail(format!(
                    "unexpected `{}` in the header (expected `wrap=...` or the end of the line)",
                    printable(field)
                ))
            })?;
            std::str::from_utf8(name)
                .ok()
                .and_then(Wrap::from_name)
                .ok_or_else(|| {
                    fail(format!(
                        "unknown wrap `{}` (expected none, both, horizontal or vertical)",
                        printable(name)
                    ))
                })?
        }
    };
    if let Some(extra) = fields.next() {
        return Err(fail(format!(
            "unexpected `{}` after the header (expected the end of the line)",
            printable(extra)
        )));
    }
    Ok(Header {
        tiling,
        width,
        height,
        wrap,
    })
}

/// `square or hexagonal`.
fn tiling_names() -> String {
    let names: Vec<&str> = Tiling::ALL.iter().map(|t| t.name()).collect();
    names.join(" or ")
}

/// `W` x `H` of a `<W>x<H>` field, both positive and their product within the limits.
fn parse_size(field: &[u8]) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "expected the size as `<W>x<H>` (two positive integers), found `{}`",
            printable(field)
        )
    };
    let x = field.iter().position(|&b| b == b'x').ok_or_else(bad)?;
    let (w, h) = (&field[..x], &field[x + 1..]);
    let all_digits = |f: &[u8]| !f.is_empty() && f.iter().all(u8::is_ascii_digit);
    if !all_digits(w) || !all_digits(h) {
        return Err(bad());
    }
    let limit = MAX_CELLS.min(MAX_BOARD_CELLS);
    let (Some(w), Some(h)) = (parse_number(w), parse_number(h)) else {
        return Err(format!(
            "size `{}` is too large (at most {limit} cells)",
            printable(field)
        ));
    };
    if w == 0 || h == 0 {
        return Err(format!("a board of {w}x{h} has no cells"));
    }
    match w.checked_mul(h) {
        Some(n) if n <= limit as u64 => Ok((w as usize, h as usize)),
        _ => Err(format!("{w}x{h} is too many cells (at most {limit})")),
    }
}

/// Lines of `bytes` with `\n` or `\r\n` ends and surrounding blanks removed, untrimmed
/// lengths kept for the length limit.
fn lines(bytes: &[u8]) -> impl Iterator<Item = (&[u8], usize)> {
    bytes
        .split(|&b| b == b'\n')
        .map(|l| (l.trim_ascii(), l.len()))
}

/// The error for a line over [`MAX_LINE_BYTES`].
fn too_long(source: &str, line_no: usize, line: &[u8]) -> LevelError {
    LevelError::at_line(
        source,
        line_no,
        format!(
            "line longer than {MAX_LINE_BYTES} bytes, starting `{}`",
            printable(line)
        ),
    )
}

/// Reads a board-format level from the bytes of a file named `source` (used only in
/// messages). Every problem is reported with its line; nothing is allocated for the cells
/// before the input is seen to hold a line for each.
pub fn parse_board_level(source: &str, bytes: &[u8]) -> Result<BoardLevel, LevelError> {
    let mut it = lines(bytes);
    let (first, len) = it.next().unwrap_or((b"", 0));
    if len > MAX_LINE_BYTES {
        return Err(too_long(source, 1, first));
    }
    let header = parse_header(source, first)?;
    let wanted = header.cells();
    let full = (1u32 << header.tiling.sides()) - 1;
    let shape = || {
        format!(
            "{} {}x{}",
            header.tiling.name(),
            header.width,
            header.height
        )
    };
    // A cell line is at least one digit and a newline: never reserve more than that allows.
    let body_len = bytes.len().saturating_sub(first.len());
    let mut masks = Vec::with_capacity(wanted.min(body_len / 2 + 1));
    for (k, (line, len)) in it.enumerate() {
        let line_no = k + 2;
        if len > MAX_LINE_BYTES {
            return Err(too_long(source, line_no, line));
        }
        if k < wanted {
            if line.is_empty() {
                return Err(LevelError::at_line(
                    source,
                    line_no,
                    format!("expected {wanted} cell lines for {}, found {k}", shape()),
                ));
            }
            match parse_number(line) {
                Some(m) if m <= u64::from(full) => masks.push(m as u8),
                Some(m) => {
                    return Err(LevelError::at_line(
                        source,
                        line_no,
                        format!(
                            "mask {m} has a side beyond the {} of a {} cell (expected 0 to {full})",
                            header.tiling.sides(),
                            header.tiling.name()
                        ),
                    ));
                }
                None => {
                    return Err(LevelError::at_line(
                        source,
                        line_no,
                        format!(
                            "expected a side mask (a decimal number 0 to {full}), found `{}`",
                            printable(line)
                        ),
                    ));
                }
            }
        } else if !line.is_empty() {
            return Err(LevelError::at_line(
                source,
                line_no,
                format!(
                    "unexpected `{}` after the last of the {wanted} cells (expected end of file)",
                    printable(line)
                ),
            ));
        }
    }
    if masks.len() < wanted {
        return Err(LevelError::at_line(
            source,
            masks.len() + 2,
            format!(
                "expected {wanted} cell lines for {}, found {}",
                shape(),
                masks.len()
            ),
        ));
    }
    let board = Board::new(header.tiling, header.width, header.height, header.wrap)
        .map_err(|e| LevelError::at_line(source, 1, e))?;
    BoardLevel::new(board, masks).map_err(|e| LevelError::whole_file(source, e))
}

/// Reads a board-format level from `input` (named `source` in messages), reading no further
/// than the cell lines its header announces plus a little, and stopping at an over-long
/// line: an endless or oversized stream costs no more than a valid level.
pub fn read_board_level(source: &str, mut input: impl Read) -> Result<BoardLevel, LevelError> {
    let fail = |e: std::io::Error| LevelError::whole_file(source, format!("cannot read: {e}"));
    let mut bytes = Vec::new();
    let mut newlines = 0;
    let mut line_start = 0;
    let mut wanted_lines = None;
    let mut end_of_cells = None;
    loop {
        let old_len = bytes.len();
        match input
            .by_ref()
            .take(READ_STEP as u64)
            .read_to_end(&mut bytes)
        {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(fail(e)),
        }
        for (i, &b) in bytes[old_len..].iter().enumerate() {
            if b != b'\n' {
                continue;
            }
            newlines += 1;
            line_start = old_len + i + 1;
            if newlines == 1 {
                // The header is complete: judge it now, so a bad header stops the read (an
                // over-long one as the parse reports it).
                let line = &bytes[..old_len + i];
                if line.len() > MAX_LINE_BYTES {
                    return parse_board_level(source, line);
                }
                let header = parse_header(source, line.trim_ascii())?;
                wanted_lines = Some(1 + header.cells());
            }
            if end_of_cells.is_none() && Some(newlines) == wanted_lines {
                end_of_cells = Some(line_start);
            }
        }
        if let Some(end) = end_of_cells
            && bytes.len() - end > TRAILING_BYTES
        {
            // Enough to judge what follows the cells (an error if it is not blank).
            bytes.truncate(end + TRAILING_BYTES);
            break;
        }
        if bytes.len() - line_start > MAX_LINE_BYTES {
            // The parse reports the over-long line.
            break;
        }
    }
    parse_board_level(source, &bytes)
}

/// The level as the bytes of a board-format file (see the module doc).
pub fn board_level_bytes(level: &BoardLevel) -> Vec<u8> {
    let board = level.board();
    let header = format!(
        "{MAGIC} {} {}x{} wrap={}\n",
        board.tiling().name(),
        board.width(),
        board.height(),
        board.wrap().name()
    );
    let mut out = Vec::with_capacity(header.len() + 3 * level.masks().len());
    out.extend_from_slice(header.as_bytes());
    for &m in level.masks() {
        if m >= 10 {
            out.push(b'0' + m / 10);
        }
        out.push(b'0' + m % 10);
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn err(text: &str) -> LevelError {
        parse_board_level("t.board", text.as_bytes()).unwrap_err()
    }

    /// A level on `board` with masks cycling through every value its cells allow.
    fn level_on(tiling: Tiling, w: usize, h: usize, wrap: Wrap) -> BoardLevel {
        let board = Board::new(tiling, w, h, wrap).unwrap();
        let full = (1usize << tiling.sides()) - 1;
        let masks = (0..board.len())
            .map(|i| (i * 7 % (full + 1)) as u8)
            .collect();
        BoardLevel::new(board, masks).unwrap()
    }

    pub(crate) fn sample_levels() -> Vec<BoardLevel> {
        let cylinder = Wrap::from_name("horizontal").unwrap();
        let vertical = Wrap::from_name("vertical").unwrap();
        vec![
            level_on(Tiling::Square, 5, 3, Wrap::NONE),
            level_on(Tiling::Square, 4, 4, Wrap::BOTH),
            level_on(Tiling::Square, 6, 2, cylinder),
            level_on(Tiling::Square, 3, 5, vertical),
            level_on(Tiling::Hexagonal, 7, 5, Wrap::NONE),
            level_on(Tiling::Hexagonal, 6, 7, Wrap::BOTH),
            level_on(Tiling::Square, 1, 1, Wrap::NONE),
        ]
    }

    #[test]
    fn every_board_round_trips() {
        for level in sample_levels() {
            let bytes = board_level_bytes(&level);
            assert_eq!(parse_board_level("t", &bytes).unwrap(), level);
            assert_eq!(read_board_level("t", &bytes[..]).unwrap(), level);
        }
    }

    #[test]
    fn writes_the_documented_text() {
        let board = Board::new(Tiling::Hexagonal, 2, 2, Wrap::BOTH).unwrap();
        let level = BoardLevel::new(board, vec![1, 63, 0, 10]).unwrap();
        assert_eq!(
            board_level_bytes(&level),
            b"board hexagonal 2x2 wrap=both\n1\n63\n0\n10\n"
        );
    }

    #[test]
    fn reads_crlf_blanks_and_a_default_wrap() {
        let l = parse_board_level("t", b"  board\tsquare  2x1 \r\n 3\r\n12\t\r\n\r\n \n").unwrap();
        assert_eq!(l.board().wrap(), Wrap::NONE);
        assert_eq!((l.board().width(), l.board().height()), (2, 1));
        assert_eq!(l.masks(), &[3, 12]);
        // No newline after the last cell.
        let l = parse_board_level("t", b"board square 1x1 wrap=none\n15").unwrap();
        assert_eq!(l.masks(), &[15]);
    }

    #[test]
    fn reports_each_problem_with_its_line() {
        // (input, line, words the message must hold)
        let cases: &[(&str, usize, &str)] = &[
            ("", 1, "expected the header"),
            ("\nboard square 1x1\n0\n", 1, "expected the header"),
            (
                "# a comment\nboard square 1x1\n0\n",
                1,
                "expected the header",
            ),
            ("boards square 1x1\n0\n", 1, "expected the header"),
            ("board\n", 1, "no tiling"),
            ("board octagonal 2x2\n", 1, "unknown tiling `octagonal`"),
            ("board square\n", 1, "no size"),
            ("board square 2by2\n", 1, "as `<W>x<H>`"),
            ("board square 2x\n", 1, "as `<W>x<H>`"),
            ("board square -2x2\n", 1, "as `<W>x<H>`"),
            ("board square 0x2\n", 1, "no cells"),
            ("board square 99999999999999999999x2\n", 1, "too large"),
            ("board square 100000x100000\n0\n", 1, "too many cells"),
            (
                "board square 2x2 wrap=sideways\n",
                1,
                "unknown wrap `sideways`",
            ),
            ("board square 2x2 wrapped\n", 1, "unexpected `wrapped`"),
            ("board square 1x1 wrap=none x\n0\n", 1, "after the header"),
            (
                "board hexagonal 2x2 wrap=horizontal\n0\n0\n0\n0\n",
                1,
                "both ways",
            ),
            ("board square 2x1 wrap=vertical\n0\n0\n", 1, "at least 2"),
            (
                "board square 2x1\n3\n16\n",
                3,
                "mask 16 has a side beyond the 4",
            ),
            ("board hexagonal 1x2\n63\n64\n", 3, "expected 0 to 63"),
            ("board square 2x1\n3\nx\n", 3, "expected a side mask"),
            ("board square 2x1\n3\n-1\n", 3, "expected a side mask"),
            ("board square 2x1\n3\n1 2\n", 3, "expected a side mask"),
            (
                "board square 3x1\n3\n\n4\n",
                3,
                "expected 3 cell lines for square 3x1, found 1",
            ),
            ("board square 3x1\n3\n4\n", 4, "found 2"),
            ("board square 3x1\n", 2, "found 0"),
            (
                "board square 1x1\n3\n\n4\n",
                4,
                "after the last of the 1 cells",
            ),
            ("board square 1x1\n3\n3\n", 3, "after the last"),
        ];
        for &(text, line, words) in cases {
            let e = err(text);
            assert_eq!(e.line, Some(line), "{text:?}: {e}");
            assert!(e.message.contains(words), "{text:?}: {e}");
        }
    }

    #[test]
    fn huge_claims_fail_without_allocating_for_them() {
        // Half a billion cells claimed, three given: the count is checked against the input.
        let e = err("board square 20000x20000\n1\n2\n3\n");
        assert_eq!(e.line, Some(5));
        assert!(e.message.contains("found 3"), "{e}");
    }

    #[test]
    fn over_long_lines_are_refused_where_they_are() {
        let long = " ".repeat(MAX_LINE_BYTES) + "1";
        let e = err(&format!("board square 2x1\n3\n{long}\n"));
        assert_eq!(e.line, Some(3));
        assert!(e.message.contains("longer than"), "{e}");
    }

    #[test]
    fn endless_inputs_are_read_only_as_far_as_the_header_needs() {
        // No newline at all: stops at the over-long first line.
        let e = read_board_level("z", std::io::repeat(b'b')).unwrap_err();
        assert_eq!(e.line, Some(1));
        // A valid level followed by endless garbage: judged, not all read.
        let endless = b"board square 2x1\n1\n2\n".chain(std::io::repeat(b'x'));
        let e = read_board_level("x", endless).unwrap_err();
        assert_eq!(e.line, Some(4));
        // Endless blank lines after the cells: read a little of them, then accept.
        let blank = b"board square 2x1\n1\n2\n".chain(std::io::repeat(b'\n'));
        assert_eq!(read_board_level("b", blank).unwrap().masks(), &[1, 2]);
        // An over-long header line is reported as such, whether read or parsed.
        let long = format!("board square 1x1 {}\n0\n", "x".repeat(MAX_LINE_BYTES));
        let e = read_board_level("l", long.as_bytes()).unwrap_err();
        assert_eq!(e, parse_board_level("l", long.as_bytes()).unwrap_err());
        assert!(e.message.contains("longer than"), "{e}");
        // A bad header stops the read at once.
        let bad = b"board cube 2x1\n".chain(std::io::repeat(b'\n'));
        assert_eq!(read_board_level("c", bad).unwrap_err().line, Some(1));
    }
}

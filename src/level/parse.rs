//! Strict reader for the level format: height, width, then `TYPE ORIENTATION` per cell.
//! It never panics and sizes every allocation by what the input actually holds, so a header
//! that claims 10^9 x 10^9 fails at once instead of reserving memory.

use super::error::LevelError;
use crate::model::{Game, Piece, PieceKind};

/// Largest cell count accepted: solver indices are `u32` and the grid gets a border ring.
pub const MAX_CELLS: usize = 1 << 30;

/// Lines of `bytes` with `\n` or `\r\n` ends and surrounding blanks removed.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|&b| b == b'\n').map(|l| l.trim_ascii())
}

/// Parses a decimal number made only of digits; `None` for anything else or overflow.
fn parse_number(field: &[u8]) -> Option<u64> {
    if field.is_empty() || field.len() > 18 {
        return None;
    }
    let mut v: u64 = 0;
    for &b in field {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u64::from(b - b'0');
    }
    Some(v)
}

fn printable(field: &[u8]) -> String {
    let s = String::from_utf8_lossy(field);
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn parse_dimension(
    source: &str,
    line_no: usize,
    line: Option<&[u8]>,
    what: &str,
) -> Result<usize, LevelError> {
    let line = line.ok_or_else(|| {
        LevelError::at_line(
            source,
            line_no,
            format!(
                "missing {what}: the file ends before line {line_no} (expected a positive integer)"
            ),
        )
    })?;
    match parse_number(line) {
        Some(0) => Err(LevelError::at_line(
            source,
            line_no,
            format!("{what} is 0 (expected a positive integer)"),
        )),
        Some(v) if v <= MAX_CELLS as u64 => Ok(v as usize),
        Some(v) => Err(LevelError::at_line(
            source,
            line_no,
            format!("{what} {v} is too large (at most {MAX_CELLS})"),
        )),
        None => Err(LevelError::at_line(
            source,
            line_no,
            format!(
                "expected the {what} as a positive integer, found `{}`",
                printable(line)
            ),
        )),
    }
}

/// Parses one `TYPE ORIENTATION` line into a piece.
fn parse_piece(source: &str, line_no: usize, line: &[u8]) -> Result<Piece, LevelError> {
    let mut fields = line
        .split(|b| *b == b' ' || *b == b'\t')
        .filter(|f| !f.is_empty());
    let (Some(t), Some(o), None) = (fields.next(), fields.next(), fields.next()) else {
        return Err(LevelError::at_line(
            source,
            line_no,
            format!(
                "expected `TYPE ORIENTATION` (two integers), found `{}`",
                printable(line)
            ),
        ));
    };
    let kind = parse_number(t)
        .and_then(|v| u8::try_from(v).ok())
        .and_then(PieceKind::from_code)
        .ok_or_else(|| {
            LevelError::at_line(
                source,
                line_no,
                format!("unknown piece type `{}` (expected 0 to 5)", printable(t)),
            )
        })?;
    let count = kind.orientations();
    match parse_number(o) {
        Some(v) if v < u64::from(count) => Ok(Piece::new(kind, v as u8)),
        _ => Err(LevelError::at_line(
            source,
            line_no,
            format!(
                "orientation `{}` out of range for piece type {} ({}): expected 0 to {}",
                printable(o),
                kind.code(),
                kind.name(),
                count - 1
            ),
        )),
    }
}

/// Reads a level from the bytes of a file named `source` (used only in messages).
pub fn parse_level(source: &str, bytes: &[u8]) -> Result<Game, LevelError> {
    let mut it = lines(bytes);
    let height = parse_dimension(source, 1, it.next(), "height")?;
    let width = parse_dimension(source, 2, it.next(), "width")?;
    let cells_wanted = height
        .checked_mul(width)
        .filter(|&n| n <= MAX_CELLS)
        .ok_or_else(|| {
            LevelError::at_line(
                source,
                2,
                format!("{height} x {width} cells is too many (at most {MAX_CELLS})"),
            )
        })?;
    // Every piece needs a line of its own: check the claim against the input before allocating.
    let total_lines =
        bytes.iter().filter(|&&b| b == b'\n').count() + usize::from(!bytes.ends_with(b"\n"));
    let lines_left = total_lines.saturating_sub(2);
    if cells_wanted > lines_left {
        let found = lines(bytes).skip(2).take_while(|l| !l.is_empty()).count();
        return Err(LevelError::at_line(
            source,
            2 + found + 1,
            format!("expected {cells_wanted} piece lines for {height} x {width}, found {found}"),
        ));
    }
    let mut cells = Vec::with_capacity(cells_wanted);
    for i in 0..cells_wanted {
        let line_no = i + 3;
        match it.next() {
            Some(line) if !line.is_empty() => cells.push(parse_piece(source, line_no, line)?),
            _ => {
                return Err(LevelError::at_line(
                    source,
                    line_no,
                    format!(
                        "expected {cells_wanted} piece lines for {height} x {width}, found {i}"
                    ),
                ));
            }
        }
    }
    for (k, rest) in it.enumerate() {
        if !rest.is_empty() {
            return Err(LevelError::at_line(
                source,
                cells_wanted + 3 + k,
                format!(
                    "unexpected `{}` after the last of the {cells_wanted} pieces (expected end of file)",
                    printable(rest)
                ),
            ));
        }
    }
    Ok(Game::from_cells(height, width, cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> LevelError {
        parse_level("t.dat", text.as_bytes()).unwrap_err()
    }

    #[test]
    fn reads_a_small_level_with_crlf_and_blanks() {
        let g = parse_level("t.dat", b"1\r\n2  \r\n5 1\r\n 2 0\t\r\n\r\n").unwrap();
        assert_eq!((g.height(), g.width()), (1, 2));
        assert_eq!(g.get(0, 0), Piece::new(PieceKind::L, 1));
        assert_eq!(g.get(0, 1), Piece::new(PieceKind::I, 0));
    }

    #[test]
    fn reports_each_problem_with_its_line() {
        let e = err("x\n1\n0 0\n");
        assert_eq!(e.line, Some(1));
        assert!(e.message.contains("height"), "{e}");
        assert_eq!(err("1\n0\n").line, Some(2));
        assert_eq!(err("").line, Some(1));
        assert_eq!(err("1\n").line, Some(2));
        let e = err("1\n2\n0 0\n9 0\n");
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("unknown piece type"), "{e}");
        let e = err("1\n1\n2 2\n");
        assert!(e.message.contains("out of range"), "{e}");
        assert!(err("1\n1\n4 1\n").message.contains("out of range"));
        assert!(err("1\n1\n0 1\n").message.contains("out of range"));
        let e = err("1\n2\n0 0\n");
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("found 1"), "{e}");
        let e = err("1\n1\n0 0\n0 0\n");
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("after the last"), "{e}");
        assert!(err("1\n1\n0 0 0\n").message.contains("two integers"));
        assert!(err("1\n1\n0\n").message.contains("two integers"));
        assert!(err("1\n1\n-1 0\n").message.contains("unknown piece type"));
        assert_eq!(err("1\n2\n0 0\n\n0 0\n").line, Some(4));
    }

    #[test]
    fn huge_headers_fail_before_allocating() {
        let e = err("1000000000\n1000000000\n0 0\n");
        assert!(e.message.contains("too many"), "{e}");
        let e = err("30000\n30000\n0 0\n");
        assert!(e.message.contains("found 1"), "{e}");
        let e = err("99999999999999999999999\n1\n");
        assert_eq!(e.line, Some(1));
    }
}

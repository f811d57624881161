//! Strict reader for the level format: height, width, then `TYPE ORIENTATION` per cell.
//! It never panics and sizes every allocation by what the input actually holds, so a header
//! that claims 10^9 x 10^9 fails at once instead of reserving memory. [`read_level`] stops
//! reading a stream shortly after the last line the header announces (or at an over-long
//! line), so an endless or oversized input costs no more than a valid level. The piece lines
//! are parsed by chunks in parallel (rayon), each chunk knowing its first line number, so
//! errors name the same first bad line as a sequential read would.

use std::io::Read;

use crate::par::*;

use super::bounded_read::{Framed, nth_line_end, read_bounded, read_file};
use super::error::LevelError;
use crate::model::{Game, Piece, PieceKind};

/// Largest cell count accepted: solver indices are `u32` and the grid gets a border ring.
pub const MAX_CELLS: usize = 1 << 30;

/// Longest line accepted: a piece line is a few bytes; anything longer is not a level.
pub const MAX_LINE_BYTES: usize = 4096;
/// The piece lines are cut into chunks of about this many bytes for the parallel parse.
const CHUNK_BYTES: usize = 1 << 20;

/// Lines of `bytes` with `\n` or `\r\n` ends and surrounding blanks removed.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|&b| b == b'\n').map(|l| l.trim_ascii())
}

/// Parses a decimal number made only of digits; `None` for anything else or overflow.
pub(crate) fn parse_number(field: &[u8]) -> Option<u64> {
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

/// At most 40 characters of `field`, for messages.
pub(crate) fn printable(field: &[u8]) -> String {
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
        None if !line.is_empty() && line.iter().all(u8::is_ascii_digit) => {
            Err(LevelError::at_line(
                source,
                line_no,
                format!(
                    "{what} `{}` is too large (at most {MAX_CELLS})",
                    printable(line)
                ),
            ))
        }
        None if line.starts_with(BOM) => Err(LevelError::at_line(
            source,
            line_no,
            "the file starts with a byte-order mark (bytes EF BB BF): save it as plain text without one".to_string(),
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

/// The UTF-8 byte-order mark some editors put at the start of a text file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The error for a blank line where piece `i` (0-based) of `wanted` belongs.
fn blank_piece_line(source: &str, line_no: usize, i: usize, wanted: usize) -> LevelError {
    LevelError::at_line(
        source,
        line_no,
        format!(
            "blank line where piece {} of {wanted} belongs (expected `TYPE ORIENTATION`; blank lines may only follow the last piece)",
            i + 1
        ),
    )
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
        None => Err(LevelError::at_line(
            source,
            line_no,
            format!(
                "expected the orientation as an integer 0 to {}, found `{}`",
                count - 1,
                printable(o)
            ),
        )),
        Some(_) => Err(LevelError::at_line(
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
    parse_chunked(source, bytes, CHUNK_BYTES)
}

/// [`parse_level`] with chunks of about `chunk_bytes` (tests cut tiny levels into many).
fn parse_chunked(source: &str, bytes: &[u8], chunk_bytes: usize) -> Result<Game, LevelError> {
    let mut it = lines(bytes);
    let height = parse_dimension(source, 1, it.next(), "height")?;
    let width = parse_dimension(source, 2, it.next(), "width")?;
    let cells_wanted = cell_count(source, height, width)?;
    let header_len = nth_line_end(bytes, 2);
    let body = &bytes[header_len..];
    // Chunks of whole lines, and each chunk's first line index (0 = the first piece line).
    let mut bounds = vec![0];
    while let Some(&last) = bounds.last() {
        if last >= body.len() {
            break;
        }
        let target = (last + chunk_bytes.max(1)).min(body.len());
        let end = match body[target..].iter().position(|&b| b == b'\n') {
            Some(p) => target + p + 1,
            None => body.len(),
        };
        bounds.push(end);
    }
    let chunks: Vec<&[u8]> = bounds.windows(2).map(|w| &body[w[0]..w[1]]).collect();
    let counts: Vec<usize> = chunks
        .par_iter()
        .map(|c| c.iter().filter(|&&b| b == b'\n').count())
        .collect();
    // A last line without its newline still counts.
    let total_lines =
        counts.iter().sum::<usize>() + usize::from(!body.is_empty() && !body.ends_with(b"\n"));
    // Every piece needs a line of its own: check the claim against the input before allocating.
    if cells_wanted > total_lines {
        let found = lines(body).take_while(|l| !l.is_empty()).count();
        let pieces = lines(body).filter(|l| !l.is_empty()).count();
        if pieces > found {
            // A blank line among the pieces says more than the count.
            return Err(blank_piece_line(source, 2 + found + 1, found, cells_wanted));
        }
        return Err(LevelError::at_line(
            source,
            2 + found + 1,
            format!("expected {cells_wanted} piece lines for {height} x {width}, found {found}"),
        ));
    }
    let mut firsts = Vec::with_capacity(chunks.len());
    let mut line = 0;
    for &c in &counts {
        firsts.push(line);
        line += c;
    }
    let mut cells = vec![Piece::EMPTY; cells_wanted];
    // Each chunk owns the cells of its lines below `cells_wanted`.
    let mut slots: Vec<&mut [Piece]> = Vec::with_capacity(chunks.len());
    let mut rest: &mut [Piece] = &mut cells;
    for (k, &first) in firsts.iter().enumerate() {
        let end = firsts
            .get(k + 1)
            .map_or(cells_wanted, |&n| n.min(cells_wanted));
        let take = end.saturating_sub(first.min(cells_wanted));
        let (mine, tail) = rest.split_at_mut(take);
        slots.push(mine);
        rest = tail;
    }
    let shape = Shape {
        source,
        cells_wanted,
    };
    let first_error = chunks
        .par_iter()
        .zip(firsts.par_iter())
        .zip(slots.par_iter_mut())
        .map(|((chunk, &first), slot)| shape.parse_chunk(chunk, first, slot))
        .find_first(Result::is_err);
    if let Some(Err(e)) = first_error {
        return Err(e);
    }
    Ok(Game::from_cells(height, width, cells))
}

/// Header figures a chunk needs to judge its lines.
struct Shape<'a> {
    source: &'a str,
    cells_wanted: usize,
}

impl Shape<'_> {
    /// Parses the lines of `chunk`, whose first line is piece line `first` (0-based), into
    /// `slot`; the first problem in line order.
    fn parse_chunk(
        &self,
        chunk: &[u8],
        first: usize,
        slot: &mut [Piece],
    ) -> Result<(), LevelError> {
        let mut rest = chunk.strip_suffix(b"\n").unwrap_or(chunk);
        let mut k = 0;
        loop {
            let i = first + k;
            // The common line, `T O\n` with single digits, decoded by one table look-up;
            // the rest (blanks, `\r`, errors) goes the general way below.
            if let [t, b' ', o, b'\n', ..] = *rest
                && i < self.cells_wanted
                && let Some(p) = quick_piece(t, o)
            {
                slot[k] = p;
                rest = &rest[4..];
                k += 1;
                continue;
            }
            let (line, next) = match rest.iter().position(|&b| b == b'\n') {
                Some(end) => (&rest[..end], Some(&rest[end + 1..])),
                None => (rest, None),
            };
            let line = line.trim_ascii();
            let line_no = i + 3;
            if i < self.cells_wanted {
                if line.is_empty() {
                    return Err(blank_piece_line(self.source, line_no, i, self.cells_wanted));
                }
                slot[k] = parse_piece(self.source, line_no, line)?;
            } else if !line.is_empty() {
                return Err(LevelError::at_line(
                    self.source,
                    line_no,
                    format!(
                        "unexpected `{}` after the last of the {} pieces (expected end of file)",
                        printable(line),
                        self.cells_wanted
                    ),
                ));
            }
            match next {
                Some(n) => rest = n,
                None => return Ok(()),
            }
            k += 1;
        }
    }
}

/// `QUICK[t * 4 + o]`: the piece of type digit `t` (0..6) at orientation digit `o` (0..4),
/// when valid.
const QUICK: [Option<Piece>; 24] = {
    let mut t = [None; 24];
    let mut k = 0;
    while k < 6 {
        let kind = match PieceKind::from_code(k as u8) {
            Some(kind) => kind,
            None => unreachable!(),
        };
        let mut o = 0;
        while o < kind.orientations() {
            t[k * 4 + o as usize] = Some(Piece::new(kind, o));
            o += 1;
        }
        k += 1;
    }
    t
};

/// The piece written `t o` (two ASCII digits) in the common short form, if valid.
#[inline(always)]
fn quick_piece(t: u8, o: u8) -> Option<Piece> {
    let (t, o) = (t.wrapping_sub(b'0'), o.wrapping_sub(b'0'));
    if t < 6 && o < 4 {
        QUICK[t as usize * 4 + o as usize]
    } else {
        None
    }
}

/// Cells of a `height` x `width` grid, or the error naming the width line.
fn cell_count(source: &str, height: usize, width: usize) -> Result<usize, LevelError> {
    height
        .checked_mul(width)
        .filter(|&n| n <= MAX_CELLS)
        .ok_or_else(|| {
            LevelError::at_line(
                source,
                2,
                format!("{height} x {width} cells is too many (at most {MAX_CELLS})"),
            )
        })
}

/// The course format's frame for the bounded reader: two header lines, then a line a cell.
struct Course;

impl Framed for Course {
    const HEADER_LINES: usize = 2;

    fn wanted_lines(source: &str, bytes: &[u8]) -> Result<usize, LevelError> {
        let mut it = lines(bytes);
        let height = parse_dimension(source, 1, it.next(), "height")?;
        let width = parse_dimension(source, 2, it.next(), "width")?;
        Ok(2 + cell_count(source, height, width)?)
    }

    fn too_long(source: &str, newlines: usize, line: &[u8]) -> LevelError {
        LevelError::at_line(
            source,
            newlines + 1,
            format!(
                "line longer than {MAX_LINE_BYTES} bytes, starting `{}` (expected {})",
                printable(&line[..40]),
                match newlines {
                    0 => "the height",
                    1 => "the width",
                    _ => "`TYPE ORIENTATION`",
                }
            ),
        )
    }
}

/// Reads and parses a level from `input` (named `source` in messages), reading no further
/// than the lines its header announces plus a little: the rest of an endless or oversized
/// stream is never read. A line over `MAX_LINE_BYTES` stops the read with an error.
pub fn read_level(source: &str, input: impl Read) -> Result<Game, LevelError> {
    parse_level(source, &read_bounded::<Course>(source, input, 0)?)
}

/// [`read_level`] on an open file. A large regular file is mapped into memory and parsed
/// where it lies (no gigabyte buffer to allocate, zero and copy into); otherwise the file's
/// size sizes the buffer up front (no regrowth copies).
pub fn read_level_file(source: &str, file: std::fs::File) -> Result<Game, LevelError> {
    read_file::<Course, _>(source, file, MAX_CELLS as u64 * 8, |bytes| {
        parse_level(source, bytes)
    })
}

#[cfg(test)]
mod tests {
    use super::super::bounded_read::{READ_STEP, TRAILING_BYTES, bounded_end};
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
    fn chunked_parse_reports_what_the_whole_parse_does() {
        let texts = [
            "2\n3\n5 1\n2 0\n1 3\n3 2\n4 0\n0 0\n",
            "2\n3\n5 1\n2 0\n1 3\n3 2\n4 0\n0 0",
            "2\n3\r\n5 1\r\n 2 0\t\r\n1 3\n3 2\n4 0\n0 0\n\n\n",
            "2\n3\n5 1\n2 0\n\n3 2\n4 0\n0 0\n",
            "2\n3\n5 1\n2 0\n1 9\n3 2\n4 7\n0 0\n",
            "2\n3\n5 1\n2 0\n1 3\n3 2\n4 0\n0 0\n\n1 1\n",
            "2\n3\n5 1\n2 0\n1 3\n",
            "1\n1\n0 0\n0 0\n",
        ];
        for text in texts {
            let whole = parse_chunked("t.dat", text.as_bytes(), usize::MAX / 2);
            for chunk in 1..12 {
                assert_eq!(
                    parse_chunked("t.dat", text.as_bytes(), chunk),
                    whole,
                    "{text:?} in chunks of {chunk}"
                );
            }
        }
    }

    #[test]
    fn short_lines_read_as_the_general_parser_reads_them() {
        // Every `T O` pair of digits, valid or not, followed by another line (the short path)
        // and as the last line (the general path): the same piece or the same error.
        for t in b'0'..=b'9' {
            for o in b'0'..=b'9' {
                let line = [t, b' ', o];
                let general = parse_piece("t.dat", 3, &line);
                let text = [&b"2\n1\n"[..], &line, b"\n0 0\n"].concat();
                let short = parse_level("t.dat", &text).map(|g| g.get(0, 0));
                assert_eq!(short, general, "{:?}", line);
                let last = [&b"1\n1\n"[..], &line].concat();
                assert_eq!(parse_level("t.dat", &last).map(|g| g.get(0, 0)), general);
            }
        }
    }

    #[test]
    fn huge_dimensions_are_too_large_not_malformed() {
        let e = err("99999999999999999999999\n1\n");
        assert_eq!(e.line, Some(1));
        assert!(
            e.message.contains("height") && e.message.contains("too large"),
            "{e}"
        );
        let e = err("1\n4000000000\n");
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("width 4000000000 is too large"), "{e}");
    }

    #[test]
    fn endless_inputs_are_read_only_as_far_as_the_header_needs() {
        use std::io::Read;
        // No newline at all (like /dev/zero): stops at the first over-long line.
        let e = read_level("zero", std::io::repeat(0)).unwrap_err();
        assert_eq!(e.line, Some(1));
        assert!(e.message.contains("longer than"), "{e}");
        // A valid level followed by endless zeros: the trailing bytes are judged, not all read.
        let endless = b"1\n2\n1 1\n1 3\n".chain(std::io::repeat(0));
        let e = read_level("z", endless).unwrap_err();
        assert_eq!(e.line, Some(5));
        assert!(e.message.contains("after the last"), "{e}");
        // Endless blank lines after the pieces: read a little of them, then accept.
        let blank = b"1\n2\n1 1\n1 3\n".chain(std::io::repeat(b'\n'));
        let g = read_level("b", blank).unwrap();
        assert_eq!(g, parse_level("b", b"1\n2\n1 1\n1 3\n").unwrap());
        // A header far smaller than the input: the pieces are read, the rest is not.
        let big = b"1\n1\n0 0\n".chain(std::io::repeat(b'x'));
        let e = read_level("x", big).unwrap_err();
        assert_eq!(e.line, Some(4));
        // A file that ends early still says how many lines it found.
        let e = read_level("s", &b"2\n2\n0 0\n"[..]).unwrap_err();
        assert!(e.message.contains("found 1"), "{e}");
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

    /// A level of `h` x `w` cells as text, then `tail`.
    fn level_text(h: usize, w: usize, tail: &[u8]) -> Vec<u8> {
        let mut text = format!("{h}\n{w}\n").into_bytes();
        for i in 0..h * w {
            text.extend_from_slice([b"1 2\n", b"4 0\n", b"2 1\n"][i % 3]);
        }
        text.extend_from_slice(tail);
        text
    }

    #[test]
    fn a_mapped_file_reads_as_the_stream_does() {
        // Around the read steps: levels of several steps, with blank, over-long, garbage and
        // over-long blank tails, long lines inside, and files cut short.
        let long_line = vec![b' '; MAX_LINE_BYTES + 10];
        let mut inputs = vec![
            level_text(1024, 700, b""),
            level_text(1024, 700, b"\n\n  \n"),
            level_text(1024, 700, b"junk\n"),
            level_text(1024, 700, &vec![b'\n'; TRAILING_BYTES + 5]),
            level_text(1024, 700, &long_line),
            level_text(700, 1024, &[b"\n".as_slice(), &long_line].concat()),
        ];
        let mut cut = level_text(1024, 700, b"");
        cut.truncate(2 * READ_STEP + 3);
        inputs.push(cut);
        let mut inside = level_text(900, 900, b"");
        let at = READ_STEP + 17;
        inside.splice(at..at, long_line.iter().copied());
        inputs.push(inside);
        inputs.push(b"3\n3\n".iter().chain(&long_line).copied().collect());
        for (n, bytes) in inputs.iter().enumerate() {
            let streamed = read_level("in", &bytes[..]);
            let end = bounded_end::<Course>("in", bytes);
            let mapped = end.and_then(|end| parse_level("in", &bytes[..end]));
            assert_eq!(mapped, streamed, "input #{n}");
        }
    }

    #[test]
    fn a_large_level_file_is_read_whole_and_right() {
        // Over MAP_MIN_BYTES: mapped where the build can map.
        let text = level_text(1500, 1000, b"\n");
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, &text).unwrap();
        let game = read_level_file("big", file.reopen().unwrap()).unwrap();
        assert_eq!(game, parse_level("big", &text).unwrap());
        // Garbage after the pieces is reported where the stream reports it.
        let bad = level_text(1500, 1000, b"\n7 7\n");
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, &bad).unwrap();
        let e = read_level_file("big", file.reopen().unwrap()).unwrap_err();
        assert_eq!(Err(e), read_level("big", &bad[..]).map(drop));
    }
}

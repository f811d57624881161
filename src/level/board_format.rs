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
//! header  = "board" SEP tiling SEP W "x" H [SEP "wrap=" wrap] [SEP "rules=" rules]
//! tiling  = "square" | "hexagonal"
//! wrap    = "none" | "both" | "horizontal" | "vertical"      (absent: none)
//! rules   = "infinity" | "net"                                (absent: infinity)
//! W, H    = positive decimal integers, W*H at most min(MAX_CELLS, MAX_BOARD_CELLS)
//! cell    = mask [SEP "locked"] [SEP "barriers=" mask]
//! mask    = a decimal side mask, 0 to 2^sides - 1 (15 square, 63 hexagonal)
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
//!
//! Net puzzles: `rules=net` asks for one network without a loop (see
//! [`Rules`](crate::board::Rules)). A cell marked `locked` may not be turned; `barriers=`
//! names the sides of a cell no connection may cross, and a barrier between two cells is
//! written on both (the reader refuses one written on one end only, at that cell's line). The
//! writer adds `rules=net`, `locked` and `barriers=` only where they apply, so an Infinity
//! level without them is written exactly as before.

use std::fs::File;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use super::bounded_read::{Framed, read_bounded, read_file};
use super::error::LevelError;
use super::parse::{MAX_CELLS, MAX_LINE_BYTES, parse_number, printable};
use crate::board::{Board, BoardLevel, MAX_BOARD_CELLS, Rules, Tiling, Wrap};
use crate::par::*;

/// The word a board-format file starts with.
pub const MAGIC: &str = "board";

/// The header's figures.
struct Header {
    tiling: Tiling,
    width: usize,
    height: usize,
    wrap: Wrap,
    rules: Rules,
}

impl Header {
    fn cells(&self) -> usize {
        self.width * self.height
    }
}

/// The header grammar, for messages.
const HEADER_SHAPE: &str =
    "`board <tiling> <W>x<H> [wrap=none|both|horizontal|vertical] [rules=infinity|net]`";

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
        .filter(|t| t.is_uniform())
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
    let (mut wrap, mut rules) = (None, None);
    for field in fields {
        if let Some(name) = field.strip_prefix(b"wrap=")
            && wrap.is_none()
            && rules.is_none()
        {
            wrap = Some(
                std::str::from_utf8(name)
                    .ok()
                    .and_then(Wrap::from_name)
                    .ok_or_else(|| {
                        fail(format!(
                            "unknown wrap `{}` (expected none, both, horizontal or vertical)",
                            printable(name)
                        ))
                    })?,
            );
        } else if let Some(name) = field.strip_prefix(b"rules=")
            && rules.is_none()
        {
            rules = Some(
                std::str::from_utf8(name)
                    .ok()
                    .and_then(Rules::from_name)
                    .ok_or_else(|| {
                        fail(format!(
                            "unknown rules `{}` (expected infinity or net)",
                            printable(name)
                        ))
                    })?,
            );
        } else if wrap.is_none() && rules.is_none() {
            return Err(fail(format!(
                "unexpected `{}` in the header (expected `wrap=...`, `rules=...` or the end of the line)",
                printable(field)
            )));
        } else {
            return Err(fail(format!(
                "unexpected `{}` after the header (expected {} or the end of the line)",
                printable(field),
                if rules.is_none() {
                    "`rules=...`"
                } else {
                    "nothing more"
                }
            )));
        }
    }
    let (wrap, rules) = (wrap.unwrap_or(Wrap::NONE), rules.unwrap_or_default());
    Ok(Header {
        tiling,
        width,
        height,
        wrap,
        rules,
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
    let body = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(&[][..], |i| &bytes[i + 1..]);
    let masks = match plain_masks(body, wanted, full, PLAIN_PIECE) {
        Some(masks) => (masks, Vec::new(), Vec::new()),
        None => cell_lines(source, bytes, &header, full)?,
    };
    build_level(source, header, masks)
}

/// A file's cells: masks, locked marks and barrier masks (the last two empty when no cell
/// has one).
type Cells = (Vec<u8>, Vec<bool>, Vec<u8>);

/// The cells of a board-format file, line by line: every problem is reported with its line,
/// nothing is allocated for more cells than the input can hold.
fn cell_lines(source: &str, bytes: &[u8], header: &Header, full: u32) -> Result<Cells, LevelError> {
    let wanted = header.cells();
    let shape = || {
        format!(
            "{} {}x{}",
            header.tiling.name(),
            header.width,
            header.height
        )
    };
    let mut it = lines(bytes);
    let (first, _) = it.next().unwrap_or((b"", 0));
    // A cell line is at least one digit and a newline: never reserve more than that allows.
    let body_len = bytes.len().saturating_sub(first.len());
    let mut masks = Vec::with_capacity(wanted.min(body_len / 2 + 1));
    // Filled only from the first locked cell or barrier on (most levels have neither).
    let mut locked: Vec<bool> = Vec::new();
    let mut barriers: Vec<u8> = Vec::new();
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
            let cell = parse_cell(line, header.tiling, full)
                .map_err(|e| LevelError::at_line(source, line_no, e))?;
            masks.push(cell.mask);
            if cell.locked {
                locked.resize(k, false);
                locked.push(true);
            }
            if cell.barriers != 0 {
                barriers.resize(k, 0);
                barriers.push(cell.barriers);
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
    Ok((masks, locked, barriers))
}

/// The level of `header` with the cells read from its file.
fn build_level(
    source: &str,
    header: Header,
    (masks, mut locked, mut barriers): Cells,
) -> Result<BoardLevel, LevelError> {
    let wanted = header.cells();
    let board = Board::new(header.tiling, header.width, header.height, header.wrap)
        .map_err(|e| LevelError::at_line(source, 1, e))?;
    let mut level = BoardLevel::new(board, masks)
        .map_err(|e| LevelError::whole_file(source, e))?
        .with_rules(header.rules);
    if !barriers.is_empty() {
        barriers.resize(wanted, 0);
        if let Some((cell, e)) = one_sided_barrier(level.board(), &barriers) {
            return Err(LevelError::at_line(source, cell + 2, e));
        }
        level = level
            .with_barriers(barriers)
            .map_err(|e| LevelError::whole_file(source, e))?;
    }
    if !locked.is_empty() {
        locked.resize(wanted, false);
        level = level
            .with_locked(locked)
            .map_err(|e| LevelError::whole_file(source, e))?;
    }
    Ok(level)
}

/// Bytes per piece of [`plain_masks`].
const PLAIN_PIECE: usize = 1 << 18;
/// The longest line [`plain_masks`] reads (a mask has at most two digits).
const PLAIN_LINE: usize = 64;

/// The masks of a body (the bytes after the header line) made only of plain cell lines (a
/// mask alone) and then blank lines, `wanted` of them; `None` for anything else, which the
/// line-by-line reader then reads and reports on. Nearly every level is plain, and this
/// reads it in pieces of about `piece` bytes in parallel, a fifth of a 1024x1024 hexagonal
/// solve when read line by line on one thread.
fn plain_masks(body: &[u8], wanted: usize, full: u32, piece: usize) -> Option<Vec<u8>> {
    let mut pieces = Vec::with_capacity(body.len() / piece.max(1) + 1);
    let mut start = 0;
    while start < body.len() || pieces.is_empty() {
        // Each piece ends before a newline and the next starts after it.
        let end = match body[(start + piece).min(body.len())..]
            .iter()
            .position(|&b| b == b'\n')
        {
            Some(i) => (start + piece).min(body.len()) + i,
            None => body.len(),
        };
        pieces.push(&body[start..end]);
        start = end + 1;
    }
    let parts: Vec<Option<(Vec<u8>, bool)>> = pieces
        .par_iter()
        .map(|p| digit_lines(p, full).or_else(|| plain_piece(p, full)))
        .collect();
    let mut masks = Vec::with_capacity(wanted.min(body.len() / 2 + 1));
    let mut blank = false;
    for part in parts {
        let (m, ends_blank) = part?;
        // A mask after a blank line: an error the line-by-line reader names.
        if blank && !m.is_empty() {
            return None;
        }
        masks.extend_from_slice(&m);
        blank |= ends_blank;
    }
    (masks.len() == wanted).then_some(masks)
}

/// The masks of a piece of plain lines and whether blank lines end it; `None` for any other
/// line, or a mask after a blank line.
fn plain_piece(piece: &[u8], full: u32) -> Option<(Vec<u8>, bool)> {
    let mut masks = Vec::with_capacity(piece.len() / 2 + 1);
    let mut blank = false;
    for line in piece.split(|&b| b == b'\n') {
        if line.len() > PLAIN_LINE {
            return None;
        }
        let t = line.trim_ascii();
        if t.is_empty() {
            blank = true;
            continue;
        }
        match parse_number(t) {
            Some(m) if !blank && m <= u64::from(full) => masks.push(m as u8),
            _ => return None,
        }
    }
    Some((masks, blank))
}

/// [`plain_piece`] for a piece of lines of one to three digits only (what the writer makes),
/// read byte by byte without splitting it into lines; `None` for anything else (spaces, a
/// blank line, a mask over `full`), which [`plain_piece`] then reads.
fn digit_lines(piece: &[u8], full: u32) -> Option<(Vec<u8>, bool)> {
    let mut masks = Vec::with_capacity(piece.len() / 2 + 1);
    let (mut value, mut digits) = (0u32, 0u32);
    for &b in piece {
        if b == b'\n' {
            if digits == 0 || value > full {
                return None;
            }
            masks.push(value as u8);
            (value, digits) = (0, 0);
        } else {
            let d = b.wrapping_sub(b'0');
            if d > 9 || digits == 3 {
                return None;
            }
            value = value * 10 + u32::from(d);
            digits += 1;
        }
    }
    // The last line, or (a piece ending in a newline, as the body's last does) an empty one,
    // which `plain_piece` counts as blank.
    if digits == 0 {
        return Some((masks, true));
    }
    if value > full {
        return None;
    }
    masks.push(value as u8);
    Some((masks, false))
}

/// A cell line's fields.
struct Cell {
    mask: u8,
    locked: bool,
    barriers: u8,
}

/// Parses a cell line (trimmed): a mask, then `locked` and `barriers=<mask>` at most once
/// each, in that order.
fn parse_cell(line: &[u8], tiling: Tiling, full: u32) -> Result<Cell, String> {
    let mut fields = line
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|f| !f.is_empty());
    let mask = |field: &[u8], what: &str| match parse_number(field) {
        Some(m) if m <= u64::from(full) => Ok(m as u8),
        Some(m) => Err(format!(
            "{what} {m} has a side beyond the {} of a {} cell (expected 0 to {full})",
            tiling.sides(),
            tiling.name()
        )),
        None => Err(format!(
            "expected a side mask (a decimal number 0 to {full}), found `{}`",
            printable(field)
        )),
    };
    let mut cell = Cell {
        mask: mask(fields.next().unwrap_or(b""), "mask")?,
        locked: false,
        barriers: 0,
    };
    let mut seen_barriers = false;
    for field in fields {
        if field == b"locked" && !cell.locked && !seen_barriers {
            cell.locked = true;
        } else if let Some(m) = field.strip_prefix(b"barriers=")
            && !seen_barriers
        {
            cell.barriers = mask(m, "barrier mask")?;
            seen_barriers = true;
        } else {
            return Err(format!(
                "unexpected `{}` after the cell's mask (expected `locked`, then `barriers=<mask>`, each at most once)",
                printable(field)
            ));
        }
    }
    Ok(cell)
}

/// The first cell whose barrier its neighbour does not also name, and a message.
fn one_sided_barrier(board: &Board, barriers: &[u8]) -> Option<(usize, String)> {
    let k = board.sides() as usize;
    let names = board.tiling().side_names();
    for (c, &m) in barriers.iter().enumerate() {
        for s in 0..k {
            if let Some((n, t)) = board.neighbour(c, s)
                && (m >> s & 1) != (barriers[n] >> t & 1)
            {
                let (r, col) = board.row_col(n);
                let msg = if m >> s & 1 == 1 {
                    format!(
                        "a barrier on side {} but none on side {} of the neighbour (row {r}, column {col}): a barrier is written on both cells",
                        names[s], names[t]
                    )
                } else {
                    format!(
                        "no barrier on side {} but one on side {} of the neighbour (row {r}, column {col}): a barrier is written on both cells",
                        names[s], names[t]
                    )
                };
                return Some((c, msg));
            }
        }
    }
    None
}

/// Reads a board-format level from `input` (named `source` in messages), reading no further
/// than the cell lines its header announces plus a little, and stopping at an over-long
/// line: an endless or oversized stream costs no more than a valid level.
pub fn read_board_level(source: &str, input: impl Read) -> Result<BoardLevel, LevelError> {
    parse_board_level(source, &read_bounded::<BoardFrame>(source, input, 0)?)
}

/// [`read_board_level`] on an open file: a large regular file is mapped and parsed where it
/// lies, a smaller one read into a buffer of its size.
pub fn read_board_level_file(source: &str, file: File) -> Result<BoardLevel, LevelError> {
    // A cell line holds a mask, `locked` and barriers: under 32 bytes.
    let max_bytes = MAX_BOARD_CELLS as u64 * 32;
    read_file::<BoardFrame, _>(source, file, max_bytes, |bytes| {
        parse_board_level(source, bytes)
    })
}

/// The board format's frame for the bounded reader: a header line, then a line a cell.
struct BoardFrame;

impl Framed for BoardFrame {
    const HEADER_LINES: usize = 1;

    fn wanted_lines(source: &str, bytes: &[u8]) -> Result<usize, LevelError> {
        let line = &bytes[..bytes
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(bytes.len())];
        if line.len() > MAX_LINE_BYTES {
            return Err(too_long(source, 1, line.trim_ascii()));
        }
        Ok(1 + parse_header(source, line.trim_ascii())?.cells())
    }

    fn too_long(source: &str, newlines: usize, line: &[u8]) -> LevelError {
        too_long(source, newlines + 1, line)
    }
}

/// The level as the bytes of a board-format file (see the module doc).
pub fn board_level_bytes(level: &BoardLevel) -> Vec<u8> {
    let mut out = Vec::new();
    let never = AtomicBool::new(false);
    write_board_level(&mut out, level, &never, |_, _, _| {})
        .expect("writing into memory cannot fail");
    out
}

/// Cells per window of a streamed save: a 4096x4096 level's 42 MB of text never sits in
/// memory whole, and a cancel is seen within milliseconds.
const WINDOW_CELLS: usize = 1 << 20;

/// Writes the level in the board format to `out` a window of cells at a time, calling
/// `written(out, offset, len)` after each write (the save starts the disk's write-back
/// there). `Ok(false)` when `cancel` was raised first.
pub fn write_board_level<W: Write>(
    out: &mut W,
    level: &BoardLevel,
    cancel: &AtomicBool,
    written: impl FnMut(&mut W, u64, usize),
) -> std::io::Result<bool> {
    write_in_windows(out, level, cancel, written, WINDOW_CELLS)
}

/// [`write_board_level`] in windows of `window` cells (tests use small ones).
fn write_in_windows<W: Write>(
    out: &mut W,
    level: &BoardLevel,
    cancel: &AtomicBool,
    mut written: impl FnMut(&mut W, u64, usize),
    window: usize,
) -> std::io::Result<bool> {
    let board = level.board();
    let rules = match level.rules() {
        Rules::Infinity => String::new(),
        r => format!(" rules={}", r.name()),
    };
    let header = format!(
        "{MAGIC} {} {}x{} wrap={}{rules}\n",
        board.tiling().name(),
        board.width(),
        board.height(),
        board.wrap().name()
    );
    out.write_all(header.as_bytes())?;
    written(out, 0, header.len());
    let mut offset = header.len() as u64;
    let plain = !level.has_locks() && !level.has_barriers();
    let mut buf = Vec::new();
    for (k, masks) in level.masks().chunks(window).enumerate() {
        if cancel.load(Ordering::Relaxed) {
            return Ok(false);
        }
        if plain {
            plain_lines(&mut buf, masks);
        } else {
            marked_lines(&mut buf, level, k * window, masks);
        }
        out.write_all(&buf)?;
        written(out, offset, buf.len());
        offset += buf.len() as u64;
    }
    Ok(!cancel.load(Ordering::Relaxed))
}

/// The lines of cells `first..first + masks.len()` with their `locked` and `barriers=`
/// marks, into `out` (cleared first).
fn marked_lines(out: &mut Vec<u8>, level: &BoardLevel, first: usize, masks: &[u8]) {
    out.clear();
    let number = |out: &mut Vec<u8>, m: u8| {
        if m >= 100 {
            out.push(b'0' + m / 100);
        }
        if m >= 10 {
            out.push(b'0' + m / 10 % 10);
        }
        out.push(b'0' + m % 10);
    };
    for (c, &m) in (first..).zip(masks) {
        number(out, m);
        if level.is_locked(c) {
            out.extend_from_slice(b" locked");
        }
        let walls = level.barrier(c);
        if walls != 0 {
            out.extend_from_slice(b" barriers=");
            number(out, walls);
        }
        out.push(b'\n');
    }
}

/// Cells per piece of the parallel writer.
const WRITE_PIECE: usize = 1 << 16;

/// Each mask's line (its decimal digits and a newline) in four bytes, and its length.
const LINES: [([u8; 4], usize); 256] = {
    let mut t = [([0u8; 4], 0usize); 256];
    let mut m = 0;
    while m < 256 {
        let (h, d, u) = ((m / 100) as u8, (m / 10 % 10) as u8, (m % 10) as u8);
        t[m] = if m >= 100 {
            ([b'0' + h, b'0' + d, b'0' + u, b'\n'], 4)
        } else if m >= 10 {
            ([b'0' + d, b'0' + u, b'\n', 0], 3)
        } else {
            ([b'0' + u, b'\n', 0, 0], 2)
        };
        m += 1;
    }
    t
};

/// A line per mask into `out`, cleared first (a level without locks or barriers: nearly
/// every one). The pieces' lengths are summed first, so the lines are written in parallel
/// straight into the buffer.
fn plain_lines(out: &mut Vec<u8>, masks: &[u8]) {
    let lens: Vec<usize> = masks
        .par_chunks(WRITE_PIECE)
        .map(|piece| piece.iter().map(|&m| LINES[m as usize].1).sum())
        .collect();
    out.clear();
    out.resize(lens.iter().sum::<usize>(), 0);
    let mut rest = &mut out[..];
    let mut slots = Vec::with_capacity(lens.len());
    for len in lens {
        let (slot, tail) = rest.split_at_mut(len);
        slots.push(slot);
        rest = tail;
    }
    slots
        .into_par_iter()
        .zip(masks.par_chunks(WRITE_PIECE))
        .for_each(|(slot, piece)| write_mask_lines(slot, piece));
}

/// Writes the lines of `masks` into `out`, which has exactly their length. Each line is
/// copied as four bytes and the end moved by its length (the last few exactly): no branch
/// on the number of digits, which a level's random masks would mispredict half the time.
fn write_mask_lines(out: &mut [u8], masks: &[u8]) {
    let mut end = 0;
    for &m in masks {
        let (bytes, len) = LINES[m as usize];
        if end + 4 <= out.len() {
            out[end..end + 4].copy_from_slice(&bytes);
        } else {
            out[end..end + len].copy_from_slice(&bytes[..len]);
        }
        end += len;
    }
    debug_assert_eq!(end, out.len(), "the lines fill the slot");
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::bounded_read::READ_STEP;
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
            net_level(),
        ]
    }

    /// A Net level with a lock and a barrier (also across a wrapped seam).
    fn net_level() -> BoardLevel {
        let board = Board::new(Tiling::Square, 3, 2, Wrap::BOTH).unwrap();
        let mut walls = vec![0u8; 6];
        // Between cells 0 and 1 (E of 0, W of 1), and across the seam W of 0 / E of 2.
        walls[0] = 2 | 8;
        walls[1] = 8;
        walls[2] = 2;
        BoardLevel::new(board, vec![1, 3, 7, 5, 2, 10])
            .unwrap()
            .with_rules(Rules::Net)
            .with_barriers(walls)
            .unwrap()
            .with_locked(vec![false, true, false, false, false, true])
            .unwrap()
    }

    #[test]
    fn net_rules_locks_and_barriers_are_written_and_read() {
        let text = board_level_bytes(&net_level());
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "board square 3x2 wrap=both rules=net\n1 barriers=10\n3 locked barriers=8\n7 barriers=2\n5\n2\n10 locked\n"
        );
        let l = parse_board_level("t", b"board square 2x1 rules=net wrap=none\n2\n8 locked\n");
        assert!(l.is_err(), "wrap= comes before rules=");
        let l = parse_board_level("t", b"board square 2x1 rules=net\n2\n8 locked\n").unwrap();
        assert_eq!(l.rules(), Rules::Net);
        assert!(l.is_locked(1) && !l.is_locked(0));
    }

    #[test]
    fn windows_of_any_size_write_the_whole_text() {
        let plain = BoardLevel::new(
            Board::new(Tiling::Hexagonal, 3, 2, Wrap::NONE).unwrap(),
            vec![1, 63, 0, 10, 5, 40],
        )
        .unwrap();
        let never = AtomicBool::new(false);
        for level in [net_level(), plain] {
            let whole = board_level_bytes(&level);
            for window in 1..=7 {
                let (mut out, mut calls) = (Vec::new(), Vec::new());
                let record = |o: &mut Vec<u8>, at: u64, len: usize| {
                    assert_eq!(at as usize + len, o.len(), "told after each write");
                    calls.push(len);
                };
                assert!(write_in_windows(&mut out, &level, &never, record, window).unwrap());
                assert_eq!(out, whole, "windows of {window}");
                assert_eq!(calls.len(), 1 + level.masks().len().div_ceil(window));
            }
        }
        let raised = AtomicBool::new(true);
        let mut out = Vec::new();
        let done = write_in_windows(&mut out, &net_level(), &raised, |_, _, _| {}, 2);
        assert!(!done.unwrap(), "a raised cancel stops before the cells");
        assert!(out.starts_with(b"board square 3x2") && out.ends_with(b"rules=net\n"));
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
    fn the_parallel_plain_reader_agrees_with_the_line_reader_or_leaves_it_the_file() {
        // Bodies of a 3-cell square level: plain ones the pieces must read exactly as the
        // line reader does, whatever the piece size; every other one left to the line reader.
        let header = parse_header("t", b"board square 3x1").unwrap();
        let cases: [(&[u8], bool); 12] = [
            (b"1\n2\n3\n", true),
            (b"1\n2\n3", true),
            (b" 1\r\n2\t\r\n3 \r\n\r\n \n\n", true),
            (b"10\n15\n0\n  \n", true),
            (b"1\n2\n", false),
            (b"1\n\n2\n3\n", false),
            (b"1\n2\n3\n4\n", false),
            (b"1\n2\n3\n\n4\n", false),
            (b"1\n2\n16\n", false),
            (b"1\n2 locked\n3\n", false),
            (b"1\n2\nx\n", false),
            (b"", false),
        ];
        for (body, plain) in cases {
            let file = [&b"board square 3x1\n"[..], body].concat();
            let lines = cell_lines("t", &file, &header, 15);
            for piece in 1..=8 {
                let got = plain_masks(body, 3, 15, piece);
                assert_eq!(got.is_some(), plain, "{body:?}, pieces of {piece}");
                if let Some(masks) = got {
                    assert_eq!(lines.as_ref().ok(), Some(&(masks, Vec::new(), Vec::new())));
                }
            }
        }
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
            (
                "board square 2x1\n3\n1 2\n",
                3,
                "unexpected `2` after the cell",
            ),
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
            (
                "board square 1x1 rules=loops\n0\n",
                1,
                "unknown rules `loops`",
            ),
            (
                "board square 1x1 rules=net rules=net\n0\n",
                1,
                "nothing more",
            ),
            ("board square 2x1\n3 lock\n0\n", 2, "unexpected `lock`"),
            (
                "board square 2x1\n3 locked locked\n0\n",
                2,
                "unexpected `locked`",
            ),
            (
                "board square 2x1\n3 barriers=2 locked\n0\n",
                2,
                "unexpected `locked`",
            ),
            ("board square 2x1\n3 barriers=16\n0\n", 2, "barrier mask 16"),
            (
                "board square 2x1\n3 barriers=x\n0\n",
                2,
                "expected a side mask",
            ),
            (
                "board square 2x1\n0\n0 barriers=8\n",
                2,
                "no barrier on side E",
            ),
            (
                "board square 2x1\n0 barriers=2\n0\n",
                2,
                "a barrier on side E",
            ),
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

    #[test]
    fn cells_ending_past_the_first_read_step_are_found() {
        // Cell lines of more than one read step: the last one's end is found in a later step.
        let (w, h) = (640, 640);
        let masks: Vec<u8> = (0..w * h).map(|i| (i * 7 % 64) as u8).collect();
        let board = Board::new(Tiling::Hexagonal, w, h, Wrap::NONE).unwrap();
        let level = BoardLevel::new(board, masks).unwrap();
        let bytes = board_level_bytes(&level);
        assert!(bytes.len() > READ_STEP + 1000, "spans two steps");
        let blank = (&bytes[..]).chain(std::io::repeat(b'\n'));
        assert_eq!(read_board_level("b", blank).unwrap(), level);
        let junk = (&bytes[..]).chain(std::io::repeat(b'x'));
        let e = read_board_level("j", junk).unwrap_err();
        assert_eq!(e.line, Some(w * h + 2), "{e}");
        let short = &bytes[..bytes.len() - 3];
        let e = read_board_level("s", short).unwrap_err();
        assert_eq!(e.line, Some(w * h + 1), "{e}");
    }

    #[test]
    fn a_board_file_reads_as_the_stream_does() {
        // Over MAP_MIN_BYTES: mapped where the build can map; blank, junk and cut tails, and
        // an over-long line inside.
        let (w, h) = (2048, 1200);
        let masks: Vec<u8> = (0..w * h).map(|i| (i * 13 % 64) as u8).collect();
        let board = Board::new(Tiling::Hexagonal, w, h, Wrap::BOTH).unwrap();
        let bytes = board_level_bytes(&BoardLevel::new(board, masks).unwrap());
        let long = vec![b'7'; MAX_LINE_BYTES + 10];
        let at = READ_STEP + 17;
        let inputs = [
            [&bytes[..], b"\n\n"].concat(),
            [&bytes[..], b"junk\n"].concat(),
            bytes[..bytes.len() - 5].to_vec(),
            [&bytes[..at], &long, &bytes[at..]].concat(),
        ];
        for (n, input) in inputs.iter().enumerate() {
            let mut file = tempfile::NamedTempFile::new().unwrap();
            std::io::Write::write_all(&mut file, input).unwrap();
            let read = read_board_level_file("f", file.reopen().unwrap());
            assert_eq!(read, read_board_level("f", &input[..]), "input #{n}");
            assert_eq!(read.is_ok(), n == 0, "input #{n}");
        }
    }

    #[test]
    fn digit_lines_read_what_plain_piece_reads() {
        let pieces: [&[u8]; 16] = [
            b"",
            b"\n",
            b"1",
            b"1\n",
            b"1\n2",
            b"1\n2\n",
            b"15\n0\n63",
            b"007\n8",
            b"0007\n8",
            b"1\n\n2",
            b"1\n\n",
            b" 1\n2",
            b"1\r\n2",
            b"64\n1",
            b"1\nx",
            b"255\n1",
        ];
        for piece in pieces {
            for full in [15, 63] {
                let fast = digit_lines(piece, full);
                if fast.is_some() {
                    assert_eq!(
                        fast,
                        plain_piece(piece, full),
                        "{:?}",
                        String::from_utf8_lossy(piece)
                    );
                }
            }
        }
        // The writer's own lines always take the fast path.
        assert!(digit_lines(b"1\n63\n0\n", 63).is_some());
        assert!(digit_lines(b"64\n", 63).is_none());
    }

    #[test]
    fn plain_lines_are_the_decimal_masks() {
        // Pieces of several lengths, ending in each line length, in pieces of WRITE_PIECE.
        let mut masks: Vec<u8> = (0..=255).chain([7, 0, 255, 10, 99, 100]).collect();
        masks.extend((0..3 * WRITE_PIECE + 5).map(|i| (i * 37 % 256) as u8));
        let mut buf = b"left over".to_vec();
        for end in [WRITE_PIECE + 1, 0, 1, 2, 257, 258, WRITE_PIECE, masks.len()] {
            let masks = &masks[..end];
            let expected: String = masks.iter().map(|m| format!("{m}\n")).collect();
            // One buffer for every call: each starts it afresh.
            plain_lines(&mut buf, masks);
            assert_eq!(String::from_utf8(buf.clone()).unwrap(), expected);
        }
    }
}

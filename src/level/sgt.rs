//! Simon Tatham's Net game IDs (`sgt-net --generate 3 9x9wb0.4` prints them): `PARAMS:DESC`,
//! where PARAMS is `W[xH]` then flags (`w` wrapping; `b<P>` and `a`, generator settings, are
//! accepted and ignored), and DESC holds one hex digit per tile in row-major order, bit 0 a
//! connection right, 1 up, 2 left, 3 down, each followed by any number of `v` (a barrier to
//! its right) and `h` (a barrier below it). This follows `validate_desc` and `new_game` of
//! SGT's `net.c`: digits in either case, and a barrier across the far edge joins the tile on
//! the other side (modulo the width or height), a no-op on a bounded board whose edge is
//! already a wall. An ID is a Net puzzle by definition; the level read is played by
//! [`Rules::Net`].

use super::error::LevelError;
use super::parse::MAX_CELLS;
use crate::board::{Board, BoardLevel, MAX_BOARD_CELLS, Rules, Tiling, Wrap};

/// SGT's direction bits (right, up, left, down) to our square bits (E=2, N=1, W=8, S=4).
const FROM_SGT: [u8; 4] = [2, 1, 8, 4];

/// A tile's hex value as our square mask.
fn from_sgt(tile: u8) -> u8 {
    (0..4)
        .filter(|b| tile >> b & 1 == 1)
        .fold(0, |m, b| m | FROM_SGT[b])
}

/// Our square mask as SGT's tile value.
fn to_sgt(mask: u8) -> u8 {
    (0..4)
        .filter(|&b| mask & FROM_SGT[b] != 0)
        .fold(0, |t, b| t | 1 << b)
}

/// True when `bytes` (trimmed) looks like a game ID: digits, then parameters, then `:` on the
/// first line. A course-format file starts with a line holding one number.
pub fn looks_like_sgt(bytes: &[u8]) -> bool {
    let start = bytes.trim_ascii_start();
    let line = start.split(|&b| b == b'\n').next().unwrap_or(b"");
    start.first().is_some_and(u8::is_ascii_digit) && line.contains(&b':')
}

/// Width, height and wrap of the parameter part.
fn parse_params(params: &[u8]) -> Result<(usize, usize, bool), String> {
    let text = String::from_utf8_lossy(params);
    if params.contains(&b'#') {
        return Err(format!(
            "`{text}` is a random seed, not a game description (ask `sgt-net --generate 1 {}` for an ID)",
            text.split('#').next().unwrap_or("")
        ));
    }
    let digits = |from: usize| {
        let end = params[from..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(params.len(), |p| from + p);
        let n = std::str::from_utf8(&params[from..end])
            .ok()
            .and_then(|d| d.parse::<usize>().ok());
        (end, n)
    };
    let bad = || format!("expected the parameters `<W>x<H>[w]` before `:`, found `{text}`");
    let (mut at, w) = digits(0);
    let w = w.ok_or_else(bad)?;
    let mut h = w;
    if params.get(at) == Some(&b'x') {
        let (end, n) = digits(at + 1);
        h = n.ok_or_else(bad)?;
        at = end;
    }
    let mut wrap = false;
    while at < params.len() {
        match params[at] {
            b'w' => wrap = true,
            b'a' => {}
            b'b' => {
                // A barrier probability: a generator setting, the description has the barriers.
                while at + 1 < params.len()
                    && (params[at + 1] == b'.' || params[at + 1].is_ascii_digit())
                {
                    at += 1;
                }
            }
            _ => return Err(bad()),
        }
        at += 1;
    }
    if w == 0 || h == 0 {
        return Err(format!("a board of {w}x{h} has no cells"));
    }
    let limit = MAX_CELLS.min(MAX_BOARD_CELLS);
    match w.checked_mul(h) {
        Some(n) if n <= limit => Ok((w, h, wrap)),
        _ => Err(format!("{w}x{h} is too many cells (at most {limit})")),
    }
}

/// Reads an SGT Net game ID from the bytes of a file named `source` (the ID, blanks around
/// it allowed).
pub fn parse_sgt(source: &str, bytes: &[u8]) -> Result<BoardLevel, LevelError> {
    let fail = |msg: String| LevelError::whole_file(source, msg);
    let text = bytes.trim_ascii();
    let colon = text
        .iter()
        .position(|&b| b == b':')
        .ok_or_else(|| fail("not an SGT Net game ID: no `:` after the parameters".into()))?;
    let (w, h, wrapping) = parse_params(&text[..colon]).map_err(fail)?;
    let wrap = if wrapping { Wrap::BOTH } else { Wrap::NONE };
    let board = Board::new(Tiling::Square, w, h, wrap).map_err(fail)?;
    let desc = &text[colon + 1..];
    let n = w * h;
    let mut masks = Vec::with_capacity(n.min(desc.len()));
    let mut walls = vec![0u8; n];
    let mut i = 0;
    for (at, &b) in desc.iter().enumerate() {
        let bad = |what: &str| {
            fail(format!(
                "character {} of the description (`{}`): {what}",
                at + 1,
                b as char
            ))
        };
        match b {
            b'h' | b'v' => {
                if i == 0 {
                    return Err(bad("a barrier before the first tile"));
                }
                let c = i - 1;
                let (r, col) = (c / w, c % w);
                // v: right of the tile (E; W of the next), h: below it (S; N of the next).
                let (side, other, facing) = if b == b'v' {
                    (2u8, r * w + (col + 1) % w, 8u8)
                } else {
                    (4u8, ((r + 1) % h) * w + col, 1u8)
                };
                walls[c] |= side;
                walls[other] |= facing;
            }
            _ => {
                let tile = (b as char)
                    .to_digit(16)
                    .ok_or_else(|| bad("expected a hex digit, `h` or `v`"))?;
                if i == n {
                    return Err(bad(&format!("more than the {n} tiles of {w}x{h}")));
                }
                masks.push(from_sgt(tile as u8));
                i += 1;
            }
        }
    }
    if i < n {
        return Err(fail(format!(
            "the description has {i} tiles, {w}x{h} needs {n}"
        )));
    }
    // On a bounded board, a wall across the far edge lands on border sides, which
    // `with_barriers` drops.
    BoardLevel::new(board, masks)
        .map_err(fail)?
        .with_rules(Rules::Net)
        .with_barriers(walls)
        .map_err(fail)
}

/// The level as an SGT Net game ID (one line). Fails for a board SGT cannot play: not square,
/// wrapping one way only, with locked cells (an ID cannot say them).
pub fn sgt_bytes(level: &BoardLevel) -> Result<Vec<u8>, String> {
    let b = level.board();
    if b.tiling() != Tiling::Square {
        return Err(format!(
            "an SGT Net game ID holds a square board, not a {} one",
            b.tiling().name()
        ));
    }
    let wrap = b.wrap();
    if wrap.horizontal != wrap.vertical {
        return Err(format!(
            "SGT Net wraps both ways or not at all; this board wraps {} only",
            wrap.name()
        ));
    }
    if level.has_locks() {
        return Err("an SGT Net game ID holds no locked tiles".into());
    }
    let mut out = format!(
        "{}x{}{}:",
        b.width(),
        b.height(),
        if wrap.any() { "w" } else { "" }
    )
    .into_bytes();
    out.reserve(b.len() * 2);
    for (c, &m) in level.masks().iter().enumerate() {
        out.push(b"0123456789abcdef"[to_sgt(m) as usize]);
        let walls = level.barrier(c);
        if walls & 2 != 0 && b.neighbour(c, 1).is_some() {
            out.push(b'v');
        }
        if walls & 4 != 0 && b.neighbour(c, 2).is_some() {
            out.push(b'h');
        }
    }
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_sgt("t", text.as_bytes()).unwrap_err().message
    }

    #[test]
    fn bits_map_to_ours_and_back() {
        // R=1 is E=2, U=2 is N=1, L=4 is W=8, D=8 is S=4.
        assert_eq!(from_sgt(1), 2);
        assert_eq!(from_sgt(2), 1);
        assert_eq!(from_sgt(4), 8);
        assert_eq!(from_sgt(8), 4);
        for t in 0..16 {
            assert_eq!(to_sgt(from_sgt(t)), t);
        }
    }

    #[test]
    fn reads_barriers_on_both_cells_and_across_the_wrap() {
        // 3x2 wrapping: tile 0 has a barrier to its right and below; tile 2 (last column) to
        // its right, which is the left of tile 0 across the seam.
        let l = parse_sgt("t", b"3x2w:1vh24v8a2").unwrap();
        assert_eq!(l.rules(), Rules::Net);
        assert_eq!(l.board().wrap(), Wrap::BOTH);
        assert_eq!(l.masks(), &[2, 1, 8, 4, 5, 1]);
        // Tile 0: E (v) and S (h) and W (tile 2's v across the seam).
        assert_eq!(l.barrier(0), 2 | 4 | 8);
        assert_eq!(l.barrier(1), 8);
        assert_eq!(l.barrier(2), 2);
        assert_eq!(l.barrier(3), 1);
        assert_eq!(
            String::from_utf8(sgt_bytes(&l).unwrap()).unwrap(),
            "3x2w:1vh24v8a2\n"
        );
    }

    #[test]
    fn a_bounded_id_round_trips_and_ignores_generator_flags() {
        let id = "5x5:1b5h1v81535heedb32678hb61d4v4v8";
        let l = parse_sgt("t", id.as_bytes()).unwrap();
        assert_eq!(l.board().wrap(), Wrap::NONE);
        assert_eq!(
            String::from_utf8(sgt_bytes(&l).unwrap()).unwrap(),
            format!("{id}\n")
        );
        let same = parse_sgt("t", b"5x5b0.4a:1b5h1v81535heedb32678hb61d4v4v8").unwrap();
        assert_eq!(same, l);
        // A square size without `x`.
        assert_eq!(parse_sgt("t", b"2:1248").unwrap().board().height(), 2);
    }

    #[test]
    fn clear_errors() {
        assert!(err("5x5").contains("no `:`"));
        assert!(err("5x5#123:").contains("random seed"));
        assert!(err("5y5:1").contains("parameters"));
        assert!(err("0x5:").contains("no cells"));
        assert!(err("2x1:1g").contains("expected a hex digit"));
        assert!(err("2x1:v12").contains("before the first tile"));
        assert!(err("2x1:1").contains("has 1 tiles"));
        assert!(err("2x1:123").contains("more than the 2 tiles"));
        assert!(err("99999999x99999999:").contains("too many cells"));
    }
}

//! hexapipes' puzzle files (the open-source web game by gereleth): JSON objects
//! `{"grid": ..., "width": W, "height": H, "wrap": bool, "tiles": [...]}`, so that its
//! published puzzles can be solved here and our answers played there. Behind the `json`
//! feature: the engine alone needs no JSON library.
//!
//! Reading follows the app: a missing `grid` is `hexagonal` (its early daily puzzles have
//! none, and the app plays them as hexagonal), a missing `wrap` is the caller's
//! `wrap_default` (the files of its `hexagonal-wrap` collection carry no `wrap`: the folder
//! says it), and other fields (`comment`, ...) are ignored. `wrap: true` wraps both ways.
//! Every grid [`crate::board::Tiling`] knows is read: square, hexagonal and the mixed grids
//! of [`crate::board::Grid`] (octagonal, cube, trihexagonal, etrat, ...); others are refused
//! by name.
//!
//! A puzzle read is played by Net rules (hexapipes' own); writing keeps only the tiles.
//!
//! Bit orders: hexagonal tiles are hexapipes' own (E=1, NE=2, NW=4, W=8, SW=16, SE=32), and
//! so is our hexagonal board; hexapipes' square tiles are E=1, N=2, W=4, S=8, which reading
//! and writing swap with our N=1, E=2, S=4, W=8.

use serde_json::Value;

use super::error::LevelError;
use super::parse::MAX_CELLS;
use crate::board::{Board, BoardLevel, MAX_BOARD_CELLS, Tiling, Wrap};

/// Swaps hexapipes' square bits (E=1, N=2, W=4, S=8) with ours (N=1, E=2, S=4, W=8): the two
/// orders differ by swapping each pair of neighbouring bits, so the same swap goes both ways.
fn swap_square_bits(mask: u8) -> u8 {
    (mask & 0b0101) << 1 | (mask & 0b1010) >> 1
}

/// A tile of hexapipes' square or hexagonal grid in our bit order, and back.
fn from_hexapipes(tiling: Tiling, tile: u8) -> u8 {
    match tiling {
        Tiling::Square => swap_square_bits(tile),
        Tiling::Hexagonal | Tiling::Polygonal(_) => tile,
    }
}

/// The names of the grids read, for messages.
fn grid_names() -> String {
    let names: Vec<&str> = Tiling::EVERY.iter().map(|t| t.name()).collect();
    names.join(", ")
}

/// Reads hexapipes' JSON from the bytes of a file named `source`; `wrap_default` stands for
/// a missing `wrap` field.
pub fn parse_hexapipes(
    source: &str,
    bytes: &[u8],
    wrap_default: bool,
) -> Result<BoardLevel, LevelError> {
    let fail = |msg: String| LevelError::whole_file(source, msg);
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| fail(format!("not a hexapipes puzzle: invalid JSON: {e}")))?;
    let Value::Object(object) = value else {
        return Err(fail(
            "not a hexapipes puzzle: expected a JSON object with grid, width, height, tiles".into(),
        ));
    };
    let tiling = match object.get("grid") {
        None => Tiling::Hexagonal,
        Some(Value::String(grid)) => Tiling::from_name(grid).ok_or_else(|| {
            fail(format!(
                "hexapipes grid `{grid}` is not supported yet (supported: {})",
                grid_names()
            ))
        })?,
        Some(other) => return Err(fail(format!("`grid` is {other}, expected a grid name"))),
    };
    let dimension = |name: &str| -> Result<usize, LevelError> {
        match object.get(name) {
            None => Err(fail(format!("missing field `{name}`"))),
            Some(v) => v
                .as_u64()
                .filter(|&n| n > 0)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| fail(format!("`{name}` is {v}, expected a positive integer"))),
        }
    };
    let width = dimension("width")?;
    let height = dimension("height")?;
    let wrap = match object.get("wrap") {
        None => wrap_default,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(fail(format!("`wrap` is {other}, expected true or false"))),
    };
    let limit = MAX_CELLS.min(MAX_BOARD_CELLS);
    let area = width
        .checked_mul(height)
        .filter(|&n| n <= limit)
        .ok_or_else(|| {
            fail(format!(
                "{width}x{height} is too many cells (at most {limit})"
            ))
        })?;
    let tiles = match object.get("tiles") {
        None => return Err(fail("missing field `tiles`".into())),
        Some(Value::Array(tiles)) => tiles,
        Some(_) => return Err(fail("`tiles` is not an array".into())),
    };
    // A mixed grid's cell count follows from its size by the grid's own rule, and is
    // within a small factor of the area: a size far beyond the tiles given is refused
    // before any table of that size is made.
    if !tiling.is_uniform() && area > 4 * tiles.len() + 64 {
        return Err(fail(format!(
            "a {width}x{height} {} grid has far more than the {} tiles given",
            tiling.name(),
            tiles.len()
        )));
    }
    let wrap = if wrap { Wrap::BOTH } else { Wrap::NONE };
    let board = Board::new(tiling, width, height, wrap).map_err(fail)?;
    let cells = board.len();
    if tiles.len() != cells {
        return Err(fail(format!(
            "a {width}x{height} {} grid has {cells} tiles, found {}",
            tiling.name(),
            tiles.len()
        )));
    }
    let bits = match tiling {
        Tiling::Polygonal(grid) => grid.direction_bits(),
        _ => tiling.sides() as usize,
    };
    let full = (1u64 << bits) - 1;
    let masks = tiles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mask = t.as_u64().filter(|&m| m <= full).and_then(|m| {
                board.from_grid_bits(i, from_hexapipes(tiling, m as u8))
            });
            mask.ok_or_else(|| {
                let sides = board.cell_sides(i);
                fail(format!(
                    "tile {i} is {t}: expected a mask over the {sides} sides of that {} cell (bits {})",
                    tiling.name(),
                    grid_bits_of(&board, i)
                ))
            })
        })
        .collect::<Result<Vec<u8>, _>>()?;
    // hexapipes plays Net: one network, no loop.
    Ok(BoardLevel::new(board, masks)
        .map_err(fail)?
        .with_rules(crate::board::Rules::Net))
}

/// The bits a tile of `cell` may have, as hexapipes writes them: `1, 2, 4, 8` on a square
/// cell.
fn grid_bits_of(board: &Board, cell: usize) -> String {
    let bits: Vec<String> = (0..board.cell_sides(cell))
        .map(|s| from_hexapipes(board.tiling(), board.to_grid_bits(cell, 1 << s)).to_string())
        .collect();
    bits.join(", ")
}

/// The level as a hexapipes JSON file: `grid`, `width`, `height`, `wrap` and `tiles` in
/// hexapipes' bit order. Fails for a board that wraps one way only (hexapipes' `wrap` is
/// both ways or none).
pub fn hexapipes_bytes(level: &BoardLevel) -> Result<Vec<u8>, String> {
    let board = level.board();
    let wrap = board.wrap();
    if level.has_barriers() || level.has_locks() {
        return Err("hexapipes' puzzle files hold no barriers nor locked tiles".into());
    }
    if wrap.horizontal != wrap.vertical {
        return Err(format!(
            "hexapipes wraps both ways or not at all; this board wraps {} only",
            wrap.name()
        ));
    }
    let mut out = format!(
        "{{\"grid\": \"{}\", \"width\": {}, \"height\": {}, \"wrap\": {}, \"tiles\": [",
        board.tiling().name(),
        board.width(),
        board.height(),
        wrap.any()
    );
    for (i, &m) in level.masks().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        // The swap is its own inverse.
        let tile = from_hexapipes(board.tiling(), board.to_grid_bits(i, m));
        out.push_str(&tile.to_string());
    }
    out.push_str("]}\n");
    Ok(out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Grid;
    use std::path::{Path, PathBuf};

    fn err(text: &str) -> LevelError {
        parse_hexapipes("t.json", text.as_bytes(), false).unwrap_err()
    }

    #[test]
    fn square_bits_are_remapped_both_ways() {
        // hexapipes E=1 is our E=2; N=2 is our N=1; W=4 is our W=8; S=8 is our S=4.
        assert_eq!(swap_square_bits(1), 2);
        assert_eq!(swap_square_bits(2), 1);
        assert_eq!(swap_square_bits(4), 8);
        assert_eq!(swap_square_bits(8), 4);
        for m in 0..16 {
            assert_eq!(swap_square_bits(swap_square_bits(m)), m);
        }
        let l = parse_hexapipes(
            "t",
            br#"{"grid": "square", "width": 3, "height": 1, "tiles": [1, 9, 12]}"#,
            false,
        )
        .unwrap();
        // An east end (our E=2), east+south (E=2 + S=4), west+south (W=8 + S=4).
        assert_eq!(l.masks(), &[2, 6, 12]);
        let back: Value = serde_json::from_slice(&hexapipes_bytes(&l).unwrap()).unwrap();
        assert_eq!(back["tiles"], serde_json::json!([1, 9, 12]));
    }

    #[test]
    fn fields_and_defaults() {
        let text = r#"{"width": 2, "height": 2, "tiles": [1, 2, 4, 8], "comment": "hi"}"#;
        let l = parse_hexapipes("t", text.as_bytes(), true).unwrap();
        assert_eq!(l.board().tiling(), Tiling::Hexagonal);
        assert_eq!(l.board().wrap(), Wrap::BOTH);
        let l = parse_hexapipes("t", text.as_bytes(), false).unwrap();
        assert_eq!(l.board().wrap(), Wrap::NONE);
        let text = r#"{"grid": "hexagonal", "width": 2, "height": 2, "wrap": false, "tiles": [1, 2, 4, 8]}"#;
        let l = parse_hexapipes("t", text.as_bytes(), true).unwrap();
        assert_eq!(l.board().wrap(), Wrap::NONE, "the field beats the default");
    }

    #[test]
    fn every_board_hexapipes_holds_round_trips() {
        for level in crate::level::board_format::tests::sample_levels() {
            let w = level.board().wrap();
            match hexapipes_bytes(&level) {
                Ok(bytes) => {
                    let net = level.clone().with_rules(crate::board::Rules::Net);
                    assert_eq!(parse_hexapipes("t", &bytes, !w.any()).unwrap(), net);
                }
                Err(e) if level.has_barriers() || level.has_locks() => {
                    assert!(e.contains("barriers"), "{e}");
                }
                Err(e) => {
                    assert_ne!(w.horizontal, w.vertical, "{e}");
                    assert!(e.contains("only"), "{e}");
                }
            }
        }
    }

    #[test]
    fn clear_errors() {
        let cases: &[(&str, &str)] = &[
            ("", "invalid JSON"),
            ("1\n2\n0 0\n", "invalid JSON"),
            ("{\"width\": 1", "invalid JSON"),
            ("[1, 2]", "expected a JSON object"),
            (
                r#"{"grid": "pentagonal", "width": 1, "height": 1, "tiles": [0]}"#,
                "grid `pentagonal` is not supported yet",
            ),
            (
                r#"{"grid": 3, "width": 1, "height": 1, "tiles": [0]}"#,
                "expected a grid name",
            ),
            (r#"{"height": 1, "tiles": [0]}"#, "missing field `width`"),
            (r#"{"width": 1, "tiles": [0]}"#, "missing field `height`"),
            (r#"{"width": 1, "height": 1}"#, "missing field `tiles`"),
            (
                r#"{"width": 0, "height": 1, "tiles": []}"#,
                "positive integer",
            ),
            (
                r#"{"width": -1, "height": 1, "tiles": []}"#,
                "positive integer",
            ),
            (
                r#"{"width": 1.5, "height": 1, "tiles": [0]}"#,
                "positive integer",
            ),
            (
                r#"{"width": 4000000000, "height": 4000000000, "tiles": []}"#,
                "too many cells",
            ),
            (r#"{"width": 1, "height": 1, "tiles": 0}"#, "not an array"),
            (
                r#"{"width": 1, "height": 1, "wrap": "yes", "tiles": [0]}"#,
                "expected true or false",
            ),
            (
                r#"{"width": 2, "height": 2, "tiles": [0, 0, 0]}"#,
                "has 4 tiles, found 3",
            ),
            (
                r#"{"width": 2, "height": 1, "tiles": [0, 64]}"#,
                "tile 1 is 64",
            ),
            (
                r#"{"grid": "square", "width": 2, "height": 1, "tiles": [16, 0]}"#,
                "tile 0 is 16",
            ),
            (
                r#"{"width": 2, "height": 1, "tiles": [0, "1"]}"#,
                "tile 1 is \"1\"",
            ),
            (
                r#"{"width": 1, "height": 1, "wrap": true, "tiles": [0]}"#,
                "at least 2",
            ),
        ];
        for &(text, words) in cases {
            let e = err(text);
            assert_eq!(e.line, None);
            assert!(e.message.contains(words), "{text:?}: {e}");
            assert!(e.to_string().starts_with("t.json: "), "{e}");
        }
    }

    /// The sample of hexapipes' published puzzles, when this checkout has it beside it.
    fn samples() -> Option<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hexapipes");
        if dir.is_dir() {
            Some(dir)
        } else {
            println!("skipped: no hexapipes sample at {}", dir.display());
            None
        }
    }

    /// The JSON files under `dir`, sorted.
    fn json_files(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn every_supported_sample_loads_and_writes_back_the_same_tiles() {
        let Some(root) = samples() else { return };
        let groups = [
            ("hexagonal", true, Tiling::Hexagonal, Some(false)),
            ("hexagonal-wrap", true, Tiling::Hexagonal, Some(true)),
            ("daily/hexagonal", false, Tiling::Hexagonal, None),
            ("daily/absent", false, Tiling::Hexagonal, None),
            ("daily/square", false, Tiling::Square, None),
            (
                "daily/octagonal",
                false,
                Tiling::Polygonal(Grid::Octagonal),
                None,
            ),
            ("daily/cube", false, Tiling::Polygonal(Grid::Cube), None),
            (
                "daily/trihexagonal",
                false,
                Tiling::Polygonal(Grid::Trihexagonal),
                None,
            ),
            ("daily/etrat", false, Tiling::Polygonal(Grid::Etrat), None),
        ];
        for (dir, by_folder, tiling, folder_wrap) in groups {
            let files = json_files(&root.join(dir));
            assert!(!files.is_empty(), "{dir} holds no puzzle");
            for path in files {
                let shown = path.display().to_string();
                let bytes = std::fs::read(&path).unwrap();
                let original: Value = serde_json::from_slice(&bytes).unwrap();
                assert_eq!(original.get("wrap").is_none(), by_folder, "{shown}");
                let level = parse_hexapipes(&shown, &bytes, folder_wrap.unwrap_or(false)).unwrap();
                let board = level.board();
                assert_eq!(board.tiling(), tiling, "{shown}");
                assert_eq!(board.width() as u64, original["width"].as_u64().unwrap());
                assert_eq!(board.height() as u64, original["height"].as_u64().unwrap());
                let wrap = folder_wrap.unwrap_or_else(|| original["wrap"].as_bool().unwrap());
                let want = if wrap { Wrap::BOTH } else { Wrap::NONE };
                assert_eq!(board.wrap(), want, "{shown}");
                let tiles = original["tiles"].as_array().unwrap();
                assert_eq!(level.masks().len(), tiles.len(), "{shown}");
                assert_eq!(tiles.len(), board.len(), "{shown}");
                let back: Value =
                    serde_json::from_slice(&hexapipes_bytes(&level).unwrap()).unwrap();
                assert_eq!(back["tiles"], original["tiles"], "{shown}");
                assert_eq!(back["width"], original["width"], "{shown}");
                assert_eq!(back["height"], original["height"], "{shown}");
                assert_eq!(back["wrap"], Value::Bool(wrap), "{shown}");
                assert_eq!(back["grid"], Value::from(tiling.name()), "{shown}");
            }
        }
    }

    #[test]
    fn every_daily_grid_of_the_sample_is_read() {
        let Some(root) = samples() else { return };
        for entry in std::fs::read_dir(root.join("daily")).unwrap() {
            let path = entry.unwrap().path();
            let kind = path.file_name().unwrap().to_str().unwrap().to_string();
            let kind = if kind == "absent" {
                "hexagonal".into()
            } else {
                kind
            };
            assert!(
                Tiling::from_name(&kind).is_some(),
                "daily/{kind} is not read"
            );
        }
    }
}

//! The level as the page sees it, in JSON: the board's geometry (centres, each kind of cell
//! polygon with its side directions, the link table), so the page draws any tiling the
//! engine has without knowing its name, and the pieces, locks, barriers and rules. The page
//! sends back only the level part; [`level_from_json`] rebuilds and checks it as strictly as
//! a level file.

use serde_json::{Map, Value, json};

use super::error::ApiError;
use crate::board::{Board, BoardLevel, NO_LINK, Rules, Tiling, Wrap};

/// The most cells a level the page plays may have: 1000x1000 would be a 40 MB page.
pub const MAX_PAGE_CELLS: usize = 250_000;

/// The most columns or rows.
pub const MAX_PAGE_SIDE: usize = 1000;

/// Coordinates are sent to a thousandth of a cell: enough for any screen, a third the bytes.
fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// `n` in decimal, without the formatting machinery (a 200x200 board's arrays are 200,000
/// numbers: `write!` spent most of the answer's time in them).
fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    let mut v = n.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[i..]).expect("ASCII digits"));
}

/// `x` to a thousandth, as a JSON number.
fn push_thousandths(out: &mut String, x: f64) {
    let n = (x * 1000.0).round() as i64;
    if n < 0 {
        out.push('-');
    }
    let m = n.unsigned_abs();
    push_int(out, (m / 1000) as i64);
    let frac = m % 1000;
    if frac != 0 {
        out.push('.');
        let digits = [frac / 100, frac / 10 % 10, frac % 10];
        // Trailing zeros carry nothing: 1.5, not 1.500.
        let used = if frac.is_multiple_of(100) {
            1
        } else if frac.is_multiple_of(10) {
            2
        } else {
            3
        };
        for d in &digits[..used] {
            out.push(char::from(b'0' + *d as u8));
        }
    }
}

/// `items` as a JSON array, each written by `push`, straight into `out`.
fn push_array<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    push: impl Fn(&mut String, T),
) {
    out.push('[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push(out, x);
    }
    out.push(']');
}

/// The polygon kinds the page numbers: the cell drawn for each kind, in the order the kinds
/// first appear, and per [`Board::cell_polygon`] its number among them (a small board may
/// lack some of its grid's polygons).
fn kinds(board: &Board) -> (Vec<usize>, Vec<usize>) {
    let mut first = Vec::new();
    let mut number = vec![usize::MAX; board.polygons()];
    for c in 0..board.len() {
        let p = board.cell_polygon(c);
        if number[p] == usize::MAX {
            number[p] = first.len();
            first.push(c);
        }
    }
    (first, number)
}

/// One polygon kind, as cell `c` has it: its side count, its corners relative to its centre
/// (corner `s` between sides `s` and `s + 1`) and the direction of each side; on a mixed
/// grid also hexapipes' direction bit of each side, with which the offline page writes the
/// only file format that holds such a board.
fn kind(board: &Board, c: usize) -> Value {
    let k = board.cell_sides(c) as usize;
    let (cx, cy) = board.centre(c);
    let polygon: Vec<[f64; 2]> = board
        .polygon(c)
        .into_iter()
        .map(|(x, y)| [round(x - cx), round(y - cy)])
        .collect();
    let directions: Vec<[f64; 2]> = (0..k)
        .map(|s| {
            let (x, y) = board.side_direction(c, s);
            [round(x), round(y)]
        })
        .collect();
    let mut kind = json!({"sides": k, "polygon": polygon, "directions": directions});
    if !board.is_uniform() {
        let bits: Vec<u8> = (0..k).map(|s| board.to_grid_bits(c, 1 << s)).collect();
        kind["bits"] = json!(bits);
    }
    kind
}

/// The board's drawing and neighbours: cell `c`'s centre is `centres[2c..2c+2]`, it is
/// polygon kind `polygonOf[c]` (0 when the member is missing: one kind), whose corners are
/// relative to the centre and whose side `s` points along `directions[s]`, and
/// `links[c*sides+s]` is `neighbour*8 + facing side`, or -1 at a border (`sides`: the most
/// any cell has).
fn push_geometry(out: &mut String, board: &Board) {
    let (first, number) = kinds(board);
    let (x0, y0, x1, y1) = board.extent();
    let small = json!({
        "sides": board.sides(),
        "clockwise": board.tiling().numbered_clockwise(),
        "sideNames": board.tiling().side_names(),
        "extent": [round(x0), round(y0), round(x1), round(y1)],
        "polygons": first.iter().map(|&c| kind(board, c)).collect::<Vec<_>>(),
    })
    .to_string();
    // The small members, then the per-cell arrays in the same object.
    out.push_str(&small[..small.len() - 1]);
    out.push_str(",\"centres\":");
    push_array(
        out,
        (0..board.len()).flat_map(|c| {
            let (x, y) = board.centre(c);
            [x, y]
        }),
        push_thousandths,
    );
    if first.len() > 1 {
        out.push_str(",\"polygonOf\":");
        push_array(
            out,
            (0..board.len()).map(|c| number[board.cell_polygon(c)] as i64),
            push_int,
        );
    }
    out.push_str(",\"links\":");
    push_array(
        out,
        board
            .links()
            .iter()
            .map(|&l| if l == NO_LINK { -1 } else { i64::from(l) }),
        push_int,
    );
    out.push('}');
}

/// The level part: what the page plays and sends back.
fn push_level(out: &mut String, level: &BoardLevel) {
    let b = level.board();
    let small = json!({
        "tiling": b.tiling().name(),
        "width": b.width(),
        "height": b.height(),
        "wrap": b.wrap().name(),
        "rules": level.rules().name(),
    })
    .to_string();
    out.push_str(&small[..small.len() - 1]);
    out.push_str(",\"masks\":");
    push_array(out, level.masks(), |o, &m| push_int(o, i64::from(m)));
    out.push_str(",\"locked\":");
    let cells = 0..if level.has_locks() { b.len() } else { 0 };
    push_array(out, cells.map(|c| i64::from(level.is_locked(c))), push_int);
    out.push_str(",\"barriers\":");
    let cells = 0..if level.has_barriers() { b.len() } else { 0 };
    push_array(out, cells.map(|c| i64::from(level.barrier(c))), push_int);
    out.push('}');
}

/// Everything the page needs to play `level`, as JSON text: `{"level": .., "geometry": ..}`
/// and the members of `extra`. Written by hand: a 200x200 board is 1.6 MB of numbers, which a
/// tree of JSON values would take several times longer to build.
pub fn play_text(level: &BoardLevel, extra: &[(&str, Value)]) -> String {
    let mut out = String::with_capacity(64 + level.masks().len() * 40);
    out.push_str("{\"level\":");
    push_level(&mut out, level);
    out.push_str(",\"geometry\":");
    push_geometry(&mut out, level.board());
    for (key, value) in extra {
        out.push_str(&format!(",{}:{value}", Value::from(*key)));
    }
    out.push('}');
    out
}

/// Fails with a 400 naming the first key of `object` not in `known`.
pub fn only_keys(object: &Map<String, Value>, what: &str, known: &[&str]) -> Result<(), ApiError> {
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(ApiError::bad(format!(
            "unknown {what} option `{k}` (known: {})",
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

/// `value` as an object, or a 400 naming `what`.
pub fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>, ApiError> {
    value
        .as_object()
        .ok_or_else(|| ApiError::bad(format!("{what} must be a JSON object")))
}

/// A string field, or a 400.
pub fn str_field<'a>(o: &'a Map<String, Value>, key: &str) -> Result<&'a str, ApiError> {
    o.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad(format!("`{key}` must be a string")))
}

/// A whole-number field in `1..=max`, or a 400.
pub fn size_field(o: &Map<String, Value>, key: &str, max: usize) -> Result<usize, ApiError> {
    let n = o
        .get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| ApiError::bad(format!("`{key}` must be a whole number")))?;
    if n == 0 || n > max as u64 {
        return Err(ApiError::bad(format!(
            "`{key}` must be 1 to {max}, not {n}"
        )));
    }
    Ok(n as usize)
}

/// An array of small numbers, each at most `max`, of exactly `len` entries (or empty when
/// `may_be_empty`).
fn small_numbers(
    o: &Map<String, Value>,
    key: &str,
    len: usize,
    max: u8,
    may_be_empty: bool,
) -> Result<Vec<u8>, ApiError> {
    let Some(v) = o.get(key) else {
        return if may_be_empty {
            Ok(Vec::new())
        } else {
            Err(ApiError::bad(format!("`{key}` is missing")))
        };
    };
    let items = v
        .as_array()
        .ok_or_else(|| ApiError::bad(format!("`{key}` must be an array")))?;
    if items.is_empty() && may_be_empty {
        return Ok(Vec::new());
    }
    if items.len() != len {
        return Err(ApiError::bad(format!(
            "`{key}` has {} entries for {len} cells",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_u64()
                .filter(|&n| n <= u64::from(max))
                .map(|n| n as u8)
                .ok_or_else(|| ApiError::bad(format!("`{key}`[{i}] must be 0 to {max}")))
        })
        .collect()
}

/// The level the page sent (the `level` of [`play_text`]), checked like a level file.
pub fn level_from_json(value: &Value) -> Result<BoardLevel, ApiError> {
    let o = object(value, "the level")?;
    only_keys(
        o,
        "level",
        &[
            "tiling", "width", "height", "wrap", "rules", "masks", "locked", "barriers",
        ],
    )?;
    let tiling_name = str_field(o, "tiling")?;
    let tiling = Tiling::from_name(tiling_name)
        .ok_or_else(|| ApiError::bad(format!("unknown tiling `{tiling_name}`")))?;
    let width = size_field(o, "width", MAX_PAGE_SIDE)?;
    let height = size_field(o, "height", MAX_PAGE_SIDE)?;
    check_cells(width, height)?;
    let wrap_name = str_field(o, "wrap")?;
    let wrap = Wrap::from_name(wrap_name)
        .ok_or_else(|| ApiError::bad(format!("unknown wrap `{wrap_name}`")))?;
    let rules_name = str_field(o, "rules")?;
    let rules = Rules::from_name(rules_name)
        .ok_or_else(|| ApiError::bad(format!("unknown rules `{rules_name}`")))?;
    let board = Board::new(tiling, width, height, wrap).map_err(ApiError::bad)?;
    let full = ((1u32 << board.sides()) - 1) as u8;
    let n = board.len();
    let masks = small_numbers(o, "masks", n, full, false)?;
    let locked = small_numbers(o, "locked", n, 1, true)?;
    let barriers = small_numbers(o, "barriers", n, full, true)?;
    let mut level = BoardLevel::new(board, masks)
        .map_err(ApiError::bad)?
        .with_rules(rules);
    if !barriers.is_empty() {
        level = level.with_barriers(barriers).map_err(ApiError::bad)?;
    }
    if !locked.is_empty() {
        let flags = locked.into_iter().map(|l| l == 1).collect();
        level = level.with_locked(flags).map_err(ApiError::bad)?;
    }
    Ok(level)
}

/// A 400 when `width` x `height` is more than the page plays.
pub fn check_cells(width: usize, height: usize) -> Result<(), ApiError> {
    if width * height > MAX_PAGE_CELLS {
        return Err(ApiError::bad(format!(
            "{width}x{height} is {} cells: the page plays at most {MAX_PAGE_CELLS}",
            width * height
        )));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::Grid;

    /// [`play_text`] parsed.
    pub(crate) fn play_json(level: &BoardLevel) -> Value {
        serde_json::from_str(&play_text(level, &[])).expect("valid JSON")
    }

    fn level_json(level: &BoardLevel) -> Value {
        play_json(level)["level"].clone()
    }

    #[test]
    fn numbers_are_written_as_json_reads_them() {
        for n in [
            0i64,
            7,
            -1,
            10,
            -10,
            1234567,
            i64::from(u32::MAX),
            -987654321,
        ] {
            let mut s = String::new();
            push_int(&mut s, n);
            assert_eq!(s, n.to_string());
        }
        for x in [
            0.0, 1.5, -1.5, 0.866025, -0.0004, 0.0005, 12.3456, -199.999, 1e6,
        ] {
            let mut s = String::new();
            push_thousandths(&mut s, x);
            let back: f64 = serde_json::from_str(&s).unwrap();
            assert_eq!(back, round(x), "{x} written as {s}");
        }
    }

    #[test]
    fn a_level_goes_to_json_and_back_unchanged() {
        let board = Board::new(Tiling::Hexagonal, 3, 2, Wrap::BOTH).unwrap();
        let level = BoardLevel::new(board, vec![1, 8, 3, 0, 63, 9])
            .unwrap()
            .with_rules(Rules::Net)
            .with_locked(vec![false, true, false, false, false, false])
            .unwrap();
        let back = level_from_json(&level_json(&level)).unwrap();
        assert_eq!(back, level);
        let geometry = play_json(&level)["geometry"].clone();
        assert_eq!(geometry["links"].as_array().unwrap().len(), 6 * 6);
        assert_eq!(
            geometry["polygons"][0]["polygon"].as_array().unwrap().len(),
            6
        );
        assert_eq!(geometry["polygons"].as_array().unwrap().len(), 1);
        assert!(geometry.get("polygonOf").is_none(), "one kind: no list");
        // A mixed grid too: the page's hints, checks and saves send it back.
        let board = Board::new(Tiling::Polygonal(Grid::Octagonal), 2, 1, Wrap::NONE).unwrap();
        let level = BoardLevel::new(board, vec![0b1001_0001, 0b0101, 0, 0]).unwrap();
        assert_eq!(level_from_json(&level_json(&level)).unwrap(), level);
    }

    #[test]
    fn a_mixed_board_lists_each_polygon_kind_and_each_cells_kind() {
        let xy = |p: &Value| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
        for grid in Grid::ALL {
            let board = Board::new(Tiling::Polygonal(grid), 3, 3, Wrap::BOTH).unwrap();
            let n = board.len();
            let level = BoardLevel::new(board.clone(), vec![0; n]).unwrap();
            let geometry = play_json(&level)["geometry"].clone();
            let kinds = geometry["polygons"].as_array().unwrap();
            let of = geometry["polygonOf"].as_array().unwrap();
            assert_eq!(of.len(), n, "{grid:?}");
            assert_eq!(
                kinds.len(),
                board.polygons(),
                "{grid:?}: every kind is on the board"
            );
            for c in 0..n {
                let kind = &kinds[of[c].as_u64().unwrap() as usize];
                let k = board.cell_sides(c) as usize;
                assert_eq!(kind["sides"], json!(k), "{grid:?} cell {c}");
                assert_eq!(kind["directions"].as_array().unwrap().len(), k);
                assert_eq!(kind["bits"].as_array().unwrap().len(), k);
                assert_eq!(kind["bits"][0], json!(board.to_grid_bits(c, 1)));
                let (cx, cy) = board.centre(c);
                let corners = kind["polygon"].as_array().unwrap();
                assert_eq!(corners.len(), k);
                for (corner, (x, y)) in corners.iter().zip(board.polygon(c)) {
                    let (dx, dy) = xy(corner);
                    assert!((cx + dx - x).abs() < 1e-3 && (cy + dy - y).abs() < 1e-3);
                }
            }
        }
    }

    #[test]
    fn bad_levels_are_refused_with_the_reason() {
        let board = Board::new(Tiling::Square, 2, 1, Wrap::NONE).unwrap();
        let good = level_json(&BoardLevel::new(board, vec![2, 8]).unwrap());
        let cases: [(&str, Value, &str); 5] = [
            ("masks", json!([2, 16]), "`masks`[1] must be 0 to 15"),
            ("masks", json!([2]), "has 1 entries for 2 cells"),
            ("width", json!(100_000), "`width` must be 1 to 1000"),
            ("tiling", json!("pentagonal"), "unknown tiling"),
            ("colour", json!("red"), "unknown level option `colour`"),
        ];
        for (key, value, message) in cases {
            let mut bad = good.clone();
            bad[key] = value;
            let e = level_from_json(&bad).unwrap_err();
            assert!(e.message.contains(message), "{key}: {}", e.message);
            assert_eq!(e.status, 400);
        }
        let mut big = good.clone();
        big["width"] = json!(1000);
        big["height"] = json!(1000);
        assert!(
            level_from_json(&big)
                .unwrap_err()
                .message
                .contains("at most")
        );
    }
}

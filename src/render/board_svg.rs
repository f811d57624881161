//! SVG drawing of a level on any [`Board`]: square or hexagonal, bounded or wrapped. The
//! course-format renderer ([`super::svg`]) stays the fast path for bounded square levels; this
//! one asks the board for each cell's polygon and side directions, so a new tiling draws with
//! no change here.
//!
//! Each cell is its polygon on a dark tile; a pipe runs from the centre to the middle of each
//! connected side (round caps, the colours of [`super::svg`]), in red when the neighbour (or
//! the border) does not meet it; one-end pieces get a disc. A side whose neighbour lies across
//! the board (a wrapping edge) is drawn as a dashed line, and a legend under the board says
//! which edges wrap; a pipe that leaves across such an edge ends on it, inside its own cell.
//!
//! The document is written into one `String` reserved up front, cell by cell, with no list of
//! strokes in between, so a 1000x1000 board costs its text and little more.

use std::fmt::Write;

use super::svg::{BACKGROUND, CELL, END, END_RADIUS, HIGHLIGHT, LOOSE, PIPE, PIPE_WIDTH};
use crate::board::{Board, BoardLevel, Wrap};

/// Fill of the page around the cells (a hexagonal board's ragged edges show it).
pub const PAGE: &str = "#10151d";
/// Outline of each cell polygon.
pub const GRID: &str = "#2e3a4b";
/// Width of the cell outlines, in pixels at 100 % zoom.
pub const GRID_WIDTH: f32 = 0.75;
/// Colour of the dashed lines along wrapping edges, and of the legend.
pub const WRAP: &str = "#d98cff";
/// Width of the wrapping-edge lines, in pixels at 100 % zoom.
pub const WRAP_WIDTH: f32 = 2.0;
/// Dash and gap lengths of the wrapping-edge lines, in pixels at 100 % zoom.
pub const WRAP_DASH: [f32; 2] = [4.0, 3.0];
/// Empty border around the board, in pixels, so strokes on its edge are not clipped.
pub const MARGIN: f64 = 4.0;
/// Height of the legend strip under a wrapped board, in pixels.
pub const LEGEND: f64 = 18.0;

/// What follows [`wrap_note`] in the SVG legend.
const LEGEND_TAIL: &str = " (dashed edges)";

/// The words for which edges of a board wrap, e.g. `wraps left-right and top-bottom`, or
/// `None` for a bounded board. Shared by the SVG legend and the text layout's note.
pub fn wrap_note(wrap: Wrap) -> Option<&'static str> {
    match (wrap.horizontal, wrap.vertical) {
        (false, false) => None,
        (true, false) => Some("wraps left-right"),
        (false, true) => Some("wraps top-bottom"),
        (true, true) => Some("wraps left-right and top-bottom"),
    }
}

/// A board's drawing in pixels (one unit between neighbouring centres is [`CELL`] pixels):
/// what the SVG and PNG writers share.
pub(super) struct Layout {
    /// Per polygon of the board ([`Board::cell_polygon`]), the vector from a cell's centre
    /// to the middle of each side, in px.
    reach: Vec<Vec<(f64, f64)>>,
    /// Per polygon, its corners relative to the cell's centre, in px.
    corners: Vec<Vec<(f64, f64)>>,
    /// Width and height of the board with its margin (without the legend), in px.
    pub size: (f64, f64),
    /// Offset of the board's origin in the picture, in px.
    origin: (f64, f64),
}

impl Layout {
    pub fn of(board: &Board) -> Layout {
        let unit = CELL as f64;
        // A cell of each polygon stands for all of its kind.
        let mut first = vec![usize::MAX; board.polygons()];
        for c in 0..board.len() {
            let p = board.cell_polygon(c);
            if first[p] == usize::MAX {
                first[p] = c;
            }
        }
        let first: Vec<usize> = first.into_iter().filter(|&c| c != usize::MAX).collect();
        let mut reach = vec![Vec::new(); board.polygons()];
        let mut corners = vec![Vec::new(); board.polygons()];
        for &c in &first {
            let p = board.cell_polygon(c);
            let (cx, cy) = board.centre(c);
            let polygon = board.polygon(c);
            reach[p] = (0..board.cell_sides(c) as usize)
                .map(|s| {
                    // To the middle of the side: between its two corners.
                    let k = polygon.len();
                    let (a, b) = (polygon[(s + k - 1) % k], polygon[s]);
                    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                    ((mx - cx) * unit, (my - cy) * unit)
                })
                .collect();
            corners[p] = polygon
                .into_iter()
                .map(|(x, y)| ((x - cx) * unit, (y - cy) * unit))
                .collect();
        }
        let (x0, y0, x1, y1) = board.extent();
        Layout {
            reach,
            corners,
            size: (
                (x1 - x0) * unit + 2.0 * MARGIN,
                (y1 - y0) * unit + 2.0 * MARGIN,
            ),
            origin: (MARGIN - x0 * unit, MARGIN - y0 * unit),
        }
    }

    /// The centre of `cell` in px.
    pub fn centre(&self, board: &Board, cell: usize) -> (f64, f64) {
        let (x, y) = board.centre(cell);
        let unit = CELL as f64;
        (self.origin.0 + x * unit, self.origin.1 + y * unit)
    }

    /// The corners of `cell`'s polygon relative to its centre, in px.
    pub fn corners(&self, board: &Board, cell: usize) -> &[(f64, f64)] {
        &self.corners[board.cell_polygon(cell)]
    }

    /// From `cell`'s centre to the middle of each of its sides, in px.
    #[cfg(any(feature = "png", test))]
    pub fn reach(&self, board: &Board, cell: usize) -> &[(f64, f64)] {
        &self.reach[board.cell_polygon(cell)]
    }

    /// The ends of `side`'s edge of `cell`: side `s` lies between corners `s - 1` and `s`
    /// (corner `s` sits between sides `s` and `s + 1`).
    pub fn edge(&self, board: &Board, cell: usize, side: usize) -> ((f64, f64), (f64, f64)) {
        let (x, y) = self.centre(board, cell);
        let corners = self.corners(board, cell);
        let k = corners.len();
        let (a, b) = (corners[(side + k - 1) % k], corners[side]);
        ((x + a.0, y + a.1), (x + b.0, y + b.1))
    }
}

/// Whether `side` of `cell` joins a cell that is not drawn beside it: the board wraps there.
pub(super) fn wraps_across(board: &Board, cell: usize, side: usize) -> bool {
    let Some((n, _)) = board.neighbour(cell, side) else {
        return false;
    };
    let ((x, y), (nx, ny)) = (board.centre(cell), board.centre(n));
    if !board.is_uniform() {
        // Mixed cells' centres are not one unit apart; beside means near.
        return (nx - x).hypot(ny - y) > 2.0;
    }
    let (dx, dy) = board.side_direction(cell, side);
    (nx - x - dx).abs() > 1e-6 || (ny - y - dy).abs() > 1e-6
}

/// Whether the connection of `cell` across `side` is met by its neighbour.
pub(super) fn met(level: &BoardLevel, cell: usize, side: usize) -> bool {
    level
        .board()
        .neighbour(cell, side)
        .is_some_and(|(n, t)| level.masks()[n] & (1 << t) != 0)
}

/// Writes `v` rounded to a tenth, without a trailing `.0`.
fn num(out: &mut String, v: f64) {
    let t = (v * 10.0).round() as i64;
    let a = t.unsigned_abs();
    if t < 0 {
        out.push('-');
    }
    let _ = write!(out, "{}", a / 10);
    if !a.is_multiple_of(10) {
        let _ = write!(out, ".{}", a % 10);
    }
}

fn polygon(out: &mut String, layout: &Layout, board: &Board, cell: usize) {
    let (x, y) = layout.centre(board, cell);
    out.push_str("<polygon points=\"");
    for (i, &(dx, dy)) in layout.corners(board, cell).iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        num(out, x + dx);
        out.push(',');
        num(out, y + dy);
    }
    out.push_str("\"/>\n");
}

/// The SVG document for `level`, with the cells of `highlight` (indices into the board's
/// cells, e.g. the cells `--explain` blames) shaded under the pipes. Indices past the board
/// are ignored. See the module doc for what is drawn.
pub fn board_svg(level: &BoardLevel, highlight: &[usize]) -> String {
    let board = level.board();
    let masks = level.masks();
    let k = board.sides() as usize;
    let layout = Layout::of(board);
    let note = wrap_note(board.wrap());
    let (board_w, board_h) = layout.size;
    let h = board_h + if note.is_some() { LEGEND } else { 0.0 };
    // Wide enough for the legend (about 0.6 em per character of a 12-px sans-serif).
    let legend_w = note.map_or(0.0, |n| {
        2.0 * MARGIN + 7.2 * (n.len() + LEGEND_TAIL.len()) as f64
    });
    let w = board_w.max(legend_w);
    let bits: usize = masks.iter().map(|m| m.count_ones() as usize).sum();
    let ends = masks.iter().filter(|m| m.count_ones() == 1).count();
    let per_polygon = 20 + k * 14;
    let mut out = String::with_capacity(
        1024 + (board.len() + highlight.len()) * per_polygon + bits * 22 + ends * 48,
    );

    let (pw, ph) = (w.ceil() as u64, h.ceil() as u64);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{pw}\" height=\"{ph}\" viewBox=\"0 0 {pw} {ph}\">"
    );
    let _ = writeln!(
        out,
        "<title>{} {}x{} level{}{}</title>",
        board.tiling().name(),
        board.width(),
        board.height(),
        if note.is_some() { ", " } else { "" },
        note.unwrap_or("")
    );
    let _ = writeln!(
        out,
        "<rect width=\"100%\" height=\"100%\" fill=\"{PAGE}\"/>"
    );

    // The cells.
    let _ = writeln!(
        out,
        "<g fill=\"{BACKGROUND}\" stroke=\"{GRID}\" stroke-width=\"{GRID_WIDTH}\" stroke-linejoin=\"round\">"
    );
    for c in 0..board.len() {
        polygon(&mut out, &layout, board, c);
    }
    out.push_str("</g>\n");
    if !highlight.is_empty() {
        let _ = writeln!(
            out,
            "<g class=\"highlight\" fill=\"{HIGHLIGHT}\" fill-opacity=\"0.45\">"
        );
        for &c in highlight.iter().filter(|&&c| c < board.len()) {
            polygon(&mut out, &layout, board, c);
        }
        out.push_str("</g>\n");
    }

    // The wrapping edges, under the pipes so a pipe crossing one stays whole.
    if note.is_some() {
        let _ = write!(
            out,
            "<path class=\"wrap\" fill=\"none\" stroke=\"{WRAP}\" stroke-width=\"{WRAP_WIDTH}\" stroke-dasharray=\"{} {}\" d=\"",
            WRAP_DASH[0], WRAP_DASH[1]
        );
        for c in 0..board.len() {
            for s in (0..k).filter(|&s| wraps_across(board, c, s)) {
                let ((x0, y0), (x1, y1)) = layout.edge(board, c, s);
                out.push('M');
                num(&mut out, x0);
                out.push(' ');
                num(&mut out, y0);
                out.push('L');
                num(&mut out, x1);
                out.push(' ');
                num(&mut out, y1);
            }
        }
        out.push_str("\"/>\n");
    }

    // The pipes: met connections, then unmet ones on top, one path each.
    let reach: Vec<Vec<String>> = layout
        .reach
        .iter()
        .map(|polygon| {
            polygon
                .iter()
                .map(|&(dx, dy)| {
                    let mut s = String::from("l");
                    num(&mut s, dx);
                    s.push(' ');
                    num(&mut s, dy);
                    s
                })
                .collect()
        })
        .collect();
    let _ = writeln!(
        out,
        "<g fill=\"none\" stroke-width=\"{PIPE_WIDTH}\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
    );
    for (colour, want_met) in [(PIPE, true), (LOOSE, false)] {
        let any = (0..board.len())
            .any(|c| (0..k).any(|s| masks[c] & (1 << s) != 0 && met(level, c, s) == want_met));
        if !any {
            continue;
        }
        let _ = write!(out, "<path stroke=\"{colour}\" d=\"");
        for (c, &m) in masks.iter().enumerate().filter(|&(_, &m)| m != 0) {
            let (x, y) = layout.centre(board, c);
            for (s, reach) in reach[board.cell_polygon(c)].iter().enumerate() {
                if m & (1 << s) != 0 && met(level, c, s) == want_met {
                    out.push('M');
                    num(&mut out, x);
                    out.push(' ');
                    num(&mut out, y);
                    out.push_str(reach);
                }
            }
        }
        out.push_str("\"/>\n");
    }
    out.push_str("</g>\n");

    // The discs of one-end pieces.
    if ends > 0 {
        let _ = writeln!(out, "<g fill=\"{END}\">");
        for c in (0..board.len()).filter(|&c| masks[c].count_ones() == 1) {
            let (x, y) = layout.centre(board, c);
            out.push_str("<circle cx=\"");
            num(&mut out, x);
            out.push_str("\" cy=\"");
            num(&mut out, y);
            let _ = writeln!(out, "\" r=\"{END_RADIUS}\"/>");
        }
        out.push_str("</g>\n");
    }

    if let Some(note) = note {
        let _ = writeln!(
            out,
            "<text x=\"{MARGIN}\" y=\"{}\" fill=\"{WRAP}\" font-family=\"sans-serif\" font-size=\"12\">{note}{LEGEND_TAIL}</text>",
            (board_h + LEGEND - 5.0).round()
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Tiling;

    fn level(tiling: Tiling, w: usize, h: usize, wrap: Wrap, masks: Vec<u8>) -> BoardLevel {
        BoardLevel::new(Board::new(tiling, w, h, wrap).unwrap(), masks).unwrap()
    }

    /// The `d` attribute of the path stroked in `colour`, or "" when there is none.
    fn path_of<'a>(svg: &'a str, colour: &str) -> &'a str {
        let key = format!("<path stroke=\"{colour}\" d=\"");
        svg.find(&key)
            .map(|at| {
                let rest = &svg[at + key.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .unwrap_or("")
    }

    fn polygons(svg: &str) -> Vec<Vec<(f64, f64)>> {
        svg.match_indices("<polygon points=\"")
            .map(|(at, key)| {
                let rest = &svg[at + key.len()..];
                rest[..rest.find('"').unwrap()]
                    .split(' ')
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_hexagonal_level_has_a_hexagon_per_cell_and_a_pipe_per_set_bit() {
        // 3x2: every shape of a few bits, nothing wrapped.
        let masks = vec![0b000001, 0b001001, 0b110100, 0, 0b111111, 0b100010];
        let bits: usize = masks.iter().map(|m: &u8| m.count_ones() as usize).sum();
        let l = level(Tiling::Hexagonal, 3, 2, Wrap::NONE, masks);
        let svg = board_svg(&l, &[]);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        let polys = polygons(&svg);
        assert_eq!(polys.len(), 6);
        for p in &polys {
            assert_eq!(p.len(), 6);
            // A regular hexagon: all six sides the same length (16 px / sqrt 3).
            for i in 0..6 {
                let (a, b) = (p[i], p[(i + 1) % 6]);
                let len = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                assert!((len - 16.0 / 3f64.sqrt()).abs() < 0.2, "{p:?}");
            }
        }
        let strokes =
            path_of(&svg, PIPE).matches('M').count() + path_of(&svg, LOOSE).matches('M').count();
        assert_eq!(strokes, bits);
        // One one-end piece, one disc.
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(!svg.contains("class=\"wrap\"") && !svg.contains("wraps"));
    }

    #[test]
    fn met_and_unmet_connections_take_their_colours() {
        // Cell 0 east meets cell 1 west; cell 1 east points off the board.
        let l = level(
            Tiling::Hexagonal,
            2,
            1,
            Wrap::NONE,
            vec![0b000001, 0b001001],
        );
        let svg = board_svg(&l, &[]);
        assert_eq!(path_of(&svg, PIPE).matches('M').count(), 2);
        assert_eq!(path_of(&svg, LOOSE).matches('M').count(), 1);
        // Cell 1 has a connection, but not on the side facing cell 0: both are unmet.
        let l = level(
            Tiling::Hexagonal,
            2,
            1,
            Wrap::NONE,
            vec![0b000001, 0b000010],
        );
        let svg = board_svg(&l, &[]);
        assert_eq!(path_of(&svg, PIPE), "");
        assert_eq!(path_of(&svg, LOOSE).matches('M').count(), 2);
    }

    #[test]
    fn a_pipe_reaches_the_middle_of_its_side() {
        for tiling in Tiling::ALL {
            let board = Board::new(tiling, 2, 2, Wrap::NONE).unwrap();
            let k = board.sides() as usize;
            let layout = Layout::of(&board);
            for s in 0..k {
                let c = layout.centre(&board, 3);
                let ((x0, y0), (x1, y1)) = layout.edge(&board, 3, s);
                let (dx, dy) = layout.reach(&board, 3)[s];
                let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                assert!((c.0 + dx - mx).abs() < 1e-9 && (c.1 + dy - my).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn wrapped_boards_mark_their_wrapping_edges_and_bounded_ones_do_not() {
        // A horizontal ring of two straights on a 2x1 square board wrapping left-right:
        // every connection is met, one of them across the wrapped edge.
        let horizontal = Wrap::from_name("horizontal").unwrap();
        let l = level(Tiling::Square, 2, 1, horizontal, vec![0b1010, 0b1010]);
        let svg = board_svg(&l, &[]);
        assert!(svg.contains("class=\"wrap\""));
        assert!(svg.contains("wraps left-right (dashed edges)</text>"));
        assert!(!svg.contains("top-bottom"));
        assert_eq!(path_of(&svg, LOOSE), "");
        // The left and right edges of the board are dashed, nothing else.
        let d = svg.split("class=\"wrap\"").nth(1).unwrap();
        let d = &d[d.find(" d=\"").unwrap() + 4..];
        let d = &d[..d.find('"').unwrap()];
        assert_eq!(d, "M4 20L4 4M36 4L36 20");
        // The pipe of cell 0 leaving west ends on the board's left edge (x = margin).
        assert!(path_of(&svg, PIPE).contains("M12 12l-8 0"), "{svg}");

        let bounded = level(Tiling::Square, 2, 1, Wrap::NONE, vec![0b1010, 0b1010]);
        let svg = board_svg(&bounded, &[]);
        assert!(!svg.contains("class=\"wrap\"") && !svg.contains("wraps"));
        assert_eq!(path_of(&svg, LOOSE).matches('M').count(), 2);

        // A hexagonal torus marks its rim on all four sides of the rectangle.
        let torus = level(Tiling::Hexagonal, 3, 4, Wrap::BOTH, vec![0; 12]);
        let svg = board_svg(&torus, &[]);
        assert!(svg.contains("wraps left-right and top-bottom"));
        let edges = svg.split("class=\"wrap\"").nth(1).unwrap();
        let edges = edges[..edges.find("/>").unwrap()].matches('M').count();
        // One dashed edge per side that wraps, and at least: each row's W edge at its first
        // cell and E edge at its last (8), the top row's NW and NE and the bottom row's SW
        // and SE on every cell (12).
        let board = torus.board();
        let expected: usize = (0..board.len())
            .map(|c| (0..6).filter(|&s| wraps_across(board, c, s)).count())
            .sum();
        assert_eq!(edges, expected);
        assert!(expected >= 2 * 4 + 2 * 2 * 3, "{expected}");
    }

    #[test]
    fn highlighted_cells_are_shaded_polygons() {
        let l = level(Tiling::Hexagonal, 2, 2, Wrap::NONE, vec![0; 4]);
        let svg = board_svg(&l, &[1, 3, 99]);
        let shaded = svg.split("class=\"highlight\"").nth(1).unwrap();
        let shaded = &shaded[..shaded.find("</g>").unwrap()];
        assert_eq!(shaded.matches("<polygon").count(), 2);
        assert_eq!(polygons(&svg).len(), 6);
    }

    #[test]
    fn numbers_are_written_to_a_tenth() {
        let mut s = String::new();
        for v in [0.0, 12.0, -6.928, 4.04, -0.01, 7.95] {
            num(&mut s, v);
            s.push(' ');
        }
        assert_eq!(s, "0 12 -6.9 4 0 8 ");
    }
}

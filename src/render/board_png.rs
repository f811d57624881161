//! PNG drawing of a level on any [`Board`] with tiny-skia: the picture of
//! [`super::board_svg`] (cell polygons, pipes, discs, dashed wrapping edges, shaded cells)
//! rasterised at the scale [`super::png::scale_for`] picks, so it is about 2048 pixels on its
//! long side. The legend text of the SVG is left out (tiny-skia draws no text); the dashed
//! edges still show where the board wraps.

use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform,
};

use super::board_svg::{
    GRID, GRID_WIDTH, Layout, PAGE, WRAP, WRAP_DASH, WRAP_WIDTH, met, wraps_across,
};
use super::png::{MAX_SIDE, scale_for};
use super::svg::{BACKGROUND, CELL, END, END_RADIUS, HIGHLIGHT, LOOSE, PIPE, PIPE_WIDTH};
use crate::board::{Board, BoardLevel};

/// Cells per path handed to the rasteriser, to bound its temporary memory.
const CHUNK: usize = 2048;
/// Below this many pixels per cell the outlines would only darken the picture.
const MIN_OUTLINE_PX: usize = 8;

fn rgb(hex: &str, alpha: f32) -> Color {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
    let mut c = Color::from_rgba8((v >> 16) as u8, (v >> 8) as u8, v as u8, 255);
    c.set_alpha(alpha);
    c
}

fn paint(hex: &str, alpha: f32) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(rgb(hex, alpha));
    p.anti_alias = true;
    p
}

/// Pixels per cell for `board` (by its drawn extent), or `None` when the picture would be
/// more than [`MAX_SIDE`] pixels on a side.
fn scale_of(board: &Board) -> Option<usize> {
    let (x0, y0, x1, y1) = board.extent();
    scale_for((y1 - y0).ceil() as usize, (x1 - x0).ceil() as usize)
}

/// The PNG file bytes for `level`, with the cells of `highlight` (indices into the board's
/// cells; those past the board are ignored) shaded under the pipes. Fails when the picture
/// would exceed [`MAX_SIDE`] pixels on a side (the SVG has no such limit).
pub fn board_png(level: &BoardLevel, highlight: &[usize]) -> Result<Vec<u8>, String> {
    let board = level.board();
    let px = scale_of(board).ok_or_else(|| {
        format!(
            "the level is {}x{} {} cells, too large for a PNG (at most about {} cells on a side); \
             render it as .svg",
            board.width(),
            board.height(),
            board.tiling().name(),
            MAX_SIDE / 2
        )
    })?;
    let pixmap = rasterise(level, highlight, px).ok_or("cannot allocate the picture")?;
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// Adds the polygon of each of `cells` to a path and hands it to `draw`, [`CHUNK`] at a time.
fn polygons(
    board: &Board,
    layout: &Layout,
    cells: impl Iterator<Item = usize>,
    mut draw: impl FnMut(&tiny_skia::Path),
) {
    let mut pb = PathBuilder::new();
    let mut n = 0;
    for c in cells {
        let (x, y) = layout.centre(board, c);
        for (i, &(dx, dy)) in layout.corners(board, c).iter().enumerate() {
            let (px, py) = ((x + dx) as f32, (y + dy) as f32);
            if i == 0 {
                pb.move_to(px, py);
            } else {
                pb.line_to(px, py);
            }
        }
        pb.close();
        n += 1;
        if n == CHUNK {
            if let Some(path) = std::mem::take(&mut pb).finish() {
                draw(&path);
            }
            n = 0;
        }
    }
    if let Some(path) = pb.finish() {
        draw(&path);
    }
}

/// Adds a segment per item of `segments` and strokes them, [`CHUNK`] at a time.
fn segments(
    items: impl Iterator<Item = ((f64, f64), (f64, f64))>,
    mut draw: impl FnMut(&tiny_skia::Path),
) {
    let mut pb = PathBuilder::new();
    let mut n = 0;
    for ((x0, y0), (x1, y1)) in items {
        pb.move_to(x0 as f32, y0 as f32);
        pb.line_to(x1 as f32, y1 as f32);
        n += 1;
        if n == CHUNK {
            if let Some(path) = std::mem::take(&mut pb).finish() {
                draw(&path);
            }
            n = 0;
        }
    }
    if let Some(path) = pb.finish() {
        draw(&path);
    }
}

fn rasterise(level: &BoardLevel, highlight: &[usize], px: usize) -> Option<Pixmap> {
    let board = level.board();
    let masks = level.masks();
    let k = board.sides() as usize;
    let layout = Layout::of(board);
    // Drawn in the SVG's pixels, scaled to `px` per cell.
    let scale = px as f32 / CELL as f32;
    let t = Transform::from_scale(scale, scale);
    let (w, h) = (
        (layout.size.0 * scale as f64).ceil() as u32,
        (layout.size.1 * scale as f64).ceil() as u32,
    );
    let mut pixmap = Pixmap::new(w, h)?;
    pixmap.fill(rgb(PAGE, 1.0));

    let tile = paint(BACKGROUND, 1.0);
    let grid = paint(GRID, 1.0);
    let outline = Stroke {
        width: GRID_WIDTH,
        line_join: LineJoin::Round,
        ..Stroke::default()
    };
    polygons(board, &layout, 0..board.len(), |path| {
        pixmap.fill_path(path, &tile, FillRule::Winding, t, None);
        if px >= MIN_OUTLINE_PX {
            pixmap.stroke_path(path, &grid, &outline, t, None);
        }
    });
    let mark = paint(HIGHLIGHT, 0.45);
    let shaded = highlight.iter().copied().filter(|&c| c < board.len());
    polygons(board, &layout, shaded, |path| {
        pixmap.fill_path(path, &mark, FillRule::Winding, t, None);
    });

    if board.wrap().any() {
        let dashed = Stroke {
            width: WRAP_WIDTH,
            dash: StrokeDash::new(WRAP_DASH.to_vec(), 0.0),
            ..Stroke::default()
        };
        let colour = paint(WRAP, 1.0);
        let edges = (0..board.len()).flat_map(|c| {
            let layout = &layout;
            (0..k)
                .filter(move |&s| wraps_across(board, c, s))
                .map(move |s| layout.edge(board, c, s))
        });
        segments(edges, |path| {
            pixmap.stroke_path(path, &colour, &dashed, t, None);
        });
    }

    let pipe = Stroke {
        width: PIPE_WIDTH,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    };
    for (colour, want_met) in [(PIPE, true), (LOOSE, false)] {
        let colour = paint(colour, 1.0);
        let strokes = (0..board.len()).flat_map(|c| {
            let layout = &layout;
            let (x, y) = layout.centre(board, c);
            (0..k)
                .filter(move |&s| masks[c] & (1 << s) != 0 && met(level, c, s) == want_met)
                .map(move |s| {
                    let (dx, dy) = layout.reach(board, c)[s];
                    ((x, y), (x + dx, y + dy))
                })
        });
        segments(strokes, |path| {
            pixmap.stroke_path(path, &colour, &pipe, t, None);
        });
    }

    let end = paint(END, 1.0);
    let mut pb = PathBuilder::new();
    let mut n = 0;
    for c in (0..board.len()).filter(|&c| masks[c].count_ones() == 1) {
        let (x, y) = layout.centre(board, c);
        pb.push_circle(x as f32, y as f32, END_RADIUS);
        n += 1;
        if n == CHUNK {
            if let Some(path) = std::mem::take(&mut pb).finish() {
                pixmap.fill_path(&path, &end, FillRule::Winding, t, None);
            }
            n = 0;
        }
    }
    if let Some(path) = pb.finish() {
        pixmap.fill_path(&path, &end, FillRule::Winding, t, None);
    }
    Some(pixmap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Tiling, Wrap};

    fn level(tiling: Tiling, w: usize, h: usize, wrap: Wrap, masks: Vec<u8>) -> BoardLevel {
        BoardLevel::new(Board::new(tiling, w, h, wrap).unwrap(), masks).unwrap()
    }

    /// Width and height from the PNG's IHDR chunk.
    fn png_size(bytes: &[u8]) -> (u32, u32) {
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&bytes[12..16], b"IHDR");
        let be = |b: &[u8]| u32::from_be_bytes(b.try_into().unwrap());
        (be(&bytes[16..20]), be(&bytes[20..24]))
    }

    fn at(pm: &Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
        let p = pm.pixel(x, y).unwrap();
        (p.red(), p.green(), p.blue())
    }

    #[test]
    fn the_png_of_a_hexagonal_level_has_the_expected_size() {
        let l = level(
            Tiling::Hexagonal,
            3,
            2,
            Wrap::NONE,
            vec![1, 9, 0, 0, 63, 34],
        );
        let bytes = board_png(&l, &[2]).unwrap();
        // 3.5 x 2.02 cells, four cells on the long side: 32 px per cell, 64 px of margin
        // (4 px each side in 16-px cells, doubled): (3.5 * 32 + 16) x (2.0207 * 32 + 16).
        assert_eq!(png_size(&bytes), (128, 81));

        let square = level(Tiling::Square, 5, 2, Wrap::BOTH, vec![0; 10]);
        assert_eq!(png_size(&board_png(&square, &[]).unwrap()), (176, 80));
    }

    #[test]
    fn pipes_cells_and_page_have_their_colours() {
        // Cell 0 E meets cell 1 W on a bounded 2x1 hexagonal board.
        let l = level(Tiling::Hexagonal, 2, 1, Wrap::NONE, vec![1, 8]);
        let pm = rasterise(&l, &[], 32).unwrap();
        let board = l.board();
        let layout = Layout::of(board);
        let (x0, y) = layout.centre(board, 0);
        let (x1, _) = layout.centre(board, 1);
        // Halfway between the centres, on the pipe (twice the SVG's pixels).
        assert_eq!(
            at(&pm, (x0 + x1) as u32, (2.0 * y) as u32),
            (0xe6, 0xed, 0xf5)
        );
        // Near the top of cell 0, no pipe: the tile colour.
        assert_eq!(
            at(&pm, (2.0 * x0) as u32, (2.0 * y) as u32 - 12),
            (0x1b, 0x23, 0x30)
        );
        // The top-left corner is outside every hexagon: the page.
        assert_eq!(at(&pm, 1, 1), (0x10, 0x15, 0x1d));
        // The discs of the two one-end pieces sit on their centres.
        assert_eq!(
            at(&pm, (2.0 * x0) as u32, (2.0 * y) as u32),
            (0x7c, 0xc4, 0xfa)
        );
    }

    #[test]
    fn a_wrapped_edge_is_dashed_and_a_highlight_shades_its_cell() {
        let horizontal = Wrap::from_name("horizontal").unwrap();
        let l = level(Tiling::Square, 2, 1, horizontal, vec![0, 0]);
        let pm = rasterise(&l, &[1], 32).unwrap();
        // Along the left edge (x = 4 px in the SVG, 8 here): some pixels are the wrap colour.
        let wrap = (8..40)
            .filter(|&y| at(&pm, 8, y) == (0xd9, 0x8c, 0xff))
            .count();
        assert!(wrap > 4, "{wrap}");
        // A bounded board has none.
        let b = level(Tiling::Square, 2, 1, Wrap::NONE, vec![0, 0]);
        let pb = rasterise(&b, &[], 32).unwrap();
        assert!((0..48).all(|y| at(&pb, 8, y) != (0xd9, 0x8c, 0xff)));
        // The highlighted cell 1 is orange-tinted, cell 0 is not.
        let (r1, _, _) = at(&pm, 56, 20);
        let (r0, _, _) = at(&pm, 24, 20);
        assert!(r1 > 0x60 && r0 == 0x1b, "{r1:x} {r0:x}");
    }

    #[test]
    fn a_level_too_wide_for_a_png_is_refused() {
        let l = level(Tiling::Hexagonal, 9000, 1, Wrap::NONE, vec![0; 9000]);
        let e = board_png(&l, &[]).unwrap_err();
        assert!(e.contains("too large") && e.contains(".svg"), "{e}");
    }
}

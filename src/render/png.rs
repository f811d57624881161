//! PNG drawing of a level with tiny-skia (pure Rust): the same strokes and colours as the SVG,
//! scaled so the picture is about 2048 pixels on its long side.

use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, Transform,
};

use super::geometry::{Drawing, drawing};
use super::svg::{BACKGROUND, CELL, END, END_RADIUS, LOOSE, PIPE, PIPE_WIDTH};
use crate::model::Game;

/// Largest side of the picture in pixels: beyond it a PNG is not a sensible way to look at a
/// level (the SVG has no such limit).
pub const MAX_SIDE: usize = 16384;
/// The picture aims at this many pixels on its long side.
const TARGET_SIDE: usize = 2048;
/// Strokes per path handed to the rasteriser, to bound its temporary memory.
const CHUNK: usize = 4096;

fn rgb(hex: &str) -> Color {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
    Color::from_rgba8((v >> 16) as u8, (v >> 8) as u8, v as u8, 255)
}

fn paint(hex: &str) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(rgb(hex));
    p.anti_alias = true;
    p
}

/// Pixels per cell for a level of `height` x `width`, or `None` when even the smallest scale
/// exceeds [`MAX_SIDE`].
pub fn scale_for(height: usize, width: usize) -> Option<usize> {
    let long = height.max(width);
    let px = (TARGET_SIDE / long).clamp(2, 32);
    (long * px <= MAX_SIDE).then_some(px)
}

/// The PNG file bytes for `game`.
pub fn png(game: &Game) -> Result<Vec<u8>, String> {
    let d = drawing(game);
    let px = scale_for(d.height, d.width).ok_or_else(|| {
        format!(
            "the level is {}x{} cells, too large for a PNG (at most {} cells on a side); render it as .svg",
            d.width,
            d.height,
            MAX_SIDE / 2
        )
    })?;
    let pixmap = rasterise(&d, px).ok_or("cannot allocate the picture")?;
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// The PNG for `game` with `cells` (row-major indices) shaded, for `--explain`.
pub fn png_highlight(game: &Game, cells: &[usize]) -> Result<Vec<u8>, String> {
    let d = drawing(game);
    let px = scale_for(d.height, d.width)
        .ok_or("the level is too large for a PNG; render it as .svg")?;
    let mut pixmap = rasterise(&d, px).ok_or("cannot allocate the picture")?;
    let mut mark = paint(super::svg::HIGHLIGHT);
    mark.shader = tiny_skia::Shader::SolidColor({
        let mut c = rgb(super::svg::HIGHLIGHT);
        c.set_alpha(0.45);
        c
    });
    let w = game.width().max(1);
    for &c in cells {
        let (x, y) = ((c % w * px) as f32, (c / w * px) as f32);
        if let Some(r) = tiny_skia::Rect::from_xywh(x, y, px as f32, px as f32) {
            pixmap.fill_rect(r, &mark, Transform::identity(), None);
        }
    }
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

fn rasterise(d: &Drawing, px: usize) -> Option<Pixmap> {
    let mut pixmap = Pixmap::new((d.width * px) as u32, (d.height * px) as u32)?;
    pixmap.fill(rgb(BACKGROUND));
    // Same proportions as the SVG, whose cell is CELL pixels.
    let k = px as f32 / CELL as f32;
    let half = px as f32 / 2.0;
    let stroke = Stroke {
        width: PIPE_WIDTH * k,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    };
    for (strokes, colour) in [(&d.pipes, PIPE), (&d.loose, LOOSE)] {
        let paint = paint(colour);
        for chunk in strokes.chunks(CHUNK) {
            let mut pb = PathBuilder::new();
            for s in chunk {
                pb.move_to(s.x0 as f32 * half, s.y0 as f32 * half);
                pb.line_to(s.x1 as f32 * half, s.y1 as f32 * half);
            }
            if let Some(path) = pb.finish() {
                pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
            }
        }
    }
    let paint = paint(END);
    for chunk in d.ends.chunks(CHUNK) {
        let mut pb = PathBuilder::new();
        for &(x, y) in chunk {
            pb.push_circle(x as f32 * half, y as f32 * half, END_RADIUS * k);
        }
        if let Some(path) = pb.finish() {
            pixmap.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    Some(pixmap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_level;

    #[test]
    fn scale_shrinks_with_the_level_and_refuses_huge_ones() {
        assert_eq!(scale_for(16, 16), Some(32));
        assert_eq!(scale_for(256, 128), Some(8));
        assert_eq!(scale_for(1, 8192), Some(2));
        assert_eq!(scale_for(1, 8193), None);
    }

    #[test]
    fn the_png_has_the_expected_size_and_pipe_pixels() {
        // Q east, I horizontal, Q west: one horizontal pipe across the middle.
        let g = parse_level("t", b"1\n3\n1 1\n2 1\n1 3\n").unwrap();
        let bytes = png(&g).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        let d = drawing(&g);
        let pm = rasterise(&d, 32).unwrap();
        assert_eq!((pm.width(), pm.height()), (96, 32));
        let at = |x: u32, y: u32| {
            let p = pm.pixel(x, y).unwrap();
            (p.red(), p.green(), p.blue())
        };
        // The middle of the pipe is pipe-coloured; a corner is background.
        assert_eq!(at(48, 16), (0xe6, 0xed, 0xf5));
        assert_eq!(at(1, 1), (0x1b, 0x23, 0x30));
    }
}

//! SVG drawing of a level: pipes as round-capped strokes on a dark tile, small discs for the
//! one-end pieces, unmet connections in red. Vector output, so a 256x256 level stays sharp
//! when zoomed.

use std::fmt::Write;

use super::geometry::{Drawing, Stroke, drawing};
use crate::model::Game;

/// Pixels per cell at 100 % zoom; a half cell is `CELL / 2`.
pub const CELL: usize = 16;
/// Fill of the tiles behind the level.
pub const BACKGROUND: &str = "#1b2330";
/// Colour of connections that meet.
pub const PIPE: &str = "#e6edf5";
/// Colour of unmet connections (the level is not solved there).
pub const LOOSE: &str = "#ff6b6b";
/// Colour of the end discs of one-connection pieces.
pub const END: &str = "#7cc4fa";
/// Stroke width and end-disc radius, in pixels at 100 % zoom.
pub const PIPE_WIDTH: f32 = 5.0;
/// Radius of the end discs, in pixels at 100 % zoom.
pub const END_RADIUS: f32 = 4.5;

fn path_data(strokes: &[Stroke]) -> String {
    let half = CELL / 2;
    let mut d = String::with_capacity(strokes.len() * 14);
    for s in strokes {
        let (x0, y0) = (s.x0 * half, s.y0 * half);
        if s.y0 == s.y1 {
            let _ = write!(d, "M{x0} {y0}H{}", s.x1 * half);
        } else {
            let _ = write!(d, "M{x0} {y0}V{}", s.y1 * half);
        }
    }
    d
}

/// The SVG document for `game`.
pub fn svg(game: &Game) -> String {
    svg_of(&drawing(game))
}

/// Fill of the cells `--explain` highlights (drawn under the pipes).
pub const HIGHLIGHT: &str = "#f5a623";

/// The SVG document for `game` with `cells` (row-major indices) shaded, for `--explain`.
pub fn svg_highlight(game: &Game, cells: &[usize]) -> String {
    let mut out = svg(game);
    let mut marks = String::with_capacity(cells.len() * 64);
    let w = game.width().max(1);
    for &c in cells {
        let _ = writeln!(
            marks,
            "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{HIGHLIGHT}\" fill-opacity=\"0.45\"/>",
            (c % w) * CELL,
            (c / w) * CELL
        );
    }
    // After the background rectangle, before the pipes.
    if let Some(at) = out.find("<g ") {
        out.insert_str(at, &marks);
    }
    out
}

fn svg_of(d: &Drawing) -> String {
    let (w, h) = (d.width * CELL, d.height * CELL);
    let half = CELL / 2;
    let mut out = String::with_capacity(256 + d.pipes.len() * 14 + d.ends.len() * 40);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{w}\" height=\"{h}\" fill=\"{BACKGROUND}\"/>"
    );
    let _ = writeln!(
        out,
        "<g fill=\"none\" stroke-width=\"{PIPE_WIDTH}\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
    );
    if !d.pipes.is_empty() {
        let _ = writeln!(
            out,
            "<path stroke=\"{PIPE}\" d=\"{}\"/>",
            path_data(&d.pipes)
        );
    }
    if !d.loose.is_empty() {
        let _ = writeln!(
            out,
            "<path stroke=\"{LOOSE}\" d=\"{}\"/>",
            path_data(&d.loose)
        );
    }
    out.push_str("</g>\n");
    if !d.ends.is_empty() {
        let _ = writeln!(out, "<g fill=\"{END}\">");
        for &(x, y) in &d.ends {
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{END_RADIUS}\"/>",
                x * half,
                y * half
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

//! SVG drawing of a level: pipes as round-capped strokes on a dark tile, small discs for the
//! one-end pieces, unmet connections in red. Vector output, so a 256x256 level stays sharp
//! when zoomed.

use std::fmt::Write;

use super::geometry::{Drawing, Stroke, column_half, drawing, row_half, scan_line};
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

/// Writes [`svg`]'s document for `game` to `out` as it is made, without the drawing or the
/// text in memory (8192x8192 took 8.1 GB that way): the connections that meet, then the
/// unmet ones, then the end discs, each a scan over the grid. `Ok(false)` when `cancel` was
/// raised (read every few rows).
pub fn write_svg(
    game: &Game,
    out: &mut dyn std::io::Write,
    cancel: &std::sync::atomic::AtomicBool,
) -> std::io::Result<bool> {
    let (h, w) = (game.height(), game.width());
    let mut text = String::with_capacity(1 << 20);
    let (pw, ph) = (w * CELL, h * CELL);
    let _ = writeln!(
        text,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{pw}\" height=\"{ph}\" viewBox=\"0 0 {pw} {ph}\">"
    );
    let _ = writeln!(
        text,
        "<rect width=\"{pw}\" height=\"{ph}\" fill=\"{BACKGROUND}\"/>"
    );
    let _ = writeln!(
        text,
        "<g fill=\"none\" stroke-width=\"{PIPE_WIDTH}\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
    );
    let cells = game.cells();
    let mask = |r: usize, c: usize| cells[r * w + c].mask();
    let half = CELL / 2;
    for (met, colour) in [(true, PIPE), (false, LOOSE)] {
        // The path element opens with its first stroke: none is written for no strokes.
        let mut opened = false;
        let mut stroke = |text: &mut String, s: Stroke| {
            if !opened {
                let _ = write!(text, "<path stroke=\"{colour}\" d=\"");
                opened = true;
            }
            let (x0, y0) = (s.x0 * half, s.y0 * half);
            if s.y0 == s.y1 {
                let _ = write!(text, "M{x0} {y0}H{}", s.x1 * half);
            } else {
                let _ = write!(text, "M{x0} {y0}V{}", s.y1 * half);
            }
        };
        for r in 0..h {
            let y = 2 * r + 1;
            scan_line(
                2 * w,
                |k| row_half(cells, w, r, k),
                |a, b, m| {
                    if m == met {
                        let s = Stroke {
                            x0: a,
                            y0: y,
                            x1: b,
                            y1: y,
                        };
                        stroke(&mut text, s);
                    }
                },
            );
            if !flush(out, &mut text, r, cancel)? {
                return Ok(false);
            }
        }
        for c in 0..w {
            let x = 2 * c + 1;
            scan_line(
                2 * h,
                |k| column_half(cells, w, h, c, k),
                |a, b, m| {
                    if m == met {
                        let s = Stroke {
                            x0: x,
                            y0: a,
                            x1: x,
                            y1: b,
                        };
                        stroke(&mut text, s);
                    }
                },
            );
            if !flush(out, &mut text, c, cancel)? {
                return Ok(false);
            }
        }
        if opened {
            text.push_str("\"/>\n");
        }
    }
    text.push_str("</g>\n");
    let mut any_end = false;
    for r in 0..h {
        for c in 0..w {
            if mask(r, c).count_ones() == 1 {
                if !any_end {
                    let _ = writeln!(text, "<g fill=\"{END}\">");
                    any_end = true;
                }
                let _ = writeln!(
                    text,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{END_RADIUS}\"/>",
                    (2 * c + 1) * half,
                    (2 * r + 1) * half
                );
            }
        }
        if !flush(out, &mut text, r, cancel)? {
            return Ok(false);
        }
    }
    if any_end {
        text.push_str("</g>\n");
    }
    text.push_str("</svg>\n");
    out.write_all(text.as_bytes())?;
    Ok(true)
}

/// Writes `text` out once it holds a mebibyte; every 64 lines, `Ok(false)` if `cancel` is up.
fn flush(
    out: &mut dyn std::io::Write,
    text: &mut String,
    line: usize,
    cancel: &std::sync::atomic::AtomicBool,
) -> std::io::Result<bool> {
    if text.len() >= 1 << 20 {
        out.write_all(text.as_bytes())?;
        text.clear();
    }
    Ok(!line.is_multiple_of(64) || !cancel.load(std::sync::atomic::Ordering::Relaxed))
}

#[cfg(test)]
mod streaming_tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, generate};

    #[test]
    fn the_streamed_svg_is_the_document_byte_for_byte() {
        for (seed, family, (h, w)) in [
            (1, Family::Random, (40, 300)),
            (2, Family::Dominoes, (300, 40)),
            (3, Family::Loops, (1, 1)),
            (4, Family::Mixed, (64, 64)),
        ] {
            let mut o = GenerateOptions::new(h, w, seed);
            o.family = family;
            let game = generate(&o);
            let mut streamed = Vec::new();
            let done = write_svg(
                &game,
                &mut streamed,
                &std::sync::atomic::AtomicBool::new(false),
            );
            assert!(done.unwrap());
            assert!(streamed == svg(&game).into_bytes(), "seed {seed}");
        }
        // A raised flag stops it.
        let game = generate(&GenerateOptions::new(8, 8, 1));
        let up = std::sync::atomic::AtomicBool::new(true);
        assert!(!write_svg(&game, &mut Vec::new(), &up).unwrap());
    }
}

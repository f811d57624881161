//! The comparison as an SVG chart: time against cell count, both on log scales, one colour per
//! column, with each column's median per size joined by a line (as the course report's solver
//! benchmark figure does). A proof of "no solution" is a hollow dot; a run that hit the time
//! limit sits on the dashed limit line as a triangle; a wrong or failed run is a cross above
//! it, so no bad run can pass for a fast one.

use std::fmt::Write;
use std::time::Duration;

use super::{Row, RunResult};

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 500.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 60.0;

/// Colour-blind-safe palette (Okabe–Ito), then greys for many columns.
const COLOURS: &[&str] = &[
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
];

/// A log-scale axis between two powers of ten.
struct Axis {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
}

impl Axis {
    /// Powers of ten around `[min, max]` (both > 0), drawn between pixels `from` and `to`.
    fn new(min: f64, max: f64, from: f64, to: f64) -> Axis {
        let lo = min.log10().floor();
        let hi = max.log10().ceil().max(lo + 1.0);
        Axis { lo, hi, from, to }
    }

    fn at(&self, v: f64) -> f64 {
        let t = (v.log10() - self.lo) / (self.hi - self.lo);
        self.from + t * (self.to - self.from)
    }

    fn decades(&self) -> impl Iterator<Item = f64> {
        (self.lo as i32..=self.hi as i32).map(|e| 10f64.powi(e))
    }
}

/// A number of a decade's label: `1`, `10`, `0.1`, `1e6`.
fn decade_label(v: f64) -> String {
    if (1e-3..1e5).contains(&v) {
        let s = format!("{v}");
        s.trim_end_matches(".0").to_string()
    } else {
        format!("1e{}", v.log10().round() as i32)
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart of `rows` (one result per entry of `columns`) with `limit` the time limit.
pub fn svg(rows: &[Row], columns: &[String], limit: Duration) -> String {
    let limit_ms = (limit.as_secs_f64() * 1e3).max(1e-3);
    let cells = |r: &Row| (r.width * r.height).max(1) as f64;
    let min_cells = rows.iter().map(cells).fold(f64::INFINITY, f64::min);
    let max_cells = rows.iter().map(cells).fold(0.0, f64::max);
    let (min_cells, max_cells) = if rows.is_empty() {
        (1.0, 10.0)
    } else {
        (min_cells, max_cells)
    };
    let times = rows.iter().flat_map(|r| &r.runs).filter_map(time_ms);
    let min_ms = times.fold(limit_ms, f64::min).max(1e-3);
    let x = Axis::new(min_cells, max_cells, LEFT, WIDTH - RIGHT);
    // Room above the limit line for the crosses of bad runs.
    let y = Axis::new(min_ms, limit_ms * 3.0, HEIGHT - BOTTOM, TOP);

    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="#ffffff"/>
"##
    );
    axes(&mut out, &x, &y);
    let limit_y = y.at(limit_ms);
    let _ = writeln!(
        out,
        r##"<line x1="{LEFT}" y1="{limit_y:.1}" x2="{:.1}" y2="{limit_y:.1}" stroke="#888" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}" fill="#555">time limit {:.1} s</text>"##,
        WIDTH - RIGHT,
        LEFT + 4.0,
        limit_y - 4.0,
        limit.as_secs_f64()
    );
    let bad_y = y.at(limit_ms * 2.0);
    for (c, name) in columns.iter().enumerate() {
        let colour = COLOURS[c % COLOURS.len()];
        median_line(&mut out, rows, c, colour, &x, &y);
        // Columns side by side at one size, so equal times stay visible.
        let shift = (c as f64 - (columns.len() as f64 - 1.0) / 2.0) * 3.0;
        for row in rows {
            let Some(run) = row.runs.get(c) else { continue };
            let px = x.at(cells(row)) + shift;
            marker(&mut out, run, px, colour, &y, limit_y, bad_y);
        }
        legend(&mut out, c, name, colour);
    }
    key(&mut out, columns.len());
    out.push_str("</svg>\n");
    out
}

/// Milliseconds of a run that gave an accepted answer.
fn time_ms(run: &RunResult) -> Option<f64> {
    match run {
        RunResult::Solved(d) | RunResult::NoSolution(d) => Some(d.as_secs_f64() * 1e3),
        _ => None,
    }
}

fn axes(out: &mut String, x: &Axis, y: &Axis) {
    let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
    for v in x.decades() {
        let px = x.at(v);
        let _ = writeln!(
            out,
            r##"<line x1="{px:.1}" y1="{y0}" x2="{px:.1}" y2="{y1}" stroke="#eee"/><text x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            y0 + 16.0,
            decade_label(v)
        );
    }
    for v in y.decades() {
        let py = y.at(v);
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" y1="{py:.1}" x2="{x1}" y2="{py:.1}" stroke="#eee"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            x0 - 6.0,
            py + 4.0,
            decade_label(v)
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{x0}" y="{y1}" width="{:.1}" height="{:.1}" fill="none" stroke="#333"/>
<text x="{:.1}" y="{:.1}" text-anchor="middle">cells (log scale)</text>
<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">time, ms (log scale)</text>"##,
        x1 - x0,
        y0 - y1,
        (x0 + x1) / 2.0,
        HEIGHT - 18.0,
        (y0 + y1) / 2.0
    );
}

/// The column's median time per cell count, joined in order of size.
fn median_line(out: &mut String, rows: &[Row], c: usize, colour: &str, x: &Axis, y: &Axis) {
    let mut by_size: Vec<(usize, f64)> = rows
        .iter()
        .filter_map(|r| Some((r.width * r.height, time_ms(r.runs.get(c)?)?)))
        .collect();
    by_size.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut points = Vec::new();
    for group in by_size.chunk_by(|a, b| a.0 == b.0) {
        let median = group[group.len() / 2].1.max(1e-3);
        points.push(format!(
            "{:.1},{:.1}",
            x.at(group[0].0.max(1) as f64),
            y.at(median)
        ));
    }
    if points.len() > 1 {
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.5" opacity="0.7"/>"#,
            points.join(" ")
        );
    }
}

fn marker(
    out: &mut String,
    run: &RunResult,
    px: f64,
    colour: &str,
    y: &Axis,
    limit_y: f64,
    bad_y: f64,
) {
    let _ = match run {
        RunResult::Solved(d) => writeln!(
            out,
            r#"<circle cx="{px:.1}" cy="{:.1}" r="3.5" fill="{colour}"/>"#,
            y.at((d.as_secs_f64() * 1e3).max(1e-3))
        ),
        RunResult::NoSolution(d) => writeln!(
            out,
            r#"<circle cx="{px:.1}" cy="{:.1}" r="3.5" fill="none" stroke="{colour}" stroke-width="1.5"/>"#,
            y.at((d.as_secs_f64() * 1e3).max(1e-3))
        ),
        RunResult::TimedOut => writeln!(
            out,
            r#"<path d="M{:.1},{:.1} l4,7 h-8 z" fill="{colour}"/>"#,
            px,
            limit_y - 3.5
        ),
        RunResult::NotApplicable => Ok(()),
        RunResult::Wrong(_) | RunResult::Failed(_) => writeln!(
            out,
            r#"<path d="M{:.1},{:.1} l8,8 m0,-8 l-8,8" stroke="{colour}" stroke-width="2"/>"#,
            px - 4.0,
            bad_y - 4.0
        ),
    };
}

fn legend(out: &mut String, c: usize, name: &str, colour: &str) {
    let lx = WIDTH - RIGHT + 16.0;
    let ly = TOP + 14.0 + 20.0 * c as f64;
    let _ = writeln!(
        out,
        r#"<circle cx="{lx:.1}" cy="{:.1}" r="4" fill="{colour}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
        ly - 4.0,
        lx + 10.0,
        ly,
        escape(name)
    );
}

/// What the markers mean, under the column names.
fn key(out: &mut String, columns: usize) {
    let lx = WIDTH - RIGHT + 16.0;
    let top = TOP + 20.0 * columns as f64 + 24.0;
    let lines = [
        (
            r##"<circle cx="0" cy="-4" r="3.5" fill="#555"/>"##,
            "solved",
        ),
        (
            r##"<circle cx="0" cy="-4" r="3.5" fill="none" stroke="#555" stroke-width="1.5"/>"##,
            "no solution",
        ),
        (
            r##"<path d="M0,-7.5 l4,7 h-8 z" fill="#555"/>"##,
            "time limit",
        ),
        (
            r##"<path d="M-4,-8 l8,8 m0,-8 l-8,8" stroke="#555" stroke-width="2"/>"##,
            "wrong or failed",
        ),
    ];
    for (i, (shape, text)) in lines.iter().enumerate() {
        let ly = top + 18.0 * i as f64;
        let _ = writeln!(
            out,
            r##"<g transform="translate({lx:.1} {ly:.1})">{shape}</g><text x="{:.1}" y="{ly:.1}" fill="#555">{text}</text>"##,
            lx + 10.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(w: usize, runs: Vec<RunResult>) -> Row {
        Row {
            file: format!("{w}.txt"),
            width: w,
            height: w,
            family: "-".into(),
            runs,
        }
    }

    #[test]
    fn every_run_gets_its_own_marker() {
        let ms = Duration::from_millis;
        let rows = vec![
            row(8, vec![RunResult::Solved(ms(1)), RunResult::TimedOut]),
            row(
                64,
                vec![RunResult::NoSolution(ms(30)), RunResult::Wrong("x".into())],
            ),
            row(
                64,
                vec![RunResult::Solved(ms(20)), RunResult::Failed("y".into())],
            ),
        ];
        let cols = vec!["auto".to_string(), "other<&>".to_string()];
        let s = svg(&rows, &cols, Duration::from_secs(2));
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
        assert_eq!(
            s.matches(r##"r="3.5" fill="#0072B2""##).count(),
            2,
            "solved dots"
        );
        assert_eq!(
            s.matches(r##"r="3.5" fill="none" stroke="#0072B2""##)
                .count(),
            1
        );
        // The key under the legend draws one of each shape too.
        assert_eq!(
            s.matches("l4,7 h-8 z").count(),
            1 + 1,
            "one time-out triangle"
        );
        assert_eq!(
            s.matches("l8,8 m0,-8").count(),
            2 + 1,
            "wrong and failed crosses"
        );
        assert!(s.contains("other&lt;&amp;&gt;"), "names are escaped");
        assert_eq!(s.matches("<polyline").count(), 1, "auto has two sizes");
    }

    #[test]
    fn a_slower_run_is_drawn_higher() {
        let y = Axis::new(0.1, 1000.0, 400.0, 0.0);
        assert!(y.at(10.0) < y.at(1.0));
        assert_eq!(decade_label(0.1), "0.1");
        assert_eq!(decade_label(1e6), "1e6");
        assert_eq!(decade_label(100.0), "100");
    }
}

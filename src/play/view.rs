//! Draws one frame of the game: a title line, the grid in a frame, a status line and the keys.
//!
//! Each cell takes two columns — its glyph, then a connector to its east neighbour (a full
//! line when both connect, a half line when only one does) — so cells look about square and
//! horizontal mismatches show. A grid larger than the screen scrolls to keep the cursor
//! visible; the frame's title then says which rows and columns are shown.

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::state::{Play, SPEEDS, SolvedBy};
use crate::model::PieceKind;
use crate::render::glyphs::{connector, glyph};

/// Where the visible part of the grid sits on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// Screen position of the top-left visible cell's glyph.
    pub x: u16,
    /// Screen row of the top-left visible cell's glyph.
    pub y: u16,
    /// Visible rows and columns of cells.
    pub rows: usize,
    /// Visible columns of cells.
    pub cols: usize,
    /// Grid position of the top-left visible cell.
    pub row0: usize,
    /// Grid column of the top-left visible cell.
    pub col0: usize,
}

impl Viewport {
    /// The grid cell under screen position (x, y), if any (a connector column counts for the
    /// cell to its left).
    pub fn cell_at(&self, x: u16, y: u16) -> Option<(usize, usize)> {
        let dx = usize::from(x.checked_sub(self.x)?);
        let dy = usize::from(y.checked_sub(self.y)?);
        (dx < 2 * self.cols && dy < self.rows).then(|| (self.row0 + dy, self.col0 + dx / 2))
    }

    /// True when the whole grid is visible.
    pub fn whole(&self, height: usize, width: usize) -> bool {
        self.rows == height && self.cols == width
    }
}

/// First visible index along one axis: the old one, moved just enough to show `cursor`.
fn follow(first: usize, visible: usize, total: usize, cursor: usize) -> usize {
    let mut first = first.min(total - visible);
    if cursor < first {
        first = cursor;
    } else if cursor >= first + visible {
        first = cursor + 1 - visible;
    }
    first
}

/// Places a `height` x `width` grid in `area`, centred when it fits, otherwise scrolled from
/// `scroll` (top-left cell) just enough to show `cursor`.
pub fn fit(
    area: Rect,
    height: usize,
    width: usize,
    cursor: (usize, usize),
    scroll: (usize, usize),
) -> Viewport {
    let cols = width.min(usize::from(area.width).div_ceil(2));
    let rows = height.min(usize::from(area.height));
    let (row0, col0) = if rows == 0 || cols == 0 {
        (0, 0)
    } else {
        (
            follow(scroll.0, rows, height, cursor.0),
            follow(scroll.1, cols, width, cursor.1),
        )
    };
    let used_w = (2 * cols).saturating_sub(1) as u16;
    Viewport {
        x: area.x + area.width.saturating_sub(used_w) / 2,
        y: area.y + area.height.saturating_sub(rows as u16) / 2,
        rows,
        cols,
        row0,
        col0,
    }
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// Colour of an undecided cell in the watch view, by orientations left (as `--show-domains`).
fn domain_colour(n: u32) -> Color {
    match n {
        0 | 1 => Color::Green,
        2 => Color::Yellow,
        3 => Color::Magenta,
        _ => Color::Red,
    }
}

/// The connection mask and style of cell `i` as shown now.
fn shown(play: &Play, i: usize) -> (u8, Style) {
    let piece = play.game.cells()[i];
    if let Some(w) = &play.watch {
        let d = w.dom[i];
        let n = d.count_ones();
        let mut style = Style::new().fg(domain_colour(n));
        if w.focus == Some(i) {
            style = style.bg(Color::Blue).add_modifier(Modifier::BOLD);
        }
        let mask = if n == 1 {
            piece.kind().mask(d.trailing_zeros() as u8)
        } else {
            piece.mask()
        };
        return (mask, style);
    }
    let style = match play.solved {
        Some(_) => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        None if play.marks.binary_search(&i).is_ok() => Style::new()
            .fg(Color::Yellow)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        None if play.highlight == Some((i / play.game.width(), i % play.game.width())) => {
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
        }
        None => Style::new().fg(Color::White),
    };
    (piece.mask(), style)
}

fn draw_cells(buf: &mut Buffer, play: &Play, vp: &Viewport) {
    let w = play.game.width();
    for dr in 0..vp.rows {
        let r = vp.row0 + dr;
        let y = vp.y + dr as u16;
        for dc in 0..vp.cols {
            let c = vp.col0 + dc;
            let i = r * w + c;
            let (mask, mut style) = shown(play, i);
            let x = vp.x + 2 * dc as u16;
            if play.watch.is_none() && play.cursor == (r, c) {
                style = style.bg(Color::DarkGray).add_modifier(Modifier::BOLD);
            }
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.set_char(glyph(mask)).set_style(style);
            }
            if dc + 1 < vp.cols {
                let (east, _) = shown(play, i + 1);
                let style = shown(play, i).1.bg(Color::Reset);
                if let Some(cell) = buf.cell_mut((x + 1, y)) {
                    cell.set_char(connector(mask, east)).set_style(style);
                }
            }
        }
    }
}

fn status_line(play: &Play, now: Instant) -> Line<'static> {
    if let Some(w) = &play.watch {
        let region = w
            .region
            .map_or(String::new(), |(i, n)| format!(" · region {i} ({n} cells)"));
        let last = w
            .last
            .map_or_else(|| "starting".to_string(), |e| e.to_string());
        return Line::from(vec![
            Span::styled(
                format!(" WATCH {}/s ", SPEEDS[play.speed]),
                Style::new().fg(Color::Black).bg(Color::Yellow),
            ),
            Span::raw(format!(
                " {last} · decisions {} · conflicts {} · backtracks {}{region} · events {}",
                w.decisions, w.conflicts, w.backtracks, w.events
            )),
        ]);
    }
    let time = clock(play.elapsed(now));
    if let Some(by) = play.solved {
        let banner = match by {
            SolvedBy::Player => " SOLVED! ",
            SolvedBy::Solver => " SOLVED BY THE SOLVER ",
        };
        return Line::from(vec![
            Span::styled(
                banner,
                Style::new()
                    .fg(Color::Black)
                    .bg(Color::Green)
                    .add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!(" time {time} · {}", play.message)),
        ]);
    }
    let (r, c) = play.cursor;
    let kind = play.game.get(r, c).kind();
    let name = if kind == PieceKind::Empty {
        "empty"
    } else {
        kind.name()
    };
    Line::from(format!(
        " {} · moves {} · hints {} · time {time} · ({r},{c}) {name} · {}",
        play.grade, play.moves, play.hints, play.message
    ))
}

const KEYS: [&str; 11] = [
    "q quit",
    "arrows/hjkl move",
    "space/enter/r turn (R back)",
    "click turn (right: back)",
    "u undo",
    "?/H why/hint",
    "m wrong",
    "w watch solver",
    "+/- speed",
    "s save",
    "n new",
];

/// The key help packed into lines of at most `width` columns (an item wider than that gets a
/// line of its own and is cut there), so that no key is lost on a narrow terminal.
pub fn key_lines(width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for key in KEYS {
        let extra = if line.is_empty() { 1 } else { 3 } + key.chars().count();
        if !line.is_empty() && line.chars().count() + extra > width {
            lines.push(std::mem::take(&mut line));
        }
        line.push_str(if line.is_empty() { " " } else { " · " });
        line.push_str(key);
    }
    lines.push(line);
    lines
}

/// Draws the game; returns where the grid went (for mouse clicks), or `None` when the screen
/// is too small to show any cell.
pub fn draw(frame: &mut Frame, play: &mut Play, now: Instant) -> Option<Viewport> {
    let width = (frame.area().width as usize).max(1);
    let height = frame.area().height as usize;
    let status_text = status_line(play, now);
    // A long status (a hint, a question) wraps rather than being cut, up to three lines.
    let status_rows = status_text.width().div_ceil(width).clamp(1, 3);
    let mut key_help = key_lines(width);
    // The grid keeps three rows (its frame and one row of cells); the help takes what is left,
    // at least one (cut) line.
    key_help.truncate(height.saturating_sub(1 + 3 + status_rows).max(1));
    let [title, main, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(status_rows as u16),
        Constraint::Length(key_help.len() as u16),
    ])
    .areas(frame.area());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(
                " phineloops ",
                Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            ),
            Span::raw(format!(
                " {} · save: {}",
                play.name,
                play.save_path.display()
            )),
        ])),
        title,
    );
    let (h, w) = (play.game.height(), play.game.width());
    let block = Block::bordered();
    let inner = block.inner(main);
    let vp = fit(inner, h, w, play.cursor, play.scroll);
    let caption = if vp.rows == 0 || vp.cols == 0 || vp.whole(h, w) {
        format!(" {w}x{h} ")
    } else {
        format!(
            " {w}x{h} · rows {}-{} cols {}-{} · scrolls ",
            vp.row0,
            vp.row0 + vp.rows - 1,
            vp.col0,
            vp.col0 + vp.cols - 1
        )
    };
    frame.render_widget(block.title(caption), main);
    frame.render_widget(
        Paragraph::new(status_text).wrap(Wrap { trim: false }),
        status,
    );
    frame.render_widget(
        Paragraph::new(
            key_help
                .into_iter()
                .map(|l| Line::styled(l, Style::new().fg(Color::DarkGray)))
                .collect::<Vec<_>>(),
        ),
        keys,
    );
    if vp.rows == 0 || vp.cols == 0 {
        frame.render_widget(Paragraph::new("terminal too small"), inner);
        return None;
    }
    play.scroll = (vp.row0, vp.col0);
    draw_cells(frame.buffer_mut(), play, &vp);
    Some(vp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, generate};
    use crate::level::parse_level;
    use crate::play::state::{Action, LevelSpec};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use std::path::PathBuf;

    fn play(game: crate::model::Game) -> Play {
        let (h, w) = (game.height(), game.width());
        Play::with_game(
            game,
            "test level".into(),
            LevelSpec {
                height: h,
                width: w,
                next_seed: 0,
                nbcc: None,
                family: Family::Random,
            },
            PathBuf::from("t.save.txt"),
            Instant::now(),
        )
    }

    fn screen(term: &Terminal<TestBackend>) -> Vec<String> {
        let buf = term.backend().buffer();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn key_help_wraps_to_the_width_and_keeps_every_key() {
        for width in [30, 40, 80, 100, 200] {
            let lines = key_lines(width);
            let joined = lines.join(" · ");
            for key in KEYS {
                assert!(joined.contains(key), "{width}: {key} lost");
            }
            for l in &lines {
                assert!(l.chars().count() <= width, "{width}: {l:?}");
            }
        }
        assert_eq!(key_lines(400).len(), 1);
        assert!(key_lines(60).len() >= 3);
        // On a 50-column terminal every key, up to the last, is on screen.
        let g = parse_level("t", b"1\n2\n1 1\n1 1\n").unwrap();
        let mut p = play(g);
        let mut term = Terminal::new(TestBackend::new(50, 24)).unwrap();
        term.draw(|f| {
            draw(f, &mut p, Instant::now());
        })
        .unwrap();
        let text = screen(&term).join("\n");
        assert!(text.contains("n new") && text.contains("s save"), "{text}");
    }

    #[test]
    fn a_40_by_12_terminal_shows_every_key_and_the_whole_message() {
        let g = parse_level("t", b"3\n3\n1 0\n2 0\n1 0\n0 0\n0 0\n0 0\n1 0\n2 0\n1 0\n").unwrap();
        let mut p = play(g);
        let t = Instant::now();
        p.apply(Action::Rotate, t);
        p.apply(Action::NewLevel, t);
        assert!(p.message.len() > 40, "{}", p.message);
        let mut term = Terminal::new(TestBackend::new(40, 12)).unwrap();
        term.draw(|f| {
            draw(f, &mut p, t);
        })
        .unwrap();
        let lines = screen(&term);
        let flat = lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
        for key in KEYS {
            assert!(flat.contains(key), "{key} lost:\n{}", lines.join("\n"));
        }
        assert!(flat.contains("(s saves first)"), "{}", lines.join("\n"));
    }

    #[test]
    fn a_small_level_is_centred_with_connectors_and_a_status_line() {
        // Q east, I horizontal, Q west — solved — over a row of empty cells.
        let g = parse_level("t", b"2\n3\n1 1\n2 1\n1 3\n0 0\n0 0\n0 0\n").unwrap();
        let mut p = play(g);
        // Tall enough for the grid, the wrapped status and the five lines of key help.
        let mut term = Terminal::new(TestBackend::new(40, 12)).unwrap();
        let mut vp = None;
        term.draw(|f| vp = draw(f, &mut p, Instant::now())).unwrap();
        let vp = vp.unwrap();
        let lines = screen(&term);
        assert!(lines[0].contains("phineloops") && lines[0].contains("test level"));
        assert!(lines[1].contains(" 3x2 "), "{lines:#?}");
        let row = &lines[usize::from(vp.y)];
        let x = usize::from(vp.x);
        let drawn: String = row.chars().skip(x).take(5).collect();
        assert_eq!(drawn, "╶───╴");
        assert!(lines[5].contains("SOLVED!"), "{lines:#?}");
        assert!(lines[7].contains("q quit"), "{lines:#?}");
        assert_eq!(vp.cell_at(vp.x + 3, vp.y + 1), Some((1, 1)));
        assert_eq!(vp.cell_at(vp.x + 6, vp.y), None);
        assert_eq!(vp.cell_at(vp.x.saturating_sub(1), vp.y), None);
    }

    #[test]
    fn status_shows_moves_and_the_cursor_piece_and_the_cursor_is_highlighted() {
        let g = parse_level("t", b"1\n2\n1 1\n1 1\n").unwrap();
        let mut p = play(g);
        let t = Instant::now();
        p.apply(Action::Right, t);
        p.apply(Action::Rotate, t);
        let mut term = Terminal::new(TestBackend::new(60, 6)).unwrap();
        let mut vp = None;
        term.draw(|f| vp = draw(f, &mut p, t)).unwrap();
        let vp = vp.unwrap();
        let lines = screen(&term);
        assert!(lines[4].contains("moves 1"), "{lines:#?}");
        assert!(lines[4].contains("(0,1) Q"), "{lines:#?}");
        let buf = term.backend().buffer();
        assert_eq!(buf[(vp.x + 2, vp.y)].symbol(), "╷");
        assert_eq!(buf[(vp.x + 2, vp.y)].bg, Color::DarkGray);
        assert_ne!(buf[(vp.x, vp.y)].bg, Color::DarkGray);
    }

    #[test]
    fn a_large_grid_scrolls_with_the_cursor() {
        let g = generate(&GenerateOptions::new(64, 64, 1));
        let mut p = play(g);
        let mut term = Terminal::new(TestBackend::new(50, 20)).unwrap();
        let t = Instant::now();
        for _ in 0..40 {
            p.apply(Action::Down, t);
            p.apply(Action::Right, t);
        }
        let mut vp = None;
        term.draw(|f| vp = draw(f, &mut p, t)).unwrap();
        let vp = vp.unwrap();
        assert!(vp.rows < 64 && vp.cols < 64);
        assert!((vp.row0..vp.row0 + vp.rows).contains(&40));
        assert!((vp.col0..vp.col0 + vp.cols).contains(&40));
        let lines = screen(&term);
        assert!(lines[1].contains("scrolls"), "{lines:#?}");
        // The cursor's glyph is the grid's piece at (40, 40).
        let (x, y) = (
            vp.x + 2 * (40 - vp.col0) as u16,
            vp.y + (40 - vp.row0) as u16,
        );
        let buf = term.backend().buffer();
        assert_eq!(
            buf[(x, y)].symbol(),
            glyph(p.game.get(40, 40).mask()).to_string()
        );
    }

    #[test]
    fn a_tiny_terminal_says_so() {
        let mut p = play(generate(&GenerateOptions::new(4, 4, 1)));
        let mut term = Terminal::new(TestBackend::new(2, 10)).unwrap();
        let mut vp = Some(fit(Rect::default(), 1, 1, (0, 0), (0, 0)));
        term.draw(|f| vp = draw(f, &mut p, Instant::now())).unwrap();
        assert_eq!(vp, None);
    }

    #[test]
    fn the_watch_view_colours_cells_by_domain() {
        let g = parse_level("t", b"1\n2\n1 1\n1 1\n").unwrap();
        let mut p = play(g);
        let t = Instant::now();
        p.apply(Action::Watch, t);
        p.watch_event(crate::solve::Event::Narrow {
            row: 0,
            col: 0,
            before: 0b1111,
            after: 0b0010,
        });
        let mut term = Terminal::new(TestBackend::new(60, 6)).unwrap();
        let mut vp = None;
        term.draw(|f| vp = draw(f, &mut p, t)).unwrap();
        let vp = vp.unwrap();
        let buf = term.backend().buffer();
        assert_eq!(buf[(vp.x, vp.y)].fg, Color::Green);
        assert_eq!(buf[(vp.x + 2, vp.y)].fg, Color::Red);
        let lines = screen(&term);
        assert!(
            lines[4].contains("WATCH") && lines[4].contains("narrow (0,0)"),
            "{lines:#?}"
        );
    }
}

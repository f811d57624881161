//! `--print`, `--show-domains`, `--color` and `--render`: showing a level besides (or instead
//! of) writing it.

use super::error::CliError;
use std::io::{IsTerminal, Write};

use super::args::{PictureFormat, View};
use super::run::save;
use crate::model::Game;
use crate::render::domains::after_propagation;
use crate::render::unicode::{
    defect_shades, domain_digits, domain_legend, domain_shades, domain_summary,
};
use crate::render::{png::png, svg::svg, unicode::draw_text};

/// The text `--print` writes for `game`, coloured or not.
pub fn print_text(game: &Game, view: &View, colour: bool) -> String {
    if !view.show_domains {
        let shades = colour.then(|| defect_shades(game));
        return draw_text(game, shades.as_deref());
    }
    let domains = after_propagation(game);
    let mut text = if colour {
        let mut t = draw_text(game, Some(&domain_shades(game, &domains)));
        t.push_str(&domain_legend());
        t.push('\n');
        t
    } else {
        let mut t = draw_text(game, None);
        t.push('\n');
        t.push_str(&domain_digits(game, &domains));
        t
    };
    text.push_str(&domain_summary(game, &domains));
    text.push('\n');
    text
}

fn no_color() -> Option<std::ffi::OsString> {
    std::env::var_os("NO_COLOR")
}

/// Prints and renders `game` as `view` asks. The picture goes to stderr when stdout carries
/// the level itself (`-o -`).
pub fn show(game: &Game, view: &View, to_stderr: bool) -> Result<(), CliError> {
    if view.print {
        if to_stderr {
            let colour = view
                .color
                .enabled(std::io::stderr().is_terminal(), no_color().as_deref());
            // Best effort, as every message on stderr.
            let _ = std::io::stderr()
                .lock()
                .write_all(print_text(game, view, colour).as_bytes());
        } else {
            let colour = view
                .color
                .enabled(std::io::stdout().is_terminal(), no_color().as_deref());
            // A reader that stops early (`| head`) is not an error; a full disk is.
            super::out::bytes(print_text(game, view, colour).as_bytes())?;
        }
    }
    if let Some((path, format)) = &view.render {
        let marked = view.explain.then(|| explained_cells(game));
        let bytes = match (format, marked) {
            (PictureFormat::Svg, None) if !super::run::is_stdio(path) => {
                // Written as it is made: a huge level's picture never sits in memory.
                let write = |out: &mut dyn Write, cancel: &std::sync::atomic::AtomicBool| {
                    crate::render::svg::write_svg(game, out, cancel)
                };
                super::interrupt::cooperative(true);
                crate::level::write::save_content_cancellable(
                    path,
                    crate::level::write::Content::Stream(&write),
                    &super::interrupt::CANCEL,
                )
                .map_err(|e| CliError::Output(e.to_string()))?;
                // A cancelled save leaves nothing; the caller sees the cancel flag.
                return Ok(());
            }
            (PictureFormat::Svg, None) => svg(game).into_bytes(),
            (PictureFormat::Svg, Some(cells)) => {
                crate::render::svg::svg_highlight(game, &cells).into_bytes()
            }
            (PictureFormat::Png, None) => {
                png(game).map_err(|e| CliError::Output(format!("{}: {e}", path.display())))?
            }
            (PictureFormat::Png, Some(cells)) => crate::render::png::png_highlight(game, &cells)
                .map_err(|e| CliError::Output(format!("{}: {e}", path.display())))?,
            (PictureFormat::Html, _) => {
                super::board::html_page(&crate::board::BoardLevel::from_game(game))
            }
        };
        // A cancelled save leaves nothing; the caller sees the cancel flag.
        save(path, &bytes)?;
    }
    Ok(())
}

/// The cells of the cheap "no solution" reason of `game` (none when it has none).
fn explained_cells(game: &Game) -> Vec<usize> {
    crate::explain::explain(game).map_or_else(Vec::new, |r| r.cells())
}

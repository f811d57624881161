//! The level as text: one box-drawing character per cell, one line per row, optionally with
//! ANSI colours per cell.

use super::color::{RESET, Shade};
use super::domains::DomainSizes;
use super::glyphs::glyph;
use crate::model::{Game, PieceKind};

/// The grid, one line per row (each exactly `width` characters, ending in `\n`). With
/// `shades` (one per cell, row-major), each run of equally shaded cells is preceded by its
/// colour and every coloured line ends with a reset; without, the text has no escapes.
pub fn draw_text(game: &Game, shades: Option<&[Shade]>) -> String {
    let (h, w) = (game.height(), game.width());
    let mut out = String::with_capacity(h * (w * 3 + 8));
    for r in 0..h {
        let mut current = Shade::Plain;
        for c in 0..w {
            let i = game.index(r, c);
            if let Some(shades) = shades
                && shades[i] != current
            {
                current = shades[i];
                out.push_str(current.sgr());
            }
            out.push(glyph(game.cells()[i].mask()));
        }
        if current != Shade::Plain {
            out.push_str(RESET);
        }
        out.push('\n');
    }
    out
}

/// [`Shade::Defect`] for cells with a connection that its neighbour (or the border) does not
/// meet, [`Shade::Plain`] for the rest.
pub fn defect_shades(game: &Game) -> Vec<Shade> {
    let cells = game.cells();
    (0..game.len())
        .map(|i| {
            let m = cells[i].mask();
            let unmet = (0..4).any(|side| {
                m & (1 << side) != 0
                    && game
                        .neighbour(i, side)
                        .is_none_or(|nb| cells[nb].mask() & (1 << ((side + 2) & 3)) == 0)
            });
            if unmet { Shade::Defect } else { Shade::Plain }
        })
        .collect()
}

/// Shades by orientations left after propagation; empty cells stay plain.
pub fn domain_shades(game: &Game, domains: &DomainSizes) -> Vec<Shade> {
    game.cells()
        .iter()
        .zip(&domains.sizes)
        .map(|(p, &n)| {
            if p.kind() == PieceKind::Empty {
                Shade::Plain
            } else {
                Shade::of_domain_size(u32::from(n))
            }
        })
        .collect()
}

/// The no-colour form of `--show-domains`: the orientations left per cell as digits
/// (`1` frozen … `4`), a space for an empty cell.
pub fn domain_digits(game: &Game, domains: &DomainSizes) -> String {
    let (h, w) = (game.height(), game.width());
    let mut out = String::with_capacity(h * (w + 1));
    for r in 0..h {
        for c in 0..w {
            let i = game.index(r, c);
            out.push(if game.cells()[i].kind() == PieceKind::Empty {
                ' '
            } else {
                char::from(b'0' + domains.sizes[i].min(4))
            });
        }
        out.push('\n');
    }
    out
}

/// One line summing up the propagation pass, e.g.
/// `after propagation: 40 of 52 pieces frozen; 8 with 2 orientations, 4 with 3, 0 with 4`.
pub fn domain_summary(game: &Game, domains: &DomainSizes) -> String {
    let h = domains.histogram(game);
    let total: usize = h.iter().sum();
    let mut s = format!(
        "after propagation: {} of {total} pieces frozen; {} with 2 orientations, {} with 3, {} with 4",
        h[0], h[1], h[2], h[3]
    );
    if !domains.consistent {
        s.push_str(" (propagation found a contradiction: the level has no solution)");
    }
    s
}

/// The colour legend of `--show-domains`, itself coloured.
pub fn domain_legend() -> String {
    let mut s = String::from("legend:");
    for shade in [Shade::Frozen, Shade::Two, Shade::Three, Shade::Four] {
        s.push_str(&format!(" {}■ {}{RESET}", shade.sgr(), shade.name()));
    }
    s
}

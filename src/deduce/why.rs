//! The one-sentence explanations: a [`Detail`] holds what a rule found (a few small numbers),
//! and [`Deduction::why`] fills the rule's template from it only when asked, so grading a
//! board of a million cells formats no text.

use super::position::{Contradiction, Position};
use super::{Deduction, Rule, cell_name, mask_name};

/// What a rule found, for its explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Rung 1: the sides that face the border or a barrier.
    Border {
        /// Those sides.
        walls: u8,
    },
    /// Rungs 2 and 3: the sides the neighbours require, and those they leave open.
    Agree {
        /// Sides that must connect.
        req: u8,
        /// Sides (not walls) that must stay open.
        open: u8,
    },
    /// Net: facing one-end pieces.
    FacingEnds,
    /// Net: a loop would close.
    Loop,
    /// Net: an island would close; the smallest such network's pieces.
    Island {
        /// Pieces of the smallest island an orientation would close off.
        smallest: u32,
    },
    /// Counting: a region of `cells` cells (the deduction's read cells) with `ends` open
    /// ends, `dark` and `light` of them on each colour when the board two-colours, and one
    /// undecided side out, `side` of the concluded cell (none: the region is closed and its
    /// count fails).
    Counting {
        /// Cells of the region.
        cells: u32,
        /// Its open ends.
        ends: i32,
        /// Whether the board two-colours (then `dark` and `light` count).
        coloured: bool,
        /// Open ends on dark cells.
        dark: i32,
        /// Open ends on light cells.
        light: i32,
        /// The side out (`u8::MAX`: none).
        side: u8,
    },
    /// Trials: per refuted orientation, the contradiction and the narrowings it took.
    Trial {
        /// `(orientation, contradiction, steps)`.
        refuted: Vec<(u32, Contradiction, usize)>,
    },
    /// A guess from the search's solution.
    Guess,
}

impl Deduction {
    /// One sentence saying why the deduction holds (`pos`: the position it was made in, or
    /// any later one: only the board and the level's pieces are read).
    pub fn why(&self, pos: &Position) -> String {
        let b = pos.board();
        let me = cell_name(b, self.cell);
        let others = || {
            let v: Vec<String> = self.read[1..].iter().map(|&c| cell_name(b, c)).collect();
            v.join(", ")
        };
        match &self.detail {
            Detail::Border { walls } => {
                let border = b.border_mask(self.cell);
                let what = if walls & !border == 0 {
                    "the border"
                } else if walls & border == 0 {
                    "a barrier"
                } else {
                    "the border or a barrier"
                };
                let which = if walls.count_ones() == 1 {
                    "that side faces"
                } else {
                    "each of those sides faces"
                };
                format!(
                    "{me} cannot connect across {}: {which} {what}",
                    mask_name(b, *walls)
                )
            }
            Detail::Agree { req, open } => {
                let mut parts = Vec::new();
                if *req != 0 {
                    parts.push(format!("must connect {}", mask_name(b, *req)));
                }
                if *open != 0 {
                    parts.push(format!("must leave {} open", mask_name(b, *open)));
                }
                let whose = if self.rule == Rule::Neighbour {
                    "decided neighbours"
                } else {
                    "neighbours, in every orientation they have left,"
                };
                format!(
                    "{me} {}: its {whose} {} answer those sides that way",
                    parts.join(" and "),
                    others()
                )
            }
            Detail::FacingEnds => format!(
                "{me} and {} are one-end pieces: facing each other they would make a network of two cells, and the level has {} pieces",
                others(),
                pos.nonempty()
            ),
            Detail::Loop => format!(
                "turned that way, {me} would connect to a network it already reaches ({}): that closes a loop",
                others()
            ),
            Detail::Island { smallest } => format!(
                "turned that way, {me} would close off a network of {smallest} pieces with no open end, but the level has {}",
                pos.nonempty()
            ),
            Detail::Counting {
                cells,
                ends,
                coloured,
                dark,
                light,
                side,
            } => counting_why(self, pos, *cells, *ends, (*coloured, *dark, *light), *side),
            Detail::Trial { refuted } => {
                let parts: Vec<String> = refuted
                    .iter()
                    .map(|&(o, c, steps)| {
                        let what = match c {
                            Contradiction::Empty(x) => {
                                format!("leaves {} with no orientation", cell_name(b, x))
                            }
                            Contradiction::Loop(x, _) => {
                                format!("closes a loop at {}", cell_name(b, x))
                            }
                            Contradiction::Island(x) => {
                                format!("closes off an island at {}", cell_name(b, x))
                            }
                        };
                        format!(
                            "as {} it {what} after {steps} step{}",
                            mask_name(b, pos.mask(self.cell, o)),
                            if steps == 1 { "" } else { "s" }
                        )
                    })
                    .collect();
                format!("trying {me}: {}", parts.join("; "))
            }
            Detail::Guess => format!(
                "no rule up to the trial applies anywhere: the search's solution turns {me} this way"
            ),
        }
    }
}

/// The counting rule's sentence (see [`super::counting`]).
fn counting_why(
    d: &Deduction,
    pos: &Position,
    cells: u32,
    ends: i32,
    (coloured, dark, light): (bool, i32, i32),
    side: u8,
) -> String {
    let b = pos.board();
    let names: Vec<String> = d.read.iter().take(6).map(|&c| cell_name(b, c)).collect();
    let region = if cells as usize > names.len() {
        format!("the {cells} cells {}, ...", names.join(", "))
    } else if cells == 1 {
        names.join(", ")
    } else {
        format!("the cells {}", names.join(", "))
    };
    let have = if coloured {
        format!(
            "every connection joins a dark and a light cell; {region} have {dark} open end{} on dark cells and {light} on light ones",
            if dark == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "{region} have {ends} open end{} between them",
            if ends == 1 { "" } else { "s" }
        )
    };
    if side == u8::MAX {
        let fails = if coloured && dark != light {
            "so they cannot all pair up"
        } else {
            "an odd number, so they cannot all pair up"
        };
        return format!("{have}, which can only pair with each other: {fails}");
    }
    let me = cell_name(b, d.cell);
    let side_name = mask_name(b, 1 << side);
    let connects = d.after != 0 && pos.mask(d.cell, d.after.trailing_zeros()) >> side & 1 == 1;
    let then = match (coloured, connects) {
        (true, true) => "one end is left over, so it goes out there",
        (true, false) => "they balance, so none goes out there",
        (false, true) => "an odd number, so one goes out there",
        (false, false) => "an even number, so none goes out there",
    };
    format!(
        "{have}, which can only pair with each other or go out across {me}'s {side_name} side: {then}"
    )
}

//! Why a level has no solution, as precisely as cheap analyses can tell: an odd total of
//! connection ends; a deficient set of cells (a Hall-type certificate from a max-flow over the
//! degree relaxation, see [`flow`]); a cell whose orientations propagation emptied, with the
//! chain of deductions that led there (a propagation of its own that records reasons, see
//! [`reasons`]); else the caller's "search exhausted" with the solve statistics. Independent of
//! the solver's internals on purpose: it explains, the solver decides.

// Only the command line draws the board reasons so far.
#[cfg(any(feature = "cli", test))]
pub mod board;
pub mod flow;
pub mod reasons;

use crate::model::Game;
use crate::model::direction::SIDE_NAMES;

/// One deduction of the propagation: `by` forced its side `side` on or off, which is the
/// side of `cell` facing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduction {
    /// Row-major index of the cell whose piece forced the side.
    pub by: usize,
    /// The forced side of `by` (N, E, S, W = 0..4).
    pub side: usize,
    /// True when the side was forced to carry a connection, false when forced empty.
    pub on: bool,
    /// Row-major index of the neighbour across that side (the cell the deduction is about).
    pub cell: usize,
}

/// A reason for "no solution".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Every connection joins two ends, so a solvable level has an even number of ends.
    OddEnds {
        /// Total number of piece ends (connections) in the level; odd.
        ends: usize,
    },
    /// Every connection joins a cell of each checkerboard colour, so both colours must have
    /// as many ends.
    Unbalanced {
        /// Ends on the dark cells.
        dark: usize,
        /// Ends on the light cells.
        light: usize,
    },
    /// Cells of one checkerboard colour (their neighbours are all of the other colour) that
    /// need `need` connections while their neighbours can give at most `can_give`: each
    /// neighbour gives at most its own number of ends and at most one per usable side it
    /// shares with the set. Sides are usable unless the piece on either end cannot use them
    /// (pointing off the border), or, when `after_propagation`, propagation ruled them out.
    Deficient {
        /// The set's cells, row-major indices.
        cells: Vec<usize>,
        /// Connections the set's pieces need in total.
        need: usize,
        /// The most their neighbours can give them.
        can_give: usize,
        /// Whether sides ruled out by propagation were left out too.
        after_propagation: bool,
    },
    /// Propagation left `cell` without an orientation; `chain` ends with the deductions about
    /// its sides, each preceded by the ones that caused it.
    Emptied {
        /// Row-major index of the cell left without an orientation.
        cell: usize,
        /// The deductions that led there, causes first.
        chain: Vec<Deduction>,
    },
    /// Nothing cheap found: the search itself proved it.
    Exhausted {
        /// Independent regions left after propagation.
        regions: usize,
        /// Undecided cells in the largest of them.
        largest: usize,
        /// Search nodes (orientations tried) of the exhausted search.
        nodes: u64,
    },
}

/// The cheap reasons, in order: parity, propagation wipe-out, deficient set (first on the
/// local relaxation, then after propagation). `None` when none applies: then only the search
/// knows.
pub fn explain(game: &Game) -> Option<Reason> {
    let ends: usize = game
        .cells()
        .iter()
        .map(|p| p.mask().count_ones() as usize)
        .sum();
    if ends % 2 == 1 {
        return Some(Reason::OddEnds { ends });
    }
    let w = game.width();
    let mut by_colour = [0usize; 2];
    for (c, p) in game.cells().iter().enumerate() {
        by_colour[(c / w + c % w) % 2] += p.mask().count_ones() as usize;
    }
    if by_colour[0] != by_colour[1] {
        return Some(Reason::Unbalanced {
            dark: by_colour[0],
            light: by_colour[1],
        });
    }
    if let Some(r) = flow::deficient_set(game, None) {
        return Some(r);
    }
    let mut prop = reasons::Propagation::new(game);
    if let Err(cell) = prop.run() {
        return Some(Reason::Emptied {
            cell,
            chain: prop.chain(cell),
        });
    }
    flow::deficient_set(game, Some(&prop))
}

fn at(game: &Game, cell: usize) -> String {
    let w = game.width();
    format!(
        "({}, {}) [{}]",
        cell / w,
        cell % w,
        game.cells()[cell].kind().name()
    )
}

impl Reason {
    /// Short name, used in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Reason::OddEnds { .. } => "odd-ends",
            Reason::Unbalanced { .. } => "unbalanced-colours",
            Reason::Deficient { .. } => "deficient-set",
            Reason::Emptied { .. } => "emptied-domain",
            Reason::Exhausted { .. } => "search-exhausted",
        }
    }

    /// The cells the reason is about (to highlight), row-major indices.
    pub fn cells(&self) -> Vec<usize> {
        match self {
            Reason::Deficient { cells, .. } => cells.clone(),
            Reason::Emptied { cell, chain } => {
                let mut v: Vec<usize> = chain.iter().flat_map(|d| [d.by, d.cell]).collect();
                v.push(*cell);
                v.sort_unstable();
                v.dedup();
                v
            }
            Reason::OddEnds { .. } | Reason::Unbalanced { .. } | Reason::Exhausted { .. } => {
                Vec::new()
            }
        }
    }

    /// The reason in one or a few lines of English; cells as (row, column) \[shape\].
    pub fn message(&self, game: &Game) -> String {
        match self {
            Reason::OddEnds { ends } => format!(
                "the pieces have {ends} connection ends in total, an odd number: every connection joins two ends"
            ),
            Reason::Unbalanced { dark, light } => format!(
                "colouring the grid like a chessboard (row + column even = dark), the dark cells have {dark} connection ends and the light cells {light}: every connection joins a dark and a light cell"
            ),
            Reason::Deficient {
                cells,
                need,
                can_give,
                after_propagation,
            } => {
                let list: Vec<String> = cells.iter().take(40).map(|&c| at(game, c)).collect();
                let more = if cells.len() > 40 {
                    format!(" and {} more", cells.len() - 40)
                } else {
                    String::new()
                };
                format!(
                    "these {} cells need {need} connections but their neighbours can give at most {can_give}{}: {}{more}",
                    cells.len(),
                    if *after_propagation {
                        " (sides ruled out by propagation not counted)"
                    } else {
                        ""
                    },
                    list.join(", ")
                )
            }
            Reason::Emptied { cell, chain } => {
                let mut s = format!("propagation leaves cell {} no orientation", at(game, *cell));
                if !chain.is_empty() {
                    s.push_str("; deductions leading there:");
                    for d in chain {
                        s.push_str(&format!(
                            "\n  {} must {} its {} side, so {} must {}",
                            at(game, d.by),
                            if d.on { "use" } else { "not use" },
                            SIDE_NAMES[d.side],
                            at(game, d.cell),
                            if d.on {
                                "connect to it"
                            } else {
                                "not connect to it"
                            },
                        ));
                    }
                }
                s
            }
            Reason::Exhausted {
                regions,
                largest,
                nodes,
            } => format!(
                "the search space is exhausted ({regions} region{} after propagation, largest {largest} cells, {nodes} search nodes)",
                if *regions == 1 { "" } else { "s" }
            ),
        }
    }
}

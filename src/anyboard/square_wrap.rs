//! Wrapped square levels whose wrapped lengths are even go to the square engine
//! ([`crate::solve::solve_wrapped`]): such a board is two-coloured, so the engine's degree
//! witness holds there, and with it levels of mostly one-end pieces fall in milliseconds
//! where this module's siblings search for seconds (dominoes 256x256 wrapped: 2.3 s through
//! the any-board engine and learning). The any-board engine's first pass (striped over the
//! threads) settles what it can first; the square engine takes the regions it leaves. The
//! answer is judged here by the board's own verifier.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::first_pass::current_threads;
use super::shapes::Shapes;
use super::solve::{Outcome, Stats};
use super::verify::{first_defect_on, same_pieces};
use crate::board::{BoardLevel, Tiling};
use crate::model::{Game, Piece};
use crate::par::*;
use crate::solve::{self, SolveOptions, solve_wrapped, wraps_two_coloured};

/// Whether [`solve`] takes `level`: Infinity Loop rules without barriers or locks, on a
/// square board that wraps with even lengths (see [`wraps_two_coloured`]).
pub fn takes(level: &BoardLevel) -> bool {
    let b = level.board();
    b.tiling() == Tiling::Square
        && !level.needs_net_engine()
        && wraps_two_coloured(
            b.height(),
            b.width(),
            b.wrap().vertical,
            b.wrap().horizontal,
        )
}

/// Finishes `level`, which [`takes`] must accept, from `dom` (its cells' domains over their
/// shapes' orientations, propagated to a fixed point with some cells undecided) with the
/// square engine on every thread of the pool; the answer is verified on the board before it
/// is returned. `stats` gets the engine's figures from the region split on.
pub fn finish(
    level: &BoardLevel,
    (shapes, shape): (&Shapes, &[u8]),
    dom: &[u8],
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    stats: &mut Stats,
) -> Outcome {
    let b = level.board();
    let cells = level.masks().iter().map(|&m| Piece::from_mask(m)).collect();
    let game = Game::from_cells(b.height(), b.width(), cells);
    // Orientation r of a shape is some orientation of the piece kind: one table per shape.
    let tables: Vec<[u8; 16]> = (0..shapes.len())
        .map(|s| {
            let sh = shapes.get(s as u8);
            std::array::from_fn(|d| {
                (0..sh.period as usize)
                    .filter(|r| d >> r & 1 == 1)
                    .fold(0u8, |acc, r| {
                        acc | 1 << Piece::from_mask(sh.masks[r]).orientation()
                    })
            })
        })
        .collect();
    let square: Vec<u8> = dom
        .par_iter()
        .zip(shape.par_iter())
        .map(|(&d, &s)| tables[s as usize][d as usize & 15])
        .collect();
    let opts = SolveOptions {
        threads: current_threads(),
        timeout,
        ..SolveOptions::default()
    };
    let defect = |answer: &Game| {
        let masks: Vec<u8> = answer.cells().iter().map(|p| p.mask()).collect();
        match first_defect_on(b, &masks) {
            Some(d) => Some(format!("cell {}, side {}", d.cell, d.side)),
            None if !same_pieces(&masks, level.masks(), b.sides()) => {
                Some("a piece changed shape".to_string())
            }
            None => None,
        }
    };
    let wrap = (b.wrap().vertical, b.wrap().horizontal);
    let (outcome, st) = solve_wrapped(&game, wrap, &square, &opts, cancel, defect);
    stats.regions = st.region_sizes.len();
    stats.largest_region = st.region_sizes.iter().copied().max().unwrap_or(0);
    stats.nodes = st.counters.nodes;
    stats.regions_time = st.regions_time;
    stats.search_time = st.search_time;
    stats.verify_time = st.verify_time;
    match outcome {
        solve::Outcome::Solved(answer) => {
            let masks = answer.cells().iter().map(|p| p.mask()).collect();
            Outcome::Solved(BoardLevel::new(b.clone(), masks).expect("same board"))
        }
        solve::Outcome::Unsolvable => Outcome::NoSolution,
        solve::Outcome::Cancelled => Outcome::Cancelled,
        solve::Outcome::TimedOut => Outcome::TimedOut,
        solve::Outcome::Rejected(why) => panic!("{why}"),
    }
}

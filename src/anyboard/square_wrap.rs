//! Wrapped square levels whose wrapped lengths are even go to the square engine
//! ([`crate::solve::solve_wrapped`]): such a board is two-coloured, so the engine's degree
//! witness holds there, and with it levels of mostly one-end pieces fall in milliseconds
//! where this module's siblings search for seconds (dominoes 256x256 wrapped: 2.3 s through
//! the any-board engine and learning). The answer is judged here by the board's own
//! verifier.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::first_pass::current_threads;
use super::solve::{Outcome, Stats};
use super::verify::first_defect_on;
use crate::board::{BoardLevel, Tiling};
use crate::model::{Game, Piece};
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

/// Solves `level`, which [`takes`] must accept, with the square engine on every thread of
/// the pool; the answer is verified on the board before it is returned.
pub fn solve(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, Stats) {
    let b = level.board();
    let cells = level.masks().iter().map(|&m| Piece::from_mask(m)).collect();
    let game = Game::from_cells(b.height(), b.width(), cells);
    let opts = SolveOptions {
        threads: current_threads(),
        timeout,
        ..SolveOptions::default()
    };
    let defect = |answer: &Game| {
        let masks: Vec<u8> = answer.cells().iter().map(|p| p.mask()).collect();
        match first_defect_on(b, &masks) {
            Some(d) => Some(format!("cell {}, side {}", d.cell, d.side)),
            None if !b.same_pieces(&masks, level.masks()) => {
                Some("a piece changed shape".to_string())
            }
            None => None,
        }
    };
    let wrap = (b.wrap().vertical, b.wrap().horizontal);
    let (outcome, st) = solve_wrapped(&game, wrap, &opts, cancel, defect);
    let stats = Stats {
        cells: st.cells,
        fixed_after_propagation: st.fixed_after_propagation,
        regions: st.region_sizes.len(),
        largest_region: st.region_sizes.iter().copied().max().unwrap_or(0),
        nodes: st.counters.nodes,
        propagate_time: st.propagate_time,
        regions_time: st.regions_time,
        search_time: st.search_time,
        verify_time: st.verify_time,
        ..Stats::default()
    };
    let outcome = match outcome {
        solve::Outcome::Solved(answer) => {
            let masks = answer.cells().iter().map(|p| p.mask()).collect();
            Outcome::Solved(BoardLevel::new(b.clone(), masks).expect("same board"))
        }
        solve::Outcome::Unsolvable => Outcome::NoSolution,
        solve::Outcome::Cancelled => Outcome::Cancelled,
        solve::Outcome::TimedOut => Outcome::TimedOut,
        solve::Outcome::Rejected(why) => panic!("{why}"),
    };
    (outcome, stats)
}

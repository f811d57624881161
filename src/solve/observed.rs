//! The engine's search told step by step: the first propagation pass, the region split, then
//! per region the same search the engine runs (flow witness and filter, MRV with failure
//! weights and restarts), on one thread, reporting every step to an [`Observer`]. Used by
//! `--solve --trace` and the game's watch mode; the answer is verified by the checker.

use super::Outcome;
use super::board::Board;
use super::flow::DegreeFlow;
use super::observer::{Observer, Watch};
use super::regions::find_regions;
use super::search::{RESTART_FIRST_CUTOFF, Search, SearchCounters, SearchEnd, search_with};
use super::state::State;
use super::strategy::Order;
use crate::check::first_defect;
use crate::model::{Game, Piece};

/// Solves `game` (only its shapes matter), reporting each step to `obs`; `flow` false searches
/// without the witness (as `--no-flow`). Returns [`Outcome::Cancelled`] when
/// `obs.should_stop()` says so.
pub fn solve_observed<O: Observer>(
    game: &Game,
    flow: bool,
    obs: &mut O,
) -> (Outcome, SearchCounters) {
    let board = Board::new(game);
    let mut state = State::new(&board);
    let mut counters = SearchCounters::default();
    // The first pass keeps no trail; its narrowings are read off a copy of the domains.
    let start = if O::ENABLED {
        state.dom.clone()
    } else {
        Vec::new()
    };
    let consistent = state.propagate_all(&board);
    let mut watch = Watch::new(&board, obs);
    if O::ENABLED {
        for c in board.cells() {
            if start[c] != state.dom[c] {
                watch.narrow(&board, c, start[c], state.dom[c]);
            }
        }
    }
    if !consistent {
        watch.conflict(0);
        return (Outcome::Unsolvable, counters);
    }
    let mut seen = vec![false; board.len()];
    let regions = find_regions(&board, &state, board.cells(), &mut seen);
    drop(seen);
    let mut witness = flow.then(|| DegreeFlow::new(&board));
    let never = || false;
    for i in 0..regions.len() {
        let mut cells = regions.get(i).to_vec();
        watch.region_start(i, cells.len());
        Order::Mrv.arrange(&board, &mut cells);
        let mut ctx = Search {
            board: &board,
            order: Order::Mrv,
            cancelled: &never,
            first_cutoff: RESTART_FIRST_CUTOFF,
            replay_gate: true,
            backjump: true,
            turn_first: u64::MAX,
            counters: &mut counters,
            watch: &mut watch,
        };
        let end = search_with(&mut ctx, &mut state, witness.as_mut(), &cells);
        match end {
            SearchEnd::Solved => {}
            SearchEnd::Exhausted => return (Outcome::Unsolvable, counters),
            SearchEnd::Cancelled => return (Outcome::Cancelled, counters),
        }
    }
    let mut solution = game.clone();
    for r in 0..game.height() {
        for c in 0..game.width() {
            let o = state.dom[board.cell(r, c)].trailing_zeros() as u8;
            solution.set(r, c, Piece::new(game.get(r, c).kind(), o));
        }
    }
    match first_defect(&solution) {
        None => (Outcome::Solved(solution), counters),
        Some(d) => (
            Outcome::Rejected(format!(
                "internal error: the observed search's answer is not solved ({d})"
            )),
            counters,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, generate};
    use crate::model::PieceKind;
    use crate::solve::observer::{Event, NoObserver, OnEvent};
    use crate::solve::tables::FULL_DOMAIN;

    /// Replays events onto a copy of the starting domains; returns the final domains.
    fn replay(game: &Game, events: &[Event]) -> Vec<u8> {
        let w = game.width();
        let mut dom: Vec<u8> = game
            .cells()
            .iter()
            .map(|p| FULL_DOMAIN[p.kind().code() as usize])
            .collect();
        for e in events {
            match *e {
                Event::Narrow {
                    row,
                    col,
                    before,
                    after,
                } => {
                    assert_eq!(dom[row * w + col], before, "{e}");
                    assert_eq!(after & !before, 0, "a narrowing only removes: {e}");
                    dom[row * w + col] = after;
                }
                Event::Decide {
                    row,
                    col,
                    orientation,
                    ..
                } => {
                    assert_ne!(dom[row * w + col] & (1 << orientation), 0, "{e}");
                    dom[row * w + col] = 1 << orientation;
                }
                Event::Restore { row, col, domain } => dom[row * w + col] = domain,
                _ => {}
            }
        }
        dom
    }

    fn observed(game: &Game, flow: bool) -> (Outcome, Vec<Event>) {
        let mut events = Vec::new();
        let (out, _) = solve_observed(
            game,
            flow,
            &mut OnEvent::new(|e| {
                events.push(e);
                true
            }),
        );
        (out, events)
    }

    #[test]
    fn replaying_the_events_rebuilds_the_solution() {
        let mut decisions = [0; 2];
        for seed in 0..80 {
            // Small random levels with and without the witness, and dominoes big enough for
            // the witness to need decisions (too big for the search without it).
            let flow = seed % 4 != 0;
            let mut o = if seed % 4 < 2 {
                GenerateOptions::new(7, 9, seed)
            } else {
                let mut o = GenerateOptions::new(32, 32, seed);
                o.family = Family::Dominoes;
                o
            };
            o.max_components = Some(1 + seed as usize % 3).filter(|_| seed % 4 < 2);
            let game = generate(&o);
            let (out, events) = observed(&game, flow);
            let Outcome::Solved(sol) = out else {
                panic!("seed {seed}: {out:?}")
            };
            let dom = replay(&game, &events);
            for (i, p) in sol.cells().iter().enumerate() {
                assert_eq!(dom[i], 1 << p.orientation(), "seed {seed} cell {i}");
            }
            decisions[usize::from(flow)] += events
                .iter()
                .filter(|e| matches!(e, Event::Decide { .. }))
                .count();
        }
        assert!(decisions[0] > 0 && decisions[1] > 0, "{decisions:?}");
    }

    #[test]
    fn unsolvable_levels_end_in_a_conflict_or_a_backtrack() {
        // Two facing corners and a lone end: no solution, found by search or propagation.
        let mut found_backtrack = false;
        for seed in 0..300 {
            // One more connection end somewhere: an odd total, so no solution.
            let mut o = GenerateOptions::new(6, 6, seed);
            o.max_components = Some(1);
            let mut g = generate(&o);
            let i = seed as usize % 36;
            let more = match g.cells()[i].kind() {
                PieceKind::Empty => PieceKind::Q,
                PieceKind::Q => PieceKind::L,
                PieceKind::I | PieceKind::L => PieceKind::T,
                PieceKind::T | PieceKind::X => PieceKind::X,
            };
            g.cells_mut()[i] = Piece::new(more, 0);
            // The witness sees the odd parity at once; without it the search has to backtrack.
            for flow in [false, true] {
                let (out, events) = observed(&g, flow);
                if out != Outcome::Unsolvable {
                    continue;
                }
                found_backtrack |= events.iter().any(|e| matches!(e, Event::Backtrack { .. }));
                let last = events
                    .last()
                    .expect("an unsolvable level reports something");
                assert!(
                    matches!(
                        last,
                        Event::Conflict { .. } | Event::Restore { .. } | Event::Backtrack { .. }
                    ),
                    "{last}"
                );
            }
        }
        assert!(found_backtrack, "some level needed a real backtrack");
    }

    #[test]
    fn no_observer_gives_the_same_answer() {
        let game = generate(&GenerateOptions::new(12, 12, 5));
        let (a, ca) = solve_observed(&game, true, &mut NoObserver);
        let (b, _) = observed(&game, true);
        assert_eq!(a, b);
        assert!(ca.nodes > 0 || matches!(a, Outcome::Solved(_)));
    }

    #[test]
    fn stopping_reports_cancelled() {
        // A level that needs at least one decision after propagation.
        let game = (0..100)
            .map(|seed| {
                let mut o = GenerateOptions::new(32, 32, seed);
                o.family = Family::Dominoes;
                generate(&o)
            })
            .find(|g| solve_observed(g, true, &mut NoObserver).1.nodes > 0)
            .expect("some 32x32 dominoes level needs a decision");
        let (out, _) = solve_observed(
            &game,
            true,
            &mut OnEvent::new(|e| !matches!(e, Event::RegionStart { .. })),
        );
        assert_eq!(out, Outcome::Cancelled);
    }
}

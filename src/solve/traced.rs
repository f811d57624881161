//! A plain solver that tells its story: propagation, the region split, then a depth-first
//! search per region that branches on the undecided cell with the fewest orientations left
//! (MRV), reporting every step to an [`Observer`].
//!
//! It is deliberately separate from the production engine ([`super::solve`]: flow witness,
//! strategy races, worker pool), so that engine carries no observer calls and watching costs
//! it nothing. This path is one thread and much simpler; it is still complete (each branch
//! covers a cell's whole domain) and its answers are verified by the checker.

use super::Outcome;
use super::board::Board;
use super::observer::Observer;
use super::regions::find_regions;
use super::search::SearchCounters;
use super::state::State;
use crate::check::first_defect;
use crate::model::{Game, Piece};

/// Solves `game` (only its shapes matter), reporting each step to `obs`. Returns
/// [`Outcome::Cancelled`] when `obs.should_stop()` says so.
pub fn solve_traced<O: Observer>(game: &Game, obs: &mut O) -> (Outcome, SearchCounters) {
    let board = Board::new(game);
    let mut state = State::new(&board);
    let mut counters = SearchCounters::default();
    let mut reporter = Reporter::new(&board, O::ENABLED);
    state.enqueue_all(&board);
    let consistent = state.propagate(&board);
    reporter.narrowings(&board, &state, 0, 0, obs);
    if !consistent {
        obs.conflict(0);
        return (Outcome::Unsolvable, counters);
    }
    state.clear_trail();
    let mut seen = vec![false; board.len()];
    let regions = find_regions(&board, &state, board.cells(), &mut seen);
    drop(seen);
    for i in 0..regions.len() {
        let region = regions.get(i);
        obs.region_start(i, region.len());
        match search_region(
            &board,
            &mut state,
            region,
            obs,
            &mut reporter,
            &mut counters,
        ) {
            RegionEnd::Solved => state.clear_trail(),
            RegionEnd::Exhausted => return (Outcome::Unsolvable, counters),
            RegionEnd::Stopped => return (Outcome::Cancelled, counters),
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
                "internal error: the traced solver's answer is not solved ({d})"
            )),
            counters,
        ),
    }
}

enum RegionEnd {
    Solved,
    Exhausted,
    Stopped,
}

struct Frame {
    cell: u32,
    /// Orientations not tried yet.
    untried: u8,
    /// Trail position before this decision.
    mark: usize,
}

/// The undecided cell of `region` with the fewest orientations left (first on ties).
fn pick_mrv(state: &State, region: &[u32]) -> Option<usize> {
    let mut best = None;
    let mut best_count = u32::MAX;
    for &c in region {
        let n = state.dom[c as usize].count_ones();
        if n > 1 && n < best_count {
            best = Some(c as usize);
            best_count = n;
            if n == 2 {
                break;
            }
        }
    }
    best
}

fn search_region<O: Observer>(
    board: &Board,
    state: &mut State,
    region: &[u32],
    obs: &mut O,
    reporter: &mut Reporter,
    counters: &mut SearchCounters,
) -> RegionEnd {
    let base = state.mark();
    let mut stack: Vec<Frame> = Vec::new();
    loop {
        let Some(cell) = pick_mrv(state, region) else {
            return RegionEnd::Solved;
        };
        stack.push(Frame {
            cell: cell as u32,
            untried: state.dom[cell],
            mark: state.mark(),
        });
        loop {
            let Some(top) = stack.last_mut() else {
                reporter.undo(board, state, base, obs);
                return RegionEnd::Exhausted;
            };
            let (mark, cell) = (top.mark, top.cell as usize);
            if top.untried == 0 {
                reporter.undo(board, state, mark, obs);
                stack.pop();
                counters.backtracks += 1;
                let (r, c) = board.row_col(cell);
                obs.backtrack(r, c, stack.len() + 1);
                continue;
            }
            let o = top.untried.trailing_zeros() as u8;
            top.untried &= top.untried - 1;
            reporter.undo(board, state, mark, obs);
            counters.nodes += 1;
            if obs.should_stop() {
                reporter.undo(board, state, base, obs);
                return RegionEnd::Stopped;
            }
            let depth = stack.len();
            let (r, c) = board.row_col(cell);
            obs.decide(r, c, o, depth);
            let ok = state.decide(board, cell, o);
            // The first change is the decision itself, already told by `decide`.
            reporter.narrowings(board, state, mark, 1, obs);
            if ok {
                break;
            }
            obs.conflict(depth);
        }
    }
}

/// Turns trail entries into events. The trail holds each change's *old* domain; the new one is
/// the next change's old domain for the same cell, or the cell's current domain.
struct Reporter {
    enabled: bool,
    /// Scratch per padded cell: the domain after the change being looked at (0xFF: unset).
    after: Vec<u8>,
    events: Vec<(u32, u8, u8)>,
}

impl Reporter {
    fn new(board: &Board, enabled: bool) -> Reporter {
        Reporter {
            enabled,
            after: if enabled {
                vec![0xFF; board.len()]
            } else {
                Vec::new()
            },
            events: Vec::new(),
        }
    }

    /// Reports the changes since `mark`, skipping the first `skip` of them.
    fn narrowings<O: Observer>(
        &mut self,
        board: &Board,
        state: &State,
        mark: usize,
        skip: usize,
        obs: &mut O,
    ) {
        if !self.enabled {
            return;
        }
        let changes = state.changes_since(mark);
        self.events.clear();
        for (k, &(cell, old)) in changes.iter().enumerate().rev() {
            let slot = &mut self.after[cell as usize];
            let new = if *slot == 0xFF {
                state.dom[cell as usize]
            } else {
                *slot
            };
            *slot = old;
            if k >= skip {
                self.events.push((cell, old, new));
            }
        }
        for &(cell, _) in changes {
            self.after[cell as usize] = 0xFF;
        }
        for &(cell, before, after) in self.events.iter().rev() {
            let (r, c) = board.row_col(cell as usize);
            obs.narrow(r, c, before, after);
        }
    }

    /// Undoes the trail to `mark`, reporting each restoration in the order it happens.
    fn undo<O: Observer>(&mut self, board: &Board, state: &mut State, mark: usize, obs: &mut O) {
        if self.enabled {
            for &(cell, old) in state.changes_since(mark).iter().rev() {
                let (r, c) = board.row_col(cell as usize);
                obs.restore(r, c, old);
            }
        }
        state.undo_to(mark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};
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

    fn traced(game: &Game) -> (Outcome, Vec<Event>) {
        let mut events = Vec::new();
        let (out, _) = solve_traced(
            game,
            &mut OnEvent::new(|e| {
                events.push(e);
                true
            }),
        );
        (out, events)
    }

    #[test]
    fn replaying_the_events_rebuilds_the_solution() {
        for seed in 0..40 {
            let mut o = GenerateOptions::new(7, 9, seed);
            o.max_components = Some(1 + seed as usize % 3);
            let game = generate(&o);
            let (out, events) = traced(&game);
            let Outcome::Solved(sol) = out else {
                panic!("seed {seed}: {out:?}")
            };
            let dom = replay(&game, &events);
            for (i, p) in sol.cells().iter().enumerate() {
                assert_eq!(dom[i], 1 << p.orientation(), "seed {seed} cell {i}");
            }
        }
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
            let (out, events) = traced(&g);
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
        assert!(found_backtrack, "some level needed a real backtrack");
    }

    #[test]
    fn no_observer_gives_the_same_answer() {
        let game = generate(&GenerateOptions::new(12, 12, 5));
        let (a, ca) = solve_traced(&game, &mut NoObserver);
        let (b, _) = traced(&game);
        assert_eq!(a, b);
        assert!(ca.nodes > 0 || matches!(a, Outcome::Solved(_)));
    }

    #[test]
    fn stopping_reports_cancelled() {
        // A level that needs at least one decision after propagation.
        let game = (0..100)
            .map(|seed| {
                let mut o = GenerateOptions::new(10, 10, seed);
                o.max_components = Some(1);
                generate(&o)
            })
            .find(|g| solve_traced(g, &mut NoObserver).1.nodes > 0)
            .expect("some 10x10 level needs a decision");
        let (out, _) = solve_traced(
            &game,
            &mut OnEvent::new(|e| !matches!(e, Event::RegionStart { .. })),
        );
        assert_eq!(out, Outcome::Cancelled);
    }
}

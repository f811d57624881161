//! The solver's story as a stream of events: region starts, decisions, each narrowing of a
//! cell's domain, conflicts, backtracks and the restorations an undo makes.
//!
//! The search ([`super::search`]) is generic over an observer: the production engine runs it
//! with [`NoObserver`], whose [`Observer::ENABLED`] is false, so every reporting call is
//! compiled out and watching costs the engine nothing. [`super::observed::solve_observed`]
//! runs the same search (MRV, flow witness and filter, restarts) on one thread with a real
//! observer, for `--solve --trace` and the game's watch mode.
//!
//! Cells are given as game (row, col); domains as orientation bitmasks (bit o = orientation o
//! still possible).

use std::fmt;

use super::board::Board;
use super::state::State;

/// Receives the search's events as they happen. Every method has an empty default, so an
/// observer implements only what it watches.
pub trait Observer {
    /// False when every event is ignored: the search then never builds one.
    const ENABLED: bool = true;

    /// Search starts on region `index` (0-based) of `cells` undecided cells.
    fn region_start(&mut self, _index: usize, _cells: usize) {}

    /// The search fixes (row, col) to `orientation`; `depth` counts the decisions in force,
    /// this one included (the first decision has depth 1).
    fn decide(&mut self, _row: usize, _col: usize, _orientation: u8, _depth: usize) {}

    /// Propagation narrowed (row, col) from domain `before` to `after`.
    fn narrow(&mut self, _row: usize, _col: usize, _before: u8, _after: u8) {}

    /// Propagation after the decision at `depth` (0: the first pass) emptied some domain.
    fn conflict(&mut self, _depth: usize) {}

    /// Every orientation of the decision at (row, col), depth `depth`, failed: the search
    /// goes back to the decision above it.
    fn backtrack(&mut self, _row: usize, _col: usize, _depth: usize) {}

    /// An undo gave (row, col) back its earlier domain `domain`.
    fn restore(&mut self, _row: usize, _col: usize, _domain: u8) {}

    /// The search went back to the start of its region (restart number `count`), keeping what
    /// it learnt about which cells fail; the restorations come before this event.
    fn restart(&mut self, _count: u64) {}

    /// Polled once per decision: true stops the search (reported as cancelled).
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// Ignores everything; the search with it does no reporting work at all.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const ENABLED: bool = false;
}

/// One event, for observers that store or forward events rather than react in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// See [`Observer::region_start`].
    RegionStart {
        /// 0-based index of the region.
        index: usize,
        /// Undecided cells in the region.
        cells: usize,
    },
    /// See [`Observer::decide`].
    Decide {
        /// Game row of the decided cell.
        row: usize,
        /// Game column of the decided cell.
        col: usize,
        /// The orientation fixed (0..4).
        orientation: u8,
        /// Decisions in force, this one included (the first has depth 1).
        depth: usize,
    },
    /// See [`Observer::narrow`].
    Narrow {
        /// Game row of the narrowed cell.
        row: usize,
        /// Game column of the narrowed cell.
        col: usize,
        /// Domain before the change (orientation bitmask).
        before: u8,
        /// Domain after the change, a strict subset of `before` (possibly empty).
        after: u8,
    },
    /// See [`Observer::conflict`].
    Conflict {
        /// Depth of the decision whose propagation failed (0: the first pass).
        depth: usize,
    },
    /// See [`Observer::backtrack`].
    Backtrack {
        /// Game row of the exhausted decision's cell.
        row: usize,
        /// Game column of the exhausted decision's cell.
        col: usize,
        /// Depth of the exhausted decision.
        depth: usize,
    },
    /// See [`Observer::restore`].
    Restore {
        /// Game row of the restored cell.
        row: usize,
        /// Game column of the restored cell.
        col: usize,
        /// The domain given back (orientation bitmask).
        domain: u8,
    },
    /// See [`Observer::restart`].
    Restart {
        /// Restarts counted so far, this one included.
        count: u64,
    },
}

/// Adapts a closure to an [`Observer`]: it gets every event and returns false to stop the
/// search (e.g. when the receiving end of a channel has gone).
pub struct OnEvent<F: FnMut(Event) -> bool> {
    f: F,
    stopped: bool,
}

impl<F: FnMut(Event) -> bool> OnEvent<F> {
    /// Wraps `f`; once it has returned false no further event is sent and the search stops.
    pub fn new(f: F) -> OnEvent<F> {
        OnEvent { f, stopped: false }
    }

    fn send(&mut self, e: Event) {
        if !self.stopped && !(self.f)(e) {
            self.stopped = true;
        }
    }
}

impl<F: FnMut(Event) -> bool> Observer for OnEvent<F> {
    fn region_start(&mut self, index: usize, cells: usize) {
        self.send(Event::RegionStart { index, cells });
    }
    fn decide(&mut self, row: usize, col: usize, orientation: u8, depth: usize) {
        self.send(Event::Decide {
            row,
            col,
            orientation,
            depth,
        });
    }
    fn narrow(&mut self, row: usize, col: usize, before: u8, after: u8) {
        self.send(Event::Narrow {
            row,
            col,
            before,
            after,
        });
    }
    fn conflict(&mut self, depth: usize) {
        self.send(Event::Conflict { depth });
    }
    fn backtrack(&mut self, row: usize, col: usize, depth: usize) {
        self.send(Event::Backtrack { row, col, depth });
    }
    fn restore(&mut self, row: usize, col: usize, domain: u8) {
        self.send(Event::Restore { row, col, domain });
    }
    fn restart(&mut self, count: u64) {
        self.send(Event::Restart { count });
    }
    fn should_stop(&mut self) -> bool {
        self.stopped
    }
}

/// Writes a domain as its orientations, e.g. `{0,2}`.
pub struct Domain(pub u8);

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        let mut first = true;
        for o in 0..4 {
            if self.0 & (1 << o) != 0 {
                if !first {
                    f.write_str(",")?;
                }
                write!(f, "{o}")?;
                first = false;
            }
        }
        f.write_str("}")
    }
}

/// The one-line form used by `--solve --trace`.
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::RegionStart { index, cells } => {
                write!(f, "region {}: {cells} undecided cells", index + 1)
            }
            Event::Decide {
                row,
                col,
                orientation,
                depth,
            } => write!(f, "decide ({row},{col}) = {orientation} at depth {depth}"),
            Event::Narrow {
                row,
                col,
                before,
                after,
            } => write!(
                f,
                "narrow ({row},{col}) {} -> {}",
                Domain(before),
                Domain(after)
            ),
            Event::Conflict { depth } => write!(f, "conflict at depth {depth}"),
            Event::Backtrack { row, col, depth } => {
                write!(
                    f,
                    "backtrack ({row},{col}) at depth {depth}: no orientation left"
                )
            }
            Event::Restore { row, col, domain } => {
                write!(f, "restore ({row},{col}) {}", Domain(domain))
            }
            Event::Restart { count } => {
                write!(
                    f,
                    "restart {count}: back to the region's start, keeping failure weights"
                )
            }
        }
    }
}

/// What the search holds while it runs: the observer, and the scratch to turn trail entries
/// into events. Every method does nothing, and compiles to nothing, when the observer is not
/// [`Observer::ENABLED`].
pub struct Watch<'o, O: Observer> {
    obs: &'o mut O,
    /// Scratch per padded cell: the domain after the change being looked at (0xFF: unset).
    after: Vec<u8>,
    events: Vec<(u32, u8, u8)>,
}

impl<'o, O: Observer> Watch<'o, O> {
    /// Wraps `obs` for a search on `board`; allocates the scratch only when the observer is
    /// [`Observer::ENABLED`].
    pub fn new(board: &Board, obs: &'o mut O) -> Watch<'o, O> {
        Watch {
            obs,
            after: if O::ENABLED {
                vec![0xFF; board.len()]
            } else {
                Vec::new()
            },
            events: Vec::new(),
        }
    }

    /// Forwards [`Observer::region_start`].
    #[inline]
    pub fn region_start(&mut self, index: usize, cells: usize) {
        if O::ENABLED {
            self.obs.region_start(index, cells);
        }
    }

    /// Forwards [`Observer::decide`] with the padded `cell` turned into game (row, col).
    #[inline]
    pub fn decide(&mut self, board: &Board, cell: usize, orientation: u8, depth: usize) {
        if O::ENABLED {
            let (r, c) = board.row_col(cell);
            self.obs.decide(r, c, orientation, depth);
        }
    }

    /// Forwards [`Observer::conflict`].
    #[inline]
    pub fn conflict(&mut self, depth: usize) {
        if O::ENABLED {
            self.obs.conflict(depth);
        }
    }

    /// Forwards [`Observer::backtrack`] with the padded `cell` turned into game (row, col).
    #[inline]
    pub fn backtrack(&mut self, board: &Board, cell: usize, depth: usize) {
        if O::ENABLED {
            let (r, c) = board.row_col(cell);
            self.obs.backtrack(r, c, depth);
        }
    }

    /// Forwards [`Observer::restart`].
    #[inline]
    pub fn restart(&mut self, count: u64) {
        if O::ENABLED {
            self.obs.restart(count);
        }
    }

    /// Forwards [`Observer::narrow`] with the padded `cell` turned into game (row, col).
    #[inline]
    pub fn narrow(&mut self, board: &Board, cell: usize, before: u8, after: u8) {
        if O::ENABLED {
            let (r, c) = board.row_col(cell);
            self.obs.narrow(r, c, before, after);
        }
    }

    /// The observer's [`Observer::should_stop`]; always false when it is not enabled.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        O::ENABLED && self.obs.should_stop()
    }

    /// Reports the trail's changes since `mark`, skipping the first `skip` of them. The trail
    /// holds each change's *old* domain; the new one is the next change's old domain for the
    /// same cell, or the cell's current domain.
    #[inline]
    pub fn narrowed(&mut self, board: &Board, state: &State, mark: usize, skip: usize) {
        if O::ENABLED {
            self.report_narrowings(board, state, mark, skip);
        }
    }

    fn report_narrowings(&mut self, board: &Board, state: &State, mark: usize, skip: usize) {
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
        for k in (0..self.events.len()).rev() {
            let (cell, before, after) = self.events[k];
            let (r, c) = board.row_col(cell as usize);
            self.obs.narrow(r, c, before, after);
        }
    }

    /// Undoes the trail to `mark`, reporting each restoration in the order it happens.
    #[inline]
    pub fn undo(&mut self, board: &Board, state: &mut State, mark: usize) {
        if O::ENABLED {
            for &(cell, old) in state.changes_since(mark).iter().rev() {
                let (r, c) = board.row_col(cell as usize);
                self.obs.restore(r, c, old);
            }
        }
        state.undo_to(mark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_read_as_one_line_each() {
        let e = Event::Narrow {
            row: 2,
            col: 5,
            before: 0b1111,
            after: 0b0101,
        };
        assert_eq!(e.to_string(), "narrow (2,5) {0,1,2,3} -> {0,2}");
        let d = Event::Decide {
            row: 0,
            col: 1,
            orientation: 3,
            depth: 4,
        };
        assert_eq!(d.to_string(), "decide (0,1) = 3 at depth 4");
        assert_eq!(Domain(0).to_string(), "{}");
    }

    #[test]
    fn on_event_stops_once_the_closure_says_so() {
        let mut seen = 0;
        let mut obs = OnEvent::new(|_| {
            seen += 1;
            seen < 2
        });
        obs.conflict(1);
        assert!(!obs.should_stop());
        obs.conflict(2);
        assert!(obs.should_stop());
        obs.conflict(3);
        assert_eq!(seen, 2, "no event is sent after the stop");
    }
}

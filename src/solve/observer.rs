//! The solver's story as a stream of events: region starts, decisions, each narrowing of a
//! cell's domain, conflicts, backtracks and the restorations an undo makes.
//!
//! Only the traced solver ([`super::traced`]) reports events; the production engine
//! ([`super::solve`]) has no observer calls at all, so watching costs it nothing. Every method
//! has an empty default body, and an observer whose [`Observer::ENABLED`] is false makes the
//! traced solver skip even the work of building events (walking the trail).
//!
//! Cells are given as game (row, col); domains as orientation bitmasks (bit o = orientation o
//! still possible).

use std::fmt;

pub trait Observer {
    /// False when every event is ignored: the traced solver then never builds one.
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

    /// Polled once per decision: true stops the search (reported as cancelled).
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// Ignores everything; the traced solver with it does no reporting work at all.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const ENABLED: bool = false;
}

/// One event, for observers that store or forward events rather than react in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    RegionStart {
        index: usize,
        cells: usize,
    },
    Decide {
        row: usize,
        col: usize,
        orientation: u8,
        depth: usize,
    },
    Narrow {
        row: usize,
        col: usize,
        before: u8,
        after: u8,
    },
    Conflict {
        depth: usize,
    },
    Backtrack {
        row: usize,
        col: usize,
        depth: usize,
    },
    Restore {
        row: usize,
        col: usize,
        domain: u8,
    },
}

/// Adapts a closure to an [`Observer`]: it gets every event and returns false to stop the
/// search (e.g. when the receiving end of a channel has gone).
pub struct OnEvent<F: FnMut(Event) -> bool> {
    f: F,
    stopped: bool,
}

impl<F: FnMut(Event) -> bool> OnEvent<F> {
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
        }
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

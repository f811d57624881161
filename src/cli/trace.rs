//! `--solve --trace`: runs the observed search and writes one line per event to stderr (stdout
//! keeps the `SOLVED:` verdict and, with `-o -`, the level). Restorations made by an undo are
//! not printed: a `backtrack` or `conflict` line implies them.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::model::Game;
use crate::solve::{Event, Observer, Outcome, SolveStats, solve_observed};

struct TracePrinter<W: Write> {
    out: W,
    deadline: Option<Instant>,
    /// Set when a write failed (e.g. stderr closed): the solve goes on, silently.
    broken: bool,
}

impl<W: Write> TracePrinter<W> {
    fn line(&mut self, e: Event) {
        if !self.broken && writeln!(self.out, "{e}").is_err() {
            self.broken = true;
        }
    }
}

impl<W: Write> Observer for TracePrinter<W> {
    fn region_start(&mut self, index: usize, cells: usize) {
        self.line(Event::RegionStart { index, cells });
    }
    fn decide(&mut self, row: usize, col: usize, orientation: u8, depth: usize) {
        self.line(Event::Decide {
            row,
            col,
            orientation,
            depth,
        });
    }
    fn narrow(&mut self, row: usize, col: usize, before: u8, after: u8) {
        self.line(Event::Narrow {
            row,
            col,
            before,
            after,
        });
    }
    fn conflict(&mut self, depth: usize) {
        self.line(Event::Conflict { depth });
    }
    fn backtrack(&mut self, row: usize, col: usize, depth: usize) {
        self.line(Event::Backtrack { row, col, depth });
    }
    fn restart(&mut self, count: u64) {
        self.line(Event::Restart { count });
    }
    fn should_stop(&mut self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || super::interrupt::cancelled()
    }
}

/// Solves `game` with the observed search, tracing to stderr; stops at `timeout`.
pub fn solve_with_trace(
    game: &Game,
    flow: bool,
    timeout: Option<Duration>,
) -> (Outcome, SolveStats) {
    let t = Instant::now();
    let mut printer = TracePrinter {
        out: std::io::BufWriter::new(std::io::stderr().lock()),
        deadline: timeout.map(|d| t + d),
        broken: false,
    };
    let (mut outcome, counters) = solve_observed(game, flow, &mut printer);
    let timed_out = printer.deadline.is_some_and(|d| Instant::now() >= d);
    if outcome == Outcome::Cancelled && timed_out && !super::interrupt::cancelled() {
        outcome = Outcome::TimedOut;
    }
    let _ = writeln!(
        printer.out,
        "trace: {} decisions, {} backtracks, {} restarts, {} cells fixed by the flow filter",
        counters.nodes, counters.backtracks, counters.restarts, counters.filter_fixed
    );
    let _ = printer.out.flush();
    let stats = SolveStats {
        cells: game.len(),
        threads: 1,
        counters,
        search_time: t.elapsed(),
        ..SolveStats::default()
    };
    (outcome, stats)
}

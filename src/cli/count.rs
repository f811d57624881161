//! `--count FILE`: prints `SOLUTIONS: N` (or `SOLUTIONS: >= K` when `--count-limit K` stopped
//! the count) and exits 0 when there is a solution, 1 when there is none, 3 on timeout. On a
//! terminal, stderr shows how far a long count has got and how to bound it.
//!
//! `--unique-check FILE`: prints `UNIQUE: true|false`; exits 0 when the level has exactly one
//! solution, 1 when it has none or several, 3 on timeout.

use std::cell::Cell;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use super::error::CliError;
use super::interrupt;
use super::out;
use super::run::{EXIT_CANCELLED, EXIT_NO, EXIT_OK};
use crate::count::{
    CountOptions, CountOutcome, CountProgress, CountStats, count_solutions_with_progress,
    unique_check,
};

/// A progress line on stderr when it is a terminal, at most every quarter second and only
/// once the count has run for a second (short counts print nothing).
struct ProgressLine {
    on: bool,
    last: Cell<Option<Instant>>,
    shown: Cell<bool>,
}

impl ProgressLine {
    fn new() -> ProgressLine {
        ProgressLine {
            on: std::io::stderr().is_terminal(),
            last: Cell::new(None),
            shown: Cell::new(false),
        }
    }

    fn show(&self, p: &CountProgress) {
        if !self.on || p.elapsed < Duration::from_secs(1) {
            return;
        }
        let now = Instant::now();
        if self
            .last
            .get()
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(250))
        {
            return;
        }
        self.last.set(Some(now));
        self.shown.set(true);
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[Kcounting: {}/{} regions done ({} of {} undecided cells), now a region of {} cells, {:.0} s (bound it with --count-limit K or --timeout SECS)",
            p.regions_done,
            p.regions,
            p.cells_done,
            p.cells,
            p.current_region,
            p.elapsed.as_secs_f64()
        );
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.shown.get() {
            eprint!("\r\x1b[K");
        }
    }
}

fn count_with_progress(
    game: &crate::model::Game,
    opts: &CountOptions,
) -> (CountOutcome, CountStats) {
    interrupt::cooperative(true);
    let line = ProgressLine::new();
    let result = count_solutions_with_progress(game, opts, &interrupt::CANCEL, &|p| line.show(p));
    line.finish();
    result
}

/// `--unique-check`: prints `UNIQUE: true|false`, searching only for a second solution.
pub fn run_unique_check(
    game: crate::model::Game,
    timeout: Option<Duration>,
    stats: bool,
) -> Result<i32, CliError> {
    let t0 = Instant::now();
    let parse_time = t0.elapsed();
    // Stops at the second solution: a search for another solution, never a full count.
    let opts = CountOptions {
        limit: None,
        timeout,
    };
    interrupt::cooperative(true);
    let line = ProgressLine::new();
    let (outcome, st) = unique_check(&game, &opts, &interrupt::CANCEL, &|p| line.show(p));
    line.finish();
    let code = match outcome {
        CountOutcome::Exact(n) => {
            let unique = n == num_bigint::BigUint::from(1u32);
            out::line(&format!("UNIQUE: {unique}"))?;
            if unique { EXIT_OK } else { EXIT_NO }
        }
        CountOutcome::AtLeast(_) => {
            out::line("UNIQUE: false")?;
            EXIT_NO
        }
        CountOutcome::TimedOut => {
            errln!("timed out before uniqueness was decided");
            EXIT_CANCELLED
        }
        CountOutcome::Cancelled => {
            errln!("cancelled before uniqueness was decided");
            EXIT_CANCELLED
        }
    };
    if stats {
        print_stats(&st, parse_time, t0.elapsed());
    }
    Ok(code)
}

/// `--count`: prints `SOLUTIONS: N` (or `>= N` when the limit was reached).
pub fn run_count(
    game: crate::model::Game,
    limit: Option<u64>,
    timeout: Option<Duration>,
    stats: bool,
) -> Result<i32, CliError> {
    let t0 = Instant::now();
    let parse_time = t0.elapsed();
    let (outcome, st) = count_with_progress(&game, &CountOptions { limit, timeout });
    let code = match outcome {
        CountOutcome::Exact(n) => {
            out::line(&format!("SOLUTIONS: {n}"))?;
            if n == num_bigint::BigUint::ZERO {
                EXIT_NO
            } else {
                EXIT_OK
            }
        }
        CountOutcome::AtLeast(k) => {
            out::line(&format!("SOLUTIONS: >= {k}"))?;
            EXIT_OK
        }
        CountOutcome::TimedOut => {
            errln!("timed out before the count was complete");
            EXIT_CANCELLED
        }
        CountOutcome::Cancelled => {
            errln!("cancelled before the count was complete");
            EXIT_CANCELLED
        }
    };
    if stats {
        print_stats(&st, parse_time, t0.elapsed());
    }
    Ok(code)
}

fn print_stats(st: &CountStats, parse: Duration, total: Duration) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let largest = st.region_sizes.iter().max().copied().unwrap_or(0);
    errln!("cells: {}", st.cells);
    errln!("fixed after propagation: {}", st.fixed_after_propagation);
    errln!("fixed after the flow filter: {}", st.fixed_by_flow);
    if st.fixed_by_probing > st.fixed_by_flow {
        errln!(
            "fixed after probing beside the first solution: {}",
            st.fixed_by_probing
        );
    }
    errln!(
        "regions: {} (largest {largest} cells)",
        st.region_sizes.len()
    );
    errln!(
        "regions by frontier sweep: {} (peak {} states); search nodes: {}, component splits: {}, \
         cached components reused: {}",
        st.frontier.regions,
        st.frontier.peak_states,
        st.counters.nodes,
        st.counters.splits,
        st.counters.cache_hits
    );
    errln!(
        "regions by determinant: {} ({} cells, most branch cells {}, {} cases)",
        st.determinant.regions,
        st.determinant.cells,
        st.determinant.branch_cells,
        st.determinant.cases
    );
    if let Some(sat) = st.sat {
        errln!(
            "SAT racer (second-solution search with clause learning): {}, {} conflicts",
            if sat.won { "answered first" } else { "stopped" },
            sat.conflicts
        );
    }
    errln!(
        "time ms: parse {:.3}, propagate {:.3}, count {:.3}, total {:.3}",
        ms(parse),
        ms(st.propagate_time),
        ms(st.count_time),
        ms(total)
    );
}

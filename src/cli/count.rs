//! `--count FILE`: prints `SOLUTIONS: N` (or `SOLUTIONS: >= K` when `--count-limit K` was
//! reached) and exits 0 when there is a solution, 1 when there is none, 3 on timeout.

use std::path::Path;
use std::time::{Duration, Instant};

use super::interrupt;
use super::out;
use super::run::{EXIT_CANCELLED, EXIT_NO, EXIT_OK, fail, read_input};
use crate::count::{CountOptions, CountOutcome, CountStats, count_solutions};

pub fn run_count(input: &Path, limit: Option<u64>, timeout: Option<Duration>, stats: bool) -> i32 {
    let t0 = Instant::now();
    let game = match read_input(input) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let parse_time = t0.elapsed();
    interrupt::cooperative(true);
    let options = CountOptions { limit, timeout };
    let (outcome, st) = count_solutions(&game, &options, &interrupt::CANCEL);
    let code = match outcome {
        CountOutcome::Exact(n) => {
            if let Err(e) = out::line(&format!("SOLUTIONS: {n}")) {
                return fail(e);
            }
            if n == num_bigint::BigUint::ZERO {
                EXIT_NO
            } else {
                EXIT_OK
            }
        }
        CountOutcome::AtLeast(k) => {
            if let Err(e) = out::line(&format!("SOLUTIONS: >= {k}")) {
                return fail(e);
            }
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
    code
}

fn print_stats(st: &CountStats, parse: Duration, total: Duration) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let largest = st.region_sizes.iter().max().copied().unwrap_or(0);
    errln!("cells: {}", st.cells);
    errln!("fixed after propagation: {}", st.fixed_after_propagation);
    errln!(
        "regions: {} (largest {largest} cells)",
        st.region_sizes.len()
    );
    errln!(
        "count nodes: {}, component splits: {}",
        st.counters.nodes,
        st.counters.splits
    );
    errln!(
        "time ms: parse {:.3}, propagate {:.3}, count {:.3}, total {:.3}",
        ms(parse),
        ms(st.propagate_time),
        ms(st.count_time),
        ms(total)
    );
}

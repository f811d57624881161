//! `--count FILE`: prints `SOLUTIONS: N` (or `SOLUTIONS: >= K` when `--count-limit K` was
//! reached) and exits 0 when there is a solution, 1 when there is none, 3 on timeout.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::run::{EXIT_CANCELLED, EXIT_NO, EXIT_OK, fail, read_input};
use crate::count::{CountOptions, CountOutcome, CountStats, count_solutions};

pub fn run_count(input: &Path, limit: Option<u64>, timeout: Option<Duration>, stats: bool) -> i32 {
    let t0 = Instant::now();
    let game = match read_input(input) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let parse_time = t0.elapsed();
    let cancel = AtomicBool::new(false);
    let (outcome, st) = count_solutions(&game, &CountOptions { limit, timeout }, &cancel);
    let code = match outcome {
        CountOutcome::Exact(n) => {
            println!("SOLUTIONS: {n}");
            if n == num_bigint::BigUint::ZERO {
                EXIT_NO
            } else {
                EXIT_OK
            }
        }
        CountOutcome::AtLeast(k) => {
            println!("SOLUTIONS: >= {k}");
            EXIT_OK
        }
        CountOutcome::TimedOut => {
            eprintln!("timed out before the count was complete");
            EXIT_CANCELLED
        }
        CountOutcome::Cancelled => {
            eprintln!("cancelled before the count was complete");
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
    eprintln!("cells: {}", st.cells);
    eprintln!("fixed after propagation: {}", st.fixed_after_propagation);
    eprintln!(
        "regions: {} (largest {largest} cells)",
        st.region_sizes.len()
    );
    eprintln!(
        "count nodes: {}, component splits: {}",
        st.counters.nodes, st.counters.splits
    );
    eprintln!(
        "time ms: parse {:.3}, propagate {:.3}, count {:.3}, total {:.3}",
        ms(parse),
        ms(st.propagate_time),
        ms(st.count_time),
        ms(total)
    );
}

//! Time per solve of small levels through the library facade, one thread: what a caller
//! solving many small puzzles pays per call (with and without the `parallel` feature).
//! `cargo run --release --example small_solves [SIZE] [N]`

use std::time::Instant;

use phineloops::{Generator, Outcome, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let size: usize = args.next().map_or(Ok(3), |s| s.parse())?;
    let n: usize = args.next().map_or(Ok(20_000), |s| s.parse())?;
    let levels: Vec<_> = (0..64)
        .map(|seed| Generator::new(size, size).seed(seed).generate())
        .collect::<Result<_, _>>()?;
    let solver = Solver::new().threads(1);
    // Warm-up: the first call pays for starting any thread pool.
    for g in &levels {
        assert!(matches!(solver.solve(g), Outcome::Solved(_)));
    }
    let mut times = Vec::new();
    for _round in 0..5 {
        let t = Instant::now();
        for i in 0..n {
            let out = solver.solve(&levels[i % levels.len()]);
            assert!(matches!(out, Outcome::Solved(_)));
        }
        times.push(t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{size}x{size}: {:.1} us per solve (min of 5 rounds of {n}; median {:.1})",
        times[0], times[2]
    );
    Ok(())
}

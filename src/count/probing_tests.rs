//! The second pass of a count that knows a first solution probes the alternatives to it
//! ([`super::beside_guide`]): on every kind of level, every count it gives must be the exact
//! one.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use super::counter_tests::{SOME_FAMILIES, exact, plain_unique_or_broken};
use super::{CountOutcome, CountStats, Rest, count_pass};
use crate::generate::{Family, GenerateOptions};
use crate::model::Game;
use crate::solve::{Outcome, SolveOptions, solve};

/// The second pass of a count of `level` with `first` known, without a limit (`k` = None) or
/// stopping past `k`.
fn second_pass(level: &Game, first: &Game, k: Option<u64>) -> (CountOutcome, CountStats) {
    let rest = Rest {
        requested: k,
        limit: k.map(|k| k + 1),
        deadline: None,
        start: Instant::now(),
        progress: &|_| {},
        sweep: None,
        stats: CountStats {
            cells: level.len(),
            ..CountStats::default()
        },
        solve_time: Duration::ZERO,
    };
    count_pass(level, Some(first), &rest, &AtomicBool::new(false), false)
        .expect("a pass without a cap ends")
}

/// Levels of every family, unique ones and variants with no solution, at sizes the exact count
/// settles at once; each is counted exactly, then by the second pass from the solver's answer.
#[test]
fn probing_beside_the_first_solution_keeps_every_solution() {
    let families: Vec<Family> = SOME_FAMILIES
        .into_iter()
        .chain([Family::Paths(3)])
        .collect();
    let no = AtomicBool::new(false);
    let (mut probed, mut several) = (0, 0);
    for seed in 0..140u64 {
        let (h, w) = [(12, 13), (16, 10), (8, 20), (14, 14), (20, 20)][seed as usize % 5];
        let mut o = GenerateOptions::new(h, w, seed);
        o.family = families[seed as usize % families.len()];
        let level = plain_unique_or_broken(&o, seed);
        let truth = exact(&level);
        let Outcome::Solved(first) = solve(&level, &SolveOptions::default(), &no).0 else {
            assert_eq!(truth, BigUint::ZERO, "seed {seed}: the solver found none");
            continue;
        };
        let (got, stats) = second_pass(&level, &first, None);
        assert_eq!(got, CountOutcome::Exact(truth.clone()), "seed {seed}");
        for k in [1, 2, 3] {
            let want = if truth > BigUint::from(k) {
                CountOutcome::AtLeast(k)
            } else {
                CountOutcome::Exact(truth.clone())
            };
            assert_eq!(
                second_pass(&level, &first, Some(k)).0,
                want,
                "seed {seed} k {k}"
            );
        }
        probed += usize::from(stats.fixed_by_probing > stats.fixed_by_flow);
        several += usize::from(truth > BigUint::from(1u8));
    }
    // The probes must have decided cells, on levels with one solution and with several.
    assert!(
        probed >= 5 && several >= 20,
        "{probed} probed, {several} several"
    );
}

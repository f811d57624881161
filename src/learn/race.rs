//! Two searches of one region raced on two threads, the first answer stopping the other: a
//! level of one region (`solve.rs`) and the largest region of a split level (`regions.rs`)
//! leave one core idle under one search, and which tuning suits them varies by level.

use std::sync::atomic::{AtomicBool, Ordering};

use super::search::Tuning;

/// The tunings of the two searches. How fast activity decays is what most
/// changes the course of one search on path tilings, and each family has its own best:
/// one search of hexagonal four-cell paths 256x256 (seeds 1, 2) took 16.5 and 24.4 s at
/// 0.95 and 19.0 and 47.2 s at 0.995, one of three-cell paths at 256x256 131 and 200 s at
/// 0.95 and 17.5 and 21.8 s at 0.995.
const RACERS: [Tuning; 2] = [
    Tuning {
        restart_unit: 100,
        var_decay: 0.95,
    },
    Tuning {
        restart_unit: 100,
        var_decay: 0.995,
    },
];

/// Whether the pool has the two threads a race needs.
pub(super) fn two_threads() -> bool {
    #[cfg(feature = "parallel")]
    let threads = crate::par::current_num_threads();
    #[cfg(not(feature = "parallel"))]
    let threads = 1;
    threads >= 2
}

/// `search(input, tuning, settled)` run with each of the [`RACERS`] at once, the first on
/// `inputs[0]`, the second on `inputs[1]`; a search whose result is `answered` raises
/// `settled`, which the other takes as its signal to stop. The answer wins over a search it
/// stopped; otherwise the first search's result is returned.
pub(super) fn race<I: Send, R: Send>(
    inputs: [I; 2],
    search: impl Fn(I, Tuning, &AtomicBool) -> R + Sync,
    answered: impl Fn(&R) -> bool + Sync,
) -> R {
    let settled = AtomicBool::new(false);
    let run = |input, tuning| {
        let r = search(input, tuning, &settled);
        if answered(&r) {
            settled.store(true, Ordering::Relaxed);
        }
        r
    };
    let [first, second] = inputs;
    // A thread of its own for the second search: under rayon's `join` the pool's other
    // worker did not always take it, and the two then ran one after the other (hexagonal
    // paths3 96x96 seed 1: 52 s of CPU in 50 s).
    let (a, b) = std::thread::scope(|scope| {
        let other = scope.spawn(|| run(second, RACERS[1]));
        let a = run(first, RACERS[0]);
        (a, other.join().expect("the second search does not panic"))
    });
    if !answered(&a) && answered(&b) { b } else { a }
}

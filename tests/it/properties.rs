//! Property tests over many seeds and sizes: generated levels are solvable and the solver's
//! answer checks; the generator's own solution respects `--nbcc`; the same seed gives the
//! same level.

use crate::common;

use common::solve_checked;
use phineloops::engine::check::is_solved;
use phineloops::engine::generate::{
    GenerateOptions, game_components, generate, generate_with_solution,
};
use phineloops::engine::solve::{Method, SolveOptions};
use proptest::prelude::*;

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![Just(Method::Csp), Just(Method::Line), Just(Method::Snail)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_levels_solve_and_check(h in 1usize..30, w in 1usize..30, seed: u64, nbcc in proptest::option::of(0usize..6), m in method()) {
        let mut o = GenerateOptions::new(h, w, seed);
        o.max_components = nbcc;
        let (solution, level) = generate_with_solution(&o);
        prop_assert!(is_solved(&solution));
        prop_assert!(level.same_shapes(&solution));
        if let Some(n) = nbcc {
            prop_assert!(game_components(&solution) <= n);
        }
        let opts = SolveOptions { method: m, threads: 1, flow: true, timeout: None };
        prop_assert!(solve_checked(&level, &opts).is_some());
    }

    #[test]
    fn same_seed_same_level(h in 1usize..20, w in 1usize..20, seed: u64) {
        let o = GenerateOptions::new(h, w, seed);
        prop_assert_eq!(generate(&o), generate(&o));
    }
}

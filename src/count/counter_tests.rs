//! Unit tests of the search counter's settings that only tests reach (lazy search under a
//! limit, the guide, the component cache): each must leave every count unchanged.

use num_bigint::BigUint;

use super::counter::Counter;
use super::{CountOptions, CountOutcome, count_solutions};
use crate::generate::{Family, GenerateOptions, MazeAlgorithm, generate, generate_with_solution};
use crate::model::Game;
use crate::solve::Start;

/// Families whose small levels the exact count settles at once.
pub(super) const SOME_FAMILIES: [Family; 6] = [
    Family::Random,
    Family::Dominoes,
    Family::Mixed,
    Family::Loops,
    Family::Straight,
    Family::Maze(MazeAlgorithm::Kruskal),
];

/// A level of `o` by seed: plain, unique (plain if none could be made) or an even-parity
/// variant (often with no solution), in turn.
pub(super) fn plain_unique_or_broken(o: &GenerateOptions, seed: u64) -> Game {
    use crate::generate::{even_parity_variant, generate_unique};
    match seed % 3 {
        0 => generate(o),
        1 => generate_unique(o).map_or_else(|_| generate(o), |u| u.level),
        _ => {
            let mut rng = fastrand::Rng::with_seed(seed);
            even_parity_variant(&generate(o), &mut rng, 50).map_or_else(|_| generate(o), |(g, _)| g)
        }
    }
}

pub(super) fn exact(game: &Game) -> BigUint {
    let opts = CountOptions {
        limit: None,
        timeout: None,
    };
    match count_solutions(game, &opts, &std::sync::atomic::AtomicBool::new(false)).0 {
        CountOutcome::Exact(n) => n,
        other => panic!("unexpected {other:?} for {game:?}"),
    }
}

#[test]
fn lazy_and_guided_limited_searches_agree_with_the_exact_count() {
    let families = [
        Family::Random,
        Family::Dominoes,
        Family::Mixed,
        Family::Loops,
        Family::Maze(MazeAlgorithm::Kruskal),
    ];
    let mut exhausted = 0;
    for seed in 0..40u64 {
        let family = families[seed as usize % families.len()];
        let (h, w) = [(6, 7), (8, 5), (4, 10), (6, 6)][seed as usize % 4];
        let mut o = GenerateOptions::new(h, w, seed);
        o.family = family;
        let (g, solution) = generate_with_solution(&o);
        let truth = exact(&g);
        let start = Start::new(&g);
        assert!(start.consistent);
        let Start {
            board, mut state, ..
        } = start;
        let cells: Vec<u32> = board
            .cells()
            .filter(|&c| !state.is_fixed(c))
            .map(|c| c as u32)
            .collect();
        let mut masks = vec![0u8; board.len()];
        for c in board.cells() {
            let (r, col) = board.row_col(c);
            masks[c] = solution.get(r, col).mask();
        }
        for (lazy_min, guided) in [(1, false), (1, true), (12, true), (u32::MAX, true)] {
            let mut counter = Counter::new(&board);
            counter.lazy_from(lazy_min);
            if guided {
                counter.guide(masks.clone());
            }
            if lazy_min == 1 && !guided {
                // Without a limit the search splits after every decision whatever the settings.
                let all = counter
                    .count(&board, &mut state, &cells, None, false, &|| false)
                    .unwrap();
                assert_eq!(all.to_biguint(), truth, "{family:?} seed {seed}");
            }
            for k in [1u64, 2, 3, 10, 1000] {
                let capped = counter
                    .count(&board, &mut state, &cells, Some(k), false, &|| false)
                    .unwrap();
                let expect = truth.clone().min(BigUint::from(k));
                assert_eq!(
                    capped.to_biguint(),
                    expect,
                    "{family:?} seed {seed} limit {k} lazy from {lazy_min} guided {guided}"
                );
                exhausted += usize::from(truth < BigUint::from(k));
            }
        }
    }
    // Some limits must be above the count, so that the lazy search runs to the end.
    assert!(exhausted >= 20, "{exhausted}");
}

#[test]
fn the_component_cache_changes_no_count() {
    let families = [
        Family::Dominoes,
        Family::Mixed,
        Family::Random,
        Family::Loops,
        Family::Maze(MazeAlgorithm::Wilson),
    ];
    let mut hits = 0;
    for seed in 0..40u64 {
        let family = families[seed as usize % families.len()];
        let (h, w) = [(4, 8), (5, 6), (6, 6), (3, 12)][seed as usize / 5 % 4];
        let mut o = GenerateOptions::new(h, w, seed);
        o.family = family;
        let g = generate(&o);
        let truth = exact(&g);
        let Start {
            board, mut state, ..
        } = Start::new(&g);
        let cells: Vec<u32> = board
            .cells()
            .filter(|&c| !state.is_fixed(c))
            .map(|c| c as u32)
            .collect();
        for on in [false, true] {
            let mut counter = Counter::new(&board);
            counter.caching(on);
            // Twice: the second count meets the first one's cached components.
            for _ in 0..2 {
                let n = counter
                    .count(&board, &mut state, &cells, None, false, &|| false)
                    .unwrap();
                assert_eq!(
                    n.to_biguint(),
                    truth,
                    "{family:?} {h}x{w} seed {seed} cache {on}"
                );
            }
            hits += counter.counters.cache_hits;
        }
    }
    // The cache must be used, or this checks nothing.
    assert!(hits >= 40, "{hits}");
}

/// `unique_check` against the exact count: no solution, exactly one, or at least two, on
/// levels of every family, unique levels, and variants left with no solution.
#[test]
fn the_unique_check_tells_none_one_and_several_as_the_exact_count_does() {
    use super::unique_check;
    let families = SOME_FAMILIES;
    let no = std::sync::atomic::AtomicBool::new(false);
    let opts = CountOptions {
        limit: None,
        timeout: None,
    };
    let mut seen = [0usize; 3];
    for seed in 0..60u64 {
        // Plain levels larger: most small ones have a single solution.
        let (h, w) = match seed % 3 {
            0 => [(12, 14), (16, 10), (9, 20), (14, 14)][seed as usize % 4],
            _ => [(6, 7), (8, 5), (4, 10), (7, 7)][seed as usize % 4],
        };
        let mut o = GenerateOptions::new(h, w, seed);
        o.family = families[seed as usize % families.len()];
        let level = plain_unique_or_broken(&o, seed);
        let truth = exact(&level);
        let want = match u32::try_from(&truth) {
            Ok(n @ (0 | 1)) => CountOutcome::Exact(n.into()),
            _ => CountOutcome::AtLeast(2),
        };
        seen[u32::try_from(&truth).map_or(2, |n| n.min(2)) as usize] += 1;
        let (got, _) = unique_check(&level, &opts, &no, &|_| {});
        assert_eq!(got, want, "seed {seed}: {truth} solutions");
    }
    assert!(
        seen.iter().all(|&n| n >= 5),
        "levels with none, one and several solutions: {seen:?}"
    );
}

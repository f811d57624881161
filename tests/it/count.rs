//! Solution counting: agreement with the brute-force oracle on small grids (exhaustive up to
//! six cells in the walk of `oracle.rs`, random levels up to 3x3 and generated 4x4), multiplication
//! across independent areas, the limit, and arbitrary precision.

use crate::common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{brute_force_count, game_of_kinds};
use num_bigint::BigUint;
use phineloops::engine::count::{
    CountOptions, CountOutcome, count_solutions, count_solutions_swept,
};
use phineloops::engine::generate::{
    Family, GenerateOptions, MazeAlgorithm, game_components, generate, generate_unique,
    generate_with_solution,
};
use phineloops::engine::model::{Game, Piece, PieceKind};

fn count(game: &Game, limit: Option<u64>) -> CountOutcome {
    let opts = CountOptions {
        limit,
        timeout: None,
    };
    count_solutions(game, &opts, &AtomicBool::new(false)).0
}

fn exact(game: &Game) -> BigUint {
    match count(game, None) {
        CountOutcome::Exact(n) => n,
        other => panic!("unexpected {other:?} for {game:?}"),
    }
}

/// Counts `game` exactly and with a few limits, checking all against the oracle; returns the
/// oracle's count.
fn agree(game: &Game) -> u64 {
    let truth = brute_force_count(game, u64::MAX);
    agree_with(game, truth);
    truth
}

/// Counts `game` exactly and with a few limits against `truth`, the oracle's count (the
/// exhaustive walk in `oracle.rs` counts each level once for every check).
pub(crate) fn agree_with(game: &Game, truth: u64) {
    assert_eq!(exact(game), BigUint::from(truth), "{game:?}");
    for k in [1, 2, 3] {
        // K = 1 stops at the first solution; otherwise "at least K" means more than K exist.
        let stopped = if k == 1 { truth >= 1 } else { truth > k };
        let expect = if stopped {
            CountOutcome::AtLeast(k)
        } else {
            CountOutcome::Exact(BigUint::from(truth))
        };
        assert_eq!(count(game, Some(k)), expect, "limit {k} on {game:?}");
    }
}

#[test]
fn random_levels_up_to_three_by_three() {
    let mut rng = fastrand::Rng::with_seed(77);
    let mut seen = [0; 3];
    for round in 0..4000 {
        let (h, w) = [(2, 3), (3, 2), (3, 3), (2, 4), (3, 3)][round % 5];
        let game = match round % 3 {
            0 => {
                let kinds: Vec<u8> = (0..h * w).map(|_| rng.u8(0..6)).collect();
                game_of_kinds(h, w, &kinds)
            }
            1 => generate(&GenerateOptions::new(h, w, rng.u64(..))),
            // Mostly corners and straights: loops, where solutions come in numbers.
            _ => {
                let kinds: Vec<u8> = (0..h * w)
                    .map(|_| [2, 5, 5, 3, 1][rng.usize(0..5)])
                    .collect();
                game_of_kinds(h, w, &kinds)
            }
        };
        seen[agree(&game).min(2) as usize] += 1;
    }
    assert!(seen.iter().all(|&s| s > 100), "{seen:?}");
}

#[test]
fn generated_four_by_four_levels() {
    let mut many = 0;
    for seed in 0..600u64 {
        let mut o = GenerateOptions::new(4, 4, seed);
        o.density = [0.5, 0.7, 0.9][seed as usize % 3];
        let g = generate(&o);
        if agree(&g) > 1 {
            many += 1;
        }
    }
    assert!(many >= 20, "only {many} ambiguous levels");
}

/// `a` and `b` side by side with an empty column between.
fn side_by_side(a: &Game, b: &Game) -> Game {
    assert_eq!(a.height(), b.height());
    let (h, w) = (a.height(), a.width() + 1 + b.width());
    let mut g = Game::empty(h, w);
    for r in 0..h {
        for c in 0..a.width() {
            g.set(r, c, a.get(r, c));
        }
        for c in 0..b.width() {
            g.set(r, a.width() + 1 + c, b.get(r, c));
        }
    }
    g
}

/// A 3x3 level with three solutions (a generated one at density 0.9, seed 530091, found once by
/// scanning seeds: the scan took ~20 s of every run), written out by its pieces so that it
/// does not move when the generator does.
fn ambiguous_block() -> Game {
    game_of_kinds(3, 3, &[1, 1, 1, 1, 1, 2, 1, 1, 1])
}

#[test]
fn the_ambiguous_block_has_three_solutions() {
    assert_eq!(brute_force_count(&ambiguous_block(), u64::MAX), 3);
}

#[test]
fn counts_multiply_across_separated_areas() {
    let a = ambiguous_block();
    let ca = brute_force_count(&a, u64::MAX);
    assert!(ca >= 3);
    let two = side_by_side(&a, &a);
    assert_eq!(exact(&two), BigUint::from(ca * ca));
    // And with a different partner.
    let b = generate(&GenerateOptions::new(3, 4, 5));
    let cb = brute_force_count(&b, u64::MAX);
    assert_eq!(exact(&side_by_side(&a, &b)), BigUint::from(ca * cb));
    // A partner without a solution makes the whole count zero, even under a limit.
    let mut dead = b.clone();
    dead.set(0, 0, Piece::new(PieceKind::X, 0));
    assert_eq!(brute_force_count(&dead, 1), 0);
    let with_dead = side_by_side(&a, &dead);
    assert_eq!(exact(&with_dead), BigUint::ZERO);
    assert_eq!(
        count(&with_dead, Some(2)),
        CountOutcome::Exact(BigUint::ZERO)
    );
}

#[test]
fn counts_beyond_u128_are_exact() {
    let a = ambiguous_block();
    let ca = brute_force_count(&a, u64::MAX);
    // 90 copies in a row: ca^90 > 2^128 for ca >= 3.
    let copies = 90;
    let mut g = a.clone();
    for _ in 1..copies {
        g = side_by_side(&g, &a);
    }
    assert_eq!(exact(&g), BigUint::from(ca).pow(copies));
    assert!(exact(&g) > BigUint::from(u128::MAX));
    assert_eq!(count(&g, Some(1_000_000)), CountOutcome::AtLeast(1_000_000));
}

#[test]
fn the_limit_stops_early_on_a_level_with_many_solutions() {
    // A dist.1 (domino-like) level has a huge count; the limit answers without the full count.
    let Some(dir) = common::public_levels("the_limit_stops_early_on_a_level_with_many_solutions")
    else {
        return;
    };
    let public = dir.join("grid_16x16_dist.1_vflip.true_hflip.false_messedup.false_id.1.dat");
    let g = phineloops::engine::level::load_level(&public).unwrap();
    let limited = count_solutions(
        &g,
        &CountOptions {
            limit: Some(10),
            timeout: Some(Duration::from_secs(60)),
        },
        &AtomicBool::new(false),
    )
    .0;
    assert_eq!(limited, CountOutcome::AtLeast(10));
}

#[test]
fn unique_levels_have_one_solution_by_brute_force() {
    // The brute-force oracle is independent of the counter the generator repairs with.
    let mut changed = 0;
    for seed in 0..40u64 {
        let (h, w) = [(3, 3), (4, 4), (4, 5), (5, 4)][seed as usize % 4];
        let made = generate_unique(&GenerateOptions::new(h, w, seed)).expect("unique level");
        assert_eq!(brute_force_count(&made.level, 2), 1, "seed {seed}");
        assert!(made.solution.same_shapes(&made.level));
        assert_eq!(brute_force_count(&made.solution, 2), 1);
        changed += usize::from(made.solution != generate(&GenerateOptions::new(h, w, seed)));
    }
    // Random levels are often ambiguous: some had to be repaired.
    assert!(changed > 0);
}

#[test]
fn larger_unique_levels_count_one() {
    for seed in 0..4u64 {
        let made = generate_unique(&GenerateOptions::new(40, 40, seed)).expect("unique level");
        assert_eq!(exact(&made.level), BigUint::from(1u32), "seed {seed}");
    }
}

/// An independent count, kept simple and apart from the counter: a row-by-row transfer matrix
/// over the whole grid with every orientation of every piece (no propagation, no regions).
/// The state is which cells of the row above connect down, plus whether the cell to the left
/// connects right.
fn transfer_matrix_count(game: &Game) -> BigUint {
    use std::collections::HashMap;
    let (h, w) = (game.height(), game.width());
    assert!(w < 63);
    let mut states: HashMap<u64, BigUint> = HashMap::from([(0, BigUint::from(1u32))]);
    let right_bit = 1u64 << w;
    for r in 0..h {
        for c in 0..w {
            let kind = game.get(r, c).kind();
            let mut next: HashMap<u64, BigUint> = HashMap::new();
            for (key, n) in &states {
                let from_above = key >> c & 1 == 1;
                let from_left = key & right_bit != 0;
                for o in 0..kind.orientations() {
                    let m = kind.mask(o);
                    let (up, right, down, left) = (m & 1 != 0, m & 2 != 0, m & 4 != 0, m & 8 != 0);
                    if up != from_above || left != from_left {
                        continue;
                    }
                    if (r == h - 1 && down) || (c == w - 1 && right) {
                        continue;
                    }
                    let mut k = key & !(1 << c) & !right_bit;
                    if down {
                        k |= 1 << c;
                    }
                    if right {
                        k |= right_bit;
                    }
                    *next.entry(k).or_default() += n;
                }
            }
            states = next;
        }
    }
    states.values().sum()
}

#[test]
fn transfer_matrix_agrees_with_brute_force() {
    // The independent method is itself checked before it checks the counter.
    for seed in 0..200u64 {
        let (h, w) = [(2, 3), (3, 3), (3, 4), (4, 3)][seed as usize % 4];
        let mut o = GenerateOptions::new(h, w, seed);
        o.density = 0.8;
        let g = generate(&o);
        assert_eq!(
            transfer_matrix_count(&g),
            BigUint::from(brute_force_count(&g, u64::MAX)),
            "seed {seed}"
        );
    }
}

/// The families whose narrow levels the counter is checked on against independent methods.
const NARROW_FAMILIES: [Family; 4] = [
    Family::Random,
    Family::Dominoes,
    Family::Mixed,
    Family::Loops,
];

/// A generated level of `family`.
fn generated(family: Family, h: usize, w: usize, seed: u64) -> Game {
    let mut o = GenerateOptions::new(h, w, seed);
    o.family = family;
    generate(&o)
}

#[test]
fn counts_equal_an_independent_transfer_matrix_on_narrow_levels() {
    let mut big = 0;
    for seed in 0..48u64 {
        let family = NARROW_FAMILIES[seed as usize % NARROW_FAMILIES.len()];
        let (h, w) = [(12, 6), (20, 5), (6, 14), (9, 8)][seed as usize / 4 % 4];
        let g = generated(family, h, w, seed);
        let truth = transfer_matrix_count(&g);
        assert_eq!(exact(&g), truth, "{family:?} {h}x{w} seed {seed}");
        big += usize::from(truth > BigUint::from(1000u32));
    }
    // Large counts must occur, or the check says little about the counter at scale.
    assert!(big >= 10, "{big}");
}

#[test]
fn a_wide_dominoes_count_beyond_u128_matches_the_transfer_matrix() {
    let mut o = GenerateOptions::new(40, 10, 3);
    o.family = Family::Dominoes;
    let g = generate(&o);
    let truth = transfer_matrix_count(&g);
    assert!(truth > BigUint::from(u64::MAX), "{truth}");
    assert_eq!(exact(&g), truth);
}

fn masks_of(game: &Game) -> Vec<u8> {
    game.cells().iter().map(|p| p.mask()).collect()
}

#[test]
fn unique_levels_of_every_family_count_one_by_the_transfer_matrix_and_keep_their_family() {
    let families = [
        Family::Random,
        Family::Dominoes,
        Family::Loops,
        Family::Mixed,
    ];
    for seed in 0..32u64 {
        let family = families[seed as usize % families.len()];
        let (h, w) = [(14, 8), (9, 10), (20, 6)][seed as usize % 3];
        let mut o = GenerateOptions::new(h, w, seed);
        o.family = family;
        let made = generate_unique(&o).expect("unique level");
        assert_eq!(
            transfer_matrix_count(&made.level),
            BigUint::from(1u32),
            "{family:?} seed {seed}"
        );
        assert!(made.solution.same_shapes(&made.level));
        let plain = masks_of(&generate_with_solution(&o).0);
        let after = masks_of(&made.solution);
        let empty = |m: &[u8]| m.iter().filter(|&&x| x == 0).count();
        let odd = |m: &[u8]| m.iter().filter(|&&x| x.count_ones() % 2 == 1).count();
        match family {
            Family::Dominoes => assert!(empty(&after) <= empty(&plain), "seed {seed}"),
            // Square flips keep every piece's parity: loops stay closed loops.
            Family::Loops => {
                assert!(empty(&after) <= empty(&plain), "seed {seed}");
                assert_eq!(odd(&after), odd(&plain), "seed {seed}");
            }
            _ => {}
        }
    }
}

/// Spanning tree of the whole grid: edges = cells - 1, one component (so no empty cell).
fn is_spanning_tree(game: &Game) -> bool {
    let m = masks_of(game);
    let edges: u32 = m.iter().map(|x| x.count_ones()).sum::<u32>() / 2;
    edges as usize + 1 == m.len() && game_components(game) == 1 && m.iter().all(|&x| x != 0)
}

#[test]
fn unique_mazes_of_every_algorithm_are_perfect_mazes_with_one_solution() {
    for algorithm in MazeAlgorithm::ALL {
        for seed in 0..4u64 {
            let (h, w) = [(12, 10), (15, 9)][seed as usize % 2];
            let mut o = GenerateOptions::new(h, w, seed);
            o.family = Family::Maze(algorithm);
            let made = generate_unique(&o).expect("unique maze");
            assert!(
                is_spanning_tree(&made.solution),
                "{algorithm:?} seed {seed}"
            );
            assert_eq!(
                transfer_matrix_count(&made.level),
                BigUint::from(1u32),
                "{algorithm:?} seed {seed}"
            );
        }
    }
}

#[test]
fn the_reported_cases_stay_in_their_family() {
    // From the issue: a backtracker maze that the old repair broke, and a component count the
    // old repair ignored.
    let mut o = GenerateOptions::new(15, 48, 481561935);
    o.family = Family::Maze(MazeAlgorithm::Backtracker);
    let made = generate_unique(&o).expect("unique maze");
    assert!(is_spanning_tree(&made.solution));
    assert_eq!(
        count(&made.level, Some(2)),
        CountOutcome::Exact(BigUint::from(1u32))
    );
    let mut o = GenerateOptions::new(30, 40, 11);
    o.exact_components = Some(10);
    let made = generate_unique(&o).expect("unique level");
    assert_eq!(game_components(&made.solution), 10);
    assert_eq!(
        count(&made.level, Some(2)),
        CountOutcome::Exact(BigUint::from(1u32))
    );
}

#[test]
fn component_counts_hold_after_the_unique_repair() {
    for seed in 1..5u64 {
        let mut o = GenerateOptions::new(16, 12, seed);
        o.exact_components = Some(5);
        let made = generate_unique(&o).expect("unique level");
        assert_eq!(game_components(&made.solution), 5, "exact, seed {seed}");
        assert_eq!(transfer_matrix_count(&made.level), BigUint::from(1u32));
        let mut o = GenerateOptions::new(16, 12, seed);
        o.max_components = Some(3);
        let made = generate_unique(&o).expect("unique level");
        assert!(game_components(&made.solution) <= 3, "max, seed {seed}");
        assert_eq!(transfer_matrix_count(&made.level), BigUint::from(1u32));
    }
}

/// The count along rows only and along columns only (`None` for a stopped count).
fn swept(game: &Game, by_rows: bool) -> BigUint {
    let opts = CountOptions {
        limit: None,
        timeout: None,
    };
    let stop = AtomicBool::new(false);
    match count_solutions_swept(game, &opts, &stop, &|_| {}, Some(by_rows)).0 {
        CountOutcome::Exact(n) => n,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn sweeping_along_rows_or_columns_gives_the_same_count() {
    let mut big = 0;
    for seed in 0..24u64 {
        let family = NARROW_FAMILIES[seed as usize % NARROW_FAMILIES.len()];
        let (h, w) = [(9, 11), (12, 7), (6, 13)][seed as usize % 3];
        let g = generated(family, h, w, seed);
        let rows = swept(&g, true);
        assert_eq!(rows, swept(&g, false), "{family:?} {h}x{w} seed {seed}");
        assert_eq!(rows, exact(&g), "{family:?} {h}x{w} seed {seed}");
        big += usize::from(rows > BigUint::from(1000u32));
    }
    assert!(big >= 4, "{big}");
}

#[test]
fn public_domino_like_counts_agree_across_methods() {
    let Some(dir) = common::public_levels("public_domino_like_counts_agree_across_methods") else {
        return;
    };
    // 8x8: the independent transfer matrix of this file is quick enough.
    let small = dir.join("grid_8x8_dist.1_vflip.false_hflip.true_messedup.false_id.1.dat");
    let g = phineloops::engine::level::load_level(&small).unwrap();
    assert_eq!(exact(&g), transfer_matrix_count(&g));
    // 16x16 (a count of 24 digits): the sweep along rows and along columns agree.
    let mid = dir.join("grid_16x16_dist.1_vflip.true_hflip.false_messedup.false_id.1.dat");
    let g = phineloops::engine::level::load_level(&mid).unwrap();
    let rows = swept(&g, true);
    assert_eq!(rows, swept(&g, false));
    assert_eq!(rows.to_string().len(), 24);
}

/// The exact count and its figures.
fn exact_with_stats(game: &Game) -> (BigUint, phineloops::engine::count::CountStats) {
    let opts = CountOptions {
        limit: None,
        timeout: None,
    };
    match count_solutions(game, &opts, &AtomicBool::new(false)) {
        (CountOutcome::Exact(n), st) => (n, st),
        (other, _) => panic!("unexpected {other:?} for {game:?}"),
    }
}

/// A dist.1-like level (mostly one-end pieces, some T, L, X, no I unless `straights`): random
/// sides, then sides of busy cells dropped at random until most cells keep one. With `break_it`
/// one random cell's piece is changed (often leaving no solution).
fn dist1_like(
    h: usize,
    w: usize,
    straights: bool,
    break_it: bool,
    rng: &mut fastrand::Rng,
) -> Game {
    let mut masks = vec![0u8; h * w];
    let grid = Game::empty(h, w);
    let across = |i: usize, d: usize| grid.neighbour(i, d);
    for i in 0..h * w {
        for d in [1, 2] {
            if let Some(j) = across(i, d)
                && rng.u32(0..100) < 60
            {
                masks[i] |= 1 << d;
                masks[j] |= 1 << ((d + 2) % 4);
            }
        }
    }
    for _ in 0..4 * h * w {
        let i = rng.usize(0..h * w);
        let d = rng.usize(0..4);
        if masks[i] & 1 << d == 0 || masks[i].count_ones() < 2 {
            continue;
        }
        let j = across(i, d).expect("a set side has a neighbour");
        if masks[j].count_ones() < 2 || rng.u32(0..100) < 8 {
            continue;
        }
        masks[i] &= !(1 << d);
        masks[j] &= !(1 << ((d + 2) % 4));
    }
    let mut cells: Vec<Piece> = masks.into_iter().map(Piece::from_mask).collect();
    if !straights {
        for p in cells.iter_mut() {
            if p.kind() == PieceKind::I {
                *p = Piece::new(PieceKind::L, 0);
            }
        }
    }
    if break_it {
        let i = rng.usize(0..h * w);
        let kinds = [PieceKind::Q, PieceKind::T, PieceKind::L, PieceKind::I];
        cells[i] = Piece::new(kinds[rng.usize(0..4)], 0);
    }
    Game::from_cells(h, w, cells)
}

#[test]
fn determinant_counts_equal_the_transfer_matrix_on_dist1_like_levels() {
    let mut rng = fastrand::Rng::with_seed(5);
    let (mut zero, mut big, mut by_det, mut branched) = (0, 0, 0, 0);
    let mut most = BigUint::ZERO;
    for k in 0..60 {
        let (h, w) = [(10, 6), (7, 9), (14, 5), (8, 8)][k % 4];
        let g = dist1_like(h, w, k % 3 == 0, k % 5 == 4, &mut rng);
        let truth = transfer_matrix_count(&g);
        let (n, st) = exact_with_stats(&g);
        assert_eq!(n, truth, "level {k}: {g:?}");
        zero += usize::from(truth == BigUint::ZERO);
        big += usize::from(truth > BigUint::from(1000u32));
        most = most.max(truth);
        by_det += usize::from(st.determinant.regions > 0);
        branched += usize::from(st.determinant.branch_cells > 0);
    }
    // Every kind of outcome must occur, or the check says little.
    assert!(
        zero >= 3 && big >= 10 && by_det >= 30 && branched >= 15,
        "zero {zero}, big {big} (most {most}), by determinant {by_det}, branched {branched}"
    );
}

#[test]
fn determinant_counts_equal_brute_force_on_small_mixes() {
    let mut rng = fastrand::Rng::with_seed(9);
    let mut by_det = 0;
    for k in 0..300 {
        let (h, w) = [(3, 3), (3, 4), (4, 3), (2, 5)][k % 4];
        let g = dist1_like(h, w, k % 2 == 0, k % 7 == 6, &mut rng);
        let (n, st) = exact_with_stats(&g);
        assert_eq!(n, BigUint::from(brute_force_count(&g, u64::MAX)), "{g:?}");
        by_det += usize::from(st.determinant.regions > 0);
    }
    assert!(by_det >= 50, "{by_det}");
}

#[test]
fn dominoes_counts_by_determinant_equal_the_transfer_matrix() {
    let mut by_det = 0;
    for seed in 0..12u64 {
        let (h, w) = [(12, 9), (9, 12), (20, 7)][seed as usize % 3];
        let g = generated(Family::Dominoes, h, w, seed);
        let truth = transfer_matrix_count(&g);
        let (n, st) = exact_with_stats(&g);
        assert_eq!(n, truth, "{h}x{w} seed {seed}");
        by_det += usize::from(st.determinant.regions > 0);
    }
    assert!(by_det >= 6, "{by_det}");
}

#[test]
fn the_public_16x16_dist1_count_is_exact() {
    let Some(dir) = common::public_levels("the_public_16x16_dist1_count_is_exact") else {
        return;
    };
    let f = dir.join("grid_16x16_dist.1_vflip.true_hflip.false_messedup.false_id.1.dat");
    let g = phineloops::engine::level::load_level(&f).unwrap();
    let (n, st) = exact_with_stats(&g);
    // Found by an independent transfer-matrix count in Python (issue 11).
    assert_eq!(n.to_string(), "110950321585984906404664");
    assert!(st.determinant.regions > 0);
}

/// `game` turned a quarter turn clockwise (same solutions, turned).
fn turned(game: &Game) -> Game {
    let (h, w) = (game.height(), game.width());
    let mut cells = Vec::with_capacity(h * w);
    for r in 0..w {
        for c in 0..h {
            // New (r, c) comes from old (h - 1 - c, r).
            let m = game.get(h - 1 - c, r).mask();
            cells.push(Piece::from_mask(((m << 1) | (m >> 3)) & 0xF));
        }
    }
    Game::from_cells(w, h, cells)
}

#[test]
fn determinant_counts_do_not_change_when_the_level_turns() {
    // Turning changes the drawing, the cases branched on and the signs, not the count.
    let mut rng = fastrand::Rng::with_seed(21);
    for k in 0..20 {
        let g = dist1_like(9, 7, k % 2 == 0, false, &mut rng);
        let n = exact(&g);
        assert_eq!(exact(&turned(&g)), n, "level {k}");
        assert_eq!(exact(&turned(&turned(&g))), n, "level {k}");
    }
    let Some(dir) = common::public_levels("determinant_counts_do_not_change_when_the_level_turns")
    else {
        return;
    };
    // 32x32 dist.1: no other method here finishes on it.
    let f = dir.join("grid_32x32_dist.1_vflip.true_hflip.true_messedup.false_id.1.dat");
    let g = phineloops::engine::level::load_level(&f).unwrap();
    let (n, st) = exact_with_stats(&g);
    assert!(
        st.determinant.branch_cells > 0 && n.to_string().len() > 80,
        "{n}"
    );
    assert_eq!(exact(&turned(&g)), n);
}

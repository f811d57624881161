//! `--unique` levels checked by the brute-force oracle of `tests/common` (which shares nothing
//! with the engine's search or the generator's repair) on small grids of every family and
//! every maze algorithm, together with what each family must keep after the repair.

use crate::common;

use common::brute_force_count;
use phineloops::engine::generate::{
    Family, GenerateOptions, MazeAlgorithm, game_components, generate_unique,
    generate_with_solution,
};
use phineloops::engine::model::Game;

const SIZES: [(usize, usize); 4] = [(4, 4), (4, 5), (5, 4), (5, 5)];

fn masks_of(game: &Game) -> Vec<u8> {
    game.cells().iter().map(|p| p.mask()).collect()
}

fn empty(m: &[u8]) -> usize {
    m.iter().filter(|&&x| x == 0).count()
}

/// Checks that the level made from `o` has one solution by brute force, that it is the
/// reported solution turned, and returns the masks of the plain and the repaired solution.
fn unique_by_brute_force(o: &GenerateOptions, what: &str) -> (Vec<u8>, Vec<u8>) {
    let made = generate_unique(o).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(brute_force_count(&made.level, 2), 1, "{what}");
    assert_eq!(brute_force_count(&made.solution, 2), 1, "{what}");
    assert!(made.solution.same_shapes(&made.level), "{what}");
    (
        masks_of(&generate_with_solution(o).0),
        masks_of(&made.solution),
    )
}

#[test]
fn unique_levels_of_every_family_have_one_solution_by_brute_force_and_keep_their_family() {
    let families = [
        Family::Random,
        Family::Dominoes,
        Family::Loops,
        Family::Mixed,
    ];
    let mut repaired = [0usize; 4];
    for (f, &family) in families.iter().enumerate() {
        for seed in 0..24u64 {
            let (h, w) = SIZES[seed as usize % SIZES.len()];
            let mut o = GenerateOptions::new(h, w, seed);
            o.family = family;
            let what = format!("{family:?} {h}x{w} seed {seed}");
            let (plain, after) = unique_by_brute_force(&o, &what);
            repaired[f] += usize::from(plain != after);
            let odd = |m: &[u8]| m.iter().filter(|&&x| x.count_ones() % 2 == 1).count();
            match family {
                Family::Dominoes => assert!(empty(&after) <= empty(&plain), "{what}"),
                Family::Loops => {
                    assert!(empty(&after) <= empty(&plain), "{what}");
                    // Square flips keep every piece's parity, so loops stay loops.
                    assert_eq!(odd(&after), odd(&plain), "{what}");
                }
                _ => {}
            }
        }
    }
    // Plain levels of these families are often ambiguous: the repair must have been exercised
    // (plain loops levels were unique on every grid up to 16x16 tried, so they rarely are).
    for (f, n) in repaired.iter().enumerate() {
        assert!(
            *n > 0 || families[f] == Family::Loops,
            "{:?}: no level needed a repair",
            families[f]
        );
    }
}

#[test]
fn unique_mazes_of_every_algorithm_are_spanning_trees_with_one_solution_by_brute_force() {
    for algorithm in MazeAlgorithm::ALL {
        for seed in 0..6u64 {
            let (h, w) = SIZES[seed as usize % SIZES.len()];
            let mut o = GenerateOptions::new(h, w, seed);
            o.family = Family::Maze(algorithm);
            let what = format!("{algorithm:?} {h}x{w} seed {seed}");
            let (_, after) = unique_by_brute_force(&o, &what);
            let edges: u32 = after.iter().map(|x| x.count_ones()).sum::<u32>() / 2;
            assert_eq!(edges as usize + 1, h * w, "{what}: edges = cells - 1");
            assert_eq!(empty(&after), 0, "{what}: no empty cell");
            let made = generate_unique(&o).expect("same options, same level");
            assert_eq!(game_components(&made.solution), 1, "{what}: one component");
        }
    }
}

#[test]
fn unique_braided_mazes_stay_connected() {
    for seed in 0..8u64 {
        let (h, w) = SIZES[seed as usize % SIZES.len()];
        let mut o = GenerateOptions::new(h, w, seed);
        o.family = Family::Maze(MazeAlgorithm::Kruskal);
        o.braid = 0.5;
        let what = format!("braided {h}x{w} seed {seed}");
        let (_, after) = unique_by_brute_force(&o, &what);
        assert_eq!(empty(&after), 0, "{what}");
        let made = generate_unique(&o).expect("same options, same level");
        assert_eq!(game_components(&made.solution), 1, "{what}");
    }
}

#[test]
fn component_counts_hold_after_the_repair_by_brute_force() {
    for seed in 0..12u64 {
        let (h, w) = SIZES[seed as usize % SIZES.len()];
        let mut o = GenerateOptions::new(h, w, seed);
        o.exact_components = Some(2);
        let what = format!("nbcc-exact 2 {h}x{w} seed {seed}");
        unique_by_brute_force(&o, &what);
        let made = generate_unique(&o).expect("same options, same level");
        assert_eq!(game_components(&made.solution), 2, "{what}");
        let mut o = GenerateOptions::new(h, w, seed);
        o.max_components = Some(1);
        let what = format!("nbcc 1 {h}x{w} seed {seed}");
        unique_by_brute_force(&o, &what);
        let made = generate_unique(&o).expect("same options, same level");
        assert!(game_components(&made.solution) <= 1, "{what}");
    }
}

#[test]
fn the_same_options_give_the_same_unique_level() {
    // The work budget counts search steps, not time: the result does not depend on the load.
    for seed in 0..4u64 {
        let mut o = GenerateOptions::new(24, 24, seed);
        o.family = Family::Dominoes;
        assert_eq!(generate_unique(&o), generate_unique(&o), "seed {seed}");
    }
}

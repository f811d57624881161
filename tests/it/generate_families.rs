//! Every generator family and maze algorithm, through the library: levels are solvable (the
//! solver finds a solution and the checker accepts it), the generator's own solution has no
//! open side, mazes are one component without a cycle, `exact_components` is exact, unsolvable
//! variants are refuted, and a seed always gives the same bytes.

use crate::common;

use std::sync::atomic::AtomicBool;

use common::solve_checked;
use phineloops::engine::check::is_solved;
use phineloops::engine::generate::unsolvable_variant;
use phineloops::engine::generate::{
    Breakage, Family, GenerateOptions, MazeAlgorithm, game_components, generate,
    generate_with_solution, max_components,
};
use phineloops::engine::level::level_bytes;
use phineloops::engine::model::Game;
use phineloops::engine::solve::{Method, Outcome, SolveOptions, solve};

const FAMILIES: [Family; 4] = [
    Family::Random,
    Family::Dominoes,
    Family::Loops,
    Family::Mixed,
];

const SIZES: [(usize, usize); 8] = [
    (1, 1),
    (1, 2),
    (1, 7),
    (6, 1),
    (2, 2),
    (3, 5),
    (8, 8),
    (13, 9),
];

/// Every generator configuration: the families, densities of the random family, every maze
/// algorithm, and braided mazes.
fn generators() -> Vec<(String, GenerateOptions)> {
    let mut v = Vec::new();
    let base = GenerateOptions::new(1, 1, 0);
    for family in FAMILIES {
        v.push((
            family.name(),
            GenerateOptions {
                family,
                ..base.clone()
            },
        ));
    }
    for density in [0.0, 0.2, 0.8, 1.0] {
        let o = GenerateOptions {
            density,
            ..base.clone()
        };
        v.push((format!("random density {density}"), o));
    }
    for a in MazeAlgorithm::ALL {
        for braid in [0.0, 0.4, 1.0] {
            let o = GenerateOptions {
                family: Family::Maze(a),
                braid,
                ..base.clone()
            };
            v.push((format!("{} braid {braid}", a.name()), o));
        }
    }
    v
}

fn sized(o: &GenerateOptions, h: usize, w: usize, seed: u64) -> GenerateOptions {
    GenerateOptions {
        height: h,
        width: w,
        seed,
        ..o.clone()
    }
}

fn csp() -> SolveOptions {
    SolveOptions {
        method: Method::Csp,
        threads: 1,
        flow: true,
        timeout: None,
    }
}

/// Passages of a solved grid, each counted once.
fn passages(g: &Game) -> usize {
    g.cells()
        .iter()
        .map(|p| p.mask().count_ones() as usize)
        .sum::<usize>()
        / 2
}

#[test]
fn every_generator_makes_solvable_levels_whose_solution_has_no_open_side() {
    for (name, o) in generators() {
        for (h, w) in SIZES {
            for seed in 0..12 {
                let o = sized(&o, h, w, seed);
                o.validate().unwrap();
                let (solution, level) = generate_with_solution(&o);
                let what = format!("{name} {h}x{w} seed {seed}");
                assert!(is_solved(&solution), "{what}: open side in the solution");
                assert!(level.same_shapes(&solution), "{what}");
                assert!(
                    solve_checked(&level, &csp()).is_some(),
                    "{what}: no solution"
                );
            }
        }
    }
}

#[test]
fn maze_solutions_are_one_component_without_a_cycle() {
    for (name, o) in generators() {
        let Family::Maze(_) = o.family else { continue };
        for (h, w) in SIZES.into_iter().chain([(24, 31)]) {
            for seed in 0..12 {
                let (solution, _) = generate_with_solution(&sized(&o, h, w, seed));
                let what = format!("{name} {h}x{w} seed {seed}");
                if h * w == 1 {
                    assert_eq!(solution.occupied(), 0, "{what}");
                    continue;
                }
                assert_eq!(
                    solution.occupied(),
                    h * w,
                    "{what}: a maze has no empty cell"
                );
                assert_eq!(game_components(&solution), 1, "{what}");
                if o.braid == 0.0 {
                    assert_eq!(passages(&solution), h * w - 1, "{what}: a tree");
                } else {
                    assert!(passages(&solution) >= h * w - 1, "{what}");
                }
            }
        }
    }
}

#[test]
fn braiding_makes_loops() {
    for a in MazeAlgorithm::ALL {
        let o = GenerateOptions {
            family: Family::Maze(a),
            braid: 1.0,
            ..GenerateOptions::new(16, 16, 3)
        };
        let (solution, _) = generate_with_solution(&o);
        assert!(passages(&solution) > 255, "{}", a.name());
        let dead_ends = solution.histogram()[1];
        assert_eq!(
            dead_ends,
            0,
            "{}: full braiding leaves no dead end",
            a.name()
        );
    }
}

#[test]
fn exact_component_counts_for_every_family() {
    for family in FAMILIES {
        for (h, w) in SIZES.into_iter().chain([(16, 16), (5, 40)]) {
            let max = max_components(h, w);
            let mut targets = vec![0, 1, 2, 3, max / 3, max / 2, max.saturating_sub(1), max];
            targets.retain(|&n| n <= max);
            targets.dedup();
            for n in targets {
                for seed in 0..4 {
                    let o = GenerateOptions {
                        family,
                        exact_components: Some(n),
                        ..GenerateOptions::new(h, w, seed)
                    };
                    o.validate().unwrap();
                    let (solution, level) = generate_with_solution(&o);
                    let what = format!("{} {h}x{w} N={n} seed {seed}", family.name());
                    assert!(is_solved(&solution), "{what}");
                    assert_eq!(game_components(&solution), n, "{what}");
                    assert!(solve_checked(&level, &csp()).is_some(), "{what}");
                }
            }
        }
    }
}

#[test]
fn exact_component_counts_at_256x256() {
    let (h, w) = (256, 256);
    for (n, family) in [
        (1, Family::Random),
        (777, Family::Loops),
        (20_000, Family::Mixed),
        (32_768, Family::Random),
    ] {
        let o = GenerateOptions {
            family,
            exact_components: Some(n),
            ..GenerateOptions::new(h, w, 9)
        };
        let (solution, _) = generate_with_solution(&o);
        assert!(is_solved(&solution));
        assert_eq!(game_components(&solution), n, "{}", family.name());
    }
}

#[test]
fn impossible_options_are_rejected() {
    let mut o = GenerateOptions::new(3, 3, 0);
    o.exact_components = Some(5);
    let e = o.validate().unwrap_err();
    assert!(e.contains("at most 4"), "{e}");
    o.exact_components = Some(4);
    assert!(o.validate().is_ok());
    o.max_components = Some(2);
    assert!(o.validate().is_err());

    let mut o = GenerateOptions::new(3, 3, 0);
    o.family = Family::Maze(MazeAlgorithm::Wilson);
    o.max_components = Some(1);
    assert!(o.validate().unwrap_err().contains("one component"));
    o.max_components = None;
    o.braid = 1.5;
    assert!(o.validate().is_err());

    let mut o = GenerateOptions::new(3, 3, 0);
    o.braid = 0.5;
    assert!(o.validate().unwrap_err().contains("mazes"));
    o.braid = 0.0;
    o.density = -0.1;
    assert!(o.validate().is_err());
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_another_seed_another_level() {
    for (name, o) in generators() {
        if o.density == 0.0 {
            continue; // always the empty grid
        }
        let a = level_bytes(&generate(&sized(&o, 10, 12, 77)));
        let b = level_bytes(&generate(&sized(&o, 10, 12, 77)));
        assert_eq!(a, b, "{name}");
        let c = level_bytes(&generate(&sized(&o, 10, 12, 78)));
        assert_ne!(a, c, "{name}");
    }
}

fn ends(g: &Game) -> u32 {
    g.cells().iter().map(|p| p.mask().count_ones()).sum()
}

#[test]
fn unsolvable_variants_are_refuted_by_the_solver() {
    let cancel = AtomicBool::new(false);
    let mut opts: Vec<GenerateOptions> = FAMILIES
        .iter()
        .map(|&family| GenerateOptions {
            family,
            ..GenerateOptions::new(9, 11, 0)
        })
        .collect();
    for a in [MazeAlgorithm::Backtracker, MazeAlgorithm::Kruskal] {
        opts.push(GenerateOptions {
            family: Family::Maze(a),
            ..GenerateOptions::new(9, 11, 0)
        });
    }
    for o in opts {
        for seed in 0..5 {
            let o = sized(&o, o.height, o.width, seed);
            let level = generate(&o);
            for kind in [Breakage::OddParity, Breakage::EvenParity] {
                let what = format!("{} seed {seed} {}", o.family.name(), kind.name());
                let (bad, alteration) = unsolvable_variant(&level, kind, seed).unwrap();
                let changed: Vec<usize> = (0..level.len())
                    .filter(|&i| level.cells()[i].kind() != bad.cells()[i].kind())
                    .collect();
                assert_eq!(changed, vec![alteration.cell], "{what}");
                let parity = if kind == Breakage::OddParity { 1 } else { 0 };
                assert_eq!(ends(&bad) % 2, parity, "{what}");
                let verdict = solve(&bad, &SolveOptions::default(), &cancel).0;
                assert_eq!(verdict, Outcome::Unsolvable, "{what}");
                // Reproducible from the seed.
                assert_eq!(unsolvable_variant(&level, kind, seed).unwrap().0, bad);
            }
        }
    }
}

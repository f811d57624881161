//! End-to-end tests of the generator options: `--family`, `--density`, `--maze`, `--select`,
//! `--braid`, `--nbcc-exact`, `--unsolvable`, and their usage errors.

use crate::common;

use common::cli::{p, run};

use phineloops::engine::generate::{Family, game_components};
use phineloops::engine::level::{level_bytes, parse_level};

/// `--generate SIZE ARGS... --seed SEED -o -`: the level's bytes (exit 0 required).
fn generate(size: &str, args: &[&str], seed: u64) -> Vec<u8> {
    let seed = seed.to_string();
    let mut all = vec!["--generate", size, "-o", "-", "--seed", &seed];
    all.extend_from_slice(args);
    let r = run(&all);
    assert_eq!(r.code, 0, "{all:?}: {r:?}");
    r.raw_stdout
}

/// Solves the level bytes with the binary; the solution (checked by `--check`) or `None`
/// when the solver says there is none.
fn solve_bytes(level: &[u8]) -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.txt");
    std::fs::write(&input, level).unwrap();
    let r = run(&["--solve", p(&input), "-o", p(&output)]);
    match r.code {
        0 => {
            let c = run(&["--check", p(&output)]);
            assert_eq!(c.code, 0, "the solution does not check: {c:?}");
            Some(std::fs::read(&output).unwrap())
        }
        1 => {
            assert!(!output.exists(), "nothing is written without a solution");
            None
        }
        _ => panic!("solve failed: {r:?}"),
    }
}

fn kinds(level: &[u8]) -> Vec<u8> {
    let g = parse_level("level", level).expect("a generated level parses");
    g.cells().iter().map(|c| c.kind() as u8).collect()
}

fn assert_usage_error(args: &[&str], needle: &str) {
    let r = run(args);
    assert_eq!(r.code, 2, "{args:?}: {r:?}");
    assert!(r.raw_stdout.is_empty(), "{args:?}: {r:?}");
    assert!(
        r.stderr.contains(needle),
        "{args:?}: stderr should contain `{needle}`: {r:?}"
    );
}

const MAZES: [&str; 12] = [
    "backtracker",
    "growing-tree",
    "growing-tree-newest",
    "growing-tree-random",
    "growing-tree-oldest",
    "growing-tree-mixed",
    "prim",
    "kruskal",
    "aldous-broder",
    "wilson",
    "binary-tree",
    "recursive-division",
];

#[test]
fn every_family_and_maze_gives_a_solvable_reproducible_level() {
    let mut cases: Vec<Vec<&str>> = ["random", "dominoes", "loops", "mixed"]
        .iter()
        .map(|f| vec!["--family", f])
        .collect();
    cases.extend(MAZES.iter().map(|m| vec!["--maze", m]));
    cases.push(vec!["--maze", "wilson", "--braid", "0.5"]);
    cases.push(vec!["--density", "0.3"]);
    cases.push(vec!["--family", "paths3", "--bent", "0.9"]);
    cases.push(vec!["--family", "paths4"]);
    for args in &cases {
        for (size, h, w) in [("12x7", 7, 12), ("1x5", 5, 1), ("5x1", 1, 5)] {
            let level = generate(size, args, 11);
            let g = parse_level("level", &level).unwrap();
            assert_eq!((g.height(), g.width()), (h, w), "{args:?}");
            assert_eq!(
                generate(size, args, 11),
                level,
                "{args:?}: same seed, same bytes"
            );
            // (A maze level may have other solutions than the maze itself, with several
            // components: only the generator's own solution is a tree, tested in
            // generate_families.rs.)
            assert!(solve_bytes(&level).is_some(), "{args:?} {size}: unsolvable");
        }
    }
}

#[test]
fn growing_tree_select_matches_the_named_variants_and_aliases_work() {
    for rule in ["newest", "random", "oldest", "mixed"] {
        let named = format!("growing-tree-{rule}");
        assert_eq!(
            generate("9x9", &["--maze", "growing-tree", "--select", rule], 4),
            generate("9x9", &["--maze", &named], 4),
            "{rule}"
        );
    }
    assert_eq!(
        generate("9x9", &["--maze", "growing-tree"], 4),
        generate("9x9", &["--maze", "growing-tree-newest"], 4),
        "newest is the default selection"
    );
    assert_eq!(
        generate("9x9", &["--maze", "recursive-backtracker"], 4),
        generate("9x9", &["--maze", "backtracker"], 4)
    );
}

#[test]
fn density_extremes_and_braiding_show_in_the_pieces() {
    assert!(
        kinds(&generate("8x6", &["--density", "0"], 1))
            .iter()
            .all(|&k| k == 0)
    );
    let full = kinds(&generate("8x6", &["--density", "1"], 1));
    assert!(full.iter().all(|&k| k != 0 && k != 1), "{full:?}");
    // The default density is 0.5: giving it changes nothing.
    assert_eq!(
        generate("8x6", &["--density", "0.5"], 1),
        generate("8x6", &[], 1)
    );
    let braided = kinds(&generate(
        "10x10",
        &["--maze", "kruskal", "--braid", "1"],
        2,
    ));
    assert!(!braided.contains(&1), "no dead end left: {braided:?}");
    assert_eq!(
        generate("10x10", &["--maze", "kruskal", "--braid", "0"], 2),
        generate("10x10", &["--maze", "kruskal"], 2)
    );
}

#[test]
fn nbcc_exact_levels_are_the_librarys_exact_levels_and_solvable() {
    use phineloops::engine::generate::{GenerateOptions, generate_with_solution};
    // The file does not say which solution the generator built, so the count is checked on
    // the library's solution for the same options, whose level must be the file's bytes.
    for family in ["random", "dominoes", "loops", "mixed"] {
        let fam = match family {
            "random" => Family::Random,
            "dominoes" => Family::Dominoes,
            "loops" => Family::Loops,
            _ => Family::Mixed,
        };
        for n in [0, 1, 4, 17, 30] {
            let file = generate(
                "10x6",
                &["--family", family, "--nbcc-exact", &n.to_string()],
                5,
            );
            let o = GenerateOptions {
                family: fam,
                exact_components: Some(n),
                ..GenerateOptions::new(6, 10, 5)
            };
            let (solution, level) = generate_with_solution(&o);
            assert_eq!(
                file,
                level_bytes(&level),
                "{family} {n}: the CLI is the library"
            );
            assert_eq!(game_components(&solution), n, "{family} {n}");
            assert!(solve_bytes(&file).is_some(), "{family} {n}");
        }
    }
}

#[test]
fn unsolvable_levels_are_refuted_and_reproducible() {
    for kind in ["odd-parity", "even-parity"] {
        for extra in [&["--family", "loops"][..], &["--maze", "prim"], &[]] {
            let mut args = vec!["--unsolvable", kind];
            args.extend_from_slice(extra);
            let r = run(&[&["--generate", "9x8", "-o", "-", "--seed", "3"], &args[..]].concat());
            assert_eq!(r.code, 0, "{args:?}: {r:?}");
            assert!(r.stderr.contains("altered row"), "{r:?}");
            assert_eq!(solve_bytes(&r.raw_stdout), None, "{args:?}");
            let ends: u32 = parse_level("l", &r.raw_stdout)
                .unwrap()
                .cells()
                .iter()
                .map(|c| c.mask().count_ones())
                .sum();
            assert_eq!(ends % 2, u32::from(kind == "odd-parity"), "{args:?}");
            assert_eq!(generate("9x8", &args, 3), r.raw_stdout, "{args:?}");
        }
    }
}

#[test]
fn large_mazes_and_exact_counts_are_generated() {
    let level = generate("300x200", &["--maze", "backtracker"], 1);
    let g = parse_level("l", &level).unwrap();
    assert_eq!((g.height(), g.width()), (200, 300));
    let level = generate("300x200", &["--nbcc-exact", "30000"], 1);
    assert_eq!(parse_level("l", &level).unwrap().len(), 60_000);
}

#[test]
fn generator_option_errors_are_usage_errors() {
    let g = ["--generate", "8x8", "-o", "-"];
    let cases: &[(&[&str], &str)] = &[
        (
            &["--maze", "prim", "--family", "loops"],
            "exclude each other",
        ),
        (
            &["--maze", "prim", "--select", "random"],
            "--select goes with --maze growing-tree",
        ),
        (
            &["--select", "random"],
            "--select goes with --maze growing-tree",
        ),
        (
            &["--family", "loops", "--density", "0.3"],
            "--density applies to the random family",
        ),
        (
            &["--maze", "wilson", "--density", "0.3"],
            "--density applies to the random family",
        ),
        // The message names the option that chose the board generator.
        (
            &["--rules", "net", "--move-i", "3"],
            "--move-i is for the bounded square board under Infinity rules, not with --rules net",
        ),
        (
            &["--grid", "hexagonal", "--nbcc", "3"],
            "not with --grid hexagonal",
        ),
        (
            &["--wrap", "--family", "straight"],
            "with --wrap use random",
        ),
        (&["--density", "1.5"], "probability between 0 and 1"),
        (&["--density", "x"], "probability between 0 and 1"),
        (&["--braid", "0.5"], "--braid goes with --maze"),
        (&["--bent", "0.5"], "--bent goes with --family paths3"),
        (
            &["--family", "paths3", "--bent", "-0.1"],
            "probability between 0 and 1",
        ),
        (
            &["--maze", "kruskal", "--braid=-1"],
            "probability between 0 and 1",
        ),
        (
            &["--maze", "kruskal", "--braid", "2"],
            "probability between 0 and 1",
        ),
        (
            &["--maze", "wilson", "--nbcc", "1"],
            "exactly one component",
        ),
        (
            &["--maze", "wilson", "--nbcc-exact", "1"],
            "exactly one component",
        ),
        (&["--nbcc-exact", "33"], "at most 32"),
        (&["--nbcc-exact", "3", "--nbcc", "2"], "cannot be used with"),
        (&["--nbcc-exact", "-1"], "-1"),
        (&["--maze", "dfs"], "possible values"),
        (&["--family", "maze"], "possible values"),
        (
            &["--maze", "growing-tree", "--select", "first"],
            "possible values",
        ),
        (&["--unsolvable", "yes"], "possible values"),
    ];
    for (extra, needle) in cases {
        assert_usage_error(&[&g[..], extra].concat(), needle);
    }
    assert_usage_error(
        &["--generate", "1x1", "-o", "-", "--nbcc-exact", "1"],
        "at most 0",
    );
    let r = run(&[
        "--generate",
        "1x1",
        "-o",
        "-",
        "--nbcc-exact",
        "0",
        "--seed",
        "1",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn generator_options_of_another_mode_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("l.txt");
    std::fs::write(&f, b"1\n1\n0 0\n").unwrap();
    let f = p(&f);
    let cases: &[(&[&str], &str)] = &[
        (
            &["--check", f, "--maze", "prim"],
            "--maze does not apply to --check",
        ),
        (
            &["--check", f, "--density", "0.2"],
            "--density does not apply to --check",
        ),
        (
            &["--solve", f, "--braid", "0.2"],
            "--braid does not apply to --solve",
        ),
        (
            &["--solve", f, "--select", "oldest"],
            "--select does not apply to --solve",
        ),
        (
            &["--solve", f, "--nbcc-exact", "2"],
            "--nbcc-exact does not apply to --solve",
        ),
        (
            &["--check", f, "--unsolvable", "odd-parity"],
            "--unsolvable does not apply to --check",
        ),
    ];
    for (args, needle) in cases {
        assert_usage_error(args, needle);
    }
}

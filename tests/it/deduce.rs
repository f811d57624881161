//! The explained-deduction modes end to end: `--hint` (text, JSON, `--state`), `--explain-solve`
//! (every step, the verdict, the picture), `--grade` and `--generate --difficulty`, with their
//! exit codes: 0 done, 1 no solution, 2 bad input.

use crate::common;

use common::cli::{p, run, tmpdir};

/// A unique level of `difficulty` on `args`' board, written to `dir/name`.
fn make(dir: &std::path::Path, name: &str, args: &[&str], difficulty: &str) -> String {
    let path = dir.join(name);
    let mut all = vec![
        "--generate",
        "6x6",
        "--seed",
        "5",
        "--difficulty",
        difficulty,
        "-o",
        p(&path),
    ];
    all.extend_from_slice(args);
    let r = run(&all);
    assert_eq!(r.code, 0, "{all:?}: {r:?}");
    p(&path).to_string()
}

#[test]
fn generated_levels_grade_as_asked_on_every_board_and_rules() {
    let dir = tmpdir();
    let boards: [&[&str]; 4] = [
        &[],
        &["--rules", "net"],
        &["--grid", "hexagonal"],
        &["--grid", "hexagonal", "--wrap", "--rules", "net"],
    ];
    for (i, args) in boards.iter().enumerate() {
        for difficulty in ["medium", "hard"] {
            let file = make(
                dir.path(),
                &format!("{i}{difficulty}.txt"),
                args,
                difficulty,
            );
            let r = run(&["--grade", &file, "--json"]);
            assert_eq!(r.code, 0, "{r:?}");
            let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
            assert_eq!(v["difficulty"], difficulty, "{args:?}: {v}");
            assert_eq!(v["solved"], true);
            let u = run(&["--unique-check", &file]);
            assert_eq!(u.stdout.trim(), "UNIQUE: true", "{args:?}");
        }
    }
}

#[test]
fn explain_solve_ends_solved_and_its_steps_name_their_rules() {
    let dir = tmpdir();
    let file = make(dir.path(), "l.txt", &["--rules", "net"], "hard");
    let svg = dir.path().join("steps.svg");
    let r = run(&["--explain-solve", &file, "--render", p(&svg)]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"SOLVED: true"));
    assert!(
        lines.len() > 36,
        "a step per cell at least: {}",
        lines.len()
    );
    assert!(lines[0].starts_with("1. [1 border] "), "{}", lines[0]);
    assert!(r.stdout.contains(" -- "));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}

#[test]
fn a_hint_follows_the_current_turns() {
    let dir = tmpdir();
    let file = make(dir.path(), "l.txt", &[], "medium");
    let r = run(&["--hint", &file]);
    assert_eq!(r.code, 0, "{r:?}");
    for field in ["rule: ", "cells: ", "conclusion: ", "why: "] {
        assert!(r.stdout.contains(field), "{}", r.stdout);
    }
    let j = run(&["--hint", &file, "--json"]);
    let v: serde_json::Value = serde_json::from_str(j.stdout.trim()).unwrap();
    assert!(
        v["rung"].as_u64().unwrap() >= 1 && v["why"].is_string(),
        "{v}"
    );
    // The solution as the state: nothing left to hint.
    let solved = dir.path().join("solved.txt");
    assert_eq!(run(&["--solve", &file, "-o", p(&solved)]).code, 0);
    let s = run(&["--hint", &file, "--state", p(&solved)]);
    assert_eq!((s.code, s.stdout.trim()), (0, "SOLVED: true"), "{s:?}");
    // A state of another board is an input error.
    let other = make(dir.path(), "o.txt", &["--grid", "hexagonal"], "medium");
    let e = run(&["--hint", &file, "--state", &other]);
    assert_eq!(e.code, 2, "{e:?}");
}

#[test]
fn no_solution_exits_1_and_bad_input_exits_2() {
    let dir = tmpdir();
    // Three one-end pieces in a row: an odd number of ends.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "board square 3x1\n2\n2\n8\n").unwrap();
    for mode in ["--grade", "--explain-solve", "--hint"] {
        let r = run(&[mode, p(&bad)]);
        assert_eq!(r.code, 1, "{mode}: {r:?}");
    }
    let junk = dir.path().join("junk.txt");
    std::fs::write(&junk, "board square 2x2\n1\n2\n").unwrap();
    for mode in ["--grade", "--explain-solve", "--hint"] {
        assert_eq!(run(&[mode, p(&junk)]).code, 2, "{mode}");
    }
    let r = run(&["--grade", p(&bad), "--state", p(&bad)]);
    assert_eq!(r.code, 2, "--state goes with --hint: {r:?}");
}

#[test]
fn explain_solve_draws_a_picture_per_step_into_a_folder() {
    let dir = tmpdir();
    let file = make(dir.path(), "l.txt", &["--grid", "hexagonal"], "hard");
    let folder = dir.path().join("steps");
    let arg = format!("{}/", p(&folder));
    let r = run(&["--explain-solve", &file, "--render", &arg]);
    assert_eq!(r.code, 0, "{r:?}");
    let steps = r.stdout.lines().filter(|l| l.contains(" -- ")).count();
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), steps, "{names:?}");
    assert_eq!(names[0], "step-00001.svg");
    for name in [&names[0], &names[steps - 1]] {
        let svg = std::fs::read_to_string(folder.join(name)).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("highlight"),
            "{name}"
        );
    }
    // The first picture shows the level as given, the last its solution: they differ.
    assert_ne!(
        std::fs::read_to_string(folder.join(&names[0])).unwrap(),
        std::fs::read_to_string(folder.join(&names[steps - 1])).unwrap()
    );
    // Anything but an SVG file or a folder is refused.
    let png = dir.path().join("s.png");
    assert_eq!(
        run(&["--explain-solve", &file, "--render", p(&png)]).code,
        2
    );
}

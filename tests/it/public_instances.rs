//! The public benchmark levels in `../shared/instances/public`, checked against
//! `public-expected.tsv`. Skipped (with a message) when that folder is absent, as in a user's
//! clone.

use crate::common;

use std::path::PathBuf;

use common::{all_configs, solve_checked};
use phineloops::engine::check::is_solved;
use phineloops::engine::level::load_level;

struct Expected {
    file: String,
    solvable: bool,
    already_solved: bool,
}

fn expected(test: &str) -> Option<(PathBuf, Vec<Expected>)> {
    let root = common::public_levels(test)?.join("..");
    let table = std::fs::read_to_string(root.join("public-expected.tsv")).ok()?;
    let rows = table
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Expected {
                file: f[0].to_string(),
                solvable: f[4] == "yes",
                already_solved: f[5] == "yes",
            }
        })
        .collect();
    Some((root.join("public"), rows))
}

#[test]
fn check_is_true_exactly_for_the_already_solved_files() {
    let Some((dir, rows)) = expected("check_is_true_exactly_for_the_already_solved_files") else {
        return;
    };
    assert!(rows.len() >= 40);
    for row in &rows {
        let g = load_level(&dir.join(&row.file)).unwrap();
        assert_eq!(is_solved(&g), row.already_solved, "{}", row.file);
    }
}

#[test]
fn every_configuration_solves_the_solvable_and_refutes_the_rest() {
    let Some((dir, rows)) =
        expected("every_configuration_solves_the_solvable_and_refutes_the_rest")
    else {
        return;
    };
    for row in &rows {
        let g = load_level(&dir.join(&row.file)).unwrap();
        for opts in all_configs() {
            // The flow-free search thrashes on the domino-like dist.1 family beyond small sizes.
            if !opts.flow && row.file.contains("dist.1") && g.len() > 64 {
                continue;
            }
            let got = solve_checked(&g, &opts).is_some();
            assert_eq!(got, row.solvable, "{} with {opts:?}", row.file);
        }
    }
}

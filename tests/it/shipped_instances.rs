//! The levels shipped in `instances/`: `MANIFEST.tsv` lists every file, the solver agrees
//! with its `solvable` column, and `scripts/make-instances.sh`'s recipe (the recorded size,
//! seed and options) makes every file again byte for byte.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;

use phineloops::engine::level::load_level;
use phineloops::engine::solve::{Outcome, SolveOptions, solve};

/// Debug builds skip solving the largest files to keep `cargo test` quick; release test runs
/// solve every one.
const DEBUG_MAX_CELLS: usize = 256 * 256;

struct Row {
    file: String,
    width: usize,
    height: usize,
    generator: String,
    seed: u64,
    solvable: bool,
    options: String,
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("instances")
}

fn manifest() -> Vec<Row> {
    let text = std::fs::read_to_string(dir().join("MANIFEST.tsv")).expect("instances/MANIFEST.tsv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("file\twidth\theight\tgenerator\tseed\tsolvable\toptions")
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "{l:?}");
            Row {
                file: f[0].to_string(),
                width: f[1].parse().unwrap(),
                height: f[2].parse().unwrap(),
                generator: f[3].to_string(),
                seed: f[4].parse().unwrap(),
                solvable: match f[5] {
                    "yes" => true,
                    "no" => false,
                    other => panic!("solvable is yes or no, not {other:?}"),
                },
                options: f[6].to_string(),
            }
        })
        .collect()
}

#[test]
fn the_manifest_lists_exactly_the_files_and_covers_every_generator() {
    let rows = manifest();
    let listed: BTreeSet<String> = rows.iter().map(|r| r.file.clone()).collect();
    assert_eq!(listed.len(), rows.len(), "a file is listed twice");
    let present: BTreeSet<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    assert_eq!(listed, present);
    let generators: BTreeSet<&str> = rows.iter().map(|r| r.generator.as_str()).collect();
    for g in [
        "random",
        "dominoes",
        "loops",
        "mixed",
        "maze:backtracker",
        "maze:wilson",
    ] {
        assert!(generators.contains(g), "{g} missing");
    }
    let sizes: BTreeSet<usize> = rows.iter().map(|r| r.width).collect();
    assert!(sizes.contains(&8) && sizes.contains(&512), "{sizes:?}");
    for kind in ["odd-parity", "even-parity"] {
        assert!(
            rows.iter().any(|r| !r.solvable && r.options.contains(kind)),
            "no {kind} variant"
        );
    }
}

#[test]
fn the_solver_agrees_with_the_manifest() {
    let cancel = AtomicBool::new(false);
    for row in manifest() {
        let g = load_level(&dir().join(&row.file)).unwrap();
        assert_eq!(
            (g.width(), g.height()),
            (row.width, row.height),
            "{}",
            row.file
        );
        let ends: u32 = g.cells().iter().map(|p| p.mask().count_ones()).sum();
        let odd = row.options.contains("odd-parity");
        assert_eq!(
            ends % 2 == 1,
            odd,
            "{}: parity of the number of ends",
            row.file
        );
        if cfg!(debug_assertions) && g.len() > DEBUG_MAX_CELLS {
            continue;
        }
        match solve(&g, &SolveOptions::default(), &cancel).0 {
            Outcome::Solved(s) => {
                assert!(row.solvable, "{}: solved but listed unsolvable", row.file);
                assert!(phineloops::engine::check::is_solved(&s) && s.same_shapes(&g));
            }
            Outcome::Unsolvable => assert!(!row.solvable, "{}: refuted", row.file),
            other => panic!("{}: {other:?}", row.file),
        }
    }
}

#[test]
fn the_recorded_recipe_makes_every_file_again() {
    for row in manifest() {
        let size = format!("{}x{}", row.width, row.height);
        let seed = row.seed.to_string();
        let mut args = vec!["--generate", &size, "--seed", &seed, "-o", "-"];
        args.extend(row.options.split_whitespace());
        let out = Command::new(env!("CARGO_BIN_EXE_phineloops"))
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        let file = std::fs::read(dir().join(&row.file)).unwrap();
        assert!(
            out.stdout == file,
            "{}: {args:?} gives other bytes",
            row.file
        );
    }
}

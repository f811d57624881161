//! End-to-end tests of `--count`, `--count-limit`, `--generate --unique` and `--bench`.

use crate::common;

use common::cli::{p, run};

/// Four corners in a 2x2: only the closed ring keeps every end off the border.
const RING: &str = "2\n2\n5 0\n5 0\n5 0\n5 0\n";
/// A cross alone always points off the border: no solution.
const NO_WAY: &str = "1\n1\n4 0\n";

#[test]
fn count_prints_the_number_of_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let ring = dir.path().join("ring.txt");
    std::fs::write(&ring, RING).unwrap();
    let r = run(&["--count", p(&ring)]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "SOLUTIONS: 1\n"),
        "{}",
        r.stderr
    );
    let none = dir.path().join("none.txt");
    std::fs::write(&none, NO_WAY).unwrap();
    let r = run(&["--count", p(&none)]);
    assert_eq!(r.stdout, "SOLUTIONS: 0\n", "{}", r.stderr);
}

#[test]
fn count_limit_stops_early_and_bad_input_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = dir.path().join("lvl.txt");
    let made = run(&["--generate", "16x16", "--seed", "2", "-o", p(&lvl)]);
    assert_eq!(made.code, 0);
    let all = run(&["--count", p(&lvl)]);
    let n: u64 = all
        .stdout
        .trim()
        .strip_prefix("SOLUTIONS: ")
        .unwrap()
        .parse()
        .unwrap();
    assert!(n > 2, "this level is ambiguous: {n}");
    let r = run(&["--count", p(&lvl), "--count-limit", "2"]);
    assert_eq!(r.stdout, "SOLUTIONS: >= 2\n");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "2\n2\n1 0\n").unwrap();
    let r = run(&["--count", p(&bad)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("bad.txt"), "{}", r.stderr);
    let r = run(&["--solve", p(&lvl), "--count-limit", "2"]);
    assert_eq!(r.code, 2, "--count-limit belongs to --count");
}

#[test]
fn unique_levels_count_one() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "3"] {
        let lvl = dir.path().join(format!("u{seed}.txt"));
        let r = run(&[
            "--generate",
            "30x20",
            "--unique",
            "--seed",
            seed,
            "-o",
            p(&lvl),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let c = run(&["--count", p(&lvl)]);
        assert_eq!(c.stdout, "SOLUTIONS: 1\n", "seed {seed}");
    }
}

#[test]
fn bench_tables_every_method_on_every_level_and_writes_csv() {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("levels");
    std::fs::create_dir(&levels).unwrap();
    std::fs::write(levels.join("ring.txt"), RING).unwrap();
    std::fs::write(levels.join("none.txt"), NO_WAY).unwrap();
    std::fs::write(levels.join("MANIFEST.tsv"), "not a level\n").unwrap();
    let csv = dir.path().join("t.csv");
    let r = run(&["--bench", p(&levels), "--timeout", "5", "--csv", p(&csv)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for method in ["auto", "csp", "line", "snail"] {
        assert!(r.stdout.contains(method), "{}", r.stdout);
    }
    assert!(r.stdout.contains("ring.txt") && r.stdout.contains("none.txt"));
    assert!(!r.stdout.contains("MANIFEST"), "{}", r.stdout);
    assert!(r.stdout.contains("no-sol"), "{}", r.stdout);
    let table = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(table.lines().count(), 3, "{table}");
    // No progress bar escape codes when stderr is not a terminal.
    assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
}

/// A 4x4 level (generated with seed 20) with exactly two solutions.
const TWO_WAYS: &str =
    "4\n4\n1 3\n1 1\n1 2\n5 1\n1 1\n3 1\n1 0\n1 2\n1 2\n5 2\n0 0\n1 0\n0 0\n1 0\n1 3\n1 3\n";

#[test]
fn count_limit_prints_at_least_only_when_it_stopped_and_exit_codes_follow_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let two = dir.path().join("two.txt");
    std::fs::write(&two, TWO_WAYS).unwrap();
    let r = run(&["--count", p(&two)]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "SOLUTIONS: 2\n"));
    // Exactly K solutions: the count did not stop early, so it is exact.
    let r = run(&["--count", p(&two), "--count-limit", "2"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "SOLUTIONS: 2\n"));
    let r = run(&["--count", p(&two), "--count-limit", "3"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "SOLUTIONS: 2\n"));
    // K = 1 stops at the first solution (one run of the solver).
    let r = run(&["--count", p(&two), "--count-limit", "1"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "SOLUTIONS: >= 1\n"));
    // No solution: exit 1, with or without a limit.
    let none = dir.path().join("none.txt");
    std::fs::write(&none, NO_WAY).unwrap();
    for extra in [
        &[][..],
        &["--count-limit", "1"][..],
        &["--count-limit", "5"][..],
    ] {
        let mut args = vec!["--count", p(&none)];
        args.extend_from_slice(extra);
        let r = run(&args);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (1, "SOLUTIONS: 0\n"),
            "{extra:?}"
        );
    }
}

#[test]
fn unique_check_prints_and_exits_by_the_number_of_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (RING, 0, "true"),
        (TWO_WAYS, 1, "false"),
        (NO_WAY, 1, "false"),
    ];
    for (i, (text, code, answer)) in cases.into_iter().enumerate() {
        let f = dir.path().join(format!("l{i}.txt"));
        std::fs::write(&f, text).unwrap();
        let r = run(&["--unique-check", p(&f)]);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (code, format!("UNIQUE: {answer}\n").as_str()),
            "{text:?}: {}",
            r.stderr
        );
    }
    // Off a terminal nothing but the answer: no progress line on stderr.
    let f = dir.path().join("l0.txt");
    let r = run(&["--count", p(&f)]);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let r = run(&["--unique-check", "/nonexistent/level.txt"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
}

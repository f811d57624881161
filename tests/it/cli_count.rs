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

/// `--solver` runs other programs beside ours and judges their answers with our checker: a
/// right answer is timed, a grid that is not a solution and a false "no solution" are wrong,
/// a program that leaves no answer failed, and the chart names every column.
#[test]
fn bench_judges_external_solvers_by_their_answers() {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("levels");
    std::fs::create_dir(&levels).unwrap();
    std::fs::write(levels.join("ring.txt"), RING).unwrap();
    std::fs::write(levels.join("none.txt"), NO_WAY).unwrap();
    let (csv, svg) = (dir.path().join("t.csv"), dir.path().join("t.svg"));
    let ours = format!("ours={} --solve {{in}} -o {{out}}", common::cli::BIN);
    let r = run(&[
        "--bench",
        p(&levels),
        "--timeout",
        "5",
        "--solver",
        &ours,
        "--solver",
        "copy=cp {in} {out}",
        "--solver",
        "liar=echo SOLVED: false; true {in} {out}",
        "--solver",
        "crash=echo oops >&2; exit 3; {in} {out}",
        "--csv",
        p(&csv),
        "--plot",
        p(&svg),
    ]);
    assert_eq!(r.code, 1, "wrong answers exit 1\n{}{}", r.stdout, r.stderr);
    let table = std::fs::read_to_string(&csv).unwrap();
    let row = |name: &str| -> Vec<String> {
        let line = table.lines().find(|l| l.starts_with(name)).unwrap();
        line.split(',').map(str::to_string).collect()
    };
    let head: Vec<&str> = table.lines().next().unwrap().split(',').collect();
    let result = |row: &[String], col: &str| -> String {
        let i = head
            .iter()
            .position(|h| *h == format!("{col}_result"))
            .unwrap();
        row[i].clone()
    };
    let (ring, none) = (row("ring.txt"), row("none.txt"));
    assert_eq!(result(&ring, "ours"), "solved", "{table}");
    assert_eq!(result(&none, "ours"), "no-sol", "{table}");
    assert_eq!(result(&ring, "copy"), "WRONG", "an unsolved grid: {table}");
    assert_eq!(result(&none, "copy"), "WRONG", "{table}");
    assert_eq!(
        result(&ring, "liar"),
        "WRONG",
        "a false no-solution: {table}"
    );
    assert_eq!(result(&none, "liar"), "no-sol", "{table}");
    assert_eq!(result(&ring, "crash"), "FAIL", "{table}");
    assert!(
        r.stderr
            .contains("crash: failed: no answer written, exit code 3: oops")
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    for col in ["auto", "ours", "copy", "liar", "crash"] {
        assert!(chart.contains(&format!(">{col}</text>")), "{col}");
    }
}

/// An external solver past the time limit is stopped and marked `TO`; bad `--solver` values
/// are usage errors.
#[test]
fn bench_stops_an_external_solver_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ring.txt"), RING).unwrap();
    let t = std::time::Instant::now();
    let r = run(&[
        "--bench",
        p(dir.path()),
        "--timeout",
        "0.3",
        "--solver",
        "stuck=sleep 30; {in} {out}",
        "--csv",
        "-",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(",TO,\n"), "{}", r.stdout);
    assert!(
        t.elapsed().as_secs_f64() < 10.0,
        "the solver was not stopped"
    );
    for bad in ["x=cmd {in}", "auto=cmd {in} {out}", "no equals"] {
        let r = run(&["--bench", p(dir.path()), "--solver", bad]);
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(r.stderr.contains("--solver"), "{}", r.stderr);
    }
    let r = run(&[
        "--solve",
        p(&dir.path().join("ring.txt")),
        "--solver",
        "x={in} {out}",
    ]);
    assert_eq!(r.code, 2);
}

/// `--bench` takes levels of every board and format: the any-board engine answers `auto`,
/// `csp` and (Infinity rules) `cp`, the square engine's orders do not apply (`n/a`), and an
/// external solver's answer is judged on the board's geometry and rules.
#[test]
fn bench_runs_board_levels_and_judges_answers_on_their_board() {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("levels");
    std::fs::create_dir(&levels).unwrap();
    let hex = levels.join("hex.txt");
    let r = run(&[
        "--generate",
        "9x8",
        "--grid",
        "hexagonal",
        "--wrap",
        "--seed",
        "2",
        "-o",
        p(&hex),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ids = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sgt-net-ids.txt"
    ))
    .unwrap();
    let id = ids.lines().find(|l| l.contains(':')).unwrap();
    std::fs::write(levels.join("net.sgt"), format!("{id}\n")).unwrap();
    let csv = dir.path().join("t.csv");
    let ours = format!("ours={} --solve {{in}} -o {{out}}", common::cli::BIN);
    let r = run(&[
        "--bench",
        p(&levels),
        "--timeout",
        "10",
        "--solver",
        &ours,
        "--solver",
        "copy=cp {in} {out}",
        "--csv",
        p(&csv),
    ]);
    assert_eq!(r.code, 1, "the copy is wrong\n{}{}", r.stdout, r.stderr);
    let table = std::fs::read_to_string(&csv).unwrap();
    let head: Vec<&str> = table.lines().next().unwrap().split(',').collect();
    let result = |file: &str, col: &str| -> String {
        let line = table.lines().find(|l| l.starts_with(file)).unwrap();
        let i = head
            .iter()
            .position(|h| *h == format!("{col}_result"))
            .unwrap();
        line.split(',').nth(i).unwrap().to_string()
    };
    for file in ["hex.txt", "net.sgt"] {
        for col in ["auto", "csp", "learn", "ours"] {
            assert_eq!(result(file, col), "solved", "{file} {col}: {table}");
        }
        for col in ["line", "snail"] {
            assert_eq!(result(file, col), "n/a", "{file} {col}: {table}");
        }
        assert_eq!(result(file, "copy"), "WRONG", "{file}: {table}");
    }
    if head.contains(&"cp_result") {
        assert_eq!(result("hex.txt", "cp"), "solved", "{table}");
        assert_eq!(
            result("net.sgt", "cp"),
            "n/a",
            "no formula says one tree: {table}"
        );
    }
    assert!(r.stdout.contains("hexagonal wrap"), "{}", r.stdout);
}

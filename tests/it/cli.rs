//! End-to-end tests of the `phineloops` binary: exit codes, stdout, stderr and files written.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::cli::{Run, p, run, run_stdin, tmpdir};

/// Writes `text` to `name` inside `dir` and returns the path.
fn write_file(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Names of the entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A level file split into (height, width, [(type, orientation)]), checked against the format
/// independently of the crate's own reader.
fn parse_text(bytes: &[u8]) -> (usize, usize, Vec<(u8, u8)>) {
    let text = std::str::from_utf8(bytes).expect("level is UTF-8");
    assert!(text.ends_with('\n'), "level ends with a newline: {text:?}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2, "level has a header: {text:?}");
    let h: usize = lines[0].parse().expect("height");
    let w: usize = lines[1].parse().expect("width");
    assert!(h >= 1 && w >= 1);
    assert_eq!(lines.len(), 2 + h * w, "one line per cell: {text:?}");
    let cells = lines[2..]
        .iter()
        .map(|l| {
            let (t, o) = l.split_once(' ').expect("TYPE ORIENTATION");
            let (t, o): (u8, u8) = (t.parse().unwrap(), o.parse().unwrap());
            let max = match t {
                0 | 4 => 1,
                2 => 2,
                1 | 3 | 5 => 4,
                _ => panic!("bad type {t} in {l:?}"),
            };
            assert!(o < max, "orientation {o} out of range for type {t}");
            (t, o)
        })
        .collect();
    (h, w, cells)
}

fn types(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let (h, w, cells) = parse_text(bytes);
    (h, w, cells.into_iter().map(|(t, _)| t).collect())
}

/// Generates a level of `size` (WxH) with `seed` into `path`.
fn generate_to(path: &Path, size: &str, seed: u64) {
    let seed = seed.to_string();
    let r = run(&["--generate", size, "-o", p(path), "--seed", &seed]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(path.exists());
}

fn assert_checks_solved(path: &Path) {
    let r = run(&["--check", p(path)]);
    assert_eq!(
        r.code,
        0,
        "{} should check as solved: {r:?}",
        path.display()
    );
    assert_eq!(r.stdout.trim(), "SOLVED: true");
}

/// Asserts exit 2 and a `FILE:LINE:` message on stderr that also contains `needle`.
fn assert_input_error(r: &Run, file: &str, line: usize, needle: &str) {
    assert_eq!(r.code, 2, "{r:?}");
    let prefix = format!("{file}:{line}:");
    assert!(
        r.stderr.contains(&prefix),
        "stderr should contain `{prefix}`: {r:?}"
    );
    assert!(
        r.stderr.contains(needle),
        "stderr should contain `{needle}`: {r:?}"
    );
    assert!(!r.stdout.contains("SOLVED"), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// --help / --version
// ---------------------------------------------------------------------------------------------

#[test]
fn help_exits_zero_and_describes_the_modes() {
    let r = run(&["--help"]);
    assert_eq!(r.code, 0, "{r:?}");
    for word in ["--generate", "--check", "--solve", "--output", "--method"] {
        assert!(r.stdout.contains(word), "help lacks {word}: {}", r.stdout);
    }
}

#[test]
fn version_exits_zero_and_prints_the_version() {
    let r = run(&["--version"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("phineloops"), "{r:?}");
    assert!(r.stdout.contains(env!("CARGO_PKG_VERSION")), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// --generate
// ---------------------------------------------------------------------------------------------

#[test]
fn generate_same_seed_gives_identical_bytes() {
    let dir = tmpdir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    generate_to(&a, "13x9", 42);
    generate_to(&b, "13x9", 42);
    let (a, b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(a, b);
    let (h, w, _) = parse_text(&a);
    assert_eq!(
        (h, w),
        (9, 13),
        "WxH is width x height; the file starts with height"
    );
}

#[test]
fn generate_with_seed_prints_no_seed_and_writes_only_the_file() {
    let dir = tmpdir();
    let out = dir.path().join("lvl.txt");
    let r = run(&["--generate", "6x4", "-o", p(&out), "--seed", "5"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.is_empty(), "{r:?}");
    assert!(!r.stderr.contains("seed:"), "{r:?}");
    assert_eq!(entries(dir.path()), vec!["lvl.txt".to_string()]);
}

#[test]
fn generate_different_seed_gives_a_different_level() {
    let dir = tmpdir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    generate_to(&a, "16x16", 1);
    generate_to(&b, "16x16", 2);
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn generate_to_stdout_matches_the_file() {
    let dir = tmpdir();
    let file = dir.path().join("f.txt");
    generate_to(&file, "11x7", 7);
    let r = run(&["--generate", "11x7", "-o", "-", "--seed", "7"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.raw_stdout, std::fs::read(&file).unwrap());
    assert!(!r.stderr.contains("seed:"), "{r:?}");
    assert!(!dir.path().join("-").exists());
}

#[test]
fn generate_without_seed_prints_a_seed_that_reproduces_the_level() {
    let r = run(&["--generate", "10x8", "-o", "-"]);
    assert_eq!(r.code, 0, "{r:?}");
    let seed_line = r
        .stderr
        .lines()
        .find(|l| l.starts_with("seed: "))
        .unwrap_or_else(|| panic!("no `seed: N` on stderr: {r:?}"));
    let seed: u64 = seed_line["seed: ".len()..]
        .trim()
        .parse()
        .expect("seed is a u64");
    // The seed never goes to stdout, which holds only the level.
    parse_text(&r.raw_stdout);
    let again = run(&["--generate", "10x8", "-o", "-", "--seed", &seed.to_string()]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(again.raw_stdout, r.raw_stdout);
}

#[test]
fn generate_thin_and_tiny_grids() {
    let dir = tmpdir();
    for (size, h, w) in [("1x1", 1, 1), ("1x7", 7, 1), ("7x1", 1, 7)] {
        for seed in 0..5 {
            let out = dir.path().join(format!("{size}-{seed}.txt"));
            generate_to(&out, size, seed);
            let bytes = std::fs::read(&out).unwrap();
            let (fh, fw, _) = parse_text(&bytes);
            assert_eq!(
                (fh, fw),
                (h, w),
                "{size}: {}",
                String::from_utf8_lossy(&bytes)
            );
            // A generated level is solvable.
            let solved = dir.path().join(format!("{size}-{seed}.sol"));
            let r = run(&["--solve", p(&out), "-o", p(&solved)]);
            assert_eq!(r.code, 0, "{size} seed {seed}: {r:?}");
            assert_checks_solved(&solved);
        }
    }
}

#[test]
fn generate_accepts_nbcc_long_and_short() {
    let dir = tmpdir();
    for (flag, n) in [("--nbcc", "1"), ("-x", "2"), ("--nbcc", "5")] {
        let out = dir.path().join(format!("n{n}.txt"));
        let r = run(&["--generate", "12x10", "-o", p(&out), flag, n, "--seed", "3"]);
        assert_eq!(r.code, 0, "{flag} {n}: {r:?}");
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(parse_text(&bytes).0, 10);
        // Deterministic with --nbcc as well.
        let r2 = run(&["--generate", "12x10", "-o", "-", flag, n, "--seed", "3"]);
        assert_eq!(r2.code, 0, "{r2:?}");
        assert_eq!(r2.raw_stdout, bytes);
        let solved = dir.path().join(format!("n{n}.sol"));
        let r = run(&["--solve", p(&out), "-o", p(&solved)]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_checks_solved(&solved);
    }
}

#[test]
fn generate_overwrites_an_existing_file() {
    let dir = tmpdir();
    let out = write_file(dir.path(), "lvl.txt", b"old contents\n");
    generate_to(&out, "3x3", 9);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(parse_text(&bytes).0, 3);
    assert_eq!(entries(dir.path()), vec!["lvl.txt".to_string()]);
}

#[test]
fn generate_into_a_missing_folder_is_an_error() {
    let dir = tmpdir();
    let out = dir.path().join("no/such/dir/x.txt");
    let r = run(&["--generate", "3x3", "-o", p(&out), "--seed", "1"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains(p(&out)), "{r:?}");
    assert!(!out.exists());
}

// ---------------------------------------------------------------------------------------------
// --check
// ---------------------------------------------------------------------------------------------

/// 1x2: a Q pointing east next to a Q pointing west. Solved.
const SOLVED_1X2: &[u8] = b"1\n2\n1 1\n1 3\n";
/// 2x2 ring of corners. Solved.
const SOLVED_RING: &[u8] = b"2\n2\n5 1\n5 2\n5 0\n5 3\n";
/// The same ring with the top-left corner turned the wrong way.
const UNSOLVED_RING: &[u8] = b"2\n2\n5 0\n5 2\n5 0\n5 3\n";

#[test]
fn check_solved_levels() {
    let dir = tmpdir();
    for (i, level) in [SOLVED_1X2, SOLVED_RING, b"1\n1\n0 0\n".as_slice()]
        .iter()
        .enumerate()
    {
        let f = write_file(dir.path(), &format!("s{i}.txt"), level);
        let r = run(&["--check", p(&f)]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.stdout, "SOLVED: true\n");
        assert!(r.stderr.is_empty(), "{r:?}");
        // -v adds nothing for a solved level.
        let r = run(&["--check", p(&f), "-v"]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.stdout, "SOLVED: true\n");
        assert!(r.stderr.is_empty(), "{r:?}");
    }
}

#[test]
fn check_unsolved_levels() {
    let dir = tmpdir();
    for (i, level) in [
        UNSOLVED_RING,
        b"1\n1\n1 0\n".as_slice(),
        b"1\n2\n1 1\n1 1\n",
    ]
    .iter()
    .enumerate()
    {
        let f = write_file(dir.path(), &format!("u{i}.txt"), level);
        let r = run(&["--check", p(&f)]);
        assert_eq!(r.code, 1, "{r:?}");
        assert_eq!(r.stdout, "SOLVED: false\n");
        assert!(r.stderr.is_empty(), "without -v nothing on stderr: {r:?}");
    }
}

#[test]
fn check_verbose_names_the_first_bad_cell() {
    let dir = tmpdir();
    // Top-left L points north: off the border at (0, 0).
    let f = write_file(dir.path(), "u.txt", UNSOLVED_RING);
    let r = run(&["--check", p(&f), "-v"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
    assert!(r.stderr.contains("row 0, col 0"), "{r:?}");
    assert!(r.stderr.contains("north"), "{r:?}");
    assert!(r.stderr.contains("off the border"), "{r:?}");

    // Two Qs both pointing east: (0, 0) is fine on the border but disagrees with its neighbour.
    let f = write_file(dir.path(), "u2.txt", b"1\n2\n1 1\n1 1\n");
    let r = run(&["--check", p(&f), "--verbose"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("row 0, col 0"), "{r:?}");
    assert!(r.stderr.contains("disagree"), "{r:?}");

    // Defect further in: the bottom-right corner of an otherwise solved ring.
    let f = write_file(dir.path(), "u3.txt", b"2\n2\n5 1\n5 2\n5 0\n5 2\n");
    let r = run(&["--check", p(&f), "-v"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("row 0, col 1") || r.stderr.contains("row 1,"),
        "{r:?}"
    );
    assert!(!r.stderr.contains("row 0, col 0"), "{r:?}");
}

#[test]
fn check_reads_standard_input() {
    let r = run_stdin(&["--check", "-"], SOLVED_RING);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: true\n");
    let r = run_stdin(&["--check", "-", "-v"], UNSOLVED_RING);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
    assert!(r.stderr.contains("row 0, col 0"), "{r:?}");
}

#[test]
fn check_accepts_crlf_input() {
    let dir = tmpdir();
    let f = write_file(dir.path(), "crlf.txt", b"1\r\n2\r\n1 1\r\n1 3\r\n");
    let r = run(&["--check", p(&f)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: true\n");
    let f = write_file(
        dir.path(),
        "crlf2.txt",
        b"2\r\n2\r\n5 0\r\n5 2\r\n5 0\r\n5 3\r\n",
    );
    let r = run(&["--check", p(&f)]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
    // Blank trailing lines and surrounding spaces are fine too.
    let f = write_file(
        dir.path(),
        "blank.txt",
        b"1\r\n2  \r\n 1 1\t\r\n1 3\r\n\r\n",
    );
    let r = run(&["--check", p(&f)]);
    assert_eq!(r.code, 0, "{r:?}");
    // No final newline.
    let f = write_file(dir.path(), "nonl.txt", b"1\n2\n1 1\n1 3");
    let r = run(&["--check", p(&f)]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn a_generated_level_is_scrambled() {
    // Over several seeds at least one generated level does not already check as solved.
    let dir = tmpdir();
    let mut unsolved = 0;
    for seed in 0..4 {
        let f = dir.path().join(format!("g{seed}.txt"));
        generate_to(&f, "8x8", seed);
        let r = run(&["--check", p(&f)]);
        assert!(r.code == 0 || r.code == 1, "{r:?}");
        if r.code == 1 {
            unsolved += 1;
        }
    }
    assert!(unsolved > 0);
}

// ---------------------------------------------------------------------------------------------
// --solve
// ---------------------------------------------------------------------------------------------

#[test]
fn solve_with_each_method_gives_a_checked_solution_of_the_same_pieces() {
    let dir = tmpdir();
    for (size, seed) in [("12x9", 11u64), ("20x15", 12), ("1x9", 13), ("9x1", 14)] {
        let input = dir.path().join(format!("in-{size}.txt"));
        generate_to(&input, size, seed);
        let input_bytes = std::fs::read(&input).unwrap();
        let want = types(&input_bytes);
        for method in ["auto", "csp", "line", "snail"] {
            for threads in ["1", "3"] {
                let out = dir
                    .path()
                    .join(format!("out-{size}-{method}-{threads}.txt"));
                let r = run(&[
                    "--solve",
                    p(&input),
                    "-o",
                    p(&out),
                    "-m",
                    method,
                    "-t",
                    threads,
                ]);
                assert_eq!(r.code, 0, "{size} {method} -t {threads}: {r:?}");
                assert_eq!(r.stdout, "SOLVED: true\n", "{r:?}");
                let got = std::fs::read(&out).unwrap();
                assert_eq!(types(&got), want, "{size} {method}: same shapes");
                assert_checks_solved(&out);
            }
        }
        // The input is never modified.
        assert_eq!(std::fs::read(&input).unwrap(), input_bytes);
    }
    // Only the inputs and outputs: no temporary files left behind by the atomic writes.
    assert!(
        entries(dir.path())
            .iter()
            .all(|e| e.ends_with(".txt") && !e.starts_with('.')),
        "{:?}",
        entries(dir.path())
    );
}

#[test]
fn solve_long_method_flag_and_default_method() {
    let dir = tmpdir();
    let input = dir.path().join("in.txt");
    generate_to(&input, "7x6", 99);
    let out = dir.path().join("out.txt");
    let r = run(&[
        "--solve",
        p(&input),
        "--output",
        p(&out),
        "--method",
        "snail",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_checks_solved(&out);
    let out2 = dir.path().join("out2.txt");
    let r = run(&["--solve", p(&input), "-o", p(&out2)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_checks_solved(&out2);
}

#[test]
fn solve_without_output_only_prints_the_verdict() {
    let dir = tmpdir();
    let input = dir.path().join("in.txt");
    generate_to(&input, "6x6", 4);
    let r = run(&["--solve", p(&input)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: true\n");
    assert_eq!(entries(dir.path()), vec!["in.txt".to_string()]);
}

#[test]
fn solve_to_stdout_puts_the_verdict_on_stderr() {
    let dir = tmpdir();
    let input = dir.path().join("in.txt");
    generate_to(&input, "9x5", 21);
    let r = run(&["--solve", p(&input), "-o", "-"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stdout.contains("SOLVED"), "{r:?}");
    assert!(r.stderr.contains("SOLVED: true"), "{r:?}");
    assert_eq!(types(&r.raw_stdout), types(&std::fs::read(&input).unwrap()));
    // What went to stdout checks as solved when fed back through stdin.
    let c = run_stdin(&["--check", "-"], &r.raw_stdout);
    assert_eq!(c.code, 0, "{c:?}");
    assert_eq!(c.stdout, "SOLVED: true\n");
}

#[test]
fn solve_reads_standard_input() {
    let dir = tmpdir();
    let out = dir.path().join("out.txt");
    let input = b"2\n2\n5 0\n5 0\n5 0\n5 0\n";
    let r = run_stdin(&["--solve", "-", "-o", p(&out)], input);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: true\n");
    assert_eq!(std::fs::read(&out).unwrap(), SOLVED_RING);
}

#[test]
fn solve_accepts_crlf_input() {
    let dir = tmpdir();
    let input = write_file(
        dir.path(),
        "crlf.txt",
        b"2\r\n2\r\n5 0\r\n5 0\r\n5 0\r\n5 0\r\n",
    );
    let out = dir.path().join("out.txt");
    let r = run(&["--solve", p(&input), "-o", p(&out)]);
    assert_eq!(r.code, 0, "{r:?}");
    // The output is written with plain `\n` line ends.
    assert_eq!(std::fs::read(&out).unwrap(), SOLVED_RING);
}

#[test]
fn solve_replaces_an_existing_output_file() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", b"1\n2\n1 0\n1 0\n");
    let out = write_file(dir.path(), "out.txt", b"stale\n");
    let r = run(&["--solve", p(&input), "-o", p(&out)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(std::fs::read(&out).unwrap(), SOLVED_1X2);
    assert_eq!(
        entries(dir.path()),
        vec!["in.txt".to_string(), "out.txt".to_string()]
    );
}

#[test]
fn solve_an_already_solved_level() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", SOLVED_RING);
    let out = dir.path().join("out.txt");
    let r = run(&["--solve", p(&input), "-o", p(&out)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(std::fs::read(&out).unwrap(), SOLVED_RING);
}

#[test]
fn solve_stats_mention_search_nodes() {
    let dir = tmpdir();
    let input = dir.path().join("in.txt");
    generate_to(&input, "15x10", 8);
    for method in ["auto", "csp", "line", "snail"] {
        let r = run(&["--solve", p(&input), "-m", method, "--stats"]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.stdout, "SOLVED: true\n", "stats stay off stdout: {r:?}");
        assert!(r.stderr.contains("search nodes"), "{r:?}");
    }
    // Without --stats there are no statistics.
    let r = run(&["--solve", p(&input)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("search nodes"), "{r:?}");
}

const UNSOLVABLE: [(&str, &[u8]); 4] = [
    ("lone-q", b"1\n1\n1 0\n"),
    ("q-next-to-l", b"1\n2\n1 0\n5 0\n"),
    ("lone-x", b"1\n1\n4 0\n"),
    ("t-in-a-row", b"1\n3\n3 0\n3 0\n3 0\n"),
];

#[test]
fn unsolvable_levels_exit_1_and_write_nothing() {
    for method in ["auto", "csp", "line", "snail"] {
        for (name, level) in UNSOLVABLE {
            let dir = tmpdir();
            let input = write_file(dir.path(), "in.txt", level);
            let out = dir.path().join("out.txt");
            let r = run(&["--solve", p(&input), "-o", p(&out), "-m", method]);
            assert_eq!(r.code, 1, "{name} {method}: {r:?}");
            assert_eq!(r.stdout, "SOLVED: false\n", "{name}: {r:?}");
            assert!(r.stderr.contains("no solution"), "{name}: {r:?}");
            assert!(r.stderr.contains("nothing written"), "{name}: {r:?}");
            assert!(!out.exists(), "{name} {method}: output must not be created");
            assert_eq!(entries(dir.path()), vec!["in.txt".to_string()], "{name}");
        }
    }
}

#[test]
fn unsolvable_level_leaves_an_existing_output_untouched() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", b"1\n1\n1 0\n");
    let out = write_file(dir.path(), "out.txt", b"keep me\n");
    let r = run(&["--solve", p(&input), "-o", p(&out)]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me\n");
}

#[test]
fn unsolvable_level_to_stdout_prints_no_level() {
    let r = run_stdin(&["--solve", "-", "-o", "-"], b"1\n2\n1 0\n5 0\n");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.is_empty(), "{r:?}");
    assert!(r.stderr.contains("SOLVED: false"), "{r:?}");
    assert!(r.stderr.contains("no solution"), "{r:?}");
}

#[test]
fn unsolvable_level_with_stats() {
    let r = run_stdin(&["--solve", "-", "--stats"], b"1\n1\n1 0\n");
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
    assert!(r.stderr.contains("search nodes"), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Usage errors
// ---------------------------------------------------------------------------------------------

fn assert_usage_error(args: &[&str], needle: &str) {
    let r = run(args);
    assert_eq!(r.code, 2, "{args:?}: {r:?}");
    assert!(r.stdout.is_empty(), "{args:?}: {r:?}");
    assert!(
        r.stderr.contains(needle),
        "{args:?}: stderr should contain `{needle}`: {r:?}"
    );
}

#[test]
fn unknown_method_is_a_usage_error() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", SOLVED_RING);
    let out = dir.path().join("out.txt");
    assert_usage_error(&["--solve", p(&input), "-m", "dfs", "-o", p(&out)], "dfs");
    assert_usage_error(&["--solve", p(&input), "--method", "CSPX"], "CSPX");
    assert!(!out.exists());
}

#[test]
fn conflicting_modes_are_a_usage_error() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", SOLVED_RING);
    let out = dir.path().join("out.txt");
    assert_usage_error(
        &["--check", p(&input), "--solve", p(&input)],
        "cannot be used",
    );
    assert_usage_error(
        &["--generate", "3x3", "--solve", p(&input), "-o", p(&out)],
        "cannot be used",
    );
    assert_usage_error(
        &["--generate", "3x3", "--check", p(&input), "-o", p(&out)],
        "cannot be used",
    );
    assert!(!out.exists());
}

#[test]
fn missing_mode_is_a_usage_error() {
    assert_usage_error(&[], "required");
    let dir = tmpdir();
    let out = dir.path().join("out.txt");
    assert_usage_error(&["-o", p(&out)], "required");
    assert!(!out.exists());
}

#[test]
fn generate_without_output_is_a_usage_error() {
    assert_usage_error(&["--generate", "4x4"], "-o");
    assert_usage_error(&["--generate", "4x4", "--seed", "1"], "-o");
}

#[test]
fn check_with_output_is_a_usage_error() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", SOLVED_RING);
    let out = dir.path().join("out.txt");
    assert_usage_error(&["--check", p(&input), "-o", p(&out)], "-o");
    assert!(!out.exists());
}

#[test]
fn bad_sizes_are_a_usage_error() {
    let dir = tmpdir();
    let out = dir.path().join("out.txt");
    for size in [
        "0x5", "5x0", "0x0", "abc", "5", "x5", "5x", "4x-3", "axb", "1.5x2", "3x3x3",
    ] {
        assert_usage_error(&["--generate", size, "-o", p(&out)], size);
    }
    // A leading `-` makes clap read the size as flags; still a usage error.
    assert_usage_error(&["--generate", "-3x4", "-o", p(&out)], "-3");
    // More cells than the format allows.
    assert_usage_error(&["--generate", "100000x100000", "-o", p(&out)], "too many");
    assert!(!out.exists());
}

#[test]
fn bad_option_values_are_a_usage_error() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", SOLVED_RING);
    assert_usage_error(&["--solve", p(&input), "-t", "0"], "0");
    assert_usage_error(&["--solve", p(&input), "-t", "many"], "many");
    assert_usage_error(&["--generate", "3x3", "-o", "-", "--seed", "x"], "x");
    assert_usage_error(&["--generate", "3x3", "-o", "-", "--nbcc", "-1"], "-1");
    assert_usage_error(&["--check", p(&input), "--bogus"], "--bogus");
}

// ---------------------------------------------------------------------------------------------
// Bad input files
// ---------------------------------------------------------------------------------------------

/// Each bad level, the line its error names and a word of the message.
const BAD_INPUTS: [(&str, &[u8], usize, &str); 21] = [
    ("empty", b"", 1, "height"),
    ("non-numeric-height", b"abc\n1\n0 0\n", 1, "height"),
    ("non-numeric-width", b"1\nxyz\n0 0\n", 2, "width"),
    ("negative-height", b"-1\n1\n0 0\n", 1, "height"),
    ("zero-height", b"0\n1\n", 1, "height"),
    ("zero-width", b"1\n0\n0 0\n", 2, "width"),
    ("header-only-height", b"3\n", 2, "width"),
    ("huge-header", b"1000000000\n1000000000\n", 2, "too many"),
    ("unknown-type", b"1\n1\n9 0\n", 3, "unknown piece type"),
    (
        "unknown-type-later",
        b"1\n2\n0 0\n9 0\n",
        4,
        "unknown piece type",
    ),
    ("orientation-i", b"1\n1\n2 2\n", 3, "out of range"),
    ("orientation-x", b"1\n1\n4 1\n", 3, "out of range"),
    ("orientation-empty", b"1\n1\n0 1\n", 3, "out of range"),
    ("too-few-lines", b"1\n3\n0 0\n0 0\n", 5, "found 2"),
    ("too-many-lines", b"1\n1\n0 0\n0 0\n", 4, "after the last"),
    ("three-fields", b"1\n1\n0 0 0\n", 3, "two integers"),
    ("one-field", b"1\n1\n0\n", 3, "two integers"),
    // A blank line among the pieces is named as such, not as too few lines.
    (
        "blank-first-piece",
        b"2\n2\n\n1 0\n1 0\n1 0\n",
        3,
        "blank line where piece 1 of 4",
    ),
    (
        "blank-among-pieces",
        b"2\n2\n1 0\n\n1 0\n1 0\n1 0\n",
        4,
        "blank line where piece 2 of 4",
    ),
    (
        "byte-order-mark",
        b"\xEF\xBB\xBF1\n1\n0 0\n",
        1,
        "byte-order mark",
    ),
    (
        "letter-orientation",
        b"1\n1\n1 a\n",
        3,
        "orientation as an integer 0 to 3, found `a`",
    ),
];

#[test]
fn bad_input_files_name_the_file_and_line_for_check_and_solve() {
    let dir = tmpdir();
    for (name, text, line, needle) in BAD_INPUTS {
        let f = write_file(dir.path(), &format!("{name}.txt"), text);
        let r = run(&["--check", p(&f)]);
        assert_input_error(&r, p(&f), line, needle);
        let r = run(&["--check", p(&f), "-v"]);
        assert_input_error(&r, p(&f), line, needle);
        let out = dir.path().join(format!("{name}.out"));
        let r = run(&["--solve", p(&f), "-o", p(&out)]);
        assert_input_error(&r, p(&f), line, needle);
        assert!(!out.exists(), "{name}: nothing written");
    }
}

#[test]
fn bad_input_on_stdin_is_named_stdin() {
    for (name, text, line, needle) in BAD_INPUTS {
        let r = run_stdin(&["--check", "-"], text);
        assert_input_error(&r, "<stdin>", line, needle);
        let r = run_stdin(&["--solve", "-", "-o", "-"], text);
        assert_input_error(&r, "<stdin>", line, needle);
        assert!(r.stdout.is_empty(), "{name}: {r:?}");
    }
}

#[test]
fn bad_input_with_crlf_still_names_the_line() {
    let dir = tmpdir();
    let f = write_file(dir.path(), "crlf.txt", b"1\r\n2\r\n0 0\r\n4 1\r\n");
    let r = run(&["--check", p(&f)]);
    assert_input_error(&r, p(&f), 4, "out of range");
}

#[test]
fn huge_headers_fail_fast() {
    let dir = tmpdir();
    for (name, text) in [
        ("huge", b"1000000000\n1000000000\n".as_slice()),
        ("huge-with-a-piece", b"1000000000\n1000000000\n0 0\n"),
        // Within the cell limit, but the file does not hold the lines it claims.
        ("large", b"30000\n30000\n0 0\n"),
        ("overflow", b"99999999999999999999999\n1\n"),
    ] {
        let f = write_file(dir.path(), &format!("{name}.txt"), text);
        for mode in ["--check", "--solve"] {
            let t0 = Instant::now();
            let r = run(&[mode, p(&f)]);
            let took = t0.elapsed();
            assert_eq!(r.code, 2, "{name} {mode}: {r:?}");
            assert!(r.stderr.contains(p(&f)), "{name}: {r:?}");
            assert!(took < Duration::from_secs(5), "{name} {mode} took {took:?}");
        }
    }
}

#[test]
fn missing_file_names_the_file() {
    let dir = tmpdir();
    let f = dir.path().join("does-not-exist.txt");
    let out = dir.path().join("out.txt");
    for args in [
        vec!["--check", p(&f)],
        vec!["--check", p(&f), "-v"],
        vec!["--solve", p(&f)],
        vec!["--solve", p(&f), "-o", p(&out)],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains(p(&f)), "{args:?}: {r:?}");
        assert!(r.stderr.contains("cannot read"), "{args:?}: {r:?}");
        assert!(!r.stdout.contains("SOLVED"), "{r:?}");
    }
    assert!(!out.exists());
}

#[test]
fn a_directory_as_input_is_an_error_not_a_panic() {
    let dir = tmpdir();
    let r = run(&["--check", p(dir.path())]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains(p(dir.path())), "{r:?}");
}

#[test]
fn binary_garbage_is_an_input_error() {
    let dir = tmpdir();
    let f = write_file(
        dir.path(),
        "bin.txt",
        &[0xff, 0xfe, 0x00, b'\n', 0x80, b'\n'],
    );
    let r = run(&["--check", p(&f)]);
    assert_input_error(&r, p(&f), 1, "height");
}

#[test]
fn options_of_another_mode_are_a_usage_error() {
    let dir = tmpdir();
    let input = write_file(dir.path(), "in.txt", SOLVED_RING);
    let out = dir.path().join("out.txt");
    let lvl = p(&input);
    let o = p(&out);
    let cases: &[(&[&str], &str)] = &[
        (
            &["--check", lvl, "--seed", "3"],
            "--seed does not apply to --check",
        ),
        (
            &["--check", lvl, "-x", "2"],
            "--nbcc does not apply to --check",
        ),
        (
            &["--check", lvl, "-m", "csp"],
            "--method does not apply to --check",
        ),
        (
            &["--check", lvl, "--stats"],
            "--stats does not apply to --check",
        ),
        (
            &["--solve", lvl, "-o", o, "--family", "dominoes"],
            "--family does not apply to --solve",
        ),
        (
            &["--solve", lvl, "-o", o, "-v"],
            "--verbose does not apply to --solve",
        ),
        (
            &["--generate", "3x3", "-o", o, "-t", "2"],
            "--threads does not apply to --generate",
        ),
        (
            &["--generate", "3x3", "-o", o, "--timeout", "1"],
            "--timeout does not apply to --generate",
        ),
        (
            &["--generate", "3x3", "-o", o, "--json"],
            "--json does not apply to --generate",
        ),
    ];
    for (args, needle) in cases {
        assert_usage_error(args, needle);
    }
    assert!(!out.exists());
}

/// `--json` is one JSON object after the `SOLVED:` line, and its numbers agree with the level
/// and with each other.
#[test]
fn solve_json_parses_and_its_fields_agree() {
    let dir = tmpdir();
    let level = dir.path().join("l.txt");
    let r = run(&["--generate", "30x20", "--seed", "5", "-o", p(&level)]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = run(&["--solve", p(&level), "--json", "-m", "csp", "-t", "1"]);
    assert_eq!(r.code, 0, "{r:?}");
    let mut lines = r.stdout.lines();
    assert_eq!(lines.next(), Some("SOLVED: true"));
    let v: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(lines.next(), None);
    assert_eq!(v["result"], "solved");
    assert_eq!(v["method"], "csp");
    assert_eq!(v["threads"], 1);
    assert_eq!(v["cells"], 600);
    let sizes: Vec<u64> = v["region_sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(v["regions"].as_u64(), Some(sizes.len() as u64));
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "largest first");
    let fixed = v["fixed_after_propagation"].as_u64().unwrap();
    assert!(fixed + sizes.iter().sum::<u64>() <= 600);
    let t = &v["time_ms"];
    let parts: f64 = ["parse", "propagate", "regions", "search", "verify", "write"]
        .iter()
        .map(|k| t[*k].as_f64().unwrap())
        .sum();
    assert!(parts <= t["total"].as_f64().unwrap() + 0.01, "{t}");
    assert!(v.get("reason").is_none());

    // No solution: the reason comes with it, its cells inside the grid.
    let bad = dir.path().join("bad.txt");
    let r = run(&[
        "--generate",
        "30x20",
        "--seed",
        "5",
        "--unsolvable",
        "odd-parity",
        "-o",
        p(&bad),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = run(&["--solve", p(&bad), "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    let json = r.stdout.lines().nth(1).unwrap();
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["result"], "unsolvable");
    assert_eq!(v["reason"]["kind"], "odd-ends");
    assert_eq!(v["reason"]["ends"].as_u64().unwrap() % 2, 1);
    assert!(v["reason"]["message"].as_str().unwrap().contains("odd"));
}

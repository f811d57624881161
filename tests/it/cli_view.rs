//! End-to-end tests of the viewing options: `--print` (mode and flag), `--show-domains`,
//! `--color`, `--render`, `--solve --trace`, and `--play`'s checks that need no terminal.

use crate::common;

use std::path::{Path, PathBuf};

use common::cli::{Run, p, run_env};

fn run(args: &[&str]) -> Run {
    run_env(args, &[], None)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn assert_usage_error(args: &[&str], needle: &str) {
    let r = run(args);
    assert_eq!(r.code, 2, "{args:?}: {r:?}");
    assert!(r.stdout.is_empty(), "{args:?}: {r:?}");
    assert!(
        r.stderr.contains(needle),
        "{args:?}: want `{needle}`: {r:?}"
    );
}

/// Unsolved: top row met, bottom row has a Q off the border and an I meeting nothing.
const MIXED: &str = "2\n4\n1 1\n2 1\n2 1\n1 3\n0 0\n1 2\n2 0\n0 0\n";
/// A solved 3x3 frame.
const FRAME: &str = "3\n3\n5 1\n3 2\n5 2\n3 1\n4 0\n3 3\n5 0\n3 0\n5 3\n";
/// The frame scrambled (every corner and tee turned).
const FRAME_SCRAMBLED: &str = "3\n3\n5 0\n3 0\n5 0\n3 0\n4 0\n3 0\n5 0\n3 0\n5 0\n";
/// A lone cross: no solution.
const CROSS: &str = "1\n1\n4 0\n";

#[test]
fn help_lists_the_new_options() {
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    for word in [
        "--print",
        "--show-domains",
        "--color",
        "--render",
        "--play",
        "--gui",
        "--size",
        "--trace",
    ] {
        assert!(r.stdout.contains(word), "help lacks {word}");
    }
}

#[test]
fn print_draws_the_grid_without_escapes_into_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "l.txt", MIXED);
    let r = run(&["--print", p(&lvl)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "╶──╴\n ╷│ \n");
    assert!(r.stderr.is_empty(), "{r:?}");
    // NO_COLOR changes nothing in a pipe, and `never` is plain too.
    let r = run_env(&["--print", p(&lvl)], &[("NO_COLOR", "1")], None);
    assert_eq!(r.stdout, "╶──╴\n ╷│ \n");
    let r = run(&["--print", p(&lvl), "--color", "never"]);
    assert_eq!(r.stdout, "╶──╴\n ╷│ \n");
}

#[test]
fn color_always_gives_escapes_even_with_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "l.txt", MIXED);
    let want = "╶──╴\n \x1b[1;31m╷│\x1b[0m \n";
    let r = run(&["--print", p(&lvl), "--color", "always"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, want), "{r:?}");
    let r = run_env(
        &["--print", p(&lvl), "--color", "always"],
        &[("NO_COLOR", "1")],
        None,
    );
    assert_eq!(r.stdout, want);
}

#[test]
fn show_domains_without_colour_prints_digits_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "q.txt", "2\n2\n1 0\n1 0\n1 0\n1 0\n");
    let r = run(&["--print", p(&lvl), "--show-domains"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "╵╵\n╵╵\n\n22\n22\nafter propagation: 0 of 4 pieces frozen; 4 with 2 orientations, 0 with 3, 0 with 4\n"
    );
    assert!(!r.stdout.contains('\x1b'));
}

#[test]
fn show_domains_with_colour_has_a_legend_and_no_digit_grid() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "q.txt", "2\n2\n1 0\n1 0\n1 0\n1 0\n");
    let r = run(&["--print", p(&lvl), "--show-domains", "--color", "always"]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "\x1b[33m╵╵\x1b[0m");
    assert!(lines[2].starts_with("legend:") && lines[2].contains("frozen"));
    assert!(lines[3].starts_with("after propagation: 0 of 4"));
    assert_eq!(lines.len(), 4);
}

#[test]
fn show_domains_reports_a_contradiction() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "x.txt", CROSS);
    let r = run(&["--print", p(&lvl), "--show-domains"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("contradiction"), "{r:?}");
}

#[test]
fn print_reads_standard_input() {
    let r = run_env(&["--print", "-"], &[], Some(FRAME.as_bytes()));
    assert_eq!((r.code, r.stdout.as_str()), (0, "┌┬┐\n├┼┤\n└┴┘\n"), "{r:?}");
}

#[test]
fn print_of_bad_input_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.txt", "2\n2\n0 0\n7 0\n0 0\n0 0\n");
    let r = run(&["--print", p(&bad)]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("bad.txt:4:"), "{r:?}");
    assert!(r.stdout.is_empty());
    let r = run(&["--print", p(&dir.path().join("missing.txt"))]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("missing.txt"), "{r:?}");
}

#[test]
fn generate_with_print_needs_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&["--generate", "7x3", "--seed", "4", "--print"]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l.chars().count() == 7), "{lines:?}");
    // The same level written and printed gives the same picture.
    let lvl = dir.path().join("g.txt");
    let w = run(&["--generate", "7x3", "--seed", "4", "-o", p(&lvl), "--print"]);
    assert_eq!(w.stdout, r.stdout);
    assert_eq!(run(&["--print", p(&lvl)]).stdout, r.stdout);
    assert_eq!(files_in(dir.path()), vec!["g.txt"]);
}

#[test]
fn generate_to_stdout_with_print_keeps_stdout_for_the_level() {
    let r = run(&["--generate", "5x4", "--seed", "2", "-o", "-", "--print"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("4\n5\n"), "{r:?}");
    assert_eq!(r.stderr.lines().count(), 4, "{r:?}");
    let again = run_env(&["--print", "-"], &[], Some(r.stdout.as_bytes()));
    assert_eq!(again.stdout, r.stderr);
}

#[test]
fn solve_with_print_draws_the_solution_after_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "s.txt", FRAME_SCRAMBLED);
    let r = run(&["--solve", p(&lvl), "--print"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: true\n┌┬┐\n├┼┤\n└┴┘\n");
    let r = run(&["--solve", p(&lvl), "-o", "-", "--print"]);
    assert_eq!(r.stdout, FRAME);
    assert_eq!(r.stderr, "SOLVED: true\n┌┬┐\n├┼┤\n└┴┘\n");
    // No solution: nothing drawn, exit 1.
    let x = write(dir.path(), "x.txt", CROSS);
    let r = run(&["--solve", p(&x), "--print"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
}

#[test]
fn render_writes_svg_and_png_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "s.txt", FRAME_SCRAMBLED);
    let svg = dir.path().join("level.svg");
    let r = run(&["--print", p(&lvl), "--render", p(&svg)]);
    assert_eq!(r.code, 0, "{r:?}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg ") && text.ends_with("</svg>\n"));
    assert!(text.contains("#ff6b6b"), "a scrambled level has loose ends");
    let solved = dir.path().join("solved.SVG");
    let r = run(&["--solve", p(&lvl), "--render", p(&solved)]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "SOLVED: true\n"), "{r:?}");
    let text = std::fs::read_to_string(&solved).unwrap();
    assert!(!text.contains("#ff6b6b"), "a solution has no loose ends");
    let png = dir.path().join("gen.png");
    let r = run(&["--generate", "12x9", "--seed", "1", "--render", p(&png)]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(
        files_in(dir.path()),
        vec!["gen.png", "level.svg", "s.txt", "solved.SVG"]
    );
}

#[test]
fn render_errors_are_usage_or_file_errors() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "s.txt", FRAME);
    assert_usage_error(
        &["--print", p(&lvl), "--render", p(&dir.path().join("x.gif"))],
        ".svg or .png",
    );
    assert_usage_error(&["--print", p(&lvl), "--render", "noext"], ".svg or .png");
    let missing = dir.path().join("no/such/dir/x.svg");
    let r = run(&["--generate", "3x3", "--render", p(&missing)]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("x.svg"), "{r:?}");
    let r = run(&[
        "--generate",
        "10000x2",
        "--render",
        p(&dir.path().join("big.png")),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("too large for a PNG"), "{r:?}");
    assert_eq!(files_in(dir.path()), vec!["s.txt"]);
}

#[test]
fn option_mixups_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "s.txt", FRAME);
    let f = p(&lvl);
    assert_usage_error(&["--print"], "--print needs a FILE");
    assert_usage_error(&["--print", f, "--generate", "3x3"], "cannot be used with");
    assert_usage_error(&["--solve", f, "--print", f], "cannot be used with");
    assert_usage_error(
        &["--check", f, "--print"],
        "--print does not apply to --check",
    );
    assert_usage_error(&["--solve", f, "--show-domains"], "--show-domains");
    assert_usage_error(&["--print", f, "--color", "sometimes"], "sometimes");
    assert_usage_error(
        &["--solve", f, "--color", "always"],
        "--color applies to --print",
    );
    assert_usage_error(&["--generate", "3x3", "--trace", "-o", "-"], "--trace");
    assert_usage_error(
        &["--solve", f, "--trace", "-m", "line"],
        "does not apply with --trace",
    );
    assert_usage_error(
        &["--solve", f, "--trace", "--stats"],
        "does not apply with --trace",
    );
    assert_usage_error(&["--solve", f, "--size", "3x3"], "--size");
    assert_usage_error(&["--play", f, "--size", "3x3"], "--size");
    assert_usage_error(&["--play", "--size", "0x3"], "width");
    assert_usage_error(&["--play", "--check", f], "cannot be used");
    assert_usage_error(
        &["--play", "--method", "csp"],
        "--method does not apply to --play",
    );
    assert_usage_error(&["--generate", "3x3"], "-o");
}

#[test]
fn trace_tells_each_step_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let lvl = write(dir.path(), "s.txt", FRAME_SCRAMBLED);
    let out = dir.path().join("out.txt");
    let r = run(&["--solve", p(&lvl), "--trace", "-o", p(&out)]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "SOLVED: true\n"), "{r:?}");
    assert!(r.stderr.contains("narrow (0,0) {0,1,2,3} -> "), "{r:?}");
    assert!(
        r.stderr.contains(" decisions, 0 backtracks, 0 restarts, "),
        "{r:?}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), FRAME);
    // A level that needs search (without the witness): decisions and regions show up.
    let g = dir.path().join("g.txt");
    let made = run(&[
        "--generate",
        "12x8",
        "--seed",
        "1",
        "--nbcc",
        "1",
        "-o",
        p(&g),
    ]);
    assert_eq!(made.code, 0);
    let r = run(&["--solve", p(&g), "--trace", "--no-flow"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("region 1: "), "{}", r.stderr);
    assert!(r.stderr.contains("decide ("), "{}", r.stderr);
    let check = run(&["--check", p(&g)]);
    assert_eq!(check.code, 1, "the input itself is scrambled");
}

#[test]
fn trace_of_an_unsolvable_level_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    // Nine one-end pieces: propagation sees nothing wrong; the witness sees the odd number of
    // ends at once, the search without it must exhaust.
    let nine = write(
        dir.path(),
        "nine.txt",
        "3\n3\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n",
    );
    let out = dir.path().join("out.txt");
    let r = run(&["--solve", p(&nine), "--trace", "-o", p(&out)]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
    assert!(r.stderr.contains("conflict at depth 0"), "{}", r.stderr);
    assert!(!r.stderr.contains("decide ("), "{}", r.stderr);
    let r = run(&["--solve", p(&nine), "--trace", "--no-flow", "-o", p(&out)]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
    assert!(r.stderr.contains("conflict at depth 1"), "{}", r.stderr);
    assert!(r.stderr.contains("backtrack ("), "{}", r.stderr);
    assert!(!out.exists());
}

#[test]
fn trace_honours_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let nine = write(
        dir.path(),
        "nine.txt",
        "3\n3\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n",
    );
    let r = run(&[
        "--solve",
        p(&nine),
        "--trace",
        "--no-flow",
        "--timeout",
        "0.000000001",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "SOLVED: false\n");
}

#[test]
fn play_checks_its_input_before_wanting_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&["--play", p(&dir.path().join("missing.txt"))]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("missing.txt"), "{r:?}");
    let bad = write(dir.path(), "bad.txt", "1\n1\n9 9\n");
    let r = run(&["--gui", p(&bad)]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("bad.txt:3:"), "{r:?}");
    // Standard input and output are not a terminal here.
    let r = run(&["--play", "--seed", "1"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("needs a terminal"), "{r:?}");
    let r = run(&["--play", "-"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not `-`"), "{r:?}");
}

//! The rough edges a new user hit (issue "House in order"), each pinned: usage errors for
//! impossible option mixes and negative numbers, read-only outputs, two outputs on one path,
//! `--explain` pictures, `--bench` with a bad file, level error messages, escaped option values.

use std::path::Path;

use crate::common::cli::{BIN, p, run, tmpdir};

fn generate(path: &Path, size: &str, seed: &str) {
    let r = run(&["--generate", size, "--seed", seed, "-o", p(path)]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn unique_with_unsolvable_or_move_i_is_a_usage_error() {
    for extra in [["--unsolvable", "odd-parity"], ["--move-i", "1"]] {
        let dir = tmpdir();
        let out = dir.path().join("l.txt");
        let mut args = vec![
            "--generate",
            "6x6",
            "--seed",
            "1",
            "--unique",
            "-o",
            p(&out),
        ];
        args.extend(extra);
        let r = run(&args);
        assert_eq!(r.code, 2, "{extra:?}: {r:?}");
        assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
        assert!(!out.exists());
    }
}

#[test]
fn negative_numbers_get_a_range_message() {
    for (args, says) in [
        (
            ["--generate", "4x4", "--density", "-0.1"],
            "probability between 0 and 1",
        ),
        (
            ["--generate", "4x4", "--seed", "-5"],
            "whole number from 0 to",
        ),
        (
            ["--generate", "4x4", "--nbcc", "-2"],
            "whole number, 0 or more",
        ),
        (
            ["--solve", "x.txt", "--timeout", "-1"],
            "positive number of seconds",
        ),
        (
            ["--solve", "x.txt", "--threads", "-1"],
            "-1 is not in 1..=1024",
        ),
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("unexpected argument"), "{}", r.stderr);
    }
}

#[test]
fn help_and_the_missing_mode_name_every_mode_an_option_goes_with() {
    let help = run(&["--help"])
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains("With --solve, --count or --unique-check, print statistics"),
        "{help}"
    );
    assert!(
        help.contains("--solve, --count and --unique-check exit 3"),
        "{help}"
    );
    let r = run(&["-m", "csp"]);
    assert_eq!(r.code, 2, "{r:?}");
    for mode in ["--to-cnf", "--from-model", "--unique-check"] {
        assert!(r.stderr.contains(mode), "{}", r.stderr);
    }
}

#[test]
fn an_escape_sequence_in_an_option_value_is_shown_escaped() {
    let r = run(&["--generate", "4x4", "--family", "\x1b[31mred"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
    assert!(r.stderr.contains("\\u{1b}[31mred"), "{}", r.stderr);
}

/// Whether the tests run as root, who may write any file.
fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

#[test]
fn a_read_only_file_is_not_replaced_through_its_folder() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tmpdir();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let level = dir.path().join("level.txt");
    generate(&level, "4x4", "1");
    std::fs::set_permissions(&level, std::fs::Permissions::from_mode(0o644)).unwrap();
    let locked = dir.path().join("locked.txt");
    std::fs::write(&locked, "old").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    // As an ordinary user (root gives the run away to `nobody`): the folder takes new files,
    // the file itself may not be written, so the save must fail as `cp` would.
    let mut cmd = if is_root() {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN]);
        c
    } else {
        std::process::Command::new(BIN)
    };
    let out = cmd
        .args(["--solve", p(&level), "-o", p(&locked)])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("Permission denied"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&locked).unwrap(), "old");
    if is_root() {
        // Root may write it, as `cp` may; the file keeps its owner and mode.
        std::os::unix::fs::chown(&locked, Some(65534), Some(65534)).unwrap();
        let r = run(&["--solve", p(&level), "-o", p(&locked)]);
        assert_eq!(r.code, 0, "{r:?}");
        let m = std::fs::metadata(&locked).unwrap();
        assert_eq!((m.uid(), m.gid(), m.mode() & 0o777), (65534, 65534, 0o444));
    }
}

#[test]
fn the_level_and_its_picture_may_not_share_a_path() {
    let dir = tmpdir();
    let level = dir.path().join("level.txt");
    generate(&level, "4x4", "1");
    let same = dir.path().join("x.svg");
    let also = dir.path().join(".").join("x.svg");
    for args in [
        vec!["--solve", p(&level), "-o", p(&same), "--render", p(&also)],
        vec!["--generate", "4x4", "-o", p(&same), "--render", p(&same)],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains("two outputs"), "{}", r.stderr);
        assert!(!same.exists());
    }
}

#[test]
fn explain_with_a_picture_says_the_picture_was_written() {
    let dir = tmpdir();
    let bad = dir.path().join("bad.txt");
    // Two one-end pieces facing away from each other cannot meet: one `Q` alone is odd.
    std::fs::write(&bad, "1\n3\n1 1\n0 0\n1 0\n").unwrap();
    let svg = dir.path().join("why.svg");
    let r = run(&["--solve", p(&bad), "--render", p(&svg), "--explain"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stderr.contains("nothing written"), "{}", r.stderr);
    assert!(r.stderr.contains("the picture shows why"), "{}", r.stderr);
    assert!(svg.exists());
}

#[test]
fn bench_gives_a_bad_file_a_full_row_and_a_csv_line() {
    let dir = tmpdir();
    generate(&dir.path().join("a.txt"), "5x5", "1");
    std::fs::write(dir.path().join("b.txt"), "2\n2\n0 0\n").unwrap();
    let out = tmpdir();
    let csv = out.path().join("t.csv");
    let r = run(&["--bench", p(dir.path()), "--timeout", "5", "--csv", p(&csv)]);
    assert_eq!(r.code, 2, "{r:?}");
    let rows: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(rows.len(), 4, "{}", r.stdout);
    let cells = |l: &str| l.matches('|').count();
    assert_eq!(cells(rows[3]), cells(rows[0]), "{}", r.stdout);
    assert_eq!(rows[3].len(), rows[0].len(), "{}", r.stdout);
    assert!(r.stderr.contains("2 files, "), "{}", r.stderr);
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[2].starts_with("b.txt,,,not a level,"), "{text}");
    assert_eq!(lines[2].matches(',').count(), lines[0].matches(',').count());

    std::fs::remove_file(dir.path().join("b.txt")).unwrap();
    let r = run(&["--bench", p(dir.path()), "--timeout", "5"]);
    assert!(r.stderr.contains("1 file, "), "{}", r.stderr);
}

#[test]
fn a_picture_too_large_for_png_is_named_without_a_wrong_article() {
    let dir = tmpdir();
    let level = dir.path().join("wide.txt");
    let r = run(&["--generate", "8193x2", "--seed", "1", "-o", p(&level)]);
    assert_eq!(r.code, 0, "{r:?}");
    let png = dir.path().join("wide.png");
    let r = run(&["--print", p(&level), "--render", p(&png)]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("the level is 8193x2 cells, too large"),
        "{}",
        r.stderr
    );
}

/// Running out of memory is a clear error with exit code 2, not the standard library's abort
/// (exit 134, "memory allocation of N bytes failed"). A 20000x20000 hexagonal board asks for
/// its link table in one block of gigabytes, far over the 500 MB limit set here.
#[cfg(target_os = "linux")]
#[test]
fn running_out_of_memory_is_a_clear_error() {
    let dir = tmpdir();
    let out = dir.path().join("big.txt");
    let script = format!(
        "ulimit -v 500000 && exec {BIN} --generate 20000x20000 --grid hexagonal -o {}",
        p(&out)
    );
    let r = crate::common::cli::finish(
        std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .unwrap(),
        "generate under a memory limit",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("error: out of memory"), "{}", r.stderr);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
    assert!(!out.exists());
}

//! End-to-end checks of the parallel front and back end: `-t 1` and `-t 4` give the same
//! bytes (parallel parse, striped first pass, parallel verify and formatting), and inputs far
//! larger than their header are not read to the end.

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_phineloops");

fn run(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("failed to start phineloops");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (
        out.status.code().expect("killed by a signal"),
        out.stdout,
        stderr,
    )
}

#[test]
fn one_thread_and_four_threads_write_the_same_solution() {
    let dir = tempfile::tempdir().unwrap();
    // 300 rows: several stripes of the first pass and several verifier bands.
    let levels: &[&[&str]] = &[
        &["--family", "random"],
        &["--family", "loops"],
        &["--family", "mixed"],
        &["--maze", "backtracker"],
        &["--maze", "kruskal", "--braid", "0.3"],
    ];
    for (i, extra) in levels.iter().enumerate() {
        let level = dir.path().join(format!("l{i}.txt"));
        let level = level.to_str().unwrap();
        let mut args = vec!["--generate", "260x300", "--seed", "5", "-o", level];
        args.extend_from_slice(extra);
        assert_eq!(run(&args).0, 0, "{extra:?}");
        let mut outputs = Vec::new();
        for t in ["1", "4"] {
            let out = dir.path().join(format!("l{i}-t{t}.txt"));
            let out = out.to_str().unwrap();
            let (code, stdout, stderr) = run(&["--solve", level, "-m", "csp", "-t", t, "-o", out]);
            assert_eq!(code, 0, "{extra:?} -t {t}: {stderr}");
            assert!(String::from_utf8_lossy(&stdout).contains("SOLVED: true"));
            assert_eq!(run(&["--check", out]).0, 0, "{extra:?} -t {t}");
            outputs.push(std::fs::read(out).unwrap());
        }
        assert!(outputs[0] == outputs[1], "{extra:?}: -t 1 and -t 4 differ");
    }
}

#[cfg(unix)]
#[test]
fn endless_inputs_fail_without_being_read_to_the_end() {
    let (code, stdout, stderr) = run(&["--check", "/dev/zero"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("/dev/zero:1:") && stderr.contains("longer than"),
        "{stderr}"
    );
}

#[test]
fn a_huge_dimension_is_too_large() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    std::fs::write(&path, "123456789012345678901234567890\n2\n").unwrap();
    let (code, _, stderr) = run(&["--check", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(":1:") && stderr.contains("too large"),
        "{stderr}"
    );
}

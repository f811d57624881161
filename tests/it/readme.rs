//! What README.md shows a user is what the program does: its install lines work on a fresh
//! account, and its `--trace` transcript is the program's output.

use std::process::Command;

use crate::common::cli::{BIN, p, run, tmpdir};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The lines of the first ```sh block under `## Install`.
fn install_lines() -> Vec<String> {
    let text = readme();
    let install = &text[text.find("## Install").expect("an Install section")..];
    let block = &install[install.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    block.lines().map(str::to_string).collect()
}

#[test]
fn the_completion_install_lines_work_in_a_fresh_home() {
    let home = tmpdir();
    let bin = home.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(BIN, bin.join("phineloops")).unwrap();
    let path = format!("{}:{}", p(&bin), std::env::var("PATH").unwrap_or_default());
    let lines: Vec<String> = install_lines()
        .into_iter()
        .filter(|l| l.starts_with("mkdir") || l.contains("--completions"))
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    for line in &lines {
        // Pasted into bash, as a user would.
        let out = Command::new("bash")
            .args(["-c", line])
            .env("HOME", home.path())
            .env("PATH", &path)
            .current_dir(home.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for file in [
        ".local/share/bash-completion/completions/phineloops",
        ".zfunc/_phineloops",
        ".config/fish/completions/phineloops.fish",
    ] {
        let len = std::fs::metadata(home.path().join(file)).map_or(0, |m| m.len());
        assert!(len > 100, "{file}: {len} bytes");
    }
}

#[test]
fn the_trace_transcript_is_what_the_program_prints() {
    let text = readme();
    let start = text
        .find("$ phineloops --solve nine.txt --trace --no-flow\n")
        .unwrap();
    let block = &text[start..];
    let block = &block[..block.find("```").unwrap()];
    // The shown lines without their `<-` notes, in order; `...` stands for lines left out.
    let shown: Vec<&str> = block
        .lines()
        .skip(1)
        .map(|l| l.split("<-").next().unwrap().trim_end())
        .filter(|l| *l != "...")
        .collect();
    let dir = tmpdir();
    let nine = dir.path().join("nine.txt");
    std::fs::write(&nine, format!("3\n3\n{}", "1 0\n".repeat(9))).unwrap();
    let r = run(&["--solve", p(&nine), "--trace", "--no-flow"]);
    assert_eq!(r.code, 1, "{r:?}");
    // The verdict is on stdout, the story on stderr: each in the README's order.
    let mut story = r.stderr.lines();
    for want in &shown {
        if want.starts_with("SOLVED:") {
            assert_eq!(r.stdout.trim_end(), *want);
        } else {
            assert!(
                story.any(|l| l == *want),
                "README line `{want}` not printed in this order:\n{}",
                r.stderr
            );
        }
    }
    // The transcript ends where the program does.
    assert_eq!(r.stderr.lines().last(), shown.last().copied());
}

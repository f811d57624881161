//! End-to-end tests of the CLI's behaviour under faults: special output files (FIFO, symlink,
//! device nodes), signals mid-solve and mid-write, closed and full stdout, bad output folders,
//! and the small rough edges (escaped control characters, `--csv -`, a bad file in `--bench`,
//! completions, the man page).

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use common::cli::{BIN, Run, finish, p, run, tmpdir};

fn spawn(args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("failed to start phineloops")
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn temp_files(dir: &Path) -> Vec<String> {
    entries(dir)
        .into_iter()
        .filter(|n| n.ends_with(".tmp") || n.starts_with(".phineloops"))
        .collect()
}

fn generate_to(path: &Path, size: &str, family: &str, seed: u64) {
    let seed = seed.to_string();
    let r = run(&[
        "--generate",
        size,
        "--family",
        family,
        "--seed",
        &seed,
        "-o",
        p(path),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
}

fn checks_solved(path: &Path) -> bool {
    run(&["--check", p(path)]).code == 0
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn tool(name: &str, args: &[&str]) {
    let ok = Command::new(name)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
    assert!(ok.success(), "{name} {args:?} failed");
}

fn signal(child: &Child, sig: &str) {
    tool("kill", &[&format!("-{sig}"), &child.id().to_string()]);
}

/// Waits for `child`, failing the test if it takes longer than `limit`.
fn wait_within(mut child: Child, limit: Duration, what: &str) -> Run {
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > limit {
            let _ = child.kill();
            panic!("{what} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    finish(child.wait_with_output().unwrap(), what)
}

/// A run with `PHINELOOPS_ANNOUNCE_SIGNALS` set: its stderr is read line by line on a thread,
/// so the test can send a signal on the line that says the handler (or the cooperative phase)
/// is in place instead of sleeping and hoping.
struct Announcing {
    child: Child,
    lines: mpsc::Receiver<String>,
    stderr: std::thread::JoinHandle<String>,
}

fn spawn_announcing(args: &[&str]) -> Announcing {
    let mut child = Command::new(BIN)
        .args(args)
        .env("PHINELOOPS_ANNOUNCE_SIGNALS", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("failed to start phineloops");
    let err = child.stderr.take().unwrap();
    let (tx, lines) = mpsc::channel();
    let stderr = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(err).lines() {
            let Ok(line) = line else { break };
            if !line.starts_with("phineloops: ") {
                all.push_str(&line);
                all.push('\n');
            }
            let _ = tx.send(line);
        }
        all
    });
    Announcing {
        child,
        lines,
        stderr,
    }
}

impl Announcing {
    /// Waits for the announcement `phineloops: {what}`; false when the run ended first.
    fn announced(&self, what: &str) -> bool {
        let want = format!("phineloops: {what}");
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(120)) {
            if line == want {
                return true;
            }
        }
        false
    }

    /// Like [`wait_within`], with the stderr read by the thread (announcements left out).
    fn wait_within(self, limit: Duration, what: &str) -> Run {
        let mut r = wait_within(self.child, limit, what);
        r.stderr = self.stderr.join().unwrap();
        assert!(
            !r.stderr.contains("panicked"),
            "{what} panicked:\n{}",
            r.stderr
        );
        r
    }
}

/// A dominoes level of `n`x`n` cells in a folder of its own under cargo's temp folder for
/// tests (made once per run, so nothing is left in /tmp): at 512 its solve takes seconds in a
/// debug build.
fn dominoes_level(n: usize) -> &'static Path {
    static LEVELS: Mutex<Vec<(usize, &'static Path)>> = Mutex::new(Vec::new());
    let mut made = LEVELS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, path)) = made.iter().find(|(size, _)| *size == n) {
        return path;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_hardening/dominoes{n}"));
    std::fs::create_dir_all(&dir).unwrap();
    let path: &'static Path = Box::leak(dir.join(format!("dominoes{n}.txt")).into_boxed_path());
    generate_to(path, &format!("{n}x{n}"), "dominoes", 7);
    made.push((n, path));
    path
}

fn big_level() -> &'static Path {
    dominoes_level(512)
}

/// Runs `make_args(level)` on ever larger dominoes levels, sending `sig` as soon as the run
/// says its cooperative phase (solve, count, bench) has begun, until a run is stopped by it
/// rather than finished first (a faster solver must not turn the test into one whose signal
/// comes too late); returns how that run ended.
fn signal_while_busy(make_args: impl Fn(&Path) -> Vec<String>, sig: &str) -> Run {
    for n in [512, 1024, 2048, 4096] {
        let args = make_args(dominoes_level(n));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let forget_outputs = || {
            // Too easy: what that run wrote must not count as left behind by the next one.
            for pair in args.windows(2) {
                if matches!(pair[0], "-o" | "--csv") && pair[1] != "-" {
                    let _ = std::fs::remove_file(pair[1]);
                }
            }
        };
        let mut run = spawn_announcing(&args);
        let what = format!("{args:?} after SIG{sig}");
        if !run.announced("cooperative") || run.child.try_wait().unwrap().is_some() {
            run.wait_within(Duration::from_secs(30), &what);
            forget_outputs();
            continue;
        }
        signal(&run.child, sig);
        let r = run.wait_within(Duration::from_secs(30), &what);
        if r.code == 0 {
            // The work ended between the announcement and the signal (a complete answer,
            // rightly kept): the signal came too late to test anything, so try a bigger level.
            forget_outputs();
            continue;
        }
        return r;
    }
    panic!(
        "every run ended before the signal took effect: the levels are too easy for this test now"
    );
}

// ---- 1. output files ----

#[test]
fn output_into_a_fifo_reaches_its_reader_and_the_fifo_stays() {
    let dir = tmpdir();
    let fifo = dir.path().join("pipe");
    tool("mkfifo", &[p(&fifo)]);
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read(reader_path).unwrap());
    let r = run(&["--generate", "6x5", "--seed", "3", "-o", p(&fifo)]);
    assert_eq!(r.code, 0, "{r:?}");
    let got = reader.join().unwrap();
    assert!(
        got.starts_with(b"5\n6\n"),
        "{:?}",
        String::from_utf8_lossy(&got)
    );
    assert_eq!(got.iter().filter(|&&b| b == b'\n').count(), 2 + 30);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(entries(dir.path()), ["pipe"]);
}

#[test]
fn output_through_a_symlink_keeps_the_link_and_fills_its_target() {
    let dir = tmpdir();
    let elsewhere = dir.path().join("real");
    std::fs::create_dir(&elsewhere).unwrap();
    let target = elsewhere.join("level.txt");
    std::fs::write(&target, "old").unwrap();
    // A relative link, as `ln -s real/level.txt link.txt` makes.
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("real/level.txt", &link).unwrap();
    let r = run(&["--generate", "4x4", "--seed", "1", "-o", p(&link)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("real/level.txt")
    );
    assert!(std::fs::read(&target).unwrap().starts_with(b"4\n4\n"));
    // The temp file went beside the target, and is gone.
    assert_eq!(entries(dir.path()), ["link.txt", "real"]);
    assert_eq!(entries(&elsewhere), ["level.txt"]);

    // A dangling link creates its target.
    let dangling = dir.path().join("new.txt");
    std::os::unix::fs::symlink(elsewhere.join("fresh.txt"), &dangling).unwrap();
    let r = run(&["--solve", p(&target), "-o", p(&dangling)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(checks_solved(&elsewhere.join("fresh.txt")));
}

#[test]
fn an_existing_folder_as_output_is_an_error() {
    let dir = tmpdir();
    let r = run(&["--generate", "4x4", "--seed", "1", "-o", p(dir.path())]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("is a folder"), "{}", r.stderr);
}

#[test]
fn device_nodes_are_written_through_not_replaced() {
    if !is_root() {
        eprintln!("skipped: mknod needs root");
        return;
    }
    use std::os::unix::fs::FileTypeExt;
    let dir = tmpdir();
    // Private copies of /dev/null (1,3) and /dev/full (1,7): the system's are never touched.
    let null = dir.path().join("null");
    let full = dir.path().join("full");
    tool("mknod", &[p(&null), "c", "1", "3"]);
    tool("mknod", &[p(&full), "c", "1", "7"]);
    let r = run(&["--generate", "8x8", "--seed", "2", "-o", p(&null)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        std::fs::metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert_eq!(entries(dir.path()), ["full", "null"]);

    // A full device: an error naming the problem, exit 2, and the node survives.
    let r = run(&["--generate", "8x8", "--seed", "2", "-o", p(&full)]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("No space left"), "{}", r.stderr);
    assert!(
        std::fs::metadata(&full)
            .unwrap()
            .file_type()
            .is_char_device()
    );

    // stdout on a full device: the verdict cannot be written, exit 2, no panic.
    let level = dir.path().join("l.txt");
    generate_to(&level, "4x4", "random", 1);
    for args in [
        vec!["--check", p(&level)],
        vec!["--solve", p(&level), "--json"],
        vec!["--count", p(&level)],
        vec!["--print", p(&level)],
        vec!["--help"],
        vec!["--completions", "bash"],
    ] {
        let out = Command::new(BIN)
            .args(&args)
            .stdout(std::fs::OpenOptions::new().write(true).open(&full).unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let what = format!("phineloops {args:?} > full");
        let r = finish(out, &what);
        assert_eq!(r.code, 2, "{what}: {r:?}");
        assert!(r.stderr.contains("No space left"), "{what}: {}", r.stderr);
    }
    let r = run(&["--solve", p(&level), "-o", p(&null)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        std::fs::metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

#[test]
fn dev_stdout_is_standard_output() {
    let dir = tmpdir();
    let level = dir.path().join("l.txt");
    generate_to(&level, "5x3", "random", 4);
    let r = run(&["--solve", p(&level), "-o", "/dev/stdout"]);
    assert_eq!(r.code, 0, "{r:?}");
    // The level owns stdout, as with `-o -`; the verdict moves to stderr.
    assert!(r.stdout.starts_with("3\n5\n"), "{}", r.stdout);
    assert!(r.stderr.contains("SOLVED: true"));
}

// ---- 2. signals ----

#[test]
fn sigint_and_sigterm_mid_solve_exit_3_and_leave_no_temp_file() {
    for sig in ["INT", "TERM"] {
        let dir = tmpdir();
        let out = dir.path().join("solution.txt");
        let r = signal_while_busy(
            |level| {
                vec![
                    "--solve".into(),
                    p(level).into(),
                    "-o".into(),
                    p(&out).into(),
                ]
            },
            sig,
        );
        assert_eq!(r.code, 3, "SIG{sig}: {r:?}");
        assert_eq!(r.stdout, "SOLVED: false\n", "SIG{sig}");
        assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    }
}

#[test]
fn a_signal_stops_count_bench_and_generate_with_exit_3() {
    let r = signal_while_busy(|level| vec!["--count".into(), p(level).into()], "INT");
    assert_eq!(r.code, 3, "{r:?}");
    assert!(!r.stdout.contains("SOLUTIONS"));

    let dir = tmpdir();
    let csv = dir.path().join("table.csv");
    let r = signal_while_busy(
        |level| {
            let folder = level.parent().unwrap();
            vec![
                "--bench".into(),
                p(folder).into(),
                "--csv".into(),
                p(&csv).into(),
            ]
        },
        "TERM",
    );
    assert_eq!(r.code, 3, "{r:?}");
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));

    let out = dir.path().join("g.txt");
    let run = spawn_announcing(&[
        "--generate",
        "4096x4096",
        "--family",
        "dominoes",
        "-o",
        p(&out),
    ]);
    // Generating 16 M cells takes far longer than a signal takes to arrive.
    assert!(run.announced("signals handled"));
    signal(&run.child, "INT");
    let r = run.wait_within(Duration::from_secs(10), "generate after SIGINT");
    assert_eq!(r.code, 3, "{r:?}");
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

#[test]
fn a_signal_mid_write_removes_the_temp_file() {
    // The temp file lives only while the level is written: watch for it, then signal. The
    // write may still win the race (exit 0, complete file), so a few tries must see a cut.
    let mut cut = 0;
    for (i, sig) in ["INT", "TERM", "INT", "TERM", "INT", "TERM"]
        .iter()
        .enumerate()
    {
        let dir = tmpdir();
        let out = dir.path().join("level.txt");
        let seed = i.to_string();
        let args = [
            "--generate",
            "2048x2048",
            "--family",
            "dominoes",
            "--seed",
            &seed,
            "-o",
            p(&out),
        ];
        let child = spawn(&args);
        let t = Instant::now();
        // The level's own temp file, not the writability probe made at the start.
        let writing = || {
            temp_files(dir.path())
                .iter()
                .any(|n| n.starts_with(".level.txt."))
        };
        while !writing() && t.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_micros(200));
        }
        assert!(writing(), "no temp file was ever seen");
        signal(&child, sig);
        let r = wait_within(child, Duration::from_secs(20), "generate after a signal");
        assert!(
            temp_files(dir.path()).is_empty(),
            "{:?}",
            entries(dir.path())
        );
        match r.code {
            3 => {
                cut += 1;
                assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
                assert!(r.stderr.contains("nothing written"), "{}", r.stderr);
            }
            0 => assert_eq!(std::fs::metadata(&out).unwrap().len(), 10 + 2048 * 2048 * 4),
            _ => panic!("SIG{sig}: {r:?}"),
        }
        if cut >= 2 {
            break;
        }
    }
    assert!(
        cut >= 1,
        "the signal never arrived while the level was being written"
    );
}

#[test]
fn a_signal_while_blocked_on_a_fifo_still_exits_3() {
    let dir = tmpdir();
    let fifo = dir.path().join("pipe");
    tool("mkfifo", &[p(&fifo)]);
    let child = spawn(&["--generate", "256x256", "--seed", "1", "-o", p(&fifo)]);
    // A reader that takes one byte and no more: the level (256 KiB) is more than the pipe
    // holds, so once that byte has come the write is under way and blocks on the full pipe.
    let mut reader = std::fs::File::open(&fifo).unwrap();
    reader.read_exact(&mut [0]).unwrap();
    signal(&child, "TERM");
    let r = wait_within(
        child,
        Duration::from_secs(15),
        "blocked write after SIGTERM",
    );
    assert_eq!(r.code, 3, "{r:?}");
    drop(reader);
    assert_eq!(entries(dir.path()), ["pipe"]);
}

#[test]
fn sigterm_during_play_restores_the_terminal() {
    // `script` gives the game a pseudo-terminal and records what it drew.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to make a pseudo-terminal");
        return;
    }
    let dir = tmpdir();
    let log = dir.path().join("typescript");
    let pidfile = dir.path().join("pid");
    let inner = format!("echo $$ > {}; exec {BIN} --play --seed 1", p(&pidfile));
    let mut session = Command::new("script")
        .args(["-q", "-e", "-f", "-c", &inner, p(&log)])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The game asks the terminal where the cursor is (ESC [6n); answer it as a terminal would,
    // until the game is gone.
    let mut keys = session.stdin.take().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let answering = std::thread::spawn({
        let stop = Arc::clone(&stop);
        move || {
            while !stop.load(Ordering::Relaxed) {
                let _ = keys.write_all(b"\x1b[1;1R").and_then(|()| keys.flush());
                std::thread::sleep(Duration::from_millis(50));
            }
            keys
        }
    });
    // `script -f` writes what the game draws as it comes: wait until the game has cleared its
    // screen (after the cursor answer: it is in its loop; the pseudo-terminal has no size, so
    // no grid is drawn), then signal.
    let t = Instant::now();
    let pid = loop {
        let drawn = std::fs::read(&log).unwrap_or_default();
        if let Ok(s) = std::fs::read_to_string(&pidfile)
            && !s.trim().is_empty()
            && String::from_utf8_lossy(&drawn).contains("\x1b[2J")
        {
            break s.trim().to_string();
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the game never cleared its screen"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    tool("kill", &["-TERM", &pid]);
    let t = Instant::now();
    let status = loop {
        if let Some(s) = session.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(15) {
            let _ = session.kill();
            panic!("the game did not end after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    stop.store(true, Ordering::Relaxed);
    drop(answering.join().unwrap());
    assert_eq!(
        status.code(),
        Some(3),
        "script -e passes on the game's exit code"
    );
    let mut drawn = Vec::new();
    std::fs::File::open(&log)
        .unwrap()
        .read_to_end(&mut drawn)
        .unwrap();
    let text = String::from_utf8_lossy(&drawn);
    let entered = text
        .rfind("\x1b[?1049h")
        .expect("the game entered the alternate screen");
    let left = text
        .rfind("\x1b[?1049l")
        .expect("the alternate screen was left");
    assert!(left > entered);
    assert!(text[left..].contains("\x1b[?25h") || text[entered..].contains("\x1b[?25h"));
}

// ---- 3. closed and full stdout ----

/// Runs `args`, reads `keep` bytes of stdout, closes it and waits.
fn run_closing_stdout(args: &[&str], keep: usize) -> Run {
    let mut child = spawn(args);
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0; keep];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    wait_within(child, Duration::from_secs(60), &format!("{args:?} | head"))
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // 512x512 drawn is far more than a pipe holds, so the write must meet the closed end.
    let level = big_level();
    let r = run_closing_stdout(&["--print", p(level)], 100);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty(), "{}", r.stderr);

    let r = run_closing_stdout(&["--generate", "512x512", "--seed", "1", "-o", "-"], 10);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("error"), "{}", r.stderr);

    // `--bench DIR | head -2`: the run stops at the closed pipe.
    let dir = tmpdir();
    for i in 0..3 {
        generate_to(&dir.path().join(format!("l{i}.txt")), "6x6", "random", i);
    }
    let r = run_closing_stdout(&["--bench", p(dir.path()), "--timeout", "5"], 20);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("error"), "{}", r.stderr);
}

// ---- 4. output paths checked before the work ----

#[test]
fn a_bad_output_folder_is_reported_before_any_work() {
    let level = big_level();
    let dir = tmpdir();
    let missing = dir.path().join("no/such/folder/out.txt");
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, "x").unwrap();
    let under_a_file = not_a_folder.join("out.txt");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--solve", p(level), "-o", p(&missing)],
        vec!["--solve", p(level), "-o", p(&under_a_file)],
        vec!["--solve", p(level), "--render", "/nonexistent-folder/x.svg"],
        vec!["--generate", "4096x4096", "-o", p(&missing)],
        vec!["--bench", p(level.parent().unwrap()), "--csv", p(&missing)],
    ];
    for args in cases {
        let t = Instant::now();
        let r = run(&args);
        // The work takes many seconds in a debug build; the refusal comes before it.
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{args:?} took {:?}",
            t.elapsed()
        );
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(
            r.stderr.contains("does not exist")
                || r.stderr.contains("not a folder")
                || r.stderr.contains("Not a directory"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty());
    }
}

// ---- 5. small items ----

#[test]
fn control_characters_in_names_and_contents_are_escaped() {
    let dir = tmpdir();
    let name = dir.path().join("bad\x1b[31m.txt");
    std::fs::write(&name, "2\n2\n0 0\n\x1b[2J 0\n0 0\n0 0\n").unwrap();
    let r = run(&["--check", p(&name)]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.stderr.contains('\x1b'), "{:?}", r.stderr);
    assert!(r.stderr.contains("bad\\u{1b}[31m.txt:4:"), "{}", r.stderr);
    assert!(r.stderr.contains("`\\u{1b}[2J`"), "{}", r.stderr);
}

#[test]
fn bench_marks_a_malformed_file_and_goes_on_and_csv_dash_is_stdout() {
    let dir = tmpdir();
    generate_to(&dir.path().join("a.txt"), "5x5", "random", 1);
    std::fs::write(dir.path().join("b.txt"), "2\n2\n0 0\n").unwrap();
    generate_to(&dir.path().join("c.txt"), "5x5", "random", 2);
    let r = run(&["--bench", p(dir.path()), "--timeout", "5"]);
    assert_eq!(r.code, 2, "{r:?}");
    let rows: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(rows.len(), 5, "{}", r.stdout);
    assert!(rows[2].starts_with("| a.txt") && rows[2].contains("5x5"));
    assert!(rows[3].starts_with("| b.txt") && rows[3].contains("not a level"));
    assert!(rows[4].starts_with("| c.txt") && rows[4].contains("5x5"));
    assert!(r.stderr.contains("b.txt:"), "{}", r.stderr);

    std::fs::remove_file(dir.path().join("b.txt")).unwrap();
    let r = run(&["--bench", p(dir.path()), "--timeout", "5", "--csv", "-"]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].starts_with("file,width,height,family,"),
        "{}",
        r.stdout
    );
    assert_eq!(lines.len(), 3);
    assert!(lines[1].starts_with("a.txt,5,5,"));
    // The table went to stderr, and no file named `-` was made.
    assert!(r.stderr.contains("| a.txt"), "{}", r.stderr);
    assert_eq!(entries(dir.path()), ["a.txt", "c.txt"]);
}

#[test]
fn play_output_to_stdout_is_a_usage_error() {
    let r = run(&["--play", "-o", "-"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--play -o takes a FILE"), "{}", r.stderr);
}

#[test]
fn help_lists_no_flow() {
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("--no-flow"), "{}", r.stdout);
}

// ---- 6. installed-CLI niceties ----

#[test]
fn completions_and_man_page_are_printed() {
    for (shell, needle) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef phineloops"),
        ("fish", "complete -c phineloops"),
    ] {
        let r = run(&["--completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {r:?}");
        assert!(r.stdout.contains(needle), "{shell}: {}", r.stdout);
        assert!(r.stdout.contains("--generate"), "{shell}");
    }
    let r = run(&["--completions", "tcsh"]);
    assert_eq!(r.code, 2);
    let r = run(&["--man"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(".TH phineloops 1"), "{}", r.stdout);
    assert!(r.stdout.contains("\\-\\-solve"), "{}", r.stdout);
    let r = run(&["--man", "--seed", "1"]);
    assert_eq!(r.code, 2);
}

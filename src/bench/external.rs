//! Other programs in the comparison: `--solver NAME='CMD {in} {out}'`. Each run is a whole
//! process started through `sh -c`, under the same time limit as our methods, in a folder of
//! its own so no earlier answer can be mistaken for this one's. Its answer is judged by our
//! checker, never by what it says about itself: a grid that is not a solution is `WRONG`, and a
//! "no solution" claim is only as good as every other column's failure to find one.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::RunResult;

/// Judges an answer file (its bytes and path): `Ok` for a solution of the level, else why
/// not.
pub type AnswerCheck<'a> = dyn Fn(&[u8], &Path) -> Result<(), String> + 'a;

/// An external solver: the column name and the shell command, with `{in}` and `{out}` where
/// the level's path and the answer's path go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    /// Column name in the table, CSV and plot.
    pub name: String,
    /// The command, `{in}` and `{out}` not yet replaced.
    pub command: String,
}

/// Names our own methods take, which an external solver may not reuse (the columns would be
/// ambiguous).
const RESERVED: &[&str] = &[
    "auto", "csp", "line", "snail", "cp", "learn", "file", "width", "height",
];

impl ExternalSolver {
    /// Reads `NAME=COMMAND`: NAME of letters, digits, `-`, `_` and `.`; COMMAND with both
    /// `{in}` and `{out}`.
    pub fn parse(spec: &str) -> Result<ExternalSolver, String> {
        let (name, command) = spec.split_once('=').ok_or_else(|| {
            format!("--solver takes NAME='COMMAND {{in}} {{out}}', got `{spec}` (no `=`)")
        })?;
        let name = name.trim();
        let name_ok = !name.is_empty()
            && name.len() <= 32
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !name_ok {
            return Err(format!(
                "--solver: the name `{name}` must be 1 to 32 letters, digits, `-`, `_` or `.`"
            ));
        }
        if RESERVED.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(format!(
                "--solver: `{name}` is the name of one of our own columns; choose another"
            ));
        }
        for needed in ["{in}", "{out}"] {
            if !command.contains(needed) {
                return Err(format!(
                    "--solver {name}: the command must contain `{needed}` (where the level's path and the answer's path go), got `{command}`"
                ));
            }
        }
        Ok(ExternalSolver {
            name: name.to_string(),
            command: command.to_string(),
        })
    }

    /// The command line for one run, the paths quoted for the shell.
    fn command_line(&self, input: &Path, output: &Path) -> String {
        self.command
            .replace("{in}", &shell_quote(&input.to_string_lossy()))
            .replace("{out}", &shell_quote(&output.to_string_lossy()))
    }

    /// Runs the solver on the level in `input` and judges its answer with `check` (the
    /// answer file's bytes and path: `Ok` for a solution of the level, else why not).
    /// `cancel` stops the run like the time limit does.
    pub fn run(
        &self,
        input: &Path,
        check: &AnswerCheck,
        timeout: Duration,
        cancel: &AtomicBool,
    ) -> RunResult {
        let dir = match RunDir::new() {
            Ok(d) => d,
            Err(e) => return RunResult::Failed(format!("cannot make a folder for the run: {e}")),
        };
        // The answer gets the level's extension: a solver may pick its output format by it.
        let ext = input
            .extension()
            .map_or("txt".into(), |e| e.to_string_lossy());
        let output = dir.path.join(format!("answer.{ext}"));
        let started = spawn(
            &self.command_line(input, &output),
            &dir.path.join("stdout"),
            &dir.path.join("stderr"),
        );
        let mut child = match started {
            Ok(c) => c,
            Err(e) => return RunResult::Failed(format!("cannot start `sh`: {e}")),
        };
        let t = Instant::now();
        let Some(status) = wait_until(&mut child, t + timeout, cancel) else {
            return RunResult::TimedOut;
        };
        let elapsed = t.elapsed();
        let stdout = std::fs::read_to_string(dir.path.join("stdout")).unwrap_or_default();
        let stderr = std::fs::read_to_string(dir.path.join("stderr")).unwrap_or_default();
        let answer = match std::fs::read(&output) {
            Ok(bytes) if !bytes.is_empty() => Some(check(&bytes, &output)),
            _ => None,
        };
        judge(Ran {
            answer,
            exit: status.code(),
            says_unsolved: stdout.lines().any(|l| l.trim() == "SOLVED: false"),
            stderr: &stderr,
            elapsed,
        })
    }
}

/// What one finished run left behind.
struct Ran<'a> {
    /// The checker's verdict on the answer file; `None` when none was written (or it is
    /// empty).
    answer: Option<Result<(), String>>,
    /// Exit code; `None` when a signal ended it.
    exit: Option<i32>,
    /// Whether stdout holds the line `SOLVED: false`.
    says_unsolved: bool,
    stderr: &'a str,
    elapsed: Duration,
}

/// A verified grid is a success whatever the exit code; otherwise the line `SOLVED: false` on
/// stdout is a "no solution" claim (the course's convention and ours; an exit code alone is
/// not, since a crashing JVM exits 1 too); a grid that is not a solution of this level is
/// wrong; anything else (a crash, no answer) failed.
fn judge(ran: Ran) -> RunResult {
    if let Some(Ok(())) = &ran.answer {
        return RunResult::Solved(ran.elapsed);
    }
    if ran.says_unsolved {
        return RunResult::NoSolution(ran.elapsed);
    }
    match ran.answer {
        Some(Ok(())) => RunResult::Solved(ran.elapsed),
        Some(Err(why)) => RunResult::Wrong(why),
        None => {
            let how = match ran.exit {
                Some(code) => format!("exit code {code}"),
                None => "killed by a signal".to_string(),
            };
            let last = ran.stderr.lines().last().unwrap_or("").trim();
            let said = if last.is_empty() {
                String::new()
            } else {
                format!(": {last}")
            };
            RunResult::Failed(format!("no answer written, {how}{said}"))
        }
    }
}

/// `sh -c line`, in a process group of its own so the whole tree can be stopped at the time
/// limit (a `java -jar` under the shell would otherwise outlive it).
fn spawn(line: &str, stdout: &Path, stderr: &Path) -> std::io::Result<Child> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(line)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(stdout)?)
        .stderr(std::fs::File::create(stderr)?);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    cmd.spawn()
}

/// Waits for the child until `deadline` or `cancel`; then kills its process group and gives
/// `None`. Polls with a growing pause of at most 1 ms, so a time is late by at most that.
fn wait_until(
    child: &mut Child,
    deadline: Instant,
    cancel: &AtomicBool,
) -> Option<std::process::ExitStatus> {
    let mut pause = Duration::from_micros(20);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) => {}
            Err(_) => break,
        }
        if Instant::now() >= deadline || cancel.load(Ordering::SeqCst) {
            break;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
    kill_group(child);
    None
}

fn kill_group(child: &mut Child) {
    #[cfg(all(unix, feature = "fast-io"))]
    {
        // SAFETY: killpg only sends a signal; the group id is the child's pid (process_group(0)).
        unsafe {
            libc::killpg(child.id() as libc::pid_t, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// `s` in single quotes for `sh`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A fresh folder under the system's temporary folder, removed when dropped.
struct RunDir {
    path: PathBuf,
}

impl RunDir {
    fn new() -> std::io::Result<RunDir> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("phineloops-bench-{}-{n}", std::process::id()));
        std::fs::create_dir(&path)?;
        Ok(RunDir { path })
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_needs_a_name_and_both_paths() {
        let s = ExternalSolver::parse("java=java -jar s.jar -s {in} -o {out}").unwrap();
        assert_eq!(s.name, "java");
        assert_eq!(s.command, "java -jar s.jar -s {in} -o {out}");
        for bad in [
            "no-equals {in} {out}",
            "=cmd {in} {out}",
            "a b=cmd {in} {out}",
            "csp=cmd {in} {out}",
            "x=cmd {in}",
            "x=cmd {out}",
        ] {
            assert!(ExternalSolver::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn paths_are_quoted_for_the_shell() {
        let s = ExternalSolver::parse("x=solve {in} > {out}").unwrap();
        let line = s.command_line(Path::new("it's here.txt"), Path::new("/tmp/o"));
        assert_eq!(line, r"solve 'it'\''s here.txt' > '/tmp/o'");
    }
}

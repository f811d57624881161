//! Ctrl-C, SIGTERM and SIGHUP (the `ctrlc` crate with its `termination` feature): the first
//! signal raises [`CANCEL`], which the solver, the counter, the bench loop and the file save
//! all watch, so each mode prints its "not finished" verdict and exits 3 with no temp file
//! left. Phases that cannot stop early (reading a level, generating one) end at once instead,
//! as does a second signal or a mode still running [`GRACE`] after the first: the temp files
//! in progress are removed (exit runs no destructors), the terminal of `--play` is restored
//! and the process exits 3.

use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::run::EXIT_CANCELLED;

/// Raised by the first signal.
pub static CANCEL: AtomicBool = AtomicBool::new(false);

/// Whether the current phase watches [`CANCEL`]; when not, a signal ends the process at once.
static COOPERATIVE: AtomicBool = AtomicBool::new(false);

/// How long a cooperative phase may take to stop before the process is ended anyway.
pub const GRACE: Duration = Duration::from_secs(3);

/// The verdict line a forced exit prints on stdout (e.g. `SOLVED: false`), if any.
static VERDICT: Mutex<Option<&'static str>> = Mutex::new(None);

/// When this variable is set, the moments a signal starts to be handled are announced on
/// stderr (`phineloops: signals handled`, then `phineloops: cooperative` when the first phase
/// that watches [`CANCEL`] begins), so that a test can send its signal on that event instead
/// of sleeping and hoping the work has begun.
pub const ANNOUNCE_ENV: &str = "PHINELOOPS_ANNOUNCE_SIGNALS";

fn announce(what: &str) {
    if std::env::var_os(ANNOUNCE_ENV).is_some() {
        raw_write(2, &format!("phineloops: {what}\n"));
    }
}

/// Installs the handler. Failing to install it only loses the clean exit, so it is ignored.
pub fn install() {
    if ctrlc::set_handler(on_signal).is_ok() {
        announce("signals handled");
    }
}

/// Marks whether the code now running watches [`CANCEL`].
pub fn cooperative(on: bool) {
    let was = COOPERATIVE.swap(on, Ordering::SeqCst);
    if on && !was {
        announce("cooperative");
    }
}

/// Sets the stdout line a forced exit prints (the mode's "not finished" verdict).
pub fn forced_verdict(line: Option<&'static str>) {
    *VERDICT.lock().unwrap_or_else(|e| e.into_inner()) = line;
}

/// Whether a signal has arrived.
pub fn cancelled() -> bool {
    CANCEL.load(Ordering::SeqCst)
}

fn on_signal() {
    let first = !CANCEL.swap(true, Ordering::SeqCst);
    if !first || !COOPERATIVE.load(Ordering::SeqCst) {
        force_exit();
    }
    std::thread::spawn(|| {
        std::thread::sleep(GRACE);
        force_exit();
    });
}

/// Writes to a raw descriptor: the main thread may hold the stdout or stderr lock (a trace,
/// a blocked write), and waiting for it would hang the exit.
fn raw_write(fd: i32, text: &str) {
    // SAFETY: fd 1 and 2 stay open for the life of the process; ManuallyDrop keeps them open.
    let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
    let _ = f.write_all(text.as_bytes());
}

/// Raised while `--solve` reads its level under a time limit (see [`watch_reading`]).
static READING: AtomicBool = AtomicBool::new(false);

/// The watch of [`watch_reading`]: dropping it (the level read) ends it.
pub struct ReadingWatch;

impl Drop for ReadingWatch {
    fn drop(&mut self) {
        READING.store(false, Ordering::SeqCst);
    }
}

/// Reading a level cannot stop early, and a 4096x4096 level takes seconds to read on a loaded
/// host: a time limit that passes while the level is still being read ends the process as a
/// timeout does (the verdict line, exit 3) instead of being noticed only by the solver.
pub fn watch_reading(timeout: Option<Duration>) -> ReadingWatch {
    if let Some(t) = timeout {
        READING.store(true, Ordering::SeqCst);
        std::thread::spawn(move || {
            std::thread::sleep(t);
            if READING.load(Ordering::SeqCst) {
                exit_now("timeout: the time limit passed while reading the level; nothing written");
            }
        });
    }
    ReadingWatch
}

/// Raised while a board's `--solve` searches under a time limit (see [`watch_solving`]).
static SOLVING: AtomicBool = AtomicBool::new(false);

/// The watch of [`watch_solving`]: dropping it (the search returned) ends it.
pub struct SolvingWatch;

impl Drop for SolvingWatch {
    fn drop(&mut self) {
        SOLVING.store(false, Ordering::SeqCst);
    }
}

/// A backstop under the solvers' own checks of the clock: a search still running `grace`
/// after the time limit (a set-up pass over millions of cells that does not look at the
/// clock) ends the process as a timeout does. Dropped before the answer is written, so it
/// never cuts a write short.
pub fn watch_solving(timeout: Option<Duration>, grace: Duration) -> SolvingWatch {
    if let Some(t) = timeout {
        SOLVING.store(true, Ordering::SeqCst);
        std::thread::spawn(move || {
            std::thread::sleep(t + grace);
            if SOLVING.load(Ordering::SeqCst) {
                exit_now("timed out before an answer; nothing written");
            }
        });
    }
    SolvingWatch
}

/// Ends the process now: temp files removed, terminal restored, verdict printed, exit 3.
fn force_exit() -> ! {
    exit_now("interrupted: stopped before the end; nothing written")
}

/// [`force_exit`] with `why` on stderr.
fn exit_now(why: &str) -> ! {
    crate::level::write::remove_pending_temp_files();
    crate::play::restore_terminal();
    if let Some(line) = *VERDICT.lock().unwrap_or_else(|e| e.into_inner()) {
        raw_write(1, &format!("{line}\n"));
    }
    raw_write(2, &format!("{why}\n"));
    std::process::exit(EXIT_CANCELLED);
}

//! Writer for the level format, and the file save used for every output: a regular file is
//! replaced atomically (temp file beside the target, then rename) so that a crash or Ctrl-C
//! never leaves a truncated level behind; anything else (a device, a FIFO, a terminal) is
//! written through, since renaming over it would destroy it. Symlinks are followed first, so
//! the link stays and its target gets the level.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::error::LevelError;
use crate::board::BoardLevel;
use crate::model::Game;

/// The level as the bytes of a file (formatted in parallel, see `super::format`).
pub fn level_bytes(game: &Game) -> Vec<u8> {
    super::format::level_bytes(game)
}

/// How a cancellable save ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    /// The file is complete and in place.
    Written,
    /// The cancel flag was raised before the file was complete: nothing was put in place and
    /// no temp file is left.
    Cancelled,
}

/// Temp files being written right now, so that a forced exit (a second Ctrl-C, or a write
/// stuck on a slow disk) can remove them: `std::process::exit` runs no destructors.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temp files of saves in progress and keeps the registry locked for good, so
/// that no save can rename its (removed) temp file into place afterwards. Only for a process
/// about to exit.
pub fn remove_pending_temp_files() {
    let guard = pending();
    for p in guard.iter() {
        let _ = std::fs::remove_file(p);
    }
    std::mem::forget(guard);
}

/// Follows `path` while it is a symlink (relative targets are relative to the link's
/// folder), up to the kernel's 40 hops. Stops at `/proc` (its fd links are not real paths:
/// opening them reaches the open file).
pub fn resolve_links(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        if p.starts_with("/proc") {
            break;
        }
        let is_link = std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            break;
        }
        let Ok(target) = std::fs::read_link(&p) else {
            break;
        };
        p = match p.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    p
}

/// Where a save of `target` goes.
enum Target {
    /// A regular file or nothing yet: temp file in `dir`, renamed into place.
    Replace { dir: PathBuf },
    /// A device, FIFO, socket or `/proc` link: opened and written in place.
    Through,
}

fn classify(shown: &str, target: &Path) -> Result<Target, LevelError> {
    match std::fs::metadata(target) {
        Ok(m) if m.is_dir() => Err(LevelError::whole_file(shown, "is a folder, not a file")),
        Ok(m) if !m.is_file() || target.starts_with("/proc") => Ok(Target::Through),
        // The user may not write the file itself (mode 444, another owner's): replacing it
        // through the writable folder would bypass that, so refuse as `cp` would.
        Ok(_) => match std::fs::OpenOptions::new().write(true).open(target) {
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Err(
                LevelError::whole_file(shown, format!("cannot write the file: {e}")),
            ),
            _ => Ok(Target::Replace {
                dir: folder_of(target),
            }),
        },
        // Still a link after resolving: a loop, or one hop too many. Replacing it would
        // destroy the link.
        Err(e) if std::fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink()) => {
            Err(LevelError::whole_file(
                shown,
                format!("cannot follow the link: {e}"),
            ))
        }
        _ => Ok(Target::Replace {
            dir: folder_of(target),
        }),
    }
}

fn folder_of(target: &Path) -> PathBuf {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn folder_error(shown: &str, dir: &Path, e: std::io::Error) -> LevelError {
    let why = if e.kind() == std::io::ErrorKind::NotFound {
        format!("the folder {} does not exist", dir.display())
    } else if !dir.is_dir() && dir.exists() {
        format!("{} is not a folder", dir.display())
    } else {
        format!("cannot create a file in the folder {}: {e}", dir.display())
    };
    LevelError::whole_file(shown, why)
}

/// Checks, before any long work, that a later save of `path` can succeed as far as can be
/// told now: the target is not a folder and its folder exists and takes new files.
pub fn check_writable(path: &Path) -> Result<(), LevelError> {
    let shown = path.display().to_string();
    let target = resolve_links(path);
    match classify(&shown, &target)? {
        Target::Through => Ok(()),
        Target::Replace { dir } => {
            // Held while the probe file lives, so a forced exit (which removes the pending
            // temp files under this lock) never leaves it behind.
            let _registry = pending();
            TempFile::create(&dir, ".phineloops-check.")
                .map(drop)
                .map_err(|e| folder_error(&shown, &dir, e))
        }
    }
}

/// What a save writes.
#[derive(Clone, Copy)]
pub enum Content<'a> {
    /// Bytes at hand.
    Bytes(&'a [u8]),
    /// A level, formatted a window at a time while it is written: a gigabyte-sized solution
    /// never sits in memory as text.
    Level(&'a Game),
    /// A level on any board in the board format, formatted a window at a time likewise.
    Board(&'a BoardLevel),
    /// Text made while it is written (`--to-cnf`'s formula): the writer gets the output and
    /// the cancel flag, and returns `Ok(false)` when it stopped for the flag.
    Stream(&'a (dyn Fn(&mut dyn Write, &AtomicBool) -> std::io::Result<bool> + Sync)),
}

/// Writes `content` to `out`, checking `cancel` between slices; `written(out, offset, len)`
/// follows each write. `Ok(false)` when cancelled.
fn write_checked<W: Write + Send>(
    out: &mut W,
    content: Content<'_>,
    cancel: &AtomicBool,
    mut written: impl FnMut(&mut W, u64, usize) + Send,
) -> std::io::Result<bool> {
    let bytes = match content {
        Content::Level(game) => return super::format::write_level(out, game, cancel, written),
        Content::Board(level) => {
            return super::board_format::write_board_level(out, level, cancel, written);
        }
        Content::Stream(make) => return make(out, cancel),
        Content::Bytes(bytes) => bytes,
    };
    // 1 MiB: a cancelled save stops within milliseconds, yet the check costs nothing.
    for (k, chunk) in bytes.chunks(1 << 20).enumerate() {
        if cancel.load(Ordering::Relaxed) {
            return Ok(false);
        }
        out.write_all(chunk)?;
        written(out, (k << 20) as u64, chunk.len());
    }
    Ok(!cancel.load(Ordering::Relaxed))
}

/// Asks the kernel to start writing `len` bytes at `offset` of `file` to the disk now, without
/// waiting: the disk then works while the rest is formatted and written, and the `sync_all`
/// before the rename waits only for the tail (at 16384x16384, a gigabyte, this halves the
/// save). Only a hint: where it is not available the final sync does all the work.
fn start_writeback(file: &mut std::fs::File, offset: u64, len: usize) {
    #[cfg(all(target_os = "linux", feature = "fast-io"))]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: a plain system call on an open descriptor; it reads no memory of ours.
        unsafe {
            libc::sync_file_range(
                file.as_raw_fd(),
                offset as libc::off64_t,
                len as libc::off64_t,
                libc::SYNC_FILE_RANGE_WRITE,
            );
        }
    }
    #[cfg(not(all(target_os = "linux", feature = "fast-io")))]
    let _ = (file, offset, len);
}

/// Saves `bytes` at `path` (see the module comment), giving up cleanly when `cancel` is
/// raised. A new file gets the permissions a plain create would give (0666 less the umask);
/// a replaced one keeps its own: temp files are made 0600, which would otherwise leave every
/// saved level private.
pub fn save_cancellable(
    path: &Path,
    bytes: &[u8],
    cancel: &AtomicBool,
) -> Result<Saved, LevelError> {
    save_content_cancellable(path, Content::Bytes(bytes), cancel)
}

/// [`save_cancellable`] of any [`Content`]: a level is formatted while it is written.
pub fn save_content_cancellable(
    path: &Path,
    content: Content<'_>,
    cancel: &AtomicBool,
) -> Result<Saved, LevelError> {
    let shown = path.display().to_string();
    let fail = |what: &str, e: std::io::Error| {
        LevelError::whole_file(&shown, format!("cannot {what}: {e}"))
    };
    let target = resolve_links(path);
    let dir = match classify(&shown, &target)? {
        Target::Replace { dir } => dir,
        Target::Through => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(&target)
                .map_err(|e| fail("open", e))?;
            let done = write_checked(&mut f, content, cancel, |_, _, _| {})
                .map_err(|e| fail("write", e))?;
            return Ok(if done {
                Saved::Written
            } else {
                Saved::Cancelled
            });
        }
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut tmp = {
        let mut list = pending();
        let tmp = TempFile::create(&dir, &prefix).map_err(|e| folder_error(&shown, &dir, e))?;
        list.push(tmp.path.clone());
        tmp
    };
    let tmp_path = tmp.path.clone();
    let forget = |list: &mut Vec<PathBuf>| list.retain(|p| *p != tmp_path);
    let result = (|| {
        if let Ok(old) = std::fs::metadata(&target) {
            tmp.file
                .set_permissions(old.permissions())
                .map_err(|e| fail("copy the permissions of the file it replaces", e))?;
            // Keep the owner too, as writing into the file would; only root may give a file
            // away, so for others this fails harmlessly when the owner is someone else.
            use std::os::unix::fs::MetadataExt;
            let _ = std::os::unix::fs::fchown(&tmp.file, Some(old.uid()), Some(old.gid()));
        }
        let done = write_checked(&mut tmp.file, content, cancel, start_writeback)
            .map_err(|e| fail("write", e))?;
        if !done {
            return Ok(false);
        }
        // The rename alone makes the save atomic for the processes of a running system; the
        // sync makes it durable: after a power cut the name holds the old level or the whole
        // new one, never an empty or partial file (see README, "Output files").
        tmp.file.sync_all().map_err(|e| fail("sync", e))?;
        Ok(true)
    })();
    let mut list = pending();
    match result {
        Ok(true) if !cancel.load(Ordering::Relaxed) => {
            let placed = tmp.persist(&target);
            forget(&mut list);
            placed.map_err(|e| fail("rename the temporary file into place", e))?;
            Ok(Saved::Written)
        }
        other => {
            // Dropping the temp file removes it.
            drop(tmp);
            forget(&mut list);
            other.map(|_| Saved::Cancelled)
        }
    }
}

/// A new file `PREFIX<random>.tmp` in a folder, removed on drop unless persisted. Made here
/// rather than with the `tempfile` crate, which would add seven crates to the engine alone.
struct TempFile {
    file: std::fs::File,
    path: PathBuf,
    placed: bool,
}

impl TempFile {
    /// Creates the file with the mode a plain create would give (0666 less the umask); a name
    /// already taken is retried with another random suffix.
    fn create(dir: &Path, prefix: &str) -> std::io::Result<TempFile> {
        let mut rng = fastrand::Rng::new();
        let mut last = None;
        for _ in 0..64 {
            let name = format!("{prefix}{:012x}.tmp", rng.u64(..) & 0xffff_ffff_ffff);
            let path = dir.join(name);
            let mut open = std::fs::OpenOptions::new();
            open.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                open.mode(0o666);
            }
            match open.open(&path) {
                Ok(file) => {
                    return Ok(TempFile {
                        file,
                        path,
                        placed: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary file name")))
    }

    /// Renames the file over `target`.
    fn persist(mut self, target: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.path, target)?;
        self.placed = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.placed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Saves `bytes` at `path` (see [`save_cancellable`]), never cancelled.
pub fn save_atomic(path: &Path, bytes: &[u8]) -> Result<(), LevelError> {
    save_cancellable(path, bytes, &AtomicBool::new(false)).map(drop)
}

/// Saves a level at `path`.
pub fn save_level(path: &Path, game: &Game) -> Result<(), LevelError> {
    save_content_cancellable(path, Content::Level(game), &AtomicBool::new(false)).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_level;
    use crate::model::{Piece, PieceKind};

    #[test]
    fn every_piece_round_trips_through_the_format() {
        let mut cells = Vec::new();
        for kind in PieceKind::ALL {
            for o in 0..kind.orientations() {
                cells.push(Piece::new(kind, o));
            }
        }
        let g = Game::from_cells(1, cells.len(), cells);
        let bytes = level_bytes(&g);
        assert_eq!(parse_level("rt", &bytes).unwrap(), g);
        assert!(
            String::from_utf8(bytes)
                .unwrap()
                .starts_with("1\n16\n0 0\n1 0\n1 1\n")
        );
    }

    #[test]
    fn atomic_save_replaces_the_target_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lvl.txt");
        std::fs::write(&path, "old").unwrap();
        let g = Game::from_cells(1, 1, vec![Piece::new(PieceKind::Empty, 0)]);
        save_level(&path, &g).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"1\n1\n0 0\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let missing = dir.path().join("no/such/dir/x.txt");
        assert!(save_level(&missing, &g).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn atomic_save_gives_the_permissions_of_a_plain_create() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, "x").unwrap();
        let g = Game::from_cells(1, 1, vec![Piece::new(PieceKind::Empty, 0)]);
        let fresh = dir.path().join("fresh.txt");
        save_level(&fresh, &g).unwrap();
        assert_eq!(mode(&fresh), mode(&plain));
        // A file being replaced keeps its mode.
        let kept = dir.path().join("kept.txt");
        std::fs::write(&kept, "old").unwrap();
        std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
        save_level(&kept, &g).unwrap();
        assert_eq!(mode(&kept), 0o640);
    }

    #[test]
    fn a_raised_cancel_flag_leaves_neither_file_nor_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lvl.txt");
        let cancel = AtomicBool::new(true);
        let saved = save_cancellable(&path, &vec![b'x'; 3 << 20], &cancel).unwrap();
        assert_eq!(saved, Saved::Cancelled);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // An existing file is left as it was.
        std::fs::write(&path, "old").unwrap();
        assert_eq!(
            save_cancellable(&path, b"new", &cancel).unwrap(),
            Saved::Cancelled
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_through_chains_and_relative_targets() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let target = sub.join("t.txt");
        std::os::unix::fs::symlink("t.txt", sub.join("a")).unwrap();
        std::os::unix::fs::symlink("sub/a", dir.path().join("b")).unwrap();
        assert_eq!(resolve_links(&dir.path().join("b")), target);
        assert_eq!(resolve_links(&target), target);
        save_atomic(&dir.path().join("b"), b"through two links").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"through two links");
        assert!(
            std::fs::symlink_metadata(dir.path().join("b"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A loop of links ends, and saving through it is an error, not a hang.
        std::os::unix::fs::symlink("loop2", dir.path().join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", dir.path().join("loop2")).unwrap();
        resolve_links(&dir.path().join("loop1"));
        assert!(save_atomic(&dir.path().join("loop1"), b"x").is_err());
    }

    #[test]
    fn writability_is_checked_without_leaving_anything() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("new.txt")).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let e = check_writable(&dir.path().join("no/such/x.txt")).unwrap_err();
        assert!(e.message.contains("does not exist"), "{e}");
        let e = check_writable(dir.path()).unwrap_err();
        assert!(e.message.contains("is a folder"), "{e}");
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = check_writable(&file.join("x.txt")).unwrap_err();
        assert!(e.message.contains("not a folder"), "{e}");
    }
}

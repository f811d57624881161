//! Writer for the level format, and the atomic file save (temp file beside the target, then
//! rename) so that a crash or Ctrl-C never leaves a truncated level behind.

use std::io::Write;
use std::path::Path;

use super::error::LevelError;
use crate::model::Game;

/// The level as the bytes of a file (formatted in parallel, see [`super::format`]).
pub fn level_bytes(game: &Game) -> Vec<u8> {
    super::format::level_bytes(game)
}

/// Writes `bytes` to `path` atomically: a temp file in the same folder, flushed and synced,
/// then renamed over the target. The file gets the permissions a plain create would give
/// (0666 less the umask), or keeps those of the file it replaces: temp files are made 0600,
/// which would otherwise leave every saved level private.
pub fn save_atomic(path: &Path, bytes: &[u8]) -> Result<(), LevelError> {
    let shown = path.display().to_string();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let fail = |what: &str, e: std::io::Error| {
        LevelError::whole_file(&shown, format!("cannot {what}: {e}"))
    };
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(|e| fail("create a temporary file in its folder", e))?;
    if let Ok(old) = std::fs::metadata(path) {
        tmp.as_file()
            .set_permissions(old.permissions())
            .map_err(|e| fail("copy the permissions of the file it replaces", e))?;
    }
    tmp.write_all(bytes).map_err(|e| fail("write", e))?;
    tmp.as_file().sync_all().map_err(|e| fail("sync", e))?;
    tmp.persist(path)
        .map_err(|e| fail("rename the temporary file into place", e.error))?;
    Ok(())
}

/// Saves a level atomically at `path`.
pub fn save_level(path: &Path, game: &Game) -> Result<(), LevelError> {
    save_atomic(path, &level_bytes(game))
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
}

//! Level files: the strict reader, the writer and atomic saving of the course format, our
//! board format for any board, hexapipes' JSON (feature `json`), SGT Net game IDs, and reading
//! by content.

pub mod any;
pub mod board_format;
mod bounded_read;
pub mod error;
pub mod format;
#[cfg(feature = "json")]
pub mod hexapipes;
pub mod parse;
pub mod sgt;
mod text;
pub mod write;

pub use error::LevelError;
pub use parse::parse_level;
pub use write::{Saved, check_writable, level_bytes, save_atomic, save_cancellable, save_level};

use std::path::Path;

/// Reads and parses the level file at `path`.
pub fn load_level(path: &Path) -> Result<crate::model::Game, LevelError> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path)
        .map_err(|e| LevelError::whole_file(&shown, format!("cannot read: {e}")))?;
    parse::read_level_file(&shown, file)
}

//! Any level file, its format told by its content rather than its name: a solver handed a
//! file reads whichever of the three formats it is and writes its answer back in the same
//! one. The first non-blank byte decides: `{` is hexapipes' JSON, the word `board` is our
//! board format, a number whose line holds a `:` is an SGT Net game ID (`7x7w:2848...`),
//! anything else is the course format (a number alone on its first line), read by its own
//! fast reader so course levels cost what they always did.
//!
//! A hexapipes or board-format file whose board happens to be bounded and square is still
//! returned as [`AnyLevel::Board`]: the caller converts it with
//! [`BoardLevel::to_game`](crate::board::BoardLevel::to_game) if it wants the course
//! engine, and the [`LevelFormat`] it was read in travels with it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::board_format::{
    MAGIC, board_level_bytes, parse_board_level, read_board_level, read_board_level_file,
};
use super::error::LevelError;
use super::parse::{parse_level, read_level, read_level_file};
use super::sgt::{looks_like_sgt, parse_sgt, sgt_bytes};
use super::write::level_bytes;
use crate::board::BoardLevel;
use crate::model::Game;

/// A level as read from a file of any format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyLevel {
    /// A course-format level (bounded square grid).
    Course(Game),
    /// A level on any board (board format or hexapipes' JSON).
    Board(BoardLevel),
}

impl AnyLevel {
    /// The level as a [`BoardLevel`] (a course level becomes its bounded square board).
    pub fn to_board_level(&self) -> BoardLevel {
        match self {
            AnyLevel::Course(game) => BoardLevel::from_game(game),
            AnyLevel::Board(level) => level.clone(),
        }
    }
}

/// The format a level file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelFormat {
    /// The course format: height, width, `TYPE ORIENTATION` per cell (the crate's
    /// original reader).
    Course,
    /// Our board format: `board <tiling> <W>x<H> [wrap=...]`, a mask per cell
    /// ([`parse_board_level`](crate::parse_board_level)).
    Board,
    /// hexapipes' JSON puzzle files (read and written with the `json` feature).
    Hexapipes,
    /// Simon Tatham's Net game IDs, `WxH[w]:DESC` ([`super::sgt`]).
    Sgt,
}

impl LevelFormat {
    /// Every format.
    pub const ALL: [LevelFormat; 4] = [
        LevelFormat::Course,
        LevelFormat::Board,
        LevelFormat::Hexapipes,
        LevelFormat::Sgt,
    ];

    /// A short name for messages and the command line: `course`, `board`, `hexapipes`.
    pub fn name(self) -> &'static str {
        match self {
            LevelFormat::Course => "course",
            LevelFormat::Board => "board",
            LevelFormat::Hexapipes => "hexapipes",
            LevelFormat::Sgt => "sgt",
        }
    }

    /// The format of a name as [`LevelFormat::name`] gives it.
    pub fn from_name(name: &str) -> Option<LevelFormat> {
        LevelFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The format `bytes` (the start of a file, at least up to its first non-blank byte) is in,
/// by content (see the module doc).
pub fn detect(bytes: &[u8]) -> LevelFormat {
    let start = bytes.trim_ascii_start();
    if start.starts_with(b"{") {
        LevelFormat::Hexapipes
    } else if start.starts_with(MAGIC.as_bytes()) {
        LevelFormat::Board
    } else if looks_like_sgt(start) {
        LevelFormat::Sgt
    } else {
        LevelFormat::Course
    }
}

/// The error for a hexapipes file in a build without the `json` feature.
#[cfg(not(feature = "json"))]
fn no_json(source: &str) -> LevelError {
    LevelError::whole_file(
        source,
        "this is a hexapipes JSON puzzle, which this build cannot read (it needs the `json` feature)",
    )
}

/// hexapipes' JSON `bytes` as a level.
fn parse_json(source: &str, bytes: &[u8], wrap_default: bool) -> Result<AnyLevel, LevelError> {
    #[cfg(feature = "json")]
    {
        super::hexapipes::parse_hexapipes(source, bytes, wrap_default).map(AnyLevel::Board)
    }
    #[cfg(not(feature = "json"))]
    {
        let _ = (bytes, wrap_default);
        Err(no_json(source))
    }
}

/// Reads a level in any format from the bytes of a file named `source` (used only in
/// messages), and says which format it was. `wrap_default` is the wrap of a hexapipes file
/// with no `wrap` field (true for its `hexagonal-wrap` collection).
pub fn parse_any(
    source: &str,
    bytes: &[u8],
    wrap_default: bool,
) -> Result<(AnyLevel, LevelFormat), LevelError> {
    let format = detect(bytes);
    let level = match format {
        LevelFormat::Course => AnyLevel::Course(parse_level(source, bytes)?),
        LevelFormat::Board => AnyLevel::Board(parse_board_level(source, bytes)?),
        LevelFormat::Hexapipes => parse_json(source, bytes, wrap_default)?,
        LevelFormat::Sgt => AnyLevel::Board(parse_sgt(source, bytes)?),
    };
    Ok((level, format))
}

/// The bytes of `level` as a file in `format`. Fails when the format cannot hold the board:
/// the course format holds only bounded square boards, hexapipes' JSON no board that wraps
/// one way only (nor anything without the `json` feature).
pub fn any_level_bytes(level: &AnyLevel, format: LevelFormat) -> Result<Vec<u8>, String> {
    match (format, level) {
        (LevelFormat::Course, AnyLevel::Course(game)) => Ok(level_bytes(game)),
        (LevelFormat::Course, AnyLevel::Board(board_level)) => {
            if board_level.has_barriers() || board_level.has_locks() {
                return Err("the course format holds no barriers nor locked cells".into());
            }
            let game = board_level.to_game().ok_or_else(|| {
                let board = board_level.board();
                format!(
                    "the course format holds only bounded square boards, not a {} board with wrap={}",
                    board.tiling().name(),
                    board.wrap().name()
                )
            })?;
            Ok(level_bytes(&game))
        }
        (LevelFormat::Board, AnyLevel::Board(board_level)) if !board_level.board().is_uniform() => {
            Err(format!(
                "the board format holds square and hexagonal boards; write a {} board as hexapipes JSON (a .json file)",
                board_level.board().tiling().name()
            ))
        }
        (LevelFormat::Board, AnyLevel::Board(board_level)) => Ok(board_level_bytes(board_level)),
        (LevelFormat::Board, AnyLevel::Course(_)) => Ok(board_level_bytes(&level.to_board_level())),
        (LevelFormat::Sgt, _) => sgt_bytes(&level.to_board_level()),
        (LevelFormat::Hexapipes, _) => {
            #[cfg(feature = "json")]
            {
                super::hexapipes::hexapipes_bytes(&level.to_board_level())
            }
            #[cfg(not(feature = "json"))]
            {
                Err("writing hexapipes JSON needs the `json` feature".into())
            }
        }
    }
}

/// Largest JSON file [`load_any`] reads (256 MiB): hexapipes' largest puzzles are a few
/// kilobytes, and its writer spends under four bytes a tile.
#[cfg(feature = "json")]
const MAX_JSON_BYTES: usize = 1 << 28;

/// Largest SGT game ID [`load_any`] reads (256 MiB): at most three bytes a tile.
const MAX_SGT_BYTES: usize = 1 << 28;

/// Bytes read from the start of a file to find its first non-blank byte.
const DETECT_BYTES: usize = 1 << 16;

/// Reads and parses the level file at `path` in whichever format it is (see [`parse_any`]).
/// A course-format file goes through the course reader's file path, a board-format file
/// through [`read_board_level_file`](crate::read_board_level_file) (both bounded, and mapped
/// when large), a hexapipes file is read whole up to 256 MiB.
pub fn load_any(path: &Path, wrap_default: bool) -> Result<(AnyLevel, LevelFormat), LevelError> {
    let shown = path.display().to_string();
    let fail = |e: std::io::Error| LevelError::whole_file(&shown, format!("cannot read: {e}"));
    let mut file = File::open(path).map_err(fail)?;
    let mut head = Vec::new();
    loop {
        let old = head.len();
        let n = (&mut file)
            .take(4096)
            .read_to_end(&mut head)
            .map_err(fail)?;
        if n == 0 || !head[old..].trim_ascii_start().is_empty() || head.len() >= DETECT_BYTES {
            break;
        }
    }
    let format = detect(&head);
    let level = match format {
        LevelFormat::Course => AnyLevel::Course(if file.seek(SeekFrom::Start(0)).is_ok() {
            read_level_file(&shown, file)?
        } else {
            // A pipe: what was read for detection comes first.
            read_level(&shown, head.chain(file))?
        }),
        LevelFormat::Board => AnyLevel::Board(if file.seek(SeekFrom::Start(0)).is_ok() {
            read_board_level_file(&shown, file)?
        } else {
            read_board_level(&shown, head.chain(file))?
        }),
        LevelFormat::Sgt => {
            let max = MAX_SGT_BYTES;
            let mut bytes = head;
            file.take((max + 1 - bytes.len().min(max)) as u64)
                .read_to_end(&mut bytes)
                .map_err(fail)?;
            if bytes.len() > max {
                return Err(LevelError::whole_file(
                    &shown,
                    format!("an SGT game ID of over {max} bytes is too large"),
                ));
            }
            AnyLevel::Board(parse_sgt(&shown, &bytes)?)
        }
        LevelFormat::Hexapipes => {
            #[cfg(feature = "json")]
            {
                let max = MAX_JSON_BYTES;
                let mut bytes = head;
                file.take((max + 1 - bytes.len().min(max)) as u64)
                    .read_to_end(&mut bytes)
                    .map_err(fail)?;
                if bytes.len() > max {
                    return Err(LevelError::whole_file(
                        &shown,
                        format!("a hexapipes JSON file of over {max} bytes is too large"),
                    ));
                }
                parse_json(&shown, &bytes, wrap_default)?
            }
            #[cfg(not(feature = "json"))]
            {
                let _ = wrap_default;
                return Err(no_json(&shown));
            }
        }
    };
    Ok((level, format))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Rules, Tiling, Wrap};
    use crate::level::board_format::tests::sample_levels;

    #[test]
    fn detects_by_the_first_non_blank_byte() {
        assert_eq!(detect(b"  \n{\"width\": 1}"), LevelFormat::Hexapipes);
        assert_eq!(detect(b"board square 1x1\n0\n"), LevelFormat::Board);
        assert_eq!(detect(b"\r\n board"), LevelFormat::Board);
        assert_eq!(detect(b"1\n1\n0 0\n"), LevelFormat::Course);
        assert_eq!(detect(b""), LevelFormat::Course);
        assert_eq!(detect(b"5x5w:1248\n"), LevelFormat::Sgt);
        assert_eq!(detect(b" 3:124\n"), LevelFormat::Sgt);
        assert_eq!(detect(b"5\n5:\n"), LevelFormat::Course);
        for f in LevelFormat::ALL {
            assert_eq!(LevelFormat::from_name(f.name()), Some(f));
        }
    }

    /// Every level in every format that holds it: written, read back by content, the same
    /// level and format; a format that cannot hold it says so.
    #[test]
    fn every_format_round_trips_through_parse_any_and_load_any() {
        let dir = tempfile::tempdir().unwrap();
        let mut levels: Vec<AnyLevel> = sample_levels().into_iter().map(AnyLevel::Board).collect();
        let course = sample_levels()[0].to_game().unwrap();
        levels.push(AnyLevel::Course(course));
        for level in &levels {
            let board = level.to_board_level();
            let wrap = board.board().wrap();
            for format in LevelFormat::ALL {
                let bytes = match any_level_bytes(level, format) {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        let refused = match format {
                            LevelFormat::Course => {
                                !board.board().is_bounded_square()
                                    || board.has_barriers()
                                    || board.has_locks()
                            }
                            LevelFormat::Hexapipes => {
                                !cfg!(feature = "json")
                                    || wrap.horizontal != wrap.vertical
                                    || board.has_barriers()
                                    || board.has_locks()
                            }
                            LevelFormat::Sgt => {
                                board.board().tiling() != Tiling::Square
                                    || wrap.horizontal != wrap.vertical
                                    || board.has_locks()
                            }
                            LevelFormat::Board => false,
                        };
                        assert!(refused, "{format:?} refused {board:?}: {e}");
                        continue;
                    }
                };
                let (back, read_as) = parse_any("t", &bytes, false).unwrap();
                assert_eq!(read_as, format);
                // hexapipes' files are Net by definition; the course format says no rules.
                let expected = match format {
                    LevelFormat::Hexapipes | LevelFormat::Sgt => {
                        board.clone().with_rules(Rules::Net)
                    }
                    LevelFormat::Course => board.clone().with_rules(Rules::Infinity),
                    LevelFormat::Board => board.clone(),
                };
                assert_eq!(back.to_board_level(), expected, "{format:?}");
                let path = dir.path().join(format.name());
                std::fs::write(&path, &bytes).unwrap();
                let (loaded, read_as) = load_any(&path, false).unwrap();
                assert_eq!((&loaded, read_as), (&back, format));
                // Written back in the format it was read in: the same bytes.
                assert_eq!(any_level_bytes(&back, format).unwrap(), bytes);
            }
        }
    }

    #[test]
    fn a_course_level_reads_as_a_course_level() {
        let (level, format) = parse_any("t", b"1\n2\n5 1\n2 0\n", false).unwrap();
        assert_eq!(format, LevelFormat::Course);
        assert_eq!(
            level,
            AnyLevel::Course(parse_level("t", b"1\n2\n5 1\n2 0\n").unwrap())
        );
        // A course file's errors are the course reader's.
        let e = parse_any("t", b"1\n2\n9 0\n", false).unwrap_err();
        assert_eq!(e, parse_level("t", b"1\n2\n9 0\n").unwrap_err());
        let e = parse_any("t", b"board square 2x1\n1\n", false).unwrap_err();
        assert_eq!(e.line, Some(3));
    }

    #[test]
    fn a_bounded_square_board_stays_a_board_in_its_format() {
        let board = Board::new(Tiling::Square, 2, 1, Wrap::NONE).unwrap();
        let level = AnyLevel::Board(BoardLevel::new(board, vec![2, 8]).unwrap());
        let bytes = any_level_bytes(&level, LevelFormat::Board).unwrap();
        let (back, format) = parse_any("t", &bytes, false).unwrap();
        assert_eq!((back, format), (level.clone(), LevelFormat::Board));
        // It converts to the course format on request.
        let course = any_level_bytes(&level, LevelFormat::Course).unwrap();
        assert_eq!(course, b"1\n2\n1 1\n1 3\n");
    }

    #[cfg(unix)]
    #[test]
    fn load_any_reads_a_course_level_from_a_pipe() {
        // A pipe cannot seek back over the bytes read to detect the format.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            println!("skipped: mkfifo unavailable");
            return;
        }
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, b"  1\n2\n5 1\n2 0\n").unwrap())
        };
        let (level, format) = load_any(&fifo, false).unwrap();
        writer.join().unwrap();
        assert_eq!(format, LevelFormat::Course);
        assert_eq!(
            level,
            AnyLevel::Course(parse_level("t", b"1\n2\n5 1\n2 0\n").unwrap())
        );
    }

    #[test]
    fn load_any_names_lines_and_open_failures() {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), b"\n\n  board square 1x1\n3\n").unwrap();
        let e = load_any(file.path(), false).unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
        let e = load_any(Path::new("/nonexistent/level"), false).unwrap_err();
        assert!(e.message.contains("cannot read"), "{e}");
    }

    #[cfg(feature = "json")]
    #[test]
    fn a_hexapipes_file_loads_with_the_wrap_default() {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(
            file.path(),
            br#"{"width": 2, "height": 2, "tiles": [1, 2, 4, 8]}"#,
        )
        .unwrap();
        let (level, format) = load_any(file.path(), true).unwrap();
        assert_eq!(format, LevelFormat::Hexapipes);
        let AnyLevel::Board(level) = level else {
            panic!("a hexapipes file is a board level")
        };
        assert_eq!(level.board().wrap(), Wrap::BOTH);
        let e = parse_any("t", b"{\"grid\": \"pentagonal\"}", false).unwrap_err();
        assert!(
            e.message.contains("`pentagonal` is not supported yet"),
            "{e}"
        );
    }

    #[cfg(not(feature = "json"))]
    #[test]
    fn without_json_a_hexapipes_file_is_refused_clearly() {
        let e = parse_any("t", b"{}", false).unwrap_err();
        assert!(e.message.contains("`json` feature"), "{e}");
    }
}

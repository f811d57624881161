//! The endpoints: each takes the request's JSON and answers JSON, or refuses with an
//! [`ApiError`]. Solving, generating, reading and writing levels go through the library calls
//! the command line makes (`anyboard::solve_level`, the generators, `parse_any`,
//! `any_level_bytes`), and every answer the solver gives is verified before it is sent. An
//! answer is JSON text (a level's is written by hand, see [`play_text`]).

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use super::error::ApiError;
use super::spec::Spec;
use super::wire::{check_cells, level_from_json, object, only_keys, play_text, str_field};
use crate::anyboard::{self, Outcome};
use crate::board::BoardLevel;
use crate::level::any::{AnyLevel, LevelFormat, any_level_bytes, parse_any};
use crate::model::Piece;
use crate::solve::{Event, OnEvent, SolveOptions, solve_observed};

/// The solver's time for one request: the page waits for it.
pub const SOLVE_TIMEOUT: Duration = Duration::from_secs(30);

/// Solver steps the watch replay sends at most (about 1 MB of JSON).
pub const MAX_WATCH_STEPS: usize = 100_000;

/// `POST /api/generate`: a level of the panel's spec, and the query that makes it again.
pub fn generate(body: &Value, cancel: &AtomicBool) -> Result<String, ApiError> {
    let spec = Spec::from_json(body)?;
    let level = spec.generate(cancel)?;
    Ok(play_text(
        &level,
        &[
            ("seed", json!(spec.seed.to_string())),
            ("query", json!(spec.to_query())),
        ],
    ))
}

/// `POST /api/open`: a level file's text, in any format the CLI reads.
pub fn open(body: &Value) -> Result<String, ApiError> {
    let o = object(body, "the open request")?;
    only_keys(o, "open", &["text", "name", "wrap"])?;
    let text = str_field(o, "text")?;
    let name = match o.get("name") {
        Some(_) => str_field(o, "name")?,
        None => "the level",
    };
    let wrap = o.get("wrap").and_then(Value::as_bool).unwrap_or(false);
    let (level, format) =
        parse_any(name, text.as_bytes(), wrap).map_err(|e| ApiError::bad(e.to_string()))?;
    let level = level.to_board_level();
    check_cells(level.board().width(), level.board().height())?;
    Ok(play_text(&level, &[("format", json!(format.name()))]))
}

/// The `level` field of a request, checked.
fn level_of(body: &Value, extra: &[&str]) -> Result<BoardLevel, ApiError> {
    let o = object(body, "the request")?;
    let mut known = vec!["level"];
    known.extend_from_slice(extra);
    only_keys(o, "request", &known)?;
    level_from_json(
        o.get("level")
            .ok_or_else(|| ApiError::bad("`level` is missing"))?,
    )
}

/// The solver's outcome for `level` with the engine the CLI gives it: the bounded square
/// engine for a course-format level (bounded square, Infinity rules, no barrier nor lock),
/// the any-board engine for every other.
fn solve_with_cli_engine(level: &BoardLevel, cancel: &AtomicBool) -> Result<Outcome, ApiError> {
    let game = match level.to_game() {
        Some(game) if !level.needs_net_engine() => game,
        _ => return Ok(anyboard::solve_level(level, Some(SOLVE_TIMEOUT), cancel).0),
    };
    let options = SolveOptions {
        timeout: Some(SOLVE_TIMEOUT),
        ..SolveOptions::default()
    };
    Ok(match crate::solve::solve(&game, &options, cancel).0 {
        crate::solve::Outcome::Solved(sol) => Outcome::Solved(BoardLevel::from_game(&sol)),
        crate::solve::Outcome::Unsolvable => Outcome::NoSolution,
        crate::solve::Outcome::TimedOut => Outcome::TimedOut,
        crate::solve::Outcome::Cancelled => Outcome::Cancelled,
        crate::solve::Outcome::Rejected(why) => return Err(unverified(&why)),
    })
}

/// The answer for a solver answer that failed verification (a solver bug).
fn unverified(why: &str) -> ApiError {
    ApiError {
        status: 500,
        message: format!("the solver's answer failed verification: {why}"),
    }
}

/// The verified solution of `level` (the hint and the "solve" button use it).
fn solution(level: &BoardLevel, cancel: &AtomicBool) -> Result<BoardLevel, ApiError> {
    match solve_with_cli_engine(level, cancel)? {
        Outcome::Solved(sol) => {
            // The engine verifies; so does the server before it tells the player.
            if anyboard::first_fault(&sol).is_some() || !sol.is_turning_of(level) {
                return Err(unverified("not a solution of this level"));
            }
            Ok(sol)
        }
        Outcome::NoSolution => Err(ApiError::unanswerable(
            "this level has no solution (the search was exhausted)",
        )),
        Outcome::TimedOut => Err(ApiError {
            status: 503,
            message: format!(
                "the solver found no answer in {} s",
                SOLVE_TIMEOUT.as_secs()
            ),
        }),
        Outcome::Cancelled => Err(ApiError {
            status: 503,
            message: "the server is stopping".into(),
        }),
    }
}

/// `POST /api/solve`: the masks of a verified solution.
pub fn solve(body: &Value, cancel: &AtomicBool) -> Result<String, ApiError> {
    let level = level_of(body, &[])?;
    let sol = solution(&level, cancel)?;
    Ok(json!({ "masks": sol.masks() }).to_string())
}

/// `POST /api/explain`: for the level as it stands (its masks are the player's turns), the
/// next deduction of the ladder the turns do not follow (`step`: its sentence and the cells
/// it read, or null when the ladder needs a guess), and the pieces whose orientation no
/// solution allows (`mistakes`).
pub fn explain(body: &Value) -> Result<String, ApiError> {
    let level = level_of(body, &[])?;
    let step = crate::deduce::hint::explained_step(&level, level.masks());
    let mistakes = crate::deduce::hint::mistakes(&level, level.masks());
    Ok(json!({
        "step": step.map(|s| json!({ "text": s.text, "cells": s.cells })),
        "mistakes": mistakes,
    })
    .to_string())
}

/// The file extension of a format, for the saved or downloaded file.
fn extension(format: LevelFormat) -> &'static str {
    match format {
        LevelFormat::Course => "txt",
        LevelFormat::Board => "board",
        LevelFormat::Hexapipes => "json",
        LevelFormat::Sgt => "sgt",
    }
}

/// The level as a file of the requested format.
fn file_bytes(body: &Value, extra: &[&str]) -> Result<(Vec<u8>, LevelFormat), ApiError> {
    let level = level_of(body, extra)?;
    let o = object(body, "the request")?;
    let name = str_field(o, "format")?;
    let format = LevelFormat::from_name(name).ok_or_else(|| {
        ApiError::bad(format!(
            "unknown format `{name}` (course, board, hexapipes or sgt)"
        ))
    })?;
    let bytes = any_level_bytes(&AnyLevel::Board(level), format).map_err(ApiError::unanswerable)?;
    Ok((bytes, format))
}

/// `POST /api/export`: the level's file text, for the page to download.
pub fn export(body: &Value) -> Result<String, ApiError> {
    let (bytes, format) = file_bytes(body, &["format"])?;
    Ok(json!({
        "text": String::from_utf8_lossy(&bytes),
        "extension": extension(format),
    })
    .to_string())
}

/// A file name the save folder may hold: letters, digits, `.`, `-`, `_`, not hidden, so no
/// path can leave the folder.
fn safe_name(name: &str) -> Result<&str, ApiError> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if ok {
        Ok(name)
    } else {
        Err(ApiError::bad(format!(
            "`{name}` is not a file name here: 1 to 100 letters, digits, `.`, `-` or `_`, not starting with `.`"
        )))
    }
}

/// `POST /api/save`: the level written into the save folder, never anywhere else.
pub fn save(body: &Value, dir: Option<&Path>) -> Result<String, ApiError> {
    let dir = dir.ok_or_else(|| {
        ApiError::forbidden("this server saves nothing: start it with --save-dir DIR")
    })?;
    let (bytes, format) = file_bytes(body, &["format", "name"])?;
    let o = object(body, "the request")?;
    let name = safe_name(str_field(o, "name")?)?;
    let path = dir.join(name);
    // A link in the folder could lead out of it: only a new file or a plain one is replaced.
    if let Ok(meta) = std::fs::symlink_metadata(&path)
        && !meta.file_type().is_file()
    {
        return Err(ApiError::forbidden(format!(
            "{name} exists and is not a plain file: not replaced"
        )));
    }
    crate::level::save_atomic(&path, &bytes).map_err(|e| ApiError {
        status: 500,
        message: e.to_string(),
    })?;
    Ok(json!({ "saved": name, "format": format.name(), "bytes": bytes.len() }).to_string())
}

/// `POST /api/watch`: the solver's steps, as `[cell, mask]` pairs (mask -1: the cell is open
/// again, -2: no orientation left), and the verified solution it ends on (`complete` false:
/// the replay was cut at [`MAX_WATCH_STEPS`] and ends on the solver's answer). A bounded square
/// Infinity level replays the observed search of the course engine, step by step; the
/// any-board engines report no steps, so there the replay is the answer placed cell by cell
/// (`observed` says which).
pub fn watch(body: &Value, cancel: &AtomicBool) -> Result<String, ApiError> {
    let level = level_of(body, &[])?;
    let mut steps: Vec<[i32; 2]> = Vec::new();
    let mut answer: Option<Vec<u8>> = None;
    let observed = match level.to_game() {
        Some(game) if !level.needs_net_engine() => {
            let width = game.width();
            let kinds: Vec<Piece> = game.cells().to_vec();
            let mask_of = |cell: usize, dom: u8| -> i32 {
                match dom.count_ones() {
                    0 => -2,
                    1 => i32::from(kinds[cell].kind().mask(dom.trailing_zeros() as u8)),
                    _ => -1,
                }
            };
            let mut on_event = OnEvent::new(|e| {
                let step = match e {
                    Event::Decide {
                        row,
                        col,
                        orientation,
                        ..
                    } => Some((row * width + col, 1u8 << orientation)),
                    Event::Narrow {
                        row, col, after, ..
                    } => Some((row * width + col, after)),
                    Event::Restore { row, col, domain } => Some((row * width + col, domain)),
                    _ => None,
                };
                if let Some((cell, dom)) = step {
                    steps.push([cell as i32, mask_of(cell, dom)]);
                }
                steps.len() < MAX_WATCH_STEPS
            });
            // The replay ends on the observed search's own solution (a level may have
            // several), verified here; a replay cut short ends on the solver's answer.
            if let (crate::solve::Outcome::Solved(sol), _) =
                solve_observed(&game, true, &mut on_event)
                && crate::check::is_solved(&sol)
                && sol.same_shapes(&game)
            {
                answer = Some(sol.cells().iter().map(|p| p.mask()).collect());
            }
            true
        }
        _ => false,
    };
    let complete = answer.is_some() || !observed;
    let masks = match answer {
        Some(masks) => masks,
        None => solution(&level, cancel)?.masks().to_vec(),
    };
    if !observed {
        steps = masks
            .iter()
            .enumerate()
            .map(|(c, &m)| [c as i32, i32::from(m)])
            .collect();
    }
    Ok(json!({
        "steps": steps,
        "observed": observed,
        "complete": complete,
        "masks": masks,
    })
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(answer: Result<String, ApiError>) -> Value {
        serde_json::from_str(&answer.unwrap()).unwrap()
    }

    fn generated(request: Value) -> Value {
        parsed(generate(&request, &AtomicBool::new(false)))
    }

    #[test]
    fn solve_answers_a_turning_of_the_level_that_is_solved() {
        let cancel = AtomicBool::new(false);
        for request in [
            json!({"width": 6, "height": 6, "seed": 1}),
            json!({"width": 5, "height": 5, "grid": "hexagonal", "rules": "net", "seed": 4}),
        ] {
            let page = generated(request);
            let level = level_from_json(&page["level"]).unwrap();
            let answer = parsed(solve(&json!({"level": page["level"]}), &cancel));
            let masks: Vec<u8> = serde_json::from_value(answer["masks"].clone()).unwrap();
            let mut solved = level.clone();
            solved.masks_mut().copy_from_slice(&masks);
            assert!(solved.is_turning_of(&level));
            assert!(anyboard::first_fault(&solved).is_none());
        }
    }

    /// The explained step names a cell the turns break and the cells it read; a piece turned
    /// against a deduction is a mistake; a solved grid has neither.
    #[test]
    fn explain_gives_a_step_and_the_mistakes_of_the_turns() {
        let cancel = AtomicBool::new(false);
        let page = generated(
            json!({"width": 6, "height": 6, "unique": true, "difficulty": "easy", "seed": 3}),
        );
        let answer = parsed(explain(&json!({"level": page["level"]})));
        let cells = answer["step"]["cells"].as_array().unwrap();
        assert!(!cells.is_empty(), "{answer}");
        assert!(answer["step"]["text"].as_str().unwrap().starts_with('['));
        // Solved by the solver: no step left, no mistake.
        let solved = parsed(solve(&json!({"level": page["level"]}), &cancel));
        let mut level = page["level"].clone();
        level["masks"] = solved["masks"].clone();
        let answer = parsed(explain(&json!({"level": level})));
        assert_eq!(answer["step"], Value::Null, "{answer}");
        assert_eq!(answer["mistakes"], json!([]));
        // One piece turned away from the one solution of an easy level: the ladder rules
        // that orientation out, so it is a mistake (unless the turn gives the same piece).
        let masks: Vec<u8> = serde_json::from_value(solved["masks"].clone()).unwrap();
        let l = level_from_json(&level).unwrap();
        let k = l.board().sides();
        let c = (0..masks.len())
            .find(|&c| crate::board::mask::rotate(masks[c], k, 1) != masks[c])
            .unwrap();
        level["masks"][c] = json!(crate::board::mask::rotate(masks[c], k, 1));
        let answer = parsed(explain(&json!({"level": level})));
        assert_eq!(answer["mistakes"], json!([c]), "{answer}");
    }

    #[test]
    fn the_watch_replay_ends_on_its_solution() {
        let page = generated(json!({"width": 8, "height": 8, "seed": 5}));
        let answer = parsed(watch(
            &json!({"level": page["level"]}),
            &AtomicBool::new(false),
        ));
        assert_eq!(answer["observed"], json!(true));
        // Cells of one orientation (empty, full) never change: they start as they are.
        let mut shown: Vec<i64> = serde_json::from_value(page["level"]["masks"].clone()).unwrap();
        for step in answer["steps"].as_array().unwrap() {
            let mask = step[1].as_i64().unwrap();
            if mask >= 0 {
                shown[step[0].as_u64().unwrap() as usize] = mask;
            }
        }
        let masks: Vec<i64> = serde_json::from_value(answer["masks"].clone()).unwrap();
        assert_eq!(shown, masks);
    }

    #[test]
    fn every_format_opens_and_exports() {
        let page = generated(json!({"width": 4, "height": 3, "seed": 8}));
        for format in ["course", "board", "hexapipes", "sgt"] {
            let file = parsed(export(&json!({"level": page["level"], "format": format})));
            let back = parsed(open(&json!({"text": file["text"], "name": "x"})));
            assert_eq!(back["format"], json!(format));
            assert_eq!(back["level"]["masks"], page["level"]["masks"], "{format}");
        }
        let e = open(&json!({"text": "3\n3\n9 9\n"})).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.contains("line"), "{}", e.message);
        let e = export(&json!({"level": page["level"], "format": "png"})).unwrap_err();
        assert!(e.message.contains("unknown format"), "{}", e.message);
    }

    #[test]
    fn save_writes_only_plain_names_inside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let page = generated(json!({"width": 3, "height": 3, "seed": 2}));
        let request = |name: &str| json!({"level": page["level"], "format": "board", "name": name});
        let saved = parsed(save(&request("a.board"), Some(dir.path())));
        assert_eq!(saved["saved"], json!("a.board"));
        assert!(dir.path().join("a.board").is_file());
        for bad in ["../x", "/etc/x", ".hidden", "a/b", ""] {
            let e = save(&request(bad), Some(dir.path())).unwrap_err();
            assert_eq!(e.status, 400, "{bad}");
        }
        assert_eq!(save(&request("a.board"), None).unwrap_err().status, 403);
        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            let target = outside.path().join("t");
            std::os::unix::fs::symlink(&target, dir.path().join("link")).unwrap();
            assert_eq!(
                save(&request("link"), Some(dir.path())).unwrap_err().status,
                403
            );
            assert!(!target.exists());
        }
    }
}

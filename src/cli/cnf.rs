//! `--to-cnf` and `--from-model`: the level as DIMACS for an outside SAT solver, and that
//! solver's answer back into a checked level.

use std::path::Path;

use super::args::Reading;
use super::board::Loaded;
use super::error::CliError;
use super::out;
use super::run::{
    EXIT_CANCELLED, EXIT_NO, EXIT_OK, cancelled, check_outputs, is_stdio, save, save_content,
    verdict,
};
#[cfg(feature = "cp")]
use crate::anyboard::first_fault;
use crate::board::BoardLevel;
#[cfg(feature = "cp")]
use crate::board::Rules;
use crate::check::first_defect;
#[cfg(feature = "cp")]
use crate::cnf::board::{board_cnf, decode_board};
use crate::cnf::{SatAnswer, decode, encode, parse_model, write_dimacs};
use crate::level::any::LevelFormat;
#[cfg(feature = "cp")]
use crate::level::any::{AnyLevel, any_level_bytes};
use crate::level::level_bytes;
use crate::level::write::Content;

/// `--to-cnf`: writes the level as DIMACS CNF to `output`. A file gets the formula a cell
/// at a time (never whole in memory); stdout gets it whole, through the usual closed-pipe and
/// full-disk handling.
pub fn run_to_cnf(game: &crate::model::Game, output: &Path) -> Result<i32, CliError> {
    check_outputs([output])?;
    let (vars, clauses) = if is_stdio(output) {
        let cnf = encode(game);
        if !save(output, &cnf.to_dimacs())? {
            return Ok(cancelled("while writing the CNF"));
        }
        (cnf.vars, cnf.clauses)
    } else {
        let counted = std::sync::Mutex::new((0, 0));
        let write = |out: &mut dyn std::io::Write, cancel: &std::sync::atomic::AtomicBool| {
            let done = write_dimacs(game, out, cancel)?;
            if let Some(n) = done {
                *counted.lock().unwrap_or_else(|e| e.into_inner()) = n;
            }
            Ok(done.is_some())
        };
        if !save_content(output, Content::Stream(&write))? {
            return Ok(cancelled("while writing the CNF"));
        }
        counted.into_inner().unwrap_or_else(|e| e.into_inner())
    };
    errln!("{vars} variables, {clauses} clauses");
    Ok(EXIT_OK)
}

/// `--from-model`: decodes a SAT solver's model for `level` (any board, read by content),
/// checks it and writes the solution in the level's format.
pub fn run_from_model(
    model: &Path,
    level: &Path,
    output: Option<&Path>,
    reading: Reading,
) -> Result<i32, CliError> {
    check_outputs(output)?;
    let loaded = super::board::read(level, reading)?;
    let text = match std::fs::read(model) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            let shown = out::escape_controls(&model.display().to_string());
            return Err(CliError::Read(format!("{shown}: cannot read: {e}")));
        }
    };
    let name = out::escape_controls(&model.display().to_string());
    let game = match loaded {
        Loaded::Course(game) => game,
        Loaded::Board(board, format) => {
            return from_model_board(&board, format, &text, &name, output);
        }
    };
    let cnf = encode(&game);
    let mut reply = Reply::new(output);
    let Some(values) = reply.model(&name, &text, cnf.vars)? else {
        return Ok(reply.code);
    };
    let solution = match decode(&game, &cnf, &values) {
        Ok(g) => g,
        Err(e) => return Err(CliError::Read(format!("{name}: {e}"))),
    };
    if let Some(d) = first_defect(&solution) {
        return reply.unsolved(
            &format!("{name}: the model does not solve the level ({d}); nothing written"),
            EXIT_NO,
        );
    }
    reply.solved(output, &level_bytes(&solution))
}

/// `--from-model` of a board level: the board's formula (`cnf::board`), decoded and checked on
/// the board's geometry.
#[cfg(feature = "cp")]
fn from_model_board(
    level: &BoardLevel,
    format: LevelFormat,
    text: &str,
    name: &str,
    output: Option<&Path>,
) -> Result<i32, CliError> {
    if level.rules() == Rules::Net {
        return Err(CliError::Usage(
            "--from-model reads a model of the connections' formula, which cannot say \"one tree\": it takes levels under Infinity rules".into(),
        ));
    }
    let cnf = board_cnf(level);
    let mut reply = Reply::new(output);
    let Some(values) = reply.model(name, text, cnf.vars)? else {
        return Ok(reply.code);
    };
    let solution =
        decode_board(level, &cnf, &values).map_err(|e| CliError::Read(format!("{name}: {e}")))?;
    if !solution.is_turning_of(level) {
        return reply.unsolved(
            &format!("{name}: the model turns a locked piece; nothing written"),
            EXIT_NO,
        );
    }
    if let Some(fault) = first_fault(&solution) {
        return reply.unsolved(
            &format!(
                "{name}: the model does not solve the level ({}); nothing written",
                fault.describe(&solution)
            ),
            EXIT_NO,
        );
    }
    let bytes = any_level_bytes(&AnyLevel::Board(solution), format).map_err(CliError::Output)?;
    reply.solved(output, &bytes)
}

#[cfg(not(feature = "cp"))]
fn from_model_board(
    _: &BoardLevel,
    _: LevelFormat,
    _: &str,
    _: &str,
    _: Option<&Path>,
) -> Result<i32, CliError> {
    Err(CliError::Usage(
        "--from-model on levels other than the course format needs the `cp` feature".into(),
    ))
}

/// How `--from-model` answers: the verdict on stdout, or on stderr when the level owns stdout
/// (`-o -`); `code` is the exit code once a model says there is nothing to decode.
struct Reply {
    to_stdout: bool,
    code: i32,
}

impl Reply {
    fn new(output: Option<&Path>) -> Reply {
        Reply {
            to_stdout: !output.is_some_and(is_stdio),
            code: EXIT_OK,
        }
    }

    fn unsolved(&self, why: &str, code: i32) -> Result<i32, CliError> {
        verdict(self.to_stdout, "SOLVED: false")?;
        errln!("{why}");
        Ok(code)
    }

    /// The model's values, or `None` (with the verdict said and `self.code` set) when the
    /// solver reported UNSATISFIABLE or UNKNOWN.
    fn model(&mut self, name: &str, text: &str, vars: u32) -> Result<Option<Vec<bool>>, CliError> {
        match parse_model(name, text, vars) {
            Ok(SatAnswer::Model(v)) => Ok(Some(v)),
            Ok(SatAnswer::Unsatisfiable) => {
                self.code = self.unsolved(
                    "the SAT solver reports UNSATISFIABLE: the level has no solution",
                    EXIT_NO,
                )?;
                Ok(None)
            }
            Ok(SatAnswer::Unknown) => {
                self.code = self.unsolved(
                    "the SAT solver gave up (UNKNOWN); nothing written",
                    EXIT_CANCELLED,
                )?;
                Ok(None)
            }
            Err(e) => Err(CliError::Read(e)),
        }
    }

    fn solved(&self, output: Option<&Path>, bytes: &[u8]) -> Result<i32, CliError> {
        if let Some(path) = output {
            match save(path, bytes) {
                Err(e) => return Err(e),
                Ok(false) => return Ok(cancelled("while writing the solution")),
                Ok(true) => {}
            }
        }
        verdict(self.to_stdout, "SOLVED: true")?;
        Ok(EXIT_OK)
    }
}

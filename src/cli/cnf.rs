//! `--to-cnf` and `--from-model`: the level as DIMACS for an outside SAT solver, and that
//! solver's answer back into a checked level.

use std::path::Path;

use super::error::CliError;
use super::interrupt;
use super::out;
use super::run::{
    EXIT_CANCELLED, EXIT_NO, EXIT_OK, cancelled, check_outputs, is_stdio, read_input, save, verdict,
};
use crate::check::first_defect;
use crate::cnf::{SatAnswer, decode, encode, parse_model, write_dimacs};
use crate::level::Saved;
use crate::level::level_bytes;
use crate::level::write::{Content, save_content_cancellable};

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
        super::interrupt::cooperative(true);
        let saved = save_content_cancellable(output, Content::Stream(&write), &interrupt::CANCEL)
            .map_err(|e| CliError::Output(e.to_string()))?;
        if saved != Saved::Written {
            return Ok(cancelled("while writing the CNF"));
        }
        counted.into_inner().unwrap_or_else(|e| e.into_inner())
    };
    errln!("{vars} variables, {clauses} clauses");
    Ok(EXIT_OK)
}

/// `--from-model`: decodes a SAT solver's model for `level`, checks it and writes the solution.
pub fn run_from_model(model: &Path, level: &Path, output: Option<&Path>) -> Result<i32, CliError> {
    check_outputs(output)?;
    let game = read_input(level)?;
    let text = match std::fs::read(model) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            let shown = out::escape_controls(&model.display().to_string());
            return Err(CliError::Read(format!("{shown}: cannot read: {e}")));
        }
    };
    let cnf = encode(&game);
    let name = out::escape_controls(&model.display().to_string());
    // With `-o -` the level owns stdout, so the verdict goes to stderr.
    let to_stdout = !output.is_some_and(is_stdio);
    let say = |line: &str| verdict(to_stdout, line);
    let unsolved = |why: &str, code: i32| -> Result<i32, CliError> {
        say("SOLVED: false")?;
        errln!("{why}");
        Ok(code)
    };
    let values = match parse_model(&name, &text, cnf.vars) {
        Ok(SatAnswer::Model(v)) => v,
        Ok(SatAnswer::Unsatisfiable) => {
            return unsolved(
                "the SAT solver reports UNSATISFIABLE: the level has no solution",
                EXIT_NO,
            );
        }
        Ok(SatAnswer::Unknown) => {
            return unsolved(
                "the SAT solver gave up (UNKNOWN); nothing written",
                EXIT_CANCELLED,
            );
        }
        Err(e) => return Err(CliError::Read(e)),
    };
    let solution = match decode(&game, &cnf, &values) {
        Ok(g) => g,
        Err(e) => return Err(CliError::Read(format!("{name}: {e}"))),
    };
    if let Some(d) = first_defect(&solution) {
        return unsolved(
            &format!("{name}: the model does not solve the level ({d}); nothing written"),
            EXIT_NO,
        );
    }
    if let Some(path) = output {
        match save(path, &level_bytes(&solution)) {
            Err(e) => return Err(e),
            Ok(false) => return Ok(cancelled("while writing the solution")),
            Ok(true) => {}
        }
    }
    say("SOLVED: true")?;
    Ok(EXIT_OK)
}

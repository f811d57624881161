//! `--to-cnf` and `--from-model`: the level as DIMACS for an outside SAT solver, and that
//! solver's answer back into a checked level.

use std::path::Path;

use super::out;
use super::run::{
    EXIT_CANCELLED, EXIT_NO, EXIT_OK, cancelled, check_outputs, fail, is_stdio, read_input, save,
};
use crate::check::first_defect;
use crate::cnf::{SatAnswer, decode, encode, parse_model};
use crate::level::level_bytes;

pub fn run_to_cnf(input: &Path, output: &Path) -> i32 {
    if let Err(e) = check_outputs([output]) {
        return fail(e);
    }
    let game = match read_input(input) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let cnf = encode(&game);
    match save(output, &cnf.to_dimacs()) {
        Err(e) => return fail(e),
        Ok(false) => return cancelled("while writing the CNF"),
        Ok(true) => {}
    }
    errln!("{} variables, {} clauses", cnf.vars, cnf.clauses);
    EXIT_OK
}

pub fn run_from_model(model: &Path, level: &Path, output: Option<&Path>) -> i32 {
    if let Err(e) = check_outputs(output) {
        return fail(e);
    }
    let game = match read_input(level) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let text = match std::fs::read(model) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            let shown = out::escape_controls(&model.display().to_string());
            return fail(format!("{shown}: cannot read: {e}"));
        }
    };
    let cnf = encode(&game);
    let name = out::escape_controls(&model.display().to_string());
    // With `-o -` the level owns stdout, so the verdict goes to stderr.
    let to_stdout = !output.is_some_and(is_stdio);
    let say = |line: &str| -> Result<(), String> {
        if to_stdout {
            out::line(line)
        } else {
            errln!("{line}");
            Ok(())
        }
    };
    let unsolved = |why: &str, code: i32| -> i32 {
        if let Err(e) = say("SOLVED: false") {
            return fail(e);
        }
        errln!("{why}");
        code
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
        Err(e) => return fail(e),
    };
    let solution = match decode(&game, &cnf, &values) {
        Ok(g) => g,
        Err(e) => return fail(format!("{name}: {e}")),
    };
    if let Some(d) = first_defect(&solution) {
        return unsolved(
            &format!("{name}: the model does not solve the level ({d}); nothing written"),
            EXIT_NO,
        );
    }
    if let Some(path) = output {
        match save(path, &level_bytes(&solution)) {
            Err(e) => return fail(e),
            Ok(false) => return cancelled("while writing the solution"),
            Ok(true) => {}
        }
    }
    if let Err(e) = say("SOLVED: true") {
        return fail(e);
    }
    EXIT_OK
}

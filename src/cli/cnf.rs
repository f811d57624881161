//! `--to-cnf` and `--from-model`: the level as DIMACS for an outside SAT solver, and that
//! solver's answer back into a checked level.

use std::io::Write;
use std::path::Path;

use super::run::{EXIT_CANCELLED, EXIT_NO, EXIT_OK, fail, is_stdio, read_input, write_output};
use crate::check::first_defect;
use crate::cnf::{SatAnswer, decode, encode, parse_model};
use crate::level::save_atomic;

pub fn run_to_cnf(input: &Path, output: &Path) -> i32 {
    let game = match read_input(input) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let cnf = encode(&game);
    let bytes = cnf.to_dimacs();
    let written = if is_stdio(output) {
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes)
            .and_then(|_| out.flush())
            .map_err(|e| format!("<stdout>: cannot write: {e}"))
    } else {
        save_atomic(output, &bytes).map_err(|e| e.to_string())
    };
    if let Err(e) = written {
        return fail(e);
    }
    eprintln!("{} variables, {} clauses", cnf.vars, cnf.clauses);
    EXIT_OK
}

pub fn run_from_model(model: &Path, level: &Path, output: Option<&Path>) -> i32 {
    let game = match read_input(level) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let text = match std::fs::read(model) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return fail(format!("{}: cannot read: {e}", model.display())),
    };
    let cnf = encode(&game);
    let name = model.display().to_string();
    let values = match parse_model(&name, &text, cnf.vars) {
        Ok(SatAnswer::Model(v)) => v,
        Ok(SatAnswer::Unsatisfiable) => {
            println!("SOLVED: false");
            eprintln!("the SAT solver reports UNSATISFIABLE: the level has no solution");
            return EXIT_NO;
        }
        Ok(SatAnswer::Unknown) => {
            println!("SOLVED: false");
            eprintln!("the SAT solver gave up (UNKNOWN); nothing written");
            return EXIT_CANCELLED;
        }
        Err(e) => return fail(e),
    };
    let solution = match decode(&game, &cnf, &values) {
        Ok(g) => g,
        Err(e) => return fail(format!("{name}: {e}")),
    };
    if let Some(d) = first_defect(&solution) {
        println!("SOLVED: false");
        eprintln!("{name}: the model does not solve the level ({d}); nothing written");
        return EXIT_NO;
    }
    if let Some(out) = output
        && let Err(e) = write_output(out, &solution)
    {
        return fail(e);
    }
    if !output.is_some_and(is_stdio) {
        println!("SOLVED: true");
    } else {
        eprintln!("SOLVED: true");
    }
    EXIT_OK
}

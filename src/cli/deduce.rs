//! The explained-deduction modes: `--hint FILE [--state GRID]`, `--explain-solve FILE`,
//! `--grade FILE`, and `--generate ... --difficulty D`. Every level goes through the deduction
//! ladder ([`crate::deduce`]) as a board level (a course level as its bounded square board).
//! A solve that gets stuck guesses from the solver's verified solution, so the sequence always
//! ends; a contradiction is reported as "no solution" (exit 1).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::{Args, BoardGen, Reading, View};
use super::board::{Loaded, read};
use super::error::CliError;
use super::interrupt;
use super::out;
use super::run::{EXIT_CANCELLED, EXIT_NO, EXIT_OK, check_outputs, save};
use crate::anyboard::{self, Outcome};
use crate::board::{Board, BoardLevel, Rules};
use crate::deduce::grade::{End, grade_with, solve_steps_with};
use crate::deduce::{Deduction, Difficulty, Grade, Position, Rule, cell_name, grade, mask_name};

/// Which explained-deduction mode.
#[derive(Debug, Clone, PartialEq)]
pub enum DeduceMode {
    /// `--hint`, with `--state`'s turns if given.
    Hint(Option<PathBuf>),
    /// `--explain-solve`, with `--render`'s picture or pictures if given.
    ExplainSolve(Option<Pictures>),
    /// `--grade`.
    Grade,
}

/// What `--explain-solve --render PATH` draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Pictures {
    /// `FILE.svg`: the solution with the hardest step's cells shaded.
    Hardest(PathBuf),
    /// `FOLDER/`: one picture per step, `step-00001.svg` on.
    Steps(PathBuf),
}

/// True when `--render`'s path names a folder (it ends in a separator or is one): with
/// `--explain-solve`, a picture per step goes there.
pub(super) fn is_folder(path: &Path) -> bool {
    path.as_os_str()
        .to_string_lossy()
        .ends_with(std::path::MAIN_SEPARATOR)
        || path.as_os_str().to_string_lossy().ends_with('/')
        || path.is_dir()
}

/// One explained-deduction run.
#[derive(Debug, Clone, PartialEq)]
pub struct DeduceJob {
    /// The level (`-`: standard input).
    pub input: PathBuf,
    /// `--wrap`/`--rules`.
    pub reading: Reading,
    /// The mode.
    pub mode: DeduceMode,
    /// `--json`.
    pub json: bool,
}

/// The job of `args` when it names one of the modes here.
pub(super) fn job(args: &Args, reading: Reading, view: &View) -> Result<Option<DeduceJob>, String> {
    let (input, mode) = if let Some(f) = &args.hint {
        (f, DeduceMode::Hint(args.state.clone()))
    } else if let Some(f) = &args.explain_solve {
        let pictures = match view.render.as_ref().map(|(p, _)| p) {
            None => None,
            Some(p) if is_folder(p) => Some(Pictures::Steps(p.clone())),
            Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg")) => {
                Some(Pictures::Hardest(p.clone()))
            }
            Some(_) => {
                return Err(
                    "--explain-solve --render draws an SVG: give FILE.svg, or FOLDER/ for one per step"
                        .into(),
                );
            }
        };
        (f, DeduceMode::ExplainSolve(pictures))
    } else if let Some(f) = &args.grade {
        (f, DeduceMode::Grade)
    } else {
        return Ok(None);
    };
    Ok(Some(DeduceJob {
        input: input.clone(),
        reading,
        mode,
        json: args.json,
    }))
}

fn load(path: &Path, reading: Reading) -> Result<BoardLevel, CliError> {
    Ok(match read(path, reading)? {
        Loaded::Course(game) => BoardLevel::from_game(&game),
        Loaded::Board(level, _) => level,
    })
}

/// Runs `job`.
pub(super) fn run(job: DeduceJob) -> Result<i32, CliError> {
    let t0 = Instant::now();
    let level = load(&job.input, job.reading)?;
    match &job.mode {
        DeduceMode::Hint(state) => {
            let state = match state {
                Some(p) => load(p, job.reading)?,
                None => level.clone(),
            };
            if !state.is_turning_of(&level) {
                return Err(CliError::Read(format!(
                    "{}: --state must be the same board, rules and pieces as {} (each piece a turn of the level's, locked ones unturned)",
                    job.mode_path().display(),
                    job.input.display()
                )));
            }
            run_hint(&level, &state, job.json)
        }
        DeduceMode::ExplainSolve(pictures) => run_explain(&level, pictures.as_ref()),
        DeduceMode::Grade => run_grade(&level, job.json, t0),
    }
}

impl DeduceJob {
    fn mode_path(&self) -> &Path {
        match &self.mode {
            DeduceMode::Hint(Some(p)) => p,
            _ => &self.input,
        }
    }
}

/// The masks of a verified solution of `level`, or the exit code when there is none.
fn solution(level: &BoardLevel) -> Result<Vec<u8>, i32> {
    interrupt::cooperative(true);
    solve_watched(level)
}

/// [`solution`] without marking the process as watching [`interrupt::CANCEL`]: the caller
/// does when it waits for the answer.
fn solve_watched(level: &BoardLevel) -> Result<Vec<u8>, i32> {
    // A plain course level goes to the bounded square engine, as --solve sends it: the
    // any-board search is far slower on its large regions.
    if let Some(game) = level.to_game().filter(|_| !level.needs_net_engine()) {
        let opts = crate::solve::SolveOptions::default();
        return match crate::solve::solve(&game, &opts, &interrupt::CANCEL).0 {
            crate::solve::Outcome::Solved(sol) => {
                Ok(sol.cells().iter().map(|p| p.mask()).collect())
            }
            crate::solve::Outcome::Unsolvable => Err(EXIT_NO),
            _ => Err(EXIT_CANCELLED),
        };
    }
    match anyboard::solve_level(level, None, &interrupt::CANCEL).0 {
        Outcome::Solved(sol) => Ok(sol.masks().to_vec()),
        Outcome::NoSolution => Err(EXIT_NO),
        Outcome::TimedOut | Outcome::Cancelled => Err(EXIT_CANCELLED),
    }
}

/// Runs the ladder to the end, guessing from a solution when stuck (the solver runs only
/// then, and only while `each` still wants steps): the deductions and the ending, or an exit
/// code when there is no solution to guess from.
fn full_solve(
    level: &BoardLevel,
    mut each: impl FnMut(&Position, &Deduction) -> bool,
) -> Result<End, i32> {
    let stop = std::cell::Cell::new(false);
    let mut failed = None;
    let end = solve_steps_with(
        level,
        6,
        || {
            if stop.get() {
                return None;
            }
            solution(level).map_err(|code| failed = Some(code)).ok()
        },
        |p, d| {
            if !stop.get() {
                stop.set(!each(p, d));
            }
        },
    );
    match failed {
        Some(code) => Err(code),
        None => Ok(end),
    }
}

/// The JSON of a deduction.
fn json(pos: &Position, d: &Deduction) -> serde_json::Value {
    let b = pos.board();
    let rc = |c: usize| {
        let (r, col) = b.row_col(c);
        serde_json::json!([r, col])
    };
    let names = |bits: u8| -> Vec<String> {
        d.masks(pos, bits)
            .into_iter()
            .map(|m| mask_name(b, m))
            .collect()
    };
    serde_json::json!({
        "rule": d.rule.name(),
        "rung": d.rule.rung(),
        "cell": rc(d.cell),
        "cells": d.read.iter().map(|&c| rc(c)).collect::<Vec<_>>(),
        "removed": names(d.before & !d.after),
        "left": names(d.after),
        "fixed": (d.after.count_ones() == 1).then(|| names(d.after)[0].clone()),
        "conclusion": d.conclusion(pos),
        "why": d.why(pos),
    })
}

/// `--hint`: the first deduction whose conclusion the current turns (`state`) break.
fn run_hint(level: &BoardLevel, state: &BoardLevel, as_json: bool) -> Result<i32, CliError> {
    if anyboard::first_fault(state).is_none() {
        out::line("SOLVED: true")?;
        return Ok(EXIT_OK);
    }
    let mut hint: Option<(serde_json::Value, Vec<String>, bool)> = None;
    let end = full_solve(level, |pos, d| {
        let o = pos.orientation_of(d.cell, state.masks()[d.cell]);
        if o.is_some_and(|o| d.after >> o & 1 == 1) {
            return true;
        }
        let cells: Vec<String> = d.read.iter().map(|&c| cell_name(pos.board(), c)).collect();
        let text = vec![
            format!("rule: {} (rung {})", d.rule.name(), d.rule.rung()),
            format!("cells: {}", cells.join(" ")),
            format!("conclusion: {}", d.conclusion(pos)),
            format!("why: {}", d.why(pos)),
        ];
        hint = Some((json(pos, d), text, d.after == 0));
        false
    });
    let end = match end {
        Ok(e) => e,
        Err(code) => return Ok(no_solution_exit(code)),
    };
    let Some((value, text, empty)) = hint else {
        // Every deduction agrees with the turns, yet they are not solved: a contradiction
        // found by the joins, not by a deduction's own cell.
        out::line("SOLVED: false")?;
        errln!("no hint: {}", describe_end(level.board(), end));
        return Ok(EXIT_NO);
    };
    if as_json {
        out::line(&value.to_string())?;
    } else {
        for l in text {
            out::line(&l)?;
        }
    }
    Ok(if empty || matches!(end, End::NoSolution(_)) {
        EXIT_NO
    } else {
        EXIT_OK
    })
}

fn no_solution_exit(code: i32) -> i32 {
    if code == EXIT_NO {
        let _ = out::line("SOLVED: false");
        errln!("no solution: the search was exhausted");
    } else {
        errln!("cancelled before a solution to guess from");
    }
    code
}

fn describe_end(board: &Board, end: End) -> String {
    use crate::deduce::Contradiction;
    let name = |c| cell_name(board, c);
    match end {
        End::Solved => "solved".into(),
        End::Stuck => "stuck below a guess".into(),
        End::NoSolution(Contradiction::Empty(c)) => {
            format!("no solution: {} has no orientation left", name(c))
        }
        End::NoSolution(Contradiction::Loop(c, _)) => {
            format!("no solution: a loop closes at {}", name(c))
        }
        End::NoSolution(Contradiction::Island(c)) => {
            format!("no solution: an island closes at {}", name(c))
        }
    }
}

/// `--explain-solve`: every step, one a line, then the verdict.
fn run_explain(level: &BoardLevel, pictures: Option<&Pictures>) -> Result<i32, CliError> {
    let mut steps = match pictures {
        Some(Pictures::Hardest(p)) => {
            check_outputs([p.as_path()])?;
            None
        }
        Some(Pictures::Steps(dir)) => Some(StepPictures::new(level, dir)?),
        None => None,
    };
    let mut n = 0usize;
    let mut failure = None;
    let mut hardest: Option<(u8, Vec<usize>)> = None;
    let end = full_solve(level, |pos, d| {
        n += 1;
        if hardest.as_ref().is_none_or(|(r, _)| d.rule.rung() > *r) {
            hardest = Some((d.rule.rung(), d.read.clone()));
        }
        let line = format!(
            "{n}. [{} {}] {} -- {}",
            d.rule.rung(),
            d.rule.name(),
            d.conclusion(pos),
            d.why(pos)
        );
        let drawn = match steps.as_mut() {
            Some(s) => s.draw(n, pos, d),
            None => Ok(true),
        };
        match drawn.and_then(|more| out::line(&line).map(|()| more)) {
            Ok(more) => more,
            Err(e) => {
                failure = Some(e);
                false
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if steps.is_some() && interrupt::cancelled() {
        return Ok(super::run::cancelled("while drawing the steps"));
    }
    let end = match end {
        Ok(e) => e,
        Err(code) => return Ok(no_solution_exit(code)),
    };
    match end {
        End::Solved => {
            out::line("SOLVED: true")?;
            if let Some(Pictures::Hardest(p)) = pictures {
                let mut solved = level.clone();
                match solution(level) {
                    Ok(sol) => solved.masks_mut().copy_from_slice(&sol),
                    Err(code) => return Ok(code),
                }
                let cells = hardest.map(|(_, c)| c).unwrap_or_default();
                let svg = crate::render::board_svg::board_svg(&solved, &cells);
                save(p, svg.as_bytes())?;
            }
            Ok(EXIT_OK)
        }
        other => {
            out::line("SOLVED: false")?;
            errln!("{}", describe_end(level.board(), other));
            Ok(EXIT_NO)
        }
    }
}

/// `--explain-solve --render FOLDER/`: after each step, the level with every piece decided
/// so far turned its way (the others as the level has them) and the step's cells shaded.
struct StepPictures {
    dir: PathBuf,
    now: BoardLevel,
}

impl StepPictures {
    fn new(level: &BoardLevel, dir: &Path) -> Result<StepPictures, CliError> {
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError::Output(format!(
                "--render {}: cannot make the folder: {e}",
                dir.display()
            ))
        })?;
        Ok(StepPictures {
            dir: dir.to_path_buf(),
            now: level.clone(),
        })
    }

    /// Writes step `n`'s picture; false when cancelled.
    fn draw(&mut self, n: usize, pos: &Position, d: &Deduction) -> Result<bool, CliError> {
        if pos.decided(d.cell) {
            self.now.masks_mut()[d.cell] = pos.mask(d.cell, pos.dom[d.cell].trailing_zeros());
        }
        let svg = crate::render::board_svg::board_svg(&self.now, &d.read);
        save(&self.dir.join(format!("step-{n:05}.svg")), svg.as_bytes())
    }
}

/// The grade of `level`, guessing from a solution when the ladder is stuck; the exit code
/// when there is no solution. A level for the square engine is solved on a thread of its own
/// beside the ladder, so that when it needs a guess the solution is ready (or nearly) when the
/// ladder first gets stuck, instead of the solve starting then; when the ladder needs no
/// guess the thread is not waited for (the process ends after the grade). Other levels (Net
/// rules, other boards: graded in a few milliseconds, their search slower than that) are
/// solved only when the ladder gets stuck. A signal ends the process at once while the ladder
/// runs, and cancels the solve once the ladder waits for it.
pub(super) fn grade_level(level: &BoardLevel) -> Result<Grade, i32> {
    let mut solver = (level.to_game().is_some() && !level.needs_net_engine()).then(|| {
        let level = level.clone();
        std::thread::spawn(move || solve_watched(&level))
    });
    let mut failed = None;
    let g = grade_with(level, || {
        interrupt::cooperative(true);
        let found = match solver.take() {
            Some(thread) => thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => solve_watched(level),
        };
        found.map_err(|code| failed = Some(code)).ok()
    });
    match failed {
        Some(code) => Err(code),
        None => Ok(g),
    }
}

/// `--grade`.
fn run_grade(level: &BoardLevel, as_json: bool, t0: Instant) -> Result<i32, CliError> {
    let g = match grade_level(level) {
        Ok(g) => g,
        Err(code) => return Ok(no_solution_exit(code)),
    };
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let difficulty = match (g.end, Difficulty::of_rung(g.rung)) {
        (End::NoSolution(_), _) => "no solution",
        (_, Some(d)) => d.name(),
        (_, None) => "needs search",
    };
    if as_json {
        let rules: serde_json::Map<String, serde_json::Value> = Rule::ALL
            .iter()
            .zip(g.counts)
            .map(|(r, n)| (r.name().to_string(), n.into()))
            .collect();
        let value = serde_json::json!({
            "rung": g.rung,
            "difficulty": difficulty,
            "score": (g.score * 1000.0).round() / 1000.0,
            "steps": g.steps,
            "cells": level.board().len(),
            "rules": rules,
            "solved": g.end == End::Solved,
            "ms": ms,
        });
        out::line(&value.to_string())?;
    } else {
        out::line(&format!("GRADE: rung {} ({difficulty})", g.rung))?;
        out::line(&format!("score: {:.3}", g.score))?;
        out::line(&format!("steps: {}", g.steps))?;
        for (r, n) in Rule::ALL.iter().zip(g.counts) {
            if n > 0 {
                out::line(&format!("{} (rung {}): {n}", r.name(), r.rung()))?;
            }
        }
    }
    Ok(match g.end {
        End::NoSolution(_) => EXIT_NO,
        _ => EXIT_OK,
    })
}

/// `--generate ... --difficulty D`: a unique level of that difficulty on the board.
pub(super) fn run_generate(
    output: Option<PathBuf>,
    size: (usize, usize),
    seed: Option<u64>,
    want: Difficulty,
    view: &View,
    gen_board: BoardGen,
) -> Result<i32, CliError> {
    let outputs = output.iter().chain(view.render.iter().map(|(p, _)| p));
    check_outputs(outputs.map(PathBuf::as_path))?;
    let board =
        Board::new(gen_board.tiling, size.0, size.1, gen_board.wrap).map_err(CliError::Usage)?;
    let seed = seed.unwrap_or_else(|| {
        let s = fastrand::u64(..);
        errln!("seed: {s}");
        s
    });
    interrupt::cooperative(true);
    let rules = gen_board.rules.unwrap_or(Rules::Infinity);
    let deadline = Instant::now() + GENERATE_LIMIT;
    let made = crate::generate::board_difficulty::make_to_difficulty(
        &board,
        rules,
        want,
        seed,
        (u32::MAX, Some(deadline)),
        &interrupt::CANCEL,
    );
    let made = match made {
        Ok(m) => m,
        Err(_) if interrupt::cancelled() => {
            return Ok(super::run::cancelled("while making the level"));
        }
        Err(e) => {
            errln!("error: {e}; nothing written");
            return Ok(EXIT_NO);
        }
    };
    errln!(
        "{} level (rung {}, score {:.3}) after {} unique level{}",
        want.name(),
        made.grade.rung,
        made.grade.score,
        made.attempts,
        if made.attempts == 1 { "" } else { "s" }
    );
    let mut level = made.level;
    if let Some(p) = gen_board.barriers.filter(|_| rules == Rules::Net) {
        // Barriers only take solutions away, but they also help the deductions: regrade.
        let walls =
            crate::generate::board_families::net_barriers(&made.solution, p, seed ^ 0x6261_7272);
        level = level
            .with_barriers(walls)
            .expect("barriers drawn on both ends of each side");
        let g = grade(&level, None);
        errln!(
            "with barriers: rung {} ({})",
            g.rung,
            Difficulty::of_rung(g.rung).map_or("needs search", |d| d.name())
        );
    }
    // A plain bounded square level is written in the course format, as `--generate` writes
    // one without --difficulty (unless the file name asks for JSON or an SGT ID).
    let special = output.as_deref().is_some_and(|p| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("sgt"))
    });
    match level.to_game() {
        Some(game) if rules == Rules::Infinity && !special => {
            if let Some(path) = &output
                && !super::run::save_game(path, &game)?
            {
                return Ok(super::run::cancelled("while writing the level"));
            }
            let on_stdout = output.as_deref().is_some_and(super::run::is_stdio);
            super::board::show(&level, view, on_stdout)?;
            Ok(EXIT_OK)
        }
        _ => super::board::write_generated(&level, output.as_deref(), view),
    }
}

/// Time `--difficulty` spends making unique levels before it gives up.
const GENERATE_LIMIT: Duration = Duration::from_secs(60);

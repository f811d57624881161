//! `--bench DIR`: the solver comparison table on stdout (one row per level file, printed as soon
//! as the file is done), a progress bar on stderr when it is a terminal, and optionally CSV
//! (`--csv -`: the CSV owns stdout and the table goes to stderr) and an SVG chart (`--plot`).
//! Exit 0 when every answer was right, 1 when some method or external solver gave a wrong
//! answer, 2 when the folder cannot be read or a file is not a valid level (it is marked in the
//! table and the run goes on), 3 when a signal stopped the run.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::error::CliError;
use super::interrupt;
use super::out::{self, escape_controls};
use super::run::{EXIT_CANCELLED, EXIT_NO, EXIT_OK, EXIT_USAGE, check_outputs, is_stdio};
use crate::bench::table::{csv_header, csv_row, csv_unreadable, header, row_line, unreadable_line};
use crate::bench::{
    BenchOptions, ExternalSolver, RunResult, bench_board_level, bench_level, columns, level_files,
};
use crate::level::any::{AnyLevel, load_any};
use crate::level::{Saved, save_cancellable};

/// What `--bench` was asked to do.
pub struct BenchRun<'a> {
    /// The folder of levels.
    pub dir: &'a Path,
    /// The time limit of each run.
    pub timeout: Duration,
    /// `--csv`: where the CSV goes.
    pub csv: Option<&'a Path>,
    /// `--plot`: where the SVG chart goes.
    pub plot: Option<&'a Path>,
    /// `-t`: worker threads of each of our runs.
    pub threads: usize,
    /// `--solver`: the other programs.
    pub solvers: &'a [ExternalSolver],
}

/// `--bench`: runs every method and external solver on every level of the folder, prints a
/// table (and maybe a CSV and a chart); 1 when some answer was wrong.
pub fn run_bench(job: &BenchRun) -> Result<i32, CliError> {
    let (dir, timeout, csv_path, threads) = (job.dir, job.timeout, job.csv, job.threads);
    check_outputs(csv_path)?;
    check_outputs(job.plot)?;
    if let (Some(a), Some(b)) = (csv_path, job.plot)
        && a == b
    {
        return Err(CliError::Usage(
            "--csv and --plot name the same file; give each its own".into(),
        ));
    }
    if job.plot.is_some_and(is_stdio) && csv_path.is_some_and(is_stdio) {
        return Err(CliError::Usage(
            "--csv - and --plot - cannot both use stdout".into(),
        ));
    }
    let files = match level_files(dir) {
        Ok(f) => f,
        Err(e) => {
            return Err(CliError::Read(format!(
                "{}: cannot read the folder: {e}",
                dir.display()
            )));
        }
    };
    if files.is_empty() {
        return Err(CliError::Read(format!(
            "{}: no level files in this folder",
            dir.display()
        )));
    }
    let stdout_taken = csv_path.is_some_and(is_stdio) || job.plot.is_some_and(is_stdio);
    // The table goes where the CSV or chart does not.
    let table = |text: &str| -> Result<(), CliError> {
        if stdout_taken {
            errln!("{text}");
            Ok(())
        } else {
            out::line(text)
        }
    };
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_name().map_or_else(String::new, |n| {
                escape_controls(&n.to_string_lossy()).replace('|', "\\|")
            })
        })
        .collect();
    let file_width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(4);
    let opts = BenchOptions {
        timeout,
        threads,
        cancel: Some(&interrupt::CANCEL),
        solvers: job.solvers,
    };
    let cols = columns(job.solvers);
    interrupt::cooperative(true);

    let total_runs = (files.len() * cols.len()) as u64;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total_runs);
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {elapsed} {wide_msg}")
            .expect("the template is valid");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    table(&header(file_width, &cols))?;
    let t0 = Instant::now();
    let mut rows = Vec::with_capacity(files.len());
    let mut wrong = 0;
    let mut bad_files = 0;
    // The CSV rows in the order of the files, the bad ones included.
    let mut csv_text = csv_header(&cols);
    for (path, name) in files.iter().zip(&names) {
        if interrupt::cancelled() || out::closed() {
            break;
        }
        let level = match load_any(path, false) {
            Ok((level, _)) => level,
            Err(e) => {
                // One bad file does not cost the others their runs.
                bad_files += 1;
                bar.inc(cols.len() as u64);
                let printed = bar.suspend(|| {
                    errln!("error: {}", escape_controls(&e.to_string()));
                    table(&unreadable_line(name, file_width, &cols))
                });
                if let Err(e) = printed {
                    bar.finish_and_clear();
                    return Err(e);
                }
                csv_text.push_str(&csv_unreadable(name, &cols));
                continue;
            }
        };
        bar.set_message(name.clone());
        let after_run = |column: &str, _: &RunResult| {
            bar.inc(1);
            bar.set_message(format!("{name} ({column} done)"));
        };
        let row = match &level {
            AnyLevel::Course(game) => bench_level(name, path, game, &opts, after_run),
            AnyLevel::Board(board) => bench_board_level(name, path, board, &opts, after_run),
        };
        if interrupt::cancelled() {
            break;
        }
        let printed = bar.suspend(|| {
            for (column, run) in cols.iter().zip(&row.runs) {
                match run {
                    RunResult::Wrong(why) => {
                        wrong += 1;
                        errln!("{name}: {column}: wrong answer: {why}");
                    }
                    RunResult::Failed(why) => {
                        errln!("{name}: {column}: failed: {}", escape_controls(why));
                    }
                    _ => {}
                }
            }
            table(&row_line(&row, file_width, &cols))
        });
        if let Err(e) = printed {
            bar.finish_and_clear();
            return Err(e);
        }
        csv_text.push_str(&csv_row(&row));
        rows.push(row);
    }
    bar.finish_and_clear();
    let count =
        |f: fn(&RunResult) -> bool| rows.iter().flat_map(|r| &r.runs).filter(|r| f(r)).count();
    let failed = count(|r| matches!(r, RunResult::Failed(_)));
    errln!(
        "{} file{}, {} runs in {:.1} s: {} solved, {} no-sol, {} TO, {} wrong, {}{} not a level (time limit {:.1} s, {} threads)",
        rows.len() + bad_files,
        if rows.len() + bad_files == 1 { "" } else { "s" },
        rows.len() * cols.len() - count(|r| matches!(r, RunResult::NotApplicable)),
        t0.elapsed().as_secs_f64(),
        count(|r| matches!(r, RunResult::Solved(_))),
        count(|r| matches!(r, RunResult::NoSolution(_))),
        count(|r| matches!(r, RunResult::TimedOut)),
        wrong,
        if failed > 0 {
            format!("{failed} failed, ")
        } else {
            String::new()
        },
        bad_files,
        timeout.as_secs_f64(),
        threads
    );
    if interrupt::cancelled() {
        errln!(
            "cancelled after {} of {} files; no CSV or chart written",
            rows.len() + bad_files,
            files.len()
        );
        return Ok(EXIT_CANCELLED);
    }
    if let Some(path) = csv_path
        && !save_text(path, &csv_text)?
    {
        return Ok(super::run::cancelled("while writing the CSV"));
    }
    if let Some(path) = job.plot
        && !save_text(path, &crate::bench::plot::svg(&rows, &cols, timeout))?
    {
        return Ok(super::run::cancelled("while writing the chart"));
    }
    if wrong > 0 {
        Ok(EXIT_NO)
    } else if bad_files > 0 {
        Ok(EXIT_USAGE)
    } else {
        Ok(EXIT_OK)
    }
}

/// Writes `text` to `path` (`-`: stdout); false when a signal stopped the write.
fn save_text(path: &Path, text: &str) -> Result<bool, CliError> {
    if is_stdio(path) {
        return out::bytes(text.as_bytes()).map(|()| true);
    }
    match save_cancellable(path, text.as_bytes(), &interrupt::CANCEL) {
        Ok(Saved::Written) => Ok(true),
        Ok(Saved::Cancelled) => Ok(false),
        Err(e) => Err(CliError::Output(e.to_string())),
    }
}

//! `--bench DIR`: the solver comparison table on stdout (one row per level file, printed as soon
//! as the file is done), a progress bar on stderr when it is a terminal, and optionally CSV
//! (`--csv -`: the CSV owns stdout and the table goes to stderr).
//! Exit 0 when every answer was right, 1 when some method gave a wrong answer, 2 when the folder
//! cannot be read or a file is not a valid level (it is marked in the table and the run goes
//! on), 3 when a signal stopped the run.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::error::CliError;
use super::interrupt;
use super::out::{self, escape_controls};
use super::run::{EXIT_CANCELLED, EXIT_NO, EXIT_OK, EXIT_USAGE, check_outputs, is_stdio};
use crate::bench::table::{csv_header, csv_row, csv_unreadable, header, row_line, unreadable_line};
use crate::bench::{BenchOptions, METHODS, RunResult, bench_level, level_files};
use crate::level::{Saved, load_level, save_cancellable};

/// `--bench`: runs every method on every level of `dir`, prints a table (and maybe a CSV); 1 when a method gave a wrong answer.
pub fn run_bench(
    dir: &Path,
    timeout: Duration,
    csv_path: Option<&Path>,
    threads: usize,
) -> Result<i32, CliError> {
    check_outputs(csv_path)?;
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
    let csv_on_stdout = csv_path.is_some_and(is_stdio);
    // The table goes where the CSV does not.
    let table = |text: &str| -> Result<(), CliError> {
        if csv_on_stdout {
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
    };
    interrupt::cooperative(true);

    let total_runs = (files.len() * METHODS.len()) as u64;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total_runs);
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {elapsed} {wide_msg}")
            .expect("the template is valid");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    table(&header(file_width))?;
    let t0 = Instant::now();
    let mut rows = Vec::with_capacity(files.len());
    let mut wrong = 0;
    let mut bad_files = 0;
    // The CSV rows in the order of the files, the bad ones included.
    let mut csv_text = csv_header();
    for (path, name) in files.iter().zip(&names) {
        if interrupt::cancelled() || out::closed() {
            break;
        }
        let game = match load_level(path) {
            Ok(g) => g,
            Err(e) => {
                // One bad file does not cost the others their runs.
                bad_files += 1;
                bar.inc(METHODS.len() as u64);
                let printed = bar.suspend(|| {
                    errln!("error: {}", escape_controls(&e.to_string()));
                    table(&unreadable_line(name, file_width))
                });
                if let Err(e) = printed {
                    bar.finish_and_clear();
                    return Err(e);
                }
                csv_text.push_str(&csv_unreadable(name));
                continue;
            }
        };
        bar.set_message(name.clone());
        let row = bench_level(name, &game, &opts, |method, _| {
            bar.inc(1);
            bar.set_message(format!(
                "{name} ({} done)",
                format!("{method:?}").to_lowercase()
            ));
        });
        if interrupt::cancelled() {
            break;
        }
        let printed = bar.suspend(|| {
            for (method, run) in METHODS.iter().zip(&row.runs) {
                if let RunResult::Wrong(why) = run {
                    wrong += 1;
                    errln!("{name}: {method:?}: wrong answer: {why}");
                }
            }
            table(&row_line(&row, file_width))
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
    errln!(
        "{} file{}, {} runs in {:.1} s: {} solved, {} no-sol, {} TO, {} wrong, {} not a level (time limit {:.1} s, {} threads)",
        rows.len() + bad_files,
        if rows.len() + bad_files == 1 { "" } else { "s" },
        rows.len() * METHODS.len(),
        t0.elapsed().as_secs_f64(),
        count(|r| matches!(r, RunResult::Solved(_))),
        count(|r| matches!(r, RunResult::NoSolution(_))),
        count(|r| matches!(r, RunResult::TimedOut)),
        wrong,
        bad_files,
        timeout.as_secs_f64(),
        threads
    );
    if interrupt::cancelled() {
        errln!(
            "cancelled after {} of {} files; no CSV written",
            rows.len() + bad_files,
            files.len()
        );
        return Ok(EXIT_CANCELLED);
    }
    if let Some(path) = csv_path {
        let text = csv_text;
        let saved = if is_stdio(path) {
            out::bytes(text.as_bytes()).map(|()| Saved::Written)
        } else {
            save_cancellable(path, text.as_bytes(), &interrupt::CANCEL)
                .map_err(|e| CliError::Output(e.to_string()))
        };
        match saved {
            Ok(Saved::Written) => {}
            Ok(Saved::Cancelled) => return Ok(super::run::cancelled("while writing the CSV")),
            Err(e) => return Err(e),
        }
    }
    if wrong > 0 {
        Ok(EXIT_NO)
    } else if bad_files > 0 {
        Ok(EXIT_USAGE)
    } else {
        Ok(EXIT_OK)
    }
}

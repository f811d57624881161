//! `--bench DIR`: the solver comparison table on stdout (one row per level file, printed as soon
//! as the file is done), a progress bar on stderr when it is a terminal, and optionally CSV.
//! Exit 0 when every answer was right, 1 when some method gave a wrong answer, 2 when the folder
//! or one of its files cannot be read (checked before any run starts).

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::run::{EXIT_NO, EXIT_OK, fail};
use crate::bench::table::{csv, header, row_line};
use crate::bench::{BenchOptions, METHODS, RunResult, bench_level, level_files};
use crate::level::{load_level, save_atomic};

pub fn run_bench(dir: &Path, timeout: Duration, csv_path: Option<&Path>, threads: usize) -> i32 {
    let files = match level_files(dir) {
        Ok(f) => f,
        Err(e) => return fail(format!("{}: cannot read the folder: {e}", dir.display())),
    };
    if files.is_empty() {
        return fail(format!("{}: no level files in this folder", dir.display()));
    }
    // A bad file is reported before hours of runs, not after.
    for f in &files {
        if let Err(e) = load_level(f) {
            return fail(e);
        }
    }
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let file_width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(4);
    let opts = BenchOptions { timeout, threads };

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
    println!("{}", header(file_width));
    let t0 = Instant::now();
    let mut rows = Vec::with_capacity(files.len());
    let mut wrong = 0;
    for (path, name) in files.iter().zip(&names) {
        let game = match load_level(path) {
            Ok(g) => g,
            Err(e) => {
                bar.finish_and_clear();
                return fail(e);
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
        bar.suspend(|| {
            println!("{}", row_line(&row, file_width));
            for (method, run) in METHODS.iter().zip(&row.runs) {
                if let RunResult::Wrong(why) = run {
                    wrong += 1;
                    eprintln!("{name}: {method:?}: wrong answer: {why}");
                }
            }
        });
        rows.push(row);
    }
    bar.finish_and_clear();
    let count =
        |f: fn(&RunResult) -> bool| rows.iter().flat_map(|r| &r.runs).filter(|r| f(r)).count();
    eprintln!(
        "{} files, {} runs in {:.1} s: {} solved, {} no-sol, {} TO, {} wrong (time limit {:.1} s, {} threads)",
        rows.len(),
        total_runs,
        t0.elapsed().as_secs_f64(),
        count(|r| matches!(r, RunResult::Solved(_))),
        count(|r| matches!(r, RunResult::NoSolution(_))),
        count(|r| matches!(r, RunResult::TimedOut)),
        wrong,
        timeout.as_secs_f64(),
        threads
    );
    if let Some(path) = csv_path
        && let Err(e) = save_atomic(path, csv(&rows).as_bytes())
    {
        return fail(e);
    }
    if wrong > 0 { EXIT_NO } else { EXIT_OK }
}

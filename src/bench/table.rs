//! Formatting of benchmark rows: an aligned Markdown table (readable in a terminal and pasteable
//! into a report) and CSV. A run shows its milliseconds, `no-sol` when the method proved there
//! is no solution, `TO` when it ran out of time, `WRONG` for a wrong answer and `FAIL` for an
//! external solver that ended without either, `-` (CSV `n/a`) for a method that does not apply
//! to the level's board or rules. The columns are [`super::columns`].

use super::{Row, RunResult};

const SIZE_WIDTH: usize = 9;
const FAMILY_WIDTH: usize = 15;
const RUN_WIDTH: usize = 9;

/// Width of a run column: its header `NAME ms` or the widest cell text.
fn run_width(column: &str) -> usize {
    (column.len() + 3).max(RUN_WIDTH)
}

/// Text of one run in the table.
pub fn run_text(run: &RunResult) -> String {
    match run {
        RunResult::Solved(d) => format!("{:.1}", d.as_secs_f64() * 1e3),
        RunResult::NoSolution(_) => "no-sol".into(),
        RunResult::TimedOut => "TO".into(),
        RunResult::Wrong(_) => "WRONG".into(),
        RunResult::Failed(_) => "FAIL".into(),
        RunResult::NotApplicable => "-".into(),
    }
}

/// The header and separator lines of the table, for file names up to `file_width` long.
pub fn header(file_width: usize, columns: &[String]) -> String {
    let mut line = format!(
        "| {:<file_width$} | {:>SIZE_WIDTH$} | {:<FAMILY_WIDTH$} |",
        "file", "size", "family"
    );
    let mut sep = format!(
        "|{}|{}:|{}|",
        "-".repeat(file_width + 2),
        "-".repeat(SIZE_WIDTH + 1),
        "-".repeat(FAMILY_WIDTH + 2)
    );
    for c in columns {
        let w = run_width(c);
        line.push_str(&format!(" {:>w$} |", format!("{c} ms")));
        sep.push_str(&format!("{}:|", "-".repeat(w + 1)));
    }
    format!("{line}\n{sep}")
}

/// One row of the table.
pub fn row_line(row: &Row, file_width: usize, columns: &[String]) -> String {
    let size = format!("{}x{}", row.width, row.height);
    let mut line = format!(
        "| {:<file_width$} | {:>SIZE_WIDTH$} | {:<FAMILY_WIDTH$} |",
        row.file, size, row.family
    );
    for (run, c) in row.runs.iter().zip(columns) {
        let w = run_width(c);
        line.push_str(&format!(" {:>w$} |", run_text(run)));
    }
    line
}

/// The rows as CSV: per column a result (`solved`, `no-sol`, `TO`, `WRONG`, `FAIL`) and the
/// milliseconds (empty but for `solved` and `no-sol`).
pub fn csv(rows: &[Row], columns: &[String]) -> String {
    let mut out = csv_header(columns);
    for row in rows {
        out.push_str(&csv_row(row));
    }
    out
}

/// The CSV's first line, with its line end.
pub fn csv_header(columns: &[String]) -> String {
    let mut out = String::from("file,width,height,family");
    for m in columns {
        out.push_str(&format!(",{m}_result,{m}_ms"));
    }
    out.push('\n');
    out
}

/// One row of the CSV, with its line end.
pub fn csv_row(row: &Row) -> String {
    let mut out = format!(
        "{},{},{},{}",
        csv_field(&row.file),
        row.width,
        row.height,
        csv_field(&row.family)
    );
    for run in &row.runs {
        let (result, ms) = match run {
            RunResult::Solved(d) => ("solved", format!("{:.3}", d.as_secs_f64() * 1e3)),
            RunResult::NoSolution(d) => ("no-sol", format!("{:.3}", d.as_secs_f64() * 1e3)),
            RunResult::TimedOut => ("TO", String::new()),
            RunResult::Wrong(_) => ("WRONG", String::new()),
            RunResult::Failed(_) => ("FAIL", String::new()),
            RunResult::NotApplicable => ("n/a", String::new()),
        };
        out.push_str(&format!(",{result},{ms}"));
    }
    out.push('\n');
    out
}

/// The table line of a file that is not a valid level: the same columns, no runs.
pub fn unreadable_line(file: &str, file_width: usize, columns: &[String]) -> String {
    let mut line = format!(
        "| {file:<file_width$} | {:>SIZE_WIDTH$} | {:<FAMILY_WIDTH$} |",
        "-", "not a level"
    );
    for c in columns {
        let w = run_width(c);
        line.push_str(&format!(" {:>w$} |", "-"));
    }
    line
}

/// The CSV row of a file that is not a valid level: empty size, `not a level` as the family
/// and as every method's result.
pub fn csv_unreadable(file: &str, columns: &[String]) -> String {
    let mut out = format!("{},,,not a level", csv_field(file));
    for _ in columns {
        out.push_str(",not a level,");
    }
    out.push('\n');
    out
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{METHODS, columns};
    use std::time::Duration;

    fn ours() -> Vec<String> {
        columns(&[])
    }

    fn row() -> Row {
        let mut row = Row {
            file: "a,b.dat".into(),
            width: 8,
            height: 4,
            family: "dist.1".into(),
            runs: vec![
                RunResult::Solved(Duration::from_micros(1500)),
                RunResult::NoSolution(Duration::from_millis(2)),
                RunResult::TimedOut,
                RunResult::Wrong("x".into()),
            ],
        };
        // One run per method column (`cp` only with the `cp` feature).
        row.runs.resize(METHODS.len(), RunResult::TimedOut);
        row
    }

    #[test]
    fn table_lines_line_up() {
        let h = header(10, &ours());
        let r = row_line(&row(), 10, &ours());
        let lines: Vec<&str> = h.lines().chain([r.as_str()]).collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines.iter().all(|l| l.len() == lines[0].len()),
            "{lines:#?}"
        );
        assert!(r.contains(" 1.5 |") && r.contains(" no-sol |") && r.contains(" TO |"));
        assert!(r.contains(" WRONG |") && r.contains("     8x4 |"));
    }

    #[test]
    fn a_file_that_is_not_a_level_fills_every_column() {
        let t = unreadable_line("junk.txt", 10, &ours());
        assert_eq!(t.len(), header(10, &ours()).lines().next().unwrap().len());
        assert_eq!(t.matches('|').count(), 4 + METHODS.len());
        let c = csv_unreadable("junk.txt", &ours());
        assert_eq!(
            c.matches(',').count(),
            csv_header(&ours()).matches(',').count()
        );
    }

    #[test]
    fn csv_quotes_and_keeps_times() {
        let text = csv(&[row()], &ours());
        let lines: Vec<&str> = text.lines().collect();
        let mut head = String::from(
            "file,width,height,family,auto_result,auto_ms,csp_result,csp_ms,line_result,line_ms,snail_result,snail_ms",
        );
        if cfg!(feature = "cp") {
            head.push_str(",cp_result,cp_ms");
        }
        head.push_str(",learn_result,learn_ms");
        assert_eq!(lines[0], head);
        let extra = ",TO,".repeat(METHODS.len() - 4);
        assert_eq!(
            lines[1],
            format!("\"a,b.dat\",8,4,dist.1,solved,1.500,no-sol,2.000,TO,,WRONG,{extra}")
        );
    }

    #[test]
    fn an_external_column_is_as_wide_as_its_name() {
        let mut cols = ours();
        cols.push("a-long-solver-name".into());
        let mut r = row();
        r.runs.push(RunResult::Failed("crashed".into()));
        let h = header(10, &cols);
        let line = row_line(&r, 10, &cols);
        assert_eq!(line.len(), h.lines().next().unwrap().len());
        assert!(h.contains(" a-long-solver-name ms |"));
        assert!(line.ends_with(" FAIL |"));
        assert!(csv(&[r], &cols).trim_end().ends_with(",FAIL,"));
    }
}

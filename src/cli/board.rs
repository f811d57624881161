//! The commands on levels of any board (hexagonal, wrapped, or a bounded square level in our
//! board format or hexapipes' JSON): reading by content, and check, solve, count, unique
//! check, CNF, print/render and generate through the any-board engine. Course-format levels
//! keep their own path in `run` (the specialised bounded-square engine).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::{BoardGen, PictureFormat, Reading, View};
use super::error::CliError;
use super::interrupt;
use super::out;
use super::run::{
    EXIT_CANCELLED, EXIT_NO, EXIT_OK, cancelled, check_outputs, is_stdio, save, save_board_level,
    verdict,
};
use crate::anyboard::{self, Count, Outcome};
use crate::board::{Board, BoardLevel, Rules};
use crate::generate::board_families::{BoardFamily, generate_on_board};
use crate::generate::board_unsolvable::board_unsolvable_variant;
use crate::generate::unsolvable::Breakage;
use crate::generate::{Family, GenerateOptions};
use crate::level::any::{AnyLevel, LevelFormat, load_any, parse_any};
use crate::model::Game;
use crate::solve::Method;

/// A level as read: the course format, or a board level and the format it came in.
pub(super) enum Loaded {
    /// A course-format (bounded square) level.
    Course(Game),
    /// Any other level, and its file format (answers are written in the same one).
    Board(BoardLevel, LevelFormat),
}

/// Reads the level at `path` (`-`: standard input), telling the format by its content.
pub(super) fn read(path: &Path, reading: Reading) -> Result<Loaded, CliError> {
    let (level, format) = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map_err(|e| {
            CliError::Input(crate::level::LevelError::whole_file(
                "<stdin>",
                format!("cannot read: {e}"),
            ))
        })?;
        parse_any("<stdin>", &bytes, reading.wrap_default)?
    } else {
        load_any(path, reading.wrap_default)?
    };
    Ok(match (level, reading.rules) {
        // A course level under Net rules leaves the course engine, which knows no Net.
        (AnyLevel::Course(game), Some(Rules::Net)) => {
            Loaded::Board(BoardLevel::from_game(&game).with_rules(Rules::Net), format)
        }
        (AnyLevel::Course(game), _) => Loaded::Course(game),
        (AnyLevel::Board(level), Some(rules)) => Loaded::Board(level.with_rules(rules), format),
        (AnyLevel::Board(level), None) => Loaded::Board(level, format),
    })
}

/// `--check` of a board level.
pub(super) fn run_check(level: &BoardLevel, verbose: bool) -> Result<i32, CliError> {
    let (line, code) = match anyboard::first_fault(level) {
        None => ("SOLVED: true", EXIT_OK),
        Some(d) => {
            if verbose {
                errln!("{}", d.describe(level));
            }
            ("SOLVED: false", EXIT_NO)
        }
    };
    out::line(line)?;
    Ok(code)
}

/// The settings of a board `--solve`.
pub(super) struct BoardJob<'a> {
    pub(super) output: Option<&'a Path>,
    pub(super) format: LevelFormat,
    pub(super) stats: bool,
    pub(super) json: bool,
    pub(super) timeout: Option<Duration>,
    pub(super) view: &'a View,
    /// `-m`: the any-board search (auto, csp) or the SAT library (cp).
    pub(super) method: Method,
}

/// `-m` on a board level: the any-board search answers auto and csp; cp is the SAT library
/// on the board's formula, which knows no Net rules; line and snail are orders of the bounded
/// square engine's search and have no meaning elsewhere.
fn check_board_method(level: &BoardLevel, method: Method) -> Result<(), CliError> {
    #[cfg(feature = "cp")]
    if matches!(method, Method::Cp) {
        if level.rules() == Rules::Net {
            return Err(CliError::Usage(
                "-m cp solves a formula of the connections, which cannot say \"one tree\": under Net rules use -m auto".into(),
            ));
        }
        return Ok(());
    }
    #[cfg(not(feature = "cp"))]
    let _ = level;
    match method {
        Method::Auto | Method::Csp | Method::Learn => Ok(()),
        _ => Err(CliError::Usage(if level.rules() == Rules::Net {
            "-m line, snail and custom races order the bounded square engine's search: under Net rules use -m auto, csp or learn".into()
        } else {
            "-m line, snail and custom races order the bounded square engine's search: on this board use -m auto, csp, learn or cp".into()
        })),
    }
}

/// How long after `--timeout` a board's search that has not stopped is ended by force.
const SOLVE_GRACE: Duration = Duration::from_millis(400);

/// `--solve` of a board level: the verified solution in the format the level was read in.
pub(super) fn run_solve(level: &BoardLevel, job: &BoardJob, t0: Instant) -> Result<i32, CliError> {
    check_board_method(level, job.method)?;
    let parse_time = t0.elapsed();
    let to_stdout = !job.output.is_some_and(is_stdio);
    let say = |line: &str| verdict(to_stdout, line);
    interrupt::cooperative(true);
    let timeout = job.timeout.map(|t| t.saturating_sub(parse_time));
    let mut learned = None;
    let watch = interrupt::watch_solving(timeout, SOLVE_GRACE);
    let (outcome, st) = match job.method {
        #[cfg(feature = "cp")]
        Method::Cp => anyboard::cp::solve_sat(level, timeout, &interrupt::CANCEL),
        Method::Learn => {
            let (outcome, ls) = crate::learn::solve_learning(level, timeout, &interrupt::CANCEL);
            let st = ls.as_engine_stats();
            learned = Some(ls);
            (outcome, st)
        }
        Method::Auto => {
            let (outcome, st, ls) = crate::learn::solve_auto(level, timeout, &interrupt::CANCEL);
            learned = ls;
            (outcome, st)
        }
        _ => anyboard::solve_level(level, timeout, &interrupt::CANCEL),
    };
    drop(watch);
    let mut write_time = Duration::ZERO;
    let (code, word) = match outcome {
        Outcome::Solved(solution) => {
            let t = Instant::now();
            let written = match job.output {
                Some(path) => save_board_level(path, &solution, job.format)?,
                None => true,
            };
            write_time = t.elapsed();
            if written {
                say("SOLVED: true")?;
                show(&solution, job.view, !to_stdout)?;
                (EXIT_OK, "solved")
            } else {
                say("SOLVED: false")?;
                errln!("cancelled while writing the solution; nothing written");
                (EXIT_CANCELLED, "cancelled")
            }
        }
        Outcome::NoSolution if job.view.explain => {
            say("SOLVED: false")?;
            // `--explain` goes with `--render` (the arguments check it).
            let why = crate::explain::board::board_reason(level);
            errln!(
                "no solution: {}; no level written, the picture shows why",
                why.message(level)
            );
            show_marked(level, job.view, !to_stdout, &why.cells())?;
            (EXIT_NO, "unsolvable")
        }
        Outcome::NoSolution => {
            say("SOLVED: false")?;
            errln!("no solution: the search was exhausted; nothing written");
            (EXIT_NO, "unsolvable")
        }
        Outcome::TimedOut => {
            say("SOLVED: false")?;
            errln!("timed out before an answer; nothing written");
            (EXIT_CANCELLED, "timeout")
        }
        Outcome::Cancelled => {
            say("SOLVED: false")?;
            errln!("cancelled before an answer; nothing written");
            (EXIT_CANCELLED, "cancelled")
        }
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    if job.stats {
        errln!("cells: {}", st.cells);
        errln!("fixed after propagation: {}", st.fixed_after_propagation);
        errln!(
            "regions: {} (largest {} cells)",
            st.regions,
            st.largest_region
        );
        errln!("search nodes: {}", st.nodes);
        errln!(
            "time ms: parse {:.3}, propagate {:.3} (triangles and probes {:.3}), regions {:.3}, search {:.3}, verify {:.3}, write {:.3}, total {:.3}",
            ms(parse_time),
            ms(st.propagate_time),
            ms(st.probe_time),
            ms(st.regions_time),
            ms(st.search_time),
            ms(st.verify_time),
            ms(write_time),
            ms(t0.elapsed())
        );
        if let Some(ls) = &learned {
            let c = &ls.counters;
            errln!(
                "learning: edges {}, fixed at root {}, cells in defect after the walks {}, neighbourhoods searched {}, conflicts {} (odd pockets {}), learned clauses {} (mean size {:.1}, minimised by {} literals, {} through chains), mean backjump {:.2} levels (chronological {}), restarts {}, probes {} (failed {}), reductions {} (dropped {}), propagations {}",
                ls.edges,
                c.fixed_at_root,
                c.defects_left,
                c.neighbourhoods,
                c.conflicts,
                c.pockets,
                c.learned,
                ls.mean_learned_size(),
                c.minimised,
                c.minimised_deep,
                ls.mean_backjump(),
                c.chronological,
                c.restarts,
                c.probes,
                c.failed_literals,
                c.reductions,
                c.dropped,
                c.propagations
            );
            if level.rules() == Rules::Net {
                errln!(
                    "learning, Net rules: tree lemmas {} (loops and closed networks refused), edges set off by the cycle rule {}",
                    c.lemmas,
                    c.tree_implied
                );
            }
        }
    }
    if job.json {
        let b = level.board();
        let mut report = serde_json::json!({
            "verdict": word,
            "board": b.tiling().name(),
            "width": b.width(),
            "height": b.height(),
            "wrap": b.wrap().name(),
            "cells": st.cells,
            "fixed_after_propagation": st.fixed_after_propagation,
            "regions": st.regions,
            "largest_region": st.largest_region,
            "nodes": st.nodes,
            "ms": {
                "parse": ms(parse_time),
                "propagate": ms(st.propagate_time),
                "probe": ms(st.probe_time),
                "regions": ms(st.regions_time),
                "search": ms(st.search_time),
                "verify": ms(st.verify_time),
                "write": ms(write_time),
                "total": ms(t0.elapsed()),
            },
        });
        if let Some(ls) = &learned {
            let c = &ls.counters;
            report["learn"] = serde_json::json!({
                "edges": ls.edges,
                "fixed_at_root": c.fixed_at_root,
                "decisions": c.decisions,
                "conflicts": c.conflicts,
                "odd_pockets": c.pockets,
                "learned": c.learned,
                "mean_learned_size": ls.mean_learned_size(),
                "minimised": c.minimised,
                "minimised_deep": c.minimised_deep,
                "mean_backjump": ls.mean_backjump(),
                "chronological": c.chronological,
                "restarts": c.restarts,
                "probes": c.probes,
                "failed_literals": c.failed_literals,
                "reductions": c.reductions,
                "dropped": c.dropped,
                "propagations": c.propagations,
                "lemmas": c.lemmas,
                "tree_implied": c.tree_implied,
            });
        }
        say(&report.to_string())?;
    }
    Ok(code)
}

/// `--count` of a board level.
pub(super) fn run_count(
    level: &BoardLevel,
    limit: Option<u64>,
    timeout: Option<Duration>,
    stats: bool,
) -> Result<i32, CliError> {
    let t0 = Instant::now();
    interrupt::cooperative(true);
    match crate::learn::count_limited(level, limit, timeout, &interrupt::CANCEL) {
        Ok((Count::Exact(n), st)) => {
            out::line(&format!("SOLUTIONS: {n}"))?;
            if stats {
                errln!(
                    "cells: {}, fixed after propagation: {}, regions: {} (largest {}), search nodes: {}, time ms: {:.3}",
                    st.cells,
                    st.fixed_after_propagation,
                    st.regions,
                    st.largest_region,
                    st.nodes,
                    t0.elapsed().as_secs_f64() * 1e3
                );
            }
            Ok(if n == num_bigint::BigUint::ZERO {
                EXIT_NO
            } else {
                EXIT_OK
            })
        }
        Ok((Count::MoreThan(k), _)) => {
            out::line(&format!("SOLUTIONS: >= {k}"))?;
            Ok(EXIT_OK)
        }
        Err(anyboard::Stop::TimedOut) => {
            errln!("timed out before the count was complete");
            Ok(EXIT_CANCELLED)
        }
        Err(anyboard::Stop::Cancelled) => {
            errln!("cancelled before the count was complete");
            Ok(EXIT_CANCELLED)
        }
    }
}

/// `--unique-check` of a board level: a search for a second solution, never a full count.
pub(super) fn run_unique_check(
    level: &BoardLevel,
    timeout: Option<Duration>,
    stats: bool,
) -> Result<i32, CliError> {
    let t0 = Instant::now();
    interrupt::cooperative(true);
    match crate::learn::two_solutions(level, timeout, &interrupt::CANCEL) {
        Ok(sols) => {
            let unique = sols.len() == 1;
            out::line(&format!("UNIQUE: {unique}"))?;
            if stats {
                errln!(
                    "cells: {}, rules: {}, solutions found: {} (the search stops at 2), time ms: {:.3}",
                    level.board().len(),
                    level.rules().name(),
                    sols.len(),
                    t0.elapsed().as_secs_f64() * 1e3
                );
            }
            Ok(if unique { EXIT_OK } else { EXIT_NO })
        }
        Err(anyboard::Stop::TimedOut) => {
            errln!("timed out before uniqueness was decided");
            Ok(EXIT_CANCELLED)
        }
        Err(anyboard::Stop::Cancelled) => {
            errln!("cancelled before uniqueness was decided");
            Ok(EXIT_CANCELLED)
        }
    }
}

/// `--to-cnf` of a board level.
pub(super) fn run_to_cnf(level: &BoardLevel, output: &Path) -> Result<i32, CliError> {
    if level.rules() == Rules::Net {
        return Err(CliError::Usage(
            "--to-cnf writes a formula of the connections, which cannot say \"one tree\": it takes levels under Infinity rules (--rules infinity)".into(),
        ));
    }
    check_outputs([output])?;
    let text = crate::cnf::board::board_dimacs(level);
    match save(output, &text)? {
        false => Ok(cancelled("while writing the CNF")),
        true => Ok(EXIT_OK),
    }
}

/// `--print` and `--render` of a board level; with `--explain`, the cells of a propagation
/// wipe-out (a reason the level has no solution) shaded, if there is one.
pub(super) fn show(level: &BoardLevel, view: &View, to_stderr: bool) -> Result<(), CliError> {
    let marked = if view.explain && view.render.is_some() {
        crate::explain::board::board_reason(level).cells()
    } else {
        Vec::new()
    };
    show_marked(level, view, to_stderr, &marked)
}

/// [`show`] with the cells `marked` shaded in the picture.
fn show_marked(
    level: &BoardLevel,
    view: &View,
    to_stderr: bool,
    marked: &[usize],
) -> Result<(), CliError> {
    if view.print {
        let text = crate::render::board_text::board_text(level);
        if to_stderr {
            eprint!("{text}");
        } else {
            out::bytes(text.as_bytes())?;
        }
    }
    if let Some((path, format)) = &view.render {
        let bytes = match format {
            PictureFormat::Svg => crate::render::board_svg::board_svg(level, marked).into_bytes(),
            PictureFormat::Png => crate::render::board_png::board_png(level, marked)
                .map_err(|e| CliError::Output(format!("{}: {e}", path.display())))?,
            PictureFormat::Html => html_page(level),
        };
        save(path, &bytes)?;
    }
    Ok(())
}

/// The solver's time for the hints of a `--render FILE.html` page.
const HTML_SOLVE_TIMEOUT: Duration = Duration::from_secs(10);

/// `--render FILE.html`: a page that plays `level` offline, with the verified solution
/// inlined for its hint button when the solver finds one in time.
pub(super) fn html_page(level: &BoardLevel) -> Vec<u8> {
    interrupt::cooperative(true);
    let solution =
        match anyboard::solve_level(level, Some(HTML_SOLVE_TIMEOUT), &interrupt::CANCEL).0 {
            Outcome::Solved(s) if anyboard::first_fault(&s).is_none() && s.is_turning_of(level) => {
                Some(s)
            }
            _ => None,
        };
    if solution.is_none() {
        errln!("the page has no hints: the solver found no solution in time");
    }
    crate::serve::page::standalone(level, solution.as_ref().map(|s| s.masks())).into_bytes()
}

/// The board family of the square generator's options (the argument check allowed only
/// these).
fn family(options: &GenerateOptions) -> BoardFamily {
    match options.family {
        Family::Loops => BoardFamily::Loops,
        Family::Dominoes => BoardFamily::Dominoes,
        Family::Maze(_) => BoardFamily::Maze,
        Family::Paths(len) => BoardFamily::Paths {
            len: len as usize,
            bent: options.bent,
        },
        _ => BoardFamily::Random {
            density: options.density,
        },
    }
}

/// Warns when an Infinity level went to a format that is Net by definition: read back, it
/// is a Net puzzle (hexapipes and SGT Net play it so), under which it usually has no solution.
fn net_format_warning(level: &BoardLevel, format: LevelFormat) {
    let name = match format {
        LevelFormat::Hexapipes => "hexapipes JSON",
        LevelFormat::Sgt => "an SGT Net game ID",
        _ => return,
    };
    if level.rules() == Rules::Infinity {
        errln!(
            "warning: {name} is read as a Net puzzle, and this level was made under Infinity rules: read it with --rules infinity (or generate with --rules net)"
        );
    }
}

/// The file format a generated board level is written in: hexapipes' JSON for `.json`, an
/// SGT Net game ID for `.sgt`, else our board format.
fn output_format(path: &Path) -> LevelFormat {
    let ext = |name: &str| {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(name))
    };
    if ext("json") {
        LevelFormat::Hexapipes
    } else if ext("sgt") {
        LevelFormat::Sgt
    } else {
        LevelFormat::Board
    }
}

/// `--generate --grid G --wrap W`: a level of the family on that board.
pub(super) fn run_generate(
    output: Option<PathBuf>,
    options: &GenerateOptions,
    (seed, unsolvable): (Option<u64>, Option<Breakage>),
    unique: bool,
    view: &View,
    gen_board: BoardGen,
) -> Result<i32, CliError> {
    let BoardGen {
        tiling,
        wrap,
        rules,
        barriers,
    } = gen_board;
    let outputs = output.iter().chain(view.render.iter().map(|(p, _)| p));
    check_outputs(outputs.map(PathBuf::as_path))?;
    let board = Board::new(tiling, options.width, options.height, wrap).map_err(CliError::Usage)?;
    let seed = seed.unwrap_or_else(|| {
        let s = fastrand::u64(..);
        errln!("seed: {s}");
        s
    });
    let net = rules == Some(Rules::Net);
    // Net wants one network without a loop: the solution is always a spanning tree.
    let family = if net {
        BoardFamily::Maze
    } else {
        family(options)
    };
    let (mut level, mut solution) = generate_on_board(&board, family, seed);
    if net {
        level = level.with_rules(Rules::Net);
        solution = solution.with_rules(Rules::Net);
        // A board whose cells fall apart (hexapipes' rhombitrihexagonal grid one cell wide,
        // its edge cells left out) has no spanning tree, so no Net puzzle.
        if anyboard::first_fault(&solution).is_some() {
            return Err(CliError::Usage(format!(
                "a {}x{} {} board's cells are not all joined: it holds no Net puzzle (one network); try another size",
                options.width,
                options.height,
                tiling.name()
            )));
        }
    }
    if unique {
        interrupt::cooperative(true);
        let mut rng = fastrand::Rng::with_seed(seed ^ 0x756e_6971_7565);
        let rounds = 64 + 4 * board.len();
        let made = if net {
            crate::generate::board_unique::make_unique_net(
                solution,
                &mut rng,
                rounds,
                &interrupt::CANCEL,
            )
        } else {
            crate::generate::board_unique::make_unique(
                solution,
                &mut rng,
                rounds,
                &interrupt::CANCEL,
            )
        };
        match made {
            Ok((made, sol)) => (level, solution) = (made, sol),
            Err(_) if interrupt::cancelled() => {
                return Ok(cancelled("while making the level unique"));
            }
            Err(e) => {
                errln!("error: {e}; nothing written");
                return Ok(EXIT_NO);
            }
        }
    }
    if let Some(p) = barriers {
        // After uniqueness, from a stream of their own: more barriers, same puzzle.
        let walls = crate::generate::board_families::net_barriers(&solution, p, seed ^ 0x6261_7272);
        let walled = |l: BoardLevel| {
            l.with_barriers(walls.clone())
                .expect("barriers drawn on both ends of each side")
        };
        (level, solution) = (walled(level), walled(solution));
    }
    if let Some(kind) = unsolvable {
        // Last, so that the candidates are judged with the barriers and rules they keep.
        let cancel = &interrupt::CANCEL;
        match board_unsolvable_variant(&level, Some(&solution), kind, seed, cancel) {
            Ok((bad, alteration)) => {
                errln!("altered {}", alteration.describe(&board));
                level = bad;
            }
            Err(_) if interrupt::cancelled() => {
                return Ok(cancelled("while making the level unsolvable"));
            }
            Err(e) => {
                errln!("error: {e}; nothing written");
                return Ok(EXIT_NO);
            }
        }
    }
    write_generated(&level, output.as_deref(), view)
}

/// Writes a generated `level` to `output` (its format by the file name) and shows it.
pub(super) fn write_generated(
    level: &BoardLevel,
    output: Option<&Path>,
    view: &View,
) -> Result<i32, CliError> {
    if let Some(path) = output {
        let format = match (is_stdio(path), output_format(path)) {
            // Our board format holds square and hexagonal boards: hexapipes' own grids are
            // written in its JSON whatever the name.
            (_, LevelFormat::Board) | (true, _) if !level.board().is_uniform() => {
                LevelFormat::Hexapipes
            }
            (true, _) => LevelFormat::Board,
            (false, format) => format,
        };
        if !save_board_level(path, level, format)? {
            return Ok(cancelled("while writing the level"));
        }
        net_format_warning(level, format);
    }
    let on_stdout = output.is_some_and(is_stdio);
    show(level, view, on_stdout)?;
    Ok(EXIT_OK)
}

//! The engine below the facade, for advanced use: each module here re-exports the public
//! surface of one concern — its entry points, their options and their reports. The working
//! state behind them (the padded board, orientation domains, the flow witness, the search)
//! stays private to the crate, so it can change without breaking a caller.
//!
//! ```
//! use phineloops::engine::generate::{GenerateOptions, generate};
//! use phineloops::engine::solve::{Method, Outcome, SolveOptions, solve};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut options = GenerateOptions::new(24, 24, 5);
//! options.max_components = Some(3);
//! let level = generate(&options);
//! let solve_options = SolveOptions { method: Method::Csp, threads: 2, ..SolveOptions::default() };
//! let (outcome, stats) = solve(&level, &solve_options, &AtomicBool::new(false));
//! assert!(matches!(outcome, Outcome::Solved(ref g) if g.is_solved()));
//! assert!(stats.cells == 24 * 24);
//! ```

pub mod kernels;

/// Pieces, their connection bitmasks and the grid.
pub mod model {
    pub use crate::model::direction::{E, N, S, SIDE_NAMES, SIDES, W, bit, opposite};
    pub use crate::model::{Game, Piece, PieceKind};
}

/// The level file format: strict reader, writer, atomic save.
pub mod level {
    pub use crate::level::parse::read_level;
    pub use crate::level::write::{Content, remove_pending_temp_files, save_content_cancellable};
    pub use crate::level::{
        LevelError, Saved, check_writable, level_bytes, load_level, parse_level, save_atomic,
        save_cancellable, save_level,
    };
}

/// The verifier: is a grid solved, and where is its first defect.
pub mod check {
    pub use crate::check::{Defect, DefectKind, first_defect, is_solved};
}

/// Random solvable levels, families, mazes, unique levels and unsolvable variants.
pub mod generate {
    pub use crate::generate::board_difficulty::{Made, make_to_difficulty};
    pub use crate::generate::board_families::{
        BoardFamily, generate_on_board, net_barriers, scramble, solved_masks,
    };
    pub use crate::generate::board_local_check::{board_locally_consistent, cells_within};
    pub use crate::generate::board_unique::{make_unique, make_unique_net};
    pub use crate::generate::board_unsolvable::{BoardAlteration, board_unsolvable_variant};
    pub use crate::generate::straight::move_straights;
    pub use crate::generate::unsolvable::unsolvable_variant;
    pub use crate::generate::{
        Alteration, Breakage, Family, GenerateOptions, MazeAlgorithm, Select, UniqueError,
        UniqueLevel, count_components, even_parity_variant, game_components, generate,
        generate_unique, generate_with_solution, max_components, odd_parity_variant,
    };
}

/// The solver: strategies, options, statistics, and the observer hooks of the game and
/// `--trace`.
pub mod solve {
    pub use crate::solve::{Domain, Event, NoObserver, Observer, OnEvent};
    pub use crate::solve::{
        Method, Order, Outcome, SearchCounters, SearchEnd, SolveOptions, SolveStats, solve,
        solve_observed,
    };
}

/// Exact solution counting, with progress and a limit.
pub mod count {
    pub use crate::count::number::Count;
    pub use crate::count::{
        CountOptions, CountOutcome, CountProgress, CountStats, count_solutions,
        count_solutions_swept, count_solutions_with_progress,
    };
}

/// Why a level has no solution.
pub mod explain {
    pub use crate::explain::{Deduction, Reason, explain};
}

/// The level as DIMACS CNF, answers of an outside SAT solver read back, and (feature `cp`)
/// the built-in SAT strategy.
pub mod cnf {
    pub use crate::cnf::board::board_dimacs;
    #[cfg(feature = "cp")]
    pub use crate::cnf::sat::{SatCounters, SatEnd, solve_clauses, solve_cnf};
    pub use crate::cnf::{Cnf, ENCODING, SatAnswer, decode, encode, parse_model, write_dimacs};
}

/// The terminal game of `--play`, for a program of its own (feature `play`): [`play::run`]
/// takes the terminal until the player quits or `cancel` is raised.
#[cfg(feature = "play")]
pub mod play {
    pub use crate::play::{PlayOptions, restore_terminal, run};
}

/// The solver comparison table over a folder of levels (`--bench`): one row per level and
/// strategy or external solver, as text, CSV or an SVG chart.
pub mod bench {
    pub use crate::bench::family::family_of;
    pub use crate::bench::plot::svg;
    pub use crate::bench::table::{
        csv, csv_header, csv_row, csv_unreadable, header, row_line, run_text, unreadable_line,
    };
    pub use crate::bench::{
        BenchOptions, ExternalSolver, LEVEL_EXTENSIONS, METHODS, Row, RunResult, bench_board_level,
        bench_level, columns, level_files,
    };
}

/// Pictures of a level: box-drawing text, SVG, PNG (feature `png`), and the domain sizes
/// left by propagation.
pub mod render {
    #[cfg(feature = "png")]
    pub use crate::render::board_png::board_png;
    pub use crate::render::board_svg::board_svg;
    pub use crate::render::board_text::board_text;
    pub use crate::render::domains::{DomainSizes, after_propagation};
    #[cfg(feature = "png")]
    pub use crate::render::png::{png, png_highlight};
    pub use crate::render::svg::{svg, svg_highlight, write_svg};
    pub use crate::render::unicode::{
        defect_shades, domain_digits, domain_legend, domain_shades, domain_summary, draw_text,
    };
    pub use crate::render::{ColorChoice, Shade};
}

//! Command-line arguments (clap) and their translation into a [`Command`].

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgGroup, ArgMatches, Parser, ValueEnum};

use crate::generate::{Breakage, Family, GenerateOptions, MazeAlgorithm, Select};
use crate::level::parse::MAX_CELLS;
use crate::solve::Method;

#[derive(Parser, Debug)]
#[command(
    name = "phineloops",
    version,
    about = "Generate, check and solve Infinity Loop levels.",
    after_help = "Exit codes: 0 success / solved, 1 not solved / no solution, 2 usage or input error, 3 timeout or cancelled.\n\
                  A FILE of `-` means standard input (or output for -o)."
)]
#[command(group(ArgGroup::new("mode").required(true).args(["generate", "check", "solve"])))]
pub struct Args {
    /// Generate a random solvable level of WIDTHxHEIGHT cells (e.g. 64x32)
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub generate: Option<(usize, usize)>,

    /// Check whether the level in FILE is solved
    #[arg(long, value_name = "FILE")]
    pub check: Option<PathBuf>,

    /// Solve the level in FILE
    #[arg(long, value_name = "FILE")]
    pub solve: Option<PathBuf>,

    /// Where to write the generated or solved level (written atomically; `-` for stdout)
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Solving method
    #[arg(short = 'm', long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,

    /// With --solve, give up after SECS seconds (exit 3, nothing written)
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<std::time::Duration>,

    /// With --solve, print the statistics as one JSON object on stdout (after the SOLVED line)
    #[arg(long)]
    pub json: bool,

    /// With --solve, search without the flow witness (to measure what it buys)
    #[arg(long, hide = true)]
    pub no_flow: bool,

    /// Worker threads for solving (default: available cores)
    #[arg(short = 't', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Generate at most N connected components
    #[arg(short = 'x', long, value_name = "N")]
    pub nbcc: Option<usize>,

    /// Kind of level to generate [default: random]
    #[arg(long, value_enum, value_name = "NAME")]
    pub family: Option<FamilyArg>,

    /// With --generate (random family), probability in 0..=1 that an inner side carries a
    /// connection [default: 0.5]
    #[arg(long, value_name = "P", value_parser = parse_probability)]
    pub density: Option<f64>,

    /// Generate a perfect maze (one component, no cycle) with this algorithm
    #[arg(long, value_enum, value_name = "ALGO")]
    pub maze: Option<MazeArg>,

    /// With --maze growing-tree, which active cell grows next [default: newest]
    #[arg(long, value_enum, value_name = "RULE")]
    pub select: Option<SelectArg>,

    /// With --maze, probability in 0..=1 that a dead end is opened into a loop
    #[arg(long, value_name = "P", value_parser = parse_probability)]
    pub braid: Option<f64>,

    /// Generate exactly N connected components (0 to width*height/2)
    #[arg(long = "nbcc-exact", value_name = "N", conflicts_with = "nbcc")]
    pub nbcc_exact: Option<usize>,

    /// Change one piece so that the level has no solution
    #[arg(long, value_enum, value_name = "KIND")]
    pub unsolvable: Option<UnsolvableArg>,

    /// Random seed for --generate (printed to stderr when not given)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// With --check, name the first cell that is wrong
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With --solve, print solver statistics to stderr
    #[arg(long)]
    pub stats: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FamilyArg {
    /// Independent random sides: every shape, many small components
    Random,
    /// One-end pieces paired face to face (like the public dist.1 levels)
    Dominoes,
    /// Mostly corners and straights forming closed loops (like the public dist.0 levels)
    Loops,
    /// Every shape, many empty cells and dead ends (like the public dist.6 levels)
    Mixed,
}

impl FamilyArg {
    pub fn family(self) -> Family {
        match self {
            FamilyArg::Random => Family::Random,
            FamilyArg::Dominoes => Family::Dominoes,
            FamilyArg::Loops => Family::Loops,
            FamilyArg::Mixed => Family::Mixed,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MazeArg {
    /// Depth-first search with an explicit stack: long winding corridors
    #[value(alias = "recursive-backtracker")]
    Backtracker,
    /// Growing tree, selection rule from --select
    GrowingTree,
    /// Growing tree, always the newest active cell
    GrowingTreeNewest,
    /// Growing tree, a random active cell
    GrowingTreeRandom,
    /// Growing tree, always the oldest active cell
    GrowingTreeOldest,
    /// Growing tree, newest or random half of the time each
    GrowingTreeMixed,
    /// Randomised Prim (random frontier cell)
    Prim,
    /// Randomised Kruskal (walls in random order, union-find)
    Kruskal,
    /// Random walk (uniform spanning tree; slow on huge grids)
    AldousBroder,
    /// Loop-erased random walks (uniform spanning tree)
    Wilson,
    /// Every cell opens north or west
    BinaryTree,
    /// Walls with one gap split chambers
    RecursiveDivision,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SelectArg {
    Newest,
    Random,
    Oldest,
    Mixed,
}

impl SelectArg {
    pub fn select(self) -> Select {
        match self {
            SelectArg::Newest => Select::Newest,
            SelectArg::Random => Select::Random,
            SelectArg::Oldest => Select::Oldest,
            SelectArg::Mixed => Select::Mixed,
        }
    }
}

impl MazeArg {
    /// The algorithm, with `select` for the plain `growing-tree` (and only for it).
    pub fn algorithm(self, select: Option<SelectArg>) -> Result<MazeAlgorithm, String> {
        use MazeAlgorithm as M;
        let fixed = match self {
            MazeArg::GrowingTree => {
                let s = select.map_or(Select::Newest, SelectArg::select);
                return Ok(M::GrowingTree(s));
            }
            MazeArg::Backtracker => M::Backtracker,
            MazeArg::GrowingTreeNewest => M::GrowingTree(Select::Newest),
            MazeArg::GrowingTreeRandom => M::GrowingTree(Select::Random),
            MazeArg::GrowingTreeOldest => M::GrowingTree(Select::Oldest),
            MazeArg::GrowingTreeMixed => M::GrowingTree(Select::Mixed),
            MazeArg::Prim => M::Prim,
            MazeArg::Kruskal => M::Kruskal,
            MazeArg::AldousBroder => M::AldousBroder,
            MazeArg::Wilson => M::Wilson,
            MazeArg::BinaryTree => M::BinaryTree,
            MazeArg::RecursiveDivision => M::RecursiveDivision,
        };
        match select {
            Some(_) => Err(format!(
                "--select goes with --maze growing-tree, not --maze {}",
                fixed.name()
            )),
            None => Ok(fixed),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnsolvableArg {
    /// One piece gains or loses an end: the total number of ends is odd
    OddParity,
    /// The total stays even; the solver proves there is no solution
    EvenParity,
}

impl UnsolvableArg {
    pub fn breakage(self) -> Breakage {
        match self {
            UnsolvableArg::OddParity => Breakage::OddParity,
            UnsolvableArg::EvenParity => Breakage::EvenParity,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// Race the strategies on large regions, MRV on the rest
    Auto,
    /// Fewest remaining orientations first (MRV)
    Csp,
    /// Row by row from the bottom-right corner
    Line,
    /// Spiral from the outer ring inwards
    Snail,
}

impl MethodArg {
    pub fn method(self) -> Method {
        match self {
            MethodArg::Auto => Method::Auto,
            MethodArg::Csp => Method::Csp,
            MethodArg::Line => Method::Line,
            MethodArg::Snail => Method::Snail,
        }
    }
}

/// Parses a positive number of seconds (fractions allowed).
pub fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v < 1e9 => Ok(std::time::Duration::from_secs_f64(v)),
        _ => Err(format!(
            "expected a positive number of seconds, found `{s}`"
        )),
    }
}

/// Parses a probability: a number within 0..=1.
pub fn parse_probability(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a probability between 0 and 1, found `{s}`"
        )),
    }
}

/// Parses `WxH` (width x height), each at least 1.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT such as 64x32, found `{s}`"))?;
    let num = |t: &str, what: &str| -> Result<usize, String> {
        match t.trim().parse::<usize>() {
            Ok(0) => Err(format!("{what} must be at least 1")),
            Ok(v) => Ok(v),
            Err(_) => Err(format!("{what} `{t}` is not a positive integer")),
        }
    };
    let (w, h) = (num(w, "width")?, num(h, "height")?);
    match w.checked_mul(h) {
        Some(n) if n <= MAX_CELLS => Ok((w, h)),
        _ => Err(format!("{w}x{h} is too many cells (at most {MAX_CELLS})")),
    }
}

/// What the user asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Generate {
        output: PathBuf,
        /// Every option but the seed (`options.seed` is replaced by `seed` or a fresh one).
        options: GenerateOptions,
        seed: Option<u64>,
        unsolvable: Option<Breakage>,
    },
    Check {
        input: PathBuf,
        verbose: bool,
    },
    Solve {
        input: PathBuf,
        output: Option<PathBuf>,
        method: Method,
        threads: usize,
        stats: bool,
        json: bool,
        timeout: Option<std::time::Duration>,
        flow: bool,
    },
}

impl Args {
    /// The command these arguments ask for, or a usage message.
    pub fn into_command(self) -> Result<Command, String> {
        if let Some((width, height)) = self.generate {
            let output = self
                .output
                .ok_or("--generate needs -o FILE (or -o - for standard output)")?;
            let mut options = GenerateOptions::new(height, width, 0);
            options.max_components = self.nbcc;
            options.exact_components = self.nbcc_exact;
            options.family = match (self.maze, self.family) {
                (Some(_), Some(_)) => return Err("--maze and --family exclude each other".into()),
                (Some(maze), None) => Family::Maze(maze.algorithm(self.select)?),
                (None, family) => {
                    if self.select.is_some() {
                        return Err("--select goes with --maze growing-tree".into());
                    }
                    family.unwrap_or(FamilyArg::Random).family()
                }
            };
            if let Some(d) = self.density {
                if options.family != Family::Random {
                    return Err(format!(
                        "--density applies to the random family, not to {}",
                        options.family.name()
                    ));
                }
                options.density = d;
            }
            if let Some(b) = self.braid {
                if !matches!(options.family, Family::Maze(_)) {
                    return Err("--braid goes with --maze".into());
                }
                options.braid = b;
            }
            if matches!(options.family, Family::Maze(_))
                && (self.nbcc.is_some() || self.nbcc_exact.is_some())
            {
                return Err(
                    "--nbcc/--nbcc-exact do not apply to --maze: a perfect maze is exactly one component"
                        .into(),
                );
            }
            options.validate()?;
            return Ok(Command::Generate {
                output,
                options,
                seed: self.seed,
                unsolvable: self.unsolvable.map(UnsolvableArg::breakage),
            });
        }
        if let Some(input) = self.check {
            if self.output.is_some() {
                return Err("--check writes nothing: -o does not apply".into());
            }
            return Ok(Command::Check {
                input,
                verbose: self.verbose,
            });
        }
        let input = self
            .solve
            .ok_or("one of --generate, --check or --solve is required")?;
        let threads = match self.threads {
            Some(t) => t as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(Command::Solve {
            input,
            output: self.output,
            method: self.method.method(),
            threads,
            stats: self.stats,
            json: self.json,
            timeout: self.timeout,
            flow: !self.no_flow,
        })
    }
}

/// Options that only make sense in some modes, by clap id, with the flag users type and the
/// modes (clap ids of the mode flags) that accept them. Checked by hand because clap ignores
/// `requires` when the required argument sits in a group with the one given.
const MODE_OPTIONS: &[(&str, &str, &[&str])] = &[
    ("output", "-o/--output", &["generate", "solve"]),
    ("method", "-m/--method", &["solve"]),
    ("timeout", "--timeout", &["solve"]),
    ("json", "--json", &["solve"]),
    ("no_flow", "--no-flow", &["solve"]),
    ("threads", "-t/--threads", &["solve"]),
    ("stats", "--stats", &["solve"]),
    ("nbcc", "-x/--nbcc", &["generate"]),
    ("family", "--family", &["generate"]),
    ("density", "--density", &["generate"]),
    ("maze", "--maze", &["generate"]),
    ("select", "--select", &["generate"]),
    ("braid", "--braid", &["generate"]),
    ("nbcc_exact", "--nbcc-exact", &["generate"]),
    ("unsolvable", "--unsolvable", &["generate"]),
    ("seed", "--seed", &["generate"]),
    ("verbose", "-v/--verbose", &["check"]),
];

/// Rejects an option given on the command line for a mode that does not use it.
pub fn check_mode_options(matches: &ArgMatches) -> Result<(), String> {
    let Some(mode) = ["generate", "check", "solve"]
        .into_iter()
        .find(|m| matches.value_source(m) == Some(ValueSource::CommandLine))
    else {
        return Ok(());
    };
    for (id, flag, modes) in MODE_OPTIONS {
        if !modes.contains(&mode) && matches.value_source(id) == Some(ValueSource::CommandLine) {
            let allowed: Vec<String> = modes.iter().map(|m| format!("--{m}")).collect();
            return Err(format!(
                "{flag} does not apply to --{mode} (it goes with {})",
                allowed.join(" or ")
            ));
        }
    }
    Ok(())
}

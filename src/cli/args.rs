//! Command-line arguments (clap) and their translation into a [`Command`].

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgGroup, ArgMatches, Parser, ValueEnum};

use crate::generate::{Breakage, Family, GenerateOptions, MazeAlgorithm, Select};
use crate::level::parse::MAX_CELLS;
use crate::render::ColorChoice;
use crate::solve::Method;

#[derive(Parser, Debug)]
#[command(
    name = "phineloops",
    version,
    about = "Generate, check, solve, draw and play Infinity Loop levels.",
    after_help = "Exit codes: 0 success / solved, 1 not solved / no solution, 2 usage or input error, 3 timeout or cancelled (Ctrl-C, SIGTERM).\n\
                  A FILE of `-` means standard input (or output for -o)."
)]
// The group only makes the modes exclusive: `--print FILE` is also a mode but `--print` alone
// is a flag of --generate/--solve, so "a mode is required" is checked in `into_command`.
/// The command line as clap parses it; [`Args::into_command`] checks it into a [`Command`].
#[command(group(ArgGroup::new("mode").args(["generate", "check", "solve", "play", "count", "bench", "unique_check", "to_cnf", "from_model", "completions", "man", "serve", "hint", "explain_solve", "grade"])))]
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

    /// Count the solutions of the level in FILE (prints `SOLUTIONS: N`)
    #[arg(long, value_name = "FILE")]
    pub count: Option<PathBuf>,

    /// Tell whether the level in FILE has exactly one solution (prints `UNIQUE: true|false`;
    /// exit 0 unique, 1 none or several)
    #[arg(long = "unique-check", value_name = "FILE")]
    pub unique_check: Option<PathBuf>,

    /// Run every solving method on every level file (*.txt, *.dat, *.json, *.sgt) in DIR and print a timing table
    #[arg(long, value_name = "DIR")]
    pub bench: Option<PathBuf>,

    /// Print the next explained deduction for the level in FILE: the rule, the cells it reads,
    /// what it concludes and why (the first one the current turns do not already follow)
    #[arg(long, value_name = "FILE")]
    pub hint: Option<PathBuf>,

    /// With --hint, the current turns: a level file of the same board and pieces
    #[arg(long, value_name = "GRID")]
    pub state: Option<PathBuf>,

    /// Print the whole explained deduction sequence that solves the level in FILE, one step a
    /// line (--render FILE.svg: the solution with the hardest step's cells shaded; --render
    /// FOLDER/: a picture per step)
    #[arg(long = "explain-solve", value_name = "FILE")]
    pub explain_solve: Option<PathBuf>,

    /// Grade the level in FILE: the deduction rung its solve needs, how often each rule
    /// fired and a score (--json for JSON)
    #[arg(long, value_name = "FILE")]
    pub grade: Option<PathBuf>,

    /// With --generate, make a unique level whose solve needs exactly this rung of deductions
    #[arg(long, value_name = "LEVEL", value_parser = parse_difficulty, conflicts_with_all = ["unsolvable", "move_i"])]
    pub difficulty: Option<crate::deduce::Difficulty>,

    /// Write the level in FILE as DIMACS CNF to -o OUT (a comment header names the encoding)
    #[arg(long, value_name = "FILE")]
    pub to_cnf: Option<PathBuf>,

    /// Read a SAT solver's output (`s SATISFIABLE` and `v ...` lines) for the CNF of --level
    /// FILE, check it and write the solved level to -o OUT
    #[arg(long, value_name = "MODEL")]
    pub from_model: Option<PathBuf>,

    /// With --from-model, the level the CNF was made from
    #[arg(long, value_name = "FILE")]
    pub level: Option<PathBuf>,

    /// Where to write the generated or solved level (`-` for stdout). A regular file is
    /// replaced atomically, a symlink's target gets the level, a device or FIFO is written to
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Solving method
    #[arg(short = 'm', long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,

    /// Give up after SECS seconds: --solve, --count and --unique-check exit 3; --bench marks
    /// the run `TO` (default 10 s per run there)
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<std::time::Duration>,

    /// With --solve, print the statistics as one JSON object on stdout (after the SOLVED line)
    #[arg(long)]
    pub json: bool,

    /// With --solve, search without the flow witness (to measure what it buys)
    #[arg(long)]
    pub no_flow: bool,

    /// Worker threads for solving (default: available cores)
    #[arg(short = 't', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024), allow_negative_numbers = true)]
    pub threads: Option<u32>,

    /// Generate at most N connected components
    #[arg(short = 'x', long, value_name = "N", value_parser = parse_whole, allow_negative_numbers = true)]
    pub nbcc: Option<usize>,

    /// With --generate, the board's cells: square (the default), hexagonal (hexapipes'
    /// layout), or one of hexapipes' grids of mixed cells (octagonal, cube, trihexagonal,
    /// etrat, triangular, snubsquare, rhombitrihexagonal)
    #[arg(long, value_enum, value_name = "GRID")]
    pub grid: Option<GridArg>,

    /// With --generate, make a wrap-around board: `both` (the default when given alone),
    /// `horizontal` (left meets right) or `vertical`; when reading a hexapipes .json file
    /// without a "wrap" field, read it as wrapped
    #[arg(long, value_name = "WHICH", num_args = 0..=1, default_missing_value = "both", value_parser = parse_wrap)]
    pub wrap: Option<crate::board::Wrap>,

    /// The rules to judge, solve, count and generate by: `infinity` (every connection
    /// answered) or `net` (also one network without a loop, as SGT Net and hexapipes play)
    /// [default: the level's own: net for hexapipes files and SGT game IDs, else infinity]
    #[arg(long, value_name = "RULES", value_parser = parse_rules)]
    pub rules: Option<crate::board::Rules>,

    /// With --generate --rules net, put a barrier on each side the solution does not use
    /// with this probability (as SGT Net's `b` parameter does)
    #[arg(long, value_name = "P", value_parser = parse_probability)]
    pub barriers: Option<f64>,

    /// Kind of level to generate [default: random]
    #[arg(long, value_enum, value_name = "NAME")]
    pub family: Option<FamilyArg>,

    /// With --generate (random family), probability in 0..=1 that an inner side carries a
    /// connection [default: 0.5]
    #[arg(long, value_name = "P", value_parser = parse_probability, allow_negative_numbers = true)]
    pub density: Option<f64>,

    /// Generate a perfect maze (one component, no cycle) with this algorithm
    #[arg(long, value_enum, value_name = "ALGO")]
    pub maze: Option<MazeArg>,

    /// With --maze growing-tree, which active cell grows next [default: newest]
    #[arg(long, value_enum, value_name = "RULE")]
    pub select: Option<SelectArg>,

    /// With --maze, probability in 0..=1 that a dead end is opened into a loop
    #[arg(long, value_name = "P", value_parser = parse_probability, allow_negative_numbers = true)]
    pub braid: Option<f64>,

    /// With --family paths3|paths4, probability in 0..=1 that a middle cell of a path bends
    /// (a corner on the square grid) [default: 0.75]
    #[arg(long, value_name = "P", value_parser = parse_probability, allow_negative_numbers = true)]
    pub bent: Option<f64>,

    /// Generate exactly N connected components (0 to width*height/2)
    #[arg(long = "nbcc-exact", value_name = "N", conflicts_with = "nbcc", value_parser = parse_whole, allow_negative_numbers = true)]
    pub nbcc_exact: Option<usize>,

    /// Change one piece so that the level has no solution (any board, either rules)
    #[arg(long, value_enum, value_name = "KIND")]
    pub unsolvable: Option<UnsolvableArg>,

    /// With --generate, swap N straight (I) pieces with pieces of the same checkerboard
    /// colour: the level may or may not stay solvable
    #[arg(long = "move-i", value_name = "N", value_parser = parse_whole, allow_negative_numbers = true)]
    pub move_i: Option<usize>,

    /// With --generate, make a level with exactly one solution
    #[arg(long, conflicts_with_all = ["unsolvable", "move_i"])]
    pub unique: bool,

    /// With --count, stop once more than K solutions are known (prints `SOLUTIONS: >= K`;
    /// exactly K prints `SOLUTIONS: K`)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub count_limit: Option<u64>,

    /// With --bench, also write the table as CSV to FILE (`-`: CSV on stdout, table on stderr)
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// With --bench, also run another program: NAME='COMMAND {in} {out}' (repeatable), run by
    /// `sh -c` with the level's path and the answer's path put in; its answer is checked
    #[arg(long, value_name = "NAME=CMD")]
    pub solver: Vec<String>,

    /// With --bench, also draw time against cells per solver as an SVG chart in FILE
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Random seed for --generate (printed to stderr when not given)
    #[arg(long, value_name = "S", value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// With --check, name the first cell that is wrong
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With --solve, --count or --unique-check, print statistics to stderr
    #[arg(long)]
    pub stats: bool,

    /// Draw the level in FILE with box-drawing characters; after --generate or --solve (no
    /// FILE), draw the generated level or the solution
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    pub print: Option<Option<PathBuf>>,

    /// With --print, colour each cell by the orientations left after propagation (frozen, 2,
    /// 3, 4); without colours, print them as digits under the grid
    #[arg(long)]
    pub show_domains: bool,

    /// When to colour --print: auto (only on a terminal, and not when NO_COLOR is set),
    /// always (even into a pipe or with NO_COLOR), never
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorArg::Auto)]
    pub color: ColorArg,

    /// Draw the level (for --solve: the solution) as a picture: FILE.svg, or FILE.png
    #[arg(long, value_name = "FILE")]
    pub render: Option<PathBuf>,

    /// With --render (of --solve or --print FILE), shade the cells of the reason a level has
    /// no solution
    #[arg(long)]
    pub explain: bool,

    /// Play in the terminal: the level in FILE, or a generated one of --size
    #[arg(long, visible_alias = "gui", value_name = "FILE", num_args = 0..=1)]
    pub play: Option<Option<PathBuf>>,

    /// With --play and no FILE, the size of the generated level
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(usize, usize)>,

    /// With --solve, run the MRV search on one thread and print each of its steps to stderr:
    /// narrowings, region starts, decisions, conflicts, backtracks, restarts
    #[arg(long)]
    pub trace: bool,

    /// Print the completion script for SHELL on stdout (e.g. `--completions bash >
    /// ~/.local/share/bash-completion/completions/phineloops`)
    #[arg(long, value_enum, value_name = "SHELL")]
    pub completions: Option<clap_complete::Shell>,

    /// Print the manual page (roff) on stdout (e.g. `--man > phineloops.1; man ./phineloops.1`)
    #[arg(long)]
    pub man: bool,

    /// Play in a web browser: serve the game on 127.0.0.1 (loopback only) until Ctrl-C
    #[arg(long)]
    pub serve: bool,

    /// With --serve, the port to listen on (0: any free port; the address is printed)
    #[arg(long, value_name = "N", default_value_t = 8080)]
    pub port: u16,

    /// With --serve, open the page in the desktop's browser
    #[arg(long)]
    pub open: bool,

    /// With --serve, the folder the page may save levels into (nothing is saved without it)
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
}

/// `--grid`: the cells of the board `--generate` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GridArg {
    /// Square cells (four sides).
    Square,
    /// Hexagonal cells (six sides), odd rows shifted right as in hexapipes.
    Hexagonal,
    /// hexapipes' octagons with a square in each gap.
    Octagonal,
    /// hexapipes' stacked cubes: three rhombi per hexagon.
    Cube,
    /// hexapipes' hexagons and triangles.
    Trihexagonal,
    /// hexapipes' rows of squares between rows of triangles.
    Etrat,
    /// hexapipes' triangles.
    Triangular,
    /// hexapipes' snub square tiling of squares and triangles.
    Snubsquare,
    /// hexapipes' hexagons, squares and triangles.
    Rhombitrihexagonal,
}

impl GridArg {
    /// The board tiling.
    pub fn tiling(self) -> crate::board::Tiling {
        use crate::board::{Grid, Tiling};
        match self {
            GridArg::Square => Tiling::Square,
            GridArg::Hexagonal => Tiling::Hexagonal,
            GridArg::Octagonal => Tiling::Polygonal(Grid::Octagonal),
            GridArg::Cube => Tiling::Polygonal(Grid::Cube),
            GridArg::Trihexagonal => Tiling::Polygonal(Grid::Trihexagonal),
            GridArg::Etrat => Tiling::Polygonal(Grid::Etrat),
            GridArg::Triangular => Tiling::Polygonal(Grid::Triangular),
            GridArg::Snubsquare => Tiling::Polygonal(Grid::Snubsquare),
            GridArg::Rhombitrihexagonal => Tiling::Polygonal(Grid::Rhombitrihexagonal),
        }
    }
}

/// Parses `--rules`' value: infinity or net.
pub fn parse_rules(s: &str) -> Result<crate::board::Rules, String> {
    crate::board::Rules::from_name(s.trim())
        .ok_or_else(|| format!("expected infinity or net; found `{s}`"))
}

/// Parses `--wrap`'s value: none, both, horizontal or vertical.
pub fn parse_wrap(s: &str) -> Result<crate::board::Wrap, String> {
    crate::board::Wrap::from_name(s.trim())
        .ok_or_else(|| format!("expected one of both, horizontal, vertical, none; found `{s}`"))
}

/// `--color`: when `--print` uses ANSI colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// Colour when the output is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorArg {
    /// The renderer's colour setting for this choice.
    pub fn choice(self) -> ColorChoice {
        match self {
            ColorArg::Auto => ColorChoice::Auto,
            ColorArg::Always => ColorChoice::Always,
            ColorArg::Never => ColorChoice::Never,
        }
    }
}

/// Picture kinds `--render` can write, by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureFormat {
    /// SVG, for a `.svg` file.
    Svg,
    /// A self-contained page that plays the level offline, for a `.html` file.
    Html,
    /// PNG, for a `.png` file.
    Png,
}

/// The picture format a `--render` path asks for.
pub fn picture_format(path: &std::path::Path) -> Result<PictureFormat, String> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(PictureFormat::Svg),
        Some("png") => Ok(PictureFormat::Png),
        Some("html" | "htm") => Ok(PictureFormat::Html),
        _ => Err(format!(
            "--render {}: the file name must end in .svg or .png (a picture), or .html (a page that plays it)",
            path.display()
        )),
    }
}

/// How to show a level besides writing it: `--print`, `--show-domains`, `--color`, `--render`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct View {
    /// `--print`: draw the level as text.
    pub print: bool,
    /// `--show-domains`: with `--print`, also show each cell's possible orientations.
    pub show_domains: bool,
    /// `--color`: when the text drawing is coloured.
    pub color: ColorChoice,
    /// `--render FILE`: also write a picture there, in the format its extension names.
    pub render: Option<(PathBuf, PictureFormat)>,
    /// `--explain`: shade the cells of the "no solution" reason in the picture.
    pub explain: bool,
}

/// `--family`: the kind of level `--generate` makes.
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
    /// Straight segments Q-Q, Q-I-Q, Q-I-I-Q only, no corners (hard for the flow witness)
    Straight,
    /// Nested hook-shaped two-wide ladders of one-end pieces, one region each
    Hooks,
    /// The ladders of `hooks` at HxH laid flat (generate at HxW with W = 2H to compare)
    Ladders,
    /// The grid tiled by paths of three cells, Q-L-Q or Q-I-Q (see --bent)
    Paths3,
    /// The grid tiled by paths of four cells, Q-?-?-Q (see --bent)
    Paths4,
}

impl FamilyArg {
    /// The generator's family for this choice.
    pub fn family(self) -> Family {
        match self {
            FamilyArg::Random => Family::Random,
            FamilyArg::Dominoes => Family::Dominoes,
            FamilyArg::Loops => Family::Loops,
            FamilyArg::Mixed => Family::Mixed,
            FamilyArg::Straight => Family::Straight,
            FamilyArg::Hooks => Family::Hooks,
            FamilyArg::Ladders => Family::Ladders,
            FamilyArg::Paths3 => Family::Paths(3),
            FamilyArg::Paths4 => Family::Paths(4),
        }
    }
}

/// `--maze`: the spanning-tree algorithm of the maze family.
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

/// `--select`: which cell the growing-tree maze algorithm extends next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SelectArg {
    /// The newest cell (like the recursive backtracker).
    Newest,
    /// A random cell (like Prim's algorithm).
    Random,
    /// The oldest cell.
    Oldest,
    /// Newest or random, half the time each.
    Mixed,
}

impl SelectArg {
    /// The generator's selection rule for this choice.
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

/// `--unsolvable`: how to break a generated level so it has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnsolvableArg {
    /// One piece gains or loses an end: the total number of ends is odd
    OddParity,
    /// The total stays even; the solver proves there is no solution
    EvenParity,
}

impl UnsolvableArg {
    /// The generator's breakage for this choice.
    pub fn breakage(self) -> Breakage {
        match self {
            UnsolvableArg::OddParity => Breakage::OddParity,
            UnsolvableArg::EvenParity => Breakage::EvenParity,
        }
    }
}

/// `--method`/`-m`: the solving strategy.
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
    /// The whole level as a SAT formula for the batsat library (clause learning, restarts)
    #[cfg(feature = "cp")]
    Cp,
    /// Conflict learning over the connections (our own CDCL), any board, Infinity rules
    Learn,
}

impl MethodArg {
    /// The solver's method for this choice.
    pub fn method(self) -> Method {
        match self {
            MethodArg::Auto => Method::Auto,
            MethodArg::Csp => Method::Csp,
            MethodArg::Line => Method::Line,
            MethodArg::Snail => Method::Snail,
            #[cfg(feature = "cp")]
            MethodArg::Cp => Method::Cp,
            MethodArg::Learn => Method::Learn,
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

/// Parses a count of things: a whole number, 0 or more.
pub fn parse_whole(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("expected a whole number, 0 or more, found `{s}`"))
}

/// Parses a seed: a whole number from 0 to 2^64 - 1.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse().map_err(|_| {
        format!(
            "expected a whole number from 0 to {}, found `{s}`",
            u64::MAX
        )
    })
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
    /// `--generate WxH`: make a level and write and/or show it.
    Generate {
        /// Where to write the level; `None` only when it is shown instead (`--print`/`--render`).
        output: Option<PathBuf>,
        /// Every option but the seed (`options.seed` is replaced by `seed` or a fresh one).
        options: GenerateOptions,
        /// `--seed`: the generator's seed (`None`: a fresh random one, printed to stderr).
        seed: Option<u64>,
        /// `--unsolvable`: break the level so it has no solution.
        unsolvable: Option<Breakage>,
        /// Swap this many I pieces with same-colour pieces after generating.
        move_i: Option<usize>,
        /// `--unique`: only a level with exactly one solution.
        unique: bool,
        /// `--difficulty`: a unique level that needs exactly this rung.
        difficulty: Option<crate::deduce::Difficulty>,
        /// How to show the level besides writing it.
        view: View,
        /// `--grid`/`--wrap`/`--rules`: a board other than the bounded square one, or Net rules.
        board: Option<BoardGen>,
    },
    /// `--check FILE`: whether the level is solved.
    Check {
        /// The level to check (`-`: standard input).
        input: PathBuf,
        /// `--wrap`/`--rules`: what to assume where the file does not say.
        reading: Reading,
        /// `-v`: name the first wrong cell, and why the level has no solution when that is cheap to see.
        verbose: bool,
    },
    /// `--count FILE`: the number of solutions.
    Count {
        /// The level (`-`: standard input).
        input: PathBuf,
        /// `--wrap`/`--rules`: what to assume where the file does not say.
        reading: Reading,
        /// `--count-limit`: stop once more than this many solutions are known.
        limit: Option<u64>,
        /// `--timeout`: give up after this long.
        timeout: Option<std::time::Duration>,
        /// `--stats`: search statistics on stderr.
        stats: bool,
    },
    /// `--unique-check FILE`: whether the level has exactly one solution.
    UniqueCheck {
        /// The level (`-`: standard input).
        input: PathBuf,
        /// `--wrap`/`--rules`: what to assume where the file does not say.
        reading: Reading,
        /// `--timeout`: give up after this long.
        timeout: Option<std::time::Duration>,
        /// `--stats`: search statistics on stderr.
        stats: bool,
    },
    /// `--bench DIR`: every method on every level of a folder.
    Bench {
        /// The folder of levels.
        dir: PathBuf,
        /// `--timeout`: the time limit of each run.
        timeout: std::time::Duration,
        /// `--csv`: also write the results there as CSV.
        csv: Option<PathBuf>,
        /// `-t`: worker threads of each run.
        threads: usize,
        /// `--solver`: other programs to compare.
        solvers: Vec<crate::bench::ExternalSolver>,
        /// `--plot`: the SVG chart's path.
        plot: Option<PathBuf>,
    },
    /// `--solve FILE`: solve the level and write the verified solution.
    Solve(SolveJob),
    /// `--to-cnf FILE -o OUT`: the level as DIMACS CNF.
    ToCnf {
        /// The level (`-`: standard input).
        input: PathBuf,
        /// `--wrap`/`--rules`: what to assume where the file does not say.
        reading: Reading,
        /// `-o`: where to write the CNF.
        output: PathBuf,
    },
    /// `--from-model MODEL --level FILE [-o OUT]`: a SAT solver's model back into a level.
    FromModel {
        /// The SAT solver's output (a model, UNSAT or UNKNOWN).
        model: PathBuf,
        /// `--level`: the level the CNF was made from.
        level: PathBuf,
        /// `-o`: where to write the solved level.
        output: Option<PathBuf>,
        /// `--wrap`/`--rules` for the level, as `--to-cnf` read it.
        reading: Reading,
    },
    /// `--print FILE`: draw a level (and maybe render it).
    Print {
        /// The level (`-`: standard input).
        input: PathBuf,
        /// `--wrap`/`--rules`: what to assume where the file does not say.
        reading: Reading,
        /// How to show it.
        view: View,
    },
    /// `--play [FILE]`: the terminal game.
    Play(crate::play::PlayOptions),
    /// `--serve`: the game as a local web app.
    Serve(crate::serve::ServeOptions),
    /// `--completions SHELL`: the shell completion script.
    Completions(clap_complete::Shell),
    /// `--hint`, `--explain-solve`, `--grade`: explained deductions.
    Deduce(super::deduce::DeduceJob),
    /// `--man`: the manual page.
    Man,
}

/// `--generate` on the board path: the board, and the rules its level is made for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardGen {
    /// `--grid`: the cells' shape.
    pub tiling: crate::board::Tiling,
    /// `--wrap`: which borders join.
    pub wrap: crate::board::Wrap,
    /// `--rules`: Net levels are made from a spanning tree.
    pub rules: Option<crate::board::Rules>,
    /// `--barriers P`: with Net rules, the share of unused sides walled.
    pub barriers: Option<f64>,
}

/// What `--wrap` and `--rules` say about levels whose file does not: a hexapipes file without
/// a "wrap" field is wrapped, and the rules to judge, solve and count by.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reading {
    /// `--wrap`: a hexapipes file without a "wrap" field is wrapped.
    pub wrap_default: bool,
    /// `--rules`: overrides the rules a file states (or implies).
    pub rules: Option<crate::board::Rules>,
}

/// The settings of one `--solve` run.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveJob {
    /// The level (`-`: standard input).
    pub input: PathBuf,
    /// `-o`: where to write the solution (`-`: standard output, the verdict then goes to stderr).
    pub output: Option<PathBuf>,
    /// `-m`: the solving strategy.
    pub method: Method,
    /// `-t`: worker threads.
    pub threads: usize,
    /// `--stats`: search statistics and phase times on stderr.
    pub stats: bool,
    /// `--json`: a one-line JSON report of the run.
    pub json: bool,
    /// `--timeout`: give up after this long, reading the level included.
    pub timeout: Option<std::time::Duration>,
    /// Use the flow witness during the search (off with `--no-flow`).
    pub flow: bool,
    /// How to show the solution (or, with `--explain`, the unsolvable level).
    pub view: View,
    /// `--trace`: run the MRV search on one thread and print each of its steps to stderr.
    pub trace: bool,
    /// `--wrap`/`--rules`: what to assume where the file does not say.
    pub reading: Reading,
}

impl Args {
    /// The command these arguments ask for, or a usage message.
    pub fn into_command(self) -> Result<Command, String> {
        if let Some(shell) = self.completions {
            return Ok(Command::Completions(shell));
        }
        if self.man {
            return Ok(Command::Man);
        }
        if self.serve {
            return Ok(Command::Serve(crate::serve::ServeOptions {
                port: self.port,
                open: self.open,
                save_dir: self.save_dir,
            }));
        }
        let print_file = self.print.clone().flatten();
        if print_file.is_some()
            && let Some(other) = [
                (self.generate.is_some(), "--generate"),
                (self.check.is_some(), "--check"),
                (self.solve.is_some(), "--solve"),
                (self.play.is_some(), "--play"),
            ]
            .iter()
            .find_map(|&(given, name)| given.then_some(name))
        {
            return Err(format!(
                "--print FILE cannot be used with {other}: it is a mode of its own (after {other}, give --print without a file)"
            ));
        }
        if self.show_domains && self.print.is_none() {
            return Err("--show-domains goes with --print".into());
        }
        if self.color != ColorArg::Auto && self.print.is_none() {
            return Err("--color applies to --print".into());
        }
        let view = View {
            print: self.print.is_some(),
            show_domains: self.show_domains,
            color: self.color.choice(),
            render: match &self.render {
                // --explain-solve draws a picture per step into a folder.
                Some(path) if self.explain_solve.is_some() && super::deduce::is_folder(path) => {
                    Some((path.clone(), PictureFormat::Svg))
                }
                Some(path) => Some((path.clone(), picture_format(path)?)),
                None => None,
            },
            explain: self.explain,
        };
        if self.explain && view.render.is_none() {
            return Err("--explain goes with --render".into());
        }
        let reading = Reading {
            wrap_default: self.wrap.is_some_and(|w| w.any()),
            rules: self.rules,
        };
        if let Some(input) = print_file {
            return Ok(Command::Print {
                input,
                reading,
                view,
            });
        }
        if let Some(input) = self.play {
            if input.is_some() && self.size.is_some() {
                return Err(
                    "--size is for the level --play generates: it does not apply with a FILE"
                        .into(),
                );
            }
            if self.output.as_deref().is_some_and(|o| o.as_os_str() == "-") {
                return Err(
                    "--play -o takes a FILE: standard output is the game's screen, so `-` cannot receive the level"
                        .into(),
                );
            }
            let (width, height) = self.size.unwrap_or((8, 8));
            return Ok(Command::Play(crate::play::PlayOptions {
                input,
                width,
                height,
                seed: self.seed,
                nbcc: self.nbcc,
                family: self.family.unwrap_or(FamilyArg::Random).family(),
                save: self.output,
            }));
        }
        if let Some((width, height)) = self.generate {
            let output = self.output.clone();
            if output.is_none() && !view.print && view.render.is_none() {
                return Err(
                    "--generate needs -o FILE (or -o - for standard output; or --print / --render to only show the level)"
                        .into(),
                );
            }
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
            if let Some(b) = self.bent {
                if !matches!(options.family, Family::Paths(_)) {
                    return Err("--bent goes with --family paths3 or paths4".into());
                }
                options.bent = b;
            }
            if matches!(options.family, Family::Maze(_))
                && (self.nbcc.is_some() || self.nbcc_exact.is_some())
            {
                return Err(
                    "--nbcc/--nbcc-exact do not apply to --maze: a perfect maze is exactly one component"
                        .into(),
                );
            }
            let net = self.rules == Some(crate::board::Rules::Net);
            let board = match (self.grid, self.wrap) {
                (None | Some(GridArg::Square), None) if !net && self.difficulty.is_none() => None,
                (grid, wrap) => Some(BoardGen {
                    tiling: grid.unwrap_or(GridArg::Square).tiling(),
                    wrap: wrap.unwrap_or(crate::board::Wrap::NONE),
                    rules: self.rules,
                    barriers: self.barriers,
                }),
            };
            if self.difficulty.is_some()
                && (self.family.is_some() || self.maze.is_some() || self.density.is_some())
            {
                return Err("--difficulty picks its own solutions (random connections, or a spanning tree under --rules net): --family, --maze and --density do not apply".into());
            }
            if board.is_some() {
                check_board_options(&self, &options)?;
            } else {
                options.validate()?;
            }
            return Ok(Command::Generate {
                board,
                output,
                options,
                seed: self.seed,
                unsolvable: self.unsolvable.map(UnsolvableArg::breakage),
                move_i: self.move_i,
                unique: self.unique,
                difficulty: self.difficulty,
                view,
            });
        }
        if let Some(job) = super::deduce::job(&self, reading, &view)? {
            return Ok(Command::Deduce(job));
        }
        if let Some(input) = self.to_cnf {
            let output = self
                .output
                .ok_or("--to-cnf needs -o OUT.cnf (or -o - for standard output)")?;
            return Ok(Command::ToCnf {
                input,
                reading,
                output,
            });
        }
        if let Some(model) = self.from_model {
            let level = self
                .level
                .ok_or("--from-model needs --level FILE: the level the CNF was made from")?;
            return Ok(Command::FromModel {
                model,
                level,
                output: self.output,
                reading,
            });
        }
        if let Some(input) = self.check {
            if self.output.is_some() {
                return Err("--check writes nothing: -o does not apply".into());
            }
            return Ok(Command::Check {
                input,
                reading,
                verbose: self.verbose,
            });
        }
        let threads = match self.threads {
            Some(t) => t as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if let Some(input) = self.count {
            return Ok(Command::Count {
                input,
                reading,
                limit: self.count_limit,
                timeout: self.timeout,
                stats: self.stats,
            });
        }
        if let Some(input) = self.unique_check {
            return Ok(Command::UniqueCheck {
                input,
                reading,
                timeout: self.timeout,
                stats: self.stats,
            });
        }
        if let Some(dir) = self.bench {
            let solvers = self
                .solver
                .iter()
                .map(|s| crate::bench::ExternalSolver::parse(s))
                .collect::<Result<Vec<_>, _>>()?;
            if let Some(dup) = solvers
                .iter()
                .enumerate()
                .find(|(i, s)| solvers[..*i].iter().any(|t| t.name == s.name))
            {
                return Err(format!(
                    "--solver: the name `{}` is given twice",
                    dup.1.name
                ));
            }
            return Ok(Command::Bench {
                dir,
                timeout: self.timeout.unwrap_or(DEFAULT_BENCH_TIMEOUT),
                csv: self.csv,
                threads,
                solvers,
                plot: self.plot,
            });
        }
        if self.print.is_some() && self.solve.is_none() {
            return Err("--print needs a FILE, or goes after --generate or --solve".into());
        }
        let input = self.solve.ok_or(
            "one of --generate, --check, --solve, --count, --unique-check, --bench, --to-cnf, --from-model, --hint, --explain-solve, --grade, --print FILE, --play, --completions or --man is required",
        )?;
        if self.trace {
            let clash = [
                (self.method != MethodArg::Auto, "-m/--method"),
                (self.threads.is_some(), "-t/--threads"),
                (self.stats, "--stats"),
                (self.json, "--json"),
            ];
            if let Some((_, flag)) = clash.iter().find(|(given, _)| *given) {
                return Err(format!(
                    "{flag} does not apply with --trace (it traces the MRV search with the flow witness, on one thread)"
                ));
            }
        }
        Ok(Command::Solve(SolveJob {
            input,
            output: self.output,
            method: self.method.method(),
            threads,
            stats: self.stats,
            json: self.json,
            timeout: self.timeout,
            flow: !self.no_flow,
            view,
            trace: self.trace,
            reading,
        }))
    }
}

/// The options `--generate` takes on a board other than the bounded square one: the families
/// every board has, and no option of the square generator alone.
fn check_board_options(args: &Args, options: &GenerateOptions) -> Result<(), String> {
    let tiling = args.grid.unwrap_or(GridArg::Square).tiling();
    if !tiling.is_uniform() {
        // The loops, dominoes and paths families walk rows and faces, which hexapipes'
        // mixed grids do not have.
        if !matches!(
            options.family,
            Family::Random | Family::Maze(MazeAlgorithm::Kruskal)
        ) {
            return Err(format!(
                "on {} boards --generate makes random levels (--density) and spanning trees (--maze kruskal, or --rules net)",
                tiling.name()
            ));
        }
        if let Some(w) = args.wrap
            && w.horizontal != w.vertical
        {
            return Err(format!(
                "{} boards wrap both ways (--wrap) or not at all",
                tiling.name()
            ));
        }
    }
    match options.family {
        Family::Random | Family::Loops | Family::Dominoes | Family::Paths(_) => {}
        Family::Maze(MazeAlgorithm::Kruskal) => {}
        Family::Maze(_) => {
            return Err(format!(
                "with {}, --maze takes kruskal (a random spanning tree)",
                board_generate_reason(args)
            ));
        }
        other => {
            return Err(format!(
                "--family {} is for the bounded square board under Infinity rules; with {} use random, loops, dominoes, paths3, paths4 or --maze kruskal",
                other.name(),
                board_generate_reason(args)
            ));
        }
    }
    let square_only = [
        (args.nbcc.is_some(), "-x/--nbcc"),
        (args.nbcc_exact.is_some(), "--nbcc-exact"),
        (args.move_i.is_some(), "--move-i"),
        (args.braid.is_some(), "--braid"),
    ];
    if let Some((_, flag)) = square_only.iter().find(|(given, _)| *given) {
        return Err(format!(
            "{flag} is for the bounded square board under Infinity rules, not with {}",
            board_generate_reason(args)
        ));
    }
    Ok(())
}

/// The option that sent `--generate` to the board generator, as the user typed it.
fn board_generate_reason(args: &Args) -> String {
    match (args.grid, args.wrap) {
        (Some(g), _) if g != GridArg::Square => format!("--grid {}", g.tiling().name()),
        (_, Some(_)) => "--wrap".into(),
        _ if args.rules == Some(crate::board::Rules::Net) => "--rules net".into(),
        _ => "--difficulty".into(),
    }
}

/// Time limit of one run under --bench when --timeout is not given.
pub const DEFAULT_BENCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Options that only make sense in some modes, by clap id, with the flag users type and the
/// modes (clap ids of the mode flags) that accept them. Checked by hand because clap ignores
/// `requires` when the required argument sits in a group with the one given.
const MODE_OPTIONS: &[(&str, &str, &[&str])] = &[
    (
        "output",
        "-o/--output",
        &["generate", "solve", "play", "to_cnf", "from_model"],
    ),
    ("level", "--level", &["from_model"]),
    ("method", "-m/--method", &["solve"]),
    (
        "timeout",
        "--timeout",
        &["solve", "count", "bench", "unique_check"],
    ),
    ("json", "--json", &["solve", "hint", "grade"]),
    ("state", "--state", &["hint"]),
    ("difficulty", "--difficulty", &["generate"]),
    ("no_flow", "--no-flow", &["solve"]),
    ("threads", "-t/--threads", &["solve", "bench"]),
    ("stats", "--stats", &["solve", "count", "unique_check"]),
    ("count_limit", "--count-limit", &["count"]),
    ("csv", "--csv", &["bench"]),
    ("solver", "--solver", &["bench"]),
    ("plot", "--plot", &["bench"]),
    ("unique", "--unique", &["generate"]),
    ("nbcc", "-x/--nbcc", &["generate", "play"]),
    ("family", "--family", &["generate", "play"]),
    ("density", "--density", &["generate"]),
    ("maze", "--maze", &["generate"]),
    ("select", "--select", &["generate"]),
    ("braid", "--braid", &["generate"]),
    ("bent", "--bent", &["generate"]),
    ("nbcc_exact", "--nbcc-exact", &["generate"]),
    ("unsolvable", "--unsolvable", &["generate"]),
    ("move_i", "--move-i", &["generate"]),
    ("seed", "--seed", &["generate", "play"]),
    ("verbose", "-v/--verbose", &["check"]),
    ("print", "--print", &["generate", "solve", "print"]),
    ("show_domains", "--show-domains", &["generate", "print"]),
    ("color", "--color", &["generate", "solve", "print"]),
    (
        "render",
        "--render",
        &["generate", "solve", "print", "explain_solve"],
    ),
    ("trace", "--trace", &["solve"]),
    ("explain", "--explain", &["solve", "print"]),
    ("size", "--size", &["play"]),
    ("grid", "--grid", &["generate"]),
    (
        "rules",
        "--rules",
        &[
            "generate",
            "check",
            "solve",
            "count",
            "unique_check",
            "to_cnf",
            "from_model",
            "hint",
            "explain_solve",
            "grade",
        ],
    ),
    ("barriers", "--barriers", &["generate"]),
    ("port", "--port", &["serve"]),
    ("open", "--open", &["serve"]),
    ("save_dir", "--save-dir", &["serve"]),
    (
        "wrap",
        "--wrap",
        &[
            "generate",
            "check",
            "solve",
            "print",
            "count",
            "unique_check",
            "to_cnf",
            "from_model",
            "hint",
            "explain_solve",
            "grade",
        ],
    ),
];

/// Rejects an option given on the command line for a mode that does not use it.
pub fn check_mode_options(matches: &ArgMatches) -> Result<(), String> {
    let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    // `--print FILE` alone is the print mode; with another mode `--print` is its flag.
    let Some(mode) = [
        "generate",
        "check",
        "solve",
        "play",
        "print",
        "count",
        "bench",
        "completions",
        "man",
        "unique_check",
        "to_cnf",
        "from_model",
        "serve",
        "hint",
        "explain_solve",
        "grade",
    ]
    .into_iter()
    .find(|m| given(m)) else {
        return Ok(());
    };
    let print_has_file = matches
        .get_raw("print")
        .is_some_and(|mut values| values.next().is_some());
    if mode != "print" && print_has_file {
        return Err(format!(
            "--print FILE cannot be used with --{mode}: it is a mode of its own (after --generate or --solve, give --print without a file)"
        ));
    }
    for (id, flag, modes) in MODE_OPTIONS {
        if !modes.contains(&mode) && given(id) {
            let allowed: Vec<String> = modes
                .iter()
                .map(|m| format!("--{}", m.replace('_', "-")))
                .collect();
            return Err(format!(
                "{flag} does not apply to --{} (it goes with {})",
                mode.replace('_', "-"),
                allowed.join(" or ")
            ));
        }
    }
    Ok(())
}

fn parse_difficulty(s: &str) -> Result<crate::deduce::Difficulty, String> {
    crate::deduce::Difficulty::ALL
        .into_iter()
        .find(|d| d.name() == s)
        .ok_or_else(|| format!("`{s}` is not a difficulty: easy, medium, hard or expert"))
}

//! Command-line arguments (clap) and their translation into a [`Command`].

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgGroup, ArgMatches, Parser, ValueEnum};

use crate::generate::Family;
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
#[command(group(ArgGroup::new("mode").required(true).args(["generate", "check", "solve", "count", "bench"])))]
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

    /// Run every solving method on every level file in DIR and print a timing table
    #[arg(long, value_name = "DIR")]
    pub bench: Option<PathBuf>,

    /// Where to write the generated or solved level (written atomically; `-` for stdout)
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Solving method
    #[arg(short = 'm', long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,

    /// Give up after SECS seconds: --solve and --count exit 3; --bench marks the run `TO`
    /// (default 10 s per run there)
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

    /// Kind of level to generate
    #[arg(long, value_enum, default_value_t = FamilyArg::Random)]
    pub family: FamilyArg,

    /// With --generate, make a level with exactly one solution
    #[arg(long)]
    pub unique: bool,

    /// With --count, stop once K solutions are known (prints `SOLUTIONS: >= K`)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub count_limit: Option<u64>,

    /// With --bench, also write the table as CSV to FILE (written atomically)
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Random seed for --generate (printed to stderr when not given)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// With --check, name the first cell that is wrong
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With --solve or --count, print statistics to stderr
    #[arg(long)]
    pub stats: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FamilyArg {
    /// Independent random sides: every shape, many small components
    Random,
    /// One-end pieces paired face to face (like the public dist.1 levels)
    Dominoes,
}

impl FamilyArg {
    pub fn family(self) -> Family {
        match self {
            FamilyArg::Random => Family::Random,
            FamilyArg::Dominoes => Family::Dominoes,
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
        width: usize,
        height: usize,
        output: PathBuf,
        nbcc: Option<usize>,
        seed: Option<u64>,
        family: Family,
        unique: bool,
    },
    Check {
        input: PathBuf,
        verbose: bool,
    },
    Count {
        input: PathBuf,
        limit: Option<u64>,
        timeout: Option<std::time::Duration>,
        stats: bool,
    },
    Bench {
        dir: PathBuf,
        timeout: std::time::Duration,
        csv: Option<PathBuf>,
        threads: usize,
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
            return Ok(Command::Generate {
                width,
                height,
                output,
                nbcc: self.nbcc,
                seed: self.seed,
                family: self.family.family(),
                unique: self.unique,
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
        let threads = match self.threads {
            Some(t) => t as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if let Some(input) = self.count {
            return Ok(Command::Count {
                input,
                limit: self.count_limit,
                timeout: self.timeout,
                stats: self.stats,
            });
        }
        if let Some(dir) = self.bench {
            return Ok(Command::Bench {
                dir,
                timeout: self.timeout.unwrap_or(DEFAULT_BENCH_TIMEOUT),
                csv: self.csv,
                threads,
            });
        }
        let input = self
            .solve
            .ok_or("one of --generate, --check, --solve, --count or --bench is required")?;
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

/// Time limit of one run under --bench when --timeout is not given.
pub const DEFAULT_BENCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Options that only make sense in some modes, by clap id, with the flag users type and the
/// modes (clap ids of the mode flags) that accept them. Checked by hand because clap ignores
/// `requires` when the required argument sits in a group with the one given.
const MODE_OPTIONS: &[(&str, &str, &[&str])] = &[
    ("output", "-o/--output", &["generate", "solve"]),
    ("method", "-m/--method", &["solve"]),
    ("timeout", "--timeout", &["solve", "count", "bench"]),
    ("json", "--json", &["solve"]),
    ("no_flow", "--no-flow", &["solve"]),
    ("threads", "-t/--threads", &["solve", "bench"]),
    ("stats", "--stats", &["solve", "count"]),
    ("count_limit", "--count-limit", &["count"]),
    ("csv", "--csv", &["bench"]),
    ("unique", "--unique", &["generate"]),
    ("nbcc", "-x/--nbcc", &["generate"]),
    ("family", "--family", &["generate"]),
    ("seed", "--seed", &["generate"]),
    ("verbose", "-v/--verbose", &["check"]),
];

/// Rejects an option given on the command line for a mode that does not use it.
pub fn check_mode_options(matches: &ArgMatches) -> Result<(), String> {
    let Some(mode) = ["generate", "check", "solve", "count", "bench"]
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

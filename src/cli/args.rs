//! Command-line arguments (clap) and their translation into a [`Command`].

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgGroup, ArgMatches, Parser, ValueEnum};

use crate::generate::Family;
use crate::level::parse::MAX_CELLS;
use crate::render::ColorChoice;
use crate::solve::Method;

#[derive(Parser, Debug)]
#[command(
    name = "phineloops",
    version,
    about = "Generate, check, solve, draw and play Infinity Loop levels.",
    after_help = "Exit codes: 0 success / solved, 1 not solved / no solution, 2 usage or input error, 3 timeout or cancelled.\n\
                  A FILE of `-` means standard input (or output for -o)."
)]
// The group only makes the modes exclusive: `--print FILE` is also a mode but `--print` alone
// is a flag of --generate/--solve, so "a mode is required" is checked in `into_command`.
#[command(group(ArgGroup::new("mode").args(["generate", "check", "solve", "play"])))]
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

    /// Kind of level to generate
    #[arg(long, value_enum, default_value_t = FamilyArg::Random)]
    pub family: FamilyArg,

    /// Random seed for --generate (printed to stderr when not given)
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// With --check, name the first cell that is wrong
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// With --solve, print solver statistics to stderr
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

impl ColorArg {
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
    Svg,
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
        _ => Err(format!(
            "--render {}: the file name must end in .svg or .png",
            path.display()
        )),
    }
}

/// How to show a level besides writing it: `--print`, `--show-domains`, `--color`, `--render`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct View {
    pub print: bool,
    pub show_domains: bool,
    pub color: ColorChoice,
    pub render: Option<(PathBuf, PictureFormat)>,
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
        /// Where to write the level; `None` only when it is shown instead (`--print`/`--render`).
        output: Option<PathBuf>,
        nbcc: Option<usize>,
        seed: Option<u64>,
        family: Family,
        view: View,
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
        view: View,
        trace: bool,
    },
    /// `--print FILE`: draw a level (and maybe render it).
    Print {
        input: PathBuf,
        view: View,
    },
    /// `--play [FILE]`: the terminal game.
    Play(crate::play::PlayOptions),
}

impl Args {
    /// The command these arguments ask for, or a usage message.
    pub fn into_command(self) -> Result<Command, String> {
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
                Some(path) => Some((path.clone(), picture_format(path)?)),
                None => None,
            },
        };
        if let Some(input) = print_file {
            return Ok(Command::Print { input, view });
        }
        if let Some(input) = self.play {
            if input.is_some() && self.size.is_some() {
                return Err(
                    "--size is for the level --play generates: it does not apply with a FILE"
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
                family: self.family.family(),
                save: self.output,
            }));
        }
        if let Some((width, height)) = self.generate {
            let output = self.output;
            if output.is_none() && !view.print && view.render.is_none() {
                return Err(
                    "--generate needs -o FILE (or -o - for standard output; or --print / --render to only show the level)"
                        .into(),
                );
            }
            return Ok(Command::Generate {
                width,
                height,
                output,
                nbcc: self.nbcc,
                seed: self.seed,
                family: self.family.family(),
                view,
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
        if self.print.is_some() && self.solve.is_none() {
            return Err("--print needs a FILE, or goes after --generate or --solve".into());
        }
        let input = self
            .solve
            .ok_or("one of --generate, --check, --solve, --print FILE or --play is required")?;
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
            view,
            trace: self.trace,
        })
    }
}

/// Options that only make sense in some modes, by clap id, with the flag users type and the
/// modes (clap ids of the mode flags) that accept them. Checked by hand because clap ignores
/// `requires` when the required argument sits in a group with the one given.
const MODE_OPTIONS: &[(&str, &str, &[&str])] = &[
    ("output", "-o/--output", &["generate", "solve", "play"]),
    ("method", "-m/--method", &["solve"]),
    ("timeout", "--timeout", &["solve"]),
    ("json", "--json", &["solve"]),
    ("no_flow", "--no-flow", &["solve"]),
    ("threads", "-t/--threads", &["solve"]),
    ("stats", "--stats", &["solve"]),
    ("nbcc", "-x/--nbcc", &["generate", "play"]),
    ("family", "--family", &["generate", "play"]),
    ("seed", "--seed", &["generate", "play"]),
    ("verbose", "-v/--verbose", &["check"]),
    ("print", "--print", &["generate", "solve", "print"]),
    ("show_domains", "--show-domains", &["generate", "print"]),
    ("color", "--color", &["generate", "solve", "print"]),
    ("render", "--render", &["generate", "solve", "print"]),
    ("trace", "--trace", &["solve"]),
    ("size", "--size", &["play"]),
];

/// Rejects an option given on the command line for a mode that does not use it.
pub fn check_mode_options(matches: &ArgMatches) -> Result<(), String> {
    let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    // `--print FILE` alone is the print mode; with another mode `--print` is its flag.
    let Some(mode) = ["generate", "check", "solve", "play", "print"]
        .into_iter()
        .find(|m| given(m))
    else {
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
            let allowed: Vec<String> = modes.iter().map(|m| format!("--{m}")).collect();
            return Err(format!(
                "{flag} does not apply to --{mode} (it goes with {})",
                allowed.join(" or ")
            ));
        }
    }
    Ok(())
}

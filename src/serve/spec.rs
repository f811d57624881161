//! The generate panel's request: size, grid, wrap, family, rules, unique, difficulty,
//! barriers, seed. It is checked as the command line checks `--generate`, and made by the
//! same library calls: the course generator for a bounded square Infinity level, the board
//! generator (and its uniqueness and barrier passes) for every other board, and the
//! difficulty generator (`--difficulty`) when a difficulty is asked for.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::error::ApiError;
use super::wire::{MAX_PAGE_SIDE, check_cells, object, only_keys, size_field, str_field};
use crate::board::{Board, BoardLevel, Rules, Tiling, Wrap};
use crate::deduce::Difficulty;
use crate::generate::board_difficulty::make_to_difficulty;
use crate::generate::board_families::{BoardFamily, generate_on_board, net_barriers};
use crate::generate::board_unique::{make_unique, make_unique_net};
use crate::generate::{Family, GenerateOptions, MazeAlgorithm, generate, generate_unique};

/// Unique levels are made by repeated solving: past this many cells the page would wait
/// minutes.
pub const MAX_UNIQUE_CELLS: usize = 4096;

/// Time a level made to a difficulty may take: the page waits for it.
const DIFFICULTY_LIMIT: Duration = Duration::from_secs(20);

/// Families of the bounded square board's generator, by the names the CLI uses.
const SQUARE_FAMILIES: [&str; 8] = [
    "random", "dominoes", "loops", "mixed", "straight", "hooks", "ladders", "maze",
];

/// Families every board has.
const BOARD_FAMILIES: [&str; 4] = ["random", "dominoes", "loops", "maze"];

/// A checked generate request.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Cell shape.
    pub tiling: Tiling,
    /// Which edges wrap.
    pub wrap: Wrap,
    /// A name of [`SQUARE_FAMILIES`] (of [`BOARD_FAMILIES`] off the bounded square board).
    pub family: &'static str,
    /// Rules of the level.
    pub rules: Rules,
    /// Exactly one solution.
    pub unique: bool,
    /// A unique level that needs exactly this rung of the deduction ladder (the family is
    /// then the difficulty generator's own).
    pub difficulty: Option<Difficulty>,
    /// Net barriers' probability.
    pub barriers: Option<f64>,
    /// The seed: the same spec and seed give the same level.
    pub seed: u64,
}

const KEYS: [&str; 10] = [
    "width",
    "height",
    "grid",
    "wrap",
    "family",
    "rules",
    "unique",
    "difficulty",
    "barriers",
    "seed",
];

/// The `difficulty` field: absent, null or empty for none.
fn difficulty_field(o: &Map<String, Value>) -> Result<Option<Difficulty>, ApiError> {
    let name = match o.get("difficulty") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s.is_empty() => return Ok(None),
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(ApiError::bad("`difficulty` must be a word")),
    };
    Difficulty::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .map(Some)
        .ok_or_else(|| {
            ApiError::bad(format!(
                "unknown difficulty `{name}` (easy, medium, hard or expert)"
            ))
        })
}

/// A seed as a number or a decimal string (JavaScript numbers stop being exact at 2^53).
fn seed_field(o: &Map<String, Value>) -> Result<u64, ApiError> {
    match o.get("seed") {
        None | Some(Value::Null) => Ok(fastrand::u64(..)),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(fastrand::u64(..)),
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map_err(|_| ApiError::bad(format!("`seed` must be 0 to 2^64-1, not `{s}`"))),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| ApiError::bad("`seed` must be a whole number")),
    }
}

impl Spec {
    /// The request `value`, checked (every refusal names the field).
    pub fn from_json(value: &Value) -> Result<Spec, ApiError> {
        let o = object(value, "the generate request")?;
        only_keys(o, "generate", &KEYS)?;
        let width = size_field(o, "width", MAX_PAGE_SIDE)?;
        let height = size_field(o, "height", MAX_PAGE_SIDE)?;
        check_cells(width, height)?;
        let text = |key: &str, default: &'static str| -> Result<String, ApiError> {
            match o.get(key) {
                None => Ok(default.to_string()),
                Some(_) => str_field(o, key).map(str::to_string),
            }
        };
        let grid = text("grid", "square")?;
        let tiling = Tiling::from_name(&grid)
            .filter(|t| t.is_uniform())
            .ok_or_else(|| ApiError::bad(format!("unknown grid `{grid}` (square or hexagonal)")))?;
        let wrap_name = text("wrap", "none")?;
        let wrap = Wrap::from_name(&wrap_name).ok_or_else(|| {
            ApiError::bad(format!(
                "unknown wrap `{wrap_name}` (none, both, horizontal or vertical)"
            ))
        })?;
        let rules_name = text("rules", "infinity")?;
        let rules = Rules::from_name(&rules_name).ok_or_else(|| {
            ApiError::bad(format!("unknown rules `{rules_name}` (infinity or net)"))
        })?;
        let unique = match o.get("unique") {
            None => false,
            Some(v) => v
                .as_bool()
                .ok_or_else(|| ApiError::bad("`unique` must be true or false"))?,
        };
        let barriers = match o.get("barriers") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_f64()
                    .filter(|p| (0.0..=1.0).contains(p))
                    .ok_or_else(|| ApiError::bad("`barriers` must be a probability, 0 to 1"))?,
            ),
        };
        let family_name = text("family", "random")?;
        let course = tiling == Tiling::Square && !wrap.any() && rules == Rules::Infinity;
        let allowed: &[&'static str] = if course {
            &SQUARE_FAMILIES
        } else {
            &BOARD_FAMILIES
        };
        let family = allowed
            .iter()
            .copied()
            .find(|f| *f == family_name)
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "family `{family_name}` is not one of {} on this board",
                    allowed.join(", ")
                ))
            })?;
        if barriers.is_some() && rules != Rules::Net {
            return Err(ApiError::bad("`barriers` go with Net rules"));
        }
        let difficulty = difficulty_field(o)?;
        if (unique || difficulty.is_some()) && width * height > MAX_UNIQUE_CELLS {
            return Err(ApiError::bad(format!(
                "unique levels are made here up to {MAX_UNIQUE_CELLS} cells, not {}",
                width * height
            )));
        }
        Board::new(tiling, width, height, wrap).map_err(ApiError::bad)?;
        Ok(Spec {
            width,
            height,
            tiling,
            wrap,
            family,
            rules,
            unique: unique || difficulty.is_some(),
            difficulty,
            barriers,
            seed: seed_field(o)?,
        })
    }

    /// The level of this spec, as the CLI's `--generate` makes it.
    pub fn generate(&self, cancel: &AtomicBool) -> Result<BoardLevel, ApiError> {
        let board =
            Board::new(self.tiling, self.width, self.height, self.wrap).map_err(ApiError::bad)?;
        if let Some(want) = self.difficulty {
            let limits = (u32::MAX, Some(Instant::now() + DIFFICULTY_LIMIT));
            let made = make_to_difficulty(&board, self.rules, want, self.seed, limits, cancel)
                .map_err(ApiError::unanswerable)?;
            return Ok(self.with_barriers(made.level, &made.solution));
        }
        if self.tiling == Tiling::Square && !self.wrap.any() && self.rules == Rules::Infinity {
            return self.generate_course();
        }
        let net = self.rules == Rules::Net;
        let family = if net {
            // Net wants one network without a loop: the solution is a spanning tree.
            BoardFamily::Maze
        } else {
            match self.family {
                "loops" => BoardFamily::Loops,
                "dominoes" => BoardFamily::Dominoes,
                "maze" => BoardFamily::Maze,
                _ => BoardFamily::Random { density: 0.5 },
            }
        };
        let (mut level, mut solution) = generate_on_board(&board, family, self.seed);
        if net {
            level = level.with_rules(Rules::Net);
            solution = solution.with_rules(Rules::Net);
        }
        if self.unique {
            // The CLI's stream and round budget, so the same seed gives the same level.
            let mut rng = fastrand::Rng::with_seed(self.seed ^ 0x756e_6971_7565);
            let rounds = 64 + 4 * board.len();
            let made = if net {
                make_unique_net(solution, &mut rng, rounds, cancel)
            } else {
                make_unique(solution, &mut rng, rounds, cancel)
            };
            (level, solution) = made.map_err(ApiError::unanswerable)?;
        }
        Ok(self.with_barriers(level, &solution))
    }

    /// `level` with the spec's Net barriers, drawn on sides `solution` does not use.
    fn with_barriers(&self, level: BoardLevel, solution: &BoardLevel) -> BoardLevel {
        match self.barriers {
            Some(p) => level
                .with_barriers(net_barriers(solution, p, self.seed ^ 0x6261_7272))
                .expect("barriers drawn on both ends of each side"),
            None => level,
        }
    }

    fn generate_course(&self) -> Result<BoardLevel, ApiError> {
        let mut options = GenerateOptions::new(self.height, self.width, self.seed);
        options.family = match self.family {
            "dominoes" => Family::Dominoes,
            "loops" => Family::Loops,
            "mixed" => Family::Mixed,
            "straight" => Family::Straight,
            "hooks" => Family::Hooks,
            "ladders" => Family::Ladders,
            "maze" => Family::Maze(MazeAlgorithm::Backtracker),
            _ => Family::Random,
        };
        options.validate().map_err(ApiError::bad)?;
        let game = if self.unique {
            generate_unique(&options)
                .map_err(|e| ApiError::unanswerable(e.to_string()))?
                .level
        } else {
            generate(&options)
        };
        Ok(BoardLevel::from_game(&game))
    }

    /// The same spec as the query string of a URL that reproduces the level.
    pub fn to_query(&self) -> String {
        let mut q = format!(
            "w={}&h={}&grid={}&wrap={}&family={}&rules={}&seed={}",
            self.width,
            self.height,
            self.tiling.name(),
            self.wrap.name(),
            self.family,
            self.rules.name(),
            self.seed
        );
        if self.unique {
            q.push_str("&unique=1");
        }
        if let Some(d) = self.difficulty {
            q.push_str(&format!("&difficulty={}", d.name()));
        }
        if let Some(p) = self.barriers {
            q.push_str(&format!("&barriers={p}"));
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_difficulty_gives_a_level_of_that_grade() {
        let cancel = AtomicBool::new(false);
        for (request, want) in [
            (
                json!({"width": 5, "height": 5, "difficulty": "medium", "seed": 4}),
                Difficulty::Medium,
            ),
            (
                json!({"width": 5, "height": 4, "grid": "hexagonal", "rules": "net", "difficulty": "hard", "seed": 4}),
                Difficulty::Hard,
            ),
        ] {
            let spec = Spec::from_json(&request).unwrap();
            assert!(
                spec.unique
                    && spec
                        .to_query()
                        .contains(&format!("difficulty={}", want.name()))
            );
            let level = spec.generate(&cancel).unwrap();
            assert_eq!(
                crate::deduce::grade(&level, None).difficulty(),
                Some(want),
                "{request}"
            );
        }
        let bad = Spec::from_json(&json!({"width": 4, "height": 4, "difficulty": "impossible"}));
        let err = bad.unwrap_err();
        assert!(err.status == 400 && err.message.contains("unknown difficulty"));
    }

    #[test]
    fn the_same_spec_and_seed_give_the_same_level_on_every_board() {
        let cancel = AtomicBool::new(false);
        for request in [
            json!({"width": 6, "height": 5, "seed": 3}),
            json!({"width": 6, "height": 5, "seed": "3", "family": "hooks"}),
            json!({"width": 5, "height": 5, "grid": "hexagonal", "wrap": "both", "seed": 9}),
            json!({"width": 5, "height": 4, "rules": "net", "barriers": 0.3, "seed": 9}),
            json!({"width": 4, "height": 4, "unique": true, "seed": 2}),
            json!({"width": 5, "height": 5, "difficulty": "medium", "seed": 2}),
            json!({"width": 5, "height": 4, "rules": "net", "difficulty": "hard", "seed": 2}),
        ] {
            let spec = Spec::from_json(&request).unwrap();
            let a = spec.generate(&cancel).unwrap();
            assert_eq!(a, spec.generate(&cancel).unwrap(), "{request}");
            assert_eq!(
                (a.board().width(), a.board().height()),
                (spec.width, spec.height)
            );
            assert_eq!(a.rules(), spec.rules);
        }
    }

    #[test]
    fn the_course_path_is_the_cli_generator() {
        let spec = Spec::from_json(&json!({"width": 7, "height": 4, "seed": 11})).unwrap();
        let level = spec.generate(&AtomicBool::new(false)).unwrap();
        let game = generate(&GenerateOptions::new(4, 7, 11));
        assert_eq!(level, BoardLevel::from_game(&game));
    }

    #[test]
    fn bad_requests_name_the_field() {
        for (request, message) in [
            (
                json!({"width": 0, "height": 5}),
                "`width` must be 1 to 1000",
            ),
            (
                json!({"width": 900, "height": 900}),
                "the page plays at most",
            ),
            (
                json!({"width": 5, "height": 5, "size": 3}),
                "unknown generate option `size`",
            ),
            (
                json!({"width": 5, "height": 5, "grid": "cube"}),
                "unknown grid `cube`",
            ),
            (
                json!({"width": 5, "height": 5, "wrap": "both", "family": "hooks"}),
                "not one of",
            ),
            (
                json!({"width": 5, "height": 5, "barriers": 0.5}),
                "go with Net rules",
            ),
            (
                json!({"width": 5, "height": 5, "seed": "x"}),
                "`seed` must be",
            ),
            (
                json!({"width": 100, "height": 100, "unique": true}),
                "unique levels are made",
            ),
            (json!([1, 2]), "must be a JSON object"),
        ] {
            let e = Spec::from_json(&request).unwrap_err();
            assert!(e.message.contains(message), "{request}: {}", e.message);
            assert_eq!(e.status, 400);
        }
    }
}

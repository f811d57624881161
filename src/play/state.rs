//! The game as a pure state machine: actions in, state out. No terminal here, so every rule
//! (rotation, undo, solved detection, hints, saving, the watch replay) is tested directly.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::PlayOptions;
use crate::board::Rules;
use crate::check::is_solved;
use crate::generate::{Family, GenerateOptions, generate};
use crate::level::any::{AnyLevel, load_any};
use crate::level::save_level;
use crate::model::{Game, Piece};
use crate::solve::{Event, FULL_DOMAIN, Outcome, SolveOptions, solve};

/// What a key or a click asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move the cursor up.
    Up,
    /// Move the cursor down.
    Down,
    /// Move the cursor left.
    Left,
    /// Move the cursor right.
    Right,
    /// Turn the piece under the cursor a quarter turn clockwise.
    Rotate,
    /// Turn it a quarter turn anticlockwise.
    RotateBack,
    /// Move the cursor to (row, col) and turn that piece (`back`: anticlockwise).
    Click {
        /// Row of the clicked cell.
        row: usize,
        /// Column of the clicked cell.
        col: usize,
        /// Turn anticlockwise (right click).
        back: bool,
    },
    /// Take back the last move.
    Undo,
    /// Set one cell to its orientation in the solution.
    Hint,
    /// Explain the next deduction and mark the cells it reads (turns nothing).
    Explain,
    /// Mark the pieces whose current orientation no solution allows.
    Mistakes,
    /// Save the level as it stands.
    Save,
    /// Start a new generated level (asks again when moves would be lost).
    NewLevel,
    /// Start or stop watching the solver.
    Watch,
    /// Replay the solver's events faster.
    Faster,
    /// Replay them slower.
    Slower,
    /// Leave the game.
    Quit,
    /// A key with no action of its own: it only answers "no" to a pending question.
    Other,
}

/// What the caller must do after an action (the state machine itself runs no thread).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more to do.
    None,
    /// Start the observed search on [`Play::game`] and feed its events to [`Play::watch_event`].
    StartWatch,
    /// Stop feeding and drop the solver.
    StopWatch,
}

/// Who solved the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolvedBy {
    /// The player turned the last piece into place.
    Player,
    /// The watched solver finished the grid.
    Solver,
}

/// One undoable change.
#[derive(Clone, Copy, Debug)]
struct Step {
    cell: usize,
    before: Piece,
    hint: bool,
}

/// Replay speeds of the watch mode, in solver events per second.
pub const SPEEDS: [u32; 13] = [
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 20_000, 100_000,
];
const DEFAULT_SPEED: usize = 5;

/// What the solver has done so far, as the watch mode shows it.
#[derive(Clone, Debug)]
pub struct Watch {
    /// Orientation domain per cell (row-major), as the events left it.
    pub dom: Vec<u8>,
    /// Cell of the latest event.
    pub focus: Option<usize>,
    /// Latest event other than a restoration.
    pub last: Option<Event>,
    /// Solver events replayed so far.
    pub events: u64,
    /// Decisions among them.
    pub decisions: u64,
    /// Conflicts among them.
    pub conflicts: u64,
    /// Backtracks among them.
    pub backtracks: u64,
    /// (1-based region number, its undecided cells).
    pub region: Option<(usize, usize)>,
    /// Events owed to the replay (fractional, from the speed and the time passed).
    budget: f64,
    last_tick: Option<Instant>,
}

impl Watch {
    /// Every cell may still take every orientation of its kind (as the solver starts).
    pub fn new(game: &Game) -> Watch {
        Watch {
            dom: game
                .cells()
                .iter()
                .map(|p| FULL_DOMAIN[p.kind().code() as usize])
                .collect(),
            focus: None,
            last: None,
            events: 0,
            decisions: 0,
            conflicts: 0,
            backtracks: 0,
            region: None,
            budget: 0.0,
            last_tick: None,
        }
    }

    /// Applies one solver event.
    pub fn apply(&mut self, width: usize, e: Event) {
        self.events += 1;
        match e {
            Event::RegionStart { index, cells } => self.region = Some((index + 1, cells)),
            Event::Decide {
                row,
                col,
                orientation,
                ..
            } => {
                self.decisions += 1;
                self.dom[row * width + col] = 1 << orientation;
                self.focus = Some(row * width + col);
            }
            Event::Narrow {
                row, col, after, ..
            } => {
                self.dom[row * width + col] = after;
                self.focus = Some(row * width + col);
            }
            Event::Restore { row, col, domain } => {
                self.dom[row * width + col] = domain;
                self.focus = Some(row * width + col);
                return;
            }
            Event::Conflict { .. } => self.conflicts += 1,
            // Shown as the latest event; the restorations before it already reset the grid.
            Event::Restart { .. } => {}
            Event::Backtrack { row, col, .. } => {
                self.backtracks += 1;
                self.focus = Some(row * width + col);
            }
        }
        self.last = Some(e);
    }
}

/// The level generator's settings, for `n` (new level).
#[derive(Clone, Debug)]
pub struct LevelSpec {
    /// Height of generated levels.
    pub height: usize,
    /// Width of generated levels.
    pub width: usize,
    /// Seed of the next generated level.
    pub next_seed: u64,
    /// At most this many connected components.
    pub nbcc: Option<usize>,
    /// Family of generated levels.
    pub family: Family,
}

/// The whole state of a game: the grid, the cursor, the history, the watch mode and the messages.
pub struct Play {
    /// The grid as the player left it.
    pub game: Game,
    /// (row, col) of the cursor.
    pub cursor: (usize, usize),
    history: Vec<Step>,
    /// Moves made on this level.
    pub moves: u32,
    /// Hints taken on this level.
    pub hints: u32,
    /// Who solved the grid, once solved.
    pub solved: Option<SolvedBy>,
    /// The solver's verified answer for this level, once asked for (`Some(None)`: none).
    solution: Option<Option<Game>>,
    /// How to generate the next level.
    pub spec: LevelSpec,
    /// What the title shows: the file name, or the size and seed.
    pub name: String,
    /// Where `s` saves.
    pub save_path: PathBuf,
    /// The save path the user gave (`-o`): kept for every level of the session.
    save_override: Option<PathBuf>,
    /// The status line's message.
    pub message: String,
    /// The solver being watched, if any.
    pub watch: Option<Watch>,
    /// Replay speed: an index into the speeds table.
    pub speed: usize,
    started: Instant,
    finished: Option<Instant>,
    /// Top-left cell shown when the grid is larger than the screen (kept by the view).
    pub scroll: (usize, usize),
    /// The cell a hint just set.
    pub highlight: Option<(usize, usize)>,
    /// Cells marked by `?` (the cells an explained step reads) or `m` (mistakes).
    pub marks: Vec<usize>,
    /// The level's grade by the deduction ladder (`easy` ... `expert`, `search`).
    pub grade: String,
    /// The player asked to leave.
    pub quit: bool,
    /// `n` was pressed once with moves made: the next `n` discards them.
    confirm_new: bool,
}

/// `lvl.txt` → `lvl.save.txt`.
/// The level in `path` if the terminal game can play it: a bounded square board under the
/// Infinity Loop rules, in any file format. Other boards and rules get a message that says
/// which commands take them.
fn terminal_level(path: &Path) -> Result<Game, String> {
    let (level, _) = load_any(path, false).map_err(|e| e.to_string())?;
    let board = match level {
        AnyLevel::Course(game) => return Ok(game),
        AnyLevel::Board(board) => board,
    };
    let why = if !board.board().is_bounded_square() {
        Some(format!(
            "a {} board{}",
            board.board().tiling().name(),
            if board.board().wrap().any() {
                " that wraps"
            } else {
                ""
            }
        ))
    } else if board.rules() != Rules::Infinity {
        Some(format!("the {} rules", board.rules().name()))
    } else if board.has_barriers() || board.has_locks() {
        Some("barriers or locked tiles".to_string())
    } else {
        None
    };
    match (why, board.to_game()) {
        (None, Some(game)) => Ok(game),
        (why, _) => Err(format!(
            "{}: the terminal game plays bounded square levels under the Infinity Loop rules, and this level has {}; play it in a browser with `--serve` or `--render FILE.html`",
            path.display(),
            why.unwrap_or_else(|| "another board".into())
        )),
    }
}

pub fn default_save_path(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level".into());
    input.with_file_name(format!("{stem}.save.txt"))
}

fn generated_name(spec: &LevelSpec, seed: u64) -> String {
    format!("{}x{} seed {seed}", spec.width, spec.height)
}

/// Where a generated level is saved when the user named no file.
fn generated_save_path(spec: &LevelSpec, seed: u64) -> PathBuf {
    PathBuf::from(format!(
        "phineloops-{}x{}-seed{seed}.save.txt",
        spec.width, spec.height
    ))
}

impl Play {
    /// The first level: read from the options' file, or generated.
    pub fn new(opts: &PlayOptions, now: Instant) -> Result<Play, String> {
        let seed = opts.seed.unwrap_or_else(|| fastrand::u64(..));
        let (game, name, from_file) = match &opts.input {
            Some(path) if path.as_os_str() == "-" => {
                return Err(
                    "--play reads keys from the terminal: give the level as a FILE, not `-`".into(),
                );
            }
            Some(path) => {
                let g = terminal_level(path)?;
                (g, path.display().to_string(), true)
            }
            None => {
                let mut o = GenerateOptions::new(opts.height, opts.width, seed);
                o.max_components = opts.nbcc;
                o.family = opts.family;
                let spec = LevelSpec {
                    height: opts.height,
                    width: opts.width,
                    next_seed: seed,
                    nbcc: opts.nbcc,
                    family: opts.family,
                };
                (generate(&o), generated_name(&spec, seed), false)
            }
        };
        let spec = LevelSpec {
            height: game.height(),
            width: game.width(),
            // A generated first level used `seed`; `n` goes on from the next one.
            next_seed: if from_file {
                seed
            } else {
                seed.wrapping_add(1)
            },
            nbcc: opts.nbcc,
            family: opts.family,
        };
        let save_path = match (&opts.save, &opts.input) {
            (Some(p), _) => p.clone(),
            (None, Some(input)) => default_save_path(input),
            (None, None) => generated_save_path(&spec, seed),
        };
        let mut p = Play::with_game(game, name, spec, save_path, now);
        p.save_override = opts.save.clone();
        Ok(p)
    }

    /// A game on `game` (used by `new` and by tests).
    pub fn with_game(
        game: Game,
        name: String,
        spec: LevelSpec,
        save_path: PathBuf,
        now: Instant,
    ) -> Play {
        let mut p = Play {
            game,
            cursor: (0, 0),
            history: Vec::new(),
            moves: 0,
            hints: 0,
            solved: None,
            solution: None,
            spec,
            name,
            save_path,
            save_override: None,
            message: String::new(),
            watch: None,
            speed: DEFAULT_SPEED,
            started: now,
            finished: None,
            scroll: (0, 0),
            highlight: None,
            marks: Vec::new(),
            grade: String::new(),
            quit: false,
            confirm_new: false,
        };
        p.grade = super::explain::grade_word(&p.game);
        p.recheck(now);
        if p.solved.is_some() {
            p.message = "this grid is already solved".into();
        }
        p
    }

    /// Time spent on this level (frozen once solved).
    pub fn elapsed(&self, now: Instant) -> Duration {
        self.finished
            .unwrap_or(now)
            .saturating_duration_since(self.started)
    }

    fn recheck(&mut self, now: Instant) {
        if is_solved(&self.game) {
            if self.solved.is_none() {
                self.solved = Some(SolvedBy::Player);
                self.finished = Some(now);
            }
        } else {
            self.solved = None;
            self.finished = None;
        }
    }

    fn cell(&self, (r, c): (usize, usize)) -> usize {
        self.game.index(r, c)
    }

    /// Changes `cell` to `piece`, recording the change for undo.
    fn set(&mut self, cell: usize, piece: Piece, hint: bool, now: Instant) {
        self.marks.clear();
        let before = self.game.cells()[cell];
        self.history.push(Step { cell, before, hint });
        self.game.cells_mut()[cell] = piece;
        self.recheck(now);
        if self.solved == Some(SolvedBy::Player) {
            self.message = format!(
                "SOLVED in {} move{}{} — n: new level, q: quit",
                self.moves,
                if self.moves == 1 { "" } else { "s" },
                if self.hints > 0 {
                    format!(
                        " and {} hint{}",
                        self.hints,
                        if self.hints == 1 { "" } else { "s" }
                    )
                } else {
                    String::new()
                }
            );
        }
    }

    fn rotate(&mut self, at: (usize, usize), turns: u8, now: Instant) {
        if self.solved.is_some() {
            self.message = "solved — n: new level, u: undo, q: quit".into();
            return;
        }
        let cell = self.cell(at);
        let p = self.game.cells()[cell];
        if p.kind().orientations() == 1 {
            self.message = format!("the {} piece here has nothing to turn", p.kind().name());
            return;
        }
        let turned = p.with_orientation(p.orientation() + turns);
        self.moves += 1;
        self.highlight = None;
        self.message.clear();
        self.set(cell, turned, false, now);
    }

    /// Applies `action` at time `now`.
    pub fn apply(&mut self, action: Action, now: Instant) -> Effect {
        if self.watch.is_some() {
            return self.apply_watching(action);
        }
        let (h, w) = (self.game.height(), self.game.width());
        let (r, c) = self.cursor;
        // Any other key between the two `n` cancels the question.
        let confirmed = std::mem::take(&mut self.confirm_new);
        if confirmed && action != Action::NewLevel {
            self.message.clear();
        }
        match action {
            Action::Up => self.cursor.0 = r.saturating_sub(1),
            Action::Down => self.cursor.0 = (r + 1).min(h - 1),
            Action::Left => self.cursor.1 = c.saturating_sub(1),
            Action::Right => self.cursor.1 = (c + 1).min(w - 1),
            Action::Rotate => self.rotate(self.cursor, 1, now),
            Action::RotateBack => self.rotate(self.cursor, 3, now),
            Action::Click { row, col, back } => {
                if row < h && col < w {
                    self.cursor = (row, col);
                    self.rotate(self.cursor, if back { 3 } else { 1 }, now);
                }
            }
            Action::Undo => self.undo(now),
            Action::Hint => self.hint(now),
            Action::Explain => self.explain(),
            Action::Mistakes => self.mark_mistakes(),
            Action::Save => self.save(),
            Action::NewLevel if !confirmed && self.moves > 0 && self.solved.is_none() => {
                self.confirm_new = true;
                self.message = format!(
                    "n again discards your {} move{} for a new level (s saves first)",
                    self.moves,
                    if self.moves == 1 { "" } else { "s" }
                );
            }
            Action::NewLevel => self.new_level(now),
            Action::Watch => {
                self.watch = Some(Watch::new(&self.game));
                self.message = "watching the solver — +/- speed, w stop".into();
                return Effect::StartWatch;
            }
            Action::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => self.speed = self.speed.saturating_sub(1),
            Action::Quit => self.quit = true,
            Action::Other => {}
        }
        Effect::None
    }

    fn apply_watching(&mut self, action: Action) -> Effect {
        match action {
            Action::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => self.speed = self.speed.saturating_sub(1),
            Action::Watch => {
                self.watch = None;
                self.message = "stopped watching".into();
                return Effect::StopWatch;
            }
            Action::Quit => {
                self.quit = true;
                return Effect::StopWatch;
            }
            _ => self.message = "watching the solver — w stops, +/- speed".into(),
        }
        Effect::None
    }

    fn undo(&mut self, now: Instant) {
        let Some(step) = self.history.pop() else {
            self.message = "nothing to undo".into();
            return;
        };
        self.game.cells_mut()[step.cell] = step.before;
        if !step.hint {
            self.moves = self.moves.saturating_sub(1);
        }
        self.cursor = (step.cell / self.game.width(), step.cell % self.game.width());
        self.highlight = None;
        self.message = "undone".into();
        self.recheck(now);
    }

    /// The solver's verified solution of this level (computed once).
    pub fn solution(&mut self) -> Option<&Game> {
        if self.solution.is_none() {
            let cancel = AtomicBool::new(false);
            let found = match solve(&self.game, &SolveOptions::default(), &cancel).0 {
                Outcome::Solved(g) if is_solved(&g) && g.same_shapes(&self.game) => Some(g),
                _ => None,
            };
            self.solution = Some(found);
        }
        self.solution.as_ref().and_then(|s| s.as_ref())
    }

    /// Shows the next deduction the grid does not follow yet and marks the cells it reads.
    fn explain(&mut self) {
        if self.solved.is_some() {
            self.message = "already solved".into();
            return;
        }
        match super::explain::explained_step(&self.game) {
            Some(step) => {
                let w = self.game.width();
                self.cursor = (step.cells[0] / w, step.cells[0] % w);
                self.marks = step.cells;
                // Sorted: the view looks each drawn cell up.
                self.marks.sort_unstable();
                self.message = step.text;
            }
            None => {
                self.marks.clear();
                self.message =
                    "no rule up to the trial applies: the next step is a guess (H turns a piece)"
                        .into();
            }
        }
    }

    /// Marks the pieces whose current orientation the deductions rule out.
    fn mark_mistakes(&mut self) {
        self.marks = super::explain::mistakes(&self.game);
        self.message = match self.marks.len() {
            0 => "no piece is surely wrong".into(),
            1 => "1 piece is surely wrong (marked)".into(),
            n => format!("{n} pieces are surely wrong (marked)"),
        };
    }

    /// Sets one wrong piece (the nearest to the cursor) to the solver's orientation.
    fn hint(&mut self, now: Instant) {
        if self.solved.is_some() {
            self.message = "already solved".into();
            return;
        }
        let (cr, cc) = self.cursor;
        let w = self.game.width();
        if self.solution().is_none() {
            self.message = match crate::explain::explain(&self.game) {
                Some(why) => format!(
                    "no hint: no solution, {}",
                    why.message(&self.game).replace("\n ", "")
                ),
                None => "no hint: the solver proved this level has no solution".into(),
            };
            return;
        }
        let Some(Some(sol)) = &self.solution else {
            return;
        };
        let target = sol
            .cells()
            .iter()
            .zip(self.game.cells())
            .enumerate()
            .filter(|(_, (s, g))| s.mask() != g.mask())
            .min_by_key(|&(i, _)| (i / w).abs_diff(cr) + (i % w).abs_diff(cc))
            .map(|(i, (s, _))| (i, *s));
        let Some((cell, piece)) = target else {
            // Unreachable in practice: a grid equal to a solution is solved.
            self.message = "every piece already matches the solution".into();
            return;
        };
        self.hints += 1;
        self.cursor = (cell / w, cell % w);
        self.highlight = Some(self.cursor);
        self.message = format!("hint: ({}, {}) turned", cell / w, cell % w);
        self.set(cell, piece, true, now);
    }

    fn save(&mut self) {
        self.message = match save_level(&self.save_path, &self.game) {
            Ok(()) => format!("saved to {}", self.save_path.display()),
            Err(e) => format!("cannot save: {e}"),
        };
    }

    fn new_level(&mut self, now: Instant) {
        let seed = self.spec.next_seed;
        let mut o = GenerateOptions::new(self.spec.height, self.spec.width, seed);
        o.max_components = self.spec.nbcc;
        o.family = self.spec.family;
        let game = generate(&o);
        self.spec.next_seed = seed.wrapping_add(1);
        let name = generated_name(&self.spec, seed);
        let save_override = self.save_override.take();
        let save_path = save_override
            .clone()
            .unwrap_or_else(|| generated_save_path(&self.spec, seed));
        let speed = self.speed;
        *self = Play::with_game(game, name, self.spec.clone(), save_path, now);
        self.speed = speed;
        self.save_override = save_override;
        self.message = format!("new level, seed {seed}");
    }

    /// Events the watch replay owes at `now` at the current speed (at most a quarter second's
    /// worth, so a stall does not turn into a burst).
    pub fn events_due(&mut self, now: Instant) -> usize {
        let speed = f64::from(SPEEDS[self.speed]);
        let Some(w) = self.watch.as_mut() else {
            return 0;
        };
        let dt = w
            .last_tick
            .map_or(0.0, |t| now.saturating_duration_since(t).as_secs_f64());
        w.last_tick = Some(now);
        w.budget = (w.budget + speed * dt).min(speed * 0.25 + 1.0);
        let due = w.budget.floor();
        w.budget -= due;
        due as usize
    }

    /// Applies one event of the watched solver.
    pub fn watch_event(&mut self, e: Event) {
        let width = self.game.width();
        if let Some(w) = self.watch.as_mut() {
            w.apply(width, e);
        }
    }

    /// The watched solver has finished with `outcome`.
    pub fn watch_end(&mut self, outcome: Outcome, now: Instant) {
        let counts = self.watch.as_ref().map_or(String::new(), |w| {
            format!(
                "{} decisions, {} conflicts, {} backtracks",
                w.decisions, w.conflicts, w.backtracks
            )
        });
        self.watch = None;
        match outcome {
            Outcome::Solved(g) => {
                self.solution = Some(Some(g.clone()));
                self.game = g;
                self.history.clear();
                self.solved = Some(SolvedBy::Solver);
                self.finished = Some(now);
                self.message = format!("the solver solved it: {counts} — n: new level");
            }
            Outcome::Unsolvable => {
                self.solution = Some(None);
                self.message = format!("the solver proved there is no solution: {counts}");
            }
            other => self.message = format!("the solver stopped: {other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{level_bytes, load_level, parse_level};
    use crate::model::PieceKind;

    fn spec(h: usize, w: usize) -> LevelSpec {
        LevelSpec {
            height: h,
            width: w,
            next_seed: 1,
            nbcc: None,
            family: Family::Random,
        }
    }

    fn play_on(text: &str) -> Play {
        let g = parse_level("t", text.as_bytes()).unwrap();
        let (h, w) = (g.height(), g.width());
        Play::with_game(
            g,
            "t".into(),
            spec(h, w),
            PathBuf::from("unused.txt"),
            Instant::now(),
        )
    }

    /// Q east, Q east: turning the right one twice solves it.
    const PAIR: &str = "1\n2\n1 1\n1 1\n";

    #[test]
    fn rotating_solves_and_freezes_the_clock() {
        let t0 = Instant::now();
        let mut p = play_on(PAIR);
        assert_eq!(p.solved, None);
        p.apply(Action::Right, t0);
        assert_eq!(p.cursor, (0, 1));
        p.apply(Action::Rotate, t0);
        assert_eq!(p.game.get(0, 1), Piece::new(PieceKind::Q, 2));
        assert_eq!(p.solved, None);
        let t1 = t0 + Duration::from_secs(5);
        p.apply(Action::Rotate, t1);
        assert_eq!(p.solved, Some(SolvedBy::Player));
        assert_eq!(p.moves, 2);
        assert!(p.message.contains("SOLVED in 2 moves"), "{}", p.message);
        let later = t1 + Duration::from_secs(60);
        assert_eq!(p.elapsed(later), p.elapsed(t1));
        // Solved grids are locked until undone.
        p.apply(Action::Rotate, later);
        assert_eq!(p.moves, 2);
    }

    #[test]
    fn explain_marks_the_cells_of_a_step_and_turns_nothing_and_m_marks_the_wrong_piece() {
        let t = Instant::now();
        let mut p = play_on(PAIR);
        assert_eq!(p.grade, "easy");
        let before = p.game.clone();
        p.apply(Action::Explain, t);
        assert_eq!(p.game, before, "? turns nothing");
        assert!(p.message.starts_with("[1 border] "), "{}", p.message);
        // The first cell (Q east) already follows the border rule: the step is the second.
        assert_eq!(p.marks, vec![1]);
        assert_eq!(p.cursor, (0, 1));
        p.apply(Action::Mistakes, t);
        assert_eq!(p.marks, vec![1], "{}", p.message);
        p.apply(Action::Rotate, t);
        assert!(p.marks.is_empty(), "a turn clears the marks");
        p.apply(Action::Rotate, t);
        assert_eq!(p.solved, Some(SolvedBy::Player));
    }

    #[test]
    fn undo_restores_pieces_moves_and_the_solved_state() {
        let t = Instant::now();
        let mut p = play_on(PAIR);
        p.apply(
            Action::Click {
                row: 0,
                col: 1,
                back: true,
            },
            t,
        );
        assert_eq!(p.game.get(0, 1), Piece::new(PieceKind::Q, 0));
        p.apply(Action::RotateBack, t);
        assert_eq!(p.solved, Some(SolvedBy::Player));
        p.apply(Action::Undo, t);
        assert_eq!(p.solved, None);
        assert_eq!(p.game.get(0, 1), Piece::new(PieceKind::Q, 0));
        p.apply(Action::Undo, t);
        assert_eq!(p.game.get(0, 1), Piece::new(PieceKind::Q, 1));
        assert_eq!(p.moves, 0);
        p.apply(Action::Undo, t);
        assert_eq!(p.message, "nothing to undo");
    }

    #[test]
    fn the_cursor_stays_on_the_grid() {
        let t = Instant::now();
        let mut p = play_on(PAIR);
        for a in [Action::Up, Action::Left, Action::Left] {
            p.apply(a, t);
        }
        assert_eq!(p.cursor, (0, 0));
        for a in [Action::Down, Action::Right, Action::Right] {
            p.apply(a, t);
        }
        assert_eq!(p.cursor, (0, 1));
        // A click outside the grid is ignored.
        p.apply(
            Action::Click {
                row: 3,
                col: 0,
                back: false,
            },
            t,
        );
        assert_eq!((p.cursor, p.moves), ((0, 1), 0));
    }

    #[test]
    fn hints_set_a_cell_to_a_verified_solution_until_solved() {
        let t = Instant::now();
        for seed in 0..10 {
            let mut o = GenerateOptions::new(6, 7, seed);
            o.max_components = Some(2);
            let g = generate(&o);
            let mut p = Play::with_game(g, "g".into(), spec(6, 7), PathBuf::from("x"), t);
            let sol = p
                .solution()
                .cloned()
                .expect("generated levels are solvable");
            assert!(is_solved(&sol));
            let mut steps = 0;
            while p.solved.is_none() {
                let before = p.game.clone();
                p.apply(Action::Hint, t);
                let (r, c) = p.highlight.expect("a hint marks its cell");
                assert_eq!(p.game.get(r, c).mask(), sol.get(r, c).mask());
                assert_ne!(before.get(r, c).mask(), sol.get(r, c).mask());
                let changed = (0..p.game.len())
                    .filter(|&i| p.game.cells()[i] != before.cells()[i])
                    .count();
                assert_eq!(changed, 1, "a hint changes one cell");
                steps += 1;
                assert!(steps <= 42);
            }
            assert_eq!(p.hints, steps);
            assert_eq!(p.game, sol);
            // Undoing a hint does not give the hint back.
            p.apply(Action::Undo, t);
            assert_eq!((p.solved, p.hints), (None, steps));
        }
    }

    #[test]
    fn a_hint_on_an_unsolvable_level_says_so() {
        let mut p = play_on("1\n1\n4 0\n");
        p.apply(Action::Hint, Instant::now());
        assert!(p.message.contains("no solution"), "{}", p.message);
        // A lone X: the hint says why (its four ends have no partner).
        assert!(p.message.contains("4 connection ends"), "{}", p.message);
    }

    #[test]
    fn save_round_trips_through_the_reader() {
        let dir = tempfile::tempdir().unwrap();
        let t = Instant::now();
        let mut p = play_on("2\n2\n5 0\n5 1\n2 1\n1 3\n");
        p.save_path = dir.path().join("lvl.save.txt");
        p.apply(Action::Rotate, t);
        p.apply(Action::Down, t);
        p.apply(Action::Rotate, t);
        p.apply(Action::Save, t);
        assert!(p.message.starts_with("saved to"), "{}", p.message);
        let back = load_level(&p.save_path).unwrap();
        assert_eq!(back, p.game);
        assert_eq!(level_bytes(&back), level_bytes(&p.game));
        p.save_path = dir.path().join("missing/dir/x.txt");
        p.apply(Action::Save, t);
        assert!(p.message.starts_with("cannot save"), "{}", p.message);
    }

    #[test]
    fn new_levels_follow_the_seed() {
        let t = Instant::now();
        let opts = PlayOptions {
            input: None,
            width: 5,
            height: 4,
            seed: Some(9),
            nbcc: None,
            family: Family::Random,
            save: None,
        };
        let mut p = Play::new(&opts, t).unwrap();
        assert_eq!(p.game, generate(&GenerateOptions::new(4, 5, 9)));
        assert_eq!(p.name, "5x4 seed 9");
        p.speed = 2;
        p.apply(Action::Rotate, t);
        // With progress, the first `n` only asks; another key cancels the question.
        let before = p.game.clone();
        p.apply(Action::NewLevel, t);
        assert_eq!((&p.game, p.moves), (&before, 1));
        assert!(
            p.message.starts_with("n again discards your 1 move for"),
            "{}",
            p.message
        );
        p.apply(Action::Left, t);
        assert!(p.message.is_empty(), "{}", p.message);
        p.apply(Action::NewLevel, t);
        assert_eq!(p.game, before);
        // A key with no action of its own cancels the question too.
        p.apply(Action::Other, t);
        assert!(p.message.is_empty(), "{}", p.message);
        p.apply(Action::NewLevel, t);
        assert_eq!(p.game, before);
        assert!(p.message.starts_with("n again"), "{}", p.message);
        p.apply(Action::NewLevel, t);
        assert_eq!(p.game, generate(&GenerateOptions::new(4, 5, 10)));
        assert_eq!((p.moves, p.speed), (0, 2));
        assert_eq!(p.save_path, PathBuf::from("phineloops-5x4-seed10.save.txt"));
    }

    #[test]
    fn a_level_file_saves_beside_itself() {
        assert_eq!(
            default_save_path(Path::new("dir/lvl.txt")),
            PathBuf::from("dir/lvl.save.txt")
        );
        let opts = PlayOptions {
            input: Some(PathBuf::from("/no/such/level.txt")),
            width: 8,
            height: 8,
            seed: None,
            nbcc: None,
            family: Family::Random,
            save: None,
        };
        let e = Play::new(&opts, Instant::now()).err().unwrap();
        assert!(e.contains("/no/such/level.txt"), "{e}");
    }

    #[test]
    fn watching_blocks_moves_and_replays_events() {
        let t = Instant::now();
        let mut p = play_on(PAIR);
        assert_eq!(p.apply(Action::Watch, t), Effect::StartWatch);
        assert_eq!(p.watch.as_ref().unwrap().dom, vec![0b1111, 0b1111]);
        p.apply(Action::Rotate, t);
        assert_eq!(p.moves, 0);
        p.watch_event(Event::Decide {
            row: 0,
            col: 0,
            orientation: 1,
            depth: 1,
        });
        p.watch_event(Event::Narrow {
            row: 0,
            col: 1,
            before: 0b1111,
            after: 0b1000,
        });
        let w = p.watch.as_ref().unwrap();
        assert_eq!(
            (w.dom.clone(), w.decisions, w.focus),
            (vec![0b10, 0b1000], 1, Some(1))
        );
        let sol = parse_level("t", b"1\n2\n1 1\n1 3\n").unwrap();
        p.watch_end(Outcome::Solved(sol.clone()), t);
        assert_eq!((p.solved, &p.game), (Some(SolvedBy::Solver), &sol));
        assert!(p.watch.is_none());
    }

    #[test]
    fn the_replay_owes_events_by_speed_and_time() {
        let t = Instant::now();
        let mut p = play_on(PAIR);
        p.apply(Action::Watch, t);
        p.speed = 3; // 10 events per second
        assert_eq!(p.events_due(t), 0);
        assert_eq!(p.events_due(t + Duration::from_millis(200)), 2);
        // A long stall is capped to a quarter second's worth.
        assert_eq!(p.events_due(t + Duration::from_secs(100)), 3);
        assert_eq!(p.apply(Action::Watch, t), Effect::StopWatch);
        assert_eq!(p.events_due(t), 0);
    }

    #[test]
    fn a_square_level_in_any_format_plays_and_other_boards_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let square = dir.path().join("sq.txt");
        std::fs::write(&square, "board square 2x1\n2\n8\n").unwrap();
        let game = terminal_level(&square).unwrap();
        assert_eq!((game.width(), game.height()), (2, 1));
        let cases = [
            ("board hexagonal 2x2\n0\n0\n0\n0\n", "a hexagonal board"),
            (
                "board square 2x2 wrap=both\n0\n0\n0\n0\n",
                "a square board that wraps",
            ),
            ("board square 2x1 rules=net\n2\n8\n", "the net rules"),
        ];
        for (text, why) in cases {
            let path = dir.path().join("other.txt");
            std::fs::write(&path, text).unwrap();
            let err = terminal_level(&path).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
    }
}

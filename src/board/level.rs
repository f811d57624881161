//! [`BoardLevel`]: a level on any [`Board`]: one side mask per cell, the [`Rules`] it is played
//! by, and optionally barriers (sides no connection crosses) and locked cells (turned by nobody).
//! A bounded square board converts to and from the course format's [`Game`] without loss
//! (rules, barriers and locks aside: the course format cannot say them).

use super::{Board, Tiling, Wrap};
use crate::model::{Game, Piece};

/// What makes a level solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Infinity Loop: every connection meets one across the same side (loops and several
    /// networks allowed).
    #[default]
    Infinity,
    /// Net (Simon Tatham's Net, hexapipes): as Infinity, and the pieces form one network
    /// without a loop (a spanning tree of the non-empty cells).
    Net,
}

impl Rules {
    /// Both rule sets.
    pub const ALL: [Rules; 2] = [Rules::Infinity, Rules::Net];

    /// The word files and the command line use: `infinity`, `net`.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Infinity => "infinity",
            Rules::Net => "net",
        }
    }

    /// The rules a word of [`Rules::name`] stands for.
    pub fn from_name(name: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// A board and the piece on each of its cells, as a side mask in the board's bit order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLevel {
    board: Board,
    masks: Vec<u8>,
    rules: Rules,
    /// Per cell, the sides with a barrier (empty: no barrier anywhere, the common case).
    barriers: Vec<u8>,
    /// Per cell, whether it is locked (empty: none is).
    locked: Vec<bool>,
}

impl BoardLevel {
    /// A level of `masks` (one per cell, row-major) on `board`. Fails when the count is
    /// wrong or a mask has a bit beyond the cell's sides.
    pub fn new(board: Board, masks: Vec<u8>) -> Result<BoardLevel, String> {
        if masks.len() != board.len() {
            return Err(format!(
                "a {}x{} board has {} cells, not {}",
                board.width(),
                board.height(),
                board.len(),
                masks.len()
            ));
        }
        let beyond = |c: usize, m: u8| (m as u32) >> board.cell_sides(c) != 0;
        if let Some(i) = (0..masks.len()).find(|&i| beyond(i, masks[i])) {
            return Err(format!(
                "cell {i}: mask {} has a side beyond the {} of a {} cell",
                masks[i],
                board.cell_sides(i),
                board.tiling().name()
            ));
        }
        Ok(BoardLevel {
            board,
            masks,
            rules: Rules::Infinity,
            barriers: Vec::new(),
            locked: Vec::new(),
        })
    }

    /// The rules the level is played by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same level under `rules`.
    pub fn with_rules(mut self, rules: Rules) -> BoardLevel {
        self.rules = rules;
        self
    }

    /// The sides of `cell` with a barrier.
    #[inline]
    pub fn barrier(&self, cell: usize) -> u8 {
        self.barriers.get(cell).copied().unwrap_or(0)
    }

    /// True when some side has a barrier.
    pub fn has_barriers(&self) -> bool {
        !self.barriers.is_empty()
    }

    /// The same level with `barriers` (a side mask per cell). A barrier stands between two
    /// cells, so both must name it: fails when one side of a link has it and the other not,
    /// or a mask has a bit beyond the cell's sides. A barrier on a border side is dropped (a
    /// border is a wall already), so equal levels have equal barriers.
    pub fn with_barriers(mut self, mut barriers: Vec<u8>) -> Result<BoardLevel, String> {
        let b = &self.board;
        if barriers.len() != b.len() {
            return Err(format!(
                "{} barrier masks for {} cells",
                barriers.len(),
                b.len()
            ));
        }
        let k = b.sides() as usize;
        for (c, &m) in barriers.iter().enumerate() {
            if (m as u32) >> b.cell_sides(c) != 0 {
                return Err(format!(
                    "cell {c}: barrier mask {m} has a side beyond the {} of a {} cell",
                    b.cell_sides(c),
                    b.tiling().name()
                ));
            }
            for s in 0..k {
                if let Some((n, t)) = b.neighbour(c, s)
                    && (m >> s & 1) != (barriers[n] >> t & 1)
                {
                    let (r, col) = b.row_col(c);
                    let (nr, nc) = b.row_col(n);
                    let names = b.tiling().side_names();
                    let name = |s: usize| names.get(s).map_or(s.to_string(), |n| n.to_string());
                    return Err(format!(
                        "the barrier between (row {r}, column {col}) side {} and (row {nr}, column {nc}) side {} is on one side only",
                        name(s),
                        name(t)
                    ));
                }
            }
        }
        for (c, m) in barriers.iter_mut().enumerate() {
            *m &= !b.border_mask(c);
        }
        self.barriers = if barriers.iter().all(|&m| m == 0) {
            Vec::new()
        } else {
            barriers
        };
        Ok(self)
    }

    /// Whether `cell` is locked (its piece may not be turned).
    #[inline]
    pub fn is_locked(&self, cell: usize) -> bool {
        self.locked.get(cell).copied().unwrap_or(false)
    }

    /// True when some cell is locked.
    pub fn has_locks(&self) -> bool {
        !self.locked.is_empty()
    }

    /// The same level with the cells of `locked` (one flag per cell) locked.
    pub fn with_locked(mut self, locked: Vec<bool>) -> Result<BoardLevel, String> {
        if locked.len() != self.board.len() {
            return Err(format!(
                "{} lock flags for {} cells",
                locked.len(),
                self.board.len()
            ));
        }
        self.locked = if locked.iter().any(|&l| l) {
            locked
        } else {
            Vec::new()
        };
        Ok(self)
    }

    /// True when the level has barriers, locks or Net rules: what the any-board Infinity
    /// engine alone does not know.
    pub fn needs_net_engine(&self) -> bool {
        self.rules == Rules::Net || self.has_barriers() || self.has_locks()
    }

    /// True when `self` is a way to turn the pieces of `puzzle`: same board, rules and
    /// barriers, each cell a rotation of the puzzle's, and locked cells not turned.
    pub fn is_turning_of(&self, puzzle: &BoardLevel) -> bool {
        self.rules == puzzle.rules
            && self.barriers == puzzle.barriers
            && self.locked == puzzle.locked
            && self.same_shapes(puzzle)
            && (0..self.masks.len())
                .all(|c| !puzzle.is_locked(c) || self.masks[c] == puzzle.masks[c])
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the pieces' ends add up to an odd number. Every connection joins two ends,
    /// so such a level has no solution, on any board and under either rules.
    pub fn odd_ends(&self) -> bool {
        self.masks.iter().map(|m| m.count_ones()).sum::<u32>() % 2 == 1
    }

    /// The side mask of every cell.
    pub fn masks(&self) -> &[u8] {
        &self.masks
    }

    /// The masks, to turn pieces in place (a turn keeps the shape; see [`BoardLevel::turn`]).
    pub fn masks_mut(&mut self) -> &mut [u8] {
        &mut self.masks
    }

    /// Turns the piece of `cell` by `turns` steps up its side order.
    pub fn turn(&mut self, cell: usize, turns: u8) {
        self.masks[cell] = self.board.turn(cell, self.masks[cell], turns);
    }

    /// Same board and, cell by cell, the same shapes (each mask a rotation of the other's).
    pub fn same_shapes(&self, other: &BoardLevel) -> bool {
        self.board == other.board && self.board.same_pieces(&self.masks, &other.masks)
    }

    /// The course-format level of a bounded square board (its masks use the same bits).
    pub fn to_game(&self) -> Option<Game> {
        if !self.board.is_bounded_square() {
            return None;
        }
        let cells = self.masks.iter().map(|&m| Piece::from_mask(m)).collect();
        Some(Game::from_cells(
            self.board.height(),
            self.board.width(),
            cells,
        ))
    }

    /// The bounded square level of a course-format `game`.
    pub fn from_game(game: &Game) -> BoardLevel {
        let board = Board::new(Tiling::Square, game.width(), game.height(), Wrap::NONE)
            .expect("a course-format level fits a board");
        let masks = game.cells().iter().map(|p| p.mask()).collect();
        BoardLevel::new(board, masks).expect("a course-format level's masks fit its board")
    }
}

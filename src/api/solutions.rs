//! [`solutions`]: every solution of a level, one at a time. "First solution", "is it unique?"
//! (`take(2)`) and "up to K solutions" are all this one iterator.
//!
//! The engine solves the level once first: an unsolvable level yields nothing at once, and
//! that first solution steers the value order, so the first item costs one solve and no
//! backtracking. Later items come from a depth-first search over the undecided cells, region
//! by region (regions are independent, so propagation in one never touches another), with
//! propagation after each decision and the trail to undo it.

use std::sync::atomic::AtomicBool;

use crate::check::is_solved;
use crate::model::{Game, Piece};
use crate::solve::{self, Board, SolveOptions, Start, State, find_regions};

/// The solutions of a level, lazily (see [`solutions`]).
pub struct Solutions {
    shapes: Game,
    board: Board,
    state: State,
    /// Undecided cells after the first propagation, region after region.
    order: Vec<u32>,
    /// Per padded cell: the first solution's orientation, tried first.
    hint: Vec<u8>,
    stack: Vec<Frame>,
    phase: Phase,
}

/// One decision level: the cell at `order[pos]`, the trail mark before its decision and the
/// orientations tried there so far.
struct Frame {
    pos: usize,
    mark: usize,
    tried: u8,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Fresh,
    Running,
    Done,
}

/// Every solution of `game` (its orientations are ignored), each a distinct set of
/// connections, each verified. Lazy: nothing past what is taken is searched.
///
/// ```
/// use phineloops::{Game, Generator};
///
/// // A 2x2 ring of corners has exactly one solution.
/// let ring: Game = "2\n2\n5 0\n5 0\n5 0\n5 0\n".parse()?;
/// let all: Vec<Game> = phineloops::solutions(&ring).collect();
/// assert_eq!(all.len(), 1);
/// assert!(all[0].is_solved());
///
/// // Is a generated level unique? Ask for two.
/// let level = Generator::new(6, 6).seed(1).generate()?;
/// let firsts: Vec<Game> = phineloops::solutions(&level).take(2).collect();
/// assert!(!firsts.is_empty() && firsts.iter().all(|s| s.is_solved()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solutions(game: &Game) -> Solutions {
    let shapes = game.shapes_only();
    let Start {
        board,
        state,
        consistent,
    } = Start::new(&shapes);
    let mut s = Solutions {
        hint: vec![u8::MAX; board.len()],
        order: Vec::new(),
        stack: Vec::new(),
        phase: Phase::Done,
        shapes,
        board: Board::new(&Game::empty(1, 1)),
        state: State::new(&Board::new(&Game::empty(1, 1))),
    };
    if !consistent {
        return s;
    }
    let never = AtomicBool::new(false);
    let opts = SolveOptions::default();
    let solve::Outcome::Solved(first) = solve::solve(&s.shapes, &opts, &never).0 else {
        return s;
    };
    for r in 0..board.height {
        for c in 0..board.width {
            s.hint[board.cell(r, c)] = first.get(r, c).orientation();
        }
    }
    let mut seen = vec![false; board.len()];
    s.order = find_regions(&board, &state, board.cells(), &mut seen).cells;
    s.board = board;
    s.state = state;
    s.phase = Phase::Fresh;
    s
}

impl Solutions {
    /// The level as it stands: every cell fixed.
    fn leaf(&self) -> Game {
        let mut out = self.shapes.clone();
        for r in 0..self.board.height {
            for c in 0..self.board.width {
                let o = self.state.domain(self.board.cell(r, c)).trailing_zeros() as u8;
                let kind = out.get(r, c).kind();
                out.set(r, c, Piece::new(kind, o));
            }
        }
        assert!(
            is_solved(&out),
            "internal error: the solution iterator reached an unsolved grid"
        );
        out
    }

    /// Searches from the current stack: descends when `descend`, else first tries the next
    /// orientation of the deepest decision (to leave the solution just returned).
    fn search(&mut self, mut descend: bool) -> Option<Game> {
        loop {
            if descend {
                let start = self.stack.last().map_or(0, |f| f.pos + 1);
                let next = (start..self.order.len())
                    .find(|&p| !self.state.is_fixed(self.order[p] as usize));
                let Some(pos) = next else {
                    return Some(self.leaf());
                };
                self.stack.push(Frame {
                    pos,
                    mark: self.state.mark(),
                    tried: 0,
                });
            }
            descend = false;
            while let Some(f) = self.stack.last_mut() {
                self.state.undo_to(f.mark);
                let cell = self.order[f.pos] as usize;
                let left = self.state.domain(cell) & !f.tried;
                if left == 0 {
                    self.stack.pop();
                    continue;
                }
                let hint = self.hint[cell];
                let o = if hint < 8 && left & (1 << hint) != 0 {
                    hint
                } else {
                    left.trailing_zeros() as u8
                };
                f.tried |= 1 << o;
                if self.state.decide(&self.board, cell, o) {
                    descend = true;
                    break;
                }
            }
            if !descend {
                self.phase = Phase::Done;
                return None;
            }
        }
    }
}

impl Iterator for Solutions {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        match self.phase {
            Phase::Done => None,
            Phase::Fresh => {
                self.phase = Phase::Running;
                let first = self.search(true);
                if self.stack.is_empty() {
                    // Everything was decided by propagation: that was the only solution.
                    self.phase = Phase::Done;
                }
                first
            }
            Phase::Running => self.search(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::unsolvable::odd_parity_variant;
    use crate::generate::{Family, GenerateOptions, generate};
    use std::collections::HashSet;

    fn count_of(game: &Game) -> u128 {
        crate::api::count(game).to_u128().unwrap()
    }

    #[test]
    fn enumerates_exactly_the_counted_solutions() {
        for seed in 0..40 {
            let mut o = GenerateOptions::new(3 + seed as usize % 3, 4, seed);
            o.family = [Family::Random, Family::Dominoes, Family::Mixed][seed as usize % 3];
            let level = generate(&o);
            let all: Vec<Game> = solutions(&level).collect();
            let distinct: HashSet<Vec<u8>> = all
                .iter()
                .map(|g| g.cells().iter().map(|p| p.mask()).collect())
                .collect();
            assert_eq!(
                distinct.len(),
                all.len(),
                "seed {seed}: a repeated solution"
            );
            assert_eq!(all.len() as u128, count_of(&level), "seed {seed}");
            assert!(all.iter().all(|g| g.is_solved() && g.same_shapes(&level)));
        }
    }

    #[test]
    fn unsolvable_levels_yield_nothing() {
        for seed in 0..10 {
            let level = generate(&GenerateOptions::new(6, 6, seed));
            let (broken, _) = odd_parity_variant(&level, &mut fastrand::Rng::with_seed(seed));
            assert_eq!(solutions(&broken).next(), None);
        }
    }

    #[test]
    fn lazy_on_a_level_with_a_huge_count() {
        // Hundreds of digits of solutions: only the first few are searched.
        let level = generate(&GenerateOptions::new(128, 128, 2));
        assert!(crate::api::count(&level).digits() > 20);
        let five: Vec<Game> = solutions(&level).take(5).collect();
        assert_eq!(five.len(), 5);
    }
}

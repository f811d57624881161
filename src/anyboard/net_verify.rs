//! The verifier under every rule: connections answered ([`super::verify`]), none across a
//! barrier, and under Net rules one network without a loop. Like [`super::verify`] it reads
//! only the level (board links, masks, barriers), never what a solver computed, and it says
//! what is wrong: the cells of a loop, the cells of an island.

use super::verify::{Defect, first_defect};
use crate::algo::union_find::UnionFind;
use crate::board::{BoardLevel, Rules};

/// Why a level is not solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A connection unanswered, or across a border.
    Unanswered(Defect),
    /// A connection across a barrier (from `cell`'s `side`).
    Barrier {
        /// The cell.
        cell: usize,
        /// Its side with the barrier.
        side: usize,
    },
    /// Net rules: the cells of one loop, in order round it.
    Loop(Vec<usize>),
    /// Net rules: the cells of a network that is not the only one (the smallest of them).
    Island(Vec<usize>),
}

/// At most this many cells are named in a message.
const CELLS_SHOWN: usize = 12;

impl Fault {
    /// A sentence for the user.
    pub fn describe(&self, level: &BoardLevel) -> String {
        let b = level.board();
        let at = |c: usize| b.cell_label(c);
        let list = |cells: &[usize]| {
            let mut s: Vec<String> = cells.iter().take(CELLS_SHOWN).map(|&c| at(c)).collect();
            if cells.len() > CELLS_SHOWN {
                s.push(format!("and {} more", cells.len() - CELLS_SHOWN));
            }
            s.join(" ")
        };
        match self {
            Fault::Unanswered(d) => d.describe(level),
            Fault::Barrier { cell, side } => format!(
                "cell {} connects {} across a barrier",
                at(*cell),
                b.side_label(*cell, *side)
            ),
            Fault::Loop(cells) => format!(
                "a loop through {} cells (Net rules allow none): {}",
                cells.len(),
                list(cells)
            ),
            Fault::Island(cells) => format!(
                "an island of {} cells not joined to the rest (Net rules want one network): {}",
                cells.len(),
                list(cells)
            ),
        }
    }
}

/// The first fault of `level` under its own rules, or `None` when it is solved.
pub fn first_fault(level: &BoardLevel) -> Option<Fault> {
    if let Some(d) = first_defect(level) {
        return Some(Fault::Unanswered(d));
    }
    if level.has_barriers() {
        let masks = level.masks();
        for (c, &m) in masks.iter().enumerate() {
            let crossing = m & level.barrier(c);
            if crossing != 0 {
                return Some(Fault::Barrier {
                    cell: c,
                    side: crossing.trailing_zeros() as usize,
                });
            }
        }
    }
    if level.rules() == Rules::Net {
        if let Some(cycle) = a_loop(level) {
            return Some(Fault::Loop(cycle));
        }
        if let Some(island) = an_island(level) {
            return Some(Fault::Island(island));
        }
    }
    None
}

/// True when `level` is solved under its rules.
pub fn is_solved_under_rules(level: &BoardLevel) -> bool {
    first_fault(level).is_none()
}

/// The cells of a loop of connections, in order, if there is one. Every connection is
/// answered here, so a connection is an edge of the board used from both ends.
fn a_loop(level: &BoardLevel) -> Option<Vec<usize>> {
    let b = level.board();
    let k = b.sides() as usize;
    let masks = level.masks();
    let mut sets = UnionFind::new(b.len());
    for (c, s) in b.edges() {
        if masks[c] >> s & 1 == 0 {
            continue;
        }
        let (n, _) = b.neighbour(c, s).expect("an edge has two ends");
        if sets.union(c as u32, n as u32) {
            continue;
        }
        // This edge closes a loop: the other way from `n` back to `c` completes it.
        let mut from = vec![u32::MAX; b.len()];
        from[n] = n as u32;
        let mut queue = std::collections::VecDeque::from([n]);
        while let Some(x) = queue.pop_front() {
            if x == c {
                break;
            }
            for t in 0..k {
                if masks[x] >> t & 1 == 0 || (x == n && b.neighbour(n, t) == Some((c, s))) {
                    continue;
                }
                let (y, _) = b
                    .neighbour(x, t)
                    .expect("answered connections cross no border");
                if from[y] == u32::MAX {
                    from[y] = x as u32;
                    queue.push_back(y);
                }
            }
        }
        let mut cycle = vec![c];
        let mut x = c;
        while x != n {
            x = from[x] as usize;
            cycle.push(x);
        }
        return Some(cycle);
    }
    None
}

/// The smallest network of connected non-empty cells when there are several.
fn an_island(level: &BoardLevel) -> Option<Vec<usize>> {
    let b = level.board();
    let k = b.sides() as usize;
    let masks = level.masks();
    let mut seen = vec![false; b.len()];
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for start in 0..b.len() {
        if seen[start] || masks[start] == 0 {
            continue;
        }
        seen[start] = true;
        let mut part = vec![start];
        let mut i = 0;
        while i < part.len() {
            let x = part[i];
            i += 1;
            for t in 0..k {
                if masks[x] >> t & 1 == 1
                    && let Some((y, _)) = b.neighbour(x, t)
                    && !seen[y]
                {
                    seen[y] = true;
                    part.push(y);
                }
            }
        }
        parts.push(part);
    }
    if parts.len() < 2 {
        return None;
    }
    parts.into_iter().min_by_key(Vec::len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Tiling, Wrap};

    fn square(w: usize, h: usize, wrap: Wrap, masks: Vec<u8>) -> BoardLevel {
        BoardLevel::new(Board::new(Tiling::Square, w, h, wrap).unwrap(), masks).unwrap()
    }

    #[test]
    fn a_ring_is_a_loop_under_net_and_fine_under_infinity() {
        // 2x2 ring: corners E+S, S+W, N+E, N+W.
        let ring = square(2, 2, Wrap::NONE, vec![6, 12, 3, 9]);
        assert_eq!(first_fault(&ring), None);
        let net = ring.with_rules(Rules::Net);
        match first_fault(&net) {
            Some(Fault::Loop(mut cells)) => {
                cells.sort();
                assert_eq!(cells, vec![0, 1, 2, 3]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_networks_are_an_island_and_one_tree_is_solved() {
        // Two horizontal dominoes: E | W over E | W.
        let two = square(2, 2, Wrap::NONE, vec![2, 8, 2, 8]).with_rules(Rules::Net);
        assert!(matches!(first_fault(&two), Some(Fault::Island(c)) if c.len() == 2));
        // A U: E+S, W+S, N, N is a tree of all four cells.
        let tree = square(2, 2, Wrap::NONE, vec![6, 12, 1, 1]).with_rules(Rules::Net);
        assert_eq!(first_fault(&tree), None);
    }

    #[test]
    fn a_connection_across_a_barrier_is_a_fault() {
        let tree = square(2, 2, Wrap::NONE, vec![6, 12, 1, 1]).with_rules(Rules::Net);
        let walled = tree.with_barriers(vec![2, 8, 0, 0]).unwrap();
        assert_eq!(
            first_fault(&walled),
            Some(Fault::Barrier { cell: 0, side: 1 })
        );
        assert!(
            square(2, 1, Wrap::NONE, vec![2, 8])
                .with_barriers(vec![2, 0])
                .is_err(),
            "a barrier on one side of a link only is refused"
        );
    }

    #[test]
    fn a_loop_round_a_torus_is_found_across_its_seam() {
        // A 3x1 torus row of straights E+W: a loop through the wrap.
        let ring = square(3, 1, Wrap::from_name("horizontal").unwrap(), vec![10; 3])
            .with_rules(Rules::Net);
        assert!(matches!(first_fault(&ring), Some(Fault::Loop(c)) if c.len() == 3));
    }
}

//! Net solutions the first two rungs of the deduction ladder solve: a spanning tree built
//! one cell at a time in row-major order, each cell's piece chosen among those that the sides
//! it already knows (its walls, and the sides it shares with the cells placed before it) leave
//! with one orientation. A player (or rung 2) then decides the cells in that order, each from
//! its walls and its decided neighbours, so the level is easy and its solution unique.
//! Random spanning trees almost never are on a hexagonal board: most cells there are first
//! pinned down by the sides common to a neighbour's orientations (rung 3).
//!
//! The choice keeps a tree: a piece may not connect two cells already joined (a loop), nor
//! close off a network with no cell left to place in it (an island). A cell with no piece
//! left ends the attempt (`None`); the caller tries another seed.

use crate::board::mask::{period, rotate};
use crate::board::{Board, MAX_SIDES};

/// Networks of the connections placed so far: a union-find (by size, no path compression,
/// so a union is undone by resetting one parent) with, per root, the cells not yet placed and
/// all cells in its network.
struct Networks {
    parent: Vec<u32>,
    unplaced: Vec<u32>,
    size: Vec<u32>,
    /// The root joined under another, per union, to undo.
    joined: Vec<u32>,
    /// The cells the tree spans: all but those outside a mixed grid's drawn board.
    spanned: usize,
}

impl Networks {
    fn find(&self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            x = self.parent[x] as usize;
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small] = big as u32;
        self.size[big] += self.size[small];
        self.unplaced[big] += self.unplaced[small];
        self.joined.push(small as u32);
    }

    fn undo_to(&mut self, mark: usize) {
        while self.joined.len() > mark {
            let small = self.joined.pop().expect("above the mark") as usize;
            let big = self.parent[small] as usize;
            self.parent[small] = small as u32;
            self.size[big] -= self.size[small];
            self.unplaced[big] -= self.unplaced[small];
        }
    }
}

/// Pieces placed (and taken back) before an attempt gives up.
const PLACEMENTS_PER_CELL: usize = 64;

/// The masks of a spanning tree of `board` that rungs 1 and 2 solve (see the module doc), or
/// `None` when the search gave up. Cells are placed in order, each with a piece drawn from
/// those left; a cell with none left takes the cell before back and draws again.
pub fn forced_tree(board: &Board, rng: &mut fastrand::Rng) -> Option<Vec<u8>> {
    let n = board.len();
    let mut masks = vec![0u8; n];
    let mut placed = vec![false; n];
    let mut nets = Networks {
        parent: (0..n as u32).collect(),
        unplaced: vec![1; n],
        size: vec![1; n],
        joined: Vec::new(),
        spanned: (0..n).filter(|&c| !board.is_outside(c)).count(),
    };
    // Per cell placed: its pieces not tried yet (in `untried`, from `first[c]`) and the
    // union-find mark before it.
    let mut untried: Vec<u8> = Vec::new();
    let mut first = vec![0usize; n];
    let mut mark = vec![0usize; n];
    let mut budget = PLACEMENTS_PER_CELL * n;
    let order = placing_order(board, rng);
    // `i` counts the cells placed; `order[i]` is the next.
    let mut i = 0;
    options(board, order[0], &masks, &placed, &nets, &mut untried, rng);
    while i < n {
        if budget == 0 {
            return None;
        }
        let Some(m) = (untried.len() > first[i]).then(|| untried.pop()).flatten() else {
            // No piece left here: take the cell before back.
            if i == 0 {
                return None;
            }
            i -= 1;
            unplace(order[i], &mut masks, &mut placed, &mut nets, mark[i]);
            continue;
        };
        budget -= 1;
        mark[i] = nets.joined.len();
        place(board, order[i], m, &mut masks, &mut placed, &mut nets);
        i += 1;
        if i < n {
            first[i] = untried.len();
            options(board, order[i], &masks, &placed, &nets, &mut untried, rng);
        }
    }
    Some(masks)
}

/// The order cells are placed in: row-major on square and hexagonal boards. On a mixed
/// grid, whose numbering may run through one kind of cell before the next (every octagon,
/// then every square), half the attempts take the order a reader meets the cells in the
/// drawing, row by row, so that each cell again comes after the neighbours above and to
/// its left; the other half hexapipes' numbering, which suits some wrapped boards better
/// (trihexagonal 9x9 wrapped: no easy level in 60 s in drawing order, one at once in
/// hexapipes' order; octagonal the other way round).
fn placing_order(board: &Board, rng: &mut fastrand::Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..board.len()).collect();
    if !board.is_uniform() && rng.bool() {
        // Rows a third of a cell apart: centres within one row differ by less.
        let key = |c: usize| {
            let (x, y) = board.centre(c);
            ((y * 3.0).round() as i64, x)
        };
        order.sort_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        });
    }
    order
}

/// Pushes the pieces `c` may take, shuffled, onto `out`.
fn options(
    board: &Board,
    c: usize,
    masks: &[u8],
    placed: &[bool],
    nets: &Networks,
    out: &mut Vec<u8>,
    rng: &mut fastrand::Rng,
) {
    if board.is_outside(c) {
        // Left empty, as hexapipes leaves it; its neighbours take it for a wall.
        out.push(0);
        return;
    }
    let k = board.cell_sides(c);
    let (known, value) = known_sides(board, c, masks, placed);
    let free = !known & ((1u16 << k) - 1) as u8;
    let from = out.len();
    // Every subset of the free sides, as the connections to cells not placed yet.
    let mut sub = free;
    loop {
        let m = value | sub;
        if m != 0 && forced(m, known, k) && keeps_a_tree(board, c, sub, nets) {
            out.push(m);
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & free;
    }
    rng.shuffle(&mut out[from..]);
}

fn place(
    board: &Board,
    c: usize,
    m: u8,
    masks: &mut [u8],
    placed: &mut [bool],
    nets: &mut Networks,
) {
    let (_, value) = known_sides(board, c, masks, placed);
    masks[c] = m;
    placed[c] = true;
    let root = nets.find(c);
    nets.unplaced[root] -= 1;
    for s in (0..board.sides() as usize).filter(|&s| (m & !value) >> s & 1 == 1) {
        let (t, _) = board.neighbour(c, s).expect("a free side has a neighbour");
        nets.union(c, t);
    }
}

fn unplace(c: usize, masks: &mut [u8], placed: &mut [bool], nets: &mut Networks, mark: usize) {
    nets.undo_to(mark);
    let root = nets.find(c);
    nets.unplaced[root] += 1;
    masks[c] = 0;
    placed[c] = false;
}

/// The sides of `c` already known, and which of them connect: walls (and sides leading back
/// to `c` itself, which would close a loop) do not, a side shared with a placed cell does
/// as that cell's piece says.
fn known_sides(board: &Board, c: usize, masks: &[u8], placed: &[bool]) -> (u8, u8) {
    let (mut known, mut value) = (0u8, 0u8);
    for s in 0..board.sides() as usize {
        match board.neighbour(c, s) {
            None => known |= 1 << s,
            Some((m, _)) if m == c || board.is_outside(m) => known |= 1 << s,
            Some((m, t)) if placed[m] => {
                known |= 1 << s;
                value |= (masks[m] >> t & 1) << s;
            }
            Some(_) => {}
        }
    }
    (known, value)
}

/// True when one orientation of `m` agrees with `m` on the `known` sides.
fn forced(m: u8, known: u8, k: u8) -> bool {
    (0..period(m, k))
        .filter(|&r| rotate(m, k, r) & known == m & known)
        .count()
        == 1
}

/// True when connecting `c` across the sides `sub` (to cells not placed yet) closes no loop
/// and leaves `c`'s network a cell to place, unless it is every cell.
fn keeps_a_tree(board: &Board, c: usize, sub: u8, nets: &Networks) -> bool {
    let own = nets.find(c);
    let mut roots = [own; MAX_SIDES + 1];
    let (mut unplaced, mut size) = (nets.unplaced[own] - 1, nets.size[own]);
    let sides = (0..board.sides() as usize).filter(|&s| sub >> s & 1 == 1);
    for (len, s) in (1..).zip(sides) {
        let (t, _) = board.neighbour(c, s).expect("a free side has a neighbour");
        let r = nets.find(t);
        if roots[..len].contains(&r) {
            return false;
        }
        roots[len] = r;
        unplaced += nets.unplaced[r];
        size += nets.size[r];
    }
    unplaced > 0 || size as usize == nets.spanned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Tiling, Wrap};

    #[test]
    fn a_forced_tree_is_a_spanning_tree_of_nonempty_cells() {
        let mut made = 0;
        for tiling in Tiling::ALL {
            for wrap in [Wrap::NONE, Wrap::BOTH] {
                let b = Board::new(tiling, 7, 6, wrap).unwrap();
                for seed in 0..20 {
                    let Some(masks) = forced_tree(&b, &mut fastrand::Rng::with_seed(seed)) else {
                        continue;
                    };
                    made += 1;
                    let k = b.sides() as usize;
                    let ends: usize = masks.iter().map(|m| m.count_ones() as usize).sum();
                    assert_eq!(ends, 2 * (b.len() - 1), "a tree has cells - 1 links");
                    let mut seen = vec![false; b.len()];
                    let mut stack = vec![0];
                    seen[0] = true;
                    while let Some(c) = stack.pop() {
                        assert_ne!(masks[c], 0);
                        for s in (0..k).filter(|&s| masks[c] >> s & 1 == 1) {
                            let (m, t) = b.neighbour(c, s).unwrap();
                            assert_eq!(masks[m] >> t & 1, 1, "both ends agree");
                            if !seen[m] {
                                seen[m] = true;
                                stack.push(m);
                            }
                        }
                    }
                    assert!(seen.iter().all(|&x| x), "connected");
                }
            }
        }
        assert!(made >= 40, "only {made} trees");
    }

    /// On hexapipes' mixed grids the tree spans every cell but those left out of the drawn
    /// board, which stay empty, and rungs 1 and 2 solve the level it makes.
    #[test]
    fn a_forced_tree_on_a_mixed_grid_spans_the_drawn_board_and_is_easy() {
        use crate::board::{BoardLevel, Grid, Rules};
        use crate::deduce::{Difficulty, grade};
        let mut made = 0;
        for grid in Grid::ALL {
            let b = Board::new(Tiling::Polygonal(grid), 6, 6, Wrap::NONE).unwrap();
            let inside: Vec<usize> = (0..b.len()).filter(|&c| !b.is_outside(c)).collect();
            for seed in 0..10 {
                let Some(masks) = forced_tree(&b, &mut fastrand::Rng::with_seed(seed)) else {
                    continue;
                };
                made += 1;
                let ends: usize = masks.iter().map(|m| m.count_ones() as usize).sum();
                assert_eq!(ends, 2 * (inside.len() - 1), "{}", grid.name());
                assert!((0..b.len()).all(|c| !b.is_outside(c) || masks[c] == 0));
                let mut level = BoardLevel::new(b.clone(), masks)
                    .unwrap()
                    .with_rules(Rules::Net);
                assert!(
                    crate::anyboard::first_fault(&level).is_none(),
                    "{}",
                    grid.name()
                );
                let mut rng = fastrand::Rng::with_seed(seed);
                crate::generate::board_families::scramble(&mut level, &mut rng);
                let g = grade(&level, None);
                assert_eq!(g.difficulty(), Some(Difficulty::Easy), "{}", grid.name());
            }
        }
        assert!(made >= 40, "only {made} trees");
        // A wrapped octagon's first piece may reach eight networks at once.
        let b = Board::new(Tiling::Polygonal(Grid::Octagonal), 4, 4, Wrap::BOTH).unwrap();
        for seed in 0..20 {
            forced_tree(&b, &mut fastrand::Rng::with_seed(seed));
        }
    }
}

//! Path tilings on any [`Board`] (issue 32's hard family, beyond the bounded square grid):
//! the cells covered by paths of `len` cells, a one-end piece at each end and a two-connection
//! piece at each cell between, bent with probability `bent`. On the square grid a middle is
//! then an I or an L; on the hexagonal one a straight or one of its two bends, each bend as
//! likely as the other. As on the square grid, every piece keeps several orientations that
//! local propagation cannot tell apart.
//!
//! The walk works on the link table alone (see `board_families`), so a wrap edge is a step
//! like any other. "Straight on" leaves a cell by the side opposite the one it entered by; a
//! tiling with an odd number of sides has no such side and every middle bends.
//!
//! Cells are visited in the dominoes' order (uniform, or windowed on tall boards); an
//! uncovered cell starts a path as one of its ends, else as the second cell of a path from an
//! uncovered neighbour, by random walks over uncovered cells. Which middles bend is drawn once
//! per path and kept to unless no walk fits; of the walks tried, one that leaves no uncovered
//! neighbour cut off from every other uncovered cell wins. Without these, 342 of the 576
//! cells of a 24x24 square board lay on paths of exactly three cells; with them the least the
//! tests see is 72 %. A cell no walk fits from is repaired after: it pairs with an uncovered
//! neighbour (a two-cell path), else becomes the new end of a neighbouring path (lengthening
//! it by one), else hooks onto any neighbour.

use super::board_families::pick;
use crate::board::{Board, MAX_SIDES};

/// Walks tried each way (`start` as an end, or second from each uncovered neighbour).
const TRIES: usize = 8;

/// The side masks (one per cell, row-major) of a solved level tiled by paths of `len` cells
/// (2 to 16) on `board`, each middle bent with probability `bent`.
pub fn path_masks(
    board: &Board,
    len: usize,
    bent: f64,
    order: &[u32],
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    let len = len.clamp(2, 16);
    let mut tiling = Tiling {
        board,
        masks: vec![0u8; board.len()],
        covered: vec![false; board.len()],
    };
    let mut left = Vec::new();
    let (mut path, mut best) = (Vec::with_capacity(len), Vec::with_capacity(len));
    for &cell in order {
        let cell = cell as usize;
        if !tiling.covered[cell] && !tiling.lay(cell, (len, bent), rng, &mut path, &mut best) {
            left.push(cell);
        }
    }
    for &cell in &left {
        if tiling.masks[cell] == 0 {
            tiling.repair(cell, rng);
        }
    }
    tiling.masks
}

/// The masks being built and which cells a path covers.
struct Tiling<'a> {
    board: &'a Board,
    masks: Vec<u8>,
    covered: Vec<bool>,
}

impl Tiling<'_> {
    /// Lays a path of `len` cells through uncovered cells with `start` at one end, else as
    /// the second cell of a path from an uncovered neighbour. Of [`TRIES`] walks each way, the
    /// first that walls in no uncovered cell wins, else the one walling in fewest; `path` and
    /// `best` are scratch. False when no walk fits.
    fn lay(
        &mut self,
        start: usize,
        (len, bent): (usize, f64),
        rng: &mut fastrand::Rng,
        path: &mut Vec<(usize, usize)>,
        best: &mut Vec<(usize, usize)>,
    ) -> bool {
        let k = self.board.sides() as usize;
        let mut best_walled = usize::MAX;
        let mut firsts = [0usize; MAX_SIDES];
        let mut count = 0;
        for s in 0..k {
            if self.step(start, s).is_some_and(|(n, _)| !self.covered[n]) {
                firsts[count] = s;
                count += 1;
            }
        }
        rng.shuffle(&mut firsts[..count]);
        // Which middles bend, drawn once: the walks keep to it, and only when none fits may
        // they turn otherwise, so the share of bends stays near `bent`.
        let mut bends = 0u16;
        for middle in 0..len - 2 {
            bends |= u16::from(rng.f64() < bent) << middle;
        }
        // `None`: `start` is an end; `Some(s)`: the path comes in from across side `s`.
        let ways = std::iter::once(None).chain(firsts[..count].iter().map(|&s| Some(s)));
        let tries = [true, false].into_iter().flat_map(|strict| {
            ways.clone()
                .flat_map(move |way| std::iter::repeat_n((way, strict), TRIES))
        });
        for (way, strict) in tries {
            if best_walled == 0 || (!strict && best_walled != usize::MAX) {
                break;
            }
            if !self.walk(start, way, (len, bends, strict), rng, path) {
                continue;
            }
            let walled = self.walled_in(path);
            if walled < best_walled {
                best_walled = walled;
                std::mem::swap(path, best);
            }
        }
        if best_walled == usize::MAX {
            return false;
        }
        for &(cell, side) in best.iter() {
            self.connect(cell, side);
        }
        true
    }

    /// Uncovered cells next to the walk `path` that it would leave with no uncovered
    /// neighbour: each would become a left-over cell.
    fn walled_in(&self, path: &[(usize, usize)]) -> usize {
        let k = self.board.sides() as usize;
        let last = path
            .last()
            .and_then(|&(c, s)| self.step(c, s))
            .map(|(n, _)| n);
        let on_path = |c: usize| path.iter().any(|&(p, _)| p == c) || Some(c) == last;
        let open = |c: usize| !self.covered[c] && !on_path(c);
        let cells = path.iter().map(|&(c, _)| c).chain(last);
        let mut walled = 0;
        for c in cells {
            for s in 0..k {
                let Some((m, _)) = self.step(c, s) else {
                    continue;
                };
                if open(m) && !(0..k).any(|t| self.step(m, t).is_some_and(|(x, _)| open(x))) {
                    walled += 1;
                }
            }
        }
        walled
    }

    /// One random walk of `len` uncovered cells through `start`, as the (cell, side) steps
    /// it takes, into `path`: from `start` as an end, or (`entered` = `Some(side)`) from the
    /// neighbour across `side` as the end and `start` second. Middle `i` bends when bit `i`
    /// of `bends` is set, and must (`strict`) or else may go the other way when that is
    /// blocked. False when it got stuck.
    fn walk(
        &self,
        start: usize,
        entered: Option<usize>,
        (len, bends, strict): (usize, u16, bool),
        rng: &mut fastrand::Rng,
        path: &mut Vec<(usize, usize)>,
    ) -> bool {
        path.clear();
        let k = self.board.sides() as usize;
        if let Some(side) = entered {
            let (end, facing) = self.step(start, side).expect("entered across a link");
            path.push((end, facing));
        }
        let (mut cell, mut entered) = (start, entered);
        while path.len() + 1 < len {
            let free = |s: usize| {
                self.step(cell, s).is_some_and(|(n, _)| {
                    !self.covered[n] && n != start && path.iter().all(|&(c, _)| c != n)
                })
            };
            let straight = entered
                .filter(|_| k.is_multiple_of(2))
                .map(|e| (e + k / 2) % k);
            let turns = (0..k).filter(|&s| Some(s) != entered && Some(s) != straight);
            // The cell being left is middle `path.len() - 1` (none when it is the end).
            let bend = !path.is_empty() && bends >> (path.len() - 1) & 1 == 1;
            let on = straight.filter(|&s| free(s));
            let side = if straight.is_none() || bend || entered.is_none() {
                match pick(turns.filter(|&s| free(s)), rng) {
                    None if !strict => on,
                    turn => turn,
                }
            } else {
                match on {
                    None if !strict => pick(turns.filter(|&s| free(s)), rng),
                    on => on,
                }
            };
            let Some(side) = side else {
                return false;
            };
            let (next, facing) = self.step(cell, side).expect("a free side is linked");
            path.push((cell, side));
            cell = next;
            entered = Some(facing);
        }
        true
    }

    /// Sets both ends of the link across `side` of `cell`, and covers both cells.
    fn connect(&mut self, cell: usize, side: usize) {
        let (next, facing) = self.step(cell, side).expect("a linked side");
        self.masks[cell] |= 1 << side;
        self.masks[next] |= 1 << facing;
        self.covered[cell] = true;
        self.covered[next] = true;
    }

    /// Connects the left-over `cell`: to an uncovered neighbour, else to a neighbour that
    /// ends a path, else to any neighbour (a lone cell of a 1x1 board stays empty).
    fn repair(&mut self, cell: usize, rng: &mut fastrand::Rng) {
        let k = self.board.sides() as usize;
        let linked = (0..k).filter(|&s| self.step(cell, s).is_some());
        let empty = linked
            .clone()
            .filter(|&s| self.step(cell, s).is_some_and(|(n, _)| self.masks[n] == 0));
        let end = linked.clone().filter(|&s| {
            self.step(cell, s)
                .is_some_and(|(n, _)| self.masks[n].count_ones() == 1)
        });
        let side = pick(empty, rng)
            .or_else(|| pick(end, rng))
            .or_else(|| pick(linked, rng));
        if let Some(side) = side {
            self.connect(cell, side);
        }
    }

    /// The neighbour across `side` of `cell` and its facing side, if they are linked.
    fn step(&self, cell: usize, side: usize) -> Option<(usize, usize)> {
        self.board.neighbour(cell, side)
    }
}

//! Tiny regions solved in place. Random levels leave hundreds of thousands of regions of a
//! few cells each after the first pass (113,923 on random 4096x4096, most of 4 to 20 cells);
//! cutting each out as a board of its own, with its state, order and search, cost several
//! microseconds a region, more than the search itself. Here a region is a plain
//! backtracking over the propagated domains, in the region's own cell order (connected, so
//! each cell meets an assigned neighbour early), with scratch arrays reused from region to
//! region. A region's sides to the cells outside it are decided (regions join undecided cells
//! through undecided sides), so each cell's candidates are filtered against them once; a node
//! then checks only the assigned neighbours inside the region. Exhausting the candidates proves the region
//! unsolvable; a region that needs more than its node budget goes to the full search.

use super::board::Board;
use super::tables::{KEEP, SIDES};
use crate::model::direction::opposite;

/// Regions of at most this many cells are tried here first.
pub const TINY_CELLS: usize = 96;
/// Nodes per cell of the region before handing it to the full search.
const NODES_PER_CELL: usize = 64;
/// Marks a side whose neighbour is outside the region.
const OUTSIDE: u8 = u8::MAX;
/// Slots of the table of the region's cells: a power of two, at least 2.5 times
/// [`TINY_CELLS`] so that a look-up rarely probes more than one slot.
const SLOTS: usize = 256;
/// An empty slot (no padded cell index reaches it: grids are far smaller than 2^32 cells).
const FREE: u32 = u32::MAX;
const _: () = assert!(SLOTS.is_power_of_two() && SLOTS * 2 >= TINY_CELLS * 5);

/// The first slot tried for a cell. Multiplicative hashing spreads cells a row apart, which
/// the low bits alone would pile on one slot for widths that are multiples of [`SLOTS`].
fn home(cell: u32) -> usize {
    (cell.wrapping_mul(0x9E37_79B1) >> (32 - SLOTS.trailing_zeros())) as usize
}

/// How a tiny region ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TinyEnd {
    /// Every cell assigned (pushed to the caller's list).
    Solved,
    /// No assignment fits: the level has no solution.
    Unsolvable,
    /// The node budget ran out: the full search must decide.
    GaveUp,
}

/// Scratch reused across regions (no allocation per region once grown).
#[derive(Default)]
pub struct TinySolver {
    /// The region's cells by [`home`] slot, with linear probing, [`FREE`] elsewhere: a
    /// neighbour is looked up in a probe or two, where a sorted list took a binary search.
    keys: Vec<u32>,
    /// Local index of the cell in the same slot of `keys`.
    locals: Vec<u8>,
    /// Local index of each cell's N, E, S, W neighbour, or [`OUTSIDE`].
    nbr: Vec<[u8; 4]>,
    /// Candidates of each cell once its outside neighbours are taken into account.
    cand: Vec<u8>,
    /// Orientations of each cell not tried yet at its current depth.
    left: Vec<u8>,
    /// Connection mask of each assigned cell.
    mask: Vec<u8>,
    /// Orientation of each assigned cell.
    choice: Vec<u8>,
}

impl TinySolver {
    /// Solves the region `cells` (global padded indices of `board`, at most [`TINY_CELLS`],
    /// every side to a neighbour outside them decided in `dom`), pushing (cell,
    /// orientation) for each cell to `out` when solved. `nodes` counts the orientations tried.
    pub fn solve(
        &mut self,
        board: &Board,
        dom: &[u8],
        cells: &[u32],
        out: &mut Vec<(u32, u8)>,
        nodes: &mut u64,
    ) -> TinyEnd {
        let n = cells.len();
        debug_assert!(n <= TINY_CELLS);
        if n == 0 {
            return TinyEnd::Solved;
        }
        if self.keys.is_empty() {
            self.keys = vec![FREE; SLOTS];
            self.locals = vec![0; SLOTS];
        }
        for (i, &c) in cells.iter().enumerate() {
            let mut s = home(c);
            while self.keys[s] != FREE {
                s = (s + 1) & (SLOTS - 1);
            }
            self.keys[s] = c;
            self.locals[s] = i as u8;
        }
        self.nbr.clear();
        self.cand.clear();
        for &c in cells {
            let c = c as usize;
            let (mut on, mut off, mut links) = (0u8, 0u8, [OUTSIDE; 4]);
            for (side, link) in links.iter_mut().enumerate() {
                let nb = board.neighbour(c, side);
                let theirs = dom[nb] & 0xF;
                // Only an undecided neighbour can be in the region (about half the sides), and
                // even then may not be: regions join cells through undecided sides only.
                if theirs & theirs.wrapping_sub(1) != 0
                    && let Some(j) = self.local(nb as u32)
                {
                    *link = j;
                } else if SIDES[board.kind[nb] as usize * 16 + theirs as usize].0
                    & (1 << opposite(side))
                    != 0
                {
                    on |= 1 << side;
                } else {
                    off |= 1 << side;
                }
            }
            let k = board.kind[c] as usize;
            self.nbr.push(links);
            self.cand
                .push(dom[c] & 0xF & KEEP[k * 256 + (on | off << 4) as usize]);
        }
        // Emptied now, not at the next region: every return below is then clean.
        for &c in cells {
            let mut s = home(c);
            while self.keys[s] != c {
                s = (s + 1) & (SLOTS - 1);
            }
            self.keys[s] = FREE;
        }
        self.left.resize(n, 0);
        self.mask.resize(n, 0);
        self.choice.resize(n, 0);
        let budget = (NODES_PER_CELL * n) as u64;
        let mut spent = 0u64;
        let mut i = 0;
        self.left[0] = self.allowed(board, cells, 0);
        loop {
            let left = self.left[i];
            if left == 0 {
                if i == 0 {
                    *nodes += spent;
                    return TinyEnd::Unsolvable;
                }
                i -= 1;
                continue;
            }
            spent += 1;
            if spent > budget {
                *nodes += spent;
                return TinyEnd::GaveUp;
            }
            let o = left.trailing_zeros() as u8;
            self.left[i] = left & (left - 1);
            self.choice[i] = o;
            let k = board.kind[cells[i] as usize] as usize;
            self.mask[i] = SIDES[k * 16 + (1usize << o)].0;
            i += 1;
            if i == n {
                break;
            }
            self.left[i] = self.allowed(board, cells, i);
        }
        *nodes += spent;
        out.extend(cells.iter().zip(&self.choice).map(|(&c, &o)| (c, o)));
        TinyEnd::Solved
    }

    /// The local index of `cell` when it is in the region being set up.
    fn local(&self, cell: u32) -> Option<u8> {
        let mut s = home(cell);
        loop {
            match self.keys[s] {
                k if k == cell => return Some(self.locals[s]),
                FREE => return None,
                _ => s = (s + 1) & (SLOTS - 1),
            }
        }
    }

    /// The candidates of cell `i` that agree with its neighbours assigned so far (those
    /// before it in the region's order).
    fn allowed(&self, board: &Board, cells: &[u32], i: usize) -> u8 {
        let (mut on, mut off) = (0u8, 0u8);
        for (side, &j) in self.nbr[i].iter().enumerate() {
            if (j as usize) < i {
                if self.mask[j as usize] & (1 << opposite(side)) != 0 {
                    on |= 1 << side;
                } else {
                    off |= 1 << side;
                }
            }
        }
        let k = board.kind[cells[i] as usize] as usize;
        self.cand[i] & KEEP[k * 256 + (on | off << 4) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Game, Piece, PieceKind};
    use crate::solve::tables::FULL_DOMAIN;

    /// Whole small grids of random shapes and random domains, taken as one region in a random
    /// order: the solver's verdict agrees with brute force, and a solution it gives fits.
    #[test]
    fn agrees_with_brute_force_on_small_grids() {
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut solved, mut unsolvable) = (0, 0);
        for _ in 0..60000 {
            let (h, w) = (rng.usize(1..4), rng.usize(1..4));
            let cells = (0..h * w)
                .map(|_| Piece::new(PieceKind::ALL[rng.usize(..6)], 0))
                .collect();
            let board = Board::new(&Game::from_cells(h, w, cells));
            let mut dom: Vec<u8> = board
                .kind
                .iter()
                .map(|&k| FULL_DOMAIN[k as usize])
                .collect();
            let mut region: Vec<u32> = board.cells().map(|c| c as u32).collect();
            for &c in &region {
                let full = dom[c as usize];
                while {
                    dom[c as usize] = full & rng.u8(..);
                    dom[c as usize] == 0
                } {}
            }
            rng.shuffle(&mut region);
            let mut out = Vec::new();
            let end = TinySolver::default().solve(&board, &dom, &region, &mut out, &mut 0);
            let want = brute_force(&board, &dom, &region);
            match end {
                TinyEnd::Solved => {
                    solved += 1;
                    assert!(want, "solved a region brute force refutes");
                    let mut d = dom.clone();
                    for &(c, o) in &out {
                        assert!(dom[c as usize] & (1 << o) != 0);
                        d[c as usize] = 1 << o;
                    }
                    assert_eq!(out.len(), region.len());
                    assert!(fits(&board, &d, &region));
                }
                TinyEnd::Unsolvable => {
                    unsolvable += 1;
                    assert!(!want, "refuted a region brute force solves");
                }
                TinyEnd::GaveUp => panic!("gave up on {} cells", region.len()),
            }
        }
        assert!(
            solved > 1000 && unsolvable > 1000,
            "{solved} solved, {unsolvable} refuted"
        );
    }

    /// The regions real levels leave after propagation, with the level as it is and with a
    /// few domains narrowed at random after the first pass, then propagated again (some
    /// regions then have no solution, some undecided cells border a region across a decided
    /// side), at widths that are multiples of the table's size (cells a row apart then share
    /// their low bits) and not: one solver, reused over every tiny region in grid order as
    /// the pool does, gives each the verdict of the full search, and its solutions fit their
    /// surroundings.
    #[test]
    fn agrees_with_the_full_search_on_the_regions_of_real_levels() {
        use crate::generate::{Family, GenerateOptions, generate};
        use crate::solve::regions::find_grid_regions_until;
        use crate::solve::search::{SearchCounters, SearchEnd, search};
        use crate::solve::state::State;
        use crate::solve::strategy::Order;
        use crate::solve::subproblem::Subproblem;

        let mut rng = fastrand::Rng::with_seed(3);
        let (mut solved, mut refuted, mut across) = (0, 0, 0);
        let mut tiny = TinySolver::default();
        for (h, w) in [(60, 128), (40, 256), (70, 97), (16, 1024)] {
            for family in [
                Family::Random,
                Family::Mixed,
                Family::Dominoes,
                Family::Loops,
                Family::Straight,
            ] {
                for seed in 0..3 {
                    let mut o = GenerateOptions::new(h, w, seed);
                    o.family = family;
                    let board = &Board::new(&generate(&o));
                    let mut first = State::new(board);
                    assert!(first.propagate_all(board));
                    // Trial 0 takes the level as it is; the others narrow three undecided
                    // cells (never to nothing) and propagate again.
                    for trial in 0..40 {
                        let mut state = State::with_domains(board, first.dom.clone());
                        let undecided: Vec<usize> = board
                            .cells()
                            .filter(|&c| state.dom[c].count_ones() > 1)
                            .collect();
                        for _ in 0..(trial > 0 && !undecided.is_empty()) as usize * 8 {
                            let c = undecided[rng.usize(..undecided.len())];
                            let fewer = state.dom[c] & rng.u8(..) & !(1 << rng.u8(..4));
                            if fewer != 0 {
                                state.narrow(board, c, fewer);
                            }
                        }
                        if !state.propagate(board) {
                            continue;
                        }
                        let regions = find_grid_regions_until(board, &state, &|| false).unwrap();
                        let dom = &state.dom;
                        for r in 0..regions.len() {
                            let cells = regions.get(r);
                            if cells.len() > TINY_CELLS {
                                continue;
                            }
                            let mut out = Vec::new();
                            let end = tiny.solve(board, dom, cells, &mut out, &mut 0);
                            let sub = Subproblem::extract(board, dom, cells);
                            let mut alone = State::with_domains(&sub.board, sub.dom.clone());
                            let want = search(
                                &sub.board,
                                &mut alone,
                                None,
                                &sub.cells,
                                Order::Line,
                                &|| false,
                                &mut SearchCounters::default(),
                            );
                            let what = format!(
                                "{} {h}x{w} seed {seed} trial {trial} region {r}",
                                family.name()
                            );
                            match end {
                                TinyEnd::Solved => {
                                    solved += 1;
                                    let mut d = dom.clone();
                                    for &(c, o) in &out {
                                        assert!(dom[c as usize] & (1 << o) != 0, "{what}");
                                        d[c as usize] = 1 << o;
                                    }
                                    assert_eq!(out.len(), cells.len(), "{what}");
                                    assert!(fits(board, &d, cells), "{what}");
                                    assert_eq!(want, SearchEnd::Solved, "{what}");
                                }
                                TinyEnd::Unsolvable => {
                                    refuted += 1;
                                    assert_eq!(want, SearchEnd::Exhausted, "{what}");
                                }
                                TinyEnd::GaveUp => {}
                            }
                            // Undecided cells next to the region but not in it: joined to it by
                            // no undecided side.
                            across += cells
                                .iter()
                                .flat_map(|&c| (0..4).map(move |s| board.neighbour(c as usize, s)))
                                .filter(|&nb| {
                                    dom[nb].count_ones() > 1 && !cells.contains(&(nb as u32))
                                })
                                .count();
                        }
                    }
                }
            }
        }
        assert!(
            solved > 10000 && refuted >= 10 && across >= 5,
            "{solved} solved, {refuted} refuted, {across} undecided neighbours outside"
        );
    }

    /// Every edge of a region cell matches, `dom` deciding every cell involved.
    fn fits(board: &Board, dom: &[u8], region: &[u32]) -> bool {
        let mask = |c: usize| SIDES[board.kind[c] as usize * 16 + dom[c] as usize].0;
        region.iter().all(|&c| {
            let c = c as usize;
            (0..4).all(|s| {
                let nb = board.neighbour(c, s);
                (mask(c) >> s & 1) == (mask(nb) >> opposite(s) & 1)
            })
        })
    }

    fn brute_force(board: &Board, dom: &[u8], region: &[u32]) -> bool {
        fn go(board: &Board, d: &mut Vec<u8>, region: &[u32], i: usize, orig: &[u8]) -> bool {
            if i == region.len() {
                return fits(board, d, region);
            }
            let c = region[i] as usize;
            (0..4).any(|o| {
                if orig[c] & (1 << o) == 0 {
                    return false;
                }
                d[c] = 1 << o;
                go(board, d, region, i + 1, orig)
            })
        }
        go(board, &mut dom.to_vec(), region, 0, dom)
    }
}

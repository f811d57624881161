//! [`Subproblem`]: one region cut out of the propagated grid into a small board of its own
//! (its bounding box plus a one-cell margin), so a worker needs memory for the region, not for
//! the whole grid. Cells of the margin and non-region cells in the box keep their domains: the
//! sides they share with the region are decided, so propagation never needs to look past them.
//!
//! A thin region with a large bounding box (a hook around the grid) gets a compact board
//! instead: its cells and their margin numbered 1.. in index order, neighbours by table, and
//! cell 0 an empty stand-in for every neighbour of the margin (never looked at: margin cells
//! are never revised, their sides with the region being decided). Every per-region array is
//! then as large as the region, not as its box (nested hooks 2048x2048: see docs/SOLVER.md).

use std::borrow::Cow;

use super::board::Board;

/// A bounding box more than this many times the region's cells gets a compact board.
const COMPACT_RATIO: usize = 4;
/// On a wrapped board, a region of at least this fraction (1/n) of the cells is searched on
/// the board itself.
const WHOLE_SHARE: usize = 4;

/// One region on a board of its own, with the domains it starts its search from.
pub struct Subproblem<'a> {
    /// The small board (bounding box with margin, or compact).
    pub board: Cow<'a, Board>,
    /// Domain per cell of `board`, copied from the propagated grid.
    pub dom: Vec<u8>,
    /// The region's cells as local indices, in the order given.
    pub cells: Vec<u32>,
    /// Global padded index of local index 0 (a compact board has its own table: stride 0).
    origin_row: usize,
    origin_col: usize,
    global_stride: usize,
}

impl<'a> Subproblem<'a> {
    /// Cuts `region` (global padded indices) out of `board` with domains `dom`.
    pub fn extract(board: &'a Board, dom: &[u8], region: &[u32]) -> Subproblem<'a> {
        // A box of a wrapped board would lose the links across its seams. A region of a good
        // share of the board keeps the board as it is: numbering it compactly would sort
        // five times its cells (seconds at 4096x4096) to save little memory.
        if board.is_linked() {
            if region.len() >= board.len() / WHOLE_SHARE {
                return Subproblem::whole(board, dom, region);
            }
            return Subproblem::compact(board, dom, region);
        }
        let s = board.stride;
        let (mut r0, mut c0, mut r1, mut c1) = (usize::MAX, usize::MAX, 0, 0);
        for &g in region {
            let (r, c) = (g as usize / s, g as usize % s);
            r0 = r0.min(r);
            c0 = c0.min(c);
            r1 = r1.max(r);
            c1 = c1.max(c);
        }
        // Region cells are real cells, so the margin stays inside the padded grid.
        let (origin_row, origin_col) = (r0 - 1, c0 - 1);
        let (rows, cols) = (r1 - r0 + 3, c1 - c0 + 3);
        if rows * cols > COMPACT_RATIO * (region.len() + 64) {
            return Subproblem::compact(board, dom, region);
        }
        let mut kind = Vec::with_capacity(rows * cols);
        let mut sub_dom = Vec::with_capacity(rows * cols);
        for r in origin_row..origin_row + rows {
            let row = r * s + origin_col;
            kind.extend_from_slice(&board.kind[row..row + cols]);
            sub_dom.extend_from_slice(&dom[row..row + cols]);
        }
        let local = Board::from_padded(rows - 2, cols - 2, kind);
        let cells = region
            .iter()
            .map(|&g| {
                let (r, c) = (g as usize / s, g as usize % s);
                ((r - origin_row) * cols + (c - origin_col)) as u32
            })
            .collect();
        Subproblem {
            board: Cow::Owned(local),
            dom: sub_dom,
            cells,
            origin_row,
            origin_col,
            global_stride: s,
        }
    }

    /// The compact cut: region cells and their neighbours, sorted, numbered from 1. Linear
    /// after sorting the region: the neighbours are the region shifted by each side's offset,
    /// five sorted lists merged; each side's look-up walks its own cursor forward.
    fn compact(board: &Board, dom: &[u8], region: &[u32]) -> Subproblem<'a> {
        if board.is_linked() {
            return Subproblem::compact_linked(board, dom, region);
        }
        let mut asc = region.to_vec();
        if asc.windows(2).all(|w| w[0] > w[1]) {
            asc.reverse();
        } else {
            asc.sort_unstable();
        }
        // Region cells are real cells: their neighbours are inside the padded grid.
        let shifted = |k: usize, i: usize| -> u32 {
            if k == 4 {
                asc[i]
            } else {
                board.neighbour(asc[i] as usize, k) as u32
            }
        };
        let mut globals: Vec<u32> = Vec::with_capacity(3 * region.len() + 1);
        let mut heads = [0usize; 5];
        loop {
            let mut best = u32::MAX;
            for (k, &h) in heads.iter().enumerate() {
                if h < asc.len() {
                    best = best.min(shifted(k, h));
                }
            }
            if best == u32::MAX {
                break;
            }
            globals.push(best);
            for (k, h) in heads.iter_mut().enumerate() {
                if *h < asc.len() && shifted(k, *h) == best {
                    *h += 1;
                }
            }
        }
        let mut cursor = [0usize; 4];
        let link = |g: usize, side: usize| -> u32 {
            let nb = board.neighbour(g, side);
            // Outside the padded grid there is nothing: index arithmetic could wrap.
            if nb >= board.len() {
                return 0;
            }
            // `nb` grows with `g`, so the cursor only moves forward.
            let at = &mut cursor[side];
            while *at < globals.len() && (globals[*at] as usize) < nb {
                *at += 1;
            }
            let found = *at < globals.len() && globals[*at] as usize == nb;
            if found { *at as u32 + 1 } else { 0 }
        };
        Subproblem::numbered(board, dom, region, &globals, link)
    }

    /// The whole board, borrowed: cells numbered as they are.
    fn whole(board: &'a Board, dom: &[u8], region: &[u32]) -> Subproblem<'a> {
        Subproblem {
            board: Cow::Borrowed(board),
            dom: dom.to_vec(),
            cells: region.to_vec(),
            origin_row: 0,
            origin_col: 0,
            global_stride: 0,
        }
    }

    /// [`Subproblem::compact`] of a board whose neighbours come from a table (a wrapped
    /// board): across a seam a neighbour's index is not the cell's plus an offset, so the
    /// cells are sorted and every neighbour looked up by a binary search.
    fn compact_linked(board: &Board, dom: &[u8], region: &[u32]) -> Subproblem<'a> {
        let mut globals: Vec<u32> = Vec::with_capacity(5 * region.len());
        for &g in region {
            globals.push(g);
            globals.extend((0..4).map(|side| board.neighbour(g as usize, side) as u32));
        }
        globals.sort_unstable();
        globals.dedup();
        let local_of = |g: usize| -> u32 {
            match globals.binary_search(&(g as u32)) {
                Ok(i) => i as u32 + 1,
                Err(_) => 0,
            }
        };
        let link = |g: usize, side: usize| local_of(board.neighbour(g, side));
        Subproblem::numbered(board, dom, region, &globals, link)
    }

    /// The compact board of `globals` (the region's cells and their neighbours, ascending)
    /// numbered from 1, with `link(g, side)` the local index of `g`'s neighbour across `side`
    /// (0 when it is not among them).
    fn numbered(
        board: &Board,
        dom: &[u8],
        region: &[u32],
        globals: &[u32],
        mut link: impl FnMut(usize, usize) -> u32,
    ) -> Subproblem<'a> {
        let n = globals.len() + 1;
        let mut kind = Vec::with_capacity(n);
        let mut sub_dom = Vec::with_capacity(n);
        let mut links = Vec::with_capacity(4 * n);
        let mut origin = Vec::with_capacity(n);
        // Cell 0: an empty cell whose neighbours are itself; nothing reads its grid position.
        kind.push(0);
        sub_dom.push(1);
        links.extend_from_slice(&[0; 4]);
        origin.push(globals[0]);
        for &g in globals {
            let g = g as usize;
            kind.push(board.kind[g]);
            sub_dom.push(dom[g]);
            origin.push(g as u32);
            links.extend((0..4).map(|side| link(g, side)));
        }
        let cells = region
            .iter()
            .map(|&g| globals.binary_search(&g).map_or(0, |i| i as u32 + 1))
            .collect();
        Subproblem {
            board: Cow::Owned(Board::compact(board, kind, links, origin)),
            dom: sub_dom,
            cells,
            origin_row: 0,
            origin_col: 0,
            global_stride: 0,
        }
    }

    /// Global padded index of a local index.
    pub fn global(&self, local: usize) -> u32 {
        if self.global_stride == 0 {
            return self.board.grid_index(local) as u32;
        }
        let (r, c) = (local / self.board.stride, local % self.board.stride);
        ((r + self.origin_row) * self.global_stride + c + self.origin_col) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, generate};
    use crate::solve::regions::find_regions;
    use crate::solve::state::State;

    #[test]
    fn compact_and_box_cuts_agree_on_every_region_of_nested_hooks() {
        let mut o = GenerateOptions::new(30, 30, 1);
        o.family = Family::Hooks;
        let game = generate(&o);
        let board = Board::new(&game);
        let mut state = State::new(&board);
        assert!(state.propagate_all(&board));
        let mut seen = vec![false; board.len()];
        let regions = find_regions(&board, &state, board.cells(), &mut seen);
        let mut compact = 0;
        for r in 0..regions.len() {
            let cells = regions.get(r);
            let sub = Subproblem::extract(&board, &state.dom, cells);
            compact += usize::from(sub.global_stride == 0);
            let plain = Subproblem::compact(&board, &state.dom, cells);
            for sub in [&sub, &plain] {
                for (&g, &l) in cells.iter().zip(&sub.cells) {
                    let l = l as usize;
                    assert_eq!(sub.global(l), g);
                    assert_eq!(sub.dom[l], state.dom[g as usize]);
                    assert_eq!(sub.board.kind[l], board.kind[g as usize]);
                    assert_eq!(sub.board.colour(l), board.colour(g as usize));
                    for side in 0..4 {
                        let (nl, ng) = (
                            sub.board.neighbour(l, side),
                            board.neighbour(g as usize, side),
                        );
                        assert_eq!(sub.global(nl), ng as u32);
                        assert_eq!(sub.dom[nl], state.dom[ng]);
                    }
                }
            }
        }
        assert!(compact >= 3, "{compact} compact cuts");
    }

    #[test]
    fn searches_on_compact_cuts_give_the_same_verdicts_and_valid_answers() {
        use crate::model::{Game, Piece};
        use crate::solve::flow::DegreeFlow;
        use crate::solve::search::{SearchCounters, SearchEnd, search};
        use crate::solve::strategy::Order;
        let mut rng = fastrand::Rng::with_seed(9);
        let (mut solved, mut exhausted) = (0, 0);
        for seed in 0..60u64 {
            let mut o = GenerateOptions::new(9, 11, seed);
            o.family = [Family::Straight, Family::Dominoes, Family::Random][seed as usize % 3];
            let mut cells = generate(&o).cells().to_vec();
            if seed % 2 == 1 {
                let i = rng.usize(..cells.len());
                cells[i] = Piece::new(crate::model::PieceKind::from_code(rng.u8(0..6)).unwrap(), 0);
            }
            let game = Game::from_cells(9, 11, cells);
            let board = Board::new(&game);
            let mut state = State::new(&board);
            if !state.propagate_all(&board) {
                continue;
            }
            let mut seen = vec![false; board.len()];
            let regions = find_regions(&board, &state, board.cells(), &mut seen);
            for r in 0..regions.len() {
                let mut region = regions.get(r).to_vec();
                Order::Mrv.arrange(&board, &mut region);
                let mut ends = Vec::new();
                for (sub, flow) in [
                    (Subproblem::extract(&board, &state.dom, &region), true),
                    (Subproblem::compact(&board, &state.dom, &region), true),
                ] {
                    let mut st = State::with_domains(&sub.board, sub.dom.clone());
                    let mut f = flow.then(|| DegreeFlow::new(&sub.board));
                    let end = search(
                        &sub.board,
                        &mut st,
                        f.as_mut(),
                        &sub.cells,
                        Order::Mrv,
                        &|| false,
                        &mut SearchCounters::default(),
                    );
                    if end == SearchEnd::Solved {
                        // Every side of a region cell agrees with its neighbour.
                        for &c in &sub.cells {
                            let c = c as usize;
                            assert_eq!(st.dom[c].count_ones(), 1);
                            for side in 0..4 {
                                assert!(!st.side_open(&sub.board, c, side));
                            }
                            assert_eq!(st.supported(&sub.board, c), st.dom[c]);
                        }
                    }
                    ends.push(end);
                }
                assert!(ends.iter().all(|&e| e == ends[0]), "seed {seed}: {ends:?}");
                if ends[0] == SearchEnd::Solved {
                    solved += 1;
                } else {
                    exhausted += 1;
                }
            }
        }
        assert!(
            solved >= 30 && exhausted >= 3,
            "{solved} solved, {exhausted} exhausted"
        );
    }
}

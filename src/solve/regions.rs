//! Independent regions: after propagation, undecided cells joined through sides that are still
//! undecided. Regions share no undecided side, so each can be solved on its own, and one
//! region without a solution makes the whole level unsolvable. Found by one BFS over flat
//! arrays, linear in the grid size.

use super::board::Board;
use super::state::State;
use super::tables::sides;
use crate::algo::rem_sets::RemSets;

/// Regions in compressed form: region `i` is `cells[starts[i]..starts[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Regions {
    /// Padded cell indices of all regions, region after region.
    pub cells: Vec<u32>,
    /// Start of each region in `cells`, plus a final `cells.len()` (so one more than regions).
    pub starts: Vec<usize>,
}

impl Regions {
    /// Number of regions.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// True when there is no region (propagation decided every cell).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The padded cells of region `i`.
    pub fn get(&self, i: usize) -> &[u32] {
        &self.cells[self.starts[i]..self.starts[i + 1]]
    }

    /// Indices of the regions of more than `cells` cells, largest first (ties by first cell,
    /// so the order is deterministic); the solver batches the many tiny ones in grid order.
    pub fn largest_first_above(&self, cells: usize) -> Vec<usize> {
        // Keys gathered once and sorted in place: a level of millions of tiny regions spent a
        // second here when each comparison looked both regions up. First cells differ, so the
        // unstable sort gives one order.
        let mut keys: Vec<(std::cmp::Reverse<usize>, u32, u32)> = (0..self.len())
            .filter(|&i| self.get(i).len() > cells)
            .map(|i| {
                (
                    std::cmp::Reverse(self.get(i).len()),
                    self.get(i)[0],
                    i as u32,
                )
            })
            .collect();
        keys.sort_unstable();
        keys.into_iter().map(|(_, _, i)| i as usize).collect()
    }
}

/// Splits the undecided cells among `candidates` into regions. `seen` must be all false on
/// entry for those cells and is left true for every undecided candidate.
pub fn find_regions(
    board: &Board,
    state: &State,
    candidates: impl Iterator<Item = usize>,
    seen: &mut [bool],
) -> Regions {
    find_regions_until(board, state, candidates, seen, &|| false).expect("never halted")
}

/// [`find_regions`] that gives up (`None`) once `halted` says so, read every few thousand
/// cells (the BFS over a grid of tens of millions of cells takes seconds).
pub fn find_regions_until(
    board: &Board,
    state: &State,
    candidates: impl Iterator<Item = usize>,
    seen: &mut [bool],
    halted: &impl Fn() -> bool,
) -> Option<Regions> {
    let mut work = 0usize;
    let mut out = Regions {
        cells: Vec::new(),
        starts: vec![0],
    };
    for start in candidates {
        if seen[start] || state.is_fixed(start) {
            continue;
        }
        seen[start] = true;
        let first = out.cells.len();
        out.cells.push(start as u32);
        let mut head = first;
        while head < out.cells.len() {
            let c = out.cells[head] as usize;
            head += 1;
            work += 1;
            if work.is_multiple_of(1 << 16) && halted() {
                return None;
            }
            for side in 0..4 {
                if state.side_open(board, c, side) {
                    let nb = board.neighbour(c, side);
                    if !seen[nb] {
                        seen[nb] = true;
                        out.cells.push(nb as u32);
                    }
                }
            }
        }
        out.starts.push(out.cells.len());
    }
    Some(out)
}

/// Rows per stripe of [`find_grid_regions_until`]: fixed, not taken from the thread count, so
/// the regions come out the same on any number of threads.
const STRIPE_ROWS: usize = 256;

/// The regions of every real cell of a grid board, built for grids of hundreds of millions of
/// cells: the same regions, in the same order (by first cell), each starting with its first
/// cell, as [`find_regions`] over `board.cells()`. Grids of up to [`STRIPE_ROWS`] rows also
/// get the same cell order; on taller ones a region that crosses a stripe border lists its
/// cells stripe by stripe (every user sorts a region's cells before use). Stripes of rows are
/// scanned in parallel (rayon), each to its own pieces of regions, which a union-find then
/// joins across the borders. The scan skips fixed cells row by row, each cell's open sides
/// come from one table look-up, and the seen marks are bits. `None` once `halted` says so,
/// read every few thousand cells.
pub fn find_grid_regions_until(
    board: &Board,
    state: &State,
    halted: &(impl Fn() -> bool + Sync),
) -> Option<Regions> {
    find_grid_regions_striped(board, state, STRIPE_ROWS, halted)
}

/// The pieces of regions inside one stripe of rows.
struct Stripe {
    /// The pieces, as [`Regions`] (each in the order a scan of the stripe alone finds it).
    pieces: Regions,
    /// Piece of each cell of the stripe's first row (`u32::MAX`: none).
    top: Vec<u32>,
    /// (column, piece) of the last row's cells whose south side is open.
    down: Vec<(u32, u32)>,
}

/// [`find_grid_regions_until`] with stripes of `stripe_rows` rows (tests use thin ones).
fn find_grid_regions_striped(
    board: &Board,
    state: &State,
    stripe_rows: usize,
    halted: &(impl Fn() -> bool + Sync),
) -> Option<Regions> {
    use crate::par::*;
    let h = board.height;
    let rows = stripe_rows.max(1);
    let scan = |k: usize| scan_stripe(board, state, k * rows, ((k + 1) * rows).min(h), halted);
    if h <= rows {
        // One stripe: on the calling thread, not handed to the pool.
        return scan(0).map(|s| s.pieces);
    }
    let stripes: Vec<Option<Stripe>> = (0..h.div_ceil(rows)).into_par_iter().map(scan).collect();
    let mut stripes: Vec<Stripe> = stripes.into_iter().collect::<Option<_>>()?;
    // Global piece ids: stripe by stripe, so the smallest id of a joined region is its piece
    // with the first cell.
    let mut offsets = Vec::with_capacity(stripes.len());
    let mut total = 0u32;
    for s in &stripes {
        offsets.push(total);
        total += s.pieces.len() as u32;
    }
    // Rem's sets root a set at its largest element: numbered from the last piece down, that
    // is the piece with the first cell.
    let mut sets = RemSets::new(total as usize);
    let id = |g: u32| total - 1 - g;
    // On a board whose columns wrap, the last stripe's bottom row meets the first one's top.
    let last = stripes.len() - 1;
    let joins = if board.wraps_rows() { last + 1 } else { last };
    for k in 0..joins {
        let next = (k + 1) % stripes.len();
        for &(x, p) in &stripes[k].down {
            let q = stripes[next].top[x as usize];
            debug_assert!(q != u32::MAX, "open sides are symmetric at a fixed point");
            if q == u32::MAX {
                continue;
            }
            sets.union(id(offsets[k] + p), id(offsets[next] + q));
        }
    }
    // Members of each root, in id order (a counting sort by root).
    let roots: Vec<u32> = (0..total).map(|g| id(sets.find(id(g)))).collect();
    let mut first = vec![0u32; total as usize + 1];
    for &r in &roots {
        first[r as usize + 1] += 1;
    }
    for i in 0..total as usize {
        first[i + 1] += first[i];
    }
    let mut members = vec![0u32; total as usize];
    let mut next = first.clone();
    for (g, &r) in roots.iter().enumerate() {
        members[next[r as usize] as usize] = g as u32;
        next[r as usize] += 1;
    }
    drop(next);
    let stripe_of = |g: u32| offsets.partition_point(|&o| o <= g) - 1;
    let cells_total: usize = stripes.iter().map(|s| s.pieces.cells.len()).sum();
    let mut out = Regions {
        cells: Vec::with_capacity(cells_total),
        starts: vec![0],
    };
    // Roots in id order are regions in order of their first cell. A stripe's pieces all
    // belong to roots in that stripe or above, so each stripe is freed once its roots are out.
    let mut done = 0;
    for k in 0..stripes.len() {
        for local in 0..stripes[k].pieces.len() as u32 {
            let g = offsets[k] + local;
            if roots[g as usize] != g {
                continue;
            }
            for &m in &members[first[g as usize] as usize..first[g as usize + 1] as usize] {
                let s = stripe_of(m);
                out.cells
                    .extend_from_slice(stripes[s].pieces.get((m - offsets[s]) as usize));
            }
            out.starts.push(out.cells.len());
        }
        while done <= k {
            stripes[done] = Stripe {
                pieces: Regions::default(),
                top: Vec::new(),
                down: Vec::new(),
            };
            done += 1;
        }
    }
    Some(out)
}

impl Regions {
    /// No region (and the one `starts` entry).
    fn default_empty() -> Regions {
        Regions {
            cells: Vec::new(),
            starts: vec![0],
        }
    }
}

/// The pieces of regions of game rows `r0..r1` seen alone (a side open across the stripe's
/// top or bottom is not followed), with what the join needs at the stripe's borders.
fn scan_stripe(
    board: &Board,
    state: &State,
    r0: usize,
    r1: usize,
    halted: &impl Fn() -> bool,
) -> Option<Stripe> {
    let dom = &state.dom;
    let (w, stride) = (board.width, board.stride);
    // Padded cells of the stripe's rows, ring columns included: [base, end).
    let (base, end) = ((r0 + 1) * stride, (r1 + 1) * stride);
    let mut seen = vec![0u64; (end - base).div_ceil(64)];
    // Sets `c`'s mark; true when it was clear.
    let mark = |seen: &mut [u64], c: usize| {
        let i = c - base;
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let fresh = seen[word] & bit == 0;
        seen[word] |= bit;
        fresh
    };
    let mut out = Regions::default_empty();
    let mut top = vec![u32::MAX; w];
    let mut down = Vec::new();
    let first_of_last = board.cell(r1.saturating_sub(1), 0);
    for r in r0..r1 {
        if r % 64 == 63 && halted() {
            return None;
        }
        let first = board.cell(r, 0);
        for (x, &d) in dom[first..first + w].iter().enumerate() {
            if d & d.wrapping_sub(1) == 0 || !mark(&mut seen, first + x) {
                continue;
            }
            let piece = out.len() as u32;
            let mut head = out.cells.len();
            out.cells.push((first + x) as u32);
            while head < out.cells.len() {
                let c = out.cells[head] as usize;
                head += 1;
                if head.is_multiple_of(1 << 16) && halted() {
                    return None;
                }
                let (may, must) = sides(board.kind[c], dom[c]);
                let open = may & !must;
                if c < base + stride {
                    top[c - base - 1] = piece;
                }
                if c >= first_of_last - 1 && open & 4 != 0 {
                    down.push(((c - first_of_last) as u32, piece));
                }
                for side in 0..4 {
                    if open & (1 << side) != 0 {
                        let nb = board.neighbour(c, side);
                        if nb >= base && nb < end && mark(&mut seen, nb) {
                            out.cells.push(nb as u32);
                        }
                    }
                }
            }
            out.starts.push(out.cells.len());
        }
    }
    Some(Stripe {
        pieces: out,
        top,
        down,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, GenerateOptions, MazeAlgorithm, generate};
    use crate::solve::first_pass::first_pass_striped;

    #[test]
    fn grid_regions_are_the_plain_regions() {
        let mut families = vec![
            Family::Random,
            Family::Dominoes,
            Family::Mixed,
            Family::Hooks,
        ];
        families.extend(MazeAlgorithm::ALL.map(Family::Maze));
        let mut several = 0;
        for family in families {
            for &(h, w) in &[(1, 1), (3, 70), (40, 40), (67, 29)] {
                for seed in 0..4 {
                    let mut o = GenerateOptions::new(h, w, seed);
                    o.family = family;
                    let board = Board::new(&generate(&o));
                    let (state, ok) = first_pass_striped(&board, usize::MAX);
                    assert!(ok);
                    let mut seen = vec![false; board.len()];
                    let want = find_regions(&board, &state, board.cells(), &mut seen);
                    let got = find_grid_regions_until(&board, &state, &|| false).unwrap();
                    assert_eq!(got, want, "{} {h}x{w} seed {seed}", family.name());
                    for rows in [1, 2, 3, 7] {
                        let got = find_grid_regions_striped(&board, &state, rows, &|| false);
                        assert_same_regions(&got.unwrap(), &want, rows);
                    }
                    several += usize::from(want.len() > 1);
                }
            }
        }
        assert!(several > 20, "{several} levels with several regions");
    }

    #[test]
    fn stripes_join_regions_across_the_seams_of_wrapped_boards() {
        use crate::model::{Game, Piece, PieceKind};
        // Corners everywhere: on a wrapped board nothing settles them, so one region winds
        // across every stripe border and both seams; T pieces next to empty rows cut it up.
        let mut joined = 0;
        for (h, w) in [(12, 8), (9, 6), (20, 4)] {
            for (wrap_rows, wrap_cols) in [(true, true), (true, false), (false, true)] {
                for kind in [PieceKind::L, PieceKind::T] {
                    let mut cells = vec![Piece::new(kind, 0); h * w];
                    for c in (0..w).step_by(3) {
                        cells[(h / 2) * w + c] = Piece::new(PieceKind::Empty, 0);
                    }
                    let game = Game::from_cells(h, w, cells);
                    let board = Board::wrapped(&game, wrap_rows, wrap_cols);
                    let mut state = State::new(&board);
                    if !state.propagate_all(&board) {
                        continue;
                    }
                    let mut seen = vec![false; board.len()];
                    let want = find_regions(&board, &state, board.cells(), &mut seen);
                    joined += usize::from(wrap_rows && !want.is_empty());
                    for rows in [1, 2, 3, 5, 64] {
                        let got = find_grid_regions_striped(&board, &state, rows, &|| false);
                        assert_same_regions(&got.unwrap(), &want, rows);
                    }
                }
            }
        }
        assert!(joined >= 4, "{joined} wrapped levels with regions");
    }

    /// Striped regions against the plain ones: the same regions in the same order, each
    /// starting with its first cell, the same cells.
    fn assert_same_regions(got: &Regions, want: &Regions, rows: usize) {
        assert_eq!(got.len(), want.len(), "stripes of {rows}");
        for i in 0..want.len() {
            let (g, w) = (got.get(i), want.get(i));
            assert_eq!(g[0], w[0], "stripes of {rows}, region {i}");
            let (mut g, mut w) = (g.to_vec(), w.to_vec());
            g.sort_unstable();
            w.sort_unstable();
            assert_eq!(g, w, "stripes of {rows}, region {i}");
        }
    }

    #[test]
    fn stripes_join_regions_that_cross_many_borders() {
        use crate::model::{Game, Piece, PieceKind};
        // Regions that wind through many stripes: all-corner and all-T grids (propagation
        // settles their borders only), loops levels, and dominoes (one giant region).
        let mut games = Vec::new();
        for n in [6, 12, 34] {
            for kind in [PieceKind::L, PieceKind::T] {
                games.push(Game::from_cells(
                    n,
                    n + 4,
                    vec![Piece::new(kind, 0); n * (n + 4)],
                ));
            }
        }
        let families = [
            Family::Loops,
            Family::Dominoes,
            Family::Random,
            Family::Mixed,
        ];
        for (seed, family) in families.into_iter().cycle().take(16).enumerate() {
            let mut o = GenerateOptions::new(45, 38, seed as u64);
            o.family = family;
            games.push(generate(&o));
        }
        let mut crossing = 0;
        for (n, game) in games.iter().enumerate() {
            let board = Board::new(game);
            let (state, ok) = first_pass_striped(&board, usize::MAX);
            if !ok {
                continue;
            }
            let mut seen = vec![false; board.len()];
            let want = find_regions(&board, &state, board.cells(), &mut seen);
            // Regions over four rows or more: each crosses borders of stripes of 1 to 3 rows.
            let stride = board.stride as u32;
            crossing += (0..want.len())
                .filter(|&i| {
                    let rows = want.get(i).iter().map(|&c| c / stride);
                    rows.clone().max().unwrap() - rows.min().unwrap() >= 3
                })
                .count();
            for rows in [1, 2, 3, 7, 64] {
                let got = find_grid_regions_striped(&board, &state, rows, &|| false).unwrap();
                assert_same_regions(&got, &want, rows);
                let again = find_grid_regions_striped(&board, &state, rows, &|| false).unwrap();
                assert_eq!(again, got, "level #{n}: the same on every run");
            }
        }
        assert!(crossing > 20, "{crossing} regions over four rows or more");
    }
}

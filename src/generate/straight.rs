//! Adversarial families for the solver's relaxations (issue 10).
//!
//! - `straight`: the grid tiled with straight segments Q–Q, Q–I–Q and Q–I–I–Q, horizontal or
//!   vertical, no corners, a few empty cells where no segment fits. The flow relaxation gives
//!   an I two ports (N/E, S/W) and so lets it bend: the witness is rarely a solution here.
//! - `hooks`: nested Γ-shaped two-wide ladders of Q pieces, one every three rows and columns,
//!   separated by empty cells, so each ladder is its own region whose bounding box is nearly
//!   the whole grid.
//! - `ladders`: the same ladders as `hooks` at `H x 2H` (ladder k has `4H - 12k - 4` cells in
//!   both), laid flat in bands of three rows: the reference for what `hooks` should cost.
//!
//! [`move_straights`] swaps a few I pieces with pieces of the same checkerboard colour, which
//! keeps the shape counts and the ends per colour: the level may or may not stay solvable.

use super::windowed_order::{visit_windowed_pipelined, window_rows};
use crate::model::direction::{E, N, S, W, bit, opposite};
use crate::model::{Game, Piece, PieceKind};
use crate::par::*;

/// Connection masks of a solved straight-segment grid (row-major). Cells are visited in a
/// random order; each uncovered one starts a segment of 2 to 4 cells in a random direction
/// (the first of the four, shuffled, with room for two cells), cut short by covered cells and
/// the border; a cell with no room stays empty. A row-major sweep laying segments east or
/// south only was much easier: every segment then starts where the ones before it end, so
/// propagation from the top-left corner decides most of the grid (512x512: 0.6–0.9 s and
/// about 3,000 nodes on every seed, against no answer in 20 s on most seeds for this one).
///
/// Grids taller than the window ([`window_rows`]: 32 rows at 8192 wide) take the cells in a
/// windowed random order ([`visit_windowed_pipelined`], streamed, keys drawn on a second thread), the segments' draws from a generator
/// forked off `rng`: a uniform shuffle of 67M cells made every visit a cache miss (11.5 s at
/// 8192x8192). Within a window the order is as random as before and every row is treated
/// alike, so the segments still start anywhere around the ones already laid. Smaller grids
/// keep the uniform shuffle and their levels for a seed.
pub fn straight_masks(height: usize, width: usize, rng: &mut fastrand::Rng) -> Vec<u8> {
    straight_masks_windowed(height, width, window_rows(width), rng)
}

/// [`straight_masks`] with windows of `window` rows (tests use small windows).
fn straight_masks_windowed(
    height: usize,
    width: usize,
    window: usize,
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    let mut masks = vec![0u8; height * width];
    if height <= window {
        // u32 halves the order's memory; the shuffle draws the same numbers whatever the
        // element type, so a seed gives the same level as with usize.
        let mut order: Vec<u32> = (0..height * width).map(|i| i as u32).collect();
        rng.shuffle(&mut order);
        for i in order {
            lay_segment(&mut masks, height, width, i as usize, rng);
        }
    } else {
        let mut draw = rng.fork();
        visit_windowed_pipelined(
            height,
            width,
            window,
            |_| true,
            |_| false,
            rng,
            |i, _| {
                lay_segment(&mut masks, height, width, i as usize, &mut draw);
                true
            },
        );
    }
    masks.par_iter_mut().for_each(|m| *m &= !COVERED);
    masks
}

/// Marks a cell covered by a segment or left empty for good (in its mask byte: one array
/// less to miss in); cleared before the masks are returned.
const COVERED: u8 = 0x10;

/// Starts a segment at cell `i` unless it is covered (see [`straight_masks`]).
fn lay_segment(masks: &mut [u8], height: usize, width: usize, i: usize, rng: &mut fastrand::Rng) {
    if masks[i] & COVERED != 0 {
        return;
    }
    let (r, c) = (i / width, i % width);
    let want = rng.usize(2..=4);
    let mut dirs = [N, E, S, W];
    rng.shuffle(&mut dirs);
    // The cell `k` steps from (r, c) towards `d`, if it is on the grid.
    let step = |d: usize, k: usize| -> Option<usize> {
        let (rr, cc) = match d {
            N => (r.checked_sub(k)?, c),
            S => (r + k, c),
            W => (r, c.checked_sub(k)?),
            _ => (r, c + k),
        };
        (rr < height && cc < width).then_some(rr * width + cc)
    };
    for d in dirs {
        let mut len = 1;
        while len < want && step(d, len).is_some_and(|j| masks[j] & COVERED == 0) {
            len += 1;
        }
        if len < 2 {
            continue;
        }
        let back = opposite(d);
        for k in 0..len {
            let j = step(d, k).expect("the run was checked");
            masks[j] |= COVERED;
            if k + 1 < len {
                masks[j] |= bit(d);
            }
            if k > 0 {
                masks[j] |= bit(back);
            }
        }
        break;
    }
    masks[i] |= COVERED;
}

/// Marks a rung (a Q–Q pair) between cells `a` and `b` (b east or south of a).
fn rung(masks: &mut [u8], width: usize, a: usize, b: usize) {
    if b == a + 1 {
        masks[a] |= bit(E);
        masks[b] |= bit(W);
    } else {
        debug_assert_eq!(b, a + width);
        masks[a] |= bit(S);
        masks[b] |= bit(N);
    }
}

/// Nested Γ hooks: hook k has its horizontal arm on rows 3k, 3k+1 from column 3k to the east
/// border, its vertical arm on columns 3k, 3k+1 from row 3k+2 to the south border; rows and
/// columns 3k+2 are empty between hooks. Every arm is a two-wide ladder of rungs across it.
pub fn hook_masks(height: usize, width: usize) -> Vec<u8> {
    let mut masks = vec![0u8; height * width];
    let mut k = 0;
    while 3 * k + 1 < height && 3 * k + 1 < width {
        let (r0, c0) = (3 * k, 3 * k);
        for c in c0..width {
            rung(&mut masks, width, r0 * width + c, (r0 + 1) * width + c);
        }
        for r in r0 + 2..height {
            rung(&mut masks, width, r * width + c0, r * width + c0 + 1);
        }
        k += 1;
    }
    masks
}

/// The ladders of [`hook_masks`] at `height x height`, laid flat: band k (rows 3k, 3k+1)
/// holds a ladder of `2 * height - 6k - 2` rungs from column 0, so `width = 2 * height` gives
/// every hook's cells exactly.
pub fn ladder_masks(height: usize, width: usize) -> Vec<u8> {
    let mut masks = vec![0u8; height * width];
    let mut k = 0;
    while 3 * k + 1 < height {
        let len = (2 * height).saturating_sub(6 * k + 2).min(width);
        let r0 = 3 * k;
        for c in 0..len {
            rung(&mut masks, width, r0 * width + c, (r0 + 1) * width + c);
        }
        k += 1;
    }
    masks
}

/// `game` with `count` I pieces each swapped with a random non-I piece of the same
/// checkerboard colour (fewer when there are not enough of either). Orientations are drawn
/// again, so nothing hints at the moves.
pub fn move_straights(game: &Game, count: usize, seed: u64) -> Game {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x5EED_1A1A);
    let (h, w) = (game.height(), game.width());
    let mut cells = game.cells().to_vec();
    let is_i = |p: Piece| p.kind() == PieceKind::I;
    let mut straights: Vec<usize> = (0..h * w).filter(|&i| is_i(cells[i])).collect();
    rng.shuffle(&mut straights);
    let colour = |i: usize| (i / w + i % w) % 2;
    let mut moved = 0;
    for &a in &straights {
        if moved == count {
            break;
        }
        if !is_i(cells[a]) {
            continue;
        }
        // A few random probes for a same-colour partner that is not an I.
        for _ in 0..64 {
            let b = rng.usize(0..h * w);
            if colour(b) == colour(a) && !is_i(cells[b]) {
                cells.swap(a, b);
                moved += 1;
                break;
            }
        }
    }
    let cells = cells
        .into_iter()
        .map(|p| p.with_orientation(rng.u8(..p.kind().orientations())))
        .collect();
    Game::from_cells(h, w, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solved;

    fn solved(h: usize, w: usize, masks: &[u8]) -> Game {
        Game::from_cells(h, w, masks.iter().map(|&m| Piece::from_mask(m)).collect())
    }

    #[test]
    fn straight_grids_are_solved_with_only_q_i_and_few_empty_cells() {
        for seed in 0..20 {
            for (h, w) in [(1, 1), (1, 9), (7, 1), (5, 5), (16, 23)] {
                let m = straight_masks(h, w, &mut fastrand::Rng::with_seed(seed));
                let g = solved(h, w, &m);
                assert!(is_solved(&g), "seed {seed} {h}x{w}");
                let hist = g.histogram();
                assert_eq!(hist[3] + hist[4] + hist[5], 0, "{hist:?}");
                if h * w >= 100 {
                    assert!(hist[0] * 10 < h * w, "{hist:?}");
                    assert!(hist[2] > 0, "{hist:?}");
                }
            }
        }
    }

    #[test]
    fn windowed_straight_grids_keep_the_shapes_of_the_uniform_order() {
        // Windows of 32 rows (what 8192 columns get) against one uniform shuffle: the same
        // kinds of pieces in the same shares.
        let (h, w) = (256, 256);
        let shares = |window: usize, seed: u64| {
            let m = straight_masks_windowed(h, w, window, &mut fastrand::Rng::with_seed(seed));
            let g = solved(h, w, &m);
            assert!(is_solved(&g), "window {window} seed {seed}");
            let hist = g.histogram();
            assert_eq!(hist[3] + hist[4] + hist[5], 0, "{hist:?}");
            (
                hist[0] as f64 / (h * w) as f64,
                hist[2] as f64 / (h * w) as f64,
            )
        };
        for seed in 0..3 {
            let (empty, i) = shares(32, seed);
            let (uniform_empty, uniform_i) = shares(h, seed);
            assert!(
                (empty - uniform_empty).abs() < 0.01,
                "{empty} vs {uniform_empty}"
            );
            assert!((i - uniform_i).abs() < 0.01, "{i} vs {uniform_i}");
        }
        // The windowed path draws its segments from a fork: still one level per seed.
        let a = straight_masks_windowed(100, 50, 8, &mut fastrand::Rng::with_seed(4));
        let b = straight_masks_windowed(100, 50, 8, &mut fastrand::Rng::with_seed(4));
        assert_eq!(a, b);
    }

    #[test]
    fn hooks_and_flat_ladders_hold_the_same_ladders() {
        for n in [1, 2, 5, 9, 20] {
            let hooks = hook_masks(n, n);
            let flat = ladder_masks(n, 2 * n);
            assert!(is_solved(&solved(n, n, &hooks)));
            assert!(is_solved(&solved(n, 2 * n, &flat)));
            let q = |m: &[u8]| m.iter().filter(|&&x| x != 0).count();
            assert_eq!(q(&hooks), q(&flat), "{n}");
            assert!(hooks.iter().chain(&flat).all(|m| m.count_ones() <= 1));
        }
    }

    #[test]
    fn moving_straights_keeps_counts_per_colour() {
        let m = straight_masks(20, 20, &mut fastrand::Rng::with_seed(3));
        let g = solved(20, 20, &m);
        let moved = move_straights(&g, 5, 1);
        let per_colour = |g: &Game| {
            let mut t = [[0usize; 6]; 2];
            for (i, p) in g.cells().iter().enumerate() {
                t[(i / 20 + i % 20) % 2][p.kind() as usize] += 1;
            }
            t
        };
        assert_eq!(per_colour(&g), per_colour(&moved));
        let kinds = |g: &Game| g.cells().iter().map(|p| p.kind()).collect::<Vec<_>>();
        assert_ne!(kinds(&g), kinds(&moved));
    }
}

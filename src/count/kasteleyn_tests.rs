//! The determinant count against the search counter, region by region, on random levels of
//! every piece mix (including the corners and straights it branches on).

use super::counter::Counter;
use super::kasteleyn::{Planned, plan};
use super::{flow_prune, number::Count};
use crate::model::direction::{E, S, bit, opposite};
use crate::model::{Game, Piece};
use crate::solve::Start;

/// A level solved by random sides: each inner side is on with probability `on` in 1000,
/// then every cell's piece is whatever its sides make. With `weights` (Q, T, L, I, X) the
/// sides are instead grown towards that mix: a cell keeps a side only when its kind stays
/// wanted (a rough rejection that favours the mix without being exact).
pub fn random_level(h: usize, w: usize, on: u32, rng: &mut fastrand::Rng) -> Game {
    let mut masks = vec![0u8; h * w];
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            for d in [E, S] {
                let (rr, cc) = if d == E { (r, c + 1) } else { (r + 1, c) };
                if rr < h && cc < w && rng.u32(0..1000) < on {
                    let j = rr * w + cc;
                    masks[i] |= bit(d);
                    masks[j] |= bit(opposite(d));
                }
            }
        }
    }
    let cells = masks.into_iter().map(Piece::from_mask).collect();
    Game::from_cells(h, w, cells)
}

/// A dist.1-like level: mostly one-end pieces with a few T, L and X: random sides, then
/// sides removed at random from cells with two or more until most cells have one.
pub fn dist1_like(h: usize, w: usize, rng: &mut fastrand::Rng) -> Game {
    let mut masks = vec![0u8; h * w];
    let grid = Game::empty(h, w);
    let side = |i: usize, d: usize| grid.neighbour(i, d);
    for i in 0..h * w {
        for d in [E, S] {
            if let Some(j) = side(i, d)
                && rng.u32(0..100) < 60
            {
                masks[i] |= bit(d);
                masks[j] |= bit(opposite(d));
            }
        }
    }
    // Thin: drop sides of busy cells, keeping some T, L, X.
    for _ in 0..4 * h * w {
        let i = rng.usize(0..h * w);
        let d = rng.usize(0..4);
        if masks[i] & bit(d) == 0 || masks[i].count_ones() < 2 {
            continue;
        }
        let j = side(i, d).expect("a set side has a neighbour");
        if masks[j].count_ones() < 2 || rng.u32(0..100) < 8 {
            continue;
        }
        masks[i] &= !bit(d);
        masks[j] &= !bit(opposite(d));
    }
    let cells = masks.into_iter().map(Piece::from_mask).collect();
    Game::from_cells(h, w, cells)
}

/// Checks every region of `game` that the determinant count takes; returns how many it took,
/// and how many of those branched.
fn check(game: &Game) -> (usize, usize) {
    let start = Start::new(game);
    if !start.consistent {
        return (0, 0);
    }
    let Start {
        board, mut state, ..
    } = start;
    let Some(regions) = flow_prune(&board, &mut state) else {
        return (0, 0);
    };
    let mut counter = Counter::new(&board);
    let (mut taken, mut branched) = (0, 0);
    for r in 0..regions.len() {
        let cells = regions.get(r);
        let by_det = match plan(&board, &state, cells) {
            Planned::Matrix(p) => {
                branched += usize::from(p.branch_cells > 0);
                p.count()
            }
            Planned::Zero => num_bigint::BigUint::ZERO,
            Planned::Unsuited => continue,
        };
        taken += 1;
        let truth = counter
            .count(&board, &mut state, cells, None, false, &|| false)
            .expect("no stop");
        assert_eq!(
            Count::Big(by_det.clone()),
            truth,
            "region of {} cells of {game:?}",
            cells.len()
        );
    }
    (taken, branched)
}

#[test]
fn determinant_counts_equal_search_counts_on_random_mixes() {
    let mut rng = fastrand::Rng::with_seed(11);
    let (mut taken, mut branched) = (0, 0);
    for k in 0..400 {
        let (h, w) = (rng.usize(2..8), rng.usize(2..8));
        let g = if k % 2 == 0 {
            random_level(h, w, rng.u32(200..800), &mut rng)
        } else {
            dist1_like(h, w, &mut rng)
        };
        let (t, b) = check(&g);
        taken += t;
        branched += b;
    }
    assert!(
        taken > 150 && branched > 50,
        "only {taken} regions went by determinant, {branched} with branch cells"
    );
}

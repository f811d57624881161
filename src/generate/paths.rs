//! Path tilings (issue 32): the grid covered by paths of `len` cells, one-end pieces at both
//! ends and a corner or a straight at each cell between, each middle bent with probability
//! `bent`. Every middle piece then has two or four orientations and every end four: local
//! propagation learns little, and the flow witness gives an L any two sides, so it admits
//! shapes the pieces cannot take.
//!
//! Cells are visited in the windowed random order of the straight family; an uncovered cell
//! starts a path as one of its ends, with a turn pattern drawn once and tried in every start
//! direction and in its mirror image, else as the second cell of a path from an uncovered
//! neighbour. A cell no path fits is left over and hooked afterwards
//! onto a random neighbour (that neighbour gains a side, so a few T pieces and longer paths
//! appear); only a cell with no neighbour at all stays empty.

use super::windowed_order::{visit_windowed_pipelined, window_rows};
use crate::model::direction::{bit, opposite};
use crate::par::*;

/// Marks a covered cell in its mask byte; cleared before the masks are returned.
const COVERED: u8 = 0x10;
/// Marks a cell no path fitted, to hook afterwards.
const LEFT: u8 = 0x20;

/// Connection masks of a solved grid tiled by paths of `len` (2 to 8) cells (row-major).
pub fn path_masks(
    height: usize,
    width: usize,
    len: usize,
    bent: f64,
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    path_masks_windowed(height, width, len, bent, window_rows(width), rng)
}

/// [`path_masks`] with windows of `window` rows (tests use small windows).
fn path_masks_windowed(
    height: usize,
    width: usize,
    len: usize,
    bent: f64,
    window: usize,
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    let grid = Grid { height, width };
    let mut masks = vec![0u8; height * width];
    let mut left = Vec::new();
    if height <= window {
        let mut order: Vec<u32> = (0..height * width).map(|i| i as u32).collect();
        rng.shuffle(&mut order);
        for i in order {
            grid.lay_path(&mut masks, i as usize, len, bent, rng, &mut left);
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
                grid.lay_path(&mut masks, i as usize, len, bent, &mut draw, &mut left);
                true
            },
        );
    }
    for &i in &left {
        grid.hook(&mut masks, i, rng);
    }
    masks.par_iter_mut().for_each(|m| *m &= 0xF);
    masks
}

#[derive(Clone, Copy)]
struct Grid {
    height: usize,
    width: usize,
}

impl Grid {
    /// The cell one step from `i` towards side `d`, if it is on the grid.
    fn step(self, i: usize, d: usize) -> Option<usize> {
        let (r, c) = (i / self.width, i % self.width);
        let (rr, cc) = match d {
            0 => (r.checked_sub(1)?, c),
            2 => (r + 1, c),
            3 => (r, c.checked_sub(1)?),
            _ => (r, c + 1),
        };
        (rr < self.height && cc < self.width).then_some(rr * self.width + cc)
    }

    /// Lays a path of `len` cells with `i` at one end, unless `i` is covered; records `i` as
    /// left over when no path fits.
    fn lay_path(
        self,
        masks: &mut [u8],
        i: usize,
        len: usize,
        bent: f64,
        rng: &mut fastrand::Rng,
        left: &mut Vec<usize>,
    ) {
        if masks[i] & COVERED != 0 {
            return;
        }
        // Turn at each middle: 0 straight on, 1 right, 3 left (quarter turns clockwise).
        let mut turns = [0usize; 8];
        for t in turns.iter_mut().take(len - 2) {
            if rng.f64() < bent {
                *t = if rng.bool() { 1 } else { 3 };
            }
        }
        let first = rng.usize(0..4);
        let turns = &turns[..len - 2];
        for mirror in [false, true] {
            for k in 0..4 {
                let d0 = (first + k) % 4;
                if let Some(cells) = self.fits(masks, i, d0, turns, mirror) {
                    self.connect(masks, &cells[..len]);
                    return;
                }
            }
        }
        // Second chance: `i` one step into a path that starts at an uncovered neighbour.
        for mirror in [false, true] {
            for k in 0..4 {
                let d = (first + k) % 4;
                let Some(j) = self.step(i, d) else { continue };
                if masks[j] & COVERED != 0 {
                    continue;
                }
                if let Some(cells) = self.fits(masks, j, opposite(d), turns, mirror) {
                    self.connect(masks, &cells[..len]);
                    return;
                }
            }
        }
        masks[i] |= COVERED | LEFT;
        left.push(i);
    }

    /// The path's cells when every one is on the grid and uncovered.
    fn fits(
        self,
        masks: &[u8],
        i: usize,
        d0: usize,
        turns: &[usize],
        mirror: bool,
    ) -> Option<[usize; 8]> {
        let mut cells = [i; 8];
        let mut d = d0;
        let mut at = i;
        for k in 1..turns.len() + 2 {
            at = self.step(at, d)?;
            if masks[at] & COVERED != 0 {
                return None;
            }
            cells[k] = at;
            if k <= turns.len() {
                let t = turns[k - 1];
                d = (d + if mirror { (4 - t) % 4 } else { t }) % 4;
            }
        }
        // A path that bends back onto itself (only possible from 5 cells up) is refused.
        let path = &cells[..turns.len() + 2];
        (!path.iter().enumerate().any(|(a, x)| path[..a].contains(x))).then_some(cells)
    }

    /// Connects consecutive cells of a path and marks them covered.
    fn connect(self, masks: &mut [u8], cells: &[usize]) {
        for w in cells.windows(2) {
            let d = (0..4)
                .find(|&d| self.step(w[0], d) == Some(w[1]))
                .expect("path cells are adjacent");
            masks[w[0]] |= bit(d);
            masks[w[1]] |= bit(opposite(d));
        }
        for &c in cells {
            masks[c] |= COVERED;
        }
    }

    /// Joins a left-over cell to a random neighbour.
    fn hook(self, masks: &mut [u8], i: usize, rng: &mut fastrand::Rng) {
        let first = rng.usize(0..4);
        for k in 0..4 {
            let d = (first + k) % 4;
            if let Some(j) = self.step(i, d) {
                masks[i] |= bit(d);
                masks[j] |= bit(opposite(d));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solved;
    use crate::model::{Game, Piece};

    fn solved(h: usize, w: usize, masks: &[u8]) -> Game {
        Game::from_cells(h, w, masks.iter().map(|&m| Piece::from_mask(m)).collect())
    }

    #[test]
    fn path_tilings_are_solved_and_mostly_paths_of_the_length_asked() {
        for seed in 0..10 {
            for (h, w) in [(1, 1), (1, 2), (1, 9), (7, 1), (5, 5), (16, 23), (64, 64)] {
                for (len, bent) in [(3, 0.75), (3, 0.0), (3, 1.0), (4, 0.6), (2, 0.5)] {
                    let m = path_masks(h, w, len, bent, &mut fastrand::Rng::with_seed(seed));
                    let g = solved(h, w, &m);
                    assert!(is_solved(&g), "seed {seed} {h}x{w} len {len}");
                    let hist = g.histogram();
                    if h * w > 1 {
                        assert_eq!(hist[0], 0, "no empty cell with a neighbour: {hist:?}");
                    }
                    if h * w >= 1000 {
                        // Ends: about 2 per path; T and X only where leftovers were hooked.
                        let cells = (h * w) as f64;
                        assert!(hist[1] as f64 > 1.6 * cells / len as f64, "{hist:?}");
                        assert!(((hist[3] + hist[4]) as f64) < 0.1 * cells, "{hist:?}");
                        if len == 3 && bent == 0.0 {
                            assert!(hist[5] as f64 <= 0.1 * cells, "{hist:?}");
                        }
                        if len == 3 && bent == 1.0 {
                            assert!(hist[2] as f64 <= 0.1 * cells, "{hist:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn windowed_path_tilings_keep_one_level_per_seed() {
        let a = path_masks_windowed(100, 50, 3, 0.75, 8, &mut fastrand::Rng::with_seed(4));
        let b = path_masks_windowed(100, 50, 3, 0.75, 8, &mut fastrand::Rng::with_seed(4));
        assert_eq!(a, b);
        assert!(is_solved(&solved(100, 50, &a)));
    }
}

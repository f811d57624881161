//! [`swap_tree_edge`]: the `--unique` repair of a perfect maze. A maze is a spanning tree of the
//! cells, and a single added or removed passage would give it a cycle or split it. Instead one
//! passage is swapped for another: a passage the alternative solution has is added and another
//! passage on the cycle it closes is removed, or a passage only the intended maze has is removed
//! and another passage across the cut it opens is added. Either way the result is again a
//! spanning tree (one component, no cycle, no empty cell), and the cells at the ends of the
//! disputed passage change their number of connections, so the alternative is no longer a
//! solution there.

use crate::model::direction::{E, N, S, W, bit, opposite};

/// Row-major neighbour of `i` across `side`, if on the grid.
fn step(i: usize, side: usize, h: usize, w: usize) -> Option<usize> {
    let (r, c) = (i / w, i % w);
    match side {
        N if r > 0 => Some(i - w),
        E if c + 1 < w => Some(i + 1),
        S if r + 1 < h => Some(i + w),
        W if c > 0 => Some(i - 1),
        _ => None,
    }
}

fn toggle(masks: &mut [u8], i: usize, side: usize, j: usize) {
    masks[i] ^= bit(side);
    masks[j] ^= bit(opposite(side));
}

/// Scratch of [`swap_tree_edge`], kept across calls so a swap costs the part of the maze it
/// walks, not the size of the grid.
#[derive(Default)]
pub struct TreeScratch {
    /// `2 * epoch + s` when reached from end `s` in the current call.
    seen: Vec<u32>,
    /// The step that reached each cell: (previous cell, side taken from it).
    parent: Vec<(u32, u8)>,
    epoch: u32,
    /// Cells reached from each end, in order.
    order: [Vec<usize>; 2],
}

impl TreeScratch {
    fn start(&mut self, n: usize, ends: [usize; 2]) {
        if self.seen.len() != n || self.epoch >= u32::MAX / 2 - 1 {
            self.seen = vec![0; n];
            self.parent = vec![(0, 0); n];
            self.epoch = 0;
        }
        self.epoch += 1;
        for (s, &e) in ends.iter().enumerate() {
            self.order[s].clear();
            self.order[s].push(e);
            self.seen[e] = 2 * self.epoch + s as u32;
            self.parent[e] = (e as u32, 0);
        }
    }

    /// Which end reached `c` in this call, if one did.
    fn side_of(&self, c: usize) -> Option<usize> {
        let x = self.seen[c].checked_sub(2 * self.epoch)?;
        (x < 2).then_some(x as usize)
    }

    /// The passages from `c` back to the end that reached it.
    fn chain(&self, mut c: usize, out: &mut Vec<(usize, usize)>) {
        loop {
            let (p, s) = self.parent[c];
            if p as usize == c {
                return;
            }
            out.push((p as usize, s as usize));
            c = p as usize;
        }
    }
}

/// Walks the maze from both ends at once, one cell at a time from each in turn. Returns
/// `Err(s)` when end `s`'s part is walked whole (the ends are not connected; the part is
/// `scratch.order[s]`), `Ok((c, side, n))` when the walks meet on the passage from `c` to `n`.
fn walk_both(
    masks: &[u8],
    h: usize,
    w: usize,
    ends: [usize; 2],
    scratch: &mut TreeScratch,
) -> Result<(usize, usize, usize), usize> {
    scratch.start(masks.len(), ends);
    let mut head = [0usize; 2];
    loop {
        for (s, next) in head.iter_mut().enumerate() {
            let Some(&c) = scratch.order[s].get(*next) else {
                return Err(s);
            };
            *next += 1;
            for side in [N, E, S, W] {
                if masks[c] & bit(side) == 0 {
                    continue;
                }
                let n = step(c, side, h, w).expect("passages stay on the grid");
                match scratch.side_of(n) {
                    Some(t) if t == s => {}
                    Some(_) => return Ok((c, side, n)),
                    None => {
                        scratch.seen[n] = 2 * scratch.epoch + s as u32;
                        scratch.parent[n] = (c as u32, side as u8);
                        scratch.order[s].push(n);
                    }
                }
            }
        }
    }
}

/// Swaps one passage of the spanning tree `masks` (row-major, `h`×`w`) so that the side
/// `(cell, side)`, on which the intended maze and an alternative solution disagree, changes.
/// Returns false (nothing changed) when no swap exists for that side. Both ends of the side are
/// walked at once, so the work is that of the shorter walk (the smaller part a removed passage
/// leaves, or about the tree path an added one closes), not the grid's size.
pub fn swap_tree_edge(
    masks: &mut [u8],
    h: usize,
    w: usize,
    cell: usize,
    side: usize,
    rng: &mut fastrand::Rng,
    scratch: &mut TreeScratch,
) -> bool {
    let Some(other) = step(cell, side, h, w) else {
        return false;
    };
    // Removing a passage at neither end keeps the ends' new degree, which rules the alternative
    // out there; passages at the ends are the fallback.
    let pick = |cands: &[(usize, usize)], rng: &mut fastrand::Rng| {
        let inner: Vec<(usize, usize)> = cands
            .iter()
            .copied()
            .filter(|&(a, s)| {
                let b = step(a, s, h, w).expect("candidate on the grid");
                ![a, b].iter().any(|&x| x == cell || x == other)
            })
            .collect();
        let from = if inner.is_empty() { cands } else { &inner[..] };
        (!from.is_empty()).then(|| from[rng.usize(..from.len())])
    };
    if masks[cell] & bit(side) == 0 {
        // Add the passage; take another off the cycle it closes (the tree path between the ends).
        let Ok((c, s, n)) = walk_both(masks, h, w, [cell, other], scratch) else {
            return false;
        };
        let mut path = vec![(c, s)];
        scratch.chain(c, &mut path);
        scratch.chain(n, &mut path);
        let Some((a, s)) = pick(&path, rng) else {
            return false;
        };
        toggle(masks, cell, side, other);
        toggle(masks, a, s, step(a, s, h, w).expect("on the grid"));
    } else {
        // Remove the passage; add another across the cut it opens, found from the smaller part.
        toggle(masks, cell, side, other);
        // A tree without one of its passages is in two parts; anything else is left alone.
        let Err(part) = walk_both(masks, h, w, [cell, other], scratch) else {
            toggle(masks, cell, side, other);
            return false;
        };
        let mut cut = Vec::new();
        for &c in &scratch.order[part] {
            for s in [N, E, S, W] {
                if let Some(n) = step(c, s, h, w)
                    && scratch.side_of(n) != Some(part)
                    && !((c, n) == (cell, other) || (c, n) == (other, cell))
                {
                    cut.push((c, s));
                }
            }
        }
        let Some((a, s)) = pick(&cut, rng) else {
            toggle(masks, cell, side, other);
            return false;
        };
        toggle(masks, a, s, step(a, s, h, w).expect("on the grid"));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::components::count_components;
    use crate::generate::maze::{MazeAlgorithm, maze_masks};

    fn is_spanning_tree(masks: &[u8], w: usize) -> bool {
        let edges: u32 = masks.iter().map(|m| m.count_ones()).sum::<u32>() / 2;
        edges as usize + 1 == masks.len()
            && count_components(masks, w) == 1
            && masks.iter().all(|&m| m != 0)
    }

    #[test]
    fn swaps_keep_a_spanning_tree_and_change_the_side() {
        let (h, w) = (9, 7);
        let mut rng = fastrand::Rng::with_seed(5);
        let mut masks = maze_masks(h, w, MazeAlgorithm::Kruskal, &mut rng);
        assert!(is_spanning_tree(&masks, w));
        let mut changed = 0;
        let mut scratch = TreeScratch::default();
        for _ in 0..300 {
            let cell = rng.usize(..h * w);
            let side = rng.usize(..4);
            let before = masks[cell] & bit(side);
            if swap_tree_edge(&mut masks, h, w, cell, side, &mut rng, &mut scratch) {
                changed += 1;
                assert_ne!(masks[cell] & bit(side), before);
            }
            assert!(is_spanning_tree(&masks, w));
        }
        assert!(changed > 200, "{changed}");
    }
}

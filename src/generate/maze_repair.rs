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

/// Cells reached from `from` along passages, with the parent step of each (cell, side taken
/// from the parent); stops early at `target`.
fn tree_walk(
    masks: &[u8],
    h: usize,
    w: usize,
    from: usize,
    target: Option<usize>,
    parent: &mut Vec<(u32, u8)>,
) -> Vec<usize> {
    parent.clear();
    parent.resize(masks.len(), (u32::MAX, 0));
    parent[from] = (from as u32, 0);
    let mut order = vec![from];
    let mut head = 0;
    while head < order.len() {
        let c = order[head];
        head += 1;
        if Some(c) == target {
            break;
        }
        for side in [N, E, S, W] {
            if masks[c] & bit(side) == 0 {
                continue;
            }
            if let Some(n) = step(c, side, h, w)
                && parent[n].0 == u32::MAX
            {
                parent[n] = (c as u32, side as u8);
                order.push(n);
            }
        }
    }
    order
}

/// Swaps one passage of the spanning tree `masks` (row-major, `h`×`w`) so that the side
/// `(cell, side)`, on which the intended maze and an alternative solution disagree, changes.
/// Returns false (nothing changed) when no swap exists for that side.
pub fn swap_tree_edge(
    masks: &mut [u8],
    h: usize,
    w: usize,
    cell: usize,
    side: usize,
    rng: &mut fastrand::Rng,
) -> bool {
    let Some(other) = step(cell, side, h, w) else {
        return false;
    };
    let mut parent = Vec::new();
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
        tree_walk(masks, h, w, cell, Some(other), &mut parent);
        let mut path = Vec::new();
        let mut x = other;
        while x != cell {
            let (p, s) = parent[x];
            path.push((p as usize, s as usize));
            x = p as usize;
        }
        let Some((a, s)) = pick(&path, rng) else {
            return false;
        };
        toggle(masks, cell, side, other);
        toggle(masks, a, s, step(a, s, h, w).expect("on the grid"));
    } else {
        // Remove the passage; add another across the cut it opens.
        toggle(masks, cell, side, other);
        let part = tree_walk(masks, h, w, cell, None, &mut parent);
        let mut cut = Vec::new();
        for &c in &part {
            for s in [N, E, S, W] {
                if let Some(n) = step(c, s, h, w)
                    && parent[n].0 == u32::MAX
                    && !(c == cell && s == side)
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
        for _ in 0..300 {
            let cell = rng.usize(..h * w);
            let side = rng.usize(..4);
            let before = masks[cell] & bit(side);
            if swap_tree_edge(&mut masks, h, w, cell, side, &mut rng) {
                changed += 1;
                assert_ne!(masks[cell] & bit(side), before);
            }
            assert!(is_spanning_tree(&masks, w));
        }
        assert!(changed > 200, "{changed}");
    }
}

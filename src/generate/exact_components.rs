//! `--nbcc-exact N`: bends a family's solved grid to exactly N components of non-empty
//! pieces, changing as little of its texture as the count allows.
//!
//! A component needs two cells, and two components may touch as long as no connection joins
//! them, so at most floor(W·H/2) fit (a maximum domino packing reaches it); N = 0 is the empty
//! grid. With too many components, passages are added between neighbouring components, each
//! merging two, so the count falls one at a time and stops exactly at N. With too few,
//! isolated pairs of empty neighbours become new dominoes; if that is not enough, the grid
//! restarts from a maximum domino packing (more than N components) and takes back the
//! family's own connections, merging only while the count is above N. Everything is
//! linear-time union-find work, so 1024x1024 takes a fraction of a second.

use super::components::{count_components, link_connections};
use super::domino_tiling::domino_tiling;
use super::maze::grid::Dims;
use crate::model::direction::{E, S, bit, opposite};

/// The largest number of components a `height` x `width` grid can hold.
pub const fn max_components(height: usize, width: usize) -> usize {
    height * width / 2
}

/// Changes `masks` (a solved grid, `width` wide) to have exactly `target` components;
/// `target` must be at most [`max_components`].
pub fn make_exact(masks: &mut Vec<u8>, width: usize, target: usize, rng: &mut fastrand::Rng) {
    let height = masks.len() / width;
    assert!(target <= max_components(height, width));
    if target == 0 {
        masks.iter_mut().for_each(|m| *m = 0);
        return;
    }
    let count = count_components(masks, width);
    if count > target {
        merge_down(masks, width, count, target, rng);
    } else if count < target {
        let count = add_dominoes(masks, width, count, target, rng);
        if count < target {
            let family = std::mem::replace(masks, domino_tiling(height, width, rng));
            let count = take_back(masks, &family, width, target, rng);
            if count > target {
                merge_down(masks, width, count, target, rng);
            }
        }
    }
}

/// Inner sides as ids `cell * 2 + (0: east, 1: south)`, kept when `keep(a, b)` holds for the
/// two cells.
fn inner_sides(
    masks: &[u8],
    width: usize,
    mut keep: impl FnMut(usize, usize, u8) -> bool,
) -> Vec<u32> {
    let height = masks.len() / width;
    let mut out = Vec::new();
    for i in 0..masks.len() {
        if i % width + 1 < width && keep(i, i + 1, bit(E)) {
            out.push((2 * i) as u32);
        }
        if i / width + 1 < height && keep(i, i + width, bit(S)) {
            out.push((2 * i + 1) as u32);
        }
    }
    out
}

fn side_cells(id: u32, width: usize) -> (usize, usize, usize) {
    let i = (id >> 1) as usize;
    if id & 1 == 0 {
        (i, E, i + 1)
    } else {
        (i, S, i + width)
    }
}

fn connect(masks: &mut [u8], a: usize, side: usize, b: usize) {
    masks[a] |= bit(side);
    masks[b] |= bit(opposite(side));
}

/// From `count` > `target` components down to exactly `target`. First passages between two
/// non-empty cells of different components, in random order (empty cells stay empty). If the
/// components are kept apart by empty cells, a breadth-first sweep from every non-empty cell
/// then grows components into empty cells and merges the ones it brings together; it reaches
/// every cell, so it can always get down to one component.
fn merge_down(
    masks: &mut [u8],
    width: usize,
    mut count: usize,
    target: usize,
    rng: &mut fastrand::Rng,
) {
    let mut uf = link_connections(masks, width);
    let mut sides = inner_sides(masks, width, |a, b, s| {
        masks[a] != 0 && masks[b] != 0 && masks[a] & s == 0
    });
    rng.shuffle(&mut sides);
    for id in sides {
        let (a, side, b) = side_cells(id, width);
        if uf.union(a as u32, b as u32) {
            connect(masks, a, side, b);
            count -= 1;
            if count == target {
                return;
            }
        }
    }
    let dims = Dims::new(masks.len() / width, width);
    let mut queue: Vec<u32> = (0..masks.len() as u32)
        .filter(|&i| masks[i as usize] != 0)
        .collect();
    rng.shuffle(&mut queue);
    let mut head = 0;
    while head < queue.len() {
        let a = queue[head] as usize;
        head += 1;
        let first = rng.usize(..4);
        for t in 0..4 {
            let side = (first + t) & 3;
            let Some(b) = dims.neighbour(a, side) else {
                continue;
            };
            if masks[a] & bit(side) != 0 {
                continue;
            }
            if masks[b] == 0 {
                connect(masks, a, side, b);
                uf.union(a as u32, b as u32);
                queue.push(b as u32);
            } else if uf.union(a as u32, b as u32) {
                connect(masks, a, side, b);
                count -= 1;
                if count == target {
                    return;
                }
            }
        }
    }
    unreachable!("the sweep joins every cell of a connected grid into one component");
}

/// Turns pairs of neighbouring empty cells into new two-cell components while the count is
/// below `target`; returns the new count.
fn add_dominoes(
    masks: &mut [u8],
    width: usize,
    mut count: usize,
    target: usize,
    rng: &mut fastrand::Rng,
) -> usize {
    let mut sides = inner_sides(masks, width, |a, b, _| masks[a] == 0 && masks[b] == 0);
    rng.shuffle(&mut sides);
    for id in sides {
        if count == target {
            break;
        }
        let (a, side, b) = side_cells(id, width);
        if masks[a] == 0 && masks[b] == 0 {
            connect(masks, a, side, b);
            count += 1;
        }
    }
    count
}

/// `masks` holds a maximum domino packing (more than `target` components); adds back the
/// connections of `family` in random order: those inside one component or reaching the
/// packing's empty cell always, those merging two components only while the count is above
/// `target`. Returns the count.
fn take_back(
    masks: &mut [u8],
    family: &[u8],
    width: usize,
    target: usize,
    rng: &mut fastrand::Rng,
) -> usize {
    let mut uf = link_connections(masks, width);
    let mut count = count_components(masks, width);
    let mut sides = inner_sides(family, width, |a, _, s| family[a] & s != 0);
    rng.shuffle(&mut sides);
    for id in sides {
        let (a, side, b) = side_cells(id, width);
        if masks[a] & bit(side) != 0 {
            continue;
        }
        let merges = masks[a] != 0 && masks[b] != 0;
        if merges && uf.find(a as u32) != uf.find(b as u32) {
            if count == target {
                continue;
            }
            count -= 1;
        }
        uf.union(a as u32, b as u32);
        connect(masks, a, side, b);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solved;
    use crate::generate::maze::grid::solved_game;
    use crate::generate::weighted_shapes::{LOOPS, weighted_masks};

    fn random_masks(h: usize, w: usize, p: f64, rng: &mut fastrand::Rng) -> Vec<u8> {
        let mut masks = vec![0u8; h * w];
        for i in 0..h * w {
            if i % w + 1 < w && rng.f64() < p {
                connect(&mut masks, i, E, i + 1);
            }
            if i / w + 1 < h && rng.f64() < p {
                connect(&mut masks, i, S, i + w);
            }
        }
        masks
    }

    #[test]
    fn every_possible_count_is_reached_exactly() {
        let mut rng = fastrand::Rng::with_seed(5);
        for &(h, w) in &[(1, 1), (1, 2), (2, 1), (1, 7), (3, 3), (4, 5), (6, 6)] {
            for target in 0..=max_components(h, w) {
                for p in [0.0, 0.2, 0.5, 0.9] {
                    let mut masks = random_masks(h, w, p, &mut rng);
                    make_exact(&mut masks, w, target, &mut rng);
                    assert!(is_solved(&solved_game(h, w, &masks)), "{h}x{w} {target}");
                    assert_eq!(count_components(&masks, w), target, "{h}x{w} p {p}");
                }
            }
        }
    }

    #[test]
    fn components_kept_apart_by_empty_cells_are_merged_through_them() {
        // Two dominoes at opposite corners of an otherwise empty 5x5 grid.
        let (h, w) = (5, 5);
        let mut masks = vec![0u8; h * w];
        connect(&mut masks, 0, E, 1);
        connect(&mut masks, 23, E, 24);
        let mut rng = fastrand::Rng::with_seed(1);
        make_exact(&mut masks, w, 1, &mut rng);
        assert_eq!(count_components(&masks, w), 1);
        assert!(is_solved(&solved_game(h, w, &masks)));
    }

    #[test]
    fn loops_reach_high_counts() {
        let mut rng = fastrand::Rng::with_seed(2);
        let (h, w) = (20, 30);
        for target in [1, 7, 150, 299, 300] {
            let mut masks = weighted_masks(h, w, LOOPS, &mut rng);
            make_exact(&mut masks, w, target, &mut rng);
            assert_eq!(count_components(&masks, w), target);
            assert!(is_solved(&solved_game(h, w, &masks)));
        }
    }
}

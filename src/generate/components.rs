//! Connected components of a solved grid given as connection masks: the generator bounds them
//! and the tests count them.

use crate::algo::union_find::UnionFind;
use crate::model::direction::{E, S, bit};

/// Union-find of the cells joined by the connections in `masks` (row-major, `width` wide).
pub fn link_connections(masks: &[u8], width: usize) -> UnionFind {
    let mut uf = UnionFind::new(masks.len());
    for (i, &m) in masks.iter().enumerate() {
        if m & bit(E) != 0 {
            uf.union(i as u32, i as u32 + 1);
        }
        if m & bit(S) != 0 {
            uf.union(i as u32, (i + width) as u32);
        }
    }
    uf
}

/// Number of connected components made of non-empty cells.
pub fn count_components(masks: &[u8], width: usize) -> usize {
    let mut uf = link_connections(masks, width);
    (0..masks.len())
        .filter(|&i| masks[i] != 0 && uf.find(i as u32) == i as u32)
        .count()
}

/// Number of connected components of non-empty pieces in a grid, following each piece's own
/// connections (a connection that its neighbour does not return still links the two).
pub fn game_components(game: &crate::model::Game) -> usize {
    let masks: Vec<u8> = game.cells().iter().map(|p| p.mask()).collect();
    let w = game.width();
    let h = game.height();
    // Keep only connections that stay on the grid so linking never leaves it.
    let masks: Vec<u8> = masks
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let (r, c) = (i / w, i % w);
            let mut m = m;
            if c + 1 == w {
                m &= !bit(E);
            }
            if r + 1 == h {
                m &= !bit(S);
            }
            m
        })
        .collect();
    count_components(&masks, w)
}

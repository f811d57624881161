//! Recursive division, run from an explicit stack of chambers. Start with every inner passage
//! open; a chamber at least 2x2 gets a straight wall across it with a single gap (across its
//! longer dimension, or at random when square), and both halves are divided again. A chamber
//! one cell wide is a path. Each wall leaves exactly one passage between two halves that are
//! trees, so the result is a tree. Long straight walls give long straight corridors.

use super::grid::{Dims, open};
use crate::model::direction::{E, N, S, W, bit};

/// A rectangle of cells: top row, left column, height, width.
#[derive(Clone, Copy)]
struct Chamber {
    row: usize,
    col: usize,
    height: usize,
    width: usize,
}

/// Carves a perfect maze into `masks` (one connection mask per row-major cell, all 0 on
/// entry).
pub fn carve(dims: Dims, masks: &mut [u8], rng: &mut fastrand::Rng) {
    let w = dims.width;
    for i in 0..dims.cells() {
        if i % w + 1 < w {
            open(masks, i, E, i + 1);
        }
        if i / w + 1 < dims.height {
            open(masks, i, S, i + w);
        }
    }
    let mut stack = vec![Chamber {
        row: 0,
        col: 0,
        height: dims.height,
        width: dims.width,
    }];
    while let Some(ch) = stack.pop() {
        if ch.height < 2 || ch.width < 2 {
            continue;
        }
        let horizontal = match ch.height.cmp(&ch.width) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => rng.bool(),
        };
        if horizontal {
            // The wall runs below row `wall`.
            let wall = ch.row + rng.usize(..ch.height - 1);
            let gap = ch.col + rng.usize(..ch.width);
            for c in ch.col..ch.col + ch.width {
                if c != gap {
                    masks[wall * w + c] &= !bit(S);
                    masks[(wall + 1) * w + c] &= !bit(N);
                }
            }
            let top = wall + 1 - ch.row;
            stack.push(Chamber { height: top, ..ch });
            stack.push(Chamber {
                row: wall + 1,
                height: ch.height - top,
                ..ch
            });
        } else {
            // The wall runs right of column `wall`.
            let wall = ch.col + rng.usize(..ch.width - 1);
            let gap = ch.row + rng.usize(..ch.height);
            for r in ch.row..ch.row + ch.height {
                if r != gap {
                    masks[r * w + wall] &= !bit(E);
                    masks[r * w + wall + 1] &= !bit(W);
                }
            }
            let left = wall + 1 - ch.col;
            stack.push(Chamber { width: left, ..ch });
            stack.push(Chamber {
                col: wall + 1,
                width: ch.width - left,
                ..ch
            });
        }
    }
}

//! The first phase of every edge, from a near-solution built in three steps. Cells whose
//! piece a matching cannot shape (two or more ends, fewer than the sides they may use: an
//! I must take opposite sides, an L adjacent ones) are turned first, one by one, each to an
//! allowed turn that points at as many neighbours still wanting a connection as it can;
//! then a near-maximum b-matching ([`crate::algo::b_matching`]) gives every other cell
//! (one-end pieces, full crosses) its connections among the sides left; then every cell
//! takes a turn and the disagreements left are repaired by walks ([`super::repair`]). On
//! levels of mostly one-end pieces the puzzle nearly is a perfect matching, and what the
//! near-solution gets wrong is left to searches around it ([`super::local`]). Phases only
//! order the search: no answer depends on them.

use super::edges::{Edges, NO_EDGE};
use crate::algo::b_matching::{Graph, near_b_matching};
use crate::par::*;

/// Per edge, 1 when the first decision on it should connect it. Once `stop` says so the
/// matching ends early (the phases are then worse, still phases).
pub(super) fn matching_phases(e: &Edges, stop: &dyn Fn() -> bool) -> Vec<u8> {
    let n = e.cells();
    // These passes over every cell and edge are a tenth of a 4096x4096 hexagonal dominoes
    // solve on one thread.
    // Per cell, the sides some allowed turn connects.
    let reach: Vec<u8> = (0..n)
        .into_par_iter()
        .map(|c| {
            let sh = e.shapes.get(e.shape[c]);
            (0..sh.period)
                .filter(|&r| e.allowed[c] >> r & 1 == 1)
                .fold(0u8, |m, r| m | sh.masks[r as usize])
                & !e.walls[c]
        })
        .collect();
    let mut want: Vec<u8> = (0..n)
        .into_par_iter()
        .map(|c| e.mask(c, 0).count_ones() as u8)
        .collect();
    // A variable no cell reads has one side at both ends, a wall: never usable.
    let mut usable: Vec<bool> = (0..e.len() as u32)
        .into_par_iter()
        .map(|v| {
            let [a, b] = e.ends(v);
            a != b
                && [a, b]
                    .iter()
                    .all(|&end| reach[(end >> 3) as usize] >> (end & 7) & 1 == 1)
        })
        .collect();
    let mut taken = vec![false; e.len()];
    let mut turned = vec![false; n];
    for c in 0..n {
        if want[c] >= 2 && (want[c] as u32) < reach[c].count_ones() {
            turn_greedily(e, c, &mut want, &mut usable, &mut taken, &turned);
            turned[c] = true;
        }
    }
    let matched = near_b_matching(&CellGraph { e, usable: &usable }, &want, stop);
    taken
        .iter()
        .zip(&matched)
        .map(|(&t, &m)| u8::from(t || m))
        .collect()
}

/// The cells and the usable edges between them, as the matching reads a graph.
struct CellGraph<'a> {
    e: &'a Edges,
    usable: &'a [bool],
}

impl Graph for CellGraph<'_> {
    fn vertices(&self) -> usize {
        self.e.cells()
    }

    fn edges(&self) -> usize {
        self.e.len()
    }

    #[inline]
    fn usable_at(&self, v: usize) -> impl Iterator<Item = u32> + '_ {
        (0..self.e.k)
            .map(move |s| self.e.edge(v, s))
            .filter(|&x| x != NO_EDGE && self.usable[x as usize])
    }

    #[inline(always)]
    fn ends(&self, x: u32) -> [usize; 2] {
        self.e.ends(x).map(|end| (end >> 3) as usize)
    }
}

/// The near-solution as one turn per cell (its mask per cell), repaired by walks
/// ([`super::repair`]); `None` when a cell has no turn left.
pub(super) fn near_solution(e: &Edges) -> Option<Vec<u8>> {
    // Only the first phases of a search: its own budget stops it.
    static NEVER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let budget = crate::anyboard::search::Budget {
        cancel: &NEVER,
        halt: None,
        deadline: None,
        outer: None,
    };
    super::repair::repaired(e, &matching_phases(e, &|| false), &budget).unwrap_or(None)
}

/// Turns cell `c` to the allowed turn that connects the most neighbours still wanting a
/// connection (and agrees with the neighbours turned before it), takes those edges and
/// makes `c`'s other edges unusable for the matching.
fn turn_greedily(
    e: &Edges,
    c: usize,
    want: &mut [u8],
    usable: &mut [bool],
    taken: &mut [bool],
    turned: &[bool],
) {
    let k = e.k;
    let sh = e.shapes.get(e.shape[c]);
    // Per side, its edge and the cell across it: looked up once, read per turn.
    let mut across = [None; 8];
    for (s, a) in across.iter_mut().enumerate().take(k) {
        let v = e.edge(c, s);
        *a = (v != NO_EDGE).then(|| (v as usize, e.facing(v, c, s).0));
    }
    let neighbour = |s: usize| across[s];
    let mut best: Option<(i32, u8)> = None;
    for r in 0..sh.period {
        if e.allowed[c] >> r & 1 == 0 {
            continue;
        }
        let m = sh.masks[r as usize];
        let mut score = 0i32;
        for s in 0..k {
            let on = m >> s & 1 == 1;
            match neighbour(s) {
                None if on => score -= 100,
                None => {}
                Some((v, n)) => {
                    if turned[n] {
                        // Agreement with a neighbour already turned is worth the most.
                        score += if taken[v] == on { 4 } else { -100 };
                    } else if on {
                        score += if usable[v] && want[n] > 0 { 2 } else { -100 };
                    }
                }
            }
        }
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, m));
        }
    }
    let Some((_, m)) = best else { return };
    for s in 0..k {
        if let Some((v, n)) = neighbour(s) {
            if m >> s & 1 == 1 && usable[v] && !turned[n] && want[n] > 0 && want[c] > 0 {
                taken[v] = true;
                want[n] -= 1;
                want[c] -= 1;
            }
            usable[v] = false;
        }
    }
}

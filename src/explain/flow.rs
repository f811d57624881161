//! The degree relaxation as a max-flow, and a deficient set from its min cut. The grid is
//! bipartite (checkerboard): every connection joins a cell of each colour, so a solution is a
//! flow from the source through the cells of one colour (capacity: their number of ends),
//! across usable sides (capacity 1), into the cells of the other colour (capacity: their
//! ends) that saturates both sides. When the max flow falls short, the source-side cells
//! reachable in the residual graph form a set `S` with
//! `ends(S) > sum over neighbours w of min(ends(w), usable sides between w and S)` — a
//! Hall-type certificate that anyone can re-check by counting. The max-flow is the
//! shared one of [`crate::algo::flow`].

use super::Reason;
use super::reasons::Propagation;
use crate::algo::flow::MaxFlow;
use crate::model::Game;
use crate::model::direction::{bit, opposite};

/// Larger levels get no deficient-set analysis: Dinic needs many phases on a grid (long
/// augmenting paths): 6.6 s on a 512x512 random level, 0.3 to 1.7 s at 256x256 on the
/// (loaded) project machine. 2^15 covers the public levels (128x128).
pub const FLOW_MAX_CELLS: usize = 1 << 15;

/// Sides each cell may use in some orientation that points off no border.
pub fn local_may(game: &Game) -> Vec<u8> {
    game.cells()
        .iter()
        .enumerate()
        .map(|(c, p)| {
            let kind = p.kind();
            let mut may = 0;
            for o in 0..kind.orientations() {
                let m = kind.mask(o);
                if (0..4).all(|d| m & bit(d) == 0 || game.neighbour(c, d).is_some()) {
                    may |= m;
                }
            }
            may
        })
        .collect()
}

/// Whether the side `d` of `c` is usable: both cells may use it (and propagation, if given,
/// did not rule it out).
fn usable(game: &Game, may: &[u8], prop: Option<&Propagation>, c: usize, d: usize) -> bool {
    let Some(nb) = game.neighbour(c, d) else {
        return false;
    };
    may[c] & bit(d) != 0 && may[nb] & bit(opposite(d)) != 0 && prop.is_none_or(|p| p.may_use(c, d))
}

/// Counts, for a set of cells of one colour, (ends they need, ends their neighbours can give).
pub fn count(game: &Game, may: &[u8], prop: Option<&Propagation>, set: &[usize]) -> (usize, usize) {
    let ends = |c: usize| game.cells()[c].mask().count_ones() as usize;
    let need = set.iter().map(|&c| ends(c)).sum();
    let mut toward = vec![0usize; game.len()];
    let mut neighbours = Vec::new();
    for &c in set {
        for d in 0..4 {
            if usable(game, may, prop, c, d) {
                let nb = game.neighbour(c, d).expect("usable sides are inner");
                if toward[nb] == 0 {
                    neighbours.push(nb);
                }
                toward[nb] += 1;
            }
        }
    }
    let can_give = neighbours.iter().map(|&w| ends(w).min(toward[w])).sum();
    (need, can_give)
}

/// A deficient set of cells, if the relaxation (local, or after `prop`) has no saturating
/// flow. The set is one connected group of the min cut's source side that is deficient on its
/// own, the smallest such group.
pub fn deficient_set(game: &Game, prop: Option<&Propagation>) -> Option<Reason> {
    let n = game.len();
    if n > FLOW_MAX_CELLS {
        return None;
    }
    let w = game.width();
    let may = local_may(game);
    let ends = |c: usize| game.cells()[c].mask().count_ones();
    let colour = |c: usize| (c / w + c % w) % 2;
    let mut totals = [0u64; 2];
    for c in 0..n {
        totals[colour(c)] += ends(c) as u64;
    }
    let src_colour = usize::from(totals[1] > totals[0]);
    let (s, t) = (n, n + 1);
    let mut g = MaxFlow::new(n + 2);
    for c in 0..n {
        if colour(c) == src_colour {
            g.edge(s, c, ends(c));
            for d in 0..4 {
                if usable(game, &may, prop, c, d) {
                    g.edge(c, game.neighbour(c, d).expect("inner"), 1);
                }
            }
        } else {
            g.edge(c, t, ends(c));
        }
    }
    let flow = g.max_flow(s, t);
    if flow == totals[src_colour] && totals[0] == totals[1] {
        return None;
    }
    // Source side of the min cut: reachable from s in the residual graph (the last BFS).
    let in_cut: Vec<usize> = (0..n)
        .filter(|&c| colour(c) == src_colour && g.reached(c))
        .collect();
    // Split into groups joined through shared neighbours; need and supply add up over groups
    // with disjoint neighbourhoods, so some group is deficient alone.
    let mut group = vec![usize::MAX; n];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &start in &in_cut {
        if group[start] != usize::MAX {
            continue;
        }
        let id = groups.len();
        let mut members = vec![start];
        group[start] = id;
        let mut k = 0;
        while k < members.len() {
            let c = members[k];
            k += 1;
            for d in 0..4 {
                if !usable(game, &may, prop, c, d) {
                    continue;
                }
                let nb = game.neighbour(c, d).expect("inner");
                for d2 in 0..4 {
                    if let Some(o) = game.neighbour(nb, d2)
                        && group[o] == usize::MAX
                        && g.reached(o)
                        && colour(o) == src_colour
                        && usable(game, &may, prop, nb, d2)
                    {
                        group[o] = id;
                        members.push(o);
                    }
                }
            }
        }
        groups.push(members);
    }
    groups.sort_by_key(|m| m.len());
    for mut cells in groups {
        let (need, can_give) = count(game, &may, prop, &cells);
        if need > can_give {
            cells.sort_unstable();
            return Some(Reason::Deficient {
                cells,
                need,
                can_give,
                after_propagation: prop.is_some(),
            });
        }
    }
    let (need, can_give) = count(game, &may, prop, &in_cut);
    (need > can_give).then_some(Reason::Deficient {
        cells: in_cut,
        need,
        can_give,
        after_propagation: prop.is_some(),
    })
}

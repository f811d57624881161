//! The degree relaxation as a max-flow, and a deficient set from its min cut. The grid is
//! bipartite (checkerboard): every connection joins a cell of each colour, so a solution is a
//! flow from the source through the cells of one colour (capacity: their number of ends),
//! across usable sides (capacity 1), into the cells of the other colour (capacity: their
//! ends) that saturates both sides. When the max flow falls short, the source-side cells
//! reachable in the residual graph form a set `S` with
//! `ends(S) > sum over neighbours w of min(ends(w), usable sides between w and S)` — a
//! Hall-type certificate that anyone can re-check by counting. A small Dinic, written here
//! because it is forty lines and runs on flat arrays.

use std::collections::VecDeque;

use super::Reason;
use super::reasons::Propagation;
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

struct Dinic {
    head: Vec<u32>,
    next: Vec<u32>,
    to: Vec<u32>,
    cap: Vec<u32>,
    level: Vec<i32>,
    iter: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Dinic {
    fn new(n: usize) -> Dinic {
        Dinic {
            head: vec![NONE; n],
            next: Vec::new(),
            to: Vec::new(),
            cap: Vec::new(),
            level: vec![0; n],
            iter: vec![0; n],
        }
    }

    fn edge(&mut self, a: usize, b: usize, cap: u32) {
        for (from, to, c) in [(a, b, cap), (b, a, 0)] {
            self.next.push(self.head[from]);
            self.head[from] = self.to.len() as u32;
            self.to.push(to as u32);
            self.cap.push(c);
        }
    }

    fn bfs(&mut self, s: usize) {
        self.level.fill(-1);
        self.level[s] = 0;
        let mut q = VecDeque::from([s]);
        while let Some(v) = q.pop_front() {
            let mut e = self.head[v];
            while e != NONE {
                let u = self.to[e as usize] as usize;
                if self.cap[e as usize] > 0 && self.level[u] < 0 {
                    self.level[u] = self.level[v] + 1;
                    q.push_back(u);
                }
                e = self.next[e as usize];
            }
        }
    }

    /// One blocking-flow augmentation along level-increasing paths (iterative DFS).
    fn augment(&mut self, s: usize, t: usize) -> u32 {
        let mut path: Vec<u32> = Vec::new();
        let mut v = s;
        loop {
            if v == t {
                let f = path
                    .iter()
                    .map(|&e| self.cap[e as usize])
                    .min()
                    .unwrap_or(0);
                for &e in &path {
                    self.cap[e as usize] -= f;
                    self.cap[(e ^ 1) as usize] += f;
                }
                return f;
            }
            let mut advanced = false;
            while self.iter[v] != NONE {
                let e = self.iter[v] as usize;
                let u = self.to[e] as usize;
                if self.cap[e] > 0 && self.level[u] == self.level[v] + 1 {
                    path.push(e as u32);
                    v = u;
                    advanced = true;
                    break;
                }
                self.iter[v] = self.next[e];
            }
            if !advanced {
                // Dead end: retreat and skip the edge that led here.
                self.level[v] = -1;
                let Some(e) = path.pop() else {
                    return 0;
                };
                v = self.to[(e ^ 1) as usize] as usize;
            }
        }
    }

    /// Saturates what it can along s -> a -> b -> t paths in one pass: on a grid most of the
    /// flow, leaving Dinic's phases only the few long augmenting paths.
    fn greedy(&mut self, s: usize, t: usize) -> u64 {
        let mut flow = 0u64;
        let mut e = self.head[s];
        while e != NONE {
            let a = self.to[e as usize] as usize;
            let mut f = self.head[a];
            while f != NONE && self.cap[e as usize] > 0 {
                let b = self.to[f as usize] as usize;
                if self.cap[f as usize] > 0 && b != s {
                    // The edge b -> t is the first one added from b.
                    let mut g = self.head[b];
                    while g != NONE && self.to[g as usize] as usize != t {
                        g = self.next[g as usize];
                    }
                    if g != NONE && self.cap[g as usize] > 0 {
                        for x in [e, f, g] {
                            self.cap[x as usize] -= 1;
                            self.cap[(x ^ 1) as usize] += 1;
                        }
                        flow += 1;
                    }
                }
                f = self.next[f as usize];
            }
            e = self.next[e as usize];
        }
        flow
    }

    fn max_flow(&mut self, s: usize, t: usize) -> u64 {
        let mut flow = self.greedy(s, t);
        loop {
            self.bfs(s);
            if self.level[t] < 0 {
                return flow;
            }
            self.iter.copy_from_slice(&self.head);
            loop {
                let f = self.augment(s, t);
                if f == 0 {
                    break;
                }
                flow += f as u64;
            }
        }
    }
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
    let mut g = Dinic::new(n + 2);
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
        .filter(|&c| colour(c) == src_colour && g.level[c] >= 0)
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
                        && g.level[o] >= 0
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

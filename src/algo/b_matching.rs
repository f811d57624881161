//! A near-maximum b-matching of a general graph: a set of edges giving each vertex at most
//! `b[v]` of them, grown greedily and then by alternating paths (an edge taken, an edge
//! given up, ...) from each vertex short of its `b`, each search bounded in size. On a
//! bipartite graph an unbounded search would make it maximum; on others (odd cycles) it
//! can miss an augmenting path through a blossom, and the bound cuts long paths, so the
//! result is a heuristic: used where a good starting point is wanted, never as a proof.

/// Vertices one alternating-path search may reach before it gives up.
const REACH: usize = 4096;

const NONE: u32 = u32::MAX;

/// A graph as the matching reads it: vertices and edges numbered from 0.
pub trait Graph {
    /// Number of vertices.
    fn vertices(&self) -> usize;
    /// Number of edges.
    fn edges(&self) -> usize;
    /// The edges of vertex `v` that may be taken.
    fn usable_at(&self, v: usize) -> impl Iterator<Item = u32> + '_;
    /// The two vertices of edge `e`.
    fn ends(&self, e: u32) -> [usize; 2];
}

/// Per edge, whether it is in the b-matching (see the module doc). Vertices are visited in
/// index order, so the result is deterministic. `stop` is asked every so many vertices of
/// the augmenting pass; once it says so the matching so far is returned (still one).
pub fn near_b_matching<G: Graph>(g: &G, b: &[u8], stop: &dyn Fn() -> bool) -> Vec<bool> {
    let m = g.edges();
    let mut taken = vec![false; m];
    let mut deficit: Vec<u8> = b.to_vec();
    // Greedy: the vertices with the fewest usable edges first would be better, but index
    // order keeps neighbours' choices local and the augmenting pass repairs the rest.
    for v in 0..g.vertices() {
        for e in g.usable_at(v) {
            if deficit[v] == 0 {
                break;
            }
            let w = other(g, e, v);
            if !taken[e as usize] && deficit[w] > 0 {
                taken[e as usize] = true;
                deficit[v] -= 1;
                deficit[w] -= 1;
            }
        }
    }
    let mut search = Search {
        stamp: vec![0; g.vertices()],
        now: 0,
        parent: vec![NONE; g.vertices()],
        queue: Vec::new(),
    };
    for v in 0..g.vertices() {
        if v % 4096 == 4095 && stop() {
            break;
        }
        while deficit[v] > 0 {
            match search.augmenting_end(g, &taken, &deficit, v) {
                Some(w) => {
                    search.flip(g, &mut taken, w);
                    deficit[v] -= 1;
                    deficit[w] -= 1;
                }
                None => break,
            }
        }
    }
    taken
}

/// The other end of edge `e` from `v`.
#[inline]
fn other<G: Graph>(g: &G, e: u32, v: usize) -> usize {
    let [a, c] = g.ends(e);
    if a == v { c } else { a }
}

/// Scratch of the alternating-path searches.
struct Search {
    stamp: Vec<u32>,
    now: u32,
    /// Per reached vertex, the edge it was reached by.
    parent: Vec<u32>,
    queue: Vec<u32>,
}

impl Search {
    /// A vertex other than `root`, short of its `b`, at the end of an alternating path from
    /// `root` (free edge, taken edge, free edge, ...), found breadth first.
    fn augmenting_end<G: Graph>(
        &mut self,
        g: &G,
        taken: &[bool],
        deficit: &[u8],
        root: usize,
    ) -> Option<usize> {
        self.now += 1;
        let now = self.now;
        self.stamp[root] = now;
        self.parent[root] = NONE;
        self.queue.clear();
        self.queue.push(root as u32);
        let mut head = 0;
        while head < self.queue.len() && self.queue.len() < REACH {
            // `u` is reached at an even step: it may take one more free edge.
            let u = self.queue[head] as usize;
            head += 1;
            for e in g.usable_at(u) {
                if taken[e as usize] {
                    continue;
                }
                let v = other(g, e, u);
                if self.stamp[v] == now {
                    continue;
                }
                self.stamp[v] = now;
                self.parent[v] = e;
                if deficit[v] > 0 {
                    return Some(v);
                }
                // `v` is full: it gives up one of its taken edges to pass the path on.
                for f in g.usable_at(v) {
                    if !taken[f as usize] {
                        continue;
                    }
                    let w = other(g, f, v);
                    if self.stamp[w] != now {
                        self.stamp[w] = now;
                        self.parent[w] = f;
                        self.queue.push(w as u32);
                    }
                }
            }
        }
        None
    }

    /// Flips every edge on the path from `end` back to the root.
    fn flip<G: Graph>(&self, g: &G, taken: &mut [bool], end: usize) {
        let mut v = end;
        while self.parent[v] != NONE {
            let e = self.parent[v];
            taken[e as usize] = !taken[e as usize];
            v = other(g, e, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph as flat arrays: vertex `v`'s edges are in `incident[v * slots..][..slots]`
    /// (`u32::MAX` for an empty slot); edge `e` joins vertices `ends[2e] >> shift` and
    /// `ends[2e + 1] >> shift` (the low bits free for the caller's tags); `usable[e]` says
    /// whether it may be taken.
    pub struct Tables<'a> {
        pub vertices: usize,
        pub slots: usize,
        pub incident: &'a [u32],
        pub ends: &'a [u32],
        pub shift: u32,
        pub usable: &'a [bool],
    }

    impl Graph for Tables<'_> {
        fn vertices(&self) -> usize {
            self.vertices
        }

        fn edges(&self) -> usize {
            self.ends.len() / 2
        }

        #[inline]
        fn usable_at(&self, v: usize) -> impl Iterator<Item = u32> + '_ {
            self.incident[v * self.slots..(v + 1) * self.slots]
                .iter()
                .copied()
                .filter(|&e| e != NONE && self.usable[e as usize])
        }

        #[inline(always)]
        fn ends(&self, e: u32) -> [usize; 2] {
            [0, 1].map(|i| (self.ends[2 * e as usize + i] >> self.shift) as usize)
        }
    }

    fn degrees<G: Graph>(g: &G, taken: &[bool]) -> Vec<u8> {
        let mut d = vec![0u8; g.vertices()];
        for (e, &t) in taken.iter().enumerate() {
            if t {
                for v in g.ends(e as u32) {
                    d[v] += 1;
                }
            }
        }
        d
    }

    /// Per vertex its edges, in as many slots as the largest degree: the `incident` table
    /// of a graph given by its `ends`.
    fn incident(vertices: usize, ends: &[u32]) -> (usize, Vec<u32>) {
        let mut at: Vec<Vec<u32>> = vec![Vec::new(); vertices];
        for (i, &v) in ends.iter().enumerate() {
            at[v as usize].push((i / 2) as u32);
        }
        let slots = at.iter().map(Vec::len).max().unwrap_or(0);
        let table = at
            .iter()
            .flat_map(|es| (0..slots).map(|j| es.get(j).copied().unwrap_or(NONE)))
            .collect();
        (slots, table)
    }

    /// A `h x w` grid graph, row-major vertices.
    fn grid(h: usize, w: usize) -> Vec<u32> {
        let mut ends = Vec::new();
        for r in 0..h {
            for c in 0..w {
                let v = (r * w + c) as u32;
                if c + 1 < w {
                    ends.extend([v, v + 1]);
                }
                if r + 1 < h {
                    ends.extend([v, v + w as u32]);
                }
            }
        }
        ends
    }

    #[test]
    fn grids_get_perfect_matchings_and_degrees_never_exceed_b() {
        for (h, w) in [(1, 2), (2, 2), (3, 4), (8, 8), (17, 30), (64, 64)] {
            let ends = grid(h, w);
            let usable = vec![true; ends.len() / 2];
            let (slots, incident) = incident(h * w, &ends);
            let g = Tables {
                vertices: h * w,
                slots,
                incident: &incident,
                ends: &ends,
                shift: 0,
                usable: &usable,
            };
            let b = vec![1u8; h * w];
            let taken = near_b_matching(&g, &b, &|| false);
            // Bipartite and small: the alternating paths reach every free vertex.
            assert_eq!(degrees(&g, &taken), b, "{h}x{w}");
        }
    }

    #[test]
    fn b_above_one_and_unusable_edges_are_respected() {
        let (h, w) = (10, 12);
        let ends = grid(h, w);
        let (slots, incident) = incident(h * w, &ends);
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..20 {
            let usable: Vec<bool> = (0..ends.len() / 2).map(|_| rng.f64() < 0.8).collect();
            let b: Vec<u8> = (0..h * w).map(|_| rng.u8(0..=3)).collect();
            let g = Tables {
                vertices: h * w,
                slots,
                incident: &incident,
                ends: &ends,
                shift: 0,
                usable: &usable,
            };
            let taken = near_b_matching(&g, &b, &|| false);
            let d = degrees(&g, &taken);
            assert!(d.iter().zip(&b).all(|(x, y)| x <= y));
            assert!(taken.iter().zip(&usable).all(|(t, u)| !t || *u));
            // Tags in the low bits of the ends change nothing.
            let tagged: Vec<u32> = ends.iter().map(|&v| v << 3 | rng.u32(0..8)).collect();
            let shifted = Tables {
                ends: &tagged,
                shift: 3,
                ..g
            };
            assert_eq!(near_b_matching(&shifted, &b, &|| false), taken);
        }
    }

    #[test]
    fn an_odd_cycle_keeps_one_vertex_short() {
        // A triangle with b = 1 everywhere: one edge, one vertex left.
        let ends = [0u32, 1, 1, 2, 2, 0];
        let usable = [true; 3];
        let (slots, incident) = incident(3, &ends);
        let g = Tables {
            vertices: 3,
            slots,
            incident: &incident,
            ends: &ends,
            shift: 0,
            usable: &usable,
        };
        let taken = near_b_matching(&g, &[1, 1, 1], &|| false);
        assert_eq!(taken.iter().filter(|&&t| t).count(), 1);
    }
}

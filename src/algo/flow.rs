//! Maximum flow and minimum cut: Dinic's algorithm on flat arrays (adjacency as linked edge
//! lists, each edge next to its residual twin so `e ^ 1` is the reverse), started by a greedy
//! pass over source -> a -> b -> sink paths. Used one-shot, where a certificate is wanted
//! (the explainer's deficient sets). The solver's incremental degree witness
//! (`solve::flow::DegreeFlow`) is a different tool: it repairs one flow after each search
//! decision and trails every change, on the square board's own arrays, and is never rebuilt.

use std::collections::VecDeque;

/// A flow network under Dinic's algorithm (see the module doc).
pub struct MaxFlow {
    head: Vec<u32>,
    next: Vec<u32>,
    to: Vec<u32>,
    cap: Vec<u32>,
    level: Vec<i32>,
    iter: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl MaxFlow {
    /// A network of `n` nodes and no edge.
    pub fn new(n: usize) -> MaxFlow {
        MaxFlow {
            head: vec![NONE; n],
            next: Vec::new(),
            to: Vec::new(),
            cap: Vec::new(),
            level: vec![0; n],
            iter: vec![0; n],
        }
    }

    /// Adds the edge `a -> b` of capacity `cap` (and its residual twin).
    pub fn edge(&mut self, a: usize, b: usize, cap: u32) {
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
    /// flow, leaving Dinic's phases only the few long augmenting paths (one unit per path, so
    /// any capacities are fine).
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

    /// The maximum flow from `s` to `t`; afterwards [`MaxFlow::reached`] tells the source
    /// side of a minimum cut.
    pub fn max_flow(&mut self, s: usize, t: usize) -> u64 {
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

    /// Whether `v` was reachable from the source in the residual graph when the last
    /// [`MaxFlow::max_flow`] ended: the source side of a minimum cut.
    pub fn reached(&self, v: usize) -> bool {
        self.level[v] >= 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Max flow by repeated DFS augmentation over an adjacency matrix: the oracle.
    fn slow_max_flow(n: usize, edges: &[(usize, usize, u32)], s: usize, t: usize) -> u64 {
        let mut cap = vec![vec![0u64; n]; n];
        for &(a, b, c) in edges {
            cap[a][b] += c as u64;
        }
        let mut flow = 0;
        loop {
            let mut prev = vec![usize::MAX; n];
            prev[s] = s;
            let mut stack = vec![s];
            while let Some(v) = stack.pop() {
                for u in 0..n {
                    if cap[v][u] > 0 && prev[u] == usize::MAX {
                        prev[u] = v;
                        stack.push(u);
                    }
                }
            }
            if prev[t] == usize::MAX {
                return flow;
            }
            let mut f = u64::MAX;
            let mut v = t;
            while v != s {
                f = f.min(cap[prev[v]][v]);
                v = prev[v];
            }
            let mut v = t;
            while v != s {
                cap[prev[v]][v] -= f;
                cap[v][prev[v]] += f;
                v = prev[v];
            }
            flow += f;
        }
    }

    #[test]
    fn random_networks_agree_with_the_oracle_and_cut_at_the_flow() {
        for seed in 0..200 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let n = rng.usize(2..12);
            let (s, t) = (0, n - 1);
            let edges: Vec<(usize, usize, u32)> = (0..rng.usize(0..3 * n))
                .map(|_| (rng.usize(..n), rng.usize(..n), rng.u32(0..4)))
                .filter(|&(a, b, _)| a != b)
                .collect();
            let mut g = MaxFlow::new(n);
            for &(a, b, c) in &edges {
                g.edge(a, b, c);
            }
            let flow = g.max_flow(s, t);
            assert_eq!(flow, slow_max_flow(n, &edges, s, t), "seed {seed}");
            // The residual reach is a cut whose capacity is the flow.
            assert!(g.reached(s) && !g.reached(t));
            let cut: u64 = edges
                .iter()
                .filter(|&&(a, b, _)| g.reached(a) && !g.reached(b))
                .map(|&(_, _, c)| c as u64)
                .sum();
            assert_eq!(cut, flow, "seed {seed}");
        }
    }
}

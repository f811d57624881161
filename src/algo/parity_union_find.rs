//! Disjoint sets whose members each carry a parity relative to their set's root, joined by
//! links that carry a parity too, and undone in the reverse order of the unions: the
//! parity of any path of links between two members of one set is then the sum of their
//! two parities, which is how a closed ring of links is read in one step. Union by size
//! and no path compression, as in [`super::undo_union_find`], so a find writes nothing.

/// Disjoint sets over `0..n` with parities and an undo stack (see the module doc).
pub struct ParityUnionFind {
    parent: Vec<u32>,
    /// Per root: the number of members of its set.
    size: Vec<u32>,
    /// Per element: the parity of the link to its parent (0 at a root).
    parity: Vec<u8>,
    /// The roots attached under another, newest last.
    undo: Vec<u32>,
}

impl ParityUnionFind {
    /// `n` singletons, `n` below 2^32.
    pub fn new(n: usize) -> ParityUnionFind {
        assert!(n <= u32::MAX as usize, "at most 2^32 elements");
        ParityUnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
            parity: vec![0; n],
            undo: Vec::new(),
        }
    }

    /// The root of `x`'s set, and the parity of the path from `x` to it.
    #[inline]
    pub fn find(&self, mut x: u32) -> (u32, u8) {
        let mut p = 0;
        while self.parent[x as usize] != x {
            p ^= self.parity[x as usize];
            x = self.parent[x as usize];
        }
        (x, p)
    }

    /// Links `a` and `b` by a link of parity `link`. When they were apart, joins their sets
    /// and returns `None`; when already one set, changes nothing and returns the parity of
    /// the ring the link closes (the link's plus that of the path between them).
    pub fn link(&mut self, a: u32, b: u32, link: u8) -> Option<u8> {
        let ((ra, pa), (rb, pb)) = (self.find(a), self.find(b));
        if ra == rb {
            return Some(pa ^ pb ^ link);
        }
        let (big, small) = if self.size[ra as usize] >= self.size[rb as usize] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[small as usize] = big;
        self.parity[small as usize] = pa ^ pb ^ link;
        self.size[big as usize] += self.size[small as usize];
        self.undo.push(small);
        None
    }

    /// The number of unions that [`Self::undo`] can take back: a mark to undo to.
    pub fn mark(&self) -> usize {
        self.undo.len()
    }

    /// Takes back the unions made since `mark`, newest first.
    pub fn undo(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let child = self.undo.pop().expect("above the mark");
            let root = self.parent[child as usize];
            self.size[root as usize] -= self.size[child as usize];
            self.parent[child as usize] = child;
            self.parity[child as usize] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Links added and undone in a random order: each ring closed reads the parity of a
    /// path found by a search over the links in force, and apart elements are told apart.
    #[test]
    fn rings_read_the_parity_of_the_links_in_force() {
        let mut rng = fastrand::Rng::with_seed(5);
        let n = 30u32;
        let mut uf = ParityUnionFind::new(n as usize);
        // The links in force, with the mark before each.
        let mut done: Vec<(usize, u32, u32, u8)> = Vec::new();
        let mut rings = [0; 2];
        for _ in 0..3000 {
            if rng.u8(..5) == 0 && !done.is_empty() {
                let keep = rng.usize(..done.len());
                uf.undo(done[keep].0);
                done.truncate(keep);
                continue;
            }
            let (a, b, link) = (rng.u32(..n), rng.u32(..n), rng.u8(..2));
            let path = path_parity(&done, n, a, b);
            let mark = uf.mark();
            match uf.link(a, b, link) {
                None => {
                    assert_eq!(path, None, "{a} and {b} were one set");
                    done.push((mark, a, b, link));
                }
                Some(ring) => {
                    assert_eq!(Some(ring ^ link), path, "{a} to {b}");
                    rings[ring as usize] += 1;
                }
            }
        }
        assert!(rings[0] > 50 && rings[1] > 50, "{rings:?}");
    }

    /// The parity of a path from `a` to `b` over `links` (a forest), if there is one.
    fn path_parity(links: &[(usize, u32, u32, u8)], n: u32, a: u32, b: u32) -> Option<u8> {
        let mut seen = vec![None; n as usize];
        seen[a as usize] = Some(0u8);
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            let px = seen[x as usize].unwrap();
            for &(_, u, v, p) in links {
                for (from, to) in [(u, v), (v, u)] {
                    if from == x && seen[to as usize].is_none() {
                        seen[to as usize] = Some(px ^ p);
                        stack.push(to);
                    }
                }
            }
        }
        seen[b as usize]
    }
}

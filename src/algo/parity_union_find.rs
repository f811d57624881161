//! Disjoint sets whose members each carry a parity relative to their set's root, joined by
//! links that carry a parity too, and undone in the reverse order of the unions: the
//! parity of any path of links between two members of one set is then the sum of their
//! two parities, which is how a closed ring of links is read in one step. The sets are
//! [`UndoUnionFind`]'s (union by size, no path compression, so a find writes nothing),
//! with a parity beside each link.

use super::undo_union_find::UndoUnionFind;

/// Disjoint sets over `0..n` with parities and an undo stack (see the module doc).
pub struct ParityUnionFind {
    sets: UndoUnionFind,
    /// Per element: the parity of the link to its parent (0 at a root).
    parity: Vec<u8>,
}

impl ParityUnionFind {
    /// `n` singletons, `n` below 2^32.
    pub fn new(n: usize) -> ParityUnionFind {
        ParityUnionFind {
            sets: UndoUnionFind::with_weights(vec![1; n]),
            parity: vec![0; n],
        }
    }

    /// The root of `x`'s set, and the parity of the path from `x` to it.
    #[inline]
    pub fn find(&self, mut x: u32) -> (u32, u8) {
        let mut p = 0;
        loop {
            let up = self.sets.parent(x);
            if up == x {
                return (x, p);
            }
            p ^= self.parity[x as usize];
            x = up;
        }
    }

    /// Links `a` and `b` by a link of parity `link`. When they were apart, joins their sets
    /// and returns `None`; when already one set, changes nothing and returns the parity of
    /// the ring the link closes (the link's plus that of the path between them).
    pub fn link(&mut self, a: u32, b: u32, link: u8) -> Option<u8> {
        let ((ra, pa), (rb, pb)) = (self.find(a), self.find(b));
        if ra == rb {
            return Some(pa ^ pb ^ link);
        }
        let under = self.sets.join_roots(ra, rb);
        self.parity[under as usize] = pa ^ pb ^ link;
        None
    }

    /// The number of unions that [`Self::undo`] can take back: a mark to undo to.
    pub fn mark(&self) -> usize {
        self.sets.mark()
    }

    /// Takes back the unions made since `mark`, newest first.
    pub fn undo(&mut self, mark: usize) {
        let parity = &mut self.parity;
        self.sets.undo_each(mark, |root| parity[root as usize] = 0);
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

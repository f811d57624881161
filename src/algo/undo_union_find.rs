//! Disjoint sets that a search can undo: union by weight and no path compression, so a find
//! writes nothing and undoing a union is one reset. A depth-first search joins as it decides
//! and undoes on backtracking (the Net propagator's sure connections); path compression
//! would make every find a change to undo.

/// Disjoint weighted sets over `0..n` with an undo stack (see the module doc).
pub struct UndoUnionFind {
    parent: Vec<u32>,
    /// Per root: the total weight of its set.
    weight: Vec<u32>,
    /// The roots attached under another, newest last.
    undo: Vec<u32>,
}

impl UndoUnionFind {
    /// One singleton set per weight, `n` below 2^32.
    pub fn with_weights(weight: Vec<u32>) -> UndoUnionFind {
        assert!(weight.len() <= u32::MAX as usize, "at most 2^32 elements");
        UndoUnionFind {
            parent: (0..weight.len() as u32).collect(),
            weight,
            undo: Vec::new(),
        }
    }

    /// The root of `x`'s set.
    #[inline]
    pub fn find(&self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    /// The total weight of the set whose root is `root`.
    #[inline]
    pub fn weight(&self, root: u32) -> u32 {
        self.weight[root as usize]
    }

    /// Joins the sets of `a` and `b` (the lighter under the heavier); false when they were
    /// already one set, and then nothing changes.
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.join_roots(ra, rb);
        true
    }

    /// Joins the sets of the distinct roots `ra` and `rb`, the lighter under the heavier:
    /// returns the root put under.
    pub fn join_roots(&mut self, ra: u32, rb: u32) -> u32 {
        debug_assert!(ra != rb && self.parent(ra) == ra && self.parent(rb) == rb);
        let (big, small) = if self.weight[ra as usize] >= self.weight[rb as usize] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[small as usize] = big;
        self.weight[big as usize] += self.weight[small as usize];
        self.undo.push(small);
        small
    }

    /// `x`'s parent (`x` at a root).
    #[inline]
    pub fn parent(&self, x: u32) -> u32 {
        self.parent[x as usize]
    }

    /// The number of unions that [`Self::undo`] can take back: a mark to undo to.
    pub fn mark(&self) -> usize {
        self.undo.len()
    }

    /// Takes back the unions made since `mark`, newest first.
    pub fn undo(&mut self, mark: usize) {
        self.undo_each(mark, |_| {});
    }

    /// [`Self::undo`], telling `detached` each root it puts back on its own.
    pub fn undo_each(&mut self, mark: usize, mut detached: impl FnMut(u32)) {
        while self.undo.len() > mark {
            let child = self.undo.pop().expect("above the mark");
            let root = self.parent[child as usize];
            self.weight[root as usize] -= self.weight[child as usize];
            self.parent[child as usize] = child;
            detached(child);
        }
    }

    /// Makes the unions so far permanent: later undos stop here.
    pub fn commit(&mut self) {
        self.undo.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unions and undos in a random order, each state compared with sets recomputed from
    /// the unions still in force.
    #[test]
    fn undo_restores_the_sets_the_remaining_unions_make() {
        let mut rng = fastrand::Rng::with_seed(7);
        let n = 40;
        let weights: Vec<u32> = (0..n).map(|i| i % 3).collect();
        let mut uf = UndoUnionFind::with_weights(weights.clone());
        // The unions in force, with the mark before each.
        let mut done: Vec<(usize, u32, u32)> = Vec::new();
        for _ in 0..2000 {
            if rng.u8(..4) == 0 && !done.is_empty() {
                let keep = rng.usize(..done.len());
                uf.undo(done[keep].0);
                done.truncate(keep);
            } else {
                let (a, b) = (rng.u32(..n), rng.u32(..n));
                let mark = uf.mark();
                if uf.union(a, b) {
                    done.push((mark, a, b));
                }
            }
            // Labels by repeated relaxation: the smallest element reachable.
            let mut label: Vec<u32> = (0..n).collect();
            loop {
                let mut changed = false;
                for &(_, a, b) in &done {
                    let m = label[a as usize].min(label[b as usize]);
                    for x in [a, b] {
                        if label[x as usize] != m {
                            label[x as usize] = m;
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            for x in 0..n {
                for y in 0..n {
                    let same = uf.find(x) == uf.find(y);
                    assert_eq!(same, label[x as usize] == label[y as usize]);
                }
                let total: u32 = (0..n)
                    .filter(|&y| label[y as usize] == label[x as usize])
                    .map(|y| weights[y as usize])
                    .sum();
                assert_eq!(uf.weight(uf.find(x)), total);
            }
        }
    }
}

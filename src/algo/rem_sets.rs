//! Disjoint sets for Kruskal's mazes: Rem's algorithm with splicing. Every element's parent
//! has a larger index than the element (a root is its own parent), and a union climbs both
//! paths at once, always from the side whose parent is lower, re-pointing each node it
//! leaves to the other side's higher parent. It stops as soon as the two climbs meet, often
//! below the roots, and it needs no size field. In Kruskal's walls, most unions join cells a
//! step apart whose paths merge within a few links. So Rem touches fewer cache lines than a
//! union by size, which must always reach both roots (see the experiments of Patwary, Blair
//! and Manne, "Experiments on union-find algorithms for the disjoint-set data structure",
//! SEA 2010, where Rem with splicing was the fastest). A set's root is its largest element,
//! which the region join of the solver relies on (it numbers pieces so that the largest is
//! the one with the first cell).

/// Disjoint sets over `0..n` (see the module doc).
pub struct RemSets {
    /// Parent of each element, never below the element; a root is its own parent.
    parent: Vec<u32>,
}

impl RemSets {
    /// `n` singleton sets; `n` must fit in a `u32`.
    pub fn new(n: usize) -> RemSets {
        assert!(
            n <= u32::MAX as usize,
            "Rem's sets over at most 2^32 elements"
        );
        RemSets {
            parent: (0..n as u32).collect(),
        }
    }

    /// Joins the sets of `a` and `b`; false when they were already one set.
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let p = &mut self.parent;
        let (mut x, mut y) = (a as usize, b as usize);
        loop {
            let (px, py) = (p[x], p[y]);
            if px == py {
                return false;
            }
            // Climb from the side whose parent is lower; its node is re-pointed to the other
            // side's higher parent, which keeps parents above their children.
            if px < py {
                if px as usize == x {
                    p[x] = py;
                    return true;
                }
                p[x] = py;
                x = px as usize;
            } else {
                if py as usize == y {
                    p[y] = px;
                    return true;
                }
                p[y] = px;
                y = py as usize;
            }
        }
    }

    /// The root of `x`'s set, its largest element, halving the path on the way (a
    /// grandparent is above the parent, so parents stay above their children).
    pub fn find(&mut self, mut x: u32) -> u32 {
        loop {
            let p = self.parent[x as usize];
            if p == x {
                return x;
            }
            let g = self.parent[p as usize];
            self.parent[x as usize] = g;
            x = g;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::union_find::UnionFind;

    #[test]
    fn rem_unions_answer_as_union_by_size_does() {
        // Random unions, some local (as Kruskal's walls), some far: every answer and every
        // final membership agree with the union by size.
        for seed in 0..20 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let n = rng.usize(2..400);
            let (mut rem, mut by_size) = (RemSets::new(n), UnionFind::new(n));
            for _ in 0..3 * n {
                let a = rng.u32(..n as u32);
                let b = if rng.bool() {
                    (a + rng.u32(1..4)).min(n as u32 - 1)
                } else {
                    rng.u32(..n as u32)
                };
                assert_eq!(rem.union(a, b), by_size.union(a, b), "seed {seed}");
            }
            for _ in 0..n {
                let (a, b) = (rng.u32(..n as u32), rng.u32(..n as u32));
                let same = rem.find(a) == rem.find(b);
                assert_eq!(same, by_size.find(a) == by_size.find(b));
            }
            // Each root is its set's largest element.
            let mut largest = vec![0u32; n];
            for x in 0..n as u32 {
                let r = rem.find(x) as usize;
                largest[r] = largest[r].max(x);
            }
            assert!((0..n).all(|x| rem.find(x as u32) as usize != x || largest[x] == x as u32));
            assert!(rem.parent.iter().enumerate().all(|(x, &p)| p as usize >= x));
        }
    }
}

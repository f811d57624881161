//! Disjoint sets over cell indices: one flat `u32` array (union by size, path halving). A root
//! holds its set's size with the top bit set instead of a parent, so a find touches one array:
//! the generators' finds hit random cells of grids far larger than the cache, and a separate
//! size array doubled the cache misses per union.

/// Disjoint sets over `0..n` (see the module doc).
pub struct UnionFind {
    /// Parent of each element, or `ROOT | size` for a root.
    link: Vec<u32>,
}

const ROOT: u32 = 1 << 31;

impl UnionFind {
    /// `n` singleton sets; `n` must be below 2^31.
    pub fn new(n: usize) -> UnionFind {
        assert!(n < ROOT as usize, "union-find over at most 2^31 elements");
        UnionFind {
            link: vec![ROOT | 1; n],
        }
    }

    /// No element left: sets are then made one by one ([`UnionFind::push`]).
    pub fn clear(&mut self) {
        self.link.clear();
    }

    /// A new element in a set of its own: its number (the count of elements before).
    pub fn push(&mut self) -> u32 {
        let x = self.link.len() as u32;
        assert!(x < ROOT, "union-find over at most 2^31 elements");
        self.link.push(ROOT | 1);
        x
    }

    /// The root of `x`'s set, halving the path on the way.
    pub fn find(&mut self, mut x: u32) -> u32 {
        loop {
            let p = self.link[x as usize];
            if p & ROOT != 0 {
                return x;
            }
            let g = self.link[p as usize];
            if g & ROOT != 0 {
                return p;
            }
            self.link[x as usize] = g;
            x = g;
        }
    }

    /// Joins the sets of `a` and `b`; false when they were already one set.
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        let (sa, sb) = (
            self.link[ra as usize] & !ROOT,
            self.link[rb as usize] & !ROOT,
        );
        if sa < sb {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.link[rb as usize] = ra;
        self.link[ra as usize] = ROOT | (sa + sb);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_join_sets_and_report_repeats() {
        let mut uf = UnionFind::new(10);
        assert!(uf.union(1, 2));
        assert!(uf.union(3, 4));
        assert!(uf.union(2, 4));
        assert!(!uf.union(1, 3));
        assert_eq!(uf.find(1), uf.find(4));
        assert_ne!(uf.find(1), uf.find(5));
        // The larger set's root stays the root.
        assert!(uf.union(5, 1));
        assert_eq!(uf.find(5), uf.find(2));
    }

    #[test]
    fn sets_pushed_one_by_one_after_a_clear_start_apart() {
        let mut uf = UnionFind::new(3);
        assert!(uf.union(0, 1));
        uf.clear();
        assert_eq!((uf.push(), uf.push(), uf.push()), (0, 1, 2));
        assert_ne!(uf.find(0), uf.find(1));
        assert!(uf.union(1, 2));
        assert_eq!(uf.push(), 3);
        assert_eq!(uf.find(2), uf.find(1));
        assert_ne!(uf.find(3), uf.find(1));
    }
}

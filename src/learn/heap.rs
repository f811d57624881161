//! [`VarHeap`]: the variables by activity (VSIDS), a max-heap over flat arrays with each
//! variable's place in it, so a bump moves one entry and the next decision is the top.
//!
//! Every edge set by propagation stays in the heap until a decision pops it, so a search
//! pops about as many entries as it sets edges, and on hexagonal path tilings the pops
//! were a fifth of the search. The heap is therefore four-ary (half the levels of a binary
//! one) and each entry carries its variable's activity, so the four children compared at a
//! level sit in one cache line instead of four look-ups into the activity array: the same
//! search of hexagonal three-cell paths 192x192 (60 % bent, seed 4, 63,595 conflicts) took
//! 14.5 and 15.2 s against 15.0 and 15.9 s with the binary heap. The copies cost 12 bytes
//! an edge: a 1024x1024 hexagonal path tiling (`-m learn -t 2`, two searches) peaks at
//! 323 MB against 288 MB.

const ABSENT: u32 = u32::MAX;
/// Children per node.
const ARITY: usize = 4;

/// One heap entry: a variable, a copy of its activity, and when it was put in.
#[derive(Clone, Copy)]
struct Entry {
    activity: f64,
    var: u32,
    /// The number of the insertion that put it in.
    stamp: u32,
}

impl Entry {
    /// Whether `self` is picked before `other`: the more active, and of equals the one put
    /// back first. Equal activities are common (edges bumped by the same conflicts once the
    /// increment has outgrown what told them apart), and backtracking puts edges back in
    /// trail order, so among equals the search re-decides in its last order. Picking the
    /// lower edge of equals instead took hexagonal three-cell paths 128x128 (seeds 1, 3, 6)
    /// from 2,025, 2,574 and 1,670 conflicts to 3,671, 3,422 and 2,613.
    #[inline(always)]
    fn before(self, other: Entry) -> bool {
        self.activity > other.activity
            || (self.activity == other.activity && self.stamp < other.stamp)
    }
}

/// Activities and the heap of the variables that may be picked.
pub(super) struct VarHeap {
    /// Per variable, its activity (the heap's entries hold copies).
    activity: Vec<f64>,
    heap: Vec<Entry>,
    /// Per variable, its index in `heap`, or [`ABSENT`].
    place: Vec<u32>,
    /// The next insertion's stamp.
    next_stamp: u32,
}

impl VarHeap {
    /// Every one of `n` variables in the heap, with tiny activities falling with the number:
    /// until conflicts bump some, picks go in variable order (row-major, a line order, which
    /// keeps the search on one front instead of scattering it).
    pub fn new(n: usize) -> VarHeap {
        let step = 1e-6 / n.max(1) as f64;
        let activity: Vec<f64> = (0..n).map(|v| (n - v) as f64 * step).collect();
        // Falling activities in index order already form a heap.
        let heap = (0..n as u32)
            .map(|v| Entry {
                activity: activity[v as usize],
                var: v,
                stamp: v,
            })
            .collect();
        VarHeap {
            activity,
            heap,
            place: (0..n as u32).collect(),
            next_stamp: n as u32,
        }
    }

    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.place[v as usize] != ABSENT
    }

    /// Puts `v` back (after backtracking unassigned it).
    pub fn insert(&mut self, v: u32) {
        if self.contains(v) {
            return;
        }
        if self.next_stamp == u32::MAX {
            self.renumber_stamps();
        }
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        self.place[v as usize] = self.heap.len() as u32;
        self.heap.push(Entry {
            activity: self.activity[v as usize],
            var: v,
            stamp,
        });
        self.up(self.heap.len() - 1);
    }

    /// The most active variable, taken out.
    pub fn pop(&mut self) -> Option<u32> {
        let top = self.heap.first()?.var;
        let last = self.heap.pop().expect("not empty");
        self.place[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.place[last.var as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    /// Adds `inc` to `v`'s activity; true when activities must be scaled down.
    pub fn bump(&mut self, v: u32, inc: f64) -> bool {
        let a = &mut self.activity[v as usize];
        *a += inc;
        let (a, big) = (*a, *a > 1e100);
        if self.contains(v) {
            let i = self.place[v as usize] as usize;
            self.heap[i].activity = a;
            self.up(i);
        }
        big
    }

    /// Scales every activity by `f` (the order is kept).
    pub fn rescale(&mut self, f: f64) {
        for a in &mut self.activity {
            *a *= f;
        }
        for e in &mut self.heap {
            e.activity *= f;
        }
    }

    /// Numbers the stamps of the entries afresh from 0, in the same order, when they run out
    /// (after four billion insertions): the heap's order stays as it was.
    fn renumber_stamps(&mut self) {
        let mut by_stamp: Vec<usize> = (0..self.heap.len()).collect();
        by_stamp.sort_unstable_by_key(|&i| self.heap[i].stamp);
        for (k, &i) in by_stamp.iter().enumerate() {
            self.heap[i].stamp = k as u32;
        }
        self.next_stamp = self.heap.len() as u32;
    }

    fn up(&mut self, mut i: usize) {
        let e = self.heap[i];
        while i > 0 {
            let p = (i - 1) / ARITY;
            let pe = self.heap[p];
            if !e.before(pe) {
                break;
            }
            self.heap[i] = pe;
            self.place[pe.var as usize] = i as u32;
            i = p;
        }
        self.heap[i] = e;
        self.place[e.var as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize) {
        let e = self.heap[i];
        let n = self.heap.len();
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let mut c = first;
            for k in first + 1..(first + ARITY).min(n) {
                if self.heap[k].before(self.heap[c]) {
                    c = k;
                }
            }
            let ce = self.heap[c];
            if !ce.before(e) {
                break;
            }
            self.heap[i] = ce;
            self.place[ce.var as usize] = i as u32;
            i = c;
        }
        self.heap[i] = e;
        self.place[e.var as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pops come out by falling activity, equals in the order they were put in, through
    /// bumps, rescales, re-inserts and a renumbering of the stamps, as a scan says.
    #[test]
    fn pops_follow_the_activities_through_bumps_and_reinserts() {
        let mut rng = fastrand::Rng::with_seed(7);
        for n in [1usize, 2, 5, 17, 64, 300] {
            let mut h = VarHeap::new(n);
            let mut act: Vec<f64> = h.activity.clone();
            let mut inside = vec![true; n];
            // Per variable, when it was put in (the first ones in variable order).
            let mut put_in: Vec<u64> = (0..n as u64).collect();
            let mut clock = n as u64;
            for round in 0..2000 {
                if round % 200 == 199 {
                    h.renumber_stamps();
                }
                let v = rng.u32(..n as u32);
                match rng.u8(..4) {
                    0 => {
                        // Increments that swallow the tiny first activities: equal
                        // activities, whose order the tie-break alone says.
                        let inc = 1e12 * f64::from(rng.u8(1..4));
                        act[v as usize] += inc;
                        if h.bump(v, inc) {
                            h.rescale(0.5);
                            act.iter_mut().for_each(|a| *a *= 0.5);
                        }
                    }
                    1 => {
                        h.insert(v);
                        if !inside[v as usize] {
                            inside[v as usize] = true;
                            put_in[v as usize] = clock;
                            clock += 1;
                        }
                    }
                    2 if round % 7 == 0 => {
                        h.rescale(0.25);
                        act.iter_mut().for_each(|a| *a *= 0.25);
                    }
                    _ => {
                        let mut best: Option<usize> = None;
                        for u in (0..n).filter(|&u| inside[u]) {
                            if best.is_none_or(|b| {
                                act[u] > act[b] || (act[u] == act[b] && put_in[u] < put_in[b])
                            }) {
                                best = Some(u);
                            }
                        }
                        let got = h.pop();
                        assert_eq!(got, best.map(|b| b as u32), "activities {act:?}");
                        if let Some(g) = got {
                            inside[g as usize] = false;
                        }
                    }
                }
                for u in 0..n as u32 {
                    assert_eq!(h.contains(u), inside[u as usize]);
                }
            }
        }
    }
}

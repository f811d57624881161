//! [`VarHeap`]: the variables by activity (VSIDS), a binary max-heap over flat arrays with
//! each variable's place in it, so a bump moves one entry and the next decision is the top.

const ABSENT: u32 = u32::MAX;

/// Activities and the heap of the variables that may be picked.
pub(super) struct VarHeap {
    pub activity: Vec<f64>,
    heap: Vec<u32>,
    /// Per variable, its index in `heap`, or [`ABSENT`].
    place: Vec<u32>,
}

impl VarHeap {
    /// Every one of `n` variables in the heap, with tiny activities falling with the number:
    /// until conflicts bump some, picks go in variable order (row-major, a line order, which
    /// keeps the search on one front instead of scattering it).
    pub fn new(n: usize) -> VarHeap {
        let step = 1e-6 / n.max(1) as f64;
        VarHeap {
            activity: (0..n).map(|v| (n - v) as f64 * step).collect(),
            heap: (0..n as u32).collect(),
            place: (0..n as u32).collect(),
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
        self.place[v as usize] = self.heap.len() as u32;
        self.heap.push(v);
        self.up(self.heap.len() - 1);
    }

    /// The most active variable, left in.
    pub fn peek(&self) -> Option<u32> {
        self.heap.first().copied()
    }

    /// The most active variable, taken out.
    pub fn pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("not empty");
        self.place[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.place[last as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    /// Adds `inc` to `v`'s activity; true when activities must be scaled down.
    pub fn bump(&mut self, v: u32, inc: f64) -> bool {
        let a = &mut self.activity[v as usize];
        *a += inc;
        let big = *a > 1e100;
        if self.contains(v) {
            self.up(self.place[v as usize] as usize);
        }
        big
    }

    /// Scales every activity by `f` (the order is kept).
    pub fn rescale(&mut self, f: f64) {
        for a in &mut self.activity {
            *a *= f;
        }
    }

    fn up(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        while i > 0 {
            let p = (i - 1) / 2;
            let pv = self.heap[p];
            if self.activity[pv as usize] >= a {
                break;
            }
            self.heap[i] = pv;
            self.place[pv as usize] = i as u32;
            i = p;
        }
        self.heap[i] = v;
        self.place[v as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let a = self.activity[v as usize];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n
                && self.activity[self.heap[r] as usize] > self.activity[self.heap[l] as usize]
            {
                r
            } else {
                l
            };
            let cv = self.heap[c];
            if self.activity[cv as usize] <= a {
                break;
            }
            self.heap[i] = cv;
            self.place[cv as usize] = i as u32;
            i = c;
        }
        self.heap[i] = v;
        self.place[v as usize] = i as u32;
    }
}

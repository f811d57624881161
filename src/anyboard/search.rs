//! Depth-first search over one network: pick an undecided cell, try each orientation left,
//! propagate, undo on a wipe-out. The cell picked is the one with the fewest orientations
//! among the next few undecided cells of a breadth-first order of the region, so decisions
//! stay next to each other and propagation from one reaches the next.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::network::{FIXED_ON, Network, State};

/// Why a search stopped before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    TimedOut,
    /// The cancel flag was raised.
    Cancelled,
}

/// When a search must give up: a flag any thread may raise and an optional deadline.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    /// Raised to stop (Ctrl-C).
    pub cancel: &'a AtomicBool,
    /// Raised when another part of the same solve settled the answer.
    pub halt: Option<&'a AtomicBool>,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
}

impl Budget<'_> {
    /// The reason to stop now, if any.
    pub fn check(&self) -> Result<(), Stop> {
        if self.cancel.load(Ordering::Relaxed)
            || self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
        {
            return Err(Stop::Cancelled);
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Stop::TimedOut),
            _ => Ok(()),
        }
    }
}

/// How many undecided cells ahead of the order the pick compares.
const WINDOW: usize = 24;
/// Nodes between two looks at the budget.
const CHECK_EVERY: u64 = 1024;

/// A search over a propagated state of `net`.
pub struct Search<'n, 'a> {
    net: &'n Network<'a>,
    /// The domains; after a successful [`Search::first`], every cell decided.
    pub st: State,
    order: Vec<u32>,
    /// Decisions made.
    pub nodes: u64,
    budget: Budget<'n>,
}

/// One decision on the stack: the cell, the orientations not tried yet, the trail mark and
/// where the order's scan stood.
struct Frame {
    cell: u32,
    left: u8,
    mark: usize,
    cursor: usize,
}

impl<'n, 'a> Search<'n, 'a> {
    /// A search of `net` from `st` (already propagated).
    pub fn new(net: &'n Network<'a>, st: State, budget: Budget<'n>) -> Search<'n, 'a> {
        let order = bfs_order(net);
        Search {
            net,
            st,
            order,
            nodes: 0,
            budget,
        }
    }

    /// The next cell to decide at or after `cursor` in the order, and the new cursor.
    fn pick(&self, cursor: usize) -> Option<(usize, usize)> {
        let dom = &self.st.dom;
        let mut i = cursor;
        while i < self.order.len() && dom[self.order[i] as usize].count_ones() == 1 {
            i += 1;
        }
        if i == self.order.len() {
            return None;
        }
        let (mut best, mut best_n) = (self.order[i] as usize, dom[self.order[i] as usize].count_ones());
        let mut seen = 0;
        for &c in &self.order[i + 1..] {
            let n = dom[c as usize].count_ones();
            if n > 1 {
                if n < best_n {
                    best = c as usize;
                    best_n = n;
                    if n == 2 {
                        break;
                    }
                }
                seen += 1;
                if seen == WINDOW {
                    break;
                }
            }
        }
        Some((best, i))
    }

    /// Tries `cell` at the lowest orientation of `left`; the orientations still to try after.
    fn try_next(&mut self, cell: usize, left: u8) -> (bool, u8) {
        let r = left.trailing_zeros();
        self.nodes += 1;
        // On a wipe-out, the decision and the propagation are undone by the caller's mark.
        (self.st.decide(self.net, cell, 1 << r), left & (left - 1))
    }

    /// Walks the tree. `on_leaf` sees each full assignment and says whether to go on.
    fn walk(&mut self, mut on_leaf: impl FnMut(&State) -> bool) -> Result<(), Stop> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut cursor = 0;
        'descend: loop {
            match self.pick(cursor) {
                None => {
                    if !on_leaf(&self.st) {
                        return Ok(());
                    }
                }
                Some((cell, at)) => {
                    cursor = at;
                    let mark = self.st.mark();
                    let dom = self.st.dom[cell];
                    stack.push(Frame {
                        cell: cell as u32,
                        left: dom,
                        mark,
                        cursor,
                    });
                }
            }
            // Advance the top frame to its next orientation that propagates.
            while let Some(top) = stack.last_mut() {
                let (cell, mark) = (top.cell as usize, top.mark);
                self.st.undo(mark);
                let left = top.left;
                if left == 0 {
                    stack.pop();
                    continue;
                }
                if self.nodes % CHECK_EVERY == 0 {
                    self.budget.check()?;
                }
                let (ok, rest) = self.try_next(cell, left);
                let top = stack.last_mut().expect("still there");
                top.left = rest;
                if ok {
                    cursor = top.cursor;
                    continue 'descend;
                }
            }
            return Ok(());
        }
    }

    /// Finds a solution: true with every cell decided, false when there is none.
    pub fn first(&mut self) -> Result<bool, Stop> {
        let mut found = false;
        let mut solution = Vec::new();
        self.walk(|st| {
            found = true;
            solution = st.dom.clone();
            false
        })?;
        if found {
            self.st.dom = solution;
        }
        Ok(found)
    }

    /// Counts solutions, stopping once more than `limit` are known (then returns `limit + 1`).
    pub fn count(&mut self, limit: u64) -> Result<u64, Stop> {
        let mut n = 0u64;
        self.walk(|_| {
            n += 1;
            n <= limit
        })?;
        Ok(n)
    }

    /// Visits every solution (the domains of each, all decided) until `visit` says stop.
    pub fn each(&mut self, visit: impl FnMut(&State) -> bool) -> Result<(), Stop> {
        self.walk(visit)
    }
}

/// Cells in breadth-first order from the first cell of each component of the network.
fn bfs_order(net: &Network) -> Vec<u32> {
    let n = net.len();
    let k = net.k;
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut head = order.len();
        order.push(start as u32);
        while head < order.len() {
            let c = order[head] as usize;
            head += 1;
            for s in 0..k {
                let l = net.links[c * k + s];
                if l < FIXED_ON {
                    let m = (l >> 3) as usize;
                    if !seen[m] {
                        seen[m] = true;
                        order.push(m as u32);
                    }
                }
            }
        }
    }
    order
}

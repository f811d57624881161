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
    /// The budget this one was made within ([`Budget::halted_by`]): its halt flags stop
    /// this one too.
    pub outer: Option<&'a Budget<'a>>,
}

impl<'a> Budget<'a> {
    /// This budget, also stopped once `halt` is raised: for parts of a search that stop
    /// each other, while whoever stops the whole still stops them.
    pub fn halted_by(&'a self, halt: &'a AtomicBool) -> Budget<'a> {
        Budget {
            cancel: self.cancel,
            halt: Some(halt),
            deadline: self.deadline,
            outer: Some(self),
        }
    }

    /// Whether this budget's halt flag, or an outer one's, is raised.
    fn halted(&self) -> bool {
        self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
            || self.outer.is_some_and(|o| o.halted())
    }

    /// The reason to stop now, if any.
    pub fn check(&self) -> Result<(), Stop> {
        if self.cancel.load(Ordering::Relaxed) || self.halted() {
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
/// Cells ordered between two looks at the budget.
const ORDER_CHECK: usize = 1 << 16;
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
    parity: Parity,
    /// Random value order and start of the order, from the first restart on.
    rng: Option<fastrand::Rng>,
    /// Failed decisions allowed before the walk gives up for a restart.
    fail_limit: u64,
}

/// Failed decisions in a unit of the restart schedule.
const RESTART_UNIT: u64 = 256;

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, ...: restart budgets that make heavy-tailed
/// searches (a wrong early decision found only much later) finish.
fn luby(mut i: u64) -> u64 {
    let mut size = 1u64;
    let mut seq = 0u32;
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        seq -= 1;
        i %= size;
    }
    1 << seq
}

/// The ends count: every connection between two undecided cells has two ends, so a group of
/// undecided cells cut off from the rest by decided ones needs an even number of ends left
/// to join among themselves. A decision that leaves a small group with an odd number fails
/// at once instead of deep in the search (the one-end-heavy levels' usual trap).
struct Parity {
    /// Per cell, the number of the check that last visited it.
    stamp: Vec<u32>,
    now: u32,
    queue: Vec<u32>,
    starts: Vec<u32>,
}

/// The largest group the ends count walks; a larger one is assumed fine.
const PARITY_REACH: usize = 48;

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
        let order = bfs_order(net, None).expect("no budget to run out");
        Search::with_order(net, st, budget, order)
    }

    /// [`Search::new`], looking at the budget while it orders the cells: for a region of
    /// millions of cells that takes a good part of a second.
    pub fn within(
        net: &'n Network<'a>,
        st: State,
        budget: Budget<'n>,
    ) -> Result<Search<'n, 'a>, Stop> {
        let order = bfs_order(net, Some(&budget))?;
        Ok(Search::with_order(net, st, budget, order))
    }

    fn with_order(
        net: &'n Network<'a>,
        st: State,
        budget: Budget<'n>,
        order: Vec<u32>,
    ) -> Search<'n, 'a> {
        Search {
            net,
            st,
            order,
            nodes: 0,
            budget,
            parity: Parity {
                stamp: vec![0; net.len()],
                now: 0,
                queue: Vec::new(),
                starts: Vec::new(),
            },
            rng: None,
            fail_limit: u64::MAX,
        }
    }

    /// False when the narrowings since `mark` left a small group of undecided cells with an
    /// odd number of ends to join among themselves (see [`Parity`]).
    fn ends_even(&mut self, mark: usize) -> bool {
        let net = self.net;
        let k = net.k;
        let p = &mut self.parity;
        // Each walk of this check gets its own stamp above `base`: a cell stamped by an
        // earlier walk of the same check belongs to a group that walk left unfinished.
        if p.now > u32::MAX - 2 * (net.len() as u32 + 1) {
            p.stamp.fill(0);
            p.now = 0;
        }
        let base = p.now + 1;
        p.starts.clear();
        for c in self.st.narrowed_since(mark) {
            if self.st.dom[c].count_ones() != 1 {
                continue;
            }
            for s in 0..k {
                let l = net.links.get(c, s);
                if l < FIXED_ON {
                    let n = (l >> 3) as usize;
                    if self.st.dom[n].count_ones() > 1 {
                        p.starts.push(n as u32);
                    }
                }
            }
        }
        for i in 0..p.starts.len() {
            let start = p.starts[i] as usize;
            if p.stamp[start] >= base {
                continue;
            }
            p.now += 1;
            p.stamp[start] = p.now;
            p.queue.clear();
            p.queue.push(start as u32);
            let mut head = 0;
            let mut ends = 0u32;
            let mut closed = true;
            while head < p.queue.len() {
                if p.queue.len() > PARITY_REACH {
                    closed = false;
                    break;
                }
                let c = p.queue[head] as usize;
                head += 1;
                ends += net.shapes.get(net.shape[c]).masks[0].count_ones();
                for s in 0..k {
                    let l = net.links.get(c, s);
                    if l == FIXED_ON {
                        ends += 1;
                    } else if l < FIXED_ON {
                        let (n, t) = ((l >> 3) as usize, l & 7);
                        if self.st.dom[n].count_ones() == 1 {
                            ends += (self.st.sides(n) >> t) as u32 & 1;
                        } else if p.stamp[n] < base {
                            p.stamp[n] = p.now;
                            p.queue.push(n as u32);
                        } else if p.stamp[n] != p.now {
                            // Joined to a group an earlier walk found too large.
                            closed = false;
                            break;
                        }
                    }
                }
                if !closed {
                    break;
                }
            }
            if closed && ends % 2 == 1 {
                return false;
            }
        }
        true
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
        let (mut best, mut best_n) = (
            self.order[i] as usize,
            dom[self.order[i] as usize].count_ones(),
        );
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
        let r = match &mut self.rng {
            None => left.trailing_zeros(),
            Some(rng) => {
                // A uniformly chosen orientation among those left.
                let mut skip = rng.u32(..left.count_ones());
                let mut rest = left;
                while skip > 0 {
                    rest &= rest - 1;
                    skip -= 1;
                }
                rest.trailing_zeros()
            }
        };
        self.nodes += 1;
        // On a failure, the decision and the propagation are undone by the caller's mark.
        let mark = self.st.mark();
        let ok = self.st.decide(self.net, cell, 1 << r) && self.ends_even(mark);
        (ok, left & !(1 << r))
    }

    /// Walks the tree. `on_leaf` sees each full assignment and says whether to go on.
    /// `Ok(false)` when the failure limit stopped it (the state is back at the root).
    fn walk(&mut self, mut on_leaf: impl FnMut(&State) -> bool) -> Result<bool, Stop> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut failures = 0u64;
        let mut cursor = 0;
        'descend: loop {
            match self.pick(cursor) {
                None => {
                    if !on_leaf(&self.st) {
                        return Ok(true);
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
                self.st.undo(self.net, mark);
                let left = top.left;
                if left == 0 {
                    stack.pop();
                    continue;
                }
                if self.nodes.is_multiple_of(CHECK_EVERY) {
                    self.budget.check()?;
                }
                let (ok, rest) = self.try_next(cell, left);
                let top = stack.last_mut().expect("still there");
                top.left = rest;
                if ok {
                    cursor = top.cursor;
                    continue 'descend;
                }
                failures += 1;
                if failures > self.fail_limit {
                    let root = stack[0].mark;
                    self.st.undo(self.net, root);
                    return Ok(false);
                }
            }
            return Ok(true);
        }
    }

    /// Finds a solution: true with every cell decided, false when there is none.
    /// Restarts with a random value order on a Luby schedule of failures keep one wrong
    /// early decision from costing the rest of the time.
    pub fn first(&mut self) -> Result<bool, Stop> {
        let mut found = false;
        let mut solution = Vec::new();
        for run in 0u64.. {
            self.fail_limit = luby(run).saturating_mul(RESTART_UNIT);
            if run > 0 {
                let rng = self
                    .rng
                    .get_or_insert_with(|| fastrand::Rng::with_seed(run));
                let start = rng.usize(..self.order.len());
                self.order.rotate_left(start);
            }
            let complete = self.walk(|st| {
                found = true;
                solution = st.dom.clone();
                false
            })?;
            if complete {
                break;
            }
        }
        if found {
            self.st.dom = solution;
        }
        Ok(found)
    }

    /// Counts solutions, stopping once more than `limit` are known (then returns `limit + 1`).
    pub fn count(&mut self, limit: u64) -> Result<u64, Stop> {
        let mut n = 0u64;
        self.fail_limit = u64::MAX;
        self.walk(|_| {
            n += 1;
            n <= limit
        })?;
        Ok(n)
    }

    /// Visits every solution (the domains of each, all decided) until `visit` says stop.
    pub fn each(&mut self, visit: impl FnMut(&State) -> bool) -> Result<(), Stop> {
        self.fail_limit = u64::MAX;
        self.walk(visit).map(|_| ())
    }
}

/// Cells in breadth-first order from the first cell of each component of the network;
/// with a budget, looked at every [`ORDER_CHECK`] cells.
fn bfs_order(net: &Network, budget: Option<&Budget>) -> Result<Vec<u32>, Stop> {
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
            if let Some(b) = budget
                && head.is_multiple_of(ORDER_CHECK)
            {
                b.check()?;
            }
            for s in 0..k {
                let l = net.links.get(c, s);
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
    Ok(order)
}

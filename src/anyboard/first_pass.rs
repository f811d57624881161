//! The first propagation pass over a whole network ([`State::propagate_root`]), on stripes of
//! cells in parallel. Arc consistency has one greatest fixed point, reached by any order of
//! revisions, so the cells are cut into stripes of consecutive numbers (whole rows on
//! today's boards, which number cells row by row) and each thread brings its stripes to their
//! own fixed point with the cells of other stripes seen at their full domains: a weaker
//! constraint than theirs at any time, so nothing is removed that the whole pass would keep.
//! Then only the cells with a neighbour in another stripe can be unsupported: they are
//! revised again by one worklist over the whole network, which reaches the fixed point. This
//! is how the bounded square engine's first pass handles its stripe borders
//! (`crate::solve::first_pass`).
//!
//! Within a stripe, sweeps in cell order, alternately forwards and backwards, revise only
//! cells whose neighbours changed since their last revision, then a worklist takes the
//! stragglers. A sweep reads the arrays in memory order and carries a change along the whole
//! direction of travel in one pass; a worklist alone jumped about the board (about half the
//! time of a 1024x1024 hexagonal solve).
//!
//! The same stripes and sweeps bring a stronger rule to its fixed point beside arc
//! consistency ([`Rule`]; the triangles of `super::triangles`), from the cells given.

use super::network::{
    FIXED_ON, Network, State, demand_bits, demand_of, fitting, sides_of, with_demand,
};
use super::search::{Budget, Stop};
use crate::board::Lattice;
use crate::par::*;

mod lattice_sweeps;

/// [`Stripe::fixed_point`] sweeps again while a sweep changed at least one cell in this many.
const SWEEP_WHILE_CHANGED: usize = 512;
/// Revisions between two looks at the budget.
const CHECK_CELLS: usize = 1 << 16;
/// At most this many sweeps before the worklist takes over.
const MAX_SWEEPS: usize = 16;
/// Stripes have at least this many cells (64 rows of a 1024-wide board), so the border
/// cells revised again stay a small share.
const MIN_STRIPE_CELLS: usize = 1 << 16;

/// What a revision removes besides what the demand word rules out: nothing in the first
/// pass ([`ArcOnly`]), the triangles after it (`super::triangles`).
pub(super) trait Rule: Sync {
    /// Whether the rule reads the neighbours' domains, so that any narrowing (not only one
    /// that changes a side's verdict) revises every undecided neighbour again.
    const READS_DOMAINS: bool;

    /// What `cell` keeps of `dom` (two or more orientations, every one fitting its demand
    /// word), reading another cell's domain through `dom_at`: `None` for a cell another
    /// thread holds, which the rule must take as unknown.
    fn keep(&self, net: &Network, cell: usize, dom: u8, dom_at: impl Fn(usize) -> Option<u8>)
    -> u8;

    /// The sides of `cell` across which a neighbour may keep less by the rule once `cell`
    /// narrows from `old` to `new`.
    fn touched(&self, net: &Network, cell: usize, old: u8, new: u8) -> u8;

    /// Whether [`Rule::keep_inner`] speaks for the inner cells of the network's lattice:
    /// the lattice's sweeps then run the rule (see `lattice_sweeps`).
    fn inner_form(&self) -> bool;

    /// What a cell of shape `shape` at domain `dom` shows its neighbours for
    /// [`Rule::keep_inner`].
    fn shown(&self, shape: u8, dom: u8) -> u64;

    /// [`Rule::keep`] for an inner cell of shape `shape` in a row of parity `parity` of a
    /// lattice of `K` sides, reading what the neighbour across side `s` shows through
    /// `at(s)`. `dom` may hold orientations its demand word rules out: what is kept must
    /// fit the neighbours' domains as arc consistency's would, for the lattice's sweeps
    /// revise an inner cell by this alone.
    fn keep_inner<const K: usize>(
        &self,
        shape: u8,
        parity: usize,
        dom: u8,
        at: impl Fn(usize) -> u64,
    ) -> u8;
}

/// Arc consistency alone: the first pass.
pub(super) struct ArcOnly;

impl Rule for ArcOnly {
    const READS_DOMAINS: bool = false;

    #[inline(always)]
    fn keep(&self, _: &Network, _: usize, dom: u8, _: impl Fn(usize) -> Option<u8>) -> u8 {
        dom
    }

    #[inline(always)]
    fn touched(&self, _: &Network, _: usize, _: u8, _: u8) -> u8 {
        0
    }

    fn inner_form(&self) -> bool {
        true
    }

    fn shown(&self, _: u8, _: u8) -> u64 {
        0
    }

    #[inline(always)]
    fn keep_inner<const K: usize>(&self, _: u8, _: usize, dom: u8, _: impl Fn(usize) -> u64) -> u8 {
        dom
    }
}

/// The cells a pass over a network starts from.
#[derive(Clone, Copy)]
pub(super) enum Start<'a> {
    /// Every cell.
    Every,
    /// Every cell with two or more orientations left.
    Undecided,
    /// These cells (ascending).
    Cells(&'a [u32]),
}

impl State {
    /// The first pass over a whole network, for a state whose domains become the base (the
    /// trail is left empty, as after [`State::commit`]): the same fixed point as
    /// [`State::propagate_all`], on about four stripes per thread (see the module doc).
    ///
    /// A pass over millions of cells takes a good part of a second, so it looks at `budget`
    /// every [`CHECK_CELLS`] revisions; on a stop the state is as far as it got.
    pub fn propagate_root(&mut self, net: &Network, budget: &Budget) -> Result<bool, Stop> {
        self.sweep_root(net, budget, &ArcOnly, Start::Every)
    }

    /// The fixed point of arc consistency and `rule` together, reached from the cells of
    /// `start` as [`State::propagate_root`] reaches arc consistency's: the state must be at
    /// arc consistency's fixed point with its trail committed, or `start` every cell.
    pub(super) fn sweep_root<R: Rule>(
        &mut self,
        net: &Network,
        budget: &Budget,
        rule: &R,
        start: Start,
    ) -> Result<bool, Stop> {
        // One thread gains nothing from stripes but their border revisions. A rule reading
        // domains takes one stripe a thread: its border cells saw the other stripes' cells
        // as unknown, and their serial worklist (with the rule) was a tenth of a
        // 1024x1024 hexagonal maze's triangle pass on four.
        let threads = current_threads();
        let per_thread = if R::READS_DOMAINS { 1 } else { 4 };
        let stripes = if threads > 1 { threads * per_thread } else { 1 };
        let cells = self.dom.len().div_ceil(stripes).max(MIN_STRIPE_CELLS);
        self.sweep_striped(net, budget, cells, rule, start)
    }

    /// Arc consistency within the cells `lo..lo + cells` alone, the others seen at their
    /// full domains, as one stripe of [`State::propagate_root`] brings its own cells to
    /// their fixed point: how many of those cells it leaves undecided, or `None` when one
    /// loses every orientation (no solution). A cheap look at how much the first pass would
    /// decide, before choosing the pass. What it removes the whole pass would remove; the
    /// demand words of the cells beside the band still hold what the band's cells
    /// connected before (weaker, so sound), and any pass from every cell brings them up to
    /// date.
    pub(super) fn preview_open(
        &mut self,
        net: &Network,
        budget: &Budget,
        lo: usize,
        cells: usize,
    ) -> Result<Option<usize>, Stop> {
        let hi = (lo + cells).min(self.dom.len());
        let mut stripe = Stripe {
            lo,
            dom: &mut self.dom[lo..hi],
            sides: &mut self.sides[lo..hi],
            demand: &mut self.demand[lo..hi],
            queued: &mut self.queued[lo..hi],
            marks: Vec::new(),
            rule: &ArcOnly,
        };
        if !stripe.settle(net, budget, Start::Every)? {
            return Ok(None);
        }
        let open = self.dom[lo..hi]
            .iter()
            .filter(|d| d.count_ones() > 1)
            .count();
        Ok(Some(open))
    }

    /// [`State::propagate_root`] on stripes of `stripe_cells` cells (tests use thin stripes
    /// to make changes cross many stripe borders).
    pub fn propagate_striped(
        &mut self,
        net: &Network,
        budget: &Budget,
        stripe_cells: usize,
    ) -> Result<bool, Stop> {
        self.sweep_striped(net, budget, stripe_cells, &ArcOnly, Start::Every)
    }

    /// [`State::sweep_root`] on stripes of `stripe_cells` cells.
    pub(super) fn sweep_striped<R: Rule>(
        &mut self,
        net: &Network,
        budget: &Budget,
        stripe_cells: usize,
        rule: &R,
        start: Start,
    ) -> Result<bool, Stop> {
        let n = self.dom.len();
        self.clear_queue();
        let size = stripe_cells.clamp(1, n.max(1));
        let swept: Vec<Result<Option<Vec<u32>>, Stop>> = self
            .dom
            .par_chunks_mut(size)
            .zip(self.sides.par_chunks_mut(size))
            .zip(self.demand.par_chunks_mut(size))
            .zip(self.queued.par_chunks_mut(size))
            .enumerate()
            .map(|(i, (((dom, sides), demand), queued))| {
                let lo = i * size;
                let mut stripe = Stripe {
                    lo,
                    dom,
                    sides,
                    demand,
                    queued,
                    marks: Vec::new(),
                    rule,
                };
                let first = match start {
                    Start::Cells(cells) => {
                        let from = cells.partition_point(|&c| (c as usize) < lo);
                        let to = cells.partition_point(|&c| (c as usize) < lo + size);
                        Start::Cells(&cells[from..to])
                    }
                    other => other,
                };
                let ok = stripe.settle(net, budget, first);
                let whole = size >= n;
                Ok(ok?.then(|| {
                    if whole {
                        Vec::new()
                    } else {
                        stripe.border(net)
                    }
                }))
            })
            .collect();
        // A wipe-out in any stripe settles it (a stripe's fixed point holds the whole
        // network's), else a stop.
        let mut borders = Vec::with_capacity(swept.len());
        let mut stop = None;
        for s in swept {
            match s {
                Ok(None) => return Ok(false),
                Ok(Some(b)) => borders.push(b),
                Err(e) => stop = stop.or(Some(e)),
            }
        }
        if let Some(e) = stop {
            return Err(e);
        }
        // A border cell's demand word still holds what the other stripes' cells connected
        // before the pass: read again from them.
        for c in borders.into_iter().flatten() {
            let sides = &self.sides;
            self.demand[c as usize] = demand_of(net, c as usize, |n| sides[n]);
            if !self.queued[c as usize] {
                self.queued[c as usize] = true;
                self.queue.push(c);
            }
        }
        let mut revised = 0usize;
        while let Some(c) = self.queue.pop() {
            revised += 1;
            if revised.is_multiple_of(CHECK_CELLS) {
                budget.check()?;
            }
            let c = c as usize;
            self.queued[c] = false;
            if !self.revise_by(net, c, rule) {
                return Ok(false);
            }
        }
        self.commit();
        Ok(true)
    }

    /// [`State::revise`] with `rule` too, queueing the undecided neighbours the rule may
    /// narrow after it.
    #[inline]
    fn revise_by<R: Rule>(&mut self, net: &Network, cell: usize, rule: &R) -> bool {
        if !R::READS_DOMAINS {
            return self.revise(net, cell);
        }
        let mut new = self.supported(net, cell);
        if new.count_ones() > 1 {
            new = rule.keep(net, cell, new, |c| Some(self.dom[c]));
        }
        if new == self.dom[cell] {
            return true;
        }
        let touched = rule.touched(net, cell, self.dom[cell], new);
        if !self.narrow_to(net, cell, new) {
            return false;
        }
        let k = net.k;
        for (s, l) in (0..k).map(|s| (s, net.links.get(cell, s))) {
            let y = (l >> 3) as usize;
            if touched >> s & 1 == 1
                && l < FIXED_ON
                && !self.queued[y]
                && self.dom[y].count_ones() > 1
            {
                self.queued[y] = true;
                self.queue.push(y as u32);
            }
        }
        true
    }
}

/// Threads the stripes are shared among.
#[cfg(feature = "parallel")]
pub(super) fn current_threads() -> usize {
    current_num_threads().max(1)
}

/// One thread without rayon: the stripes then only cost their border revisions.
#[cfg(not(feature = "parallel"))]
pub(super) fn current_threads() -> usize {
    1
}

/// The cells `lo..lo + dom.len()`: their slices of the state's arrays. Narrowings reach
/// only the stripe's own demand words: a cell with a neighbour in another stripe keeps,
/// for that side, what the neighbour connected before the pass (a weaker demand).
struct Stripe<'s, R> {
    lo: usize,
    dom: &'s mut [u8],
    sides: &'s mut [u16],
    demand: &'s mut [u16],
    queued: &'s mut [bool],
    /// The sweeps' marks, a bit per cell: a sweep finds the next marked cell a word at a
    /// time, where a flag per cell was a test per cell, most of them failing in the later
    /// sweeps.
    marks: Vec<u64>,
    rule: &'s R,
}

impl<R: Rule> Stripe<'_, R> {
    /// The position in the stripe of cell `c`, or `None` for another stripe's cell.
    #[inline(always)]
    fn local(&self, c: usize) -> Option<usize> {
        c.checked_sub(self.lo).filter(|&i| i < self.dom.len())
    }

    /// The domain the `i`-th cell of the stripe keeps given its neighbours, those of other
    /// stripes taken at their full domains.
    #[inline(always)]
    fn supported(&self, net: &Network, i: usize) -> u8 {
        let dom = fitting(net, self.lo + i, self.dom[i], self.demand[i]);
        if R::READS_DOMAINS && dom.count_ones() > 1 {
            self.rule.keep(net, self.lo + i, dom, |c| {
                self.local(c).map(|j| self.dom[j])
            })
        } else {
            dom
        }
    }

    /// A sweep's narrowing of the `i`-th cell to `dom`. With arc consistency alone, the
    /// neighbours facing a changed verdict are marked for the sweeps. With a rule reading
    /// domains, the undecided neighbours are marked for the rule, and arc consistency is
    /// brought to its fixed point at once by a worklist (`queue`, empty between calls): the
    /// rule's costlier revisions then come after every cheap consequence of a narrowing
    /// (on a 1024x1024 hexagonal maze, a quarter of the revisions a sweep of both rules on
    /// every marked neighbour made). `false` on a wipe-out.
    #[inline(always)]
    fn narrow_sweeping(&mut self, net: &Network, i: usize, dom: u8, queue: &mut Stack) -> bool {
        self.narrow::<true>(net, i, dom, queue);
        if !R::READS_DOMAINS {
            return true;
        }
        while let Some(j) = queue.pop() {
            self.queued[j] = false;
            let new = fitting(net, self.lo + j, self.dom[j], self.demand[j]);
            if new == 0 {
                while let Some(q) = queue.pop() {
                    self.queued[q] = false;
                }
                return false;
            }
            if new != self.dom[j] {
                self.narrow::<true>(net, j, new, queue);
            }
        }
        true
    }

    /// Narrows the `i`-th cell to `dom`; its neighbours in the stripe facing a side whose
    /// verdict changed get it in their demand words. Those to revise again are marked for
    /// the sweeps (`SWEEPING`) or pushed on `stack` unless queued already: with arc
    /// consistency alone, the neighbours facing a changed verdict; with a rule reading
    /// domains, those are queued (sweeping or not) and every undecided neighbour is marked
    /// (sweeping) or queued.
    #[inline(always)]
    fn narrow<const SWEEPING: bool>(
        &mut self,
        net: &Network,
        i: usize,
        dom: u8,
        stack: &mut Stack,
    ) {
        let c = self.lo + i;
        let new_sides = sides_of(net, c, dom);
        let touched = self.rule.touched(net, c, self.dom[i], dom);
        self.dom[i] = dom;
        let changed = new_sides ^ self.sides[i];
        self.sides[i] = new_sides;
        let verdicts = changed as u8 | (changed >> 8) as u8;
        let mut rest = verdicts | touched;
        while rest != 0 {
            let s = rest.trailing_zeros();
            rest &= rest - 1;
            let l = net.links.get(c, s as usize);
            let Some(j) = (l < FIXED_ON)
                .then(|| self.local((l >> 3) as usize))
                .flatten()
            else {
                continue;
            };
            // Which of the steps below a side needs follows no pattern a branch predictor
            // learns: each step is done on every side, its effect masked (on a 256x256
            // hexagonal maze, half the mispredicted branches gone by cachegrind's count).
            let told = !R::READS_DOMAINS || verdicts >> s & 1 == 1;
            // A side whose verdict stayed writes the bits it wrote before.
            let t = l & 7;
            self.demand[j] = with_demand(self.demand[j], t, demand_bits(new_sides, s, t));
            let open = (touched >> s & 1 == 1) & (self.dom[j].count_ones() > 1);
            if SWEEPING {
                // The sweeps want no list of the fresh marks: a plain store, where a test
                // of the old mark is a branch the board's pattern of changes mispredicts.
                self.marks[j / 64] |= ((open || !R::READS_DOMAINS) as u64) << (j % 64);
            }
            if SWEEPING && !R::READS_DOMAINS {
                continue;
            }
            let queue = if SWEEPING { told } else { told | open };
            let was = self.queued[j];
            self.queued[j] = was | queue;
            stack.push_if(j, queue & !was);
        }
    }

    /// Brings the stripe to its own fixed point from the cells of `first`: the sweeps
    /// ([`Stripe::first_marks`]), then [`Stripe::fixed_point`]. `Ok(false)` on a wipe-out.
    ///
    /// No cell is left queued, whatever happens (`State::set` relies on it): a fixed point
    /// reached has drained every queue, so only a wipe-out or a stop leaves flags to clear.
    /// Clearing them every time wrote the 16 MB of flags of a 4096x4096 board, most of it
    /// fresh pages the kernel zeroed for the purpose.
    fn settle(&mut self, net: &Network, budget: &Budget, first: Start) -> Result<bool, Stop> {
        let ok = self
            .first_marks(net, budget, first)
            .and_then(|marks| match marks {
                Some(marks) => self.fixed_point(net, budget, marks),
                None => Ok(false),
            });
        if !matches!(ok, Ok(true)) {
            self.queued.fill(false);
        }
        debug_assert!(!self.queued.contains(&true), "a queue was left undrained");
        ok
    }

    /// The cells the sweeps start from, a bit per cell: those of `first` (of the stripe);
    /// on a board with a [`Lattice`] (and a rule with its form for inner cells), what the
    /// lattice's sweeps from those leave (see `lattice_sweeps`). `Ok(None)` on a wipe-out.
    fn first_marks(
        &mut self,
        net: &Network,
        budget: &Budget,
        first: Start,
    ) -> Result<Option<Vec<u64>>, Stop> {
        let n = self.dom.len();
        let mut given = vec![0u64; n.div_ceil(64)];
        match first {
            Start::Every => {
                given.fill(u64::MAX);
                if !n.is_multiple_of(64) {
                    given[n / 64] = (1 << (n % 64)) - 1;
                }
            }
            Start::Undecided => {
                for (w, doms) in self.dom.chunks(64).enumerate() {
                    given[w] = doms.iter().enumerate().fold(0, |bits, (b, d)| {
                        bits | ((d & d.wrapping_sub(1) != 0) as u64) << b
                    });
                }
            }
            Start::Cells(cells) => {
                for &c in cells {
                    let i = c as usize - self.lo;
                    given[i / 64] |= 1 << (i % 64);
                }
            }
        }
        // Arc consistency alone sweeps from every cell by the lattice, a rule with its form
        // for inner cells from those given.
        let sweeps = match first {
            Start::Every => !R::READS_DOMAINS || self.rule.inner_form(),
            _ => R::READS_DOMAINS && self.rule.inner_form(),
        };
        match net.lattice {
            Some(lat) if sweeps => {
                let marks = vec![0u64; given.len()];
                self.lattice_sweeps(net, &lat, budget, marks, given)
            }
            _ => Ok(Some(given)),
        }
    }

    /// Brings the stripe to its own fixed point from the cells marked in `marks` (a bit
    /// per cell, as [`Stripe::first_marks`] gives them): the sweeps, then a worklist.
    /// `Ok(false)` on a wipe-out.
    fn fixed_point(
        &mut self,
        net: &Network,
        budget: &Budget,
        marks: Vec<u64>,
    ) -> Result<bool, Stop> {
        let n = self.dom.len();
        self.marks = marks;
        let mut revised = 0usize;
        let mut sweep = 0;
        let mut queue = Stack::for_cells(n);
        loop {
            budget.check()?;
            let mut changed = 0usize;
            let mut at = Marked::start(self.marks.len(), sweep % 2 == 1);
            while let Some(i) = at.next(&mut self.marks) {
                revised += 1;
                if revised.is_multiple_of(CHECK_CELLS) {
                    budget.check()?;
                }
                // A cell decided by an earlier sweep saw its neighbours then, and each of
                // their narrowings since was a revision that saw it: it cannot change. (The
                // first sweep revises every cell: a shape of one orientation starts decided.)
                if sweep > 0 && self.dom[i].is_power_of_two() {
                    continue;
                }
                let new = self.supported(net, i);
                if new == 0 {
                    return Ok(false);
                }
                if new != self.dom[i] {
                    changed += 1;
                    if !self.narrow_sweeping(net, i, new, &mut queue) {
                        return Ok(false);
                    }
                }
            }
            sweep += 1;
            // Once a sweep changes few cells, the worklist finishes faster than a scan.
            if changed == 0 || changed < n / SWEEP_WHILE_CHANGED || sweep == MAX_SWEEPS {
                break;
            }
        }
        for (w, &bits) in self.marks.iter().enumerate() {
            let mut rest = bits;
            while rest != 0 {
                let i = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.queued[i] = true;
                queue.push_if(i, true);
            }
        }
        self.marks = Vec::new();
        while let Some(i) = queue.pop() {
            revised += 1;
            if revised.is_multiple_of(CHECK_CELLS) {
                budget.check()?;
            }
            self.queued[i] = false;
            let new = self.supported(net, i);
            if new == 0 {
                return Ok(false);
            }
            if new != self.dom[i] {
                self.narrow::<false>(net, i, new, &mut queue);
            }
        }
        Ok(true)
    }

    /// The stripe's cells with a neighbour in another stripe, as network cells: the only
    /// ones the other stripes' narrowing can leave unsupported.
    fn border(&self, net: &Network) -> Vec<u32> {
        let k = net.k;
        let outside = |&c: &usize| {
            (0..k).any(|s| {
                let l = net.links.get(c, s);
                l < FIXED_ON && self.local((l >> 3) as usize).is_none()
            })
        };
        let (lo, hi) = (self.lo, self.lo + self.dom.len());
        let Some(lat) = net.lattice.filter(|l| l.sides == k) else {
            return (lo..hi).filter(outside).map(|c| c as u32).collect();
        };
        // An inner cell's neighbours are within the lattice's reach: only the cells that
        // near the stripe's ends, and the rim's, need their links read.
        let reach = lat.reach();
        let w = lat.width;
        let mut cells: Vec<usize> = (lo..hi.min(lo + reach))
            .chain(hi.saturating_sub(reach).max(lo)..hi)
            .collect();
        for r in lo / w..hi.div_ceil(w) {
            let row = (r * w).max(lo)..(r * w + w).min(hi);
            if r == 0 || r + 1 == lat.height {
                cells.extend(row);
            } else {
                cells.extend(
                    [r * w, r * w + w - 1]
                        .into_iter()
                        .filter(|c| row.contains(c)),
                );
            }
        }
        cells.sort_unstable();
        cells.dedup();
        cells.retain(outside);
        cells.into_iter().map(|c| c as u32).collect()
    }
}

/// A sweep's walk over the marked cells, forwards or backwards, each mark cleared as it is
/// taken. A cell marked behind the walk waits for the next sweep, one marked ahead is taken
/// in this one: as a walk over every cell testing a flag would.
struct Marked {
    word: usize,
    /// Bits of `word` not passed yet.
    ahead: u64,
    backwards: bool,
    words: usize,
}

impl Marked {
    fn start(words: usize, backwards: bool) -> Marked {
        Marked {
            word: if backwards { words.wrapping_sub(1) } else { 0 },
            ahead: u64::MAX,
            backwards,
            words,
        }
    }

    /// The next marked cell, its mark cleared.
    #[inline(always)]
    fn next(&mut self, marks: &mut [u64]) -> Option<usize> {
        while self.word < self.words {
            let cand = marks[self.word] & self.ahead;
            if cand == 0 {
                self.word = if self.backwards {
                    self.word.wrapping_sub(1)
                } else {
                    self.word + 1
                };
                self.ahead = u64::MAX;
                continue;
            }
            let b = if self.backwards {
                63 - cand.leading_zeros()
            } else {
                cand.trailing_zeros()
            };
            marks[self.word] &= !(1 << b);
            // Only the bits past `b` in the direction of travel are still ahead.
            self.ahead = if self.backwards {
                (1u64 << b) - 1
            } else {
                u64::MAX.checked_shl(b + 1).unwrap_or(0)
            };
            return Some(self.word * 64 + b as usize);
        }
        None
    }
}

/// The cells waiting for a revision in a stripe, each at most once (the stripe's `queued`
/// flags see to it): a stack with room for every cell of the stripe and one more, so that a
/// push can depend on a condition without a branch. Its zeroed buffer takes no memory
/// until a push reaches it.
struct Stack {
    cells: Vec<u32>,
    top: usize,
}

impl Stack {
    fn for_cells(n: usize) -> Stack {
        Stack {
            cells: vec![0; n + 1],
            top: 0,
        }
    }

    /// Pushes `cell` if `yes` (written either way, above the top when not).
    #[inline(always)]
    fn push_if(&mut self, cell: usize, yes: bool) {
        self.cells[self.top] = cell as u32;
        self.top += yes as usize;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        self.top = self.top.checked_sub(1)?;
        Some(self.cells[self.top] as usize)
    }
}

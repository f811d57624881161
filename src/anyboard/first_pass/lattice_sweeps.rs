//! The opening sweeps of a stripe on a board with a [`Lattice`]: the inner cells of the
//! stripe (see [`Lattice::is_inner`], and with all their neighbours in the stripe) are
//! revised, forwards then backwards, each against its neighbours found by arithmetic. No
//! link is read and no neighbour's word written: a revision is a few loads and stores in
//! memory order.
//!
//! The first pass (arc consistency alone) revises every inner cell in its first sweep, and
//! every undecided one in the next, while a sweep changes many; then only the cells a
//! change reached since their last revision (a bitmap, walked a word at a time). A rule
//! reading domains (the triangles) sweeps the cells it is given once, then those a change
//! reached; each revision is the rule's alone, which for an inner cell does arc
//! consistency's work too, reading a neighbour's shape and domain
//! ([`Stripe::sweep_run_rule`]); the inner cells' sides are written once the sweeps end.
//! The marked sweeps of [`Stripe::fixed_point`] then start from what these leave: the
//! cells they did not revise and those a change reached after their last revision.
//!
//! Sound as any order of revisions is: a cell not revised keeps a larger domain than the
//! fixed point's, and a revision reads its neighbours' current state.

use std::cell::Cell;

use super::{Lattice, Network, Rule, Stripe, demand_bits};
use crate::anyboard::network::{FIXED_ON, lattice_words, opposite_word, with_demand};
use crate::anyboard::search::{Budget, Stop};

/// Arc consistency's full sweeps go on while one changed at least one inner cell in this
/// many.
const FULL_SWEEP_WHILE_CHANGED: usize = 64;
/// The sweeps go on while one revised at least one inner cell in this many; the marked
/// sweeps over the link table take the rest.
const SWEEP_WHILE_REVISED: usize = 1024;
/// At most this many sweeps.
const MAX_SWEEPS: usize = 64;

/// A run of inner cells in one row: its row's parity and its positions in the stripe.
#[derive(Clone, Copy)]
struct Run {
    parity: usize,
    from: usize,
    to: usize,
}

impl Run {
    /// The words of a bitmap over the stripe that hold the run's cells.
    fn words(&self) -> std::ops::RangeInclusive<usize> {
        self.from / 64..=(self.to - 1) / 64
    }

    /// The run's bits of word `w`.
    fn bits_of(&self, w: usize) -> u64 {
        let (lo, hi) = (
            self.from.max(w * 64) - w * 64,
            self.to.min(w * 64 + 64) - w * 64,
        );
        (u64::MAX >> (64 - (hi - lo))) << lo
    }
}

impl<R: Rule> Stripe<'_, R> {
    /// The sweeps over the cells of `open` (a bit per cell), then the marks the marked
    /// sweeps start from (`marks` comes in zeroed). `Ok(None)` on a wipe-out.
    pub(super) fn lattice_sweeps(
        &mut self,
        net: &Network,
        lat: &Lattice,
        budget: &Budget,
        marks: Vec<u64>,
        open: Vec<u64>,
    ) -> Result<Option<Vec<u64>>, Stop> {
        // The side count a constant, so the loop over the sides unrolls.
        let opposite = lat.faces_opposite() && lat.sides == net.k;
        match lat.sides {
            6 if opposite => self.full_sweeps::<6>(net, lat, budget, marks, open),
            4 if opposite => self.full_sweeps::<4>(net, lat, budget, marks, open),
            // The demand words are up to date when a rule reading domains starts: its
            // marked sweeps start from the cells given.
            _ if R::READS_DOMAINS => Ok(Some(open)),
            _ => {
                let mut marks = marks;
                self.mark_untouched(net, &[], &mut marks);
                Ok(Some(marks))
            }
        }
    }

    /// The sweeps (see the module doc) on a lattice of `K` sides facing opposite.
    fn full_sweeps<const K: usize>(
        &mut self,
        net: &Network,
        lat: &Lattice,
        budget: &Budget,
        mut marks: Vec<u64>,
        mut open: Vec<u64>,
    ) -> Result<Option<Vec<u64>>, Stop> {
        let runs = self.inner_runs(lat);
        let inner: usize = runs.iter().map(|r| r.to - r.from).sum();
        // The cells a neighbour's change reached since their last revision: every open
        // cell before the first sweep.
        let mut dirty = open.clone();
        // Arc consistency's full sweeps revise every open cell: only the last one's changes
        // need their neighbours marked, once the full sweeps end.
        let mut changed_bits = vec![0u64; if R::READS_DOMAINS { 0 } else { open.len() }];
        let mut full = true;
        for sweep in 0..MAX_SWEEPS {
            budget.check()?;
            changed_bits.fill(0);
            let (mut revised, mut changed) = (0usize, 0usize);
            let mut since_check = 0usize;
            let backwards = sweep % 2 == 1;
            for k in 0..runs.len() {
                let run = runs[if backwards { runs.len() - 1 - k } else { k }];
                let (o, d, c) = (&mut open, &mut dirty, &mut changed_bits);
                let (n, moved, wiped) = match (R::READS_DOMAINS, full) {
                    (true, true) => self.sweep_run_rule::<K, true>(net, lat, run, backwards, o, d),
                    (true, false) => {
                        self.sweep_run_rule::<K, false>(net, lat, run, backwards, o, d)
                    }
                    (false, true) => self.sweep_run::<K, true>(net, lat, run, backwards, o, d, c),
                    (false, false) => self.sweep_run::<K, false>(net, lat, run, backwards, o, d, c),
                };
                if wiped {
                    return Ok(None);
                }
                revised += n;
                changed += moved;
                since_check += n;
                if since_check >= super::CHECK_CELLS {
                    since_check = 0;
                    budget.check()?;
                }
            }
            if full {
                // A rule marks the neighbours of every change anyway: its later sweeps
                // take only the cells a change reached.
                full = !R::READS_DOMAINS && changed * FULL_SWEEP_WHILE_CHANGED >= inner;
                if !full && !R::READS_DOMAINS {
                    mark_neighbours(lat, &runs, &changed_bits, &mut dirty);
                }
            } else if revised * SWEEP_WHILE_REVISED < inner {
                break;
            }
        }
        if full && !R::READS_DOMAINS {
            mark_neighbours(lat, &runs, &changed_bits, &mut dirty);
        }
        if R::READS_DOMAINS {
            self.settle_inner_sides(net, &runs);
        }
        self.pull_inner_demands::<K>(lat, &runs);
        self.mark_untouched(net, &runs, &mut marks);
        self.mark_dirty(&runs, &dirty, &mut marks);
        Ok(Some(marks))
    }

    /// The inner cells of the stripe whose neighbours are all in it, row by row.
    fn inner_runs(&self, lat: &Lattice) -> Vec<Run> {
        let reach = lat.reach();
        let (lo, hi) = (self.lo, self.lo + self.dom.len());
        let (first, last) = (lo + reach, hi.saturating_sub(reach));
        let w = lat.width;
        let mut runs = Vec::new();
        for r in (lo / w).max(1)..(hi.div_ceil(w)).min(lat.height.saturating_sub(1)) {
            let from = (r * w + 1).max(first);
            let to = (r * w + w - 1).min(last);
            if from < to {
                runs.push(Run {
                    parity: r % 2,
                    from: from - lo,
                    to: to - lo,
                });
            }
        }
        runs
    }

    /// Revises the open cells of `run` in order, reversed when `backwards`: all of them
    /// (`FULL`) or those a change reached since their last revision (`dirty`). Each
    /// revision is `revise(i)`, the cell's new domain and whether its neighbours must see
    /// it again. Unmarks in `open` the cells it decides, and marks the neighbours of those
    /// it changes in `dirty`, or in `changed_bits` for arc consistency's full sweeps. The
    /// number revised, the number changed, and whether a domain was wiped out.
    ///
    /// A cell decided is not revised again: each neighbour narrowed since read its sides,
    /// so it keeps support.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk_run<const FULL: bool>(
        run: Run,
        backwards: bool,
        steps: &[isize],
        open: &mut [u64],
        dirty: &mut [u64],
        changed_bits: &mut [u64],
        mut revise: impl FnMut(usize) -> (u8, bool),
    ) -> (usize, usize, bool) {
        let last_only = FULL && !R::READS_DOMAINS;
        let (mut revised, mut changed, mut wiped) = (0usize, 0usize, false);
        let (first, last) = (*run.words().start(), *run.words().end());
        for step in 0..=last - first {
            let w = if backwards { last - step } else { first + step };
            let mut bits = open[w] & run.bits_of(w) & if FULL { u64::MAX } else { dirty[w] };
            if !last_only {
                dirty[w] &= !bits;
            }
            let (mut closed, mut moved_bits) = (0u64, 0u64);
            while bits != 0 {
                let b = if backwards {
                    63 - bits.leading_zeros()
                } else {
                    bits.trailing_zeros()
                };
                bits &= !(1 << b);
                let (new, moved) = revise(w * 64 + b as usize);
                revised += 1;
                wiped |= new == 0;
                closed |= (((new & new.wrapping_sub(1)) == 0) as u64) << b;
                moved_bits |= (moved as u64) << b;
            }
            open[w] &= !closed;
            changed += moved_bits.count_ones() as usize;
            if last_only {
                changed_bits[w] |= moved_bits;
                continue;
            }
            // Marked once the word is done, a word at a time: a cell of this word ahead in
            // the sweep and reached by a change waits for the next sweep.
            if moved_bits != 0 {
                for &d in steps {
                    mark_shifted(dirty, w, moved_bits, d);
                }
            }
        }
        (revised, changed, wiped)
    }

    /// Arc consistency's sweep over `run` (see [`Stripe::walk_run`]): each cell revised
    /// against its neighbours' sides.
    #[allow(clippy::too_many_arguments)]
    fn sweep_run<const K: usize, const FULL: bool>(
        &mut self,
        net: &Network,
        lat: &Lattice,
        run: Run,
        backwards: bool,
        open: &mut [u64],
        dirty: &mut [u64],
        changed_bits: &mut [u64],
    ) -> (usize, usize, bool) {
        let table = fit_table(net);
        let (from, len) = (run.from, run.to - run.from);
        let steps = &lat.step[run.parity][..K];
        let (own, next) = run_and_neighbours::<K, u16>(self.sides, run, steps);
        let dom = &mut self.dom[from..][..len];
        let shape = &net.shape[self.lo + from..][..len];
        Self::walk_run::<FULL>(run, backwards, steps, open, dirty, changed_bits, |i| {
            let k = i - from;
            let word = opposite_word::<K>(|s| next[s][k].get()) as u32;
            let sh = shape[k] as usize;
            let req = (word & 0xFF) as usize;
            let fit = table[sh << (2 * K) | req << K | (word >> 8) as usize];
            let new = fit as u8 & dom[k];
            dom[k] = new;
            // Within these sweeps a cell's domain is what its last revision fitted, and
            // the demand only grows: the fit is the new domain but where a domain came
            // in narrower, and its sides are then read without waiting for the domain.
            let new_sides = if new == fit as u8 {
                (fit >> 8) as u16
            } else {
                net.shapes.connects(sh as u8, new)
            };
            let moved = new_sides != own[k].get();
            own[k].set(new_sides);
            (new, moved)
        })
    }

    /// The rule's sweep over `run` (see [`Stripe::walk_run`]): each undecided cell revised
    /// by the rule against what its neighbours show it ([`Rule::shown`], from their shapes
    /// and domains). For an inner cell the rule does arc consistency's work too
    /// ([`Rule::keep_inner`]), so the sides are not read, nor written: the sweeps' caller
    /// brings them up to date ([`Stripe::settle_inner_sides`]). Fitting each cell to its
    /// neighbours' sides first, and writing its own, was a fifth of a 4096x4096
    /// hexagonal maze's sweeps.
    fn sweep_run_rule<const K: usize, const FULL: bool>(
        &mut self,
        net: &Network,
        lat: &Lattice,
        run: Run,
        backwards: bool,
        open: &mut [u64],
        dirty: &mut [u64],
    ) -> (usize, usize, bool) {
        let (from, len) = (run.from, run.to - run.from);
        let (rule, parity) = (self.rule, run.parity);
        let steps = &lat.step[parity][..K];
        let (own_dom, next_dom) = run_and_neighbours::<K, u8>(self.dom, run, steps);
        let shapes = &net.shape[self.lo..];
        let next_shape: [&[u8]; K] =
            std::array::from_fn(|s| &shapes[from.wrapping_add_signed(steps[s])..][..len]);
        let shape = &shapes[from..][..len];
        Self::walk_run::<FULL>(run, backwards, steps, open, dirty, &mut [], |i| {
            let k = i - from;
            let old = own_dom[k].get();
            let new = rule.keep_inner::<K>(shape[k], parity, old, |s| {
                rule.shown(next_shape[s][k], next_dom[s][k].get())
            });
            own_dom[k].set(new);
            (new, new != old)
        })
    }

    /// The sides of the runs' cells from their domains, after a rule's sweeps (which
    /// write none).
    fn settle_inner_sides(&mut self, net: &Network, runs: &[Run]) {
        for run in runs {
            let (lo, from, to) = (self.lo, run.from, run.to);
            for (i, (s, &d)) in self.sides[from..to]
                .iter_mut()
                .zip(&self.dom[from..to])
                .enumerate()
            {
                *s = net.shapes.connects(net.shape[lo + from + i], d);
            }
        }
    }

    /// Marks the runs' cells a change reached after their last revision (`dirty`) and
    /// still undecided.
    fn mark_dirty(&self, runs: &[Run], dirty: &[u64], marks: &mut [u64]) {
        for run in runs {
            for w in run.words() {
                let mut rest = dirty[w] & run.bits_of(w);
                while rest != 0 {
                    let i = w * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if !self.dom[i].is_power_of_two() {
                        marks[w] |= 1 << (i % 64);
                    }
                }
            }
        }
    }

    /// Pulls the demand words of the runs' cells from their neighbours' sides: the sweeps
    /// wrote none.
    fn pull_inner_demands<const K: usize>(&mut self, lat: &Lattice, runs: &[Run]) {
        for run in runs {
            let out = &mut self.demand[run.from..run.to];
            lattice_words::<K>(lat, run.parity, self.sides, run.from, out);
        }
    }

    /// Marks every cell outside `runs`, bringing its demand word up to date with the
    /// stripe's cells (the sweeps never revised it, nor wrote its word).
    fn mark_untouched(&mut self, net: &Network, runs: &[Run], marks: &mut [u64]) {
        let n = self.dom.len();
        let mut at = 0;
        for (from, to) in runs.iter().map(|r| (r.from, r.to)).chain([(n, n)]) {
            for i in at..from {
                marks[i / 64] |= 1 << (i % 64);
                self.refresh_demand(net, i);
            }
            at = to;
        }
    }

    /// Pulls the bits of `i`'s demand word for its neighbours in the stripe from their
    /// sides, keeping those of fixed sides and of other stripes' cells.
    fn refresh_demand(&mut self, net: &Network, i: usize) {
        let (c, k) = (self.lo + i, net.k);
        let mut word = self.demand[i];
        for (s, l) in (0..k).map(|s| (s, net.links.get(c, s))) {
            if let Some(j) = (l < FIXED_ON)
                .then(|| self.local((l >> 3) as usize))
                .flatten()
            {
                let t = s as u32;
                word = with_demand(word, t, demand_bits(self.sides[j], l & 7, t));
            }
        }
        self.demand[i] = word;
    }
}

/// Marks in `marks`, after clearing it, the neighbours of the cells in `changed_bits`
/// (inner cells the last full sweep changed, maybe after some neighbours' revisions).
fn mark_neighbours(lat: &Lattice, runs: &[Run], changed_bits: &[u64], marks: &mut [u64]) {
    marks.fill(0);
    for run in runs {
        for w in run.words() {
            let bits = changed_bits[w] & run.bits_of(w);
            if bits != 0 {
                for &d in &lat.step[run.parity][..lat.sides] {
                    mark_shifted(marks, w, bits, d);
                }
            }
        }
    }
}

/// The fit-and-connects table the sweeps revise by (see [`crate::anyboard::shapes`]).
#[inline(always)]
fn fit_table<'n>(net: &'n Network) -> &'n [u32] {
    let Some(table) = net.shapes.fit_connects_table() else {
        unreachable!("lattice sweeps run only where cells have fit tables");
    };
    table
}

/// `cells` seen as the run's own slice and, per side, the slice of its neighbours across
/// that side (shifted by the side's step), each of the run's length. They are cells: the
/// run writes its own while reading its row's. Inlined, so that the sweep's loop knows
/// every slice's length and checks no bound.
#[inline(always)]
fn run_and_neighbours<'c, const K: usize, T>(
    cells: &'c mut [T],
    run: Run,
    steps: &[isize],
) -> (&'c [Cell<T>], [&'c [Cell<T>]; K]) {
    let (from, len) = (run.from, run.to - run.from);
    let cells = Cell::from_mut(cells).as_slice_of_cells();
    let next = std::array::from_fn(|s| &cells[from.wrapping_add_signed(steps[s])..][..len]);
    (&cells[from..][..len], next)
}

/// Marks in `marks` the cells `d` places after those of `bits`, the cells of word `w`
/// (all of them within the bitmap): two words at most.
#[inline(always)]
fn mark_shifted(marks: &mut [u64], w: usize, bits: u64, d: isize) {
    let at = (w * 64) as isize + d;
    let (q, r) = (at.div_euclid(64), at.rem_euclid(64) as u32);
    let low = bits << r;
    let high = if r == 0 { 0 } else { bits >> (64 - r) };
    if low != 0 {
        marks[q as usize] |= low;
    }
    // `q` is -1 when the word is the first and `d` negative: then only `high` is set.
    if high != 0 {
        marks[(q + 1) as usize] |= high;
    }
}

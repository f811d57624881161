//! The first pass's opening sweeps on a board with a [`Lattice`]: the inner cells of the
//! stripe (see [`Lattice::is_inner`], and with all their neighbours in the stripe) are
//! revised, forwards then backwards, each against its neighbours' sides found by arithmetic.
//! No link is read and no neighbour's word written: a revision is a few loads and stores in
//! memory order. The first sweep revises every inner cell, the later ones the undecided
//! cells only (a bitmap walked a word at a time). The marked sweeps of
//! [`Stripe::fixed_point`] then start from what these leave: the cells they did not revise
//! and the neighbours of the cells the last sweep changed.
//!
//! Sound as any order of revisions is: a cell not revised keeps a larger domain than the
//! fixed point's, and a revision reads its neighbours' current sides.

use std::cell::Cell;

use super::{Lattice, Network, Rule, Stripe, demand_bits};
use crate::anyboard::network::{FIXED_ON, lattice_words, opposite_word, with_demand};
use crate::anyboard::search::{Budget, Stop};

/// Full sweeps go on while one changed at least one inner cell in this many; the marked
/// sweeps take the rest, where a full sweep would revise mostly settled cells.
const FULL_SWEEP_WHILE_CHANGED: usize = 64;
/// At most this many full sweeps.
const MAX_FULL_SWEEPS: usize = 16;

/// A run of inner cells in one row: its row's parity and its positions in the stripe.
#[derive(Clone, Copy)]
struct Run {
    parity: usize,
    from: usize,
    to: usize,
}

impl<R: Rule> Stripe<'_, R> {
    /// The full sweeps, then the marks the marked sweeps start from (`marks` comes in
    /// zeroed, a bit per cell). `Ok(None)` on a wipe-out.
    pub(super) fn lattice_sweeps(
        &mut self,
        net: &Network,
        lat: &Lattice,
        budget: &Budget,
        marks: Vec<u64>,
    ) -> Result<Option<Vec<u64>>, Stop> {
        // The side count a constant, so the loop over the sides unrolls.
        let opposite = lat.faces_opposite();
        match lat.sides {
            6 if opposite => self.full_sweeps::<6>(net, lat, budget, marks),
            4 if opposite => self.full_sweeps::<4>(net, lat, budget, marks),
            _ => {
                let mut marks = marks;
                self.mark_untouched(net, &[], &mut marks);
                Ok(Some(marks))
            }
        }
    }

    fn full_sweeps<const K: usize>(
        &mut self,
        net: &Network,
        lat: &Lattice,
        budget: &Budget,
        mut marks: Vec<u64>,
    ) -> Result<Option<Vec<u64>>, Stop> {
        let runs = self.inner_runs(lat);
        let inner: usize = runs.iter().map(|r| r.to - r.from).sum();
        let mut changed_bits = vec![0u64; marks.len()];
        let mut open = vec![u64::MAX; marks.len()];
        for sweep in 0..MAX_FULL_SWEEPS {
            budget.check()?;
            changed_bits.fill(0);
            let mut changed = 0usize;
            let mut since_check = 0usize;
            let backwards = sweep % 2 == 1;
            for k in 0..runs.len() {
                let run = runs[if backwards { runs.len() - 1 - k } else { k }];
                let (n, wiped) =
                    self.sweep_run::<K>(net, lat, run, backwards, &mut open, &mut changed_bits);
                if wiped {
                    return Ok(None);
                }
                changed += n;
                since_check += run.to - run.from;
                if since_check >= super::CHECK_CELLS {
                    since_check = 0;
                    budget.check()?;
                }
            }
            if changed == 0 || changed * FULL_SWEEP_WHILE_CHANGED < inner {
                break;
            }
        }
        self.pull_inner_demands::<K>(lat, &runs);
        self.mark_untouched(net, &runs, &mut marks);
        mark_neighbours(lat, &runs, &changed_bits, &mut marks);
        Ok(Some(marks))
    }

    /// The inner cells of the stripe whose neighbours are all in it, row by row.
    fn inner_runs(&self, lat: &Lattice) -> Vec<Run> {
        let reach = lat.step[..]
            .iter()
            .flat_map(|row| &row[..lat.sides])
            .map(|s| s.unsigned_abs())
            .max()
            .unwrap_or(0);
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

    /// Revises the undecided cells of `run` (those marked in `open`) in order, reversed
    /// when `backwards`, each against its neighbours' sides; unmarks those it decides and
    /// marks the changed ones in `changed_bits`. The number changed, and whether a domain
    /// was wiped out.
    ///
    /// A cell decided in a sweep is not revised again: each neighbour narrowed since read
    /// its sides, so it keeps support. (The first sweep revises every cell: a shape of one
    /// orientation starts decided.)
    fn sweep_run<const K: usize>(
        &mut self,
        net: &Network,
        lat: &Lattice,
        run: Run,
        backwards: bool,
        open: &mut [u64],
        changed_bits: &mut [u64],
    ) -> (usize, bool) {
        let Some(table) = net.shapes.fit_connects_table() else {
            unreachable!("lattice sweeps run only where cells have fit tables");
        };
        let (from, len) = (run.from, run.to - run.from);
        // Every array as a slice of the run's length (the neighbours' sides as one such
        // slice per side, shifted by the side's step). The sides are cells: the run writes
        // its own while reading its row's.
        let sides = Cell::from_mut(&mut *self.sides).as_slice_of_cells();
        let next: [&[Cell<u16>]; K] = std::array::from_fn(|s| {
            &sides[from.wrapping_add_signed(lat.step[run.parity][s])..][..len]
        });
        let own = &sides[from..][..len];
        let dom = &mut self.dom[from..][..len];
        let shape = &net.shape[self.lo + from..][..len];
        let (mut changed, mut wiped) = (0usize, false);
        let (first, last) = (from / 64, (run.to - 1) / 64);
        for step in 0..=last - first {
            let w = if backwards { last - step } else { first + step };
            // The run's bits of word `w`.
            let (lo, hi) = (from.max(w * 64) - w * 64, run.to.min(w * 64 + 64) - w * 64);
            let mut bits = open[w] & (u64::MAX >> (64 - (hi - lo))) << lo;
            let (mut closed, mut moved_bits) = (0u64, 0u64);
            while bits != 0 {
                let b = if backwards {
                    63 - bits.leading_zeros()
                } else {
                    bits.trailing_zeros()
                };
                bits &= !(1 << b);
                let k = w * 64 + b as usize - from;
                let word = opposite_word::<K>(|s| next[s][k].get()) as u32;
                let sh = shape[k] as usize;
                let req = (word & 0xFF) as usize;
                let fit = table[sh << (2 * K) | req << K | (word >> 8) as usize];
                let old = dom[k];
                let new = fit as u8 & old;
                dom[k] = new;
                // Within these sweeps a cell's domain is what its last revision fitted, and
                // the demand only grows: the fit is the new domain but where a domain came
                // in narrower, and its sides are then read without waiting for the domain.
                own[k].set(if new == fit as u8 {
                    (fit >> 8) as u16
                } else {
                    net.shapes.connects(sh as u8, new)
                });
                let moved = new != old;
                changed += moved as usize;
                wiped |= new == 0;
                closed |= (((new & new.wrapping_sub(1)) == 0) as u64) << b;
                moved_bits |= (moved as u64) << b;
            }
            open[w] &= !closed;
            changed_bits[w] |= moved_bits;
        }
        (changed, wiped)
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
        for (s, &l) in net.links[c * k..c * k + k].iter().enumerate() {
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

/// Marks the neighbours of the cells in `changed_bits` (inner cells the last sweep changed,
/// maybe after some neighbours' revisions).
fn mark_neighbours(lat: &Lattice, runs: &[Run], changed_bits: &[u64], marks: &mut [u64]) {
    for run in runs {
        for i in run.from..run.to {
            if changed_bits[i / 64] >> (i % 64) & 1 == 1 {
                for &step in &lat.step[run.parity][..lat.sides] {
                    let j = i.wrapping_add_signed(step);
                    marks[j / 64] |= 1 << (j % 64);
                }
            }
        }
    }
}

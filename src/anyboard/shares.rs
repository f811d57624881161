//! Running a narrowing pass (the probes) on shares of cells in parallel: one copy of
//! the state per thread, each passing over its own run of consecutive cells (so most of what
//! it settles lies in its run), then every cell kept to what every copy left it and
//! propagated. Each copy only removes orientations in no solution, so their intersection
//! does too; a removal that needed another share's settled cells is missed (the search
//! decides those cells instead).

use super::first_pass::current_threads;
use super::network::{Network, State};
use super::search::{Budget, Stop};
use crate::par::*;

/// Each thread takes at least this many cells, or one thread passes over them all.
const SHARE_CELLS: usize = 1 << 16;

/// A pass over `cells` of a state: `Ok(false)` when it finds no solution.
pub trait Pass: Fn(&Network, &mut State, &[u32], &Budget) -> Result<bool, Stop> + Sync {}
impl<F: Fn(&Network, &mut State, &[u32], &Budget) -> Result<bool, Stop> + Sync> Pass for F {}

/// `pass` over `cells` of `st`, on shares of them in parallel when there are enough (see
/// the module doc).
pub fn in_parallel(
    net: &Network,
    st: &mut State,
    cells: &[u32],
    budget: &Budget,
    pass: impl Pass,
) -> Result<bool, Stop> {
    let threads = current_threads();
    if threads < 2 || cells.len() < 2 * SHARE_CELLS {
        return pass(net, st, cells, budget);
    }
    in_shares(net, st, cells, budget, cells.len().div_ceil(threads), pass)
}

/// [`in_parallel`] with shares of `share` cells (tests use tiny shares).
pub fn in_shares(
    net: &Network,
    st: &mut State,
    cells: &[u32],
    budget: &Budget,
    share: usize,
    pass: impl Pass,
) -> Result<bool, Stop> {
    let base: &State = st;
    let copies: Vec<Result<Option<Vec<u8>>, Stop>> = cells
        .par_chunks(share.max(1))
        .map(|part| {
            let mut copy = base.clone();
            Ok(pass(net, &mut copy, part, budget)?.then_some(copy.dom))
        })
        .collect();
    let mut merged: Option<Vec<u8>> = None;
    // The merge and the first pass after it read every cell again.
    budget.check()?;
    for copy in copies {
        let Some(dom) = copy? else {
            return Ok(false);
        };
        match merged.as_mut() {
            None => merged = Some(dom),
            Some(m) => m.iter_mut().zip(dom).for_each(|(a, b)| *a &= b),
        }
    }
    *st = State::new(net, merged.expect("at least one share"));
    budget.check()?;
    st.propagate_root(net, budget)
}

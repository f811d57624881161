//! Probing (singleton arc consistency): an orientation of a cell whose decision alone
//! propagates to a wipe-out is in no solution, so it is removed. Plain propagation reads one
//! neighbour at a time and leaves most cells of a hexagonal maze undecided (37 thousand of a
//! million at 1024x1024 wrapped, one region of a million cells that the search got lost in);
//! after probing 99 % are decided and the largest region has a few dozen cells.
//!
//! Two things make it cheaper than probing alone: what every kept probe of a cell agrees on
//! is kept (see [`Lift`]; on a hexagonal maze it halves the CPU time, most probes being
//! kept), and each thread probes its own run of cells on its own copy of the state, the
//! copies merged at the end ([`super::shares`]).
//!
//! On levels where no probe refutes anything (the one-end-heavy ones: a decision of a
//! one-end piece never fails nearby) the probes are pure cost, so the pass gives up once a
//! stretch of probes refutes almost nothing. Stopping early is always sound: probing only
//! removes orientations that cannot be in a solution.

use super::network::{Network, State};
use super::search::{Budget, Stop};

/// Revisions a probe may spend before its orientation is kept unrefuted (a cap on the
/// worst case: a maze's probes settle within a few dozen, and 256 refuted as much as 4096).
const PROBE_REACH: usize = 256;
/// Probes between two looks at the budget: each may revise [`PROBE_REACH`] cells, so a
/// stretch between looks stays a few milliseconds.
const PROBE_CHECK: usize = 1 << 10;
/// Probes in a stretch: the yield is judged after each.
const STRETCH: usize = 1 << 14;
/// A stretch that refutes fewer than one probe in this many ends the pass.
const LOW_YIELD: usize = 256;

/// Probes each undecided cell of `cells` (ascending) in `st` (propagated, trail committed),
/// then again each undecided neighbour (between the first and last of `cells`) of a cell
/// narrowed since, until no probe refutes
/// anything or the yield drops (see the module doc). `Ok(false)` when a cell loses every
/// orientation: no solution. The trail is committed on success.
pub fn probe_cells(
    net: &Network,
    st: &mut State,
    cells: &[u32],
    budget: &Budget,
) -> Result<bool, Stop> {
    // Requeued neighbours stay within the span of `cells` (another copy probes the rest).
    let within = match (cells.first(), cells.last()) {
        (Some(&a), Some(&b)) => a as usize..=b as usize,
        _ => return Ok(true),
    };
    let mut queued = vec![false; net.len()];
    for &c in cells {
        queued[c as usize] = true;
    }
    // Popped from the end: cells in memory order, requeued neighbours next.
    let mut queue: Vec<u32> = cells.iter().rev().copied().collect();
    let mut lift = Lift::new(net.len());
    let (mut probes, mut refuted) = (0usize, 0usize);
    while let Some(c) = queue.pop() {
        let c = c as usize;
        queued[c] = false;
        let dom = st.dom[c];
        if dom.count_ones() <= 1 {
            continue;
        }
        let mut keep = 0u8;
        let mut rest = dom;
        while rest != 0 {
            let r = rest & rest.wrapping_neg();
            rest &= rest - 1;
            // Every other orientation refuted: this one stands without a probe (deciding it
            // below propagates it in full).
            if keep == 0 && rest == 0 {
                keep = r;
                break;
            }
            probes += 1;
            if probes.is_multiple_of(PROBE_CHECK) {
                budget.check()?;
            }
            if probes.is_multiple_of(STRETCH) {
                if refuted < STRETCH / LOW_YIELD {
                    st.commit();
                    return Ok(true);
                }
                refuted = 0;
            }
            let mark = st.mark();
            if st.decide_within(net, c, r, PROBE_REACH) {
                keep |= r;
                lift.add(st, mark, c);
            }
            st.undo(net, mark);
        }
        let mark = st.mark();
        let lifted = lift.narrow(st, net);
        refuted += (dom & !keep).count_ones() as usize + lifted;
        if keep == dom && lifted == 0 {
            continue;
        }
        if keep == 0 || !st.decide(net, c, keep) {
            return Ok(false);
        }
        st.undecided_neighbours_since(net, mark, |nb| {
            if !queued[nb] && within.contains(&nb) {
                queued[nb] = true;
                queue.push(nb as u32);
            }
        });
        st.commit();
    }
    Ok(true)
}

/// What every kept probe of one cell agrees on: whichever orientation the cell takes, each
/// other cell ends within the union of its domains at the ends of those probes, so a cell
/// that every kept probe narrowed keeps only that union (a probe cut short at its reach
/// stopped above its fixed point, so the union is only larger: still sound). On a maze
/// most probes are kept, and their common consequences settle cells no refutation reaches.
struct Lift {
    /// Per cell, how many of the kept probes so far narrowed it (reset after each cell).
    seen: Vec<u8>,
    /// Per cell, the union of its domains at the ends of those probes.
    union: Vec<u8>,
    /// The cells the first kept probe narrowed: the only candidates.
    touched: Vec<u32>,
    /// Kept probes of the current cell.
    kept: u8,
}

impl Lift {
    fn new(n: usize) -> Lift {
        Lift {
            seen: vec![0; n],
            union: vec![0; n],
            touched: Vec::new(),
            kept: 0,
        }
    }

    /// Records the domains a kept probe of `cell` left (those narrowed since `mark`).
    fn add(&mut self, st: &State, mark: usize, cell: usize) {
        for x in st.narrowed_since(mark) {
            // Once per probe (the trail may repeat a cell), and only if every kept probe
            // before narrowed it too.
            if x == cell || self.seen[x] != self.kept {
                continue;
            }
            if self.kept == 0 {
                self.touched.push(x as u32);
            }
            self.seen[x] += 1;
            self.union[x] |= st.dom[x];
        }
        self.kept += 1;
    }

    /// Narrows (without propagating) each cell every kept probe narrowed to the union of its
    /// domains, and forgets the cell's probes; the number of orientations removed.
    fn narrow(&mut self, st: &mut State, net: &Network) -> usize {
        let mut removed = 0;
        for &x in &self.touched {
            let x = x as usize;
            if self.kept > 0 && self.seen[x] == self.kept {
                let d = st.dom[x];
                let new = d & self.union[x];
                if new != d {
                    removed += (d & !new).count_ones() as usize;
                    st.set(net, x, new);
                }
            }
            self.seen[x] = 0;
            self.union[x] = 0;
        }
        self.touched.clear();
        self.kept = 0;
        removed
    }
}

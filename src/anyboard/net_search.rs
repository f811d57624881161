//! Solving, counting and the second-solution search for levels the Infinity engine does not
//! take: Net rules, barriers, locked cells. Under Net rules the undecided cells are never
//! independent (one network must join them all), so there is no region split and no product
//! of counts: one depth-first search over the whole level, propagating with
//! [`NetPropagator`] after every decision. Every answer is verified by
//! [`first_fault`](super::net_verify::first_fault) before it is returned.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use super::net::{NetCompiled, NetMark, NetPropagator};
use super::net_verify::first_fault;
use super::network::{Network, State};
use super::regions::regions;
use super::search::{Budget, Stop};
use super::solve::{Count, Outcome, Stats};
use crate::board::{BoardLevel, MAX_SIDES};

/// Nodes between two looks at the clock and the cancel flag.
const CHECK_EVERY: u64 = 256;

/// A depth-first search over a compiled level.
struct NetSearch<'n, 'a> {
    net: &'n Network<'a>,
    prop: NetPropagator,
    st: State,
    nodes: u64,
    cancel: &'n AtomicBool,
    deadline: Option<Instant>,
    /// Per cell, orientations the search tries last (empty: none): the generator's
    /// second-solution search steers away from the intended solution with it.
    avoid: Vec<u8>,
    /// Nodes after which the search stops as if timed out (deterministic, unlike a clock).
    node_limit: u64,
    /// Per cell, the first cell of its cluster: the cells left open at the root, joined
    /// where two are neighbours (see [`NetSearch::pick`]).
    cluster: Vec<u32>,
    /// Per cluster (at its first cell), the decisions in it that failed so far.
    failures: Vec<u32>,
}

/// One decision on the stack: the cell, the orientations not tried yet, the trail mark.
struct Frame {
    cell: u32,
    left: u8,
    mark: usize,
    /// The propagator's own mark at the same point.
    pmark: NetMark,
}

impl<'n, 'a> NetSearch<'n, 'a> {
    /// The propagated root of `compiled`'s level, or `None` when propagation alone shows it
    /// has no solution.
    fn new(
        compiled: &NetCompiled,
        net: &'n Network<'a>,
        cancel: &'n AtomicBool,
        deadline: Option<Instant>,
    ) -> Result<Option<NetSearch<'n, 'a>>, Stop> {
        Self::from_domains(
            compiled,
            compiled.domains.clone(),
            net,
            None,
            cancel,
            deadline,
        )
    }

    /// As [`NetSearch::new`], from `domains` (each a subset of the level's), in the memory
    /// of `recycled` if given.
    fn from_domains(
        compiled: &NetCompiled,
        domains: Vec<u8>,
        net: &'n Network<'a>,
        recycled: Option<NetPropagator>,
        cancel: &'n AtomicBool,
        deadline: Option<Instant>,
    ) -> Result<Option<NetSearch<'n, 'a>>, Stop> {
        if domains.contains(&0) {
            return Ok(None);
        }
        let mut st = State::new(net, domains);
        let mut prop = match recycled {
            Some(old) => NetPropagator::recycle(old, net, compiled.rules),
            None => NetPropagator::new(net, compiled.rules),
        };
        // The sweeps of the first pass (no trail) before the global reasoning: on a board of
        // millions of cells the worklist alone was most of a generator round.
        let budget = Budget {
            cancel,
            halt: None,
            deadline,
            outer: None,
        };
        if !st.propagate_root(net, &budget)? || !prop.fixpoint(net, &mut st) {
            return Ok(None);
        }
        st.commit();
        prop.rebase();
        let cluster = clusters(net, &st, &budget)?;
        Ok(Some(NetSearch {
            failures: vec![0; cluster.len()],
            cluster,
            net,
            prop,
            st,
            nodes: 0,
            cancel,
            deadline,
            avoid: Vec::new(),
            node_limit: u64::MAX,
        }))
    }

    fn check(&self) -> Result<(), Stop> {
        if self.nodes >= self.node_limit {
            return Err(Stop::TimedOut);
        }
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Stop::Cancelled);
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Stop::TimedOut),
            _ => Ok(()),
        }
    }

    /// The undecided cell to branch on: in the cluster of cells left open at the root with
    /// the most failed decisions so far (of equals, the one whose first cell comes first)
    /// that still has one, the cell with the fewest orientations left, the first in cell
    /// order among equals.
    ///
    /// Cluster by cluster, not across the board: with the fewest orientations first over the
    /// whole board, the search laid its decisions along rows 768 cells wide, and a failure in
    /// one cluster sent chronological backtracking through the choices of every cluster
    /// beside it (square Net 768x768, seed 2: no answer in 60 s).
    fn pick(&mut self) -> Option<usize> {
        // Passes the search skipped left decided cells in the list: drop them here, as a
        // pass would.
        self.prop.drop_decided(&self.st);
        let mut best = None;
        let mut best_key = (u32::MAX, u32::MAX, u32::MAX, u32::MAX);
        for &c in self.prop.undecided() {
            let n = self.st.dom[c as usize].count_ones();
            let cluster = self.cluster[c as usize];
            let key = (u32::MAX - self.failures[cluster as usize], cluster, n, c);
            if key < best_key {
                best = Some(c as usize);
                best_key = key;
            }
        }
        best
    }

    /// Visits every solution (all cells decided) until `on_leaf` says stop.
    fn walk(&mut self, mut on_leaf: impl FnMut(&State) -> bool) -> Result<(), Stop> {
        let mut stack: Vec<Frame> = Vec::new();
        'descend: loop {
            match self.pick() {
                // The search's nodes may have skipped the global pass: the full one decides
                // whether a state without choices left is one network.
                None => {
                    if self.prop.fixpoint(self.net, &mut self.st) && !on_leaf(&self.st) {
                        return Ok(());
                    }
                }
                Some(cell) => stack.push(Frame {
                    cell: cell as u32,
                    left: self.st.dom[cell],
                    mark: self.st.mark(),
                    pmark: self.prop.mark(),
                }),
            }
            while let Some(top) = stack.last_mut() {
                self.st.undo(self.net, top.mark);
                self.prop.undo(top.pmark, top.mark);
                if top.left == 0 {
                    stack.pop();
                    continue;
                }
                let cell = top.cell as usize;
                let avoid = self.avoid.get(cell).copied().unwrap_or(0);
                let first = if top.left & !avoid != 0 {
                    top.left & !avoid
                } else {
                    top.left
                };
                let r = first.trailing_zeros();
                top.left &= !(1 << r);
                self.nodes += 1;
                if self.nodes.is_multiple_of(CHECK_EVERY) {
                    self.check()?;
                }
                if self.st.decide(self.net, cell, 1 << r)
                    && self.prop.fixpoint_in_search(self.net, &mut self.st)
                {
                    continue 'descend;
                }
                let cluster = self.cluster[cell] as usize;
                self.failures[cluster] = self.failures[cluster].saturating_add(1);
            }
            return Ok(());
        }
    }
}

/// Per cell, the first cell of its cluster: the regions of `st`'s undecided cells (each
/// region's cells ascending); a decided cell is a cluster of its own.
fn clusters(net: &Network, st: &State, budget: &Budget) -> Result<Vec<u32>, Stop> {
    let mut cluster: Vec<u32> = (0..net.len() as u32).collect();
    for region in regions(net, &st.dom, budget)? {
        for &c in &region {
            cluster[c as usize] = region[0];
        }
    }
    Ok(cluster)
}

/// Solutions of `level` counted by a search whose nodes never run the global pass.
#[cfg(test)]
pub(super) fn count_skipping_passes(level: &BoardLevel) -> u64 {
    let cancel = AtomicBool::new(false);
    let compiled = NetCompiled::new(level);
    let net = compiled.network();
    let Some(mut search) = NetSearch::new(&compiled, &net, &cancel, None).expect("no limit") else {
        return 0;
    };
    search.prop.skip_every_pass();
    let mut n = 0;
    search
        .walk(|_| {
            n += 1;
            true
        })
        .expect("no limit");
    n
}

/// The verified level of a state with every cell decided.
fn assemble(level: &BoardLevel, compiled: &NetCompiled, dom: &[u8]) -> BoardLevel {
    let mut sol = level.clone();
    sol.masks_mut().copy_from_slice(&compiled.masks_of(dom));
    let fault = first_fault(&sol);
    assert!(
        fault.is_none() && sol.is_turning_of(level),
        "the solver's answer failed verification: {fault:?}"
    );
    sol
}

/// Solves `level` under its rules, with its barriers and locks: a verified solution, proof
/// that there is none, or a stop.
pub fn net_solve(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let mut stats = Stats {
        cells: level.board().len(),
        regions: 1,
        largest_region: level.board().len(),
        ..Stats::default()
    };
    let compiled = NetCompiled::new(level);
    let net = compiled.network();
    let mut search = match NetSearch::new(&compiled, &net, cancel, timeout.map(|t| t0 + t)) {
        Ok(Some(search)) => search,
        Ok(None) => {
            stats.propagate_time = t0.elapsed();
            return (Outcome::NoSolution, stats);
        }
        Err(Stop::TimedOut) => return (Outcome::TimedOut, stats),
        Err(Stop::Cancelled) => return (Outcome::Cancelled, stats),
    };
    stats.propagate_time = t0.elapsed();
    stats.fixed_after_propagation = search.st.dom.iter().filter(|d| d.count_ones() == 1).count();
    let t1 = Instant::now();
    let mut found = None;
    let result = search.walk(|st| {
        found = Some(st.dom.clone());
        false
    });
    stats.nodes = search.nodes;
    stats.search_time = t1.elapsed();

    match (result, found) {
        (_, Some(dom)) => {
            let t2 = Instant::now();
            let sol = assemble(level, &compiled, &dom);
            stats.verify_time = t2.elapsed();
            (Outcome::Solved(sol), stats)
        }
        (Ok(()), None) => (Outcome::NoSolution, stats),
        (Err(Stop::TimedOut), None) => (Outcome::TimedOut, stats),
        (Err(Stop::Cancelled), None) => (Outcome::Cancelled, stats),
    }
}

/// Counts the solutions of `level` under its rules, or tells there are more than `limit`.
pub fn net_count(
    level: &BoardLevel,
    limit: Option<u64>,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<(Count, Stats), Stop> {
    let t0 = Instant::now();
    let mut stats = Stats {
        cells: level.board().len(),
        regions: 1,
        largest_region: level.board().len(),
        ..Stats::default()
    };
    let compiled = NetCompiled::new(level);
    let net = compiled.network();
    let Some(mut search) = NetSearch::new(&compiled, &net, cancel, timeout.map(|t| t0 + t))? else {
        return Ok((Count::Exact(BigUint::ZERO), stats));
    };
    stats.propagate_time = t0.elapsed();
    stats.fixed_after_propagation = search.st.dom.iter().filter(|d| d.count_ones() == 1).count();
    let cap = limit.unwrap_or(u64::MAX - 1);
    let mut n = 0u64;
    search.walk(|_| {
        n += 1;
        n <= cap
    })?;
    stats.nodes = search.nodes;
    stats.search_time = t0.elapsed() - stats.propagate_time;
    Ok(match n > cap {
        true => (Count::MoreThan(cap), stats),
        false => (Count::Exact(BigUint::from(n)), stats),
    })
}

/// Every solution of `level` under its rules, one at a time: the Net engine's search over the
/// whole board (no region split under Net rules), each solution verified and handed to `each`
/// until it returns false, the search is exhausted, or the deadline or `cancel` stops it.
/// Two solutions differ in some cell's connections; none is handed out twice.
pub fn net_solutions(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
    mut each: impl FnMut(BoardLevel) -> bool,
) -> Result<(), Stop> {
    let compiled = NetCompiled::new(level);
    let net = compiled.network();
    let deadline = timeout.map(|t| Instant::now() + t);
    let Some(mut search) = NetSearch::new(&compiled, &net, cancel, deadline)? else {
        return Ok(());
    };
    search.walk(|st| each(assemble(level, &compiled, &st.dom)))?;
    Ok(())
}

/// Up to two verified solutions of `level` under its rules: none, the only one, or two.
pub fn net_two_solutions(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<Vec<BoardLevel>, Stop> {
    let compiled = NetCompiled::new(level);
    let net = compiled.network();
    let deadline = timeout.map(|t| Instant::now() + t);
    let Some(mut search) = NetSearch::new(&compiled, &net, cancel, deadline)? else {
        return Ok(Vec::new());
    };
    let mut found: Vec<Vec<u8>> = Vec::new();
    search.walk(|st| {
        found.push(st.dom.clone());
        found.len() < 2
    })?;
    Ok(found
        .iter()
        .map(|dom| assemble(level, &compiled, dom))
        .collect())
}

/// What one round of the Net generator learns about a scrambled level (see
/// [`net_round`]).
pub enum NetRound {
    /// Propagation, or a search of the whole level, proves the intended solution the only
    /// one.
    Unique,
    /// Propagation left cells undecided and the round did not search: the domains.
    Undecided(Vec<u8>),
    /// A verified solution other than the intended one.
    Other(BoardLevel),
}

/// Whether a generator round searches for a second solution.
pub enum RoundSearch {
    /// No: propagation only.
    No,
    /// Yes, but give up after this many nodes (the round then reports the propagated
    /// domains, as without a search).
    Bounded(u64),
    /// Yes, to the end.
    Full,
}

/// One round of the Net generator on `level`, a scrambling of `intended`: propagates once
/// and, when `search` says so of the number of cells left undecided, searches the whole
/// level from that same root for a solution other than the intended one. The search tries
/// the intended orientation of a cell last, so the solution it finds differs from the
/// intended one in as many independent ambiguous areas as it can (the generator settles
/// them all in one round). `Unique` comes only from propagation or that exhausted search.
///
/// With `free`, only the cells it names may turn; the others keep their intended
/// orientation. `Other` is then still a solution of the whole level (verified as such in
/// debug builds only: it is never an answer), but `Unique` says only that no other solution
/// agrees with the intended one outside `free`: a cheap look at the areas a generator just
/// changed, not a proof for the level.
///
/// `scratch` keeps the global propagator's memory from one round to the next.
pub fn net_round(
    level: &BoardLevel,
    intended: &BoardLevel,
    free: Option<&[bool]>,
    search: impl Fn(usize) -> RoundSearch,
    scratch: &mut Option<NetPropagator>,
    cancel: &AtomicBool,
) -> Result<NetRound, Stop> {
    let compiled = NetCompiled::new(level);
    let net = compiled.network();
    // A mask on a cell of a given side count is one orientation of one shape: its bit,
    // looked up once per mask and count (a lookup per cell was a tenth of a 4096x4096
    // windowed round). The count matters on mixed grids: 0b1001 is a corner turned three
    // times on a square and a shape of its own on an octagon.
    let board = level.board();
    let mut bit_of = [[0u8; 256]; MAX_SIDES + 1];
    let mut intended_bit = |c: usize| {
        let m = intended.masks()[c] as usize;
        let k = board.cell_sides(c) as usize;
        if bit_of[k][m] == 0 {
            bit_of[k][m] = compiled.orientation_bit(c, m as u8);
        }
        bit_of[k][m]
    };
    let mut domains = compiled.domains.clone();
    if let Some(free) = free {
        for (c, d) in domains.iter_mut().enumerate() {
            if !free[c] {
                *d &= intended_bit(c);
            }
        }
    }
    let mut root = NetSearch::from_domains(&compiled, domains, &net, scratch.take(), cancel, None)?
        .expect("the intended solution survives propagation");
    let round = settle(&mut root, level, &compiled, free, search, intended_bit);
    *scratch = Some(root.prop);
    round
}

/// The rest of [`net_round`] from its propagated root: the search, if any, and the answer.
fn settle(
    root: &mut NetSearch<'_, '_>,
    level: &BoardLevel,
    compiled: &NetCompiled,
    free: Option<&[bool]>,
    search: impl Fn(usize) -> RoundSearch,
    mut intended_bit: impl FnMut(usize) -> u8,
) -> Result<NetRound, Stop> {
    let undecided: Vec<usize> = (0..level.board().len())
        .filter(|&c| root.st.dom[c].count_ones() > 1)
        .collect();
    if undecided.is_empty() {
        return Ok(NetRound::Unique);
    }
    let root_dom = match search(undecided.len()) {
        RoundSearch::No => return Ok(NetRound::Undecided(std::mem::take(&mut root.st.dom))),
        RoundSearch::Bounded(nodes) => {
            root.node_limit = nodes;
            Some(root.st.dom.clone())
        }
        RoundSearch::Full => None,
    };
    let want: Vec<(usize, u8)> = undecided.iter().map(|&c| (c, intended_bit(c))).collect();
    root.avoid = vec![0; level.board().len()];
    for &(c, bit) in &want {
        root.avoid[c] = bit;
    }
    let mut found = None;
    let walked = root.walk(|st| {
        // Decided at the root means as intended: the intended solution is one.
        if want.iter().any(|&(c, bit)| st.dom[c] != bit) {
            found = Some(st.dom.clone());
            return false;
        }
        true
    });
    match (walked, root_dom) {
        (Err(Stop::TimedOut), Some(dom)) if root.nodes >= root.node_limit => {
            return Ok(NetRound::Undecided(dom));
        }
        (walked, _) => walked?,
    }
    Ok(match found {
        Some(dom) if free.is_some() => {
            // A look at a few areas of a board of millions of cells, answered many times
            // a level, to steer the generator's next changes (its final answer comes from
            // a round of the whole level): the whole-level verification was a fifth of a
            // 4096x4096 generation. The search's leaf is a tree by construction (no union
            // closed a loop, no island passed the bridge pass); debug builds still check.
            let mut sol = level.clone();
            sol.masks_mut().copy_from_slice(&compiled.masks_of(&dom));
            debug_assert!(first_fault(&sol).is_none() && sol.is_turning_of(level));
            NetRound::Other(sol)
        }
        Some(dom) => NetRound::Other(assemble(level, compiled, &dom)),
        None => NetRound::Unique,
    })
}

/// Solves `level` with the engine its rules need: the Infinity engine (region split, product
/// counts) when it has neither Net rules, barriers nor locks, this one otherwise.
pub fn solve_level(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> (Outcome, Stats) {
    // A count the propagators cannot see: their search only ends it by exhausting the
    // board (hexagonal three-cell paths 40x24 with one side flipped: no answer in 60 s).
    if level.odd_ends() {
        return (Outcome::NoSolution, unsearched(level));
    }
    if level.needs_net_engine() {
        net_solve(level, timeout, cancel)
    } else if super::square_wrap::takes(level) {
        super::square_wrap::solve(level, timeout, cancel)
    } else {
        super::solve::solve(level, timeout, cancel)
    }
}

/// The figures of a level settled before any propagation.
fn unsearched(level: &BoardLevel) -> Stats {
    Stats {
        cells: level.board().len(),
        ..Stats::default()
    }
}

/// Counts as [`solve_level`] chooses.
pub fn count_level(
    level: &BoardLevel,
    limit: Option<u64>,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<(Count, Stats), Stop> {
    if level.odd_ends() {
        return Ok((Count::Exact(BigUint::ZERO), unsearched(level)));
    }
    if level.needs_net_engine() {
        net_count(level, limit, timeout, cancel)
    } else {
        super::solve::count(level, limit, timeout, cancel)
    }
}

/// Up to two solutions as [`solve_level`] chooses.
pub fn two_solutions_level(
    level: &BoardLevel,
    timeout: Option<Duration>,
    cancel: &AtomicBool,
) -> Result<Vec<BoardLevel>, Stop> {
    if level.odd_ends() {
        return Ok(Vec::new());
    }
    if level.needs_net_engine() {
        net_two_solutions(level, timeout, cancel)
    } else {
        super::solve::two_solutions(level, timeout, cancel)
    }
}

//! One region searched from its repaired near-solution ([`super::repair`]). With no defect
//! left the near-solution is the answer. Otherwise only the cells around the defects are
//! searched, every other cell held at its turn: a ball of a few cells' radius around each
//! defect, and where a ball's ends cannot pair up among themselves (their count is odd:
//! its defect pairs with one further away) a corridor along a shortest path to the nearest
//! other such ball, as wide as the balls. Each part so joined is a search of its own; a
//! part without a solution (or whose search meets many conflicts) makes every ball and
//! corridor of the next round fourfold wider. Once the parts would cover half the region
//! the whole region is searched, so "no solution" is only ever said of the whole region:
//! by its search, or first by a count of its ends (odd, or two colours' ends unequal on a
//! square board), which clause learning could not see in reasonable time. On levels of mostly one-end pieces on hexagonal boards the walks leave a
//! handful of defects among tens of thousands of cells, and a search of the whole board
//! spends thousands of conflicts (and their long backjumps) finding what a part of a few
//! hundred cells settles at once.

use super::clauses::Lit;
use super::edges::{Edges, NO_EDGE};
use super::phase::matching_phases;
use super::repair::{defect_cells, phases_of, repaired};
use super::search::{Counters, Phases, Solver, Tuning, UNSET};
use crate::anyboard::search::{Budget, Stop};
use crate::par::*;

/// The radius of the first balls, in steps from cell to neighbouring cell.
const FIRST_RADIUS: usize = 3;
/// How much the balls and corridors grow after a round with a part left unsolved.
const GROWTH: usize = 4;
/// Conflicts a part's search may meet (or half its cells, if more) before it is taken as
/// one without a solution: a part with none can be a pigeonhole (more ends than places
/// for them, in a way no count shows), which clause learning refutes only slowly, while a
/// part with one is solved in a few hundred conflicts at most. A part is small, so its
/// conflicts are cheap: a tighter limit made parts that had a solution grow, and the
/// larger parts then needed more.
const PART_CONFLICTS: u64 = 4096;

const NONE: u32 = u32::MAX;

/// The cells [`Neighbourhoods::unpairable_region`] looks among for a triangle.
const TRIANGLE_SEARCH: usize = 64;

/// A region's search, as [`solve_region`] leaves it.
pub(super) struct Answer {
    /// Whether the region has a solution (or why the search stopped).
    pub end: Result<bool, Stop>,
    /// Per cell of the region, the mask of its turn once solved (empty otherwise).
    pub masks: Vec<u8>,
    pub stats: Counters,
    /// The clauses learned, when asked to record them (whole-region searches only).
    pub record: Option<Vec<Vec<Lit>>>,
    /// The whole region's search, when its time ran out: [`resume`] carries it on.
    pub paused: Option<Paused>,
}

/// A whole region's search its time slice stopped, with the counters of what came before
/// it (the walks and the neighbourhoods' searches), for the searches after the slice to
/// carry on rather than start again: hexagonal three-cell paths 256x256 (seed 2) need about
/// 9k conflicts, a little more than `auto`'s first slice, and starting over after it took
/// the level from 5.95 s to 10.8 s.
pub(super) struct Paused {
    solver: Box<Solver>,
    before: Counters,
}

impl Paused {
    /// The number of edges of the region searched.
    pub fn edges(&self) -> usize {
        self.solver.e.connections()
    }
}

/// Searches the region `e` (see the module doc). With `record` (tests), or with phases
/// other than the near-solution, the whole region is searched at once: clauses learned in
/// a part hold only while the cells around it keep their turns, so they are not implied by
/// the level and could not be checked as such.
pub(super) fn solve_region(
    e: Edges,
    budget: &Budget,
    record: bool,
    (phases, tuning): (Phases, Tuning),
) -> Answer {
    // One scratch for the count and the rounds: its arrays are 17 bytes a cell, and fresh
    // pages cost their first touch.
    let mut nb = Neighbourhoods::new(&e);
    if nb.unpairable_region() {
        return Answer {
            end: Ok(false),
            masks: Vec::new(),
            stats: Counters::default(),
            record: record.then(Vec::new),
            paused: None,
        };
    }
    if record || phases != Phases::Matching {
        drop(nb);
        let mut s = Solver::new(e, phases);
        if record {
            s.record = Some(Vec::new());
        }
        return whole(s, budget, Counters::default(), tuning);
    }
    let near = matching_phases(&e, &|| budget.check().is_err());
    let mask = match budget.check().and_then(|()| repaired(&e, &near, budget)) {
        Ok(Some(mask)) => mask,
        // A cell without a turn: the root propagation says so.
        Ok(None) => {
            return whole(
                Solver::with_phases(e, near),
                budget,
                Counters::default(),
                tuning,
            );
        }
        Err(stop) => {
            return Answer {
                end: Err(stop),
                masks: Vec::new(),
                stats: Counters::default(),
                record: None,
                paused: None,
            };
        }
    };
    nb.mask = mask;
    let mut radius = FIRST_RADIUS;
    let mut defects = defect_cells(&e, &nb.mask);
    nb.stats.defects_left = defects.len() as u64;
    loop {
        if defects.is_empty() {
            return Answer {
                end: Ok(true),
                masks: nb.mask,
                stats: nb.stats,
                record: None,
                paused: None,
            };
        }
        let cells = nb.cover(&defects, radius);
        if cells.len() * 2 > e.cells() {
            // Not from the held turns: a search that follows them builds everything
            // around a far-paired defect first and then digs its way back to it.
            let stats = nb.stats;
            return whole(Solver::with_phases(e, near), budget, stats, tuning);
        }
        // The parts touch no common edge: each is built against the same held values and
        // searched apart, in parallel.
        let mut grow = false;
        let mut held = phases_of(&e, &nb.mask);
        let mut jobs = Vec::new();
        for part in nb.parts(&cells) {
            match nb.subproblem(&part, &mut held) {
                Some((sub, phase)) => jobs.push((part, sub, phase)),
                None => grow = true,
            }
        }
        let answers: Vec<_> = jobs
            .into_par_iter()
            .map(|(part, sub, phase)| (part, search_part(sub, phase, budget)))
            .collect();
        let mut stop = None;
        for (part, answer) in answers {
            nb.stats.add(&answer.stats);
            match answer.end {
                Ok(Some(masks)) => {
                    for (&c, m) in part.iter().zip(masks) {
                        nb.mask[c as usize] = m;
                    }
                }
                Ok(None) => grow = true,
                Err(s) => stop = Some(s),
            }
        }
        if let Some(stop) = stop {
            return Answer {
                end: Err(stop),
                masks: Vec::new(),
                stats: nb.stats,
                record: None,
                paused: None,
            };
        }
        let left = defect_cells(&e, &nb.mask);
        if grow || left.len() >= defects.len() {
            radius *= GROWTH;
        }
        defects = left;
    }
}

/// The whole region searched by `s` as `tuning` says, its counters added to `stats`.
fn whole(mut s: Solver, budget: &Budget, stats: Counters, tuning: Tuning) -> Answer {
    s.tuning = tuning;
    let end = s.run(budget);
    finished(s, end, stats)
}

/// Carries on a whole region's search its time slice stopped ([`Answer::paused`]), as
/// `tuning` says. Its counters go on from where they were.
pub(super) fn resume(paused: Paused, budget: &Budget, tuning: Tuning) -> Answer {
    let Paused { solver, before } = paused;
    let mut s = *solver;
    s.tuning = tuning;
    let end = budget.check().and_then(|()| s.search(budget));
    finished(s, end, before)
}

/// The whole region's search of `e` from the near-solution's phases, stopped after
/// `conflicts` conflicts (and then free to go on without a limit); `None` when it ended
/// before (tests).
#[cfg(test)]
pub(super) fn paused_after(e: Edges, conflicts: u64) -> Option<Paused> {
    let mut s = Solver::new(e, Phases::Matching);
    s.conflict_limit = conflicts;
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let budget = Budget {
        cancel: &cancel,
        halt: None,
        deadline: None,
        outer: None,
    };
    let mut paused = whole(s, &budget, Counters::default(), super::search::TUNING).paused?;
    paused.solver.conflict_limit = u64::MAX;
    Some(paused)
}

/// The answer of the whole region's search `s` that ended with `end`, its counters added
/// to `stats`; the search is kept when its time ran out.
fn finished(mut s: Solver, end: Result<bool, Stop>, before: Counters) -> Answer {
    let mut stats = before.clone();
    stats.add(&s.stats);
    let masks = match end {
        Ok(true) => s.e.turns(s.values()).collect(),
        _ => Vec::new(),
    };
    let record = s.record.take();
    Answer {
        end,
        masks,
        stats,
        record,
        paused: matches!(end, Err(Stop::TimedOut)).then(|| Paused {
            solver: Box::new(s),
            before,
        }),
    }
}

/// The held turns and the scratch of the parts' searches.
struct Neighbourhoods<'a> {
    e: &'a Edges,
    /// Per cell, the mask of its turn.
    mask: Vec<u8>,
    /// Per cell, its side of a two-colouring while [`Self::unpairable`] runs.
    colour: Vec<u8>,
    stats: Counters,
    /// Scratch of [`Edges::region`].
    local: Vec<u32>,
    /// Per cell, one more than the part it is in while parts are looked at, or 0.
    part: Vec<u32>,
    /// Per cell, the cell a breadth-first search reached it from, valid where `stamp` is
    /// the search's.
    parent: Vec<u32>,
    stamp: Vec<u32>,
    now: u32,
}

impl<'a> Neighbourhoods<'a> {
    /// Scratch for `e`, no turns held yet.
    fn new(e: &'a Edges) -> Neighbourhoods<'a> {
        let n = e.cells();
        Neighbourhoods {
            e,
            mask: Vec::new(),
            colour: vec![0; n],
            stats: Counters::default(),
            // Zeroed, so that only the pages a round touches are ever mapped: at 4096x4096
            // each is 67 MB, and filling them was as slow as zeroing them on this host.
            local: vec![0; n],
            part: vec![0; n],
            parent: vec![0; n],
            stamp: vec![0; n],
            now: 0,
        }
    }

    /// The cells to search around `defects` (ascending): balls of `radius` around them,
    /// and corridors of that width joining each ball of odd ends to the nearest other.
    fn cover(&mut self, defects: &[u32], radius: usize) -> Vec<u32> {
        let balls = self.ball(defects, radius);
        let parts = self.parts(&balls);
        let odd: Vec<bool> = parts.iter().map(|p| self.odd(p)).collect();
        if !odd.contains(&true) {
            return balls;
        }
        for (i, p) in parts.iter().enumerate() {
            for &c in p {
                self.part[c as usize] = i as u32 + 1;
            }
        }
        let mut paired = vec![false; parts.len()];
        let mut paths = Vec::new();
        for i in 0..parts.len() {
            if odd[i]
                && !paired[i]
                && let Some((j, path)) = self.path_to_odd(&parts[i], i as u32, &odd, &paired)
            {
                paired[i] = true;
                paired[j] = true;
                paths.extend(path);
            }
        }
        for &c in &balls {
            self.part[c as usize] = 0;
        }
        let mut cells = self.ball(&paths, radius);
        cells.extend(balls);
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The cells at most `radius` steps from one of `from`, ascending.
    fn ball(&mut self, from: &[u32], radius: usize) -> Vec<u32> {
        self.now += 1;
        let now = self.now;
        let mut queue: Vec<u32> = Vec::with_capacity(from.len());
        for &c in from {
            if self.stamp[c as usize] != now {
                self.stamp[c as usize] = now;
                queue.push(c);
            }
        }
        let (mut head, mut dist, mut level_end) = (0, 0, queue.len());
        while head < queue.len() {
            if head == level_end {
                dist += 1;
                level_end = queue.len();
            }
            if dist == radius {
                break;
            }
            let c = queue[head];
            head += 1;
            for d in (0..self.e.k).filter_map(|s| neighbour(self.e, c, s)) {
                if self.stamp[d as usize] != now {
                    self.stamp[d as usize] = now;
                    queue.push(d);
                }
            }
        }
        queue.sort_unstable();
        queue
    }

    /// `cells` (ascending) split into the parts joined by edges between them, each
    /// ascending.
    fn parts(&mut self, cells: &[u32]) -> Vec<Vec<u32>> {
        self.now += 1;
        let now = self.now;
        let wanted = now.wrapping_add(1);
        for &c in cells {
            self.stamp[c as usize] = wanted;
        }
        let mut out = Vec::new();
        for &c in cells {
            if self.stamp[c as usize] != wanted {
                continue;
            }
            self.stamp[c as usize] = now;
            let mut members = vec![c];
            let mut head = 0;
            while head < members.len() {
                let x = members[head];
                head += 1;
                for d in (0..self.e.k).filter_map(|s| neighbour(self.e, x, s)) {
                    if self.stamp[d as usize] == wanted {
                        self.stamp[d as usize] = now;
                        members.push(d);
                    }
                }
            }
            members.sort_unstable();
            out.push(members);
        }
        self.now += 1;
        out
    }

    /// Whether the ends the cells of `part` must join among themselves (each piece's ends
    /// less those the held turns around it and the fixed sides take) add up to an odd
    /// number: each edge joins two, so the part has no solution of its own.
    fn odd(&mut self, part: &[u32]) -> bool {
        self.now += 1;
        let now = self.now;
        for &c in part {
            self.stamp[c as usize] = now;
        }
        part.iter()
            .map(|&c| self.demand(c as usize, now))
            .sum::<i64>()
            % 2
            != 0
    }

    /// The ends cell `c` must join to cells stamped `now`: its piece's, less its fixed
    /// sides and the connections its held turn makes to cells not stamped.
    fn demand(&self, c: usize, now: u32) -> i64 {
        let e = self.e;
        let mut d = e.mask(c, 0).count_ones() as i64 - e.fixed[c].count_ones() as i64;
        for s in 0..e.k {
            if let Some(x) = neighbour(e, c as u32, s)
                && self.stamp[x as usize] != now
                && self.mask[c] >> s & 1 == 1
            {
                d -= 1;
            }
        }
        d
    }

    /// Whether the cells `cells` cannot join their ends among themselves, cells further
    /// away held ([`Self::demand`]): in some group of them joined by edges, the ends add up
    /// to an odd number, or the group is two-coloured by its edges (a square board) and
    /// the two colours' ends differ. Each edge joins two cells, of the two colours where
    /// there are colours. These are counting arguments, which clause learning could only
    /// rediscover through exponentially many conflicts. Leaves `cells` stamped.
    fn unpairable(&mut self, cells: &[u32]) -> bool {
        const NO_COLOUR: u8 = 2;
        let e = self.e;
        self.now += 1;
        let now = self.now;
        for &c in cells {
            self.stamp[c as usize] = now;
            self.colour[c as usize] = NO_COLOUR;
        }
        let mut queue = Vec::new();
        for &root in cells {
            if self.colour[root as usize] != NO_COLOUR {
                continue;
            }
            let (mut sums, mut two_coloured) = ([0i64; 2], true);
            self.colour[root as usize] = 0;
            queue.clear();
            queue.push(root);
            let mut head = 0;
            while head < queue.len() {
                let x = queue[head] as usize;
                head += 1;
                sums[self.colour[x] as usize] += self.demand(x, now);
                for s in 0..e.k {
                    let Some(y) = neighbour(e, x as u32, s) else {
                        continue;
                    };
                    if self.stamp[y as usize] != now {
                        continue;
                    }
                    if self.colour[y as usize] == NO_COLOUR {
                        self.colour[y as usize] = 1 - self.colour[x];
                        queue.push(y);
                    } else if self.colour[y as usize] == self.colour[x] {
                        two_coloured = false;
                    }
                }
            }
            if (sums[0] + sums[1]) % 2 != 0 || (two_coloured && sums[0] != sums[1]) {
                return true;
            }
        }
        false
    }

    /// [`Self::unpairable`] of every cell of the region, whose cells are joined by its
    /// edges (a region is a component of the open edges, see `regions.rs`): where a few of
    /// its cells show a triangle, it has no two-colouring, and only the parity of all its
    /// ends counts, a pass in cell order. The search through the cells' neighbours it
    /// saves was 3 s of a 4096x4096 hexagonal solve, and the list of all cells it needs
    /// another 0.25 s there.
    fn unpairable_region(&mut self) -> bool {
        let e = self.e;
        let cells = 0..e.cells() as u32;
        let triangle = |c: u32| {
            (0..e.k).any(|s| {
                let (a, b) = (neighbour(e, c, s), neighbour(e, c, (s + 1) % e.k));
                a.zip(b)
                    .is_some_and(|(a, b)| (0..e.k).any(|t| neighbour(e, a, t) == Some(b)))
            })
        };
        if !cells.clone().take(TRIANGLE_SEARCH).any(triangle) {
            let all: Vec<u32> = cells.collect();
            return self.unpairable(&all);
        }
        // Every side of a region's cell is a wall, a fixed connection or an edge to another
        // of its cells: the ends to join are the piece's less the fixed ones.
        let ends: i64 = cells
            .map(|c| {
                let c = c as usize;
                i64::from(e.mask(c, 0).count_ones()) - i64::from(e.fixed[c].count_ones())
            })
            .sum();
        ends % 2 != 0
    }

    /// A shortest path of cells from part `from` (cells `cells`) to a part of odd ends not
    /// yet paired: that part and the path's cells outside both parts.
    fn path_to_odd(
        &mut self,
        cells: &[u32],
        from: u32,
        odd: &[bool],
        paired: &[bool],
    ) -> Option<(usize, Vec<u32>)> {
        self.now += 1;
        let now = self.now;
        let mut queue = cells.to_vec();
        for &c in cells {
            self.stamp[c as usize] = now;
            self.parent[c as usize] = NONE;
        }
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            for d in (0..self.e.k).filter_map(|s| neighbour(self.e, c, s)) {
                if self.stamp[d as usize] == now {
                    continue;
                }
                self.stamp[d as usize] = now;
                self.parent[d as usize] = c;
                let p = self.part[d as usize].wrapping_sub(1);
                if p != NONE && p != from && odd[p as usize] && !paired[p as usize] {
                    let mut path = Vec::new();
                    let mut x = c;
                    while self.parent[x as usize] != NONE {
                        path.push(x);
                        x = self.parent[x as usize];
                    }
                    return Some((p as usize, path));
                }
                queue.push(d);
            }
        }
        None
    }

    /// The search problem of `part` (ascending) with every cell around it held, and its
    /// held phases; `None` when its ends cannot pair up ([`Self::unpairable`]).
    fn subproblem(&mut self, part: &[u32], held: &mut [u8]) -> Option<(Edges, Vec<u8>)> {
        let e = self.e;
        self.stats.neighbourhoods += 1;
        if self.unpairable(part) {
            return None;
        }
        // The edges between two cells of the part are open; the others keep the values of
        // the held turns (no defect there: every defect cell is in some part).
        // `unpairable` left the part's cells stamped.
        let now = self.now;
        let mut opened = Vec::new();
        for &c in part {
            for s in 0..e.k {
                let v = e.edge(c as usize, s);
                if v == NO_EDGE {
                    continue;
                }
                let [a, b] = e.ends(v).map(|x| x >> 3);
                if self.stamp[a as usize] == now
                    && self.stamp[b as usize] == now
                    && held[v as usize] != UNSET
                {
                    opened.push((v, held[v as usize]));
                    held[v as usize] = UNSET;
                }
            }
        }
        let (sub, old) = e.region(held, part, &mut self.local, true);
        for &(v, x) in &opened {
            held[v as usize] = x;
        }
        let phase = old.iter().map(|&v| held[v as usize]).collect();
        Some((sub, phase))
    }
}

/// What one part's search found: per cell of the part its turn's mask when solved, and
/// the search's figures.
struct PartAnswer {
    end: Result<Option<Vec<u8>>, Stop>,
    stats: Counters,
}

/// Searches the part `sub` (its cells held around it), first from the held turns'
/// `phase`, then from none connected: a part whose defect needs a long chain of changes
/// traps a search that follows the held turns. A search that meets its conflict limit
/// counts as one without a solution.
fn search_part(sub: Edges, phase: Vec<u8>, budget: &Budget) -> PartAnswer {
    let mut stats = Counters::default();
    let limit = PART_CONFLICTS.max(sub.cells() as u64 / 2);
    let none = vec![0; phase.len()];
    for first in [phase, none] {
        let mut s = Solver::with_phases(sub.clone(), first);
        s.conflict_limit = limit;
        let end = s.run(budget);
        stats.add(&s.stats);
        let gave_up = s.stats.conflicts >= limit && budget.check().is_ok();
        let end = match end {
            Err(_) if gave_up => continue,
            Ok(true) => Ok(Some(s.e.turns(s.values()).collect())),
            Ok(false) => Ok(None),
            Err(stop) => Err(stop),
        };
        return PartAnswer { end, stats };
    }
    PartAnswer {
        end: Ok(None),
        stats,
    }
}

/// The neighbour of `c` across side `s`, if an edge joins them.
#[inline]
fn neighbour(e: &Edges, c: u32, s: usize) -> Option<u32> {
    e.across(c as usize, s).map(|(m, _)| m as u32)
}

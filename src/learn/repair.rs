//! Repair of a near-solution by defect walks, before the search sees it. Every cell takes
//! one allowed turn; a *defect* is a pair of facing sides of which one is connected and
//! the other not, or a connected side at a wall (border, barrier, a region's rim found
//! unconnected), or an unconnected side the rim requires. A walk turns a chain of cells,
//! each by a turn that changes exactly two of its sides: the side the walk comes in by (so
//! the pair it shares with the cell before agrees again) and the side it leaves by. A walk
//! that starts at one defect and leaves its last cell by another defect removes both; it
//! is found breadth first over (cell, side) steps, the alternating path of matching
//! generalised to pieces of any shape (a one-end piece passes a walk on between any two
//! sides; a corner only between sides its turns swap; a straight piece on a hexagonal
//! cell, whose every turn changes four sides, never); a turn that changes four sides or
//! more is tried at a walk's start, with a walk from each side it disturbs (an
//! *ejection*). A near-solution with no defect left is a solution; the defects left are
//! searched around ([`super::local`]). The walks are a heuristic: every answer is still
//! verified, and "no solution" still comes from a count or a search of the whole region.

use super::edges::{Edges, NO_EDGE};
use crate::anyboard::network::PARALLEL_CELLS;
use crate::anyboard::search::{Budget, Stop};
use crate::par::*;

/// Steps one walk search may reach before it gives up, in one pass over the defects: most
/// defects pair with one nearby, and a search that fails costs its whole reach. What the
/// pass leaves goes to the search around the defects (`super::local`), which settles a
/// far-paired defect for less than longer walks find it: hexagonal dominoes, min of 3 to 7
/// interleaved solves, with a second pass at reach 2,048 before: 2048x2048 11.7 -> 5.9 s
/// (wrapped 9.5 -> 6.9 s), 1024x1024 1.51 -> 1.35 s, 512x512 seed 2 1.18 -> 0.58 s, seeds
/// 1 and 3 within the noise. (A second pass at the same reach found almost nothing: 1
/// walk for 734 defects at 1024x1024.)
const REACH: usize = 1 << 8;

const NONE: u32 = u32::MAX;
/// Defects walked from between two looks at the budget (a failed walk costs its reach).
const CHECK_WALKS: usize = 64;

/// The phases `phases` (per edge, 1 connected) made into one turn per cell and repaired
/// by walks: per cell, the mask of its turn. `None` when a cell has no turn allowed.
/// Stops with the budget's reason once it is spent.
pub(super) fn repaired(e: &Edges, phases: &[u8], budget: &Budget) -> Result<Option<Vec<u8>>, Stop> {
    let Some(mut walks) = Walks::new(e, phases) else {
        return Ok(None);
    };
    walks.repair_all(budget)?;
    Ok(Some(walks.mask))
}

/// Per edge, whether the turns `mask` connect it (by the edge's first cell, where the two
/// disagree).
pub(super) fn phases_of(e: &Edges, mask: &[u8]) -> Vec<u8> {
    (0..e.len())
        .into_par_iter()
        .map(|v| {
            let end = e.ends(v as u32)[0];
            mask[(end >> 3) as usize] >> (end & 7) & 1
        })
        .collect()
}

/// The cells with a side in defect under the turns `mask`, ascending.
pub(super) fn defect_cells(e: &Edges, mask: &[u8]) -> Vec<u32> {
    let defect = |c: &u32| (0..e.k).any(|s| is_defect(e, mask, *c as usize, s));
    let cells = 0..e.cells() as u32;
    // Every side of the region, once a round of the search around the defects: 80 ms at
    // 1024x1024 hexagonal on one thread.
    if e.cells() >= PARALLEL_CELLS {
        cells.into_par_iter().filter(defect).collect()
    } else {
        cells.filter(defect).collect()
    }
}

/// Whether side `s` of cell `c` disagrees with what faces it under the turns `mask`.
#[inline]
fn is_defect(e: &Edges, mask: &[u8], c: usize, s: usize) -> bool {
    let on = mask[c] >> s & 1 == 1;
    match e.across(c, s) {
        None => on != (e.fixed[c] >> s & 1 == 1),
        Some((c2, s2)) => on != (mask[c2] >> s2 & 1 == 1),
    }
}

/// [`Walks::from`] of a walk's first step.
const START: u8 = u8::MAX;

/// [`Walks::from`] of a step reached from side `s` of the cell before it, that cell taking
/// turn `r` (both below 8, so never [`START`]).
#[inline]
fn came(s: usize, r: u8) -> u8 {
    r << 3 | s as u8
}

/// A defect: a side of a cell (`cell * 8 + side`) whose pair disagrees.
type Side = u32;

struct Walks<'a> {
    e: &'a Edges,
    /// Per cell, the mask of its current turn.
    mask: Vec<u8>,
    /// Per step (`cell * k + side`: the cell must change that side), how the walk came:
    /// see [`came`]; [`START`] for a walk's first step. The step before lies across the
    /// step's side, so its side and its cell's turn say it all, in a byte where a step
    /// number and a turn took five (a tenth of a hexagonal dominoes solve's peak memory).
    from: Vec<u8>,
    /// Per step, the walk that last reached it (the arrays are not cleared between walks).
    stamp: Vec<u16>,
    now: u16,
    /// Per cell, the last traced walk it was on (a walk must not visit a cell twice).
    seen: Vec<u32>,
    traced: u32,
    /// The cell a walk may not pass through (the one an ejection turned), or `NONE`.
    frozen: usize,
    /// Every mask changed, with its value before (an ejection undoes its walks).
    log: Vec<(u32, u8)>,
    queue: Vec<u32>,
}

impl<'a> Walks<'a> {
    /// Every cell at the allowed turn closest to `phases`; `None` when a cell has no turn.
    fn new(e: &'a Edges, phases: &[u8]) -> Option<Walks<'a>> {
        let k = e.k;
        let mask = (0..e.cells())
            .into_par_iter()
            .map(|c| {
                let mut want = e.fixed[c];
                for s in 0..k {
                    let v = e.edge(c, s);
                    if v != NO_EDGE && phases[v as usize] == 1 {
                        want |= 1 << s;
                    }
                }
                let sh = e.shapes.get(e.shape[c]);
                (0..sh.period)
                    .filter(|&r| e.allowed[c] >> r & 1 == 1)
                    .map(|r| sh.masks[r as usize])
                    .min_by_key(|&m| {
                        (m ^ want).count_ones()
                            + 8 * (m & e.walls[c] | e.fixed[c] & !m).count_ones()
                    })
            })
            .collect::<Option<Vec<u8>>>()?;
        Some(Walks::at(e, mask))
    }

    /// Every cell at the turn whose mask `mask` gives.
    fn at(e: &'a Edges, mask: Vec<u8>) -> Walks<'a> {
        let (k, n) = (e.k, e.cells());
        Walks {
            e,
            mask,
            from: vec![START; n * k],
            stamp: vec![0; n * k],
            now: 0,
            seen: vec![0; n],
            traced: 0,
            frozen: NONE as usize,
            log: Vec::new(),
            queue: Vec::new(),
        }
    }

    #[inline]
    fn is_defect(&self, c: usize, s: usize) -> bool {
        is_defect(self.e, &self.mask, c, s)
    }

    /// Every defect, once (an edge's by its first end), in cell and side order.
    fn defects(&self) -> Vec<Side> {
        let e = self.e;
        let first_defects = move |c: usize| {
            (0..e.k).filter(move |&s| {
                let v = e.edge(c, s);
                let first = v == NO_EDGE || e.ends(v)[0] == (c * 8 + s) as u32;
                first && self.is_defect(c, s)
            })
        };
        // Few cells have one: found in parallel, then listed side by side.
        let cells: Vec<usize> = (0..e.cells())
            .into_par_iter()
            .filter(|&c| first_defects(c).next().is_some())
            .collect();
        cells
            .into_iter()
            .flat_map(|c| first_defects(c).map(move |s| (c * 8 + s) as Side))
            .collect()
    }

    /// Walks from every defect, in order, once.
    fn repair_all(&mut self, budget: &Budget) -> Result<(), Stop> {
        budget.check()?;
        let found = self.defects();
        for (i, d) in found.into_iter().enumerate() {
            if i % CHECK_WALKS == CHECK_WALKS - 1 {
                budget.check()?;
            }
            let (c, s) = ((d >> 3) as usize, (d & 7) as usize);
            if !self.is_defect(c, s) {
                continue;
            }
            let v = self.e.edge(c, s);
            let done = self.walk(c, s, v);
            if !done && v != NO_EDGE {
                let (c2, s2) = self.e.facing(v, c, s);
                let _ = self.walk(c2, s2, v) || self.eject(c, s) || self.eject(c2, s2);
            } else if !done {
                self.eject(c, s);
            }
        }
        Ok(())
    }

    /// A turn of `c` that changes side `s` (so the defect there goes) and more than one
    /// other side, then a walk from each changed side left in defect, none through `c`:
    /// kept when the defects went down, undone otherwise. This is what moves a piece no
    /// walk passes through (a straight piece on a hexagonal cell).
    fn eject(&mut self, c: usize, s: usize) -> bool {
        let e = self.e;
        let sh = e.shapes.get(e.shape[c]);
        let m = self.mask[c];
        for r in 0..sh.period {
            let diff = m ^ sh.masks[r as usize];
            if e.allowed[c] >> r & 1 == 0 || diff >> s & 1 == 0 || diff.count_ones() <= 2 {
                continue;
            }
            let sides = || (0..e.k).filter(move |&u| diff >> u & 1 == 1);
            let before = sides().filter(|&u| self.is_defect(c, u)).count() as i32;
            let mark = self.log.len();
            self.log.push((c as u32, m));
            self.mask[c] = sh.masks[r as usize];
            let mut change = sides().filter(|&u| self.is_defect(c, u)).count() as i32 - before;
            self.frozen = c;
            for u in sides() {
                let v = e.edge(c, u);
                if v == NO_EDGE || !self.is_defect(c, u) {
                    continue;
                }
                let (c2, s2) = self.e.facing(v, c, u);
                if self.walk(c2, s2, v) {
                    change -= 2;
                }
            }
            self.frozen = NONE as usize;
            if change < 0 {
                return true;
            }
            while self.log.len() > mark {
                let (c, m) = self.log.pop().expect("above the mark");
                self.mask[c as usize] = m;
            }
        }
        false
    }

    /// A walk that starts by changing side `s` of `c` (so the defect there goes) and ends
    /// at another defect, applied; false when none is found within the reach. `root` is the
    /// edge of the starting defect (or [`NO_EDGE`]): the walk may not end there.
    fn walk(&mut self, c: usize, s: usize, root: u32) -> bool {
        let k = self.e.k;
        if self.now == u16::MAX {
            self.stamp.fill(0);
            self.now = 0;
        }
        self.now += 1;
        let now = self.now;
        let start = (c * k + s) as u32;
        self.stamp[start as usize] = now;
        self.from[start as usize] = START;
        self.queue.clear();
        self.queue.push(start);
        let mut head = 0;
        while head < self.queue.len() && self.queue.len() < REACH {
            let step = self.queue[head];
            head += 1;
            if let Some(t) = self.expand(step, root)
                && self.apply(step, t)
            {
                return true;
            }
        }
        false
    }

    /// Queues the steps that follow `step`; returns a turn of its cell that ends the walk
    /// there (its other changed side is a defect), if any.
    fn expand(&mut self, step: u32, root: u32) -> Option<u8> {
        let e = self.e;
        let k = e.k;
        let (c, s) = (step as usize / k, step as usize % k);
        let m = self.mask[c];
        let sh = e.shapes.get(e.shape[c]);
        for r in 0..sh.period {
            if e.allowed[c] >> r & 1 == 0 {
                continue;
            }
            let diff = m ^ sh.masks[r as usize];
            if diff >> s & 1 == 0 || diff.count_ones() != 2 {
                continue;
            }
            let u = (diff & !(1 << s)).trailing_zeros() as usize;
            let v = e.edge(c, u);
            if v == root && v != NO_EDGE {
                continue;
            }
            if self.is_defect(c, u) {
                return Some(r);
            }
            if v == NO_EDGE {
                // Changing an agreeing wall side would make a defect there.
                continue;
            }
            let (c2, s2) = self.e.facing(v, c, u);
            let next = (c2 * k + s2) as u32;
            if c2 != self.frozen && self.stamp[next as usize] != self.now {
                self.stamp[next as usize] = self.now;
                self.from[next as usize] = came(s, r);
                self.queue.push(next);
            }
        }
        None
    }

    /// Turns every cell of the walk ending at `last` (whose cell takes turn `t`), when the
    /// walk visits each cell once; false (nothing changed) otherwise.
    fn apply(&mut self, last: u32, t: u8) -> bool {
        let k = self.e.k;
        self.traced += 1;
        let mark = self.traced;
        let mut step = Some(last);
        while let Some(at) = step {
            let c = at as usize / k;
            if self.seen[c] == mark {
                return false;
            }
            self.seen[c] = mark;
            step = self.before(at).map(|(p, _)| p);
        }
        let (mut step, mut r) = (last, t);
        loop {
            let c = step as usize / k;
            self.log.push((c as u32, self.mask[c]));
            self.mask[c] = self.e.mask(c, r);
            let Some((prev, turn)) = self.before(step) else {
                return true;
            };
            (step, r) = (prev, turn);
        }
    }

    /// The step before `step` on its walk and the turn its cell takes, or `None` at the
    /// walk's start.
    #[inline]
    fn before(&self, step: u32) -> Option<(u32, u8)> {
        let how = self.from[step as usize];
        if how == START {
            return None;
        }
        let k = self.e.k;
        let (c, s) = (step as usize / k, step as usize % k);
        // The walk came into `c` across side `s`, from the cell there.
        let (prev, _) = self.e.across(c, s).expect("a walk steps across edges");
        Some(((prev * k + (how & 7) as usize) as u32, how >> 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fixtures::random_connections;
    use crate::board::{Board, BoardLevel, Tiling, Wrap};

    fn never() -> Budget<'static> {
        static NO: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        Budget {
            cancel: &NO,
            halt: None,
            deadline: None,
            outer: None,
        }
    }

    /// A solved level of mostly one-end pieces on `b` and its edges.
    fn solved_dominoes(b: &Board, rng: &mut fastrand::Rng) -> (BoardLevel, Edges) {
        use crate::generate::board_families::{BoardFamily, solved_masks};
        let level =
            BoardLevel::new(b.clone(), solved_masks(b, BoardFamily::Dominoes, rng)).unwrap();
        let e = Edges::new(&level);
        (level, e)
    }

    fn boards() -> Vec<Board> {
        [
            (Tiling::Square, Wrap::NONE),
            (Tiling::Square, Wrap::BOTH),
            (Tiling::Hexagonal, Wrap::NONE),
            (Tiling::Hexagonal, Wrap::BOTH),
        ]
        .into_iter()
        .map(|(t, w)| Board::new(t, 12, 10, w).unwrap())
        .collect()
    }

    #[test]
    fn a_solution_is_left_as_it_is() {
        let mut rng = fastrand::Rng::with_seed(7);
        for b in boards() {
            let masks = random_connections(&b, &mut rng);
            let level = BoardLevel::new(b.clone(), masks.clone()).unwrap();
            let e = Edges::new(&level);
            assert!(defect_cells(&e, &masks).is_empty());
            let mut w = Walks::at(&e, masks.clone());
            w.repair_all(&never()).unwrap();
            assert_eq!(w.mask, masks, "{b:?}");
        }
    }

    #[test]
    fn one_end_pieces_turned_away_are_walked_back_to_a_solution() {
        let mut rng = fastrand::Rng::with_seed(8);
        let (mut repaired, mut tried) = (0, 0);
        for b in boards() {
            for _ in 0..20 {
                let (level, e) = solved_dominoes(&b, &mut rng);
                let mut masks = level.masks().to_vec();
                // Turn a few one-end pieces to another side that has a neighbour.
                for _ in 0..3 {
                    let c = rng.usize(..b.len());
                    if masks[c].count_ones() != 1 {
                        continue;
                    }
                    let open: Vec<u8> = (0..e.k as u8)
                        .filter(|&s| e.edge(c, s as usize) != NO_EDGE)
                        .collect();
                    masks[c] = 1 << open[rng.usize(..open.len())];
                }
                let before = defect_cells(&e, &masks).len();
                let mut w = Walks::at(&e, masks);
                w.repair_all(&never()).unwrap();
                let after = defect_cells(&e, &w.mask).len();
                assert!(after <= before, "{before} -> {after} on {b:?}");
                for (c, &m) in w.mask.iter().enumerate() {
                    let sh = e.shapes.get(e.shape[c]);
                    assert!(
                        sh.masks[..sh.period as usize].contains(&m),
                        "not a turn of {c}"
                    );
                }
                if before > 0 {
                    tried += 1;
                    repaired += usize::from(after == 0);
                }
            }
        }
        // A walk can need a turn that changes four sides of a cell it passes: most, not all.
        assert!(
            tried > 30 && repaired * 4 >= tried * 3,
            "{repaired} of {tried}"
        );
    }
}

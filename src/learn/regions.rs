//! After the root propagation the open edges fall apart into regions (cells joined by open
//! edges) that share nothing: each is searched by a solver of its own, in parallel. One
//! search over the whole board would undo the work of unrelated regions on every long
//! backjump and restart (a random 1024x1024 level did not finish in 15 s that way). A region
//! that is most of the work (half the cells left, 16,384 or more) gets the two racers of
//! `search.rs` on two threads once the others are settled, as a level of one region does in
//! `solve.rs`: path tilings of four cells on a hexagonal board, and of three on a torus, leave
//! one such region, and which decay suits it varies by level.

use std::sync::atomic::{AtomicBool, Ordering};

use super::clauses::Lit;
use super::local::{Answer, solve_region};
use super::race::{self, two_threads};
use super::search::{Phases, Solver, TUNING, UNSET};
use crate::algo::union_find::UnionFind;
use crate::anyboard::search::{Budget, Stop};
use crate::par::*;

/// The cells of each region (ascending), largest region first; cells with no open edge are
/// in none.
fn regions(solver: &Solver) -> Vec<Vec<u32>> {
    let e = &solver.e;
    let n = e.cells();
    let mut uf = UnionFind::new(n);
    let mut open = vec![false; n];
    for v in 0..e.len() {
        if solver.val[v] == UNSET {
            let [a, b] = e.ends(v as u32).map(|x| x >> 3);
            uf.union(a, b);
            open[a as usize] = true;
            open[b as usize] = true;
        }
    }
    let mut index = vec![u32::MAX; n];
    let mut parts: Vec<Vec<u32>> = Vec::new();
    for c in 0..n as u32 {
        if !open[c as usize] {
            continue;
        }
        let r = uf.find(c) as usize;
        if index[r] == u32::MAX {
            index[r] = parts.len() as u32;
            parts.push(Vec::new());
        }
        parts[index[r] as usize].push(c);
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
    parts
}

/// Searches every region of `solver` (root propagation done): per cell the mask of its turn
/// when each region has a solution, `None` when one has none. With `learned`, every clause
/// learned is added to it, in the whole board's edges; without it, the whole board's edge
/// tables are let go once the regions have their own (a dominoes level's region is nearly
/// the whole board: at 1024x1024 hexagonal, 50 MB of the peak).
pub(super) fn search_regions(
    solver: &mut Solver,
    budget: &Budget,
    learned: Option<&mut Vec<Vec<Lit>>>,
    phases: Phases,
) -> Result<Option<Vec<u8>>, Stop> {
    // From here on the whole board's solver only gives the cells outside every region.
    solver.keep_only_values();
    let parts = regions(solver);
    solver.stats.regions = parts.len() as u64;
    solver.stats.largest_region = parts.first().map_or(0, |p| p.len() as u64);
    solver.stats.fixed_cells =
        (solver.e.cells() - parts.iter().map(Vec::len).sum::<usize>()) as u64;
    // Cells in a region get their turns from its search.
    let mut masks: Vec<u8> = solver.e.turns(&solver.val).collect();
    let record = learned.is_some();
    let mut local = vec![0; solver.e.cells()];
    let subs: Vec<_> = parts
        .iter()
        .map(|cells| {
            let (edges, old) = solver.e.region(&solver.val, cells, &mut local, record);
            (edges, record.then_some(old))
        })
        .collect();
    drop(local);
    if !record {
        solver.e.release_edges();
    }
    let mut subs = subs;
    let raced = races_largest(&parts, record, phases).then(|| subs.remove(0));
    let halt = AtomicBool::new(false);
    let mut results: Vec<_> = subs
        .into_par_iter()
        .map(|(edges, old)| {
            let budget = budget.halted_by(&halt);
            let answer = solve_region(edges, &budget, record, (phases, TUNING));
            if let Ok(false) = answer.end {
                // One region without a solution settles the level.
                halt.store(true, Ordering::Relaxed);
            }
            (answer, old)
        })
        .collect();
    if let Some((edges, old)) = raced {
        // Searched after the others, so that one of them without a solution stops it.
        let answer = if halt.load(Ordering::Relaxed) {
            Answer {
                end: Err(Stop::Cancelled),
                masks: Vec::new(),
                stats: Default::default(),
                record: None,
                paused: None,
            }
        } else {
            race_region(edges, budget)
        };
        results.insert(0, (answer, old));
    }
    let mut stop = None;
    let mut solvable = true;
    let mut learned = learned;
    for ((answer, old), cells) in results.into_iter().zip(&parts) {
        solver.stats.add(&answer.stats);
        if let (Some(out), Some(rec), Some(old)) = (learned.as_deref_mut(), &answer.record, &old) {
            out.extend(rec.iter().map(|c| {
                c.iter()
                    .map(|&l| old[(l >> 1) as usize] * 2 + (l & 1))
                    .collect::<Vec<Lit>>()
            }));
        }
        match answer.end {
            Ok(true) => {
                for (&c, &m) in cells.iter().zip(&answer.masks) {
                    masks[c as usize] = m;
                }
            }
            Ok(false) => solvable = false,
            Err(s) => stop = stop.or(Some(s)),
        }
    }
    if !solvable {
        return Ok(None);
    }
    match stop {
        Some(s) => Err(s),
        None => Ok(Some(masks)),
    }
}

/// Regions of at least this many cells are worth two searches (smaller ones settle before a
/// second thread pays for itself).
const RACE_CELLS: usize = 16_384;

/// Whether the largest region gets two searches: when the pool has two threads and it holds
/// at least half of the cells left, its search is most of the solve.
fn races_largest(parts: &[Vec<u32>], record: bool, phases: Phases) -> bool {
    let total: usize = parts.iter().map(Vec::len).sum();
    let largest = parts.first().map_or(0, Vec::len);
    two_threads()
        && !record
        && phases == Phases::Matching
        && largest >= RACE_CELLS
        && 2 * largest >= total
}

/// The region `e` searched by the two racers of [`race::race`] at once.
fn race_region(e: super::edges::Edges, budget: &Budget) -> Answer {
    let search = |e, tuning, settled: &AtomicBool| {
        let budget = budget.halted_by(settled);
        solve_region(e, &budget, false, (Phases::Matching, tuning))
    };
    race::race([e.clone(), e], search, |a: &Answer| a.end.is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anyboard::solve::Outcome;
    use crate::board::{Board, Tiling, Wrap};
    use crate::generate::board_families::{BoardFamily, generate_on_board};

    /// Two racers on one region give the any-board engine's verdict and a verified answer,
    /// whichever of them answers, on four-cell path tilings (levels that are not one region
    /// from the start), solvable and altered.
    #[cfg(feature = "parallel")]
    #[test]
    fn racers_on_one_region_agree_with_the_any_board_engine() {
        let cancel = AtomicBool::new(false);
        let budget = Budget {
            cancel: &cancel,
            outer: None,
            halt: None,
            deadline: None,
        };
        let (mut solved, mut unsolvable) = (0, 0);
        for seed in 0..12u64 {
            let b = Board::new(Tiling::Hexagonal, 12 + seed as usize % 4, 14, Wrap::NONE).unwrap();
            let family = BoardFamily::Paths { len: 4, bent: 0.75 };
            let (mut level, _) = generate_on_board(&b, family, seed);
            if seed % 3 == 0 {
                // Two sides flipped: the ends keep their parity, so no count refutes it.
                for c in [7, 40] {
                    level.masks_mut()[c] ^= 1 << (seed % 6);
                }
            }
            let (theirs, _) = crate::anyboard::solve(&level, None, &cancel);
            let answer = race_region(super::super::edges::Edges::new(&level), &budget);
            match (&theirs, answer.end) {
                (Outcome::Solved(_), Ok(true)) => {
                    let mut ours = level.clone();
                    ours.masks_mut().copy_from_slice(&answer.masks);
                    assert!(ours.is_turning_of(&level) && crate::anyboard::is_solved(&ours));
                    solved += 1;
                }
                (Outcome::NoSolution, Ok(false)) => unsolvable += 1,
                (_, end) => panic!("engine {theirs:?}, racers {end:?} on {level:?}"),
            }
        }
        assert!(
            solved > 5 && unsolvable > 1,
            "{solved} solved, {unsolvable} not"
        );
    }

    /// A halt raised by whoever started the search (the race of `--unique-check`, whose
    /// other side answered) stops the regions' searches and the racers too: their own halt
    /// flags once replaced it, and a unique 256x256 hexagonal level's check waited 0.9 s for
    /// a search whose answer nobody wanted.
    #[test]
    fn an_outer_halt_stops_every_region_and_both_racers() {
        let cancel = AtomicBool::new(false);
        let halt = AtomicBool::new(true);
        let budget = Budget {
            cancel: &cancel,
            halt: Some(&halt),
            deadline: None,
            outer: None,
        };
        let b = Board::new(Tiling::Hexagonal, 16, 16, Wrap::NONE).unwrap();
        let family = BoardFamily::Paths { len: 3, bent: 0.75 };
        let (level, _) = generate_on_board(&b, family, 3);
        let answer = race_region(super::super::edges::Edges::new(&level), &budget);
        assert!(
            matches!(answer.end, Err(Stop::Cancelled)),
            "{:?}",
            answer.end
        );
        let mut solver = Solver::for_root(super::super::edges::Edges::new(&level));
        assert!(solver.root());
        let searched = search_regions(&mut solver, &budget, None, Phases::Matching);
        assert!(solver.stats.regions > 0, "the level has regions to search");
        assert!(matches!(searched, Err(Stop::Cancelled)), "{searched:?}");
        halt.store(false, Ordering::Relaxed);
        let mut solver = Solver::for_root(super::super::edges::Edges::new(&level));
        assert!(solver.root());
        let searched = search_regions(&mut solver, &budget, None, Phases::Matching);
        assert!(matches!(searched, Ok(Some(_))), "{searched:?}");
    }

    /// Only a region that is most of the work, large, and searched for an answer (not for
    /// the tests' record, nor from the tests' first-turn phases) is raced, on two threads.
    #[cfg(feature = "parallel")]
    #[test]
    fn only_a_large_dominant_region_is_raced_and_only_on_two_threads() {
        let parts =
            |sizes: &[usize]| -> Vec<Vec<u32>> { sizes.iter().map(|&n| vec![0; n]).collect() };
        let (two, one) = (crate::learn::tests::pool(2), crate::learn::tests::pool(1));
        let big = parts(&[RACE_CELLS, 100, 100]);
        assert!(two.install(|| races_largest(&big, false, Phases::Matching)));
        assert!(!one.install(|| races_largest(&big, false, Phases::Matching)));
        assert!(!two.install(|| races_largest(&big, true, Phases::Matching)));
        assert!(!two.install(|| races_largest(&big, false, Phases::FirstTurn)));
        let small = parts(&[RACE_CELLS - 1]);
        assert!(!two.install(|| races_largest(&small, false, Phases::Matching)));
        let shared = parts(&[RACE_CELLS, RACE_CELLS, 10]);
        assert!(!two.install(|| races_largest(&shared, false, Phases::Matching)));
    }
}

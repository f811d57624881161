//! After the root propagation the open edges fall apart into regions (cells joined by open
//! edges) that share nothing: each is searched by a solver of its own, in parallel. One
//! search over the whole board would undo the work of unrelated regions on every long
//! backjump and restart (a random 1024x1024 level did not finish in 15 s that way).

use std::sync::atomic::{AtomicBool, Ordering};

use super::clauses::Lit;
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
    let halt = AtomicBool::new(false);
    let results: Vec<_> = subs
        .into_par_iter()
        .map(|(edges, old)| {
            let budget = Budget {
                cancel: budget.cancel,
                halt: Some(&halt),
                deadline: budget.deadline,
            };
            let answer = super::local::solve_region(edges, &budget, record, (phases, TUNING));
            if let Ok(false) = answer.end {
                // One region without a solution settles the level.
                halt.store(true, Ordering::Relaxed);
            }
            (answer, old)
        })
        .collect();
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

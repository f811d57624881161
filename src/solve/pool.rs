//! The master–worker pool. The master cuts the regions into jobs (large regions alone, small
//! ones batched), sends them largest first over a crossbeam channel to `threads` workers, and
//! collects answers. A region may be raced by several strategies (the portfolio): the first
//! answer wins and raises the region's flag so the others stop. A region proved unsolvable,
//! the deadline or the caller's flag raise the global flag, which every search reads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{RecvTimeoutError, unbounded};

use super::board::Board;
use super::flow::DegreeFlow;
use super::regions::Regions;
use super::search::{SearchCounters, SearchEnd, search, search_in_turns};
use super::state::State;
use super::strategy::Order;
use super::subproblem::Subproblem;
use super::tiny::{TINY_CELLS, TinyEnd, TinySolver};

/// One unit of work: solve these regions with this strategy.
#[derive(Clone, Debug)]
pub struct Job {
    /// Indices of the regions (into the level's [`super::regions::Regions`]) this job solves.
    pub regions: Vec<usize>,
    /// Order in which the search decides cells.
    pub order: Order,
    /// Whether the search keeps the degree-flow witness ([`super::flow`]).
    pub flow: bool,
    /// Set when several jobs race on the same (single) region.
    pub raced: bool,
    /// MRV changes its last tie-break in turns ([`super::search::search_in_turns`]): set
    /// where no other order runs beside it.
    pub turns: bool,
    /// A racer that joins late: it waits until then (or until its region is won).
    pub not_before: Option<Instant>,
}

enum JobEnd {
    /// (global cell, orientation) for every cell of the job's regions.
    Solved(Vec<(u32, u8)>),
    Unsolvable,
    Cancelled,
}

struct JobResult {
    regions: Vec<usize>,
    end: JobEnd,
    counters: SearchCounters,
}

/// How the pool ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolEnd {
    /// Every region solved; the assignments are in `dom`.
    Solved,
    /// Some region's search space was exhausted: the level has no solution.
    Unsolvable,
    /// The caller's flag was raised.
    Cancelled,
    /// The deadline passed first.
    TimedOut,
}

/// When to give up: the caller's flag, and an optional deadline.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// Raised by the caller to stop every worker.
    pub cancel: &'a AtomicBool,
    /// Instant after which the workers give up; `None` for no time limit.
    pub deadline: Option<Instant>,
}

impl Limits<'_> {
    /// How a solve stops before its pool when the flag is raised or the deadline passed
    /// (the phases before the pool take seconds on huge grids), or `None` to go on.
    #[inline]
    pub fn stopped(&self) -> Option<super::Outcome> {
        if self.cancel.load(Ordering::Relaxed) {
            Some(super::Outcome::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(super::Outcome::TimedOut)
        } else {
            None
        }
    }
}

/// Runs `jobs` over `regions` of the propagated `dom` and writes every region's solution into
/// `dom`.
pub fn run_pool(
    board: &Board,
    dom: &mut [u8],
    regions: &Regions,
    jobs: Vec<Job>,
    threads: usize,
    limits: Limits<'_>,
    counters: &mut SearchCounters,
) -> PoolEnd {
    let (cancel, deadline) = (limits.cancel, limits.deadline);
    if regions.is_empty() {
        return PoolEnd::Solved;
    }
    let stop = AtomicBool::new(false);
    let won: Vec<AtomicBool> = (0..regions.len()).map(|_| AtomicBool::new(false)).collect();
    let (job_tx, job_rx) = unbounded::<Job>();
    let (res_tx, res_rx) = unbounded::<JobResult>();
    for job in jobs {
        job_tx.send(job).expect("receiver alive");
    }
    drop(job_tx);
    // Workers read the propagated domains; answers are applied once they have all stopped.
    let snapshot: &[u8] = dom;
    let mut answers: Vec<(u32, u8)> = Vec::new();
    let mut solved = vec![false; regions.len()];
    let mut remaining = regions.len();
    let mut end = PoolEnd::Cancelled;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let (job_rx, res_tx) = (job_rx.clone(), res_tx.clone());
            let (stop, won) = (&stop, &won);
            scope.spawn(move || {
                for job in job_rx.iter() {
                    let result = run_job(board, snapshot, regions, job, stop, cancel, won);
                    if res_tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(res_tx);
        loop {
            let received = match deadline {
                Some(d) => res_rx.recv_timeout(d.saturating_duration_since(Instant::now())),
                None => res_rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let res = match received {
                Ok(r) => r,
                Err(RecvTimeoutError::Timeout) => {
                    end = PoolEnd::TimedOut;
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    end = PoolEnd::Cancelled;
                    break;
                }
            };
            add_counters(counters, &res.counters);
            match res.end {
                JobEnd::Solved(assignment) => {
                    if res.regions.iter().all(|&r| solved[r]) {
                        continue;
                    }
                    answers.extend_from_slice(&assignment);
                    for &r in &res.regions {
                        solved[r] = true;
                        won[r].store(true, Ordering::Relaxed);
                        remaining -= 1;
                    }
                    if remaining == 0 {
                        end = PoolEnd::Solved;
                        break;
                    }
                }
                JobEnd::Unsolvable => {
                    end = PoolEnd::Unsolvable;
                    break;
                }
                JobEnd::Cancelled => {
                    if cancel.load(Ordering::Relaxed) {
                        end = PoolEnd::Cancelled;
                        break;
                    }
                }
            }
        }
        // Whatever ended the run, everyone still searching stops now.
        stop.store(true, Ordering::Relaxed);
    });
    // The jobs still running when the run ended (race losers, searches cut by the timeout)
    // have stopped and sent what they did: count it, so the figures show the work done.
    for res in res_rx.try_iter() {
        add_counters(counters, &res.counters);
    }
    if end == PoolEnd::Solved {
        for (cell, o) in answers {
            dom[cell as usize] = 1 << o;
        }
    }
    end
}

fn add_counters(total: &mut SearchCounters, job: &SearchCounters) {
    total.nodes += job.nodes;
    total.backtracks += job.backtracks;
    total.filter_fixed += job.filter_fixed;
    total.restarts += job.restarts;
    total.backjumps += job.backjumps;
    total.tie_break_switches += job.tie_break_switches;
    total.repair_picks += job.repair_picks;
    total.replayed += job.replayed;
}

/// Regions under this many cells in a job with the witness are first searched without it.
const PLAIN_FIRST_CELLS: usize = 256;
/// The plain first attempt stops at this many reads of its stop flag (one per set-up step
/// and per 64 nodes): a few thousand nodes, then the search with the witness takes over.
const PLAIN_FIRST_CHECKS: u32 = 64;

/// How often a late racer looks whether its region was won while it waits.
const RACE_WAIT_POLL: Duration = Duration::from_millis(2);

fn run_job(
    board: &Board,
    dom: &[u8],
    regions: &Regions,
    job: Job,
    stop: &AtomicBool,
    cancel: &AtomicBool,
    won: &[AtomicBool],
) -> JobResult {
    let mut counters = SearchCounters::default();
    let raced = job.raced;
    let first = job.regions[0];
    let halted = || {
        stop.load(Ordering::Relaxed)
            || cancel.load(Ordering::Relaxed)
            || (raced && won[first].load(Ordering::Relaxed))
    };
    if let Some(start) = job.not_before {
        loop {
            let now = Instant::now();
            if halted() {
                return JobResult {
                    regions: job.regions,
                    end: JobEnd::Cancelled,
                    counters,
                };
            }
            if now >= start {
                break;
            }
            std::thread::sleep((start - now).min(RACE_WAIT_POLL));
        }
    }
    let mut assignment = Vec::new();
    let mut tiny = TinySolver::default();
    for (i, &r) in job.regions.iter().enumerate() {
        // Read once per 64 tiny regions (a few microseconds each), at every other one.
        if (i % 64 == 0 || regions.get(r).len() > TINY_CELLS) && halted() {
            return JobResult {
                regions: job.regions,
                end: JobEnd::Cancelled,
                counters,
            };
        }
        if !raced && regions.get(r).len() <= TINY_CELLS {
            let end = tiny.solve(
                board,
                dom,
                regions.get(r),
                &mut assignment,
                &mut counters.nodes,
            );
            match end {
                TinyEnd::Solved => continue,
                TinyEnd::Unsolvable => {
                    return JobResult {
                        regions: job.regions,
                        end: JobEnd::Unsolvable,
                        counters,
                    };
                }
                TinyEnd::GaveUp => {}
            }
        }
        let mut cells = regions.get(r).to_vec();
        job.order.arrange(board, &mut cells);
        // Each set-up step on a region of millions of cells takes a noticeable time: a
        // timeout or a won race must not wait for all of them.
        if halted() {
            return JobResult {
                regions: job.regions,
                end: JobEnd::Cancelled,
                counters,
            };
        }
        let mut sub = Subproblem::extract(board, dom, &cells);
        drop(cells);
        if halted() {
            return JobResult {
                regions: job.regions,
                end: JobEnd::Cancelled,
                counters,
            };
        }
        let mut state = State::with_domains(&sub.board, std::mem::take(&mut sub.dom));
        let mut end = SearchEnd::Cancelled;
        let small = job.flow && !job.raced && sub.cells.len() < PLAIN_FIRST_CELLS;
        if small {
            // Most small regions fall to a few nodes of plain search; the witness and its
            // filter cost several times that to set up. A region the plain search does not
            // settle within its budget is searched again with the witness (the state is
            // restored when a search stops).
            let budget = std::cell::Cell::new(PLAIN_FIRST_CHECKS);
            let plain_halted = || {
                budget.set(budget.get().saturating_sub(1));
                budget.get() == 0 || halted()
            };
            end = search(
                &sub.board,
                &mut state,
                None,
                &sub.cells,
                job.order,
                &plain_halted,
                &mut counters,
            );
        }
        if !small || end == SearchEnd::Cancelled {
            let mut flow = job.flow.then(|| DegreeFlow::new(&sub.board));
            end = if job.turns {
                search_in_turns(
                    &sub.board,
                    &mut state,
                    flow.as_mut(),
                    &sub.cells,
                    &halted,
                    &mut counters,
                )
            } else {
                search(
                    &sub.board,
                    &mut state,
                    flow.as_mut(),
                    &sub.cells,
                    job.order,
                    &halted,
                    &mut counters,
                )
            };
        }
        match end {
            SearchEnd::Solved => {
                for &c in &sub.cells {
                    let c = c as usize;
                    assignment.push((sub.global(c), state.dom[c].trailing_zeros() as u8));
                }
            }
            SearchEnd::Exhausted => {
                return JobResult {
                    regions: job.regions,
                    end: JobEnd::Unsolvable,
                    counters,
                };
            }
            SearchEnd::Cancelled => {
                return JobResult {
                    regions: job.regions,
                    end: JobEnd::Cancelled,
                    counters,
                };
            }
        }
    }
    JobResult {
        regions: job.regions,
        end: JobEnd::Solved(assignment),
        counters,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use crate::model::{Game, Piece, PieceKind};
    use crate::solve::{Method, Outcome, SolveOptions, solve};

    #[test]
    fn a_small_region_the_plain_search_cannot_settle_goes_to_the_witness() {
        // 7x9 one-end pieces: propagation fixes nothing, the 63 ends cannot pair up. The plain
        // first search would have to exhaust exponentially many pairings; it stops at its
        // budget and the witness refutes the region at once.
        let (h, w) = (7, 9);
        let game = Game::from_cells(h, w, vec![Piece::new(PieceKind::Q, 0); h * w]);
        let opts = SolveOptions {
            method: Method::Csp,
            timeout: Some(Duration::from_secs(60)),
            ..SolveOptions::default()
        };
        let (outcome, stats) = solve(&game, &opts, &AtomicBool::new(false));
        assert_eq!(outcome, Outcome::Unsolvable);
        assert_eq!(stats.region_sizes, vec![h * w]);
        // The plain attempt ran (the witness alone needs no node here) and stopped.
        assert!(stats.counters.nodes >= 1000, "{:?}", stats.counters);
        assert!(stats.counters.nodes < 64 * 64 * 4, "{:?}", stats.counters);
    }
}

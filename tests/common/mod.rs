//! Helpers shared by the integration tests: an independent brute-force oracle and level
//! builders.
#![allow(dead_code)]

pub mod cli;

use std::sync::atomic::AtomicBool;

use phineloops::engine::model::{Game, Piece, PieceKind};
use phineloops::engine::solve::{Method, Outcome, SolveOptions, solve};

/// Counts solutions by trying every orientation of every cell in row-major order, rejecting a
/// partial assignment as soon as a placed cell disagrees with its left or upper neighbour or
/// points off the border. Uses only piece masks: nothing of the solver. Stops at `limit`.
pub fn brute_force_count(game: &Game, limit: u64) -> u64 {
    fn go(game: &Game, masks: &mut Vec<u8>, limit: u64, count: &mut u64) {
        let (h, w) = (game.height(), game.width());
        let i = masks.len();
        if i == h * w {
            *count += 1;
            return;
        }
        let (r, c) = (i / w, i % w);
        let kind = game.cells()[i].kind();
        for o in 0..kind.orientations() {
            let m = kind.mask(o);
            let n = m & 1 != 0;
            let e = m & 2 != 0;
            let s = m & 4 != 0;
            let west = m & 8 != 0;
            let up_ok = if r == 0 {
                !n
            } else {
                n == (masks[i - w] & 4 != 0)
            };
            let left_ok = if c == 0 {
                !west
            } else {
                west == (masks[i - 1] & 2 != 0)
            };
            let border_ok = !(c + 1 == w && e || r + 1 == h && s);
            if up_ok && left_ok && border_ok {
                masks.push(m);
                go(game, masks, limit, count);
                masks.pop();
                if *count >= limit {
                    return;
                }
            }
        }
    }
    let mut count = 0;
    go(game, &mut Vec::with_capacity(game.len()), limit, &mut count);
    count
}

/// Every solver configuration the tests exercise.
pub fn all_configs() -> Vec<SolveOptions> {
    let mut v = Vec::new();
    for method in [Method::Auto, Method::Csp, Method::Line, Method::Snail] {
        for flow in [true, false] {
            v.push(SolveOptions {
                method,
                threads: 1,
                flow,
                timeout: None,
            });
        }
    }
    v
}

/// Solves and checks the answer's integrity: a solution keeps every piece kind and is solved.
pub fn solve_checked(game: &Game, opts: &SolveOptions) -> Option<Game> {
    let cancel = AtomicBool::new(false);
    match solve(game, opts, &cancel).0 {
        Outcome::Solved(g) => {
            assert!(
                phineloops::engine::check::is_solved(&g),
                "{opts:?} returned an unsolved grid"
            );
            assert!(g.same_shapes(game), "{opts:?} changed piece kinds");
            Some(g)
        }
        Outcome::Unsolvable => None,
        other => panic!("unexpected outcome {other:?}"),
    }
}

/// A game of the given kinds (orientation 0) in row-major order.
pub fn game_of_kinds(h: usize, w: usize, kinds: &[u8]) -> Game {
    let cells = kinds
        .iter()
        .map(|&k| Piece::new(PieceKind::from_code(k).unwrap(), 0))
        .collect();
    Game::from_cells(h, w, cells)
}

/// The public benchmark levels beside the checkout (`../shared/instances/public`), or `None`
/// when that folder is absent (a user's clone): then `test` is reported as skipped on the
/// real standard error, which the test harness does not capture, so a run shows what it left
/// out instead of passing silently.
pub fn public_levels(test: &str) -> Option<std::path::PathBuf> {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/instances/public");
    if dir.is_dir() {
        return Some(dir);
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED {test}: ../shared/instances/public is not present"
    );
    None
}

//! Perfect mazes at sizes the carving layouts care about (grids that are not a whole number of
//! 8x8 tiles, thin strips, Kruskal past its window of rows), checked by a count of this file's
//! own, not the generator's: every passage has its other half, passages = cells - 1, a
//! breadth-first search from cell 0 reaches every cell, and no cell is empty. Also: a seed
//! gives the same file whatever the number of threads, and small mazes are solvable.

use crate::common;

use std::process::{Command, Stdio};

use common::solve_checked;
use phineloops::engine::generate::{
    Family, GenerateOptions, MazeAlgorithm, generate_with_solution,
};
use phineloops::engine::solve::{Method, SolveOptions};

/// Connection masks of the generator's solved grid.
fn solved_masks(a: MazeAlgorithm, h: usize, w: usize, seed: u64) -> Vec<u8> {
    let mut o = GenerateOptions::new(h, w, seed);
    o.family = Family::Maze(a);
    let (solution, _) = generate_with_solution(&o);
    solution.cells().iter().map(|p| p.mask()).collect()
}

/// Checks that `masks` (bits N=1, E=2, S=4, W=8) form a spanning tree of the h x w grid.
fn assert_spanning_tree(masks: &[u8], h: usize, w: usize, what: &str) {
    let n = h * w;
    let mut ends = 0usize;
    for r in 0..h {
        for c in 0..w {
            let m = masks[r * w + c];
            assert!(n == 1 || m != 0, "{what}: empty cell ({r}, {c})");
            let sides = [
                (1u8, r > 0, r.wrapping_sub(1), c, 4u8),
                (2, c + 1 < w, r, c + 1, 8),
                (4, r + 1 < h, r + 1, c, 1),
                (8, c > 0, r, c.wrapping_sub(1), 2),
            ];
            for (b, inside, rr, cc, back) in sides {
                if m & b != 0 {
                    assert!(inside, "{what}: ({r}, {c}) opens off the grid");
                    assert!(
                        masks[rr * w + cc] & back != 0,
                        "{what}: half passage at ({r}, {c})"
                    );
                    ends += 1;
                }
            }
        }
    }
    assert_eq!(ends / 2, n - 1, "{what}: passages");
    let mut seen = vec![false; n];
    let mut queue = vec![0usize];
    seen[0] = true;
    let mut reached = 1;
    while let Some(i) = queue.pop() {
        let m = masks[i];
        let mut go = |j: usize| {
            if !seen[j] {
                seen[j] = true;
                reached += 1;
                queue.push(j);
            }
        };
        if m & 1 != 0 {
            go(i - w);
        }
        if m & 2 != 0 {
            go(i + 1);
        }
        if m & 4 != 0 {
            go(i + w);
        }
        if m & 8 != 0 {
            go(i - 1);
        }
    }
    assert_eq!(reached, n, "{what}: one component");
}

#[test]
fn every_algorithm_makes_a_spanning_tree_at_awkward_sizes() {
    for a in MazeAlgorithm::ALL {
        for &(h, w) in &[
            (1, 1),
            (1, 23),
            (23, 1),
            (7, 9),
            (8, 8),
            (9, 17),
            (33, 40),
            (65, 3),
        ] {
            for seed in 0..6 {
                let what = format!("{} {h}x{w} seed {seed}", a.name());
                assert_spanning_tree(&solved_masks(a, h, w, seed), h, w, &what);
            }
        }
    }
}

#[test]
fn kruskal_past_its_window_makes_a_spanning_tree() {
    // 64 columns: the window is 4096 rows, so 4100 rows take the streamed windowed order.
    for seed in 0..2 {
        let (h, w) = (4100, 64);
        let what = format!("kruskal {h}x{w} seed {seed}");
        assert_spanning_tree(
            &solved_masks(MazeAlgorithm::Kruskal, h, w, seed),
            h,
            w,
            &what,
        );
    }
}

#[test]
fn small_mazes_are_solvable() {
    let csp = SolveOptions {
        method: Method::Csp,
        threads: 1,
        flow: true,
        timeout: None,
    };
    for a in MazeAlgorithm::ALL {
        for seed in 0..3 {
            let mut o = GenerateOptions::new(12, 17, seed);
            o.family = Family::Maze(a);
            let (_, level) = generate_with_solution(&o);
            assert!(
                solve_checked(&level, &csp).is_some(),
                "{} seed {seed}",
                a.name()
            );
        }
    }
}

/// The level file `--generate` writes, with rayon's pool at `threads`.
fn generated(args: &[&str], threads: usize) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_phineloops"))
        .args(["--generate", "300x260", "--seed", "9", "-o", "-"])
        .args(args)
        .env("RAYON_NUM_THREADS", threads.to_string())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    out.stdout
}

#[test]
fn a_seed_gives_the_same_file_on_any_number_of_threads() {
    let mut runs: Vec<Vec<&str>> = vec![vec!["--family", "random"], vec!["--family", "mixed"]];
    for a in [
        "wilson",
        "prim",
        "kruskal",
        "aldous-broder",
        "growing-tree-mixed",
    ] {
        runs.push(vec!["--maze", a]);
    }
    for args in runs {
        let one = generated(&args, 1);
        assert_eq!(one, generated(&args, 1), "{args:?} twice");
        assert_eq!(one, generated(&args, 2), "{args:?} on 1 and 2 threads");
        assert_eq!(one, generated(&args, 3), "{args:?} on 1 and 3 threads");
    }
}

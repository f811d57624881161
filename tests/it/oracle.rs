//! Every solver configuration agrees with the brute-force oracle on small grids: exhaustively
//! on every level of up to six cells (where the walk also checks the counter of `count.rs` and
//! the observed search of `observed.rs`, so the 93,312 levels of 2x3 and 3x2 are made and
//! counted once), and on many random levels up to 3x3 (random shapes, generated solvable
//! levels, and generated levels with one piece changed).

use crate::common;

use common::{all_configs, brute_force_count, game_of_kinds, solve_checked};
use phineloops::engine::generate::{GenerateOptions, generate};
use phineloops::engine::model::{Piece, PieceKind};

fn agree(game: &phineloops::engine::model::Game) -> bool {
    let solvable = brute_force_count(game, 1) > 0;
    agree_with(game, solvable);
    solvable
}

fn agree_with(game: &phineloops::engine::model::Game, solvable: bool) {
    for opts in all_configs() {
        let got = solve_checked(game, &opts).is_some();
        assert_eq!(
            got, solvable,
            "{opts:?} disagrees with the oracle on {game:?}"
        );
    }
}

/// Every level of each size, each counted once by the oracle and then checked against every
/// solver configuration, the counter (exact and under limits) and the observed search (with
/// and without the witness); returns how many had 0, 1 and more solutions.
fn exhaustive(sizes: &[(usize, usize)]) -> [usize; 3] {
    use rayon::prelude::*;
    let mut seen = [0; 3];
    for &(h, w) in sizes {
        let n = h * w;
        // On rayon's workers: the machine's cores share the walk, and each solve's own
        // data-parallel loops run in place on the worker instead of being handed over.
        let counted: Vec<[usize; 3]> = (0..6usize.pow(n as u32))
            .into_par_iter()
            .map(|code| {
                let mut kinds = Vec::with_capacity(n);
                let mut x = code;
                for _ in 0..n {
                    kinds.push((x % 6) as u8);
                    x /= 6;
                }
                let game = game_of_kinds(h, w, &kinds);
                let truth = brute_force_count(&game, u64::MAX);
                agree_with(&game, truth > 0);
                crate::count::agree_with(&game, truth);
                for flow in [false, true] {
                    crate::observed::check_one(&game, truth > 0, flow);
                }
                let mut one = [0; 3];
                one[truth.min(2) as usize] = 1;
                one
            })
            .collect();
        for one in counted {
            for k in 0..3 {
                seen[k] += one[k];
            }
        }
    }
    seen
}

#[test]
fn every_level_of_up_to_four_cells() {
    let seen = exhaustive(&[
        (1, 1),
        (1, 2),
        (2, 1),
        (1, 3),
        (3, 1),
        (1, 4),
        (4, 1),
        (2, 2),
    ]);
    // Unsolvable, unique and ambiguous levels must all occur, or agreement says little (only
    // the 2x2 loop of corners, which turns two ways, is ambiguous at this size).
    assert!(seen[0] > 4000 && seen[1] > 40 && seen[2] >= 1, "{seen:?}");
}

#[test]
fn every_level_of_two_by_three_and_three_by_two() {
    let seen = exhaustive(&[(2, 3), (3, 2)]);
    assert_eq!(seen.iter().sum::<usize>(), 2 * 46656);
    assert!(seen[1] > 200 && seen[2] >= 8, "{seen:?}");
}

#[test]
fn random_levels_up_to_three_by_three() {
    let mut rng = fastrand::Rng::with_seed(2026);
    let (mut yes, mut no) = (0, 0);
    for round in 0..3000 {
        let (h, w) = [(2, 3), (3, 2), (3, 3), (2, 4), (3, 3)][round % 5];
        let game = match round % 3 {
            // Random shapes: mostly unsolvable.
            0 => {
                let kinds: Vec<u8> = (0..h * w).map(|_| rng.u8(0..6)).collect();
                game_of_kinds(h, w, &kinds)
            }
            // Generated: solvable by construction.
            1 => generate(&GenerateOptions::new(h, w, rng.u64(..))),
            // Generated, then one piece replaced by another kind.
            _ => {
                let mut g = generate(&GenerateOptions::new(h, w, rng.u64(..)));
                let i = rng.usize(0..h * w);
                let kind = PieceKind::from_code(rng.u8(0..6)).unwrap();
                g.cells_mut()[i] = Piece::new(kind, 0);
                g
            }
        };
        if agree(&game) {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 500 && no > 500, "{yes} solvable, {no} not");
}

#[test]
fn generated_levels_of_many_sizes_solve_with_every_configuration() {
    for seed in 0..30u64 {
        for &(h, w) in &[(1, 1), (1, 9), (9, 1), (4, 7), (10, 10), (16, 5), (24, 24)] {
            let mut o = GenerateOptions::new(h, w, seed);
            if seed % 2 == 1 {
                o.max_components = Some(1 + seed as usize % 4);
            }
            let g = generate(&o);
            for opts in all_configs() {
                assert!(
                    solve_checked(&g, &opts).is_some(),
                    "seed {seed} {h}x{w} {opts:?}"
                );
            }
        }
    }
}

#[test]
fn straight_segment_and_moved_straight_levels_agree_with_brute_force() {
    use phineloops::engine::generate::Family;
    use phineloops::engine::generate::move_straights;
    let (mut yes, mut no) = (0, 0);
    for seed in 0..60u64 {
        for &(h, w) in &[(3, 3), (2, 5), (4, 3), (3, 4)] {
            let mut o = GenerateOptions::new(h, w, seed);
            o.family = Family::Straight;
            let g = generate(&o);
            assert!(agree(&g), "seed {seed} {h}x{w}: generated level unsolvable");
            // Moved straights: solvable or not, brute force decides.
            let moved = move_straights(&g, 1 + seed as usize % 2, seed);
            if agree(&moved) {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes >= 10 && no >= 10, "{yes} solvable, {no} not");
}

#[test]
fn dominoes_levels_and_changed_dominoes_agree_with_brute_force() {
    use phineloops::engine::generate::Family;
    let mut rng = fastrand::Rng::with_seed(3);
    let (mut yes, mut no) = (0, 0);
    for seed in 0..60u64 {
        for &(h, w) in &[(3, 3), (2, 5), (4, 3), (3, 4)] {
            let mut o = GenerateOptions::new(h, w, seed);
            o.family = Family::Dominoes;
            let g = generate(&o);
            assert!(agree(&g), "seed {seed} {h}x{w}: generated level unsolvable");
            // One piece changed (I <-> L, or a Q into an L or an I): brute force decides.
            let mut cells = g.cells().to_vec();
            let k = rng.usize(..cells.len());
            let other = match cells[k].kind() {
                PieceKind::I => PieceKind::L,
                PieceKind::L => PieceKind::I,
                PieceKind::Q if rng.bool() => PieceKind::L,
                _ => PieceKind::I,
            };
            cells[k] = Piece::new(other, 0);
            let changed = phineloops::engine::model::Game::from_cells(h, w, cells);
            if agree(&changed) {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes >= 10 && no >= 10, "{yes} solvable, {no} not");
}

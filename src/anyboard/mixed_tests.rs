//! The engines on hexapipes' mixed grids (octagons with squares, rhombi, hexagons with
//! triangles, ...) against a brute-force oracle of their own: every small board of every
//! grid, wrapped or not, under both rules, with levels of random masks (most unsolvable) and
//! levels made from random connections (all solvable). Each cell turns over its own side
//! count, which the oracle does with the mask arithmetic alone.

use std::sync::atomic::AtomicBool;

use num_bigint::BigUint;

use super::{Count, Outcome, first_fault};
use crate::board::mask::{period, rotate};
use crate::board::{Board, BoardLevel, Grid, Rules, Tiling, Wrap};

/// Every board of every mixed grid with `1..=4` by `1..=4` as its size and at most
/// `max_cells` cells, wrapped and not (sizes the grid refuses are left out).
fn small_mixed_boards(max_cells: usize) -> Vec<Board> {
    let mut out = Vec::new();
    for grid in Grid::ALL {
        for w in 1..=4 {
            for h in 1..=4 {
                for wrap in [Wrap::NONE, Wrap::BOTH] {
                    if let Ok(b) = Board::new(Tiling::Polygonal(grid), w, h, wrap)
                        && b.len() <= max_cells
                    {
                        out.push(b);
                    }
                }
            }
        }
    }
    out
}

/// Whether the connections of `masks` form one tree over the cells with a piece (Net).
fn one_tree(b: &Board, masks: &[u8]) -> bool {
    let cells: Vec<usize> = (0..b.len()).filter(|&c| masks[c] != 0).collect();
    let Some(&start) = cells.first() else {
        return true;
    };
    let edges: usize = masks.iter().map(|m| m.count_ones() as usize).sum::<usize>() / 2;
    if edges + 1 != cells.len() {
        return false;
    }
    let mut seen = vec![false; b.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        for s in 0..b.cell_sides(c) as usize {
            if masks[c] >> s & 1 == 1
                && let Some((n, _)) = b.neighbour(c, s)
                && !seen[n]
            {
                seen[n] = true;
                reached += 1;
                stack.push(n);
            }
        }
    }
    reached == cells.len()
}

/// Solutions counted by trying every turn of every cell in order, each side checked once
/// both its cells are placed, and under Net rules the finished grid checked for one tree.
fn oracle_count(level: &BoardLevel) -> u64 {
    fn go(i: usize, level: &BoardLevel, placed: &mut Vec<u8>) -> u64 {
        let b = level.board();
        if i == placed.len() {
            return u64::from(level.rules() != Rules::Net || one_tree(b, placed));
        }
        let (m0, k) = (level.masks()[i], b.cell_sides(i));
        let mut total = 0;
        for r in 0..period(m0, k) {
            let m = rotate(m0, k, r);
            placed[i] = m;
            let fits = (0..b.sides() as usize).all(|s| match b.neighbour(i, s) {
                None => m >> s & 1 == 0,
                Some((j, t)) if j <= i => (placed[j] >> t & 1) == (m >> s & 1),
                Some(_) => true,
            });
            if fits {
                total += go(i + 1, level, placed);
            }
        }
        total
    }
    go(0, level, &mut vec![0u8; level.board().len()])
}

/// Random masks within each cell's sides.
fn random_masks(b: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    (0..b.len())
        .map(|c| rng.u16(..1 << b.cell_sides(c)) as u8)
        .collect()
}

/// Each link connected with probability `p` percent, then every cell turned at random.
fn from_connections(b: &Board, p: u8, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; b.len()];
    for (c, s) in b.edges() {
        if rng.u8(..100) < p {
            let (n, t) = b.neighbour(c, s).unwrap();
            masks[c] |= 1 << s;
            masks[n] |= 1 << t;
        }
    }
    for (c, m) in masks.iter_mut().enumerate() {
        *m = rotate(*m, b.cell_sides(c), rng.u8(..8));
    }
    masks
}

/// A random spanning tree's connections (a Net level with a solution), every cell turned.
fn spanning_tree(b: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; b.len()];
    let mut seen = vec![false; b.len()];
    let mut frontier = vec![0usize];
    seen[0] = true;
    while !frontier.is_empty() {
        let c = frontier[rng.usize(..frontier.len())];
        let open: Vec<(usize, usize, usize)> = (0..b.cell_sides(c) as usize)
            .filter_map(|s| b.neighbour(c, s).map(|(n, t)| (s, n, t)))
            .filter(|&(_, n, _)| !seen[n])
            .collect();
        if open.is_empty() {
            frontier.retain(|&x| x != c);
            continue;
        }
        let (s, n, t) = open[rng.usize(..open.len())];
        masks[c] |= 1 << s;
        masks[n] |= 1 << t;
        seen[n] = true;
        frontier.push(n);
    }
    for (c, m) in masks.iter_mut().enumerate() {
        *m = rotate(*m, b.cell_sides(c), rng.u8(..8));
    }
    masks
}

/// Checks every engine entry on `level` against `expected` solutions.
fn agree(level: &BoardLevel, expected: u64, cancel: &AtomicBool) -> bool {
    let what = format!("{level:?}");
    let solved = |outcome: Outcome| match outcome {
        Outcome::Solved(sol) => {
            assert!(expected > 0, "a solution of none: {what}");
            assert!(
                first_fault(&sol).is_none() && sol.is_turning_of(level),
                "{what}"
            );
            true
        }
        Outcome::NoSolution => {
            assert_eq!(expected, 0, "no solution said of a solvable level: {what}");
            false
        }
        other => panic!("{other:?}: {what}"),
    };
    let found = solved(super::solve_level(level, None, cancel).0);
    assert_eq!(
        solved(crate::learn::solve_learning(level, None, cancel).0),
        found
    );
    assert_eq!(
        solved(crate::learn::solve_auto(level, None, cancel).0),
        found
    );
    let (count, _) = super::count_level(level, None, None, cancel).unwrap();
    assert_eq!(count, Count::Exact(BigUint::from(expected)), "{what}");
    let two = super::two_solutions_level(level, None, cancel).unwrap();
    assert_eq!(two.len() as u64, expected.min(2), "{what}");
    found
}

#[test]
fn every_engine_agrees_with_brute_force_on_every_small_mixed_board() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(41);
    let boards = small_mixed_boards(12);
    for grid in Grid::ALL {
        let n = boards
            .iter()
            .filter(|b| b.tiling() == Tiling::Polygonal(grid))
            .count();
        assert!(n >= 2, "{} has {n} small boards to try", grid.name());
    }
    let (mut checked, mut solvable) = (0, 0);
    for b in &boards {
        for trial in 0..12 {
            let masks = match trial % 3 {
                0 => random_masks(b, &mut rng),
                1 => from_connections(b, 60, &mut rng),
                _ => spanning_tree(b, &mut rng),
            };
            let rules = if trial % 2 == 0 {
                Rules::Infinity
            } else {
                Rules::Net
            };
            let level = BoardLevel::new(b.clone(), masks).unwrap().with_rules(rules);
            let expected = oracle_count(&level);
            solvable += agree(&level, expected, &cancel) as usize;
            checked += 1;
        }
    }
    assert!(
        checked > 200 && solvable > checked / 3 && solvable < checked,
        "{checked} {solvable}"
    );
}

#[test]
fn larger_mixed_boards_made_from_trees_are_solved_by_net_rules() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(7);
    for grid in Grid::ALL {
        for wrap in [Wrap::NONE, Wrap::BOTH] {
            let b = Board::new(Tiling::Polygonal(grid), 14, 14, wrap).unwrap();
            let level = BoardLevel::new(b.clone(), spanning_tree(&b, &mut rng))
                .unwrap()
                .with_rules(Rules::Net);
            match crate::learn::solve_auto(&level, None, &cancel).0 {
                Outcome::Solved(sol) => {
                    assert!(first_fault(&sol).is_none() && sol.is_turning_of(&level));
                    assert!(one_tree(&b, sol.masks()), "{}", grid.name());
                }
                other => panic!("{} {wrap:?}: {other:?}", grid.name()),
            }
        }
    }
}

/// The generators on mixed grids, judged by the oracle: levels made unique have exactly one
/// solution (under Net rules and Infinity rules), unsolvable variants none, and cells outside
/// hexapipes' drawn board stay empty in all of them.
#[test]
fn levels_generated_on_small_mixed_boards_are_what_they_claim() {
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    use crate::generate::board_unique::{make_unique, make_unique_net};
    use crate::generate::board_unsolvable::board_unsolvable_variant;
    use crate::generate::unsolvable::Breakage;
    let cancel = AtomicBool::new(false);
    let (mut net_unique, mut unique, mut broken, mut outside) = (0, 0, 0, 0);
    for (seed, b) in small_mixed_boards(14).iter().enumerate() {
        let seed = seed as u64;
        let mut rng = fastrand::Rng::with_seed(seed);
        let empty_outside =
            |l: &BoardLevel| (0..b.len()).all(|c| !b.is_outside(c) || l.masks()[c] == 0);
        outside += (0..b.len()).filter(|&c| b.is_outside(c)).count();
        // Net: a spanning tree made unique.
        let (_, tree) = generate_on_board(b, BoardFamily::Maze, seed);
        let tree = tree.with_rules(Rules::Net);
        // Some tiny wrapped boards have no unique tree at all (two cells joined twice).
        let Ok((level, sol)) = make_unique_net(tree, &mut rng, 200, &cancel) else {
            continue;
        };
        assert!(empty_outside(&level) && first_fault(&sol).is_none());
        assert_eq!(oracle_count(&level), 1, "{level:?}");
        net_unique += 1;
        // Infinity: random connections made unique.
        let (_, random) = generate_on_board(b, BoardFamily::Random { density: 0.6 }, seed);
        if let Ok((level, _)) = make_unique(random, &mut rng, 200, &cancel) {
            assert!(empty_outside(&level));
            assert_eq!(oracle_count(&level), 1, "{level:?}");
            unique += 1;
        }
        // An unsolvable variant of each kind.
        for kind in [Breakage::OddParity, Breakage::EvenParity] {
            if let Ok((bad, _)) = board_unsolvable_variant(&level, Some(&sol), kind, seed, &cancel)
            {
                assert!(empty_outside(&bad));
                assert_eq!(oracle_count(&bad), 0, "{bad:?}");
                broken += 1;
            }
        }
    }
    let boards = small_mixed_boards(14).len();
    assert!(
        net_unique > boards * 3 / 4 && unique > 20 && broken > 40 && outside > 0,
        "{boards} {net_unique} {unique} {broken} {outside}"
    );
}

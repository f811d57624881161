//! The engine against a brute-force oracle on every small board of every kind: levels with
//! random side masks (most have no solution) and levels made from random connections (every
//! one solvable), counted both ways; every solution the engine returns is checked on its own.

use std::sync::atomic::AtomicBool;

use num_bigint::BigUint;

use super::{Count, Outcome, count, first_defect, solve};
use crate::board::fixtures::small_boards;
use crate::board::mask::{period, rotate};
use crate::board::{Board, BoardLevel, Tiling, Wrap};

/// Solutions counted by trying every orientation of every cell in row-major order, checking
/// each side once both its cells are placed: no propagation, no shared code with the engine.
fn oracle_count(level: &BoardLevel) -> u64 {
    let b = level.board();
    let k = b.sides();
    let n = b.len();
    let mut placed = vec![0u8; n];
    fn go(i: usize, level: &BoardLevel, placed: &mut Vec<u8>, k: u8) -> u64 {
        let b = level.board();
        if i == placed.len() {
            return 1;
        }
        let m0 = level.masks()[i];
        let mut total = 0;
        for r in 0..period(m0, k) {
            let m = rotate(m0, k, r);
            placed[i] = m;
            let fits = (0..k as usize).all(|s| match b.neighbour(i, s) {
                None => m >> s & 1 == 0,
                Some((j, t)) if j <= i => (placed[j] >> t & 1) == (m >> s & 1),
                Some(_) => true,
            });
            if fits {
                total += go(i + 1, level, placed, k);
            }
        }
        total
    }
    go(0, level, &mut placed, k)
}

fn random_masks(b: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let full = (1u16 << b.sides()) as u8 as u16;
    (0..b.len())
        .map(|_| rng.u16(..full.max(1 << b.sides())) as u8)
        .collect()
}

fn from_connections(b: &Board, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; b.len()];
    for (c, s) in b.edges() {
        if rng.bool() {
            let (n, t) = b.neighbour(c, s).unwrap();
            masks[c] |= 1 << s;
            masks[n] |= 1 << t;
        }
    }
    for m in masks.iter_mut() {
        *m = rotate(*m, b.sides(), rng.u8(..b.sides()));
    }
    masks
}

#[test]
fn counts_and_solutions_agree_with_brute_force_on_every_small_board() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(28);
    let mut checked = 0;
    let mut solvable = 0;
    for b in small_boards(1..=3, 9) {
        for trial in 0..20 {
            let masks = if trial % 2 == 0 {
                random_masks(&b, &mut rng)
            } else {
                from_connections(&b, &mut rng)
            };
            let level = BoardLevel::new(b.clone(), masks).unwrap();
            let expected = oracle_count(&level);
            let (got, _) = count(&level, None, None, &cancel).unwrap();
            assert_eq!(got, Count::Exact(BigUint::from(expected)), "{level:?}");
            match solve(&level, None, &cancel).0 {
                Outcome::Solved(sol) => {
                    assert!(expected > 0, "{level:?}");
                    assert!(first_defect(&sol).is_none() && sol.same_shapes(&level));
                    solvable += 1;
                }
                Outcome::NoSolution => assert_eq!(expected, 0, "{level:?}"),
                other => panic!("{other:?}"),
            }
            let (two, _) = count(&level, Some(1), None, &cancel).unwrap();
            match two {
                Count::Exact(n) => assert!(n <= BigUint::from(1u32) && n == expected.into()),
                Count::MoreThan(1) => assert!(expected > 1),
                other => panic!("{other:?}"),
            }
            checked += 1;
        }
    }
    assert!(
        checked > 700 && solvable > checked / 3,
        "{checked} {solvable}"
    );
}

#[test]
fn a_raised_cancel_flag_stops_a_search() {
    let cancel = AtomicBool::new(true);
    let b = Board::new(Tiling::Hexagonal, 12, 12, Wrap::BOTH).unwrap();
    // Every cell a two-end corner piece: many solutions, so the search has work to do.
    let level = BoardLevel::new(b, vec![0b11; 144]).unwrap();
    let (outcome, _) = solve(&level, None, &cancel);
    assert!(
        matches!(outcome, Outcome::Cancelled | Outcome::Solved(_)),
        "{outcome:?}"
    );
    assert!(count(&level, None, None, &cancel).is_err());
}

#[test]
fn two_solutions_agrees_with_the_oracle_count() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(2);
    for b in small_boards(1..=3, 9) {
        for _ in 0..4 {
            let level = BoardLevel::new(b.clone(), from_connections(&b, &mut rng)).unwrap();
            let expected = oracle_count(&level).min(2) as usize;
            let sols = super::two_solutions(&level, None, &cancel).unwrap();
            assert_eq!(sols.len(), expected, "{level:?}");
            if let [a, b] = &sols[..] {
                assert_ne!(a, b);
            }
        }
    }
}

#[test]
fn levels_made_from_connections_are_solved_on_larger_boards_of_every_kind() {
    // Regions here outgrow the ends count's reach, which small boards never do.
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(7);
    for tiling in Tiling::ALL {
        for wrap in [Wrap::NONE, Wrap::BOTH] {
            let b = Board::new(tiling, 24, 20, wrap).unwrap();
            for _ in 0..6 {
                let level = BoardLevel::new(b.clone(), from_connections(&b, &mut rng)).unwrap();
                match solve(&level, None, &cancel).0 {
                    Outcome::Solved(sol) => assert!(first_defect(&sol).is_none()),
                    other => panic!("{other:?} on a solvable {tiling:?} {wrap:?} level"),
                }
            }
        }
    }
}

/// The compiled network of `level`, for tests of the propagation itself.
fn with_network<T>(level: &BoardLevel, f: impl FnOnce(&super::network::Network) -> T) -> T {
    use super::network::Network;
    use super::shapes::Shapes;
    use std::borrow::Cow;
    let (shapes, shape) = Shapes::of_cells(level.board(), level.masks());
    let net = Network {
        k: level.board().sides() as usize,
        shapes: &shapes,
        shape: Cow::Owned(shape),
        links: level.board().link_view(),
        lattice: level.board().lattice(),
    };
    f(&net)
}

#[test]
fn the_sweeping_first_pass_reaches_the_worklists_fixed_point() {
    use super::network::State;
    // Arc consistency has one greatest fixed point: the sweeps (and their skipping of
    // decided cells) must land on it exactly, wipe-outs included.
    let cancel = AtomicBool::new(false);
    let budget = unlimited(&cancel);
    let mut rng = fastrand::Rng::with_seed(31);
    let mut boards = small_boards(1..=3, 9);
    // Large enough for the lattice's full sweeps to have inner cells in every stripe;
    // odd sides too, where a wrapped hexagonal board's seams shift.
    for tiling in Tiling::ALL {
        for wrap in [Wrap::NONE, Wrap::BOTH] {
            boards.push(Board::new(tiling, 40, 30, wrap).unwrap());
            boards.push(Board::new(tiling, 33, 27, wrap).unwrap());
        }
    }
    let (mut wiped, mut narrowed) = (0, 0);
    for b in boards {
        for trial in 0..12 {
            let masks = if trial % 3 == 0 {
                random_masks(&b, &mut rng)
            } else {
                from_connections(&b, &mut rng)
            };
            let level = BoardLevel::new(b.clone(), masks).unwrap();
            with_network(&level, |net| {
                let mut worklist = State::new(net, net.full_domains());
                let ok = worklist.propagate_all(net);
                let mut sweeps = State::new(net, net.full_domains());
                assert_eq!(sweeps.propagate_root(net, &budget), Ok(ok), "{level:?}");
                if ok {
                    assert_eq!(sweeps.dom, worklist.dom, "{level:?}");
                    assert_eq!(sweeps.mark(), 0, "the root pass leaves no trail");
                    narrowed += (sweeps.dom != net.full_domains()) as usize;
                } else {
                    wiped += 1;
                }
                // Thin stripes: changes cross many stripe borders (and, wrapped, the seam).
                for stripe in [1, 7, 40, 97, 401] {
                    let mut striped = State::new(net, net.full_domains());
                    let got = striped.propagate_striped(net, &budget, stripe);
                    assert_eq!(got, Ok(ok), "stripes of {stripe}: {level:?}");
                    if ok {
                        assert_eq!(striped.dom, worklist.dom, "stripes of {stripe}: {level:?}");
                        assert_eq!(striped.mark(), 0);
                    }
                }
            });
        }
    }
    assert!(wiped > 100 && narrowed > 100, "{wiped} {narrowed}");
}

/// Asserts that every demand word of `st` is what `net`'s links and the neighbours' sides
/// say: the pushes of narrowings and undos keep it so.
fn demands_agree(st: &super::network::State, net: &super::network::Network, what: &str) {
    assert_eq!(st.demand, demands_by_links(net, &st.sides), "{what}");
}

/// The demand words `sides` give, pulled through the links alone (not the lattice the
/// engine may use).
fn demands_by_links(net: &super::network::Network, sides: &[u16]) -> Vec<u16> {
    use std::borrow::Cow;
    let by_links = super::network::Network {
        k: net.k,
        shapes: net.shapes,
        shape: Cow::Borrowed(&net.shape),
        links: net.links.borrowed(),
        lattice: None,
    };
    super::network::demands_from(&by_links, sides)
}

#[test]
fn demand_words_follow_narrowings_undos_and_the_striped_pass() {
    use super::network::State;
    let cancel = AtomicBool::new(false);
    let budget = unlimited(&cancel);
    let mut rng = fastrand::Rng::with_seed(37);
    let mut decided = 0;
    for b in small_boards(1..=4, 9) {
        for trial in 0..6 {
            let masks = if trial % 3 == 0 {
                random_masks(&b, &mut rng)
            } else {
                from_connections(&b, &mut rng)
            };
            let level = BoardLevel::new(b.clone(), masks).unwrap();
            with_network(&level, |net| {
                let mut st = State::new(net, net.full_domains());
                demands_agree(&st, net, "new");
                // After a wipe-out the state is dropped: only a finished pass must agree.
                if !st.propagate_striped(net, &budget, 1 + trial).unwrap() {
                    return;
                }
                demands_agree(&st, net, "striped pass");
                // Decide random cells, propagating, then undo them one by one.
                let mut marks = Vec::new();
                for _ in 0..4 {
                    let c = rng.usize(..net.len());
                    let d = st.dom[c];
                    if d.count_ones() < 2 {
                        continue;
                    }
                    let pick = 1 << (rng.u32(..8) % 8);
                    let one = if d & pick != 0 {
                        pick
                    } else {
                        d & d.wrapping_neg()
                    };
                    marks.push(st.mark());
                    decided += 1;
                    let fine = st.decide(net, c, one);
                    demands_agree(&st, net, "after a decision");
                    if !fine {
                        break;
                    }
                }
                while let Some(m) = marks.pop() {
                    st.undo(net, m);
                    demands_agree(&st, net, "after an undo");
                }
            });
        }
    }
    assert!(decided > 100, "{decided}");
}

#[test]
fn the_first_pass_stops_at_a_passed_deadline() {
    use super::network::State;
    use super::search::{Budget, Stop};
    let cancel = AtomicBool::new(false);
    let budget = Budget {
        cancel: &cancel,
        halt: None,
        deadline: Some(std::time::Instant::now()),
        outer: None,
    };
    let b = Board::new(Tiling::Hexagonal, 10, 10, Wrap::BOTH).unwrap();
    let level = BoardLevel::new(b, vec![0b1001; 100]).unwrap();
    with_network(&level, |net| {
        let mut st = State::new(net, net.full_domains());
        assert_eq!(st.propagate_root(net, &budget), Err(Stop::TimedOut));
    });
}

/// Every small board, 16 levels each (one in four of random masks, the others turnings of
/// random connections, from `seed`), solved by brute force and brought through the first
/// pass: a level the first pass refutes must have no solution and goes no further; the
/// others are given to `check` with their trial number, solutions, network, propagated
/// state and a budget without limits.
fn each_propagated_small_level(
    seed: u64,
    mut check: impl FnMut(
        usize,
        &BoardLevel,
        &[Vec<u8>],
        &super::network::Network,
        super::network::State,
        &super::search::Budget,
    ),
) {
    use super::network::State;
    let cancel = AtomicBool::new(false);
    let budget = unlimited(&cancel);
    let mut rng = fastrand::Rng::with_seed(seed);
    for b in small_boards(1..=3, 9) {
        for trial in 0..16 {
            let masks = if trial % 4 == 0 {
                random_masks(&b, &mut rng)
            } else {
                from_connections(&b, &mut rng)
            };
            let level = BoardLevel::new(b.clone(), masks).unwrap();
            let solutions = crate::board::fixtures::brute_force(&level);
            with_network(&level, |net| {
                let mut st = State::new(net, net.full_domains());
                if !st.propagate_root(net, &budget).unwrap() {
                    assert!(solutions.is_empty(), "{level:?}");
                    return;
                }
                check(trial, &level, &solutions, net, st, &budget);
            });
        }
    }
}

/// Asserts that domains `dom` of `net` (compiled from `level`) keep every one of `solutions`.
fn keeps_every(
    solutions: &[Vec<u8>],
    dom: &[u8],
    net: &super::network::Network,
    level: &BoardLevel,
) {
    for sol in solutions {
        for (c, &m) in sol.iter().enumerate() {
            let r = net.shapes.orientation_of(net.shape[c], m);
            assert!(dom[c] >> r & 1 == 1, "probing lost a solution of {level:?}");
        }
    }
}

#[test]
fn probing_keeps_every_solution_on_every_small_board() {
    use super::probe::probe_cells;
    use super::shares::in_shares;
    let (mut narrowed, mut refuted) = (0, 0);
    each_propagated_small_level(29, |trial, level, solutions, net, mut st, budget| {
        let before = st.dom.clone();
        let all: Vec<u32> = (0..net.len() as u32).collect();
        // Shares of a few cells probed on copies, then merged: the same guarantee.
        let mut shared = st.clone();
        if in_shares(net, &mut shared, &all, budget, 2 + trial % 3, probe_cells).unwrap() {
            keeps_every(solutions, &shared.dom, net, level);
        } else {
            assert!(solutions.is_empty(), "shared probing refuted {level:?}");
        }
        if !probe_cells(net, &mut st, &all, budget).unwrap() {
            assert!(solutions.is_empty(), "probing refuted a solvable {level:?}");
            refuted += 1;
            return;
        }
        narrowed += (st.dom != before) as usize;
        keeps_every(solutions, &st.dom, net, level);
    });
    assert!(narrowed > 40 && refuted > 8, "{narrowed} {refuted}");
}

#[test]
fn hexagonal_mazes_large_enough_to_be_probed_are_solved_and_counted() {
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    let cancel = AtomicBool::new(false);
    for wrap in [Wrap::NONE, Wrap::BOTH] {
        let b = Board::new(Tiling::Hexagonal, 64, 64, wrap).unwrap();
        let (level, _) = generate_on_board(&b, BoardFamily::Maze, 3);
        let (outcome, stats) = solve(&level, None, &cancel);
        match outcome {
            Outcome::Solved(sol) => {
                assert!(first_defect(&sol).is_none() && sol.same_shapes(&level))
            }
            other => panic!("{other:?} on a generated maze"),
        }
        // Propagation alone leaves one region above the probing threshold on these.
        assert!(
            stats.largest_region < super::solve::PROBE_REGION,
            "{stats:?}"
        );
        let (n, _) = count(&level, Some(1), None, &cancel).unwrap();
        assert_ne!(n, Count::Exact(BigUint::ZERO));
        assert!(
            !super::two_solutions(&level, None, &cancel)
                .unwrap()
                .is_empty()
        );
    }
}

#[test]
fn same_pieces_tells_a_turn_from_another_piece() {
    let board = |t, w| Board::new(t, w, 1, Wrap::NONE).unwrap();
    // Hexagonal: two adjacent sides turned twice, and the straight that is not a turn of it.
    let hex = board(Tiling::Hexagonal, 2);
    assert!(hex.same_pieces(&[0b1100, 0b1], &[0b11, 0b100000]));
    assert!(!hex.same_pieces(&[0b1001, 0b1], &[0b11, 0b100000]));
    assert!(!hex.same_pieces(&[0b11], &[0b11, 0b1]));
    // Square: a corner is not a straight.
    let square = board(Tiling::Square, 1);
    assert!(square.same_pieces(&[0b1001], &[0b0011]));
    assert!(!square.same_pieces(&[0b0101], &[0b0011]));
}

/// Every phase that reads the whole board stops on a time limit already passed instead of
/// finishing first: the region split and the probes (a 4096x4096 board spends seconds in them).
#[test]
fn the_region_split_and_the_probes_stop_on_a_passed_deadline() {
    use super::network::State;
    use super::probe::probe_cells;
    use super::regions::regions;
    use super::search::{Budget, Stop};
    use super::shares::in_shares;
    let cancel = AtomicBool::new(false);
    let passed = Budget {
        cancel: &cancel,
        halt: None,
        outer: None,
        deadline: Some(std::time::Instant::now()),
    };
    // Two neighbouring ends everywhere on a torus: nothing decided, one region of every cell.
    let board = Board::new(Tiling::Hexagonal, 40, 30, Wrap::BOTH).unwrap();
    let masks = vec![3; board.len()];
    let level = BoardLevel::new(board, masks).unwrap();
    with_network(&level, |net| {
        let mut st = State::new(net, net.full_domains());
        assert!(matches!(
            regions(net, &st.dom, &passed),
            Err(Stop::TimedOut)
        ));
        let all: Vec<u32> = (0..net.len() as u32).collect();
        let probed = in_shares(net, &mut st, &all, &passed, 600, probe_cells);
        assert!(matches!(probed, Err(Stop::TimedOut)));
    });
}

/// Whether `level` has a solution, by the oracle's row-major enumeration stopped at the
/// first leaf.
fn oracle_has_solution(level: &BoardLevel) -> bool {
    fn go(i: usize, level: &BoardLevel, placed: &mut Vec<u8>, k: u8) -> bool {
        let b = level.board();
        if i == placed.len() {
            return true;
        }
        let m0 = level.masks()[i];
        (0..period(m0, k)).any(|r| {
            let m = rotate(m0, k, r);
            placed[i] = m;
            let fits = (0..k as usize).all(|s| match b.neighbour(i, s) {
                None => m >> s & 1 == 0,
                Some((j, t)) if j <= i => (placed[j] >> t & 1) == (m >> s & 1),
                Some(_) => true,
            });
            fits && go(i + 1, level, placed, k)
        })
    }
    let k = level.board().sides();
    go(0, level, &mut vec![0; level.board().len()], k)
}

/// Whether every side of `masks` on `b` is answered by the neighbour across it (a border
/// answers "not connected"), read straight from the board's links.
fn oracle_accepts(b: &Board, masks: &[u8]) -> bool {
    (0..b.len()).all(|c| {
        (0..b.sides() as usize).all(|s| match b.neighbour(c, s) {
            None => masks[c] >> s & 1 == 0,
            Some((n, t)) => (masks[n] >> t & 1) == (masks[c] >> s & 1),
        })
    })
}

#[test]
fn wrapped_square_levels_left_to_the_square_engine_agree_with_brute_force() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(2811);
    let wraps = ["both", "horizontal", "vertical"].map(|w| Wrap::from_name(w).unwrap());
    let (mut searched, mut solved, mut unsolvable) = (0, 0, 0);
    for (w, h) in [
        (4, 4),
        (4, 2),
        (2, 4),
        (4, 3),
        (3, 4),
        (6, 2),
        (2, 6),
        (4, 5),
        (5, 4),
    ] {
        for wrap in wraps {
            let b = Board::new(Tiling::Square, w, h, wrap).unwrap();
            let level0 = BoardLevel::new(b.clone(), vec![0; b.len()]).unwrap();
            if !super::square_wrap::takes(&level0) {
                continue;
            }
            for trial in 0..64 {
                let mut masks = match trial % 4 {
                    0 => random_masks(&b, &mut rng),
                    // Mostly one-end pieces: sparse connections.
                    1 => {
                        let mut m = vec![0u8; b.len()];
                        for (c, s) in b.edges() {
                            if rng.u8(..4) == 0 {
                                let (n, t) = b.neighbour(c, s).unwrap();
                                m[c] |= 1 << s;
                                m[n] |= 1 << t;
                            }
                        }
                        m
                    }
                    _ => from_connections(&b, &mut rng),
                };
                // A changed piece leaves most of these without a solution.
                if trial % 4 == 3 {
                    let c = rng.usize(..b.len());
                    masks[c] = rng.u8(..16);
                }
                let level = BoardLevel::new(b.clone(), masks).unwrap();
                let expected = oracle_has_solution(&level);
                let (outcome, stats) = super::solve_level(&level, None, &cancel);
                searched += usize::from(stats.regions > 0);
                match outcome {
                    Outcome::Solved(sol) => {
                        assert!(expected, "{level:?}");
                        assert!(oracle_accepts(&b, sol.masks()) && sol.same_shapes(&level));
                        solved += 1;
                    }
                    Outcome::NoSolution => {
                        assert!(!expected, "{level:?}");
                        unsolvable += 1;
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }
    // The square engine must have searched a good share (the first pass settles the rest).
    assert!(
        searched > 120 && solved > 250 && unsolvable > 150,
        "{searched} searched, {solved} solved, {unsolvable} unsolvable"
    );
}

#[test]
fn wrapped_square_levels_of_every_family_are_solved_and_unbalanced_ones_refuted() {
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(2812);
    let families = [
        BoardFamily::Dominoes,
        BoardFamily::Maze,
        BoardFamily::Random { density: 0.5 },
    ];
    let boards = [
        (16, 16, "both"),
        (20, 12, "horizontal"),
        (12, 20, "vertical"),
        (12, 10, "both"),
        (12, 10, "horizontal"),
        (12, 10, "vertical"),
    ];
    let (mut large, mut refuted) = (0, 0);
    for (i, (w, h, wrap)) in boards.into_iter().enumerate() {
        let b = Board::new(Tiling::Square, w, h, Wrap::from_name(wrap).unwrap()).unwrap();
        for (f, &family) in families.iter().enumerate() {
            for seed in 0..4u64 {
                let (level, _) = generate_on_board(&b, family, (i * 100 + f * 10) as u64 + seed);
                let (outcome, stats) = super::solve_level(&level, None, &cancel);
                large += usize::from(stats.largest_region > 96);
                match outcome {
                    Outcome::Solved(sol) => {
                        assert!(oracle_accepts(&b, sol.masks()) && sol.same_shapes(&level))
                    }
                    other => panic!("{family:?} {wrap} seed {seed}: {other:?}"),
                }
                // One connection added to or taken from a piece: the two colours' cells
                // then have different sums of connections, while every connection joins a
                // cell of each, so there is no solution (a proof that shares nothing with
                // the engine).
                let mut masks = level.masks().to_vec();
                let c = rng.usize(..b.len());
                masks[c] ^= 1 << rng.u8(..4);
                let changed = BoardLevel::new(b.clone(), masks).unwrap();
                match super::solve_level(&changed, None, &cancel).0 {
                    Outcome::NoSolution => refuted += 1,
                    other => panic!("{family:?} {wrap} seed {seed}, cell {c}: {other:?}"),
                }
            }
        }
    }
    assert!(
        large >= 8 && refuted == 72,
        "{large} large regions, {refuted} refuted"
    );
}

#[test]
fn bands_of_dominoes_on_a_cylinder_are_solved_region_by_region() {
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    let cancel = AtomicBool::new(false);
    // Five bands of 16x10 dominoes, each on its own cylinder, stacked with an empty row under
    // each: five regions, each larger than a tiny one and smaller than a quarter of the board.
    let cylinder = |width, height| {
        let rows_wrap = Wrap {
            horizontal: true,
            vertical: false,
        };
        Board::new(Tiling::Square, width, height, rows_wrap).unwrap()
    };
    let (band, b) = (cylinder(16, 10), cylinder(16, 55));
    let mut masks = Vec::new();
    for seed in 0..5 {
        masks.extend_from_slice(
            generate_on_board(&band, BoardFamily::Dominoes, seed)
                .0
                .masks(),
        );
        masks.extend(std::iter::repeat_n(0u8, 16));
    }
    let level = BoardLevel::new(b.clone(), masks).unwrap();
    let (outcome, stats) = super::solve_level(&level, None, &cancel);
    assert!(stats.regions >= 5 && stats.largest_region > 96, "{stats:?}");
    match outcome {
        Outcome::Solved(sol) => assert!(oracle_accepts(&b, sol.masks()) && sol.same_shapes(&level)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_triangle_pass_keeps_every_solution_on_every_small_board() {
    use super::first_pass::Start;
    use super::triangles::{triangle_pass, triangle_pass_striped};
    let (mut narrowed, mut refuted) = (0, 0);
    each_propagated_small_level(41, |trial, level, solutions, net, mut st, budget| {
        let before = st.dom.clone();
        let all: Vec<u32> = (0..net.len() as u32).collect();
        let open: Vec<u32> = all
            .iter()
            .copied()
            .filter(|&c| st.dom[c as usize].count_ones() > 1)
            .collect();
        // Thin stripes, from the undecided cells: the same fixed point as one
        // stripe from every cell, since the rules together have one greatest.
        let mut striped = st.clone();
        let stripe = 1 + trial % 3;
        let striped_ok =
            triangle_pass_striped(net, &mut striped, Start::Cells(&open), budget, stripe).unwrap();
        if !triangle_pass(net, &mut st, Start::Cells(&all), budget).unwrap() {
            assert!(solutions.is_empty(), "the triangles refuted {level:?}");
            assert!(!striped_ok, "only the whole pass refuted {level:?}");
            refuted += 1;
            return;
        }
        assert!(striped_ok, "only the striped pass refuted {level:?}");
        assert_eq!(striped.dom, st.dom, "{level:?} in stripes of {stripe}");
        // At the fixed point, a pass from every cell finds nothing more: every
        // narrowing revised what it could narrow.
        let mut again = striped.clone();
        assert!(triangle_pass_striped(net, &mut again, Start::Every, budget, stripe).unwrap());
        assert_eq!(again.dom, striped.dom, "{level:?} in stripes of {stripe}");
        assert_eq!(
            striped.demand,
            demands_by_links(net, &striped.sides),
            "{level:?}"
        );
        assert_eq!(st.mark(), 0, "the trail is committed");
        keeps_every(solutions, &st.dom, net, level);
        if st.dom != before {
            narrowed += 1;
            // Only boards with triangles: three cells that meet at a corner.
            assert_eq!(level.board().tiling(), Tiling::Hexagonal, "{level:?}");
        }
    });
    assert!(narrowed > 20 && refuted > 2, "{narrowed} {refuted}");
}

#[test]
fn the_triangle_pass_by_the_lattice_reaches_the_fixed_point_by_the_links() {
    use super::first_pass::Start;
    use super::network::{Network, State};
    use super::triangles::{triangle_pass, triangle_pass_striped};
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    use std::borrow::Cow;
    let cancel = AtomicBool::new(false);
    let budget = unlimited(&cancel);
    let mut rng = fastrand::Rng::with_seed(43);
    let (mut narrowed, mut refuted) = (0, 0);
    for wrap in [Wrap::NONE, Wrap::BOTH] {
        // Odd sides too, where a wrapped hexagonal board's seams shift.
        for (w, h) in [(40, 30), (33, 27)] {
            let b = Board::new(Tiling::Hexagonal, w, h, wrap).unwrap();
            for trial in 0..9 {
                let masks = match trial % 3 {
                    0 => generate_on_board(&b, BoardFamily::Maze, trial)
                        .0
                        .masks()
                        .to_vec(),
                    1 => from_connections(&b, &mut rng),
                    // A maze with a few pieces turned into others: mostly refuted.
                    _ => {
                        let mut m = generate_on_board(&b, BoardFamily::Maze, trial)
                            .0
                            .masks()
                            .to_vec();
                        for _ in 0..3 {
                            let c = rng.usize(..m.len());
                            m[c] = rng.u8(..64);
                        }
                        m
                    }
                };
                let level = BoardLevel::new(b.clone(), masks).unwrap();
                with_network(&level, |net| {
                    let mut st = State::new(net, net.full_domains());
                    // A fresh state, arc consistency looked at in a band (as the solve does
                    // before choosing its pass), then the triangles from every cell: their
                    // sweeps do arc consistency's work too, so the fixed point is the
                    // same as arc consistency's pass and then theirs.
                    let fused = |stripe: usize| {
                        let mut fresh = State::new(net, net.full_domains());
                        let band = fresh.preview_open(net, &budget, net.len() / 3, 2 * w + 5);
                        let ok = band.unwrap().is_some()
                            && triangle_pass_striped(
                                net,
                                &mut fresh,
                                Start::Every,
                                &budget,
                                stripe,
                            )
                            .unwrap();
                        (ok, fresh)
                    };
                    if !st.propagate_root(net, &budget).unwrap() {
                        assert!(!fused(97).0, "only arc consistency refuted {level:?}");
                        return;
                    }
                    let open: Vec<u32> = (0..net.len() as u32)
                        .filter(|&c| st.dom[c as usize].count_ones() > 1)
                        .collect();
                    // The reference: the same network read through its links alone.
                    let links_only = Network {
                        k: net.k,
                        shapes: net.shapes,
                        shape: Cow::Borrowed(&net.shape),
                        links: net.links.borrowed(),
                        lattice: None,
                    };
                    let mut want = st.clone();
                    let ok = triangle_pass(&links_only, &mut want, Start::Cells(&open), &budget)
                        .unwrap();
                    // Stripes of a few rows (changes cross their borders) and the whole.
                    for stripe in [3 * w, 97, 401, usize::MAX] {
                        let mut got = st.clone();
                        let got_ok =
                            triangle_pass_striped(net, &mut got, Start::Undecided, &budget, stripe)
                                .unwrap();
                        assert_eq!(got_ok, ok, "stripes of {stripe}: {level:?}");
                        if ok {
                            assert_eq!(got.dom, want.dom, "stripes of {stripe}: {level:?}");
                            assert_eq!(got.sides, want.sides, "stripes of {stripe}");
                            assert_eq!(got.demand, demands_by_links(net, &got.sides));
                            assert_eq!(got.mark(), 0, "the trail is committed");
                        }
                    }
                    for stripe in [97, usize::MAX] {
                        let (got_ok, got) = fused(stripe);
                        assert_eq!(
                            got_ok, ok,
                            "from every cell, stripes of {stripe}: {level:?}"
                        );
                        if ok {
                            assert_eq!(got.dom, want.dom, "from every cell: {level:?}");
                            assert_eq!(got.sides, want.sides, "from every cell");
                            assert_eq!(got.demand, demands_by_links(net, &got.sides));
                            assert_eq!(got.mark(), 0, "the trail is committed");
                        }
                    }
                    if !ok {
                        refuted += 1;
                    } else if want.dom != st.dom {
                        narrowed += 1;
                    }
                });
            }
        }
    }
    assert!(narrowed > 8 && refuted > 2, "{narrowed} {refuted}");
}

/// A budget with no deadline, stopped only by `cancel`.
fn unlimited(cancel: &AtomicBool) -> super::search::Budget<'_> {
    super::search::Budget {
        cancel,
        outer: None,
        halt: None,
        deadline: None,
    }
}

#[test]
fn odd_ends_have_no_solution_on_small_boards_and_every_method_refutes_them_at_once() {
    use super::{count_level, solve_level, two_solutions_level};
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    use std::time::Duration;
    // The claim, against the oracle: every small level with odd ends has no solution.
    let mut rng = fastrand::Rng::with_seed(29);
    let mut odd = 0;
    for b in small_boards(1..=3, 9) {
        for _ in 0..10 {
            let level = BoardLevel::new(b.clone(), random_masks(&b, &mut rng)).unwrap();
            if level.odd_ends() {
                assert_eq!(oracle_count(&level), 0, "{level:?}");
                odd += 1;
            }
        }
    }
    assert!(odd > 100, "only {odd} levels with odd ends");
    // A level whose propagation and search find nothing for a long time (three-cell paths
    // on a hexagonal board, a one-end piece mid-board given a second side: a bend, which
    // fits there as well as the end did): each entry point refutes it well within a limit
    // its search alone does not meet.
    let cancel = AtomicBool::new(false);
    let limit = Some(Duration::from_secs(5));
    let b = Board::new(Tiling::Hexagonal, 40, 24, Wrap::NONE).unwrap();
    let family = BoardFamily::Paths { len: 3, bent: 0.6 };
    let (mut level, _) = generate_on_board(&b, family, 2);
    let c = (b.len() / 2 + 20..b.len())
        .find(|&c| level.masks()[c].count_ones() == 1)
        .unwrap();
    let side = level.masks()[c].trailing_zeros() as u8;
    level.masks_mut()[c] |= 1 << ((side + 2) % b.sides());
    assert!(level.odd_ends());
    let (outcome, stats) = solve_level(&level, limit, &cancel);
    assert!(
        matches!(outcome, Outcome::NoSolution) && stats.nodes == 0,
        "{outcome:?}"
    );
    let (n, _) = count_level(&level, None, limit, &cancel).unwrap();
    assert_eq!(n, Count::Exact(BigUint::ZERO));
    assert!(
        two_solutions_level(&level, limit, &cancel)
            .unwrap()
            .is_empty()
    );
    let (outcome, _) = super::cp::solve_sat(&level, limit, &cancel);
    assert!(matches!(outcome, Outcome::NoSolution), "{outcome:?}");
}

/// Counts past 2^64: 65 separate 2x2 blocks of one-end pieces (two solutions each, paired
/// across or down), bounded and on a torus, have exactly 2^65 solutions (a count that
/// stopped multiplying at 2^64 printed that as exact); with a limit, "more than" it.
#[test]
fn counts_past_two_to_the_64_stay_exact() {
    use super::count_level;
    let cancel = AtomicBool::new(false);
    for wrap in [Wrap::NONE, Wrap::BOTH] {
        // Blocks every three columns on a 3-row board: 65 blocks, an empty column between.
        let (w, h) = (195, 3);
        let b = Board::new(Tiling::Square, w, h, wrap).unwrap();
        let masks: Vec<u8> = (0..b.len())
            .map(|c| u8::from(c / w % 3 < 2 && c % w % 3 < 2))
            .collect();
        let level = BoardLevel::new(b, masks).unwrap();
        let (n, _) = count_level(&level, None, None, &cancel).unwrap();
        assert_eq!(n, Count::Exact(BigUint::from(2u32).pow(65)), "{wrap:?}");
        let (n, _) = count_level(&level, Some(1000), None, &cancel).unwrap();
        assert_eq!(n, Count::MoreThan(1000), "{wrap:?}");
    }
}

/// [`super::beside::undecided_beside`] on every small board: every cell where another
/// solution differs from the known one is left undecided (with cells held at the known
/// solution, every other solution that agrees with it there), and nothing undecided means
/// one solution.
#[test]
fn probing_beside_a_solution_leaves_every_other_solution_open() {
    use super::beside::undecided_beside;
    let mut rng = fastrand::Rng::with_seed(31);
    let (mut unique, mut several, mut held) = (0, 0, 0);
    each_propagated_small_level(31, |trial, level, solutions, _, _, budget| {
        if solutions.is_empty() {
            return;
        }
        let known_masks = &solutions[trial % solutions.len()];
        let known = BoardLevel::new(level.board().clone(), known_masks.clone()).unwrap();
        let undecided = undecided_beside(level, &known, None, budget).unwrap();
        let others: Vec<&Vec<u8>> = solutions.iter().filter(|s| *s != known_masks).collect();
        for other in &others {
            for c in 0..other.len() {
                assert!(other[c] == known_masks[c] || undecided[c], "{level:?}");
            }
        }
        if undecided.iter().all(|&u| !u) {
            assert!(others.is_empty(), "{level:?}: called unique");
            unique += 1;
        } else {
            several += usize::from(!others.is_empty());
        }
        let free: Vec<bool> = (0..level.board().len()).map(|_| rng.bool()).collect();
        let undecided = undecided_beside(level, &known, Some(&free), budget).unwrap();
        for other in &others {
            let agrees_outside = (0..other.len()).all(|c| free[c] || other[c] == known_masks[c]);
            if agrees_outside {
                held += 1;
                for c in 0..other.len() {
                    assert!(
                        other[c] == known_masks[c] || undecided[c],
                        "{level:?} {free:?}"
                    );
                }
            }
        }
    });
    assert!(
        unique > 40 && several > 40 && held > 20,
        "{unique} {several} {held}"
    );
}

//! The Net-rules engine and verifier against a brute-force oracle on every small board of every
//! kind: random spanning trees (Net-solvable), random connections (mostly loops), random masks,
//! each with random barriers and locked cells, under both rules. The oracle tries every
//! orientation of every cell and judges a full assignment with its own code: connections
//! answered, none across a border or barrier, and for Net a graph with one component and one
//! edge fewer than its non-empty cells (a tree).

use std::sync::atomic::AtomicBool;

use num_bigint::BigUint;

use super::net_search::{
    count_skipping_passes, net_count, net_solutions, net_solve, net_two_solutions,
};
use super::net_verify::first_fault;
use super::{Count, Outcome};
use crate::board::fixtures::{
    brute_force, is_one_tree, random_connections, scrambled, small_boards, spanning_tree,
};
use crate::board::mask::period;
use crate::board::{BoardLevel, Rules};

/// The oracle's judgement of a full assignment (see the module doc).
fn oracle_ok(level: &BoardLevel, masks: &[u8]) -> bool {
    let b = level.board();
    let k = b.sides() as usize;
    for (c, &m) in masks.iter().enumerate() {
        if m & level.barrier(c) != 0 {
            return false;
        }
        for s in 0..k {
            let bit = m >> s & 1;
            match b.neighbour(c, s) {
                None if bit == 1 => return false,
                Some((n, t)) if masks[n] >> t & 1 != bit => return false,
                _ => {}
            }
        }
    }
    if level.rules() == Rules::Infinity {
        return true;
    }
    is_one_tree(level.board(), masks)
}

/// Solutions counted by brute force (locked cells stay).
fn oracle_count(level: &BoardLevel) -> u64 {
    brute_force(level).len() as u64
}

/// Orientation product of a level: the oracle's work.
fn work(level: &BoardLevel) -> u64 {
    let k = level.board().sides();
    level.masks().iter().map(|&m| period(m, k) as u64).product()
}

fn check_against_oracle(level: &BoardLevel) {
    let cancel = AtomicBool::new(false);
    let expected = oracle_count(level);
    let (count, _) = net_count(level, None, None, &cancel).unwrap();
    assert_eq!(count, Count::Exact(BigUint::from(expected)), "{level:?}");
    let (outcome, _) = net_solve(level, None, &cancel);
    match outcome {
        Outcome::Solved(sol) => {
            assert!(expected > 0);
            assert!(oracle_ok(&sol, sol.masks()) && sol.is_turning_of(level));
        }
        Outcome::NoSolution => assert_eq!(expected, 0, "{level:?}"),
        other => panic!("{other:?}"),
    }
    // The search skips the global pass where it finds nothing: with every pass skipped,
    // local propagation and the loop refusal at each join must still keep the count exact.
    assert_eq!(count_skipping_passes(level), expected, "{level:?}");
    let two = net_two_solutions(level, None, &cancel).unwrap();
    assert_eq!(two.len() as u64, expected.min(2));
    if two.len() == 2 {
        assert_ne!(two[0], two[1]);
    }
    // Every solution, each once, each a solution by the oracle's own judge.
    let mut all: Vec<Vec<u8>> = Vec::new();
    net_solutions(level, None, &cancel, |sol| {
        assert!(oracle_ok(&sol, sol.masks()) && sol.is_turning_of(level));
        all.push(sol.masks().to_vec());
        true
    })
    .unwrap();
    assert_eq!(all.len() as u64, expected, "{level:?}");
    all.sort();
    all.dedup();
    assert_eq!(all.len() as u64, expected, "a solution handed out twice");
}

#[test]
fn net_counts_match_the_oracle_on_every_small_board() {
    let mut rng = fastrand::Rng::with_seed(29);
    let mut checked = 0;
    for b in small_boards(1..=4, 9) {
        for round in 0..6 {
            let solved = match round % 3 {
                0 => spanning_tree(&b, &mut rng),
                1 => random_connections(&b, &mut rng),
                _ => (0..b.len())
                    .map(|_| rng.u8(..1 << b.sides().min(7)))
                    .collect(),
            };
            for rules in Rules::ALL {
                let level = scrambled(&b, &solved, rules, 6, &mut rng);
                if work(&level) > 200_000 {
                    continue;
                }
                check_against_oracle(&level);
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "only {checked} levels were small enough");
}

#[test]
fn the_verifier_agrees_with_the_oracle_on_random_states() {
    let mut rng = fastrand::Rng::with_seed(7);
    for b in small_boards(1..=4, 16) {
        for _ in 0..20 {
            let solved = if rng.bool() {
                spanning_tree(&b, &mut rng)
            } else {
                random_connections(&b, &mut rng)
            };
            let mut level = scrambled(&b, &solved, Rules::Net, 6, &mut rng);
            // Half the time the state is the unscrambled one.
            if rng.bool() {
                level.masks_mut().copy_from_slice(&solved);
            }
            let masks = level.masks().to_vec();
            assert_eq!(
                first_fault(&level).is_none(),
                oracle_ok(&level, &masks),
                "{level:?}"
            );
            let inf = level.clone().with_rules(Rules::Infinity);
            assert_eq!(first_fault(&inf).is_none(), oracle_ok(&inf, &masks));
        }
    }
}

/// The generator's round (propagation, then a search steered away from the intended
/// solution, bounded or not) says `Unique` only when the oracle counts one solution, and
/// otherwise returns a verified solution other than the intended one.
#[test]
fn generator_rounds_agree_with_the_oracle() {
    use super::net_search::{NetRound, RoundSearch, net_round};
    let mut rng = fastrand::Rng::with_seed(5);
    let cancel = AtomicBool::new(false);
    let (mut unique, mut other) = (0, 0);
    for b in small_boards(1..=4, 9) {
        for round in 0..4 {
            let solved = spanning_tree(&b, &mut rng);
            let level = scrambled(&b, &solved, Rules::Net, 6, &mut rng);
            if work(&level) > 200_000 {
                continue;
            }
            let intended = BoardLevel::new(b.clone(), solved.clone())
                .unwrap()
                .with_rules(Rules::Net);
            let expected = oracle_count(&level);
            assert!(expected >= 1, "the intended solution is one");
            let search = |_: usize| match round % 2 {
                0 => RoundSearch::Full,
                _ => RoundSearch::Bounded(1 << 20),
            };
            match net_round(&level, &intended, None, search, &mut None, &cancel).unwrap() {
                NetRound::Unique => {
                    assert_eq!(expected, 1, "{level:?}");
                    unique += 1;
                }
                NetRound::Other(sol) => {
                    assert!(expected > 1, "{level:?}");
                    assert_ne!(sol.masks(), &solved[..]);
                    assert!(oracle_ok(&sol, sol.masks()) && sol.is_turning_of(&level));
                    other += 1;
                }
                NetRound::Undecided(_) => panic!("the search always runs here"),
            }
        }
    }
    assert!(unique > 10 && other > 10, "{unique} unique, {other} not");
}

/// A round that lets only some cells turn: `Other` is a solution of the whole level that
/// keeps the intended orientation elsewhere, and `Unique` means the oracle finds no other
/// such solution (counted on the level with every cell outside locked as intended).
#[test]
fn windowed_rounds_agree_with_the_oracle() {
    use super::net_search::{NetRound, RoundSearch, net_round};
    let mut rng = fastrand::Rng::with_seed(11);
    let cancel = AtomicBool::new(false);
    let (mut unique, mut other) = (0, 0);
    for b in small_boards(1..=4, 9) {
        for _ in 0..4 {
            let solved = spanning_tree(&b, &mut rng);
            let level = scrambled(&b, &solved, Rules::Net, 6, &mut rng);
            if work(&level) > 200_000 {
                continue;
            }
            let intended = BoardLevel::new(b.clone(), solved.clone())
                .unwrap()
                .with_rules(Rules::Net);
            let free: Vec<bool> = (0..b.len()).map(|_| rng.bool()).collect();
            let mut outside = level.clone();
            let mut locked = vec![false; b.len()];
            for c in 0..b.len() {
                locked[c] = level.is_locked(c) || !free[c];
                if !free[c] {
                    outside.masks_mut()[c] = solved[c];
                }
            }
            let outside = outside.with_locked(locked).unwrap();
            let expected = oracle_count(&outside);
            assert!(expected >= 1, "the intended solution is one");
            let search = |_: usize| RoundSearch::Full;
            match net_round(&level, &intended, Some(&free), search, &mut None, &cancel).unwrap() {
                NetRound::Unique => {
                    assert_eq!(expected, 1, "{level:?} {free:?}");
                    unique += 1;
                }
                NetRound::Other(sol) => {
                    assert!(expected > 1, "{level:?} {free:?}");
                    assert_ne!(sol.masks(), &solved[..]);
                    assert!((0..b.len()).all(|c| free[c] || sol.masks()[c] == solved[c]));
                    assert!(oracle_ok(&sol, sol.masks()) && sol.is_turning_of(&level));
                    other += 1;
                }
                NetRound::Undecided(_) => panic!("the search always runs here"),
            }
        }
    }
    assert!(unique > 10 && other > 10, "{unique} unique, {other} not");
}

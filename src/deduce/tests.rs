//! The ladder against brute force: on every small board of every kind, under both rules, with
//! barriers and locked cells, every deduction keeps every solution (a rule that removed a
//! solution's orientation would fail here), a contradiction is only reported when there is
//! no solution, and a finished solve is the one solution.

use super::grade::{End, solve_steps};
use super::{Rule, mask_name};
use crate::board::fixtures::{
    brute_force, random_connections, scrambled, small_boards, spanning_tree,
};
use crate::board::mask::rotate;
use crate::board::{Board, BoardLevel, Rules, Tiling, Wrap};

/// Random connections kept with probability 2/3 (loops for Infinity), or a random spanning
/// tree (Net), or random masks (mostly unsolvable).
fn solved_masks(b: &Board, kind: u8, rng: &mut fastrand::Rng) -> Vec<u8> {
    match kind {
        0 => random_connections(b, rng),
        1 => spanning_tree(b, rng),
        _ => (0..b.len())
            .map(|_| rng.u8(..(1u16 << b.sides()).min(255) as u8))
            .collect(),
    }
}

#[test]
fn every_deduction_keeps_every_solution_on_every_small_board() {
    let mut rng = fastrand::Rng::with_seed(30);
    let mut fired = [0u32; 9];
    let (mut solved, mut refuted, mut stuck) = (0, 0, 0);
    for b in small_boards(2..=3, 9) {
        for round in 0..24 {
            let rules = Rules::ALL[round % 2];
            let kind = match round % 6 {
                0 | 2 => 0,
                5 => 2,
                _ => 1,
            };
            let solved_masks = solved_masks(&b, kind, &mut rng);
            let level = scrambled(&b, &solved_masks, rules, 8, &mut rng);
            let solutions = brute_force(&level);
            let end = solve_steps(&level, 6, None, |pos, d| {
                fired[Rule::ALL.iter().position(|&r| r == d.rule).unwrap()] += 1;
                assert_eq!(d.after & !d.before, 0, "a deduction only removes");
                assert_eq!(pos.dom[d.cell], d.after, "the ladder applied it");
                for sol in &solutions {
                    let o = pos.orientation_of(d.cell, sol[d.cell]).unwrap();
                    assert!(
                        d.after >> o & 1 == 1,
                        "{} removed {} at cell {}, which a solution uses: {}\n{level:?}",
                        d.rule.name(),
                        mask_name(&b, sol[d.cell]),
                        d.cell,
                        d.why(pos)
                    );
                }
            });
            match end {
                End::Solved => {
                    assert_eq!(solutions.len(), 1, "{level:?}");
                    solved += 1;
                }
                End::NoSolution(_) => {
                    assert!(solutions.is_empty(), "{level:?}");
                    refuted += 1;
                }
                End::Stuck => stuck += 1,
            }
        }
    }
    // Every rule but the guess fired somewhere, and every ending was seen.
    for (rule, n) in Rule::ALL.iter().zip(fired) {
        assert!(
            *rule == Rule::Guess || n > 0,
            "{} never fired: {fired:?}",
            rule.name()
        );
    }
    assert!(
        solved > 50 && refuted > 50 && stuck > 0,
        "{solved} {refuted} {stuck}"
    );
}

#[test]
fn a_finished_solve_is_the_solution() {
    let mut rng = fastrand::Rng::with_seed(31);
    for b in small_boards(2..=3, 9) {
        for rules in Rules::ALL {
            let solved_masks = solved_masks(&b, 1, &mut rng);
            let level = scrambled(&b, &solved_masks, rules, 8, &mut rng);
            let solutions = brute_force(&level);
            let mut ladder = super::Ladder::new(&level, 6).unwrap();
            let last = loop {
                match ladder.next_step() {
                    super::Step::Deduced(_) => {}
                    other => break other,
                }
            };
            if let super::Step::Solved = last {
                assert_eq!(solutions, vec![ladder.pos().masks().unwrap()], "{level:?}");
            }
        }
    }
}

/// Rungs 1 and 2 written again from the piece masks alone: each cell's distinct turnings
/// that point at no border or barrier, then, while some cell has one turning left, its
/// neighbours keep only the turnings that agree with it across the shared side. The masks
/// when every cell ends with one turning.
fn first_rungs_alone(level: &BoardLevel) -> Option<Vec<u8>> {
    let b = level.board();
    let k = b.sides();
    let mut cand: Vec<Vec<u8>> = (0..b.len())
        .map(|c| {
            let m0 = level.masks()[c];
            let mut v: Vec<u8> = if level.is_locked(c) {
                vec![m0]
            } else {
                (0..k).map(|r| rotate(m0, k, r)).collect()
            };
            v.sort();
            v.dedup();
            v.retain(|&m| {
                m & level.barrier(c) == 0
                    && (0..k as usize).all(|s| m >> s & 1 == 0 || b.neighbour(c, s).is_some())
            });
            v
        })
        .collect();
    loop {
        let mut changed = false;
        for c in 0..b.len() {
            if cand[c].len() != 1 {
                continue;
            }
            let m = cand[c][0];
            for s in 0..k as usize {
                if let Some((n, t)) = b.neighbour(c, s) {
                    let before = cand[n].len();
                    cand[n].retain(|&x| (x >> t & 1) == (m >> s & 1));
                    changed |= cand[n].len() != before;
                }
            }
        }
        if !changed {
            break;
        }
    }
    cand.iter().map(|v| (v.len() == 1).then(|| v[0])).collect()
}

#[test]
fn easy_levels_are_solved_by_the_first_two_rungs_written_again() {
    use super::Difficulty;
    use crate::generate::board_difficulty::make_to_difficulty;
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(false);
    let mut made = 0;
    for tiling in Tiling::ALL {
        for wrap in [Wrap::NONE, Wrap::BOTH] {
            let b = Board::new(tiling, 5, 4, wrap).unwrap();
            for rules in Rules::ALL {
                for seed in 0..3 {
                    let limit = (200, None);
                    let Ok(m) =
                        make_to_difficulty(&b, rules, Difficulty::Easy, seed, limit, &cancel)
                    else {
                        continue;
                    };
                    let solved = first_rungs_alone(&m.level);
                    assert_eq!(solved.as_deref(), Some(m.solution.masks()), "{:?}", m.level);
                    assert_eq!(brute_force(&m.level).len(), 1, "unique");
                    made += 1;
                }
            }
        }
    }
    assert!(made >= 12, "only {made} easy levels were made");
}

#[test]
fn generated_levels_need_exactly_their_rung_and_are_unique() {
    use super::{Difficulty, grade};
    use crate::generate::board_difficulty::make_to_difficulty;
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(false);
    let mut seen = std::collections::HashSet::new();
    for tiling in Tiling::ALL {
        let b = Board::new(tiling, 5, 5, Wrap::NONE).unwrap();
        for rules in Rules::ALL {
            for want in Difficulty::ALL {
                // Expert levels are the rarest: more unique levels are graded to find one.
                let tries = if want == Difficulty::Expert {
                    2000
                } else {
                    200
                };
                let Ok(m) = make_to_difficulty(&b, rules, want, 7, (tries, None), &cancel) else {
                    continue;
                };
                let g = grade(&m.level, None);
                assert_eq!(g.difficulty(), Some(want), "{:?}", m.level);
                assert!(g.rung <= want.top_rung());
                assert_eq!(brute_force(&m.level), vec![m.solution.masks().to_vec()]);
                seen.insert(want.name());
            }
        }
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

#[test]
fn counting_fires_by_parity_and_by_colour_under_both_rules_and_keeps_every_solution() {
    use super::why::Detail;
    let mut rng = fastrand::Rng::with_seed(32);
    // (two-coloured board, Net rules, closed region) -> firings.
    let mut seen = std::collections::HashMap::new();
    for b in small_boards(2..=4, 16) {
        for round in 0..60 {
            let rules = Rules::ALL[round % 2];
            let kind = [0, 1, 1, 2][round / 2 % 4];
            let solved_masks = solved_masks(&b, kind, &mut rng);
            let level = scrambled(&b, &solved_masks, rules, 8, &mut rng);
            let mut found = Vec::new();
            let end = solve_steps(&level, 6, None, |pos, d| {
                if let Detail::Counting { coloured, side, .. } = d.detail {
                    *seen
                        .entry((coloured, rules == Rules::Net, side == u8::MAX))
                        .or_insert(0) += 1;
                    found.push((d.cell, d.after, d.why(pos)));
                }
            });
            if found.is_empty() {
                continue;
            }
            // The same check as the test above, on the levels where counting fired.
            let solutions = brute_force(&level);
            if matches!(end, End::NoSolution(_)) {
                assert!(solutions.is_empty(), "{level:?}");
            }
            let pos = super::Position::new(&level).unwrap();
            for (cell, after, why) in found {
                for sol in &solutions {
                    let o = pos.orientation_of(cell, sol[cell]).unwrap();
                    assert!(after >> o & 1 == 1, "{why}\n{level:?}");
                }
            }
        }
    }
    for coloured in [false, true] {
        for net in [false, true] {
            assert!(
                seen.get(&(coloured, net, false)).is_some_and(|&n| n > 0),
                "no counting across a side with coloured {coloured}, net {net}: {seen:?}"
            );
        }
    }
    assert!(
        seen.keys().any(|k| k.2),
        "no closed region counted: {seen:?}"
    );
}

#[test]
fn easy_net_levels_are_made_on_a_large_hexagonal_board() {
    use super::Difficulty;
    use crate::generate::board_difficulty::make_to_difficulty;
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(false);
    let b = Board::new(Tiling::Hexagonal, 20, 20, Wrap::NONE).unwrap();
    for seed in 0..3 {
        let m = make_to_difficulty(&b, Rules::Net, Difficulty::Easy, seed, (20, None), &cancel)
            .expect("an easy level within 20 attempts");
        let solved = first_rungs_alone(&m.level);
        assert_eq!(solved.as_deref(), Some(m.solution.masks()));
    }
}

#[test]
fn the_hint_and_the_web_apps_why_give_a_counting_step() {
    // Turns as a solution's, but one piece as a counting step ruled out: the first step the
    // turns break is that one (every earlier step keeps the solution and that orientation).
    let mut rng = fastrand::Rng::with_seed(33);
    for b in small_boards(2..=4, 16) {
        for round in 0..60 {
            let rules = Rules::ALL[round % 2];
            let solved_masks = solved_masks(&b, [0, 1][round / 2 % 2], &mut rng);
            let level = scrambled(&b, &solved_masks, rules, 8, &mut rng);
            let mut counted = None;
            solve_steps(&level, 6, None, |pos, d| {
                if d.rule == Rule::Counting && d.after != 0 && counted.is_none() {
                    let o = (d.before & !d.after).trailing_zeros();
                    counted = Some((d.cell, pos.mask(d.cell, o)));
                }
            });
            let Some((cell, wrong)) = counted else {
                continue;
            };
            let Some(mut turns) = brute_force(&level).into_iter().next() else {
                continue;
            };
            turns[cell] = wrong;
            let hint = super::hint::explained_step(&level, &turns).expect("a hint");
            assert!(hint.text.starts_with("[4 counting] "), "{}", hint.text);
            assert_eq!(hint.cells[0], cell);
            return;
        }
    }
    panic!("no counting step on the small boards");
}

/// The ladder's steps on `level` to the end, guessing from `solution` when stuck, with the
/// trials' memo (every recalled trial run as well, to check it) or without; and the memo's
/// use (see [`super::Ladder::trial_memo_use`]).
fn steps_with_memo(
    level: &BoardLevel,
    solution: &[u8],
    memo: bool,
) -> (Vec<super::Deduction>, (u64, bool)) {
    let mut ladder = super::Ladder::new(level, 6).unwrap().with_trial_memo(memo);
    let mut steps = Vec::new();
    loop {
        match ladder.next_step() {
            super::Step::Deduced(d) => steps.push(d),
            super::Step::Stuck => {
                let d = ladder.guess(solution).unwrap();
                ladder.apply(&d).unwrap();
                steps.push(d);
            }
            super::Step::Solved | super::Step::Contradiction(_) => break,
        }
    }
    (steps, ladder.trial_memo_use())
}

/// Random connections, each side kept with probability 1 - 1/`one_in`.
fn random_connections_one_in(b: &Board, one_in: u8, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; b.len()];
    for (c, s) in b.edges() {
        if rng.u8(..one_in) > 0 {
            let (n, t) = b.neighbour(c, s).unwrap();
            masks[c] |= 1 << s;
            masks[n] |= 1 << t;
        }
    }
    masks
}

#[test]
fn trials_answered_from_the_memo_change_no_step() {
    // 48x48 levels with many solutions: a solve guesses tens of times and tries the
    // undecided cells again after each guess, until the trials' budget is spent.
    let mut rng = fastrand::Rng::with_seed(32);
    let (mut recalled, mut spent) = (0, 0);
    for tiling in Tiling::ALL {
        for wrap in [Wrap::NONE, Wrap::BOTH] {
            let b = Board::new(tiling, 48, 48, wrap).unwrap();
            for one_in in [3, 4] {
                let solved = random_connections_one_in(&b, one_in, &mut rng);
                let level = scrambled(&b, &solved, Rules::Infinity, 32, &mut rng);
                let (with, used) = steps_with_memo(&level, &solved, true);
                let (without, _) = steps_with_memo(&level, &solved, false);
                assert_eq!(with, without, "{tiling:?} {wrap:?}");
                recalled += used.0;
                spent += used.1 as u32;
            }
        }
    }
    // The memo answered trials, and some solves spent the budget (where the work the memo
    // counts decides where the trials stop).
    assert!(recalled > 5000 && spent > 2, "{recalled} {spent}");
}

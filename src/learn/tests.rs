//! Learning against brute force on every small board (square bounded and wrapped,
//! hexagonal, with barriers and locks): the verdict agrees with the oracle, every answer is
//! a solution, and no learned clause is violated by any solution (a clause that is not
//! implied would cut solutions away unseen). On medium path tilings, solvable and made
//! unsolvable, the verdict agrees with the any-board engine.

use std::sync::atomic::AtomicBool;

use super::search::Phases;
use super::solve::{SideClause, run};
use crate::anyboard::solve::Outcome;
use crate::board::fixtures::{random_connections, scrambled, small_boards, spanning_tree};
use crate::board::{Board, BoardLevel, Rules, Tiling, Wrap};

/// True when `masks` makes some literal of `clause` true.
fn satisfies(masks: &[u8], clause: &SideClause) -> bool {
    clause
        .iter()
        .any(|&(c, s, connected)| (masks[c] >> s & 1 == 1) == connected)
}

/// Solves `level` by learning and checks it against the oracle: verdict, answer, and every
/// learned clause. Returns the number of clauses checked.
fn check_against_oracle(level: &BoardLevel) -> usize {
    let solutions = crate::board::fixtures::brute_force(level);
    let mut checked = 0;
    // Both phase choices: the first-turn phases conflict most (and so learn most); the
    // near-solution phases are what `-m learn` uses.
    for phases in [Phases::FirstTurn, Phases::Matching] {
        checked += check_run(level, &solutions, phases);
    }
    checked
}

/// One learning run on `level` checked against its brute-force `solutions`.
fn check_run(level: &BoardLevel, solutions: &[Vec<u8>], phases: Phases) -> usize {
    let cancel = AtomicBool::new(false);
    let (outcome, _, recorded) = run(level, None, &cancel, true, phases);
    for clause in &recorded.tree {
        assert!(tree_shaped(level, clause), "{clause:?} on {level:?}");
    }
    let learned = recorded.learned;
    match &outcome {
        Outcome::Solved(s) => {
            assert!(
                !solutions.is_empty(),
                "solved an unsolvable level {level:?}"
            );
            assert!(
                solutions.iter().any(|m| m == s.masks()),
                "the answer is not among the oracle's solutions: {level:?}"
            );
        }
        Outcome::NoSolution => {
            assert!(solutions.is_empty(), "no solution claimed for {level:?}")
        }
        other => panic!("{other:?}"),
    }
    for clause in &learned {
        for m in solutions {
            assert!(
                satisfies(m, clause),
                "learned clause {clause:?} cuts off solution {m:?} of {level:?}"
            );
        }
    }
    learned.len()
}

/// A level on `b`: solved masks of random connections or a spanning tree, scrambled with
/// barriers and locks now and then, and one cell in five altered (a side added or removed,
/// often leaving no solution).
fn small_level(b: &Board, rules: Rules, rng: &mut fastrand::Rng) -> BoardLevel {
    // Under Net rules random connections are usually no tree: levels without a solution
    // (from a loop or an island), which the tree theory must refute.
    let solved = if rng.bool() {
        random_connections(b, rng)
    } else {
        spanning_tree(b, rng)
    };
    let mut level = scrambled(b, &solved, rules, 6, rng);
    if rng.u8(..5) == 0 {
        let c = rng.usize(..b.len());
        if !level.is_locked(c) {
            level.masks_mut()[c] ^= 1 << rng.u8(..b.sides());
        }
    }
    level
}

#[test]
fn verdicts_answers_and_learned_clauses_agree_with_brute_force_on_small_boards() {
    let mut rng = fastrand::Rng::with_seed(32);
    let (mut levels, mut clauses) = (0, 0);
    for b in small_boards(1..=4, 12) {
        for _ in 0..12 {
            clauses += check_against_oracle(&small_level(&b, Rules::Infinity, &mut rng));
            levels += 1;
        }
    }
    assert!(levels > 800, "{levels} levels");
    // Small boards rarely conflict; the larger ones below do.
    assert!(clauses > 0, "no clause learned on {levels} levels");
}

/// Every cell a random piece of two sides (corners and straights on squares): propagation
/// settles little, so the search conflicts; solvable or not.
fn two_sided_level(b: &Board, rng: &mut fastrand::Rng) -> BoardLevel {
    let k = b.sides();
    let masks = (0..b.len())
        .map(|_| {
            let s = rng.u8(..k);
            let t = (s + rng.u8(1..k)) % k;
            (1u8 << s) | (1 << t)
        })
        .collect();
    BoardLevel::new(b.clone(), masks).unwrap()
}

#[test]
fn learned_clauses_are_implied_on_boards_that_conflict() {
    let mut rng = fastrand::Rng::with_seed(320);
    let kinds = [
        (Tiling::Square, Wrap::BOTH, 4, 4),
        (Tiling::Square, Wrap::BOTH, 5, 4),
        (Tiling::Square, Wrap::BOTH, 3, 5),
        (Tiling::Hexagonal, Wrap::BOTH, 4, 4),
        (Tiling::Hexagonal, Wrap::BOTH, 4, 3),
    ];
    let mut clauses = 0;
    for (tiling, wrap, w, h) in kinds {
        let b = Board::new(tiling, w, h, wrap).unwrap();
        let mut learned_here = 0;
        for _ in 0..40 {
            learned_here += check_against_oracle(&two_sided_level(&b, &mut rng));
        }
        assert!(learned_here > 0, "{tiling:?} {wrap:?}: nothing learned");
        clauses += learned_here;
    }
    assert!(clauses > 200, "only {clauses} clauses checked");
}

/// Net rules: the same check, the tree theory's lemmas among the clauses checked (each must
/// hold in every one-tree solution the oracle finds), and levels both solved and refuted.
#[test]
fn under_net_rules_verdicts_answers_and_lemmas_agree_with_brute_force_on_small_boards() {
    let mut rng = fastrand::Rng::with_seed(2932);
    let (mut levels, mut clauses, mut solvable) = (0, 0, 0);
    for b in small_boards(1..=4, 12) {
        for _ in 0..12 {
            let level = small_level(&b, Rules::Net, &mut rng);
            solvable += !crate::board::fixtures::brute_force(&level).is_empty() as usize;
            clauses += check_against_oracle(&level);
            levels += 1;
        }
    }
    assert!(levels > 800, "{levels} levels");
    assert!(
        solvable > levels / 4 && solvable < levels * 3 / 4,
        "{solvable} of {levels} solvable: the levels test one verdict only"
    );
    assert!(clauses > 100, "only {clauses} clauses and lemmas checked");
}

/// An independent judge of the tree theory's clauses, from the board alone: a clause of
/// "not connected" literals holds under Net rules when its first edge's ends are joined by
/// its other edges (all connected, they would close a cycle); a clause of "connected"
/// literals holds when the cells its first edge's end reaches without crossing any of its
/// edges hold some but not all non-empty cells (every edge leaving that set is in the
/// clause, and one tree must leave it).
fn tree_shaped(level: &BoardLevel, clause: &SideClause) -> bool {
    let b = level.board();
    let n = b.len();
    let far = |&(c, s, _): &(usize, usize, bool)| b.neighbour(c, s).expect("an edge").0;
    let same_edge = |c: usize, s: usize, &(d, t, _): &(usize, usize, bool)| {
        (c, s) == (d, t) || b.neighbour(d, t) == Some((c, s))
    };
    let Some(&first) = clause.first() else {
        return false;
    };
    let connected = first.2;
    if clause.iter().any(|l| l.2 != connected) {
        return false;
    }
    // Cells reached from `first`'s cell by the edges `walk` accepts.
    let reach = |walk: &dyn Fn(usize, usize) -> bool| {
        let mut seen = vec![false; n];
        let mut stack = vec![first.0];
        seen[first.0] = true;
        while let Some(c) = stack.pop() {
            for s in 0..b.sides() as usize {
                if let Some((d, _)) = b.neighbour(c, s)
                    && !seen[d]
                    && walk(c, s)
                {
                    seen[d] = true;
                    stack.push(d);
                }
            }
        }
        seen
    };
    if !connected {
        let others = &clause[1..];
        let seen = reach(&|c, s| others.iter().any(|l| same_edge(c, s, l)));
        seen[far(&first)]
    } else {
        let seen = reach(&|c, s| !clause.iter().any(|l| same_edge(c, s, l)));
        let nonempty = |c: usize| level.masks()[c] != 0;
        let inside = (0..n).filter(|&c| seen[c] && nonempty(c)).count();
        let total = (0..n).filter(|&c| nonempty(c)).count();
        inside > 0 && inside < total
    }
}

/// The tree theory's propagations, whose reasons are built only when analysis asks: small
/// levels rarely conflict once the theory propagates, so this runs on the generator's
/// spanning-tree levels of 64x64 to 96x96 cells under Net rules, from first-turn phases.
/// Every lemma and reason must have a shape that makes it hold ([`tree_shaped`]), and every
/// clause learned must keep the tree the level was made from.
#[test]
fn under_net_rules_the_tree_rules_reasons_are_shaped_to_hold_on_large_boards() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(2934);
    let (mut explained, mut shaped) = (0u64, 0);
    for tiling in [Tiling::Square, Tiling::Hexagonal] {
        for wrap in [
            Wrap::NONE,
            Wrap::BOTH,
            Wrap::NONE,
            Wrap::BOTH,
            Wrap::NONE,
            Wrap::BOTH,
        ] {
            let (w, h) = (rng.usize(64..=96), rng.usize(64..=96));
            let b = Board::new(tiling, w, h, wrap).unwrap();
            let (level, tree) = crate::generate::board_families::generate_on_board(
                &b,
                crate::generate::board_families::BoardFamily::Maze,
                rng.u64(..),
            );
            let level = level.with_rules(Rules::Net);
            let (outcome, stats, recorded) = run(&level, None, &cancel, true, Phases::FirstTurn);
            let Outcome::Solved(s) = outcome else {
                panic!("{outcome:?} on a {w}x{h} {tiling:?} maze")
            };
            assert!(s.is_turning_of(&level) && crate::anyboard::is_solved(&s));
            assert!(crate::board::fixtures::is_one_tree(&b, s.masks()));
            for clause in &recorded.learned {
                assert!(
                    satisfies(tree.masks(), clause),
                    "{clause:?} cuts off the tree"
                );
            }
            for clause in &recorded.tree {
                assert!(
                    tree_shaped(&level, clause),
                    "{clause:?} is no loop or island"
                );
            }
            shaped += recorded.tree.len();
            explained += stats.counters.tree_explained;
        }
    }
    assert!(
        explained >= 40 && shaped >= 150,
        "only {explained} reasons of the tree rules built, {shaped} clauses shaped"
    );
}

/// Net rules on boards too large for brute force but large enough to go round in loops and
/// close islands, judged against the any-board engine's Net propagators: spanning trees
/// scrambled without locks, random connections (solvable under Infinity rules, so only the
/// tree theory's lemmas can refute them when no tree exists) and two-sided pieces (never a
/// tree).
#[test]
fn under_net_rules_verdicts_agree_with_the_any_board_engine_on_medium_boards() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(2933);
    let mut lemmas = 0;
    for (tiling, wrap) in [
        (Tiling::Square, Wrap::BOTH),
        (Tiling::Square, Wrap::NONE),
        (Tiling::Hexagonal, Wrap::BOTH),
        (Tiling::Hexagonal, Wrap::NONE),
    ] {
        let (mut solved, mut refuted) = (0, 0);
        for i in 0..24 {
            let b = Board::new(tiling, rng.usize(8..=14), rng.usize(8..=14), wrap).unwrap();
            let level = match i % 3 {
                0 => scrambled(&b, &spanning_tree(&b, &mut rng), Rules::Net, 255, &mut rng),
                1 => scrambled(
                    &b,
                    &random_connections(&b, &mut rng),
                    Rules::Net,
                    255,
                    &mut rng,
                ),
                // Pieces of two sides make as many connections as cells: never a tree.
                _ => two_sided_level(&b, &mut rng).with_rules(Rules::Net),
            };
            let (theirs, _) = crate::anyboard::solve_level(&level, None, &cancel);
            let (ours, stats, recorded) = run(&level, None, &cancel, true, Phases::FirstTurn);
            lemmas += stats.counters.lemmas;
            for clause in &recorded.tree {
                assert!(tree_shaped(&level, clause), "{clause:?} on {level:?}");
            }
            match (&theirs, &ours) {
                (Outcome::Solved(_), Outcome::Solved(s)) => {
                    assert!(s.is_turning_of(&level) && crate::anyboard::is_solved(s));
                    assert!(crate::board::fixtures::is_one_tree(&b, s.masks()));
                    assert!(crate::anyboard::first_fault(s).is_none());
                    solved += 1;
                }
                (Outcome::NoSolution, Outcome::NoSolution) => refuted += 1,
                _ => panic!("engine {theirs:?}, learning {ours:?} on {level:?}"),
            }
        }
        assert!(
            solved >= 6 && refuted >= 6,
            "{tiling:?} {wrap:?}: {solved} solved, {refuted} refuted"
        );
    }
    assert!(
        lemmas >= 5,
        "only {lemmas} lemmas: the theory was hardly asked"
    );
}

/// A path tiling of `w`x`h` (paths of `len` cells) scrambled; with `alter`, one piece is
/// changed so that the level usually has no solution: a one-end piece becomes a straight,
/// or two pieces of different shapes swap places.
fn path_level(
    w: usize,
    h: usize,
    len: usize,
    bent: f64,
    alter: bool,
    rng: &mut fastrand::Rng,
) -> BoardLevel {
    let masks = crate::generate::paths::path_masks(h, w, len, bent, rng);
    let board = Board::new(Tiling::Square, w, h, Wrap::NONE).unwrap();
    let mut level = BoardLevel::new(board, masks).unwrap();
    crate::generate::board_families::scramble(&mut level, rng);
    if alter {
        let n = level.masks().len();
        if rng.bool() {
            let ends: Vec<usize> = (0..n)
                .filter(|&c| level.masks()[c].count_ones() == 1)
                .collect();
            if let Some(&c) = ends.get(rng.usize(..ends.len().max(1))) {
                level.masks_mut()[c] = 0b0101;
            }
        } else {
            let a = rng.usize(..n);
            let k = level.board().sides();
            let ca = crate::board::mask::canonical(level.masks()[a], k);
            if let Some(b) = (0..n)
                .map(|i| (a + 1 + i) % n)
                .find(|&b| crate::board::mask::canonical(level.masks()[b], k) != ca)
            {
                level.masks_mut().swap(a, b);
            }
        }
    }
    level
}

#[test]
fn verdicts_agree_with_the_any_board_engine_on_medium_path_tilings() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(3232);
    let (mut solved, mut unsolvable, mut conflicts) = (0, 0, 0u64);
    for i in 0..200 {
        let len = if i % 2 == 0 { 3 } else { 4 };
        let bent = [0.6, 0.75, 0.9, 1.0][i % 4];
        let (w, h) = (rng.usize(12..=28), rng.usize(12..=28));
        let level = path_level(w, h, len, bent, i % 3 == 0, &mut rng);
        let (theirs, _) = crate::anyboard::solve(&level, None, &cancel);
        let (ours, stats, _) = run(&level, None, &cancel, false, Phases::FirstTurn);
        conflicts += stats.counters.conflicts;
        // The near-solution phases only order the search: the same verdict.
        let (matched, stats, _) = run(&level, None, &cancel, false, Phases::Matching);
        conflicts += stats.counters.conflicts;
        assert_eq!(
            matches!(matched, Outcome::Solved(_)),
            matches!(ours, Outcome::Solved(_)),
            "the phases changed the verdict on {level:?}"
        );
        match (&theirs, &ours) {
            (Outcome::Solved(_), Outcome::Solved(s)) => {
                assert!(s.is_turning_of(&level) && crate::anyboard::is_solved(s));
                solved += 1;
            }
            (Outcome::NoSolution, Outcome::NoSolution) => unsolvable += 1,
            _ => panic!("engine {theirs:?}, learning {ours:?} on {level:?}"),
        }
    }
    assert!(
        solved > 80 && unsolvable > 30,
        "{solved} solved, {unsolvable} not"
    );
    // Levels whose ends no longer pair up (a one-end piece made straight) are refuted by
    // counting before any search, so the conflicts come from the others.
    assert!(
        conflicts > 100,
        "only {conflicts} conflicts: the levels test little"
    );
}

/// Odd pockets (`pockets.rs`) abound where one-end pieces do: on medium boards of them,
/// searched from the first-turn phases (which conflict most), every clause learned, the
/// pockets' lemmas among them, holds in the solution the level was made from.
#[test]
fn odd_pocket_lemmas_hold_in_the_planted_solution_of_one_end_heavy_levels() {
    use crate::generate::board_families::{BoardFamily, scramble, solved_masks};
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(2811);
    let (mut clauses, mut pockets) = (0, 0);
    for (tiling, wrap) in [
        (Tiling::Hexagonal, Wrap::NONE),
        (Tiling::Hexagonal, Wrap::BOTH),
        (Tiling::Square, Wrap::BOTH),
    ] {
        for _ in 0..6 {
            let b = Board::new(tiling, 72, 64, wrap).unwrap();
            let planted = solved_masks(&b, BoardFamily::Dominoes, &mut rng);
            let mut level = BoardLevel::new(b.clone(), planted.clone()).unwrap();
            scramble(&mut level, &mut rng);
            let (outcome, stats, recorded) = run(&level, None, &cancel, true, Phases::FirstTurn);
            assert!(
                matches!(outcome, Outcome::Solved(_)),
                "{outcome:?} on {level:?}"
            );
            for clause in &recorded.learned {
                assert!(
                    satisfies(&planted, clause),
                    "learned clause {clause:?} cuts off the planted solution of {level:?}"
                );
            }
            clauses += recorded.learned.len();
            pockets += stats.counters.pockets;
        }
    }
    assert!(
        pockets > 100 && clauses > 1000,
        "{pockets} pockets, {clauses} clauses: the levels test little"
    );
}

/// A level of mostly one-end pieces (the dominoes family) on `b`, scrambled; with
/// `alter`, a one-end piece becomes a corner: an odd number of ends when `alter` is 1, an
/// even one (another one-end piece made empty) when 2.
fn dominoes_level(b: &Board, alter: u8, rng: &mut fastrand::Rng) -> BoardLevel {
    use crate::generate::board_families::{BoardFamily, scramble, solved_masks};
    let masks = solved_masks(b, BoardFamily::Dominoes, rng);
    let mut level = BoardLevel::new(b.clone(), masks).unwrap();
    scramble(&mut level, rng);
    let ends: Vec<usize> = (0..b.len())
        .filter(|&c| level.masks()[c].count_ones() == 1)
        .collect();
    if alter >= 1 {
        let c = ends[rng.usize(..ends.len())];
        level.masks_mut()[c] = 0b11;
    }
    if alter == 2 {
        let c = ends[rng.usize(..ends.len())];
        level.masks_mut()[c] = 0;
    }
    level
}

#[test]
fn searches_around_the_defects_of_the_near_solution_solve_and_refute_only_by_counting() {
    let cancel = AtomicBool::new(false);
    let mut rng = fastrand::Rng::with_seed(2828);
    let (mut solved, mut unsolvable, mut parts) = (0, 0, 0u64);
    for i in 0..48 {
        let (tiling, wrap) = [
            (Tiling::Hexagonal, Wrap::NONE),
            (Tiling::Hexagonal, Wrap::BOTH),
            (Tiling::Square, Wrap::BOTH),
        ][i % 3];
        let (w, h) = (rng.usize(14..=40), 2 * rng.usize(7..=20));
        let b = Board::new(tiling, w, h, wrap).unwrap();
        let alter = [0, 0, 1, 2][i / 3 % 4];
        let level = dominoes_level(&b, alter, &mut rng);
        let (ours, stats, _) = run(&level, None, &cancel, false, Phases::Matching);

        parts += stats.counters.neighbourhoods;
        match ours {
            Outcome::Solved(s) => {
                assert!(s.is_turning_of(&level) && crate::anyboard::is_solved(&s));
                solved += 1;
            }
            Outcome::NoSolution => {
                // Counted here, apart from the solver: an odd number of ends, or on a
                // square board of even lengths (two-coloured like a chessboard, each edge
                // joining two colours) more ends on one colour than the other.
                let ends = |colour: Option<usize>| -> usize {
                    (0..b.len())
                        .filter(|&c| colour.is_none_or(|k| (c % w + c / w) % 2 == k))
                        .map(|c| level.masks()[c].count_ones() as usize)
                        .sum()
                };
                let chessboard = tiling == Tiling::Square && w % 2 == 0 && h % 2 == 0;
                assert!(
                    ends(None) % 2 == 1 || (chessboard && ends(Some(0)) != ends(Some(1))),
                    "no solution claimed for {level:?}"
                );
                unsolvable += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(
        solved > 20 && unsolvable > 8,
        "{solved} solved, {unsolvable} not"
    );
    assert!(
        parts > 0,
        "no search around a defect: the test tests little"
    );
}

/// A pool of `threads` workers, for what depends on how many the pool has.
#[cfg(feature = "parallel")]
pub(super) fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Two searches raced on two threads (`solve_raced`) give the verdict the any-board engine
/// gives, and a verified answer, on hexagonal path tilings (one region each), solvable and
/// altered; either racer may be the one that answers. So do the race and the lone search
/// that carry on a search stopped after a few conflicts (`local::Paused`).
#[cfg(feature = "parallel")]
#[test]
fn raced_searches_agree_with_the_any_board_engine_on_hexagonal_path_tilings() {
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    let cancel = AtomicBool::new(false);
    let (pool, one) = (pool(2), pool(1));
    let (mut solved, mut unsolvable, mut raced, mut carried) = (0, 0, 0, 0);
    let mut rng = fastrand::Rng::with_seed(4242);
    for seed in 0..16 {
        let b = Board::new(Tiling::Hexagonal, 10 + seed as usize % 5, 12, Wrap::NONE).unwrap();
        let family = BoardFamily::Paths { len: 3, bent: 0.75 };
        let (mut level, _) = generate_on_board(&b, family, seed);
        if seed % 3 == 0 {
            // One one-end piece made a sharp bend: the ends no longer add up as they did.
            let ends: Vec<usize> = (0..b.len())
                .filter(|&c| level.masks()[c].count_ones() == 1)
                .collect();
            level.masks_mut()[ends[rng.usize(..ends.len())]] = 0b11;
        }
        // Only a level of one region (two cells in three one-end pieces) is raced.
        raced += usize::from(super::auto::one_end_heavy(&level));
        let (theirs, _) = crate::anyboard::solve(&level, None, &cancel);
        let (ours, _) = pool.install(|| super::solve::solve_raced(&level, None, &cancel, None));
        let mut answers = vec![("raced", ours)];
        for (how, pool) in [("carried on, raced", &pool), ("carried on alone", &one)] {
            let edges = super::edges::Edges::new(&level);
            let Some(paused) = super::local::paused_after(edges, 8) else {
                continue;
            };
            carried += 1;
            let resume = Some(paused);
            let (o, st) = pool.install(|| super::solve::solve_raced(&level, None, &cancel, resume));
            // The counters go on from the stopped search's.
            assert!(
                !matches!(o, Outcome::Solved(_)) || st.counters.conflicts >= 8,
                "{how}: {} conflicts",
                st.counters.conflicts
            );
            answers.push((how, o));
        }
        for (how, ours) in answers {
            match (&theirs, &ours) {
                (Outcome::Solved(_), Outcome::Solved(s)) => {
                    assert!(s.is_turning_of(&level) && crate::anyboard::is_solved(s));
                    solved += 1;
                }
                (Outcome::NoSolution, Outcome::NoSolution) => unsolvable += 1,
                _ => panic!("engine {theirs:?}, learning ({how}) {ours:?} on {level:?}"),
            }
        }
    }
    assert!(
        solved > 6 && unsolvable > 2,
        "{solved} solved, {unsolvable} not"
    );
    assert!(
        carried > 10,
        "only {carried} searches carried on: the test tests little"
    );
    assert!(
        raced > 5,
        "only {raced} levels raced: the test tests little"
    );
}

#[test]
fn facts_from_failed_probes_hold_in_the_planted_solution_and_verdicts_agree() {
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    let cancel = AtomicBool::new(false);
    let (mut probes, mut failed, mut clauses, mut unsolvable) = (0, 0, 0, 0);
    let (mut chronological, mut deep) = (0, 0);
    for seed in 0..8u64 {
        let b = Board::new(Tiling::Hexagonal, 32 + seed as usize % 3, 30, Wrap::NONE).unwrap();
        let family = BoardFamily::Paths { len: 4, bent: 0.75 };
        let (mut level, planted) = generate_on_board(&b, family, seed);
        let altered = seed % 4 == 3;
        if altered {
            // A one-end piece made empty: the ends add up to an odd number (each connection
            // joins two), so no solution.
            let c = (0..b.len())
                .find(|&c| level.masks()[c].count_ones() == 1)
                .unwrap();
            level.masks_mut()[c] = 0;
        }
        // First-turn phases conflict most, so the search restarts and probes.
        let (outcome, stats, recorded) = run(&level, None, &cancel, true, Phases::FirstTurn);
        match &outcome {
            Outcome::Solved(s) if !altered => {
                assert!(s.is_turning_of(&level) && crate::anyboard::is_solved(s))
            }
            Outcome::NoSolution if altered => unsolvable += 1,
            _ => panic!("learning {outcome:?} on {level:?} (altered: {altered})"),
        }
        if !altered {
            for clause in &recorded.learned {
                assert!(
                    satisfies(planted.masks(), clause),
                    "learned clause {clause:?} cuts off the planted solution of {level:?}"
                );
            }
            clauses += recorded.learned.len();
        }
        probes += stats.counters.probes;
        failed += stats.counters.failed_literals;
        chronological += stats.counters.chronological;
        deep += stats.counters.minimised_deep;
    }
    assert!(unsolvable == 2, "{unsolvable} altered levels refuted");
    assert!(
        probes > 500 && failed > 50 && clauses > 1000 && chronological > 1000 && deep > 200,
        "{probes} probes, {failed} failed, {clauses} clauses, {chronological} chronological \
         backtracks, {deep} literals minimised through chains: the levels test little"
    );
}

/// Levels under Infinity rules on every small board (with barriers and locks, and on boards
/// that conflict), some from connections (solvable, often several times), some two-sided
/// on wrapped boards: what the second-solution searches are checked on.
fn small_infinity_levels() -> Vec<BoardLevel> {
    let mut rng = fastrand::Rng::with_seed(77);
    let mut levels: Vec<BoardLevel> = Vec::new();
    for b in small_boards(1..=4, 12) {
        for _ in 0..6 {
            levels.push(small_level(&b, Rules::Infinity, &mut rng));
        }
        // Made from connections, no barriers nor locks: solvable, often several times.
        for _ in 0..2 {
            let k = b.sides();
            let masks = random_connections(&b, &mut rng)
                .into_iter()
                .map(|m| crate::board::mask::rotate(m, k, rng.u8(..k)))
                .collect();
            levels.push(BoardLevel::new(b.clone(), masks).unwrap());
        }
    }
    for (tiling, w, h) in [(Tiling::Square, 4, 4), (Tiling::Hexagonal, 4, 3)] {
        let b = Board::new(tiling, w, h, Wrap::BOTH).unwrap();
        for _ in 0..40 {
            levels.push(two_sided_level(&b, &mut rng));
        }
    }
    levels
}

/// A second solution by learning, against brute force on every small board (with barriers
/// and locks, and on boards that conflict): from each solution the oracle lists,
/// learning finds a different one exactly when there are several, and the raced
/// `two_solutions` gives as many solutions as the oracle, up to two.
#[test]
fn another_solution_and_two_solutions_agree_with_brute_force() {
    use super::another::another_solution_until;
    let cancel = AtomicBool::new(false);
    let levels = small_infinity_levels();
    let (mut several, mut one, mut none) = (0, 0, 0);
    // Levels the race takes (the others go to the Net engine's enumeration).
    let raced = levels
        .iter()
        .filter(|l| !l.needs_net_engine() && !l.odd_ends())
        .count();
    for level in &levels {
        let solutions = crate::board::fixtures::brute_force(level);
        for known in solutions.iter().take(3) {
            let mut k = level.clone();
            k.masks_mut().copy_from_slice(known);
            let other = another_solution_until(level, &k, &cancel).unwrap();
            match other {
                Some(o) => assert!(
                    solutions.len() > 1
                        && o.masks() != &known[..]
                        && solutions.contains(&o.masks().to_vec()),
                    "{level:?}"
                ),
                None => assert_eq!(solutions.len(), 1, "{level:?}"),
            }
        }
        let two = super::two_solutions(level, None, &cancel).unwrap();
        assert_eq!(two.len(), solutions.len().min(2), "{level:?}");
        for s in &two {
            assert!(solutions.contains(&s.masks().to_vec()), "{level:?}");
        }
        match solutions.len() {
            0 => none += 1,
            1 => one += 1,
            _ => several += 1,
        }
    }
    assert!(
        none > 50 && one > 50 && several > 50 && raced > 250,
        "none {none}, one {one}, several {several}, raced {raced}"
    );
}

/// Learning's solutions one after another, and the raced limited count, against brute
/// force on every small board: up to `n` distinct solutions are found, all of them when
/// there are fewer, and the count is exact up to its limit and "more than" past it.
#[test]
fn learned_solutions_and_limited_counts_agree_with_brute_force() {
    use super::another::{learned_count_until, learned_solutions_until};
    use crate::anyboard::Count;
    let cancel = AtomicBool::new(false);
    let (mut many, mut checked, mut square) = (0, 0, 0);
    for level in &small_infinity_levels() {
        let solutions = crate::board::fixtures::brute_force(level);
        if level.needs_net_engine() || level.odd_ends() {
            continue;
        }
        checked += 1;
        many += usize::from(solutions.len() > 3);
        square += usize::from(crate::anyboard::takes_square_engine(level));
        for n in 1..=4 {
            let found = learned_solutions_until(level, n, &cancel).unwrap();
            assert_eq!(found.len(), solutions.len().min(n), "n = {n}, {level:?}");
            for (i, s) in found.iter().enumerate() {
                assert!(solutions.contains(&s.masks().to_vec()), "{level:?}");
                assert!(found[..i].iter().all(|t| t.masks() != s.masks()));
            }
        }
        for k in 0..=3u64 {
            let n = solutions.len() as u64;
            let expected = if n > k {
                Count::MoreThan(k)
            } else {
                Count::Exact(n.into())
            };
            let learned = learned_count_until(level, k, &cancel).unwrap();
            assert_eq!(learned, expected, "learned, limit {k}, {level:?}");
            let (raced, _) = super::count_limited(level, Some(k), None, &cancel).unwrap();
            assert_eq!(raced, expected, "raced, limit {k}, {level:?}");
        }
    }
    assert!(
        checked > 250 && many > 12 && square > 20,
        "{checked} levels, {many} with 4+ solutions, {square} first solved by the square engine"
    );
}

/// On boards of more than [`super::search`]'s long-clause length in edges, the clause "some
/// edge differs from each known solution" watches from a saved position; learning's count
/// up to 1, 3 and 9 agrees with the engine's count on such levels, unique ones and
/// ambiguous ones.
#[test]
fn long_clauses_beside_known_solutions_count_as_the_engine_does() {
    use super::another::learned_count_until;
    use crate::generate::board_families::{BoardFamily, generate_on_board};
    let cancel = AtomicBool::new(false);
    let (mut unique, mut few, mut many) = (0, 0, 0);
    for seed in 0..9u64 {
        let b = Board::new(Tiling::Hexagonal, 24, 20, Wrap::NONE).unwrap();
        // Random levels: the engine's count of dominoes can take a second here.
        let family = BoardFamily::Random {
            density: [0.3, 0.5, 0.7][seed as usize % 3],
        };
        let (level, _) = generate_on_board(&b, family, seed);
        assert!(super::edges::Edges::new(&level).len() > 1024);
        for k in [1, 3, 9] {
            let (engine, _) = crate::anyboard::count(&level, Some(k), None, &cancel).unwrap();
            let learned = learned_count_until(&level, k, &cancel).unwrap();
            assert_eq!(learned, engine, "seed {seed}, limit {k}");
            if k == 9 {
                match engine {
                    crate::anyboard::Count::Exact(n) if n == 1u32.into() => unique += 1,
                    crate::anyboard::Count::Exact(_) => few += 1,
                    crate::anyboard::Count::MoreThan(_) => many += 1,
                }
            }
        }
    }
    assert!(
        unique > 0 && few > 0 && many > 0,
        "{unique} unique, {few} with 2 to 9 solutions, {many} with more"
    );
}

/// A cancel raised before a race starts stops both of its sides, also where learning's first
/// solution comes from the square engine (which reads only the race's halt flag): no
/// answer, `Stop::Cancelled`, from the uniqueness check and the limited count alike.
#[test]
fn a_cancelled_race_gives_no_answer_on_either_side() {
    use crate::anyboard::Stop;
    let cancel = AtomicBool::new(true);
    let mut rng = fastrand::Rng::with_seed(5);
    let b = Board::new(Tiling::Square, 8, 6, Wrap::BOTH).unwrap();
    // Without a solution, which the square engine tells at once: a side it was not stopped
    // on would answer "none".
    let level = two_sided_level(&b, &mut rng);
    assert!(crate::anyboard::takes_square_engine(&level));
    let two = super::two_solutions(&level, None, &cancel);
    assert!(matches!(two, Err(Stop::Cancelled)), "{two:?}");
    let count = super::count_limited(&level, Some(2), None, &cancel);
    assert!(matches!(count, Err(Stop::Cancelled)), "{count:?}");
}

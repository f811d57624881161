//! The observed search (`--solve --trace`, the game's watch mode) agrees with the brute-force
//! oracle: on random levels up to 4x4, and exhaustively on every level of up to six cells in
//! the walk of `oracle.rs`.

use crate::common;

use common::brute_force_count;
use phineloops::engine::check::is_solved;
use phineloops::engine::generate::{GenerateOptions, generate};
use phineloops::engine::model::{Game, Piece, PieceKind};
use phineloops::engine::solve::NoObserver;
use phineloops::engine::solve::{Outcome, solve_observed};

/// True when the level has a solution; panics if the observed search, with or without the
/// witness, disagrees with the oracle or gives an unchecked answer.
fn agree(game: &Game) -> bool {
    let solvable = brute_force_count(game, 1) > 0;
    for flow in [false, true] {
        check_one(game, solvable, flow);
    }
    solvable
}

pub(crate) fn check_one(game: &Game, solvable: bool, flow: bool) {
    let (out, _) = solve_observed(game, flow, &mut NoObserver);
    match out {
        Outcome::Solved(g) => {
            assert!(
                solvable,
                "observed search solved an unsolvable level {game:?}"
            );
            assert!(is_solved(&g) && g.same_shapes(game), "{game:?}");
        }
        Outcome::Unsolvable => assert!(!solvable, "observed search missed a solution: {game:?}"),
        other => panic!("unexpected {other:?} (flow {flow}) on {game:?}"),
    }
}

#[test]
fn random_levels_up_to_four_by_four() {
    let mut rng = fastrand::Rng::with_seed(77);
    let (mut yes, mut no) = (0, 0);
    for round in 0..3000 {
        let (h, w) = [(3, 3), (3, 4), (4, 3), (4, 4)][round % 4];
        let mut g = generate(&GenerateOptions::new(h, w, rng.u64(..)));
        if round % 2 == 0 {
            let i = rng.usize(0..h * w);
            let kind = PieceKind::from_code(rng.u8(0..6)).unwrap();
            g.cells_mut()[i] = Piece::new(kind, 0);
        }
        if agree(&g) {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 1000 && no > 300, "{yes} solvable, {no} not");
}

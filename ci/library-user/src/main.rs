//! The crate-root facade as an outside program sees it: generate, print, parse, solve,
//! enumerate, count and make a unique level.

use phineloops::{Family, Game, Generator, Outcome, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game: Game = Generator::new(20, 12)
        .family(Family::Dominoes)
        .seed(7)
        .generate()?;
    let text = game.to_string();
    let again: Game = text.parse()?;
    assert_eq!(again, game);
    match Solver::new().threads(2).solve(&again) {
        Outcome::Solved(sol) => assert!(sol.is_solved()),
        other => return Err(format!("a generated level must be solvable, got {other:?}").into()),
    }
    let firsts: Vec<Game> = phineloops::solutions(&again).take(3).collect();
    assert!(!firsts.is_empty() && firsts.iter().all(Game::is_solved));
    let n = phineloops::count(&again);
    let u = Generator::new(16, 16).seed(3).unique(true).generate()?;
    assert_eq!(phineloops::solutions(&u).take(2).count(), 1);
    assert!(phineloops::is_unique(&u) && !phineloops::is_unique(&again) == (n != 1));
    println!(
        "library-user: {}x{} dominoes level, {} solutions; unique 16x16 level checked",
        game.width(),
        game.height(),
        n
    );
    Ok(())
}

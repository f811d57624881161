//! `-m cp` and the CNF encoding: cp agrees with csp (and with brute force on small grids) on
//! hundreds of random solvable and broken levels; the CNF of a solvable level has a model that
//! decodes to a level the checker accepts, the CNF of a broken one is unsatisfiable; the public
//! levels round-trip (skipped when `../shared/instances` is absent); the CLI writes DIMACS and
//! reads a model back.
#![cfg(feature = "cp")]

use crate::common;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

use common::brute_force_count;
use phineloops::engine::check::is_solved;
use phineloops::engine::cnf::{SatAnswer, decode, encode, parse_model};
use phineloops::engine::cnf::{SatEnd, solve_cnf};
use phineloops::engine::generate::unsolvable_variant;
use phineloops::engine::generate::{Breakage, Family, GenerateOptions, generate};
use phineloops::engine::model::{Game, Piece, PieceKind};
use phineloops::engine::solve::{Method, Outcome, SolveOptions, solve};

fn run(game: &Game, method: Method) -> Outcome {
    let opts = SolveOptions {
        method,
        threads: 1,
        ..SolveOptions::default()
    };
    solve(game, &opts, &AtomicBool::new(false)).0
}

/// Some solvable level, its two unsolvable variants, and one with a random piece changed
/// (which may or may not stay solvable).
fn levels(h: usize, w: usize, seed: u64) -> Vec<Game> {
    let mut o = GenerateOptions::new(h, w, seed);
    o.family = [
        Family::Random,
        Family::Dominoes,
        Family::Loops,
        Family::Mixed,
    ][seed as usize % 4];
    let good = generate(&o);
    let mut out = vec![good.clone()];
    for kind in [Breakage::OddParity, Breakage::EvenParity] {
        if let Ok((bad, _)) = unsolvable_variant(&good, kind, seed) {
            out.push(bad);
        }
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut changed = good;
    let i = rng.usize(..changed.len());
    changed.cells_mut()[i] = Piece::new(PieceKind::ALL[rng.usize(..6)], 0);
    out.push(changed);
    out
}

fn solved(o: &Outcome, game: &Game) -> bool {
    match o {
        Outcome::Solved(g) => {
            assert!(is_solved(g) && g.same_shapes(game));
            true
        }
        Outcome::Unsolvable => false,
        other => panic!("unexpected outcome {other:?}"),
    }
}

#[test]
fn cp_agrees_with_csp_and_brute_force_on_small_levels() {
    let mut unsolvable = 0;
    let mut total = 0;
    for seed in 0..120 {
        let (h, w) = (2 + seed as usize % 3, 2 + (seed as usize / 3) % 3);
        for g in levels(h, w, seed) {
            let cp = solved(&run(&g, Method::Cp), &g);
            let csp = solved(&run(&g, Method::Csp), &g);
            let brute = brute_force_count(&g, 1) > 0;
            assert_eq!(cp, csp, "seed {seed}: cp {cp}, csp {csp}");
            assert_eq!(cp, brute, "seed {seed}: cp {cp}, brute force {brute}");
            unsolvable += usize::from(!cp);
            total += 1;
        }
    }
    assert!(total >= 400 && unsolvable >= 100, "{unsolvable}/{total}");
}

#[test]
fn cp_agrees_with_csp_on_medium_levels() {
    let mut unsolvable = 0;
    let mut total = 0;
    for seed in 0..60 {
        let (h, w) = (10 + seed as usize % 7, 12 + seed as usize % 9);
        for g in levels(h, w, 1000 + seed) {
            let cp = solved(&run(&g, Method::Cp), &g);
            let csp = solved(&run(&g, Method::Csp), &g);
            assert_eq!(cp, csp, "seed {seed}");
            unsolvable += usize::from(!cp);
            total += 1;
        }
    }
    assert!(total >= 200 && unsolvable >= 100, "{unsolvable}/{total}");
}

/// The CNF answer for `game`: a decoded, checked solution, or `None` when unsatisfiable.
fn cnf_round_trip(game: &Game) -> Option<Game> {
    let cnf = encode(game);
    match solve_cnf(&cnf, &AtomicBool::new(false), None).0 {
        SatEnd::Model(values) => {
            let g = decode(game, &cnf, &values).expect("a model decodes");
            assert!(is_solved(&g) && g.same_shapes(game));
            Some(g)
        }
        SatEnd::Unsatisfiable => None,
        other => panic!("{other:?}"),
    }
}

#[test]
fn cnf_of_generated_levels_round_trips_and_broken_variants_are_unsat() {
    // Small: without the counting pre-checks of `-m cp`, refuting a broken dominoes level is
    // exponential for resolution (seconds at 16x12).
    for seed in 0..60 {
        let mut o = GenerateOptions::new(6 + seed as usize % 3, 8, seed);
        o.family = [
            Family::Random,
            Family::Dominoes,
            Family::Loops,
            Family::Mixed,
        ][seed as usize % 4];
        let good = generate(&o);
        assert!(cnf_round_trip(&good).is_some(), "seed {seed}");
        for kind in [Breakage::OddParity, Breakage::EvenParity] {
            if let Ok((bad, _)) = unsolvable_variant(&good, kind, seed) {
                assert!(cnf_round_trip(&bad).is_none(), "seed {seed} {kind:?}");
            }
        }
    }
}

#[test]
fn every_public_level_round_trips_through_the_cnf() {
    let Some(dir) = common::public_levels("every_public_level_round_trips_through_the_cnf") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap();
    let mut n = 0;
    for e in entries {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".dat") {
            continue;
        }
        let game = phineloops::engine::level::load_level(&path).unwrap();
        let messed_up = name.contains("messedup.true");
        assert_eq!(cnf_round_trip(&game).is_some(), !messed_up, "{name}");
        n += 1;
    }
    assert!(n >= 40, "{n} public levels");
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_phineloops"))
}

/// `--to-cnf LEVEL -o CNF`, which must succeed; the DIMACS text written.
fn to_cnf(level: &Path, cnf: &Path) -> String {
    let out = bin()
        .arg("--to-cnf")
        .arg(level)
        .arg("-o")
        .arg(cnf)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(cnf).unwrap()
}

/// The variable count and clauses of a DIMACS text.
fn dimacs_clauses(dimacs: &str) -> (u32, Vec<Vec<i32>>) {
    let vars: u32 = dimacs
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    let clauses = dimacs
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|t| t.parse::<i32>().unwrap())
                .take_while(|&x| x != 0)
                .collect()
        })
        .collect();
    (vars, clauses)
}

/// `values` (index 0 unused) in the competition format, as an outside solver prints it.
fn model_text(values: &[bool]) -> String {
    let lits: Vec<String> = (1..values.len())
        .map(|v| {
            if values[v] {
                v.to_string()
            } else {
                format!("-{v}")
            }
        })
        .collect();
    format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))
}

/// `--from-model MODEL --level LEVEL -o OUT`, which must print `SOLVED: true` and write a
/// level `--check` accepts.
fn solved_from_model(model: &Path, level: &Path, out: &Path) {
    let run = from_model(model, level, Some(out));
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&run.stdout), "SOLVED: true\n");
    let check = bin().arg("--check").arg(out).output().unwrap();
    assert!(check.status.success());
}

/// `--from-model MODEL --level LEVEL [-o OUT]`.
fn from_model(model: &Path, level: &Path, out: Option<&Path>) -> std::process::Output {
    let mut cmd = bin();
    cmd.arg("--from-model").arg(model).arg("--level").arg(level);
    if let Some(out) = out {
        cmd.arg("-o").arg(out);
    }
    cmd.output().unwrap()
}

#[test]
fn cli_writes_dimacs_and_reads_a_model_back() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("l.txt");
    let game = generate(&GenerateOptions::new(6, 7, 5));
    std::fs::write(&level, phineloops::engine::level::level_bytes(&game)).unwrap();
    let text = to_cnf(&level, &dir.path().join("l.cnf"));
    assert!(text.contains("c encoding: sides+orientations"));
    let cnf = encode(&game);
    assert!(text.contains(&format!("p cnf {} {}", cnf.vars, cnf.clauses)));

    // A model in the competition format, as an outside solver would print it.
    let SatEnd::Model(values) = solve_cnf(&cnf, &AtomicBool::new(false), None).0 else {
        panic!("satisfiable");
    };
    let model = dir.path().join("model.txt");
    std::fs::write(&model, model_text(&values)).unwrap();
    assert_eq!(
        parse_model("m", &std::fs::read_to_string(&model).unwrap(), cnf.vars).unwrap(),
        SatAnswer::Model(values)
    );
    let solved = dir.path().join("solved.txt");
    solved_from_model(&model, &level, &solved);

    std::fs::write(&model, "s UNSATISFIABLE\n").unwrap();
    let out = from_model(&model, &level, None);
    assert_eq!(out.status.code(), Some(1));
    std::fs::write(&model, "s SATISFIABLE\nv 1 two 0\n").unwrap();
    let out = from_model(&model, &level, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
    let out = bin().args(["--from-model", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cp_honours_the_cancel_flag() {
    let mut o = GenerateOptions::new(64, 64, 3);
    o.family = Family::Dominoes;
    let g = generate(&o);
    let opts = SolveOptions {
        method: Method::Cp,
        ..SolveOptions::default()
    };
    assert_eq!(
        solve(&g, &opts, &AtomicBool::new(true)).0,
        Outcome::Cancelled
    );
}

#[test]
fn cp_refuses_a_level_beyond_its_memory_bound_by_name() {
    // 1025x1024 empty cells: one row over the bound, cheap to build and never encoded.
    let big = Game::from_cells(
        1025,
        1024,
        vec![Piece::new(PieceKind::Empty, 0); 1025 * 1024],
    );
    match run(&big, Method::Cp) {
        Outcome::Rejected(why) => assert!(why.contains("at most 1048576 cells"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Below the bound it is taken (an empty grid is solved as it stands).
    let edge = Game::from_cells(1, 1 << 10, vec![Piece::new(PieceKind::Empty, 0); 1 << 10]);
    assert!(solved(&run(&edge, Method::Cp), &edge));
}

#[test]
fn the_streamed_cnf_file_is_the_formula_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    for (seed, family) in [
        (1, Family::Random),
        (2, Family::Dominoes),
        (3, Family::Loops),
    ] {
        // Wide enough that the writer flushes its 1 MiB buffer more than once.
        let mut o = GenerateOptions::new(150, 200, seed);
        o.family = family;
        let game = generate(&o);
        let level = dir.path().join("l.txt");
        std::fs::write(&level, phineloops::engine::level::level_bytes(&game)).unwrap();
        let cnf_path = dir.path().join("l.cnf");
        let out = Command::new(env!("CARGO_BIN_EXE_phineloops"))
            .arg("--to-cnf")
            .arg(&level)
            .arg("-o")
            .arg(&cnf_path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let cnf = encode(&game);
        assert!(
            std::fs::read(&cnf_path).unwrap() == cnf.to_dimacs(),
            "seed {seed}"
        );
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains(&format!("{} variables, {} clauses", cnf.vars, cnf.clauses)),
            "{said}"
        );
    }
}

/// `--to-cnf` of a hexagonal wrapped level with a locked tile, solved from the DIMACS text
/// alone, and `--from-model` turns the model into a verified level in the level's own format
/// with the lock kept; under Net rules `--from-model` is a usage error.
#[test]
fn a_board_levels_model_comes_back_in_its_format() {
    use phineloops::engine::cnf::solve_clauses;
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("hex.txt");
    let made = bin()
        .args([
            "--generate",
            "5x4",
            "--grid",
            "hexagonal",
            "--wrap",
            "--seed",
            "11",
        ])
        .args(["-o", level.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(made.status.success());
    // Lock the first non-empty tile as the solver turns it: the model must keep it.
    let sure = dir.path().join("sure.txt");
    let solved = bin()
        .args([
            "--solve",
            level.to_str().unwrap(),
            "-o",
            sure.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(solved.status.success());
    let text = std::fs::read_to_string(&level).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let first = (1..lines.len()).find(|&i| lines[i] != "0").unwrap();
    let sure = std::fs::read_to_string(&sure).unwrap();
    lines[first] = format!("{} locked", sure.lines().nth(first).unwrap());
    std::fs::write(&level, lines.join("\n") + "\n").unwrap();

    let dimacs = to_cnf(&level, &dir.path().join("hex.cnf"));
    let (vars, clauses) = dimacs_clauses(&dimacs);
    let SatEnd::Model(values) = solve_clauses(
        vars,
        clauses.iter().map(Vec::as_slice),
        &AtomicBool::new(false),
        None,
    )
    .0
    else {
        panic!("satisfiable");
    };
    let model = dir.path().join("model.txt");
    std::fs::write(&model, model_text(&values)).unwrap();
    let solved = dir.path().join("solved.txt");
    solved_from_model(&model, &level, &solved);
    let answer = std::fs::read_to_string(&solved).unwrap();
    assert!(
        answer.starts_with("board hexagonal 5x4 wrap=both"),
        "{answer}"
    );
    assert_eq!(
        answer.lines().nth(first).unwrap(),
        lines[first],
        "the lock is kept"
    );

    // Under Net rules the formula means nothing: a usage error.
    let net = dir.path().join("net.txt");
    std::fs::write(&net, text.replacen("wrap=both", "wrap=both rules=net", 1)).unwrap();
    let out = from_model(&model, &net, None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A hexapipes file is a Net puzzle by definition; read under `--rules infinity` it goes to
/// a formula and, with the same `--rules`, its model comes back as a solved level, on a grid
/// of mixed cells too.
#[test]
fn a_hexapipes_levels_model_comes_back_under_the_rules_it_was_read_with() {
    use phineloops::engine::cnf::solve_clauses;
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("oct.json");
    let made = bin()
        .args(["--generate", "4x3", "--grid", "octagonal", "--seed", "5"])
        .args(["-o", level.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(made.status.success());
    let cnf = dir.path().join("oct.cnf");
    let out = bin()
        .args(["--to-cnf", level.to_str().unwrap(), "--rules", "infinity"])
        .args(["-o", cnf.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dimacs = std::fs::read_to_string(&cnf).unwrap();
    let (vars, clauses) = dimacs_clauses(&dimacs);
    let (SatEnd::Model(values), _) = solve_clauses(
        vars,
        clauses.iter().map(Vec::as_slice),
        &AtomicBool::new(false),
        None,
    ) else {
        panic!("satisfiable");
    };
    let model = dir.path().join("model.txt");
    std::fs::write(&model, model_text(&values)).unwrap();
    let solved = dir.path().join("solved.json");
    let run = |rules: Option<&str>| {
        let mut cmd = bin();
        cmd.arg("--from-model")
            .arg(&model)
            .arg("--level")
            .arg(&level);
        if let Some(r) = rules {
            cmd.args(["--rules", r]);
        }
        cmd.arg("-o").arg(&solved).output().unwrap()
    };
    // Read as the Net puzzle the file says it is, the formula does not apply.
    assert_eq!(run(None).status.code(), Some(2));
    let out = run(Some("infinity"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "SOLVED: true\n");
    let check = bin()
        .args(["--check", solved.to_str().unwrap(), "--rules", "infinity"])
        .output()
        .unwrap();
    assert!(check.status.success());
    assert!(
        std::fs::read_to_string(&solved)
            .unwrap()
            .contains("\"octagonal\"")
    );
}

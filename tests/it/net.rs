//! Net rules end to end: SGT Net game IDs (solved, judged by a checker written here on SGT's
//! own tile bits, proved unique), hexapipes' published puzzles under Net rules (from
//! `../shared/hexapipes`, skipped when absent), generated unique Net puzzles counted by a
//! search written here, and the semantics of barriers, locks and `--rules`.

use crate::common;

use common::cli::{run, run_stdin};
use std::path::{Path, PathBuf};

use phineloops::board::{Board, BoardLevel, Tiling, Wrap};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// An SGT ID parsed by this test: width, height, wrapping, tiles (bit 0 right, 1 up, 2 left,
/// 3 down) and per tile the barrier bits in the same order.
struct Sgt {
    w: usize,
    h: usize,
    wrap: bool,
    tiles: Vec<u8>,
    walls: Vec<u8>,
}

fn parse_id(id: &str) -> Sgt {
    let (params, desc) = id.trim().split_once(':').unwrap();
    let wrap = params.contains('w');
    let size = params.trim_end_matches(|c: char| !c.is_ascii_digit());
    let (w, h) = size.split_once('x').unwrap();
    let (w, h): (usize, usize) = (w.parse().unwrap(), h.parse().unwrap());
    let mut tiles = Vec::new();
    let mut walls = vec![0u8; w * h];
    for ch in desc.chars() {
        let i = tiles.len().wrapping_sub(1);
        let (x, y) = (i % w, i / w);
        match ch {
            'v' => {
                walls[i] |= 1;
                walls[y * w + (x + 1) % w] |= 4;
            }
            'h' => {
                walls[i] |= 8;
                walls[((y + 1) % h) * w + x] |= 2;
            }
            _ => tiles.push(ch.to_digit(16).unwrap() as u8),
        }
    }
    assert_eq!(tiles.len(), w * h);
    Sgt {
        w,
        h,
        wrap,
        tiles,
        walls,
    }
}

/// The neighbour of tile `i` in SGT direction bit `d` (0 right, 1 up, 2 left, 3 down).
fn sgt_neighbour(p: &Sgt, i: usize, d: usize) -> Option<usize> {
    let (x, y) = ((i % p.w) as i64, (i / p.w) as i64);
    let (dx, dy) = [(1, 0), (0, -1), (-1, 0), (0, 1)][d];
    let (mut nx, mut ny) = (x + dx, y + dy);
    if p.wrap {
        nx = nx.rem_euclid(p.w as i64);
        ny = ny.rem_euclid(p.h as i64);
    }
    ((0..p.w as i64).contains(&nx) && (0..p.h as i64).contains(&ny))
        .then(|| ny as usize * p.w + nx as usize)
}

fn rotations(t: u8) -> [u8; 4] {
    let a = |x: u8| ((x << 1) | (x >> 3)) & 15;
    [t, a(t), a(a(t)), a(a(a(t)))]
}

/// Whether `answer` solves `puzzle` under Net rules, judged on SGT's bits: every tile a
/// rotation of the puzzle's, every connection answered, none across a border or barrier, and
/// the connections a tree of all non-empty tiles.
fn sgt_solves(puzzle: &Sgt, answer: &Sgt) -> bool {
    if (answer.w, answer.h, answer.wrap) != (puzzle.w, puzzle.h, puzzle.wrap)
        || answer.walls != puzzle.walls
    {
        return false;
    }
    let n = puzzle.tiles.len();
    let mut edges = 0;
    for i in 0..n {
        let t = answer.tiles[i];
        if !rotations(puzzle.tiles[i]).contains(&t) || t & puzzle.walls[i] != 0 {
            return false;
        }
        for d in 0..4 {
            let has = t >> d & 1 == 1;
            match sgt_neighbour(puzzle, i, d) {
                None if has => return false,
                Some(j) if has != (answer.tiles[j] >> ((d + 2) % 4) & 1 == 1) => return false,
                _ => {}
            }
            edges += has as usize;
        }
    }
    let vertices = answer.tiles.iter().filter(|&&t| t != 0).count();
    let mut seen = vec![false; n];
    let start = answer.tiles.iter().position(|&t| t != 0).unwrap();
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 1;
    while let Some(i) = stack.pop() {
        for d in 0..4 {
            if answer.tiles[i] >> d & 1 == 1 {
                let j = sgt_neighbour(puzzle, i, d).unwrap();
                if !seen[j] {
                    seen[j] = true;
                    reached += 1;
                    stack.push(j);
                }
            }
        }
    }
    reached == vertices && edges / 2 + 1 == vertices
}

fn sgt_ids() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sgt-net-ids.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn sgt_game_ids_are_solved_judged_and_proved_unique() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("id.txt"), dir.path().join("sol.sgt"));
    let ids = sgt_ids();
    assert!(ids.len() >= 50);
    for id in &ids {
        std::fs::write(&input, format!("{id}\n")).unwrap();
        let r = run(&["--solve", s(&input), "-o", s(&out)]);
        assert_eq!(r.code, 0, "{id}: {}", r.stderr);
        let answer = std::fs::read_to_string(&out).unwrap();
        assert!(
            sgt_solves(&parse_id(id), &parse_id(&answer)),
            "{id}: the answer {answer} is not a solution"
        );
        let r = run(&["--unique-check", s(&input)]);
        assert_eq!((r.code, r.stdout.trim()), (0, "UNIQUE: true"), "{id}");
    }
}

/// Conflict learning under Net rules: SGT's puzzles (wrapped, with barriers) answered by
/// `-m learn` are judged by the independent SGT checker above, and a loop and two islands
/// are refuted (the tree theory's lemmas, counted in `--json`).
#[test]
fn learning_answers_sgt_ids_and_refutes_loops_and_islands_under_net_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("id.txt"), dir.path().join("sol.sgt"));
    let mut lemmas = 0;
    for id in sgt_ids().iter().step_by(3) {
        std::fs::write(&input, format!("{id}\n")).unwrap();
        let r = run(&["--solve", s(&input), "-o", s(&out), "-m", "learn", "--json"]);
        assert_eq!(r.code, 0, "{id}: {}", r.stderr);
        let answer = std::fs::read_to_string(&out).unwrap();
        assert!(
            sgt_solves(&parse_id(id), &parse_id(&answer)),
            "{id}: the answer {answer} is not a solution"
        );
        let json: serde_json::Value =
            serde_json::from_str(r.stdout.lines().nth(1).unwrap()).unwrap();
        lemmas += json["learn"]["lemmas"].as_u64().unwrap();
    }
    assert!(lemmas > 0, "no loop or island was ever refused");
    // A 2x2 ring closes a loop; two dominoes are two networks: neither has a Net solution.
    for text in [
        "board square 2x2\n6\n12\n3\n9\n",
        "board square 2x2\n2\n8\n2\n8\n",
    ] {
        let lvl = board_file(dir.path(), "l.txt", text);
        let r = run(&["--solve", s(&lvl), "-m", "learn", "--rules", "net"]);
        assert_eq!(
            (r.code, r.stdout.trim()),
            (1, "SOLVED: false"),
            "{text}: {}",
            r.stderr
        );
        let r = run(&["--solve", s(&lvl), "-m", "learn", "--rules", "infinity"]);
        assert_eq!(r.code, 0, "{text}: {}", r.stderr);
    }
}

#[test]
fn an_sgt_id_on_standard_input_is_answered_with_an_id() {
    let id = &sgt_ids()[0];
    let r = run_stdin(&["--solve", "-", "-o", "-"], id.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("SOLVED: true"), "{}", r.stderr);
    assert!(
        sgt_solves(&parse_id(id), &parse_id(&r.stdout)),
        "{}",
        r.stdout
    );
    // The same ID read under Infinity rules has more solutions (no tree required).
    let r = run_stdin(&["--count", "-", "--rules", "infinity"], id.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r2 = run_stdin(&["--count", "-"], id.as_bytes());
    assert_eq!(r2.stdout.trim(), "SOLUTIONS: 1");
}

/// hexapipes' files under `../shared/hexapipes/<dir>` (recursively), or `None` when absent.
fn hexapipes(dir: &str) -> Option<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/hexapipes")
        .join(dir);
    if !root.is_dir() {
        eprintln!("skipped: {} is absent", root.display());
        return None;
    }
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    Some(files)
}

#[test]
fn hexapipes_puzzles_are_one_tree_and_unique_under_net_rules() {
    use phineloops::anyboard::{Outcome, first_fault, solve_level, two_solutions_level};
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(false);
    let mut judged = 0;
    for (folder, wrap) in [
        ("hexagonal", false),
        ("hexagonal-wrap", true),
        ("daily/hexagonal", false),
        ("daily/absent", false),
        ("daily/square", false),
    ] {
        let Some(files) = hexapipes(folder) else {
            return;
        };
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let level = phineloops::parse_hexapipes(s(&f), &bytes, wrap).unwrap();
            assert_eq!(level.rules(), phineloops::board::Rules::Net);
            let (outcome, _) = solve_level(&level, None, &cancel);
            let Outcome::Solved(sol) = outcome else {
                panic!("{}: {outcome:?}", f.display());
            };
            assert_eq!(first_fault(&sol), None, "{}", f.display());
            let two = two_solutions_level(&level, None, &cancel).unwrap();
            assert_eq!(two.len(), 1, "{}: not unique", f.display());
            judged += 1;
        }
    }
    assert!(judged >= 60, "{judged}");
}

/// Solutions of a board-format level under Net rules counted by this test's own search (up to
/// `limit`): each cell in turn takes each distinct rotation (locked cells keep theirs) that
/// agrees with the cells already placed and crosses no barrier nor border; a full assignment
/// counts when its connections form one tree of the non-empty cells.
fn count_net_solutions(level: &BoardLevel, limit: usize) -> usize {
    let b = level.board();
    let k = b.sides() as usize;
    let rot =
        |m: u8, r: usize| ((((m as u32) << r) | ((m as u32) >> (k - r))) & ((1 << k) - 1)) as u8;
    fn go(
        i: usize,
        level: &BoardLevel,
        placed: &mut Vec<u8>,
        found: &mut usize,
        limit: usize,
        rot: &dyn Fn(u8, usize) -> u8,
    ) {
        let b = level.board();
        let k = b.sides() as usize;
        if *found >= limit {
            return;
        }
        if i == placed.len() {
            *found += is_tree(b, placed) as usize;
            return;
        }
        let m0 = level.masks()[i];
        let mut tried: Vec<u8> = Vec::new();
        for r in 0..k {
            let m = rot(m0, r);
            if tried.contains(&m) || (level.is_locked(i) && m != m0) || m & level.barrier(i) != 0 {
                continue;
            }
            tried.push(m);
            let fits = (0..k).all(|s| match b.neighbour(i, s) {
                None => m >> s & 1 == 0,
                Some((j, t)) if j < i => (placed[j] >> t & 1) == (m >> s & 1),
                Some(_) => true,
            });
            if fits {
                placed[i] = m;
                go(i + 1, level, placed, found, limit, rot);
            }
        }
    }
    let mut placed = vec![0u8; b.len()];
    let mut found = 0;
    go(0, level, &mut placed, &mut found, limit, &rot);
    found
}

fn is_tree(b: &Board, masks: &[u8]) -> bool {
    let k = b.sides() as usize;
    let vertices = masks.iter().filter(|&&m| m != 0).count();
    let edges: usize = masks.iter().map(|m| m.count_ones() as usize).sum::<usize>() / 2;
    let Some(start) = masks.iter().position(|&m| m != 0) else {
        return true;
    };
    let mut seen = vec![false; masks.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        for side in 0..k {
            if masks[c] >> side & 1 == 1 {
                let (n, _) = b.neighbour(c, side).unwrap();
                if !seen[n] {
                    seen[n] = true;
                    reached += 1;
                    stack.push(n);
                }
            }
        }
    }
    reached == vertices && edges + 1 == vertices
}

#[test]
fn generated_unique_net_puzzles_have_one_solution_by_an_independent_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.txt");
    let mut checked = 0;
    for (size, extra) in [
        ("4x4", vec![]),
        ("4x4", vec!["--wrap"]),
        ("4x3", vec!["--grid", "hexagonal"]),
        ("4x4", vec!["--grid", "hexagonal", "--wrap"]),
        ("5x3", vec!["--wrap", "horizontal"]),
    ] {
        for seed in 1..=4u64 {
            for barriers in [None, Some("0.3")] {
                let seed = seed.to_string();
                let mut args = vec![
                    "--generate",
                    size,
                    "--rules",
                    "net",
                    "--unique",
                    "--seed",
                    &seed,
                    "-o",
                    s(&out),
                ];
                args.extend(&extra);
                if let Some(p) = barriers {
                    args.extend(["--barriers", p]);
                }
                let r = run(&args);
                assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
                let text = std::fs::read(&out).unwrap();
                let level = phineloops::parse_board_level("g", &text).unwrap();
                assert_eq!(level.rules(), phineloops::board::Rules::Net);
                assert_eq!(
                    level.has_barriers(),
                    barriers.is_some() && level.has_barriers()
                );
                assert_eq!(count_net_solutions(&level, 2), 1, "{args:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 40);
}

#[test]
fn more_barriers_for_the_same_seed_are_the_same_puzzle_with_more_hints() {
    let dir = tempfile::tempdir().unwrap();
    let levels: Vec<BoardLevel> = ["0.1", "0.5"]
        .iter()
        .map(|p| {
            let out = dir.path().join(format!("b{p}.txt"));
            let r = run(&[
                "--generate",
                "8x8",
                "--rules",
                "net",
                "--unique",
                "--seed",
                "9",
                "--barriers",
                p,
                "-o",
                s(&out),
            ]);
            assert_eq!(r.code, 0, "{}", r.stderr);
            phineloops::parse_board_level("b", &std::fs::read(&out).unwrap()).unwrap()
        })
        .collect();
    assert_eq!(levels[0].masks(), levels[1].masks());
    let (few, many) = (&levels[0], &levels[1]);
    let count = |l: &BoardLevel| (0..64).map(|c| l.barrier(c).count_ones()).sum::<u32>();
    assert!(count(few) < count(many), "{} {}", count(few), count(many));
    assert!((0..64).all(|c| few.barrier(c) & !many.barrier(c) == 0));
}

/// Writes `text` to `dir/name`.
fn board_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn barriers_and_locks_count_as_an_independent_count_says_and_survive_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    // A Net puzzle on a 3x3 torus with two solutions (N=1, E=2, S=4, W=8); one of them
    // connects cell 0 north, across the wrap, to cell 6.
    let cells = ["6", "15", "8", "10", "12", "1", "1", "3", "8"];
    let variant = |name: &str, extra: &[(usize, &str)]| {
        let mut text = String::from("board square 3x3 wrap=both rules=net\n");
        for (c, m) in cells.iter().enumerate() {
            text.push_str(m);
            for (at, what) in extra {
                if *at == c {
                    text.push(' ');
                    text.push_str(what);
                }
            }
            text.push('\n');
        }
        board_file(dir.path(), name, &text)
    };
    let cases: Vec<(PathBuf, Option<usize>)> = vec![
        (variant("plain", &[]), Some(2)),
        // A barrier across the wrap between cell 0 (north) and cell 6 (south).
        (
            variant("wall", &[(0, "barriers=1"), (6, "barriers=4")]),
            Some(1),
        ),
        (variant("lock", &[(0, "locked")]), None),
        (
            variant("lock-wall", &[(0, "locked barriers=1"), (6, "barriers=4")]),
            None,
        ),
        // Cell 5, an end, walled in on all four sides: no solution.
        (
            variant(
                "shut",
                &[
                    (5, "barriers=15"),
                    (2, "barriers=4"),
                    (3, "barriers=8"),
                    (8, "barriers=1"),
                    (4, "barriers=2"),
                ],
            ),
            Some(0),
        ),
    ];
    for (path, expected) in cases {
        let level = phineloops::parse_board_level("v", &std::fs::read(&path).unwrap()).unwrap();
        let mine = count_net_solutions(&level, 1000);
        if let Some(e) = expected {
            assert_eq!(mine, e, "{}", path.display());
        }
        let r = run(&["--count", s(&path)]);
        assert_eq!(
            r.stdout.trim(),
            format!("SOLUTIONS: {mine}"),
            "{}: {}",
            path.display(),
            r.stderr
        );
        let out = dir.path().join("answer.txt");
        let r = run(&["--solve", s(&path), "-o", s(&out)]);
        assert_eq!(r.code, if mine == 0 { 1 } else { 0 }, "{}", r.stderr);
        if mine > 0 {
            let answer = phineloops::parse_board_level("a", &std::fs::read(&out).unwrap()).unwrap();
            assert!(answer.is_turning_of(&level), "{}", path.display());
            assert!(is_tree(answer.board(), answer.masks()));
            assert!((0..9).all(|c| answer.masks()[c] & level.barrier(c) == 0));
            assert_eq!(run(&["--check", s(&out)]).stdout.trim(), "SOLVED: true");
        }
    }
}

#[test]
fn rules_on_the_command_line_override_the_level() {
    let dir = tempfile::tempdir().unwrap();
    // A 2x2 ring: solved under Infinity, a loop under Net.
    let ring = board_file(dir.path(), "ring.txt", "board square 2x2\n6\n12\n3\n9\n");
    assert_eq!(run(&["--check", s(&ring)]).stdout.trim(), "SOLVED: true");
    let r = run(&["--check", s(&ring), "--rules", "net", "-v"]);
    assert_eq!((r.code, r.stdout.trim()), (1, "SOLVED: false"));
    assert!(r.stderr.contains("a loop through 4 cells"), "{}", r.stderr);
    assert_eq!(run(&["--solve", s(&ring), "--rules", "net"]).code, 1);
    // Two dominoes: two networks, an island under Net.
    let two = board_file(
        dir.path(),
        "two.txt",
        "board square 2x2 rules=net\n2\n8\n2\n8\n",
    );
    let r = run(&["--check", s(&two), "-v"]);
    assert!(r.stderr.contains("an island of 2 cells"), "{}", r.stderr);
    // A course-format level under --rules net leaves the course engine and is judged as Net.
    let board = Board::new(Tiling::Square, 2, 2, Wrap::NONE).unwrap();
    let game = BoardLevel::new(board, vec![6, 12, 3, 9])
        .unwrap()
        .to_game()
        .unwrap();
    let course = dir.path().join("ring.course");
    let bytes = phineloops::any_level_bytes(
        &phineloops::AnyLevel::Course(game),
        phineloops::LevelFormat::Course,
    )
    .unwrap();
    std::fs::write(&course, bytes).unwrap();
    assert_eq!(run(&["--solve", s(&course)]).code, 0);
    assert_eq!(run(&["--solve", s(&course), "--rules", "net"]).code, 1);
    let r = run(&["--count", s(&course), "--rules", "net"]);
    assert_eq!(r.stdout.trim(), "SOLUTIONS: 0");
    let r = run(&["--solve", s(&ring), "--rules", "nett"]);
    assert_eq!(r.code, 2);
}

/// In-process times of the second-solution search (which solves and proves uniqueness) on
/// hexapipes' puzzles, per folder and size: min and median over the files of each file's best
/// of five warm runs. Prints only; run in release:
/// `cargo test --release --test it -- --ignored --nocapture hexapipes_timing`.
#[test]
#[ignore]
fn hexapipes_timing() {
    use phineloops::anyboard::two_solutions_level;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;
    let cancel = AtomicBool::new(false);
    for (folder, wrap) in [
        ("hexagonal", false),
        ("hexagonal-wrap", true),
        ("daily/hexagonal", false),
        ("daily/absent", false),
        ("daily/square", false),
        ("daily/octagonal", false),
        ("daily/cube", false),
        ("daily/trihexagonal", false),
        ("daily/etrat", false),
    ] {
        let Some(files) = hexapipes(folder) else {
            return;
        };
        let mut by_size: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let level = phineloops::parse_hexapipes(s(&f), &bytes, wrap).unwrap();
            let best = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    let sols = two_solutions_level(&level, None, &cancel).unwrap();
                    assert_eq!(sols.len(), 1);
                    t.elapsed().as_secs_f64() * 1e3
                })
                .fold(f64::INFINITY, f64::min);
            by_size.entry(level.board().width()).or_default().push(best);
        }
        for (w, mut ms) in by_size {
            ms.sort_by(f64::total_cmp);
            println!(
                "{folder} {w}: {} files, ms min {:.3} median {:.3} max {:.3}",
                ms.len(),
                ms[0],
                ms[ms.len() / 2],
                ms[ms.len() - 1]
            );
        }
    }
}

//! The level as a SAT formula ([`Cnf`]): one variable per inner side and one per distinct
//! orientation of each cell, written as DIMACS for any SAT solver (`--to-cnf`), solved by the
//! library behind `-m cp` ([`sat`]), and a solver's model read back into a level
//! ([`parse_model`], [`decode`]).
//!
//! Encoding "sides+orientations" (named in the DIMACS header):
//! - variables `1..=S` are the inner sides: first the `H*(W-1)` sides between horizontal
//!   neighbours (row-major), then the `(H-1)*W` sides between vertical neighbours; true means
//!   the side carries a connection. Border sides have no variable: they are always off.
//! - then, cell by cell in row-major order, one variable per distinct orientation of its piece
//!   (empty and X: 1, I: 2, Q, T and L: 4), for that many quarter turns clockwise;
//! - clauses: exactly one orientation per cell (at-least-one plus pairwise at-most-one); each
//!   orientation implies each of its four sides on or off (off the border: the orientation is
//!   forbidden if it points there); and each side, on or off, implies one of the orientations
//!   that agree with it. The last group is implied by the others but lets unit propagation see
//!   what our own propagation sees (a side decided narrows both cells at once).
//!
//! Orientation variables rather than only side patterns: a model names each cell's rotation
//! directly, and the one-hot form is the CP model of the course report (one variable per cell,
//! orientations as its domain) in boolean dress.

pub mod board;
#[cfg(feature = "cp")]
pub mod sat;

use crate::model::direction::{E, N, S, W, bit};
use crate::model::{Game, Piece};

/// Name of the encoding, written in the DIMACS header.
pub const ENCODING: &str = "sides+orientations v1";

/// A formula in conjunctive normal form over variables `1..=vars`.
#[derive(Clone, Debug)]
pub struct Cnf {
    /// Number of variables.
    pub vars: u32,
    /// Clauses as DIMACS literals, each clause ended by a 0 (one flat array).
    pub lits: Vec<i32>,
    /// Number of clauses.
    pub clauses: usize,
    /// First orientation variable of each cell (its orientations follow).
    pub first_orientation: Vec<u32>,
    height: usize,
    width: usize,
}

impl Cnf {
    /// The clauses, each as a slice of literals.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.lits.split(|&l| l == 0).take(self.clauses)
    }

    /// The DIMACS text: header comments naming the encoding, `p cnf`, then the clauses.
    pub fn to_dimacs(&self) -> Vec<u8> {
        use std::fmt::Write;
        let mut s = String::with_capacity(self.lits.len() * 7 + 1024);
        s.push_str(&dimacs_header(
            self.height,
            self.width,
            self.vars,
            self.clauses,
        ));
        for clause in self.clauses() {
            for l in clause {
                let _ = write!(s, "{l} ");
            }
            s.push_str("0\n");
        }
        s.into_bytes()
    }
}

/// The DIMACS header: comments naming the encoding, then the `p cnf` line.
fn dimacs_header(h: usize, w: usize, vars: u32, clauses: usize) -> String {
    use std::fmt::Write;
    let sides = side_count(h, w);
    let mut s = String::new();
    let _ = writeln!(s, "c phineloops level {w}x{h} (width x height)");
    let _ = writeln!(s, "c encoding: {ENCODING}");
    let _ = writeln!(
        s,
        "c variables 1..{sides}: inner sides, true = carries a connection; first the {} sides between horizontal neighbours, then the {} between vertical neighbours, row-major; border sides are always off and have no variable",
        h * w.saturating_sub(1),
        h.saturating_sub(1) * w
    );
    let _ = writeln!(
        s,
        "c variables {}..{}: per cell in row-major order, one per distinct orientation of its piece (empty/X 1, I 2, Q/T/L 4), true = that many quarter turns clockwise",
        sides + 1,
        vars
    );
    let _ = writeln!(
        s,
        "c clauses: exactly one orientation per cell; orientation -> its sides on/off; side on/off -> an orientation that agrees"
    );
    let _ = writeln!(
        s,
        "c read a model back with: phineloops --from-model MODEL --level LEVEL -o SOLVED"
    );
    let _ = writeln!(s, "p cnf {vars} {clauses}");
    s
}

fn side_count(h: usize, w: usize) -> usize {
    h * w.saturating_sub(1) + h.saturating_sub(1) * w
}

/// The variable of the side of cell `i` facing `side`, or `None` on the border.
fn side_var(h: usize, w: usize, i: usize, side: usize) -> Option<u32> {
    let (r, c) = (i / w, i % w);
    let horizontal = |r: usize, c: usize| (1 + r * (w - 1) + c) as u32;
    let vertical = |r: usize, c: usize| (1 + h * (w - 1) + r * w + c) as u32;
    match side {
        N if r > 0 => Some(vertical(r - 1, c)),
        S if r + 1 < h => Some(vertical(r, c)),
        W if c > 0 => Some(horizontal(r, c - 1)),
        E if c + 1 < w => Some(horizontal(r, c)),
        _ => None,
    }
}

/// The formula whose models are exactly the solutions of `game` (orientations ignored).
pub fn encode(game: &Game) -> Cnf {
    encode_until(game, &|| false).expect("never stopped")
}

/// [`encode`], asking `stop` every 1,024 cells whether to give up (`None`): a million-cell
/// level takes over a second to encode, longer than `-m cp --timeout 1` may run over, and a
/// count's SAT racer must stop within a millisecond or so once the other side has answered.
pub fn encode_until(game: &Game, stop: &dyn Fn() -> bool) -> Option<Cnf> {
    encode_domains_until(game, None, stop)
}

/// [`encode_until`] with each cell's orientations narrowed to `domains` (per cell in row-major
/// order, a bit per orientation of its piece; `None`: all of them), numbered as in the full
/// formula so models, blocking clauses and [`decode`] read the same. The narrowing must be
/// sound (a propagation's): the models are then still the level's solutions. A decided cell
/// takes a unit clause per variable it has, not its whole table, so a formula for a search
/// that propagation has mostly settled loads and solves in a fraction of the time.
pub fn encode_domains_until(
    game: &Game,
    domains: Option<&[u8]>,
    stop: &dyn Fn() -> bool,
) -> Option<Cnf> {
    let (h, w) = (game.height(), game.width());
    let first_orientation = first_orientations(game);
    let mut cnf = Cnf {
        vars: side_count(h, w) as u32 + orientation_count(game),
        lits: Vec::with_capacity(game.len() * 40),
        clauses: 0,
        first_orientation,
        height: h,
        width: w,
    };
    let mut clause = Vec::with_capacity(8);
    for i in 0..game.len() {
        if i.is_multiple_of(1_024) && stop() {
            return None;
        }
        let o0 = cnf.first_orientation[i];
        let all = all_turns(game, i);
        let dom = domains.map_or(all, |d| d[i] & all);
        cell_clauses(game, i, (o0, dom), &mut clause, &mut |c| {
            cnf.lits.extend_from_slice(c);
            cnf.lits.push(0);
            cnf.clauses += 1;
        });
    }
    Some(cnf)
}

fn orientation_count(game: &Game) -> u32 {
    game.cells()
        .iter()
        .map(|p| p.kind().orientations() as u32)
        .sum()
}

fn first_orientations(game: &Game) -> Vec<u32> {
    let mut next = side_count(game.height(), game.width()) as u32 + 1;
    let mut first = Vec::with_capacity(game.len());
    for p in game.cells() {
        first.push(next);
        next += p.kind().orientations() as u32;
    }
    first
}

/// Every orientation of cell `i`'s piece, as a domain.
fn all_turns(game: &Game, i: usize) -> u8 {
    (1u8 << game.cells()[i].kind().orientations()) - 1
}

/// Hands each clause of cell `i` (its first orientation variable `o0`), its orientations
/// narrowed to the bits of `dom`, to `emit`; `clause` is scratch space. The orientations
/// left out are ruled out by unit clauses, and once narrowed, a side every orientation left
/// agrees on is a unit of its own. With every orientation in `dom` the clauses are the full
/// table (the `--to-cnf` formula). An empty `dom` gives the empty clause.
fn cell_clauses(
    game: &Game,
    i: usize,
    (o0, dom): (u32, u8),
    clause: &mut Vec<i32>,
    emit: &mut impl FnMut(&[i32]),
) {
    let (h, w) = (game.height(), game.width());
    let kind = game.cells()[i].kind();
    let k = kind.orientations();
    let narrowed = dom != all_turns(game, i);
    let ovar = |o: u8| o0 as i32 + o as i32;
    let left = || (0..k).filter(move |&o| dom & (1 << o) != 0);
    for o in (0..k).filter(|&o| dom & (1 << o) == 0) {
        emit(&[-ovar(o)]);
    }
    clause.clear();
    clause.extend(left().map(ovar));
    emit(clause);
    for a in left() {
        for b in left().filter(|&b| b > a) {
            emit(&[-ovar(a), -ovar(b)]);
        }
    }
    for side in [N, E, S, W] {
        let on = |o: u8| kind.mask(o) & bit(side) != 0;
        let Some(s) = side_var(h, w, i, side) else {
            // A connection at the border: no orientation may make it.
            for o in left().filter(|&o| on(o)) {
                emit(&[-ovar(o)]);
            }
            continue;
        };
        let (always, never) = (left().all(on), left().all(|o| !on(o)));
        if narrowed && (always || never) {
            emit(&[if always { s as i32 } else { -(s as i32) }]);
            continue;
        }
        for o in left() {
            emit(&[-ovar(o), if on(o) { s as i32 } else { -(s as i32) }]);
        }
        for want in [true, false] {
            clause.clear();
            clause.push(if want { -(s as i32) } else { s as i32 });
            clause.extend(left().filter(|&o| on(o) == want).map(ovar));
            emit(clause);
        }
    }
}

/// Writes the DIMACS text of `game`'s formula to `out` a cell at a time, the bytes of
/// [`Cnf::to_dimacs`] without the formula in memory (a 2048x2048 level's took 7.5 GB):
/// clauses are counted first for the header, then made again and written. `Ok(None)` when
/// `cancel` was raised (read every 4,096 cells); else the variables and clauses written.
pub fn write_dimacs(
    game: &Game,
    out: &mut dyn std::io::Write,
    cancel: &std::sync::atomic::AtomicBool,
) -> std::io::Result<Option<(u32, usize)>> {
    use std::sync::atomic::Ordering;
    let (h, w) = (game.height(), game.width());
    let vars = side_count(h, w) as u32 + orientation_count(game);
    let mut clause = Vec::with_capacity(8);
    let mut clauses = 0usize;
    for i in 0..game.len() {
        cell_clauses(game, i, (0, all_turns(game, i)), &mut clause, &mut |_| {
            clauses += 1
        });
    }
    out.write_all(dimacs_header(h, w, vars, clauses).as_bytes())?;
    let mut next = side_count(h, w) as u32 + 1;
    let mut text = Vec::with_capacity(1 << 20);
    for (i, p) in game.cells().iter().enumerate() {
        if i.is_multiple_of(4096) && cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        cell_clauses(game, i, (next, all_turns(game, i)), &mut clause, &mut |c| {
            for l in c {
                push_int(&mut text, *l);
                text.push(b' ');
            }
            text.extend_from_slice(b"0\n");
        });
        next += p.kind().orientations() as u32;
        if text.len() >= 1 << 20 {
            out.write_all(&text)?;
            text.clear();
        }
    }
    out.write_all(&text)?;
    Ok(Some((vars, clauses)))
}

/// Appends the decimal digits of `v` (with its sign) to `text`.
fn push_int(text: &mut Vec<u8>, v: i32) {
    if v < 0 {
        text.push(b'-');
    }
    let mut n = v.unsigned_abs();
    let mut digits = [0u8; 10];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    text.extend_from_slice(&digits[k..]);
}

/// What a SAT solver said about a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// A model: `values[v]` for variable `v` (index 0 unused); unlisted variables are false.
    Model(Vec<bool>),
    /// The solver proved the formula has no model.
    Unsatisfiable,
    /// The solver gave up (`s UNKNOWN`, `INDET`).
    Unknown,
}

/// Reads a SAT solver's output: the competition format (`s SATISFIABLE`, `v 1 -2 ... 0`,
/// `c` comments) or MiniSat's result file (`SAT` then a line of literals). `name` is used in
/// errors, which say the line and what was expected.
pub fn parse_model(name: &str, text: &str, vars: u32) -> Result<SatAnswer, String> {
    let mut values = vec![false; vars as usize + 1];
    let mut status: Option<SatAnswer> = None;
    let mut literals = 0usize;
    for (n, line) in text.lines().enumerate() {
        let at = || format!("{name}, line {}", n + 1);
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        let status_of = |word: &str| match word {
            "SATISFIABLE" | "SAT" => Some(SatAnswer::Model(Vec::new())),
            "UNSATISFIABLE" | "UNSAT" => Some(SatAnswer::Unsatisfiable),
            "UNKNOWN" | "INDET" | "INDETERMINATE" => Some(SatAnswer::Unknown),
            _ => None,
        };
        if let Some(rest) = t.strip_prefix("s ") {
            status = Some(status_of(rest.trim()).ok_or_else(|| {
                format!(
                    "{}: expected `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `{t}`",
                    at()
                )
            })?);
            continue;
        }
        if let Some(s) = status_of(t) {
            status = Some(s);
            continue;
        }
        let body = t.strip_prefix('v').unwrap_or(t);
        for tok in body.split_whitespace() {
            let l: i64 = tok.parse().map_err(|_| {
                format!(
                    "{}: expected a literal (a signed variable number) in the model, found `{tok}`",
                    at()
                )
            })?;
            if l == 0 {
                continue;
            }
            let v = l.unsigned_abs();
            if v > vars as u64 {
                return Err(format!(
                    "{}: literal {l} names a variable above {vars}, the number in this level's formula (was the model made from another level?)",
                    at()
                ));
            }
            values[v as usize] = l > 0;
            literals += 1;
        }
    }
    match status {
        Some(SatAnswer::Unsatisfiable) => Ok(SatAnswer::Unsatisfiable),
        Some(SatAnswer::Unknown) => Ok(SatAnswer::Unknown),
        _ if literals == 0 => Err(format!(
            "{name}: no model found (expected `s SATISFIABLE` and `v ...` lines, or `s UNSATISFIABLE`)"
        )),
        _ => Ok(SatAnswer::Model(values)),
    }
}

/// The level a model describes: each cell turned to its true orientation variable. An error
/// names the first cell with no (or more than one) true orientation.
pub fn decode(game: &Game, cnf: &Cnf, values: &[bool]) -> Result<Game, String> {
    let mut out = game.clone();
    let w = game.width();
    for (i, p) in game.cells().iter().enumerate() {
        let kind = p.kind();
        let o0 = cnf.first_orientation[i] as usize;
        let on: Vec<u8> = (0..kind.orientations())
            .filter(|&o| values.get(o0 + o as usize).copied().unwrap_or(false))
            .collect();
        match on[..] {
            [o] => out.cells_mut()[i] = Piece::new(kind, o),
            _ => {
                return Err(format!(
                    "the model gives cell (row {}, column {}) {} true orientation variables (expected exactly 1)",
                    i / w,
                    i % w,
                    on.len()
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(feature = "cp")]
/// The clause that rules out the solution `solution` (a turning of the encoded level): some
/// cell with a choice takes another orientation. Cells with one orientation have no literal.
/// The orientation variable is found by the piece's mask, since a piece may carry any of the
/// quarter turns that give it (a straight turned twice is the straight).
pub fn block_solution(cnf: &Cnf, solution: &Game) -> Vec<i32> {
    let mut clause = Vec::new();
    for (i, p) in solution.cells().iter().enumerate() {
        let kind = p.kind();
        if kind.orientations() < 2 {
            continue;
        }
        let o = (0..kind.orientations())
            .find(|&o| Piece::new(kind, o).mask() == p.mask())
            .expect("some quarter turn gives the piece's mask");
        clause.push(-((cnf.first_orientation[i] + u32::from(o)) as i32));
    }
    clause
}

#[cfg(feature = "cp")]
/// The clause that rules out the model `values` (`values[v]` for each variable), over the
/// orientation variables of `game`'s cells with a choice.
pub fn block_model(cnf: &Cnf, game: &Game, values: &[bool]) -> Vec<i32> {
    let mut clause = Vec::new();
    for (i, p) in game.cells().iter().enumerate() {
        let n = p.kind().orientations() as u32;
        if n < 2 {
            continue;
        }
        let o0 = cnf.first_orientation[i];
        if let Some(v) = (o0..o0 + n).find(|&v| values.get(v as usize).copied().unwrap_or(false)) {
            clause.push(-(v as i32));
        }
    }
    clause
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PieceKind;

    #[test]
    fn variables_count_sides_then_distinct_orientations() {
        // 2x2 of I, X / L, empty: 4 inner sides, then 2 + 1 + 4 + 1 orientations.
        let cells = [PieceKind::I, PieceKind::X, PieceKind::L, PieceKind::Empty]
            .map(|k| Piece::new(k, 0))
            .to_vec();
        let cnf = encode(&Game::from_cells(2, 2, cells));
        assert_eq!(cnf.vars, 4 + 8);
        assert_eq!(cnf.first_orientation, vec![5, 7, 8, 12]);
        let text = String::from_utf8(cnf.to_dimacs()).unwrap();
        assert!(text.contains(ENCODING));
        assert!(text.contains(&format!("p cnf 12 {}", cnf.clauses)));
    }

    #[test]
    fn models_parse_in_both_formats_and_errors_name_the_line() {
        let comp = "c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(
            parse_model("m", comp, 3).unwrap(),
            SatAnswer::Model(vec![false, true, false, true])
        );
        assert_eq!(
            parse_model("m", "SAT\n-1 2 0\n", 2).unwrap(),
            SatAnswer::Model(vec![false, false, true])
        );
        assert_eq!(
            parse_model("m", "s UNSATISFIABLE\n", 2).unwrap(),
            SatAnswer::Unsatisfiable
        );
        let e = parse_model("m", "s SATISFIABLE\nv 1 x 0\n", 2).unwrap_err();
        assert!(e.contains("m, line 2") && e.contains("`x`"), "{e}");
        let e = parse_model("m", "v 1 9 0\n", 2).unwrap_err();
        assert!(e.contains("above 2"), "{e}");
        assert!(parse_model("m", "", 2).is_err());
    }

    /// Solutions of `game` with each cell's orientation among the bits of `dom`, by trying
    /// them in row-major order against the cells above and to the left and the border:
    /// nothing of the encoding.
    #[cfg(feature = "cp")]
    fn brute_count(game: &Game, dom: &[u8]) -> u64 {
        fn go(game: &Game, dom: &[u8], masks: &mut Vec<u8>) -> u64 {
            let (h, w) = (game.height(), game.width());
            let i = masks.len();
            if i == h * w {
                return 1;
            }
            let (r, c) = (i / w, i % w);
            let kind = game.cells()[i].kind();
            let mut count = 0;
            for o in (0..kind.orientations()).filter(|&o| dom[i] & (1 << o) != 0) {
                let m = kind.mask(o);
                let has = |side: usize| m & bit(side) != 0;
                let fits = (if r == 0 {
                    !has(N)
                } else {
                    has(N) == (masks[i - w] & bit(S) != 0)
                }) && (if c == 0 {
                    !has(W)
                } else {
                    has(W) == (masks[i - 1] & bit(E) != 0)
                }) && (r + 1 < h || !has(S))
                    && (c + 1 < w || !has(E));
                if fits {
                    masks.push(m);
                    count += go(game, dom, masks);
                    masks.pop();
                }
            }
            count
        }
        go(game, dom, &mut Vec::new())
    }

    /// The narrowed formula has exactly the solutions whose orientations lie in the domains,
    /// for domains of every kind: full, narrowed to a few turns with or without the generated
    /// solution's, one turn, empty.
    #[cfg(feature = "cp")]
    #[test]
    fn a_narrowed_formula_has_the_solutions_within_its_domains() {
        use crate::generate::{Family, GenerateOptions, generate_with_solution};
        use std::sync::atomic::AtomicBool;
        let no = AtomicBool::new(false);
        let mut rng = fastrand::Rng::with_seed(7);
        let (mut with_models, mut without) = (0, 0);
        for seed in 0..60u64 {
            let mut o = GenerateOptions::new(3 + seed as usize % 2, 4, seed);
            o.family = [Family::Dominoes, Family::Random, Family::Loops][seed as usize % 3];
            let (solution, game) = generate_with_solution(&o);
            let only = |i: usize| {
                let k = solution.cells()[i].kind();
                let turn = (0..k.orientations()).find(|&t| k.mask(t) == solution.cells()[i].mask());
                1u8 << turn.unwrap()
            };
            // Every other level keeps the solution's turns, so about half have models.
            let keep = seed % 2 == 0;
            let dom: Vec<u8> = (0..game.len())
                .map(|i| {
                    let all = (1u8 << game.cells()[i].kind().orientations()) - 1;
                    let some = rng.u8(..=all) & all;
                    match rng.u8(..4) {
                        0 | 1 => all,
                        _ if keep => some | only(i),
                        // A random subset, which may leave out the solution's turn or be empty.
                        _ => some,
                    }
                })
                .collect();
            let want = brute_count(&game, &dom);
            let cnf = encode_domains_until(&game, Some(&dom), &|| false).unwrap();
            // Every model reads as one solution within the domains.
            let block = |values: &[bool]| {
                let turned = decode(&game, &cnf, values).unwrap();
                assert!(crate::check::verify::is_solved(&turned), "seed {seed}");
                for (i, p) in turned.cells().iter().enumerate() {
                    let k = p.kind();
                    let t = (0..k.orientations())
                        .find(|&t| k.mask(t) == p.mask())
                        .unwrap();
                    assert!(dom[i] & (1 << t) != 0, "seed {seed}, cell {i}");
                }
                block_model(&cnf, &game, values)
            };
            let (got, _) = sat::count_models(
                cnf.vars,
                cnf.clauses(),
                &[],
                1 << 12,
                &block,
                &no,
                &no,
                None,
            );
            assert_eq!(got, sat::ModelCount::Exact(want), "seed {seed}");
            // A turn left out of a domain is false in every model, not merely unread.
            let out = (0..game.len()).find_map(|i| {
                let k = game.cells()[i].kind().orientations();
                let t = (0..k).find(|&t| dom[i] & (1 << t) == 0)?;
                Some(vec![(cnf.first_orientation[i] + u32::from(t)) as i32])
            });
            if let (true, Some(unit)) = (want > 0, out) {
                let (got, _) =
                    sat::count_models(cnf.vars, cnf.clauses(), &[unit], 8, &block, &no, &no, None);
                assert_eq!(got, sat::ModelCount::Exact(0), "seed {seed}");
            }
            if want > 0 {
                with_models += 1;
                // One turn per cell, the solution's: exactly one model.
                let one: Vec<u8> = (0..game.len()).map(only).collect();
                let cnf = encode_domains_until(&game, Some(&one), &|| false).unwrap();
                let block = |values: &[bool]| block_model(&cnf, &game, values);
                let (got, _) =
                    sat::count_models(cnf.vars, cnf.clauses(), &[], 8, &block, &no, &no, None);
                assert_eq!(got, sat::ModelCount::Exact(1), "seed {seed}");
            } else {
                without += 1;
            }
        }
        assert!(
            with_models >= 10 && without >= 10,
            "{with_models} / {without}"
        );
    }
}

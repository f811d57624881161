//! The "sides+orientations" encoding of `super` on any board: one variable per pair of
//! facing sides (in the order of [`Board::edges`]), then one per distinct orientation of each
//! cell; exactly one orientation per cell, each orientation implying its sides on or off, and
//! each side implying an orientation that agrees. Written straight to DIMACS text.

use std::fmt::Write;

use crate::board::{Board, BoardLevel};

#[cfg(feature = "cp")]
/// A board level's formula as clauses in memory (for the SAT library; [`board_dimacs`]
/// writes the same clauses as text).
pub struct BoardCnf {
    /// Number of variables.
    pub vars: u32,
    /// Clauses as DIMACS literals, each ended by a 0 (one flat array).
    pub lits: Vec<i32>,
    /// Number of clauses.
    pub clauses: usize,
    /// First orientation variable of each cell (one per distinct orientation follows).
    pub first_orientation: Vec<u32>,
}

#[cfg(feature = "cp")]
impl BoardCnf {
    /// The clauses, each as a slice of literals.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.lits.split(|&l| l == 0).take(self.clauses)
    }
}

#[cfg(feature = "cp")]
/// `level`'s formula as clauses in memory. Barriers are borders and a locked cell keeps its
/// orientation; Net rules (one tree) are not a formula of this encoding: callers refuse them.
pub fn board_cnf(level: &BoardLevel) -> BoardCnf {
    let mut lits = Vec::new();
    let mut clauses = 0usize;
    let (vars, first_orientation, _) = each_clause(level, |c| {
        lits.extend(c.iter().map(|&l| l as i32));
        lits.push(0);
        clauses += 1;
    });
    BoardCnf {
        vars,
        lits,
        clauses,
        first_orientation,
    }
}

#[cfg(feature = "cp")]
/// The solved level a model of [`board_cnf`]'s formula stands for: each cell turned to the
/// orientation whose variable is true.
pub fn decode_board(
    level: &BoardLevel,
    cnf: &BoardCnf,
    values: &[bool],
) -> Result<BoardLevel, String> {
    let board = level.board().clone();
    let mut solved = level.clone();
    for (c, m) in solved.masks_mut().iter_mut().enumerate() {
        let p = board.period(c, *m) as u32;
        let first = cnf.first_orientation[c];
        let on: Vec<u32> = (0..p).filter(|&r| values[(first + r) as usize]).collect();
        let [r] = on[..] else {
            return Err(format!(
                "cell {c} has {} orientations set, not one",
                on.len()
            ));
        };
        *m = board.turn(c, *m, r as u8);
    }
    Ok(solved)
}

/// The DIMACS text of `level`'s formula (see [`board_cnf`] for barriers, locks and rules).
pub fn board_dimacs(level: &BoardLevel) -> Vec<u8> {
    let b = level.board();
    let mut body = String::new();
    let mut clauses = 0usize;
    let (vars, _, edges) = each_clause(level, |lits| {
        for l in lits {
            let _ = write!(body, "{l} ");
        }
        body.push_str("0\n");
        clauses += 1;
    });
    let mut out = String::with_capacity(body.len() + 512);
    let _ = writeln!(
        out,
        "c phineloops level: board {} {}x{} wrap={}",
        b.tiling().name(),
        b.width(),
        b.height(),
        b.wrap().name()
    );
    let _ = writeln!(out, "c encoding: {}", super::ENCODING);
    let _ = writeln!(
        out,
        "c variables 1..{edges}: pairs of facing sides, cell by cell in row-major order and side by side, each pair where its lower cell (then lower side) meets it; true = connected"
    );
    let _ = writeln!(
        out,
        "c variables {}..{vars}: per cell in row-major order, one per distinct orientation of its piece, true = that many steps up the side order",
        edges + 1
    );
    let _ = writeln!(out, "p cnf {vars} {clauses}");
    out.push_str(&body);
    out.into_bytes()
}

/// Hands every clause of `level`'s formula to `emit`; returns the number of variables, the
/// first orientation variable of each cell and the number of side variables.
fn each_clause(level: &BoardLevel, mut emit: impl FnMut(&[i64])) -> (u32, Vec<u32>, u32) {
    let b = level.board();
    let k = b.sides() as usize;
    let (edge_var, edges) = edge_variables(b);
    let mut first = Vec::with_capacity(b.len());
    let mut vars = edges;
    for (c, &m) in level.masks().iter().enumerate() {
        first.push(vars + 1);
        vars += b.period(c, m) as u32;
    }
    for (c, &m) in level.masks().iter().enumerate() {
        let p = b.period(c, m) as u32;
        let o = |r: u32| (first[c] + r) as i64;
        if level.is_locked(c) {
            emit(&[o(0)]);
        }
        emit(&(0..p).map(o).collect::<Vec<_>>());
        for r in 0..p {
            for r2 in r + 1..p {
                emit(&[-o(r), -o(r2)]);
            }
        }
        for s in 0..k {
            let var = edge_var[c * k + s];
            let with: Vec<i64> = (0..p)
                .filter(|&r| b.turn(c, m, r as u8) >> s & 1 == 1)
                .map(o)
                .collect();
            let without: Vec<i64> = (0..p)
                .filter(|&r| b.turn(c, m, r as u8) >> s & 1 == 0)
                .map(o)
                .collect();
            if var == 0 || level.barrier(c) >> s & 1 == 1 {
                // A border or a barrier: no orientation may point there.
                for &x in &with {
                    emit(&[-x]);
                }
                if var != 0 {
                    emit(&[-(var as i64)]);
                }
                continue;
            }
            let v = var as i64;
            for &x in &with {
                emit(&[-x, v]);
            }
            for &x in &without {
                emit(&[-x, -v]);
            }
            let mut on = vec![-v];
            on.extend(&with);
            emit(&on);
            let mut off = vec![v];
            off.extend(&without);
            emit(&off);
        }
    }
    (vars, first, edges)
}

/// The variable of each `cell * k + side` (0 for a border) and how many there are.
fn edge_variables(b: &Board) -> (Vec<u32>, u32) {
    let k = b.sides() as usize;
    let mut var = vec![0u32; b.len() * k];
    let mut next = 0;
    for (c, s) in b.edges() {
        next += 1;
        let (n, t) = b.neighbour(c, s).expect("an edge has two ends");
        var[c * k + s] = next;
        var[n * k + t] = next;
    }
    (var, next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Tiling, Wrap};

    #[test]
    fn the_header_counts_what_the_body_holds() {
        let b = Board::new(Tiling::Hexagonal, 3, 3, Wrap::BOTH).unwrap();
        let level = BoardLevel::new(b, vec![1, 3, 5, 9, 0, 63, 7, 2, 4]).unwrap();
        let text = String::from_utf8(board_dimacs(&level)).unwrap();
        let p = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
        let n: Vec<usize> = p[6..].split(' ').map(|x| x.parse().unwrap()).collect();
        let body: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with(['c', 'p']))
            .collect();
        assert_eq!(body.len(), n[1]);
        let most = body
            .iter()
            .flat_map(|l| l.split(' '))
            .map(|x| x.parse::<i64>().unwrap().unsigned_abs() as usize)
            .max()
            .unwrap();
        assert_eq!(most, n[0]);
        // 27 facing pairs on a 3x3 hexagonal torus.
        assert!(text.contains("variables 1..27:"));
    }
}

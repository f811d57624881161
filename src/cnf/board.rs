//! The "sides+orientations" encoding of `super` on any board: one variable per pair of
//! facing sides (in the order of [`Board::edges`]), then one per distinct orientation of each
//! cell; exactly one orientation per cell, each orientation implying its sides on or off, and
//! each side implying an orientation that agrees. Written straight to DIMACS text.

use std::fmt::Write;

use crate::board::mask::{period, rotate};
use crate::board::{Board, BoardLevel};

/// The DIMACS text of `level`'s formula.
pub fn board_dimacs(level: &BoardLevel) -> Vec<u8> {
    let b = level.board();
    let k = b.sides() as usize;
    let (edge_var, edges) = edge_variables(b);
    let mut first = Vec::with_capacity(b.len());
    let mut vars = edges;
    for &m in level.masks() {
        first.push(vars + 1);
        vars += period(m, k as u8) as u32;
    }
    let mut body = String::new();
    let mut clauses = 0usize;
    let mut clause = |lits: &[i64], body: &mut String| {
        for l in lits {
            let _ = write!(body, "{l} ");
        }
        body.push_str("0\n");
        clauses += 1;
    };
    for (c, &m) in level.masks().iter().enumerate() {
        let p = period(m, k as u8) as u32;
        let o = |r: u32| (first[c] + r) as i64;
        clause(&(0..p).map(o).collect::<Vec<_>>(), &mut body);
        for r in 0..p {
            for r2 in r + 1..p {
                clause(&[-o(r), -o(r2)], &mut body);
            }
        }
        for s in 0..k {
            let var = edge_var[c * k + s];
            let with: Vec<i64> = (0..p)
                .filter(|&r| rotate(m, k as u8, r as u8) >> s & 1 == 1)
                .map(o)
                .collect();
            let without: Vec<i64> = (0..p)
                .filter(|&r| rotate(m, k as u8, r as u8) >> s & 1 == 0)
                .map(o)
                .collect();
            if var == 0 {
                // A border: no orientation may point there.
                for &x in &with {
                    clause(&[-x], &mut body);
                }
                continue;
            }
            let v = var as i64;
            for &x in &with {
                clause(&[-x, v], &mut body);
            }
            for &x in &without {
                clause(&[-x, -v], &mut body);
            }
            let mut on = vec![-v];
            on.extend(&with);
            clause(&on, &mut body);
            let mut off = vec![v];
            off.extend(&without);
            clause(&off, &mut body);
        }
    }
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

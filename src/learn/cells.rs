//! The cell constraint: the connected sides of a cell are one of the turns its table still
//! allows. Propagation reads the cell's assigned edges, looks up the turns that fit and
//! sets every open side all of them agree on. Its explanation is computed when analysis asks
//! for it: the cell's edges assigned before the implied one, shrunk greedily to a subset that
//! still forces it (latest first, so what remains lies on earlier levels), edges fixed at
//! level 0 counted as walls.

use super::clauses::{Lit, var};
use super::edges::NO_EDGE;
use super::search::{Conflict, Solver, UNSET};

impl Solver {
    /// Narrows `cell`'s open edges to what its remaining turns agree on.
    pub(super) fn propagate_cell(&mut self, cell: usize) -> Result<(), Conflict> {
        let k = self.e.k;
        let (mut req, mut forb, mut open) = (self.e.fixed[cell], self.e.walls[cell], 0u8);
        // The highest level among the assigned sides: every narrowing holds from there on.
        let mut top = 0;
        for s in 0..k {
            let e = self.e.edge(cell, s);
            if e == NO_EDGE {
                continue;
            }
            match self.val[e as usize] {
                1 => req |= 1 << s,
                0 => forb |= 1 << s,
                _ => {
                    open |= 1 << s;
                    continue;
                }
            }
            top = top.max(self.level[e as usize]);
        }
        let alive = self.e.alive(cell, req, forb);
        if alive == 0 {
            return Err(Conflict::Cell(cell as u32));
        }
        if open == 0 {
            return Ok(());
        }
        let sh = self.e.shapes.get(self.e.shape[cell]);
        let set = sh.must[alive as usize] & open;
        let clear = !sh.may[alive as usize] & open;
        let reason = super::search::CELL | cell as u32;
        let at = self.implied_level(top);
        for (bits, value) in [(set, 1u8), (clear, 0u8)] {
            let mut b = bits;
            while b != 0 {
                let s = b.trailing_zeros() as usize;
                b &= b - 1;
                let e = self.e.edge(cell, s);
                self.assign_at(e * 2 + (1 - value as u32), reason, at);
            }
        }
        Ok(())
    }

    /// Writes into `out` the clause behind a narrowing of `cell`: `implied` first (a literal
    /// of one of its edges, true now), then the negations of the cell's assignments that
    /// force it; with `None`, the clause behind the cell having no turn left.
    pub(super) fn explain_cell(&self, cell: usize, implied: Option<Lit>, out: &mut Vec<Lit>) {
        let k = self.e.k;
        let before = implied.map_or(u32::MAX, |p| self.pos[var(p) as usize]);
        let (mut req, mut forb) = (self.e.fixed[cell], self.e.walls[cell]);
        // Sides an explanation may name, latest first.
        let mut named: [(u32, u8); 8] = [(0, 0); 8];
        let mut n = 0;
        let mut target = None;
        for s in 0..k {
            let e = self.e.edge(cell, s);
            if e == NO_EDGE {
                continue;
            }
            if implied.is_some_and(|p| var(p) == e) {
                target = Some(s);
                continue;
            }
            let v = self.val[e as usize];
            if v == UNSET || self.pos[e as usize] >= before {
                continue;
            }
            if v == 1 {
                req |= 1 << s;
            } else {
                forb |= 1 << s;
            }
            if self.level[e as usize] > 0 {
                named[n] = (self.pos[e as usize], s as u8);
                n += 1;
            }
        }
        named[..n].sort_unstable_by_key(|a| std::cmp::Reverse(a.0));
        let sh = self.e.shapes.get(self.e.shape[cell]);
        let forces = |req: u8, forb: u8| {
            let alive = self.e.alive(cell, req, forb);
            match (implied, target) {
                (Some(p), Some(s)) => {
                    alive == 0
                        || if p & 1 == 0 {
                            sh.must[alive as usize] >> s & 1 == 1
                        } else {
                            sh.may[alive as usize] >> s & 1 == 0
                        }
                }
                _ => alive == 0,
            }
        };
        debug_assert!(
            forces(req, forb),
            "the cell's assignments force the narrowing"
        );
        let mut kept = 0u8;
        for &(_, s) in &named[..n] {
            let bit = 1u8 << s;
            let (r, f) = (req & !bit, forb & !bit);
            if forces(r, f) {
                req = r;
                forb = f;
            } else {
                kept |= bit;
            }
        }
        out.clear();
        out.extend(implied);
        let mut b = kept;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            let e = self.e.edge(cell, s);
            // The negation of the literal that is true: connected -> "not connected".
            out.push(e * 2 + (req >> s & 1) as u32);
        }
    }
}

//! [`Edges`]: the level compiled for learning. Each pair of facing sides becomes one boolean
//! variable (an edge); a border or a barrier is no variable, a connection that is always
//! false. Per cell, the shape tables of [`Shapes`] and the turns it may take (one when
//! locked), so a cell's table constraint is a lookup in its shape's `fit` table.
//!
//! A whole board without barriers numbers its edges by arithmetic ([`Numbering::Lattice`]):
//! the tables of the other numbering cost 8 bytes a side, 800 MB for a 4096x4096 hexagonal
//! board, and the kernel's zeroing of their fresh pages was a quarter of a one-end-heavy
//! solve there.

use std::sync::Arc;

use crate::anyboard::shapes::{Shapes, full_domain};
use crate::board::{Board, BoardLevel, LinkClasses, NO_LINK};

/// A side with no variable: a border or a barrier (never connected).
pub(super) const NO_EDGE: u32 = u32::MAX;

/// How edges are numbered, and found from a side and back.
#[derive(Clone)]
enum Numbering {
    /// Numbered as met, in cell and side order.
    Table {
        /// `cell * k + side` -> its edge, or [`NO_EDGE`].
        side_edge: Vec<u32>,
        /// `edge * 2 + end` -> `cell * 8 + side` of each of its two ends.
        ends: Vec<u32>,
    },
    /// A board whose every side faces the side half a turn from it (`s` and `s + k / 2`):
    /// edge `cell * k / 2 + s` is the one across side `s < k / 2` of `cell`. The numbers of
    /// border sides are variables no cell reads, unconnected from the start (see
    /// [`Edges::missing`]).
    Lattice {
        links: Arc<LinkClasses>,
        half: usize,
    },
}

/// The cell and side below half a turn that own lattice edge `v`: a division by a
/// constant for the tilings there are.
#[inline(always)]
fn owner(v: usize, half: usize) -> (usize, usize) {
    match half {
        2 => (v / 2, v % 2),
        3 => (v / 3, v % 3),
        h => (v / h, v % h),
    }
}

/// The level's edges and cell tables, as flat arrays.
#[derive(Clone)]
pub(super) struct Edges {
    /// Sides per cell.
    pub k: usize,
    /// Whether every cell's `k` sides are numbered in one turning sense, so that the faces
    /// of the board's drawing can be traced from them (square and hexagonal boards; see
    /// `splits.rs`).
    pub turning: bool,
    /// Whether the board is bounded (no wrapping): drawn in the plane, where a closed ring
    /// of sides has an inside (`splits.rs`).
    pub bounded: bool,
    numbering: Numbering,
    /// Per cell, the sides that are borders or barriers, or edges found unconnected before
    /// this search (a region's rim).
    pub walls: Vec<u8>,
    /// Per cell, the sides found connected before this search (a region's rim).
    pub fixed: Vec<u8>,
    /// Shared by the searches of every region.
    pub shapes: Arc<Shapes>,
    /// Per cell, its shape's number in `shapes`.
    pub shape: Vec<u8>,
    /// Per cell, the turns it may take (a bit per orientation of its shape).
    pub allowed: Vec<u8>,
}

impl Edges {
    /// The edges and tables of `level` (its rules are not looked at: Net rules are a theory beside the tables).
    pub fn new(level: &BoardLevel) -> Edges {
        let b = level.board();
        let k = b.sides() as usize;
        // Mixed cells face no fixed side across: their edges are numbered by table.
        let classes = b.link_classes().filter(|_| !level.has_barriers());
        let (numbering, walls) = match classes {
            Some(links) => {
                debug_assert!(faces_half_a_turn(b));
                let walls = (0..b.len()).map(|c| b.border_mask(c)).collect();
                let half = k / 2;
                (Numbering::Lattice { links, half }, walls)
            }
            None => tables(level),
        };
        let (shapes, shape) = Shapes::of_cells(b, level.masks());
        let mut allowed = Vec::with_capacity(b.len());
        for (c, &m) in level.masks().iter().enumerate() {
            let s = shape[c];
            allowed.push(if level.is_locked(c) {
                1 << shapes.orientation_of(s, m)
            } else {
                full_domain(shapes.get(s).period)
            });
        }
        Edges {
            k,
            turning: b.is_uniform(),
            bounded: !b.wrap().any(),
            numbering,
            fixed: vec![0; b.len()],
            walls,
            shapes: Arc::new(shapes),
            shape,
            allowed,
        }
    }

    /// The edges and tables of the region `cells` (ascending) once `val` (per edge, as the
    /// search stores it) is known: its open edges renumbered in the order the region's
    /// cells and sides first meet them, the set ones now walls or fixed connections. Returns
    /// them and, with `numbers`, per new edge its number here (else nothing). An open edge
    /// must join two cells of the region. `local` (per cell) is scratch: the entries of
    /// the region's cells are written before they are read.
    pub fn region(
        &self,
        val: &[u8],
        cells: &[u32],
        local: &mut [u32],
        numbers: bool,
    ) -> (Edges, Vec<u32>) {
        let k = self.k;
        for (i, &c) in cells.iter().enumerate() {
            local[c as usize] = i as u32;
        }
        let mut side_edge = vec![NO_EDGE; cells.len() * k];
        let mut walls = Vec::with_capacity(cells.len());
        let mut fixed = Vec::with_capacity(cells.len());
        // An open edge joins two cells of the region: at most cells * k / 2 of them.
        let mut ends = Vec::with_capacity(cells.len() * k);
        let mut old = Vec::with_capacity(if numbers { cells.len() * k / 2 } else { 0 });
        for (i, &c) in cells.iter().enumerate() {
            let (mut w, mut f) = (self.walls[c as usize], self.fixed[c as usize]);
            for s in 0..k {
                let e = self.edge(c as usize, s);
                if e == NO_EDGE {
                    continue;
                }
                match val[e as usize] {
                    0 => w |= 1 << s,
                    1 => f |= 1 << s,
                    _ => {
                        let here = (i as u32) * 8 + s as u32;
                        let [a, b] = self.ends(e).map(|x| local[(x >> 3) as usize] * 8 + (x & 7));
                        let there = if a == here { b } else { a };
                        // Numbered at the end the scan meets first (the other is later in
                        // cell and side order), which fills both ends' slots: no table from
                        // old numbers to new (12 bytes a cell at the peak of a 1024x1024
                        // hexagonal solve).
                        if here <= there {
                            let id = (ends.len() / 2) as u32;
                            side_edge[i * k + s] = id;
                            side_edge[(there >> 3) as usize * k + (there & 7) as usize] = id;
                            ends.extend([a, b]);
                            if numbers {
                                old.push(e);
                            }
                        }
                    }
                }
            }
            walls.push(w);
            fixed.push(f);
        }
        let sub = Edges {
            k,
            turning: self.turning,
            bounded: self.bounded,
            numbering: Numbering::Table { side_edge, ends },
            walls,
            fixed,
            shapes: Arc::clone(&self.shapes),
            shape: cells.iter().map(|&c| self.shape[c as usize]).collect(),
            allowed: cells.iter().map(|&c| self.allowed[c as usize]).collect(),
        };
        (sub, old)
    }

    /// Number of edge variables (with a lattice numbering, the border sides' numbers
    /// among them).
    pub fn len(&self) -> usize {
        match &self.numbering {
            Numbering::Table { ends, .. } => ends.len() / 2,
            Numbering::Lattice { half, .. } => self.cells() * half,
        }
    }

    /// Number of pairs of facing sides: the variables a cell reads.
    pub fn connections(&self) -> usize {
        self.len() - self.missing().count()
    }

    /// The variables no cell reads (a lattice numbering's border sides), ascending: a
    /// search sets them unconnected before it starts.
    pub fn missing(&self) -> impl Iterator<Item = u32> + '_ {
        let half = match self.numbering {
            Numbering::Table { .. } => 0,
            Numbering::Lattice { half, .. } => half,
        };
        let own = ((1u32 << half) - 1) as u8;
        (0..if half == 0 { 0 } else { self.cells() }).flat_map(move |c| {
            let m = self.walls[c] & own;
            (0..half)
                .filter(move |&s| m >> s & 1 == 1)
                .map(move |s| (c * half + s) as u32)
        })
    }

    /// The edge across side `s` of `cell`, or [`NO_EDGE`].
    #[inline(always)]
    pub fn edge(&self, cell: usize, s: usize) -> u32 {
        match &self.numbering {
            Numbering::Table { side_edge, .. } => side_edge[cell * self.k + s],
            Numbering::Lattice { links, half } => {
                let l = links.link(cell, s);
                if l == NO_LINK {
                    NO_EDGE
                } else if s < *half {
                    (cell * half + s) as u32
                } else {
                    // The facing side is `s - half`, owned by the neighbour.
                    (l >> 3) * *half as u32 + (l & 7)
                }
            }
        }
    }

    /// The two ends of edge `v`, each `cell * 8 + side`; a variable no cell reads has its
    /// owner's side at both.
    #[inline(always)]
    pub fn ends(&self, v: u32) -> [u32; 2] {
        match &self.numbering {
            Numbering::Table { ends, .. } => [ends[2 * v as usize], ends[2 * v as usize + 1]],
            Numbering::Lattice { links, half } => {
                let (c, s) = owner(v as usize, *half);
                let here = (c * 8 + s) as u32;
                let l = links.link(c, s);
                [here, if l == NO_LINK { here } else { l }]
            }
        }
    }

    /// The cell and side that face side `s` of `cell` across an edge, or `None` at a wall:
    /// [`Edges::facing`] without the edge's number.
    #[inline(always)]
    pub fn across(&self, cell: usize, s: usize) -> Option<(usize, usize)> {
        let l = match &self.numbering {
            Numbering::Table { side_edge, .. } => {
                let v = side_edge[cell * self.k + s];
                return (v != NO_EDGE).then(|| self.facing(v, cell, s));
            }
            Numbering::Lattice { links, .. } => links.link(cell, s),
        };
        (l != NO_LINK).then_some(((l >> 3) as usize, (l & 7) as usize))
    }

    /// The cell and side at the other end of edge `v` from side `s` of `c`.
    #[inline]
    pub fn facing(&self, v: u32, c: usize, s: usize) -> (usize, usize) {
        let [a, b] = self.ends(v);
        let other = if a == (c * 8 + s) as u32 { b } else { a };
        ((other >> 3) as usize, (other & 7) as usize)
    }

    /// Lets go of the per side and per edge tables, keeping the per cell ones: for a whole
    /// board whose regions have tables of their own. No edge is left.
    pub fn release_edges(&mut self) {
        if let Numbering::Table { side_edge, ends } = &mut self.numbering {
            *side_edge = Vec::new();
            *ends = Vec::new();
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.shape.len()
    }

    /// The turns of `cell` that connect every side of `req` and none of `forb`.
    #[inline]
    pub fn alive(&self, cell: usize, req: u8, forb: u8) -> u8 {
        self.shapes.fitting(self.shape[cell], req, forb) & self.allowed[cell]
    }

    /// Per cell, the mask of its one turn whose connections are the fixed sides and the
    /// edges `val` (per edge, 1 connected) connects.
    pub fn turns<'a>(&'a self, val: &'a [u8]) -> impl Iterator<Item = u8> + 'a {
        let full = ((1u32 << self.k) - 1) as u8;
        (0..self.cells()).map(move |c| {
            let req = (0..self.k)
                .filter(|&s| {
                    let v = self.edge(c, s);
                    v != NO_EDGE && val[v as usize] == 1
                })
                .fold(self.fixed[c], |m, s| m | 1 << s);
            let alive = self.alive(c, req, full & !req);
            self.mask(c, alive.trailing_zeros() as u8 & 7)
        })
    }

    /// The mask of `cell` at turn `r` of its shape.
    pub fn mask(&self, cell: usize, r: u8) -> u8 {
        self.shapes.get(self.shape[cell]).masks[r as usize]
    }
}

/// The edges of `level` numbered as met, with their tables, and per cell its walls
/// (borders and barriers).
fn tables(level: &BoardLevel) -> (Numbering, Vec<u8>) {
    let b = level.board();
    let k = b.sides() as usize;
    let n = b.len();
    let mut side_edge = vec![NO_EDGE; n * k];
    let mut walls = vec![0u8; n];
    // Two ends for each of at most n * k / 2 edges: grown by doubling, the table held up
    // to twice its size, and three times while it moved.
    let mut ends = Vec::with_capacity(n * k);
    for c in 0..n {
        for s in 0..k {
            let l = b.link(c, s);
            if l == NO_LINK || level.barrier(c) >> s & 1 == 1 {
                walls[c] |= 1 << s;
                continue;
            }
            let (m, t) = ((l >> 3) as usize, (l & 7) as usize);
            if (c, s) < (m, t) {
                let e = (ends.len() / 2) as u32;
                side_edge[c * k + s] = e;
                side_edge[m * k + t] = e;
                ends.push((c * 8 + s) as u32);
                ends.push((m * 8 + t) as u32);
            }
        }
    }
    (Numbering::Table { side_edge, ends }, walls)
}

/// Whether every side of `b` faces the side half a turn from it, as the lattice numbering
/// needs (true of every tiling here; the tests check it on every small board).
pub(super) fn faces_half_a_turn(b: &Board) -> bool {
    let k = b.sides() as usize;
    (0..b.len())
        .all(|c| (0..k).all(|s| b.neighbour(c, s).is_none_or(|(_, t)| t == (s + k / 2) % k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fixtures::small_boards;
    use crate::board::{Tiling, Wrap};

    /// Each pair of facing sides of `e`, as its two ends in order, from its sides.
    fn pairs(e: &Edges) -> Vec<[u32; 2]> {
        let mut out: Vec<[u32; 2]> = (0..e.cells())
            .flat_map(|c| (0..e.k).map(move |s| (c, s)))
            .filter_map(|(c, s)| {
                let v = e.edge(c, s);
                (v != NO_EDGE).then(|| {
                    let mut p = e.ends(v);
                    assert!(
                        p.contains(&((c * 8 + s) as u32)),
                        "an edge has its sides' ends"
                    );
                    assert_eq!(e.across(c, s), Some(e.facing(v, c, s)));
                    p.sort_unstable();
                    p
                })
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn the_lattice_numbering_has_the_edges_of_the_tables() {
        let mut boards = small_boards(1..=5, 25);
        for tiling in Tiling::ALL {
            for wrap in [Wrap::NONE, Wrap::BOTH] {
                boards.push(Board::new(tiling, 9, 7, wrap).unwrap());
            }
        }
        for b in boards {
            assert!(faces_half_a_turn(&b));
            let level = BoardLevel::new(b.clone(), vec![0; b.len()]).unwrap();
            let lattice = Edges::new(&level);
            assert!(matches!(lattice.numbering, Numbering::Lattice { .. }));
            let (numbering, walls) = tables(&level);
            let table = Edges {
                numbering,
                walls,
                ..lattice.clone()
            };
            assert_eq!(lattice.walls, table.walls, "{b:?}");
            assert_eq!(pairs(&lattice), pairs(&table), "{b:?}");
            assert_eq!(lattice.connections(), table.len(), "{b:?}");
            // The numbers no side reads are exactly the ones whose ends are one side.
            let unread: Vec<u32> = (0..lattice.len() as u32)
                .filter(|&v| {
                    let [a, z] = lattice.ends(v);
                    a == z
                })
                .collect();
            assert_eq!(lattice.missing().collect::<Vec<_>>(), unread, "{b:?}");
            assert_eq!(table.missing().count(), 0);
        }
    }
}

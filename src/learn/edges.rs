//! [`Edges`]: the level compiled for learning. Each pair of facing sides becomes one boolean
//! variable (an edge); a border or a barrier is no variable, a connection that is always
//! false. Per cell, the shape tables of [`Shapes`] and the turns it may take (one when
//! locked), so a cell's table constraint is a lookup in its shape's `fit` table.

use std::sync::Arc;

use crate::anyboard::shapes::{Shapes, full_domain};
use crate::board::{BoardLevel, NO_LINK};

/// A side with no variable: a border or a barrier (never connected).
pub(super) const NO_EDGE: u32 = u32::MAX;

/// The level's edges and cell tables, as flat arrays.
#[derive(Clone)]
pub(super) struct Edges {
    /// Sides per cell.
    pub k: usize,
    /// `cell * k + side` -> its edge, or [`NO_EDGE`].
    pub side_edge: Vec<u32>,
    /// `edge * 2 + end` -> `cell * 8 + side` of each of its two ends.
    pub ends: Vec<u32>,
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
        let mut shapes = Shapes::new(k as u8);
        let mut by_mask = [u8::MAX; 256];
        let mut shape = Vec::with_capacity(n);
        let mut allowed = Vec::with_capacity(n);
        for (c, &m) in level.masks().iter().enumerate() {
            if by_mask[m as usize] == u8::MAX {
                by_mask[m as usize] = shapes.intern(m);
            }
            let s = by_mask[m as usize];
            shape.push(s);
            allowed.push(if level.is_locked(c) {
                1 << shapes.orientation_of(s, m)
            } else {
                full_domain(shapes.get(s).period)
            });
        }
        Edges {
            k,
            side_edge,
            ends,
            fixed: vec![0; walls.len()],
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
                let e = self.side_edge[c as usize * k + s];
                if e == NO_EDGE {
                    continue;
                }
                match val[e as usize] {
                    0 => w |= 1 << s,
                    1 => f |= 1 << s,
                    _ => {
                        let here = (i as u32) * 8 + s as u32;
                        let [a, b] = [0, 1].map(|end| {
                            let x = self.ends[e as usize * 2 + end];
                            local[(x >> 3) as usize] * 8 + (x & 7)
                        });
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
            side_edge,
            ends,
            walls,
            fixed,
            shapes: Arc::clone(&self.shapes),
            shape: cells.iter().map(|&c| self.shape[c as usize]).collect(),
            allowed: cells.iter().map(|&c| self.allowed[c as usize]).collect(),
        };
        (sub, old)
    }

    /// Number of edges (variables).
    pub fn len(&self) -> usize {
        self.ends.len() / 2
    }

    /// Lets go of the per side and per edge tables, keeping the per cell ones: for a whole
    /// board whose regions have tables of their own. No edge is left.
    pub fn release_edges(&mut self) {
        self.side_edge = Vec::new();
        self.ends = Vec::new();
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
                    let v = self.side_edge[c * self.k + s];
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

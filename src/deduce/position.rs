//! [`Position`]: what a player knows at some point of a solve: per cell the orientations still
//! possible (a bitset over the cell's distinct turns), read against the level's board, rules,
//! barriers and locks. Under Net rules it also joins every sure connection into networks (a
//! union-find with the connections each network still owes), so a narrowing that closes a
//! loop or an island is caught where it happens. Every change is on a trail, so a trial can
//! narrow, propagate and undo without copying the board.

use crate::algo::undo_union_find::UndoUnionFind;
use crate::anyboard::network::FIXED_OFF;
use crate::anyboard::shapes::{Shapes, full_domain};
use crate::board::{Board, BoardLevel, Rules};

/// Why a position has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// The cell has no orientation left.
    Empty(usize),
    /// Under Net rules, the connection from the cell across the side closes a loop.
    Loop(usize, usize),
    /// Under Net rules, the cell's network has no open end left but is not every piece.
    Island(usize),
}

/// A connection joined in the union-find, to undo: both ends' joined sides before, and the
/// merged network's owed count before.
struct Join {
    cell: u32,
    cell_joined: u8,
    other: u32,
    other_joined: u8,
    root: u32,
    root_owed: i32,
}

/// The position (see the module doc).
pub struct Position {
    board: Board,
    rules: Rules,
    /// Sides per cell.
    pub k: usize,
    shapes: Shapes,
    shape: Vec<u8>,
    /// The board's links with barriers folded in as [`FIXED_OFF`].
    links: Vec<u32>,
    /// The same links with every wall pointing at side 0 of a cell past the last, which
    /// connects nothing and can connect nothing (its `sure` and `maybe` are 0): a revision
    /// reads a wall as it reads a neighbour, without a test.
    nbr: Vec<u32>,
    /// Per cell, the sides that face a border or a barrier (read by every revision of the
    /// ladder's rungs 1 to 3).
    walls: Vec<u8>,
    /// One bit per orientation still possible, per cell.
    pub dom: Vec<u8>,
    /// Per cell, the sides every orientation left connects and those some does, kept with
    /// `dom`: every revision of a trial reads them for each neighbour, and a load from here
    /// is cheaper than one through the cell's shape. One more entry, 0, for the walls of
    /// `nbr`.
    sure: Vec<u8>,
    maybe: Vec<u8>,
    /// `(cell, domain before)` for every narrowing.
    trail: Vec<(u32, u8)>,
    /// Networks of sure connections (Net rules); a set weighs its non-empty cells.
    sets: UndoUnionFind,
    /// Per cell: the sides whose connection is joined.
    joined: Vec<u8>,
    /// Per root: connections its cells still owe (degrees minus twice the joins).
    owed: Vec<i32>,
    joins: Vec<Join>,
    nonempty: u32,
}

impl Position {
    /// The starting position of `level`: every cell may take every orientation except a
    /// locked one, which has its own. Fails when the givens already contradict each other
    /// (a loop or island of locked and symmetric pieces).
    pub fn new(level: &BoardLevel) -> Result<Position, Contradiction> {
        let board = level.board().clone();
        let k = board.sides() as usize;
        let (shapes, shape) = Shapes::of_cells(&board, level.masks());
        let dom: Vec<u8> = level
            .masks()
            .iter()
            .zip(&shape)
            .enumerate()
            .map(|(c, (&m, &s))| {
                if level.is_locked(c) {
                    1 << shapes.orientation_of(s, m)
                } else {
                    full_domain(shapes.get(s).period)
                }
            })
            .collect();
        let mut links = board.links().to_vec();
        for c in 0..board.len() {
            let walls = level.barrier(c);
            for s in 0..k {
                if walls >> s & 1 == 1 {
                    links[c * k + s] = FIXED_OFF;
                }
            }
        }
        let degrees: Vec<u32> = level.masks().iter().map(|m| m.count_ones()).collect();
        let weights: Vec<u32> = degrees.iter().map(|&d| (d > 0) as u32).collect();
        let nonempty = weights.iter().sum();
        let n = board.len();
        let sure = (0..n)
            .map(|c| shapes.get(shape[c]).must[dom[c] as usize])
            .chain([0])
            .collect();
        let maybe = (0..n)
            .map(|c| shapes.get(shape[c]).may[dom[c] as usize])
            .chain([0])
            .collect();
        let wall = (n as u32) << 3;
        let nbr = links
            .iter()
            .map(|&l| if l == FIXED_OFF { wall } else { l })
            .collect();
        let walls = links
            .chunks(k)
            .map(|sides| {
                sides
                    .iter()
                    .enumerate()
                    .filter(|&(_, &l)| l == FIXED_OFF)
                    .fold(0, |m, (s, _)| m | 1 << s)
            })
            .collect();
        let mut pos = Position {
            board,
            rules: level.rules(),
            k,
            shapes,
            shape,
            links,
            nbr,
            walls,
            dom,
            sure,
            maybe,
            trail: Vec::new(),
            sets: UndoUnionFind::with_weights(weights),
            joined: vec![0; n],
            owed: degrees.iter().map(|&d| d as i32).collect(),
            joins: Vec::new(),
            nonempty,
        };
        if pos.rules == Rules::Net {
            for c in 0..n {
                pos.join_sure(c)?;
            }
            pos.joins.clear();
            pos.sets.commit();
        }
        Ok(pos)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.dom.len()
    }

    /// Never true: a board has a cell.
    pub fn is_empty(&self) -> bool {
        self.dom.is_empty()
    }

    /// Non-empty pieces of the level.
    pub fn nonempty(&self) -> u32 {
        self.nonempty
    }

    /// True when `cell` has one orientation left.
    #[inline]
    pub fn decided(&self, cell: usize) -> bool {
        self.dom[cell].count_ones() == 1
    }

    /// The side mask of `cell` at orientation `o`.
    #[inline]
    pub fn mask(&self, cell: usize, o: u32) -> u8 {
        self.shapes.get(self.shape[cell]).masks[o as usize]
    }

    /// Connections of `cell`'s piece.
    #[inline]
    pub fn degree(&self, cell: usize) -> u32 {
        self.mask(cell, 0).count_ones()
    }

    /// Sides every orientation left of `cell` connects.
    #[inline]
    pub fn must(&self, cell: usize) -> u8 {
        self.sure[cell]
    }

    /// Sides some orientation left of `cell` connects.
    #[inline]
    pub fn may(&self, cell: usize) -> u8 {
        self.maybe[cell]
    }

    /// Sets `cell`'s domain to `d`, with its sure and possible sides.
    #[inline]
    fn set_dom(&mut self, cell: usize, d: u8) {
        let sh = self.shapes.get(self.shape[cell]);
        self.sure[cell] = sh.must[d as usize];
        self.maybe[cell] = sh.may[d as usize];
        self.dom[cell] = d;
    }

    /// The neighbour across `cell`'s `side` and its side facing back; `None` at a border or
    /// a barrier.
    #[inline]
    pub fn across(&self, cell: usize, side: usize) -> Option<(usize, usize)> {
        let l = self.links[cell * self.k + side];
        (l != FIXED_OFF).then_some(((l >> 3) as usize, (l & 7) as usize))
    }

    /// Per side of `cell`, the neighbour across it times 8 plus its side facing back; a
    /// border or a barrier gives a cell past the last, whose [`Position::must`] and
    /// [`Position::may`] are empty, at side 0.
    #[inline]
    pub fn links_of(&self, cell: usize) -> &[u32] {
        &self.nbr[cell * self.k..][..self.k]
    }

    /// The sides of `cell` that face a border or a barrier.
    #[inline]
    pub fn walled(&self, cell: usize) -> u8 {
        self.walls[cell]
    }

    /// The orientations of `cell`'s domain `d` that connect every side of `req` and none of
    /// `forb`.
    #[inline]
    pub fn fitting(&self, cell: usize, d: u8, req: u8, forb: u8) -> u8 {
        self.shapes.fitting(self.shape[cell], req, forb) & d
    }

    /// The network root of `cell` (Net rules; every cell its own root otherwise).
    #[inline]
    pub fn root(&self, cell: usize) -> u32 {
        self.sets.find(cell as u32)
    }

    /// Non-empty cells in the network of `root`.
    pub fn weight(&self, root: u32) -> u32 {
        self.sets.weight(root)
    }

    /// Connections the network of `root` still owes.
    pub fn owed(&self, root: u32) -> i32 {
        self.owed[root as usize]
    }

    /// The sides of `cell` whose connection is joined into a network.
    pub fn joined(&self, cell: usize) -> u8 {
        self.joined[cell]
    }

    /// A mark to undo to.
    pub fn mark(&self) -> (usize, usize) {
        (self.trail.len(), self.joins.len())
    }

    /// Undoes every narrowing and join since `mark`.
    pub fn undo(&mut self, mark: (usize, usize)) {
        while self.joins.len() > mark.1 {
            let j = self.joins.pop().expect("above the mark");
            self.joined[j.cell as usize] = j.cell_joined;
            self.joined[j.other as usize] = j.other_joined;
            self.owed[j.root as usize] = j.root_owed;
        }
        self.sets.undo(mark.1);
        while self.trail.len() > mark.0 {
            let (c, d) = self.trail.pop().expect("above the mark");
            self.set_dom(c as usize, d);
        }
    }

    /// Forgets the trail: the current position becomes the base.
    pub fn commit(&mut self) {
        self.trail.clear();
        self.joins.clear();
        self.sets.commit();
    }

    /// Narrows `cell` to `d` (a subset of its domain) and, under Net rules, joins the
    /// connections it now surely makes. The position is changed even when it fails.
    pub fn narrow(&mut self, cell: usize, d: u8) -> Result<(), Contradiction> {
        let old = self.dom[cell];
        debug_assert_eq!(d & !old, 0, "a narrowing only removes");
        if old == d {
            return Ok(());
        }
        self.trail.push((cell as u32, old));
        self.set_dom(cell, d);
        if d == 0 {
            return Err(Contradiction::Empty(cell));
        }
        if self.rules == Rules::Net {
            self.join_sure(cell)?;
        }
        Ok(())
    }

    /// Joins `cell`'s sure connections not joined yet: a loop or a closed network smaller
    /// than the whole is a contradiction.
    fn join_sure(&mut self, cell: usize) -> Result<(), Contradiction> {
        let mut new = self.must(cell) & !self.joined[cell];
        while new != 0 {
            let s = new.trailing_zeros() as usize;
            new &= new - 1;
            let Some((n, t)) = self.across(cell, s) else {
                // A sure connection into a wall: the domain rules see it as an empty cell.
                continue;
            };
            let (ra, rb) = (self.root(cell), self.root(n));
            if ra == rb {
                return Err(Contradiction::Loop(cell, s));
            }
            self.sets.union(ra, rb);
            let root = self.sets.find(ra);
            self.joins.push(Join {
                cell: cell as u32,
                cell_joined: self.joined[cell],
                other: n as u32,
                other_joined: self.joined[n],
                root,
                root_owed: self.owed[root as usize],
            });
            self.owed[root as usize] = self.owed[ra as usize] + self.owed[rb as usize] - 2;
            self.joined[cell] |= 1 << s;
            self.joined[n] |= 1 << t;
            if self.owed[root as usize] == 0 && self.sets.weight(root) < self.nonempty {
                return Err(Contradiction::Island(cell));
            }
        }
        Ok(())
    }

    /// The masks of a position with every cell decided.
    pub fn masks(&self) -> Option<Vec<u8>> {
        (0..self.len())
            .map(|c| {
                self.decided(c)
                    .then(|| self.mask(c, self.dom[c].trailing_zeros()))
            })
            .collect()
    }

    /// The orientation bit of `cell` whose mask is `mask`, if its shape has one.
    pub fn orientation_of(&self, cell: usize, mask: u8) -> Option<u32> {
        let sh = self.shapes.get(self.shape[cell]);
        (0..sh.period as u32).find(|&o| sh.masks[o as usize] == mask)
    }

    /// Undecided cells.
    pub fn undecided(&self) -> usize {
        self.dom.iter().filter(|d| d.count_ones() > 1).count()
    }
}

impl Position {
    /// The orientations of `cell` that agree with every neighbour's sure and impossible
    /// connections and with its walls (what rung 3 keeps).
    #[inline]
    pub fn supported(&self, cell: usize) -> u8 {
        // The side count a constant, for the common boards: the loop unrolls.
        match self.k {
            4 => self.supported_k::<4>(cell),
            6 => self.supported_k::<6>(cell),
            _ => self.support(cell, self.links_of(cell)),
        }
    }

    #[inline]
    fn supported_k<const K: usize>(&self, cell: usize) -> u8 {
        let nbr: &[u32; K] = self.nbr[cell * K..][..K].try_into().expect("K sides");
        self.support(cell, nbr)
    }

    /// [`Position::supported`] with `cell`'s row of `nbr`.
    #[inline(always)]
    fn support(&self, cell: usize, nbr: &[u32]) -> u8 {
        let (mut req, mut forb) = (0u8, 0u8);
        for (s, &l) in nbr.iter().enumerate() {
            let (n, t) = ((l >> 3) as usize, l & 7);
            req |= (self.sure[n] >> t & 1) << s;
            forb |= (!self.maybe[n] >> t & 1) << s;
        }
        self.fitting(cell, self.dom[cell], req, forb)
    }
}

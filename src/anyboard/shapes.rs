//! [`Shapes`]: per distinct piece shape of a level, its masks at each orientation and, for any
//! set of orientations (a domain, one bit per orientation), the sides every orientation in it
//! connects (`must`) and the sides some orientation connects (`may`). Propagation only reads
//! these tables, so it never turns a mask itself.

use crate::board::Board;
use crate::board::mask::{MAX_SIDES, canonical, period, rotate};

/// One shape's tables.
#[derive(Clone)]
pub struct Shape {
    /// Distinct orientations (the domain has this many bits).
    pub period: u8,
    /// The mask at each orientation `0..period` (orientation 0 is the canonical mask).
    pub masks: [u8; 8],
    /// Sides connected by every orientation of a domain, indexed by the domain.
    pub must: [u8; 256],
    /// Sides connected by some orientation of a domain, indexed by the domain.
    pub may: [u8; 256],
    /// For cells of at most [`FIT_SIDES`] sides: the orientations whose mask connects every
    /// side of `req` and none of `forb`, indexed by `req << sides | forb` (a revision's
    /// answer in one load instead of a test per orientation). Empty above.
    pub fit: Vec<u8>,
}

/// The most sides a cell may have for its shapes to get a [`Shape::fit`] table (4^sides
/// entries each).
pub const FIT_SIDES: u8 = 6;

/// The shapes of one level, numbered in order of first appearance. On boards of mixed cells
/// a shape is a mask with the side count it turns over (a one-end piece has three turns on
/// a triangle, six on a hexagon), while every table is laid out over the board's most sides.
#[derive(Clone)]
pub struct Shapes {
    sides: u8,
    list: Vec<Shape>,
    /// `turning sides << 8 | canonical mask` -> shape number (255: not seen yet).
    index: Vec<u8>,
    /// Every shape's [`Shape::fit`] end to end, shape `i`'s at `i << 2 * sides` (empty
    /// above [`FIT_SIDES`]), and at `i << 8 | domain` what the domain surely connects (low
    /// byte) and possibly connects (high byte): every revision reads one entry of each,
    /// at an offset from the shape's number, not through its record.
    fit: Vec<u8>,
    connects: Vec<u16>,
    /// `fit`'s entries with what their orientations connect above them (`fit | connects
    /// << 8`), for a revision whose next step reads its own sides: one load where a fit
    /// then its sides were two dependent ones.
    fit_connects: Vec<u32>,
}

impl Shapes {
    /// No shapes yet, for cells of `sides` sides.
    pub fn new(sides: u8) -> Shapes {
        Shapes {
            sides,
            list: Vec::new(),
            index: vec![u8::MAX; (MAX_SIDES + 1) << 8],
            fit: Vec::new(),
            connects: Vec::new(),
            fit_connects: Vec::new(),
        }
    }

    /// Sides of every cell.
    pub fn sides(&self) -> u8 {
        self.sides
    }

    /// Number of shapes interned so far (shape numbers are `0..count`).
    pub fn count(&self) -> usize {
        self.list.len()
    }

    /// The shape number of `mask` on a cell of [`Shapes::sides`] sides, adding the shape on
    /// first sight.
    pub fn intern(&mut self, mask: u8) -> u8 {
        self.intern_on(mask, self.sides)
    }

    /// The shape number of `mask` on a cell of `turning` sides (at most [`Shapes::sides`]).
    pub fn intern_on(&mut self, mask: u8, turning: u8) -> u8 {
        let c = canonical(mask, turning);
        let key = (turning as usize) << 8 | c as usize;
        if self.index[key] == u8::MAX {
            self.index[key] = self.list.len() as u8;
            let sh = cached_shape(c, turning, self.sides);
            self.fit.extend_from_slice(&sh.fit);
            self.fit_connects.extend(sh.fit.iter().map(|&d| {
                let connects = sh.must[d as usize] as u32 | (sh.may[d as usize] as u32) << 8;
                d as u32 | connects << 8
            }));
            self.connects
                .extend((0..256).map(|d| sh.must[d] as u16 | (sh.may[d] as u16) << 8));
            self.list.push(sh);
        }
        self.index[key]
    }

    /// The shapes of `masks` on `board`, and each cell's shape number.
    pub fn of_cells(board: &Board, masks: &[u8]) -> (Shapes, Vec<u8>) {
        let mut shapes = Shapes::new(board.sides());
        // Interning looks a mask up once per distinct mask (and side count), not per cell.
        if board.is_uniform() {
            let mut by_mask = [u8::MAX; 256];
            let shape = masks
                .iter()
                .map(|&m| {
                    if by_mask[m as usize] == u8::MAX {
                        by_mask[m as usize] = shapes.intern(m);
                    }
                    by_mask[m as usize]
                })
                .collect();
            return (shapes, shape);
        }
        let mut by_mask = vec![u8::MAX; (MAX_SIDES + 1) << 8];
        let shape = masks
            .iter()
            .enumerate()
            .map(|(c, &m)| {
                let turning = board.cell_sides(c);
                let key = (turning as usize) << 8 | m as usize;
                if by_mask[key] == u8::MAX {
                    by_mask[key] = shapes.intern_on(m, turning);
                }
                by_mask[key]
            })
            .collect();
        (shapes, shape)
    }

    /// The orientations of shape `i` that connect every side of `req` and none of `forb`.
    #[inline(always)]
    pub fn fitting(&self, i: u8, req: u8, forb: u8) -> u8 {
        let k = self.sides as usize;
        if self.sides <= FIT_SIDES {
            return self.fit[(i as usize) << (2 * k) | (req as usize) << k | forb as usize];
        }
        let sh = self.get(i);
        (0..sh.period)
            .filter(|&r| {
                let m = sh.masks[r as usize];
                m & forb == 0 && m & req == req
            })
            .fold(0u8, |acc, r| acc | 1 << r)
    }

    /// [`Shapes::fitting`] (low byte) with [`Shapes::connects`] of it (above) as one table,
    /// shape `i`'s entry for `req` and `forb` at `i << 2 * sides | req << sides | forb`, for
    /// a loop that keeps it at hand; `None` above [`FIT_SIDES`].
    pub fn fit_connects_table(&self) -> Option<&[u32]> {
        (self.sides <= FIT_SIDES).then_some(&self.fit_connects[..])
    }

    /// What domain `dom` of shape `i` surely connects (low byte) and possibly connects
    /// (high byte).
    #[inline(always)]
    pub fn connects(&self, i: u8, dom: u8) -> u16 {
        self.connects[(i as usize) << 8 | dom as usize]
    }

    /// The shape numbered `i`.
    #[inline(always)]
    pub fn get(&self, i: u8) -> &Shape {
        &self.list[i as usize]
    }

    /// The orientation of shape `i` whose mask is `mask` (which must be one of its masks).
    pub fn orientation_of(&self, i: u8, mask: u8) -> u8 {
        let s = self.get(i);
        (0..s.period)
            .find(|&r| s.masks[r as usize] == mask)
            .expect("the mask is an orientation of its shape")
    }
}

/// The tables of shape `canon` turning over `turning` sides on a board whose cells have at
/// most `sides`, built once per process for every shape of those counts: a hexagonal
/// shape's fit table is 4096 entries, and a generator that compiles a level per round
/// (hundreds of rounds a second) spent 40% of its time rebuilding the same tables.
fn cached_shape(canon: u8, turning: u8, sides: u8) -> Shape {
    use std::sync::OnceLock;
    const N: usize = MAX_SIDES + 1;
    static CACHE: [[OnceLock<Vec<Option<Shape>>>; N]; N] =
        [const { [const { OnceLock::new() }; N] }; N];
    let all = CACHE[sides as usize][turning as usize].get_or_init(|| {
        let full = ((1u32 << turning) - 1) as u8;
        (0..=full)
            .map(|m| (canonical(m, turning) == m).then(|| shape(m, turning, sides)))
            .collect()
    });
    all[canon as usize]
        .clone()
        .expect("a canonical mask has its shape cached")
}

fn shape(canon: u8, turning: u8, sides: u8) -> Shape {
    let p = period(canon, turning);
    let mut masks = [0u8; 8];
    for r in 0..p {
        masks[r as usize] = rotate(canon, turning, r);
    }
    let mut must = [0u8; 256];
    let mut may = [0u8; 256];
    for d in 0..(1usize << p) {
        let (mut all, mut any) = (u8::MAX, 0u8);
        for (r, &m) in masks.iter().enumerate().take(p as usize) {
            if d >> r & 1 == 1 {
                all &= m;
                any |= m;
            }
        }
        must[d] = if d == 0 { 0 } else { all };
        may[d] = any;
    }
    let fit = if sides <= FIT_SIDES {
        let full = 1usize << sides;
        (0..full * full)
            .map(|i| {
                let (req, forb) = ((i >> sides) as u8, (i & (full - 1)) as u8);
                (0..p)
                    .filter(|&r| {
                        let m = masks[r as usize];
                        m & forb == 0 && m & req == req
                    })
                    .fold(0u8, |acc, r| acc | 1 << r)
            })
            .collect()
    } else {
        Vec::new()
    };
    Shape {
        period: p,
        masks,
        must,
        may,
        fit,
    }
}

/// The full domain of a shape with `period` orientations.
#[inline(always)]
pub fn full_domain(period: u8) -> u8 {
    ((1u16 << period) - 1) as u8
}

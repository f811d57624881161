//! [`Board`]: the geometry of a level as data. A board is a set of cells, each with a number
//! of sides; for a cell and a side it tells the neighbouring cell and the side of it that
//! faces back, or that the side is a border. Wrapping lives entirely in that table, so the
//! engine never asks "which row is this": a square torus, a cylinder and a hexagonal grid are
//! the same kind of value. A piece is a bitmask over its cell's sides ([`mask`]) and a turn is
//! a cyclic shift of them.
//!
//! Each tiling keeps its side numbering, neighbour rule and drawing in a file of its own
//! (`square.rs`, `hexagonal.rs`); a new tiling adds one such file and a [`Tiling`] variant.
//! hexapipes' other grids ([`Grid`]: octagons and squares, rhombi, ...) mix cells of
//! different side counts: each cell numbers its own sides and turns over its own count
//! ([`Board::cell_sides`], [`Board::turn`]), and their links are a table (`polygonal/`).

use std::sync::{Arc, OnceLock};

use crate::par::*;

#[cfg(test)]
pub(crate) mod fixtures;
mod hexagonal;
mod lattice;
pub mod level;
mod links;
pub mod mask;
pub(crate) mod polygonal;
mod square;

pub use lattice::Lattice;
pub use level::{BoardLevel, Rules};
pub use links::{LinkClasses, Links};
pub use mask::MAX_SIDES;
pub use polygonal::Grid;

/// The shape of the cells and how they tile the plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiling {
    /// Square cells; sides N, E, S, W (bits 1, 2, 4, 8), numbered clockwise.
    Square,
    /// Hexagonal cells in rows, odd rows shifted half a cell right (hexapipes' geometry);
    /// sides E, NE, NW, W, SW, SE (bits 1, 2, 4, 8, 16, 32), numbered anticlockwise.
    Hexagonal,
    /// One of hexapipes' grids of mixed cells (read from and written to its files): each
    /// cell's sides are numbered anticlockwise from the first of its polygon's directions.
    Polygonal(Grid),
}

impl Tiling {
    /// The tilings every command works on (generation, counting, play, ...), for help
    /// texts and tests; hexapipes' other grids ([`Tiling::EVERY`]) are read, checked,
    /// solved, drawn and written.
    pub const ALL: [Tiling; 2] = [Tiling::Square, Tiling::Hexagonal];

    /// Every tiling.
    pub const EVERY: [Tiling; 2 + Grid::ALL.len()] = {
        let mut all = [Tiling::Square; 2 + Grid::ALL.len()];
        all[1] = Tiling::Hexagonal;
        let mut i = 0;
        while i < Grid::ALL.len() {
            all[2 + i] = Tiling::Polygonal(Grid::ALL[i]);
            i += 1;
        }
        all
    };

    /// The name used on the command line and in files (hexapipes' `grid` field).
    pub fn name(self) -> &'static str {
        match self {
            Tiling::Square => "square",
            Tiling::Hexagonal => "hexagonal",
            Tiling::Polygonal(g) => g.name(),
        }
    }

    /// The tiling of a name as [`Tiling::name`] gives it (hexapipes' `grid` field too).
    pub fn from_name(name: &str) -> Option<Tiling> {
        Tiling::EVERY.into_iter().find(|t| t.name() == name)
    }

    /// The most sides a cell has: every cell's on square and hexagonal boards.
    pub fn sides(self) -> u8 {
        match self {
            Tiling::Square => 4,
            Tiling::Hexagonal => 6,
            Tiling::Polygonal(g) => g.stride() as u8,
        }
    }

    /// Whether every cell has [`Tiling::sides`] sides, each facing the side half a turn
    /// from it on the neighbour.
    pub fn is_uniform(self) -> bool {
        !matches!(self, Tiling::Polygonal(_))
    }

    /// Short names of the sides, in bit order (empty where cells differ).
    pub fn side_names(self) -> &'static [&'static str] {
        match self {
            Tiling::Square => &["N", "E", "S", "W"],
            Tiling::Hexagonal => &["E", "NE", "NW", "W", "SW", "SE"],
            Tiling::Polygonal(_) => &[],
        }
    }

    /// Whether the side numbering runs clockwise (a clockwise turn is then a shift up).
    pub fn numbered_clockwise(self) -> bool {
        match self {
            Tiling::Square => true,
            Tiling::Hexagonal | Tiling::Polygonal(_) => false,
        }
    }
}

/// Which edges of the board's rectangle join the opposite edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wrap {
    /// The left and right edges meet (a row is a ring).
    pub horizontal: bool,
    /// The top and bottom edges meet (a column is a ring).
    pub vertical: bool,
}

impl Wrap {
    /// No wrapping: a bounded board.
    pub const NONE: Wrap = Wrap {
        horizontal: false,
        vertical: false,
    };
    /// Wrapping both ways: a torus.
    pub const BOTH: Wrap = Wrap {
        horizontal: true,
        vertical: true,
    };

    /// True when some edge wraps.
    pub fn any(self) -> bool {
        self.horizontal || self.vertical
    }

    /// The word files and the command line use: `none`, `both`, `horizontal`, `vertical`.
    pub fn name(self) -> &'static str {
        match (self.horizontal, self.vertical) {
            (false, false) => "none",
            (true, true) => "both",
            (true, false) => "horizontal",
            (false, true) => "vertical",
        }
    }

    /// The wrap a word of [`Wrap::name`] stands for.
    pub fn from_name(name: &str) -> Option<Wrap> {
        [
            Wrap::NONE,
            Wrap::BOTH,
            Wrap {
                horizontal: true,
                vertical: false,
            },
            Wrap {
                horizontal: false,
                vertical: true,
            },
        ]
        .into_iter()
        .find(|w| w.name() == name)
    }
}

/// Cells per piece of [`Board::same_pieces`].
pub(crate) const PIECE_STRIPE: usize = 1 << 16;

/// A side with no neighbour (a border) in the link table.
pub const NO_LINK: u32 = u32::MAX;

/// The cells of a level, their sides and who faces whom (see the module doc).
#[derive(Clone, Debug)]
pub struct Board {
    tiling: Tiling,
    width: usize,
    height: usize,
    wrap: Wrap,
    /// Number of cells.
    cells: usize,
    /// Who faces whom. Shared by clones, as the table: a solver returns its answer on a
    /// copy of the level's board.
    geometry: Geometry,
    /// `cell * sides + side` -> `neighbour * 8 + facing side`, or [`NO_LINK`], made the
    /// first time [`Board::links`] is asked for: 400 MB at 4096x4096 hexagonal, which the
    /// solvers of the Infinity Loop rules never ask for.
    table: Arc<OnceLock<Vec<u32>>>,
}

/// Who faces whom, as a board keeps it.
#[derive(Clone, Debug)]
enum Geometry {
    /// A repeating tiling's links, a byte a cell (see [`LinkClasses`]).
    Classes(Arc<LinkClasses>),
    /// hexapipes' mixed grids: per cell its polygon, its links and its place, as tables.
    Polygonal(Arc<polygonal::Layout>),
}

/// A mixed grid's link, out of line: the repeating tilings' lookup is inlined into the
/// engines' hottest loops, and a second inlined path there cost a hexagonal solve 10 %.
#[cold]
#[inline(never)]
fn table_link(layout: &polygonal::Layout, cell: usize, side: usize) -> u32 {
    layout.links[cell * layout.grid.stride() + side]
}

/// Boards are equal when their geometry is: the links follow from it.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        (self.tiling, self.width, self.height, self.wrap)
            == (other.tiling, other.width, other.height, other.wrap)
    }
}

impl Eq for Board {}

/// The most cells a board may have: a link packs a cell and a side into 32 bits.
pub const MAX_BOARD_CELLS: usize = (u32::MAX as usize >> 3) - 1;

impl Board {
    /// A board of `tiling` with `width` columns and `height` rows, wrapping as `wrap` says.
    /// Fails when a wrapped direction is too short for a cell to have distinct neighbours on
    /// both sides, or when the board is too large.
    pub fn new(tiling: Tiling, width: usize, height: usize, wrap: Wrap) -> Result<Board, String> {
        if width == 0 || height == 0 {
            return Err(format!("a board of {width}x{height} has no cells"));
        }
        if width
            .checked_mul(height)
            .is_none_or(|n| n > MAX_BOARD_CELLS)
        {
            return Err(format!(
                "{width}x{height} is too many cells (at most {MAX_BOARD_CELLS})"
            ));
        }
        if wrap.horizontal && width < 2 || wrap.vertical && height < 2 {
            return Err(format!(
                "a {}x{} board cannot wrap {}: a wrapped direction needs at least 2 cells",
                width,
                height,
                wrap.name()
            ));
        }
        if tiling != Tiling::Square && wrap.horizontal != wrap.vertical {
            return Err(format!(
                "a {} board wraps both ways or not at all (as hexapipes plays it)",
                tiling.name()
            ));
        }
        if let Tiling::Polygonal(grid) = tiling {
            let layout = polygonal::Layout::new(grid, width, height, wrap.any())?;
            return Ok(Board {
                tiling,
                width,
                height,
                wrap,
                cells: layout.cells,
                geometry: Geometry::Polygonal(Arc::new(layout)),
                table: Arc::new(OnceLock::new()),
            });
        }
        let classes = match tiling {
            Tiling::Square => LinkClasses::new(width, height, 4, |r, c, s| {
                square::link(r, c, s, width, height, wrap)
            }),
            Tiling::Hexagonal => LinkClasses::new(width, height, 6, |r, c, s| {
                hexagonal::link(r, c, s, width, height, wrap.any())
            }),
            Tiling::Polygonal(_) => unreachable!("built above"),
        };
        Ok(Board {
            tiling,
            width,
            height,
            wrap,
            cells: width * height,
            geometry: Geometry::Classes(Arc::new(classes)),
            table: Arc::new(OnceLock::new()),
        })
    }

    /// The tiling.
    pub fn tiling(&self) -> Tiling {
        self.tiling
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Which edges wrap.
    pub fn wrap(&self) -> Wrap {
        self.wrap
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells
    }

    /// Never true: a board has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True for the course format's board: square and bounded.
    pub fn is_bounded_square(&self) -> bool {
        self.tiling == Tiling::Square && !self.wrap.any()
    }

    /// The most sides a cell has, and the stride of the link table: every cell's count on
    /// square and hexagonal boards ([`Board::is_uniform`]).
    #[inline]
    pub fn sides(&self) -> u8 {
        self.tiling.sides()
    }

    /// Whether every cell has [`Board::sides`] sides, each facing the side half a turn from
    /// it (square and hexagonal boards). Where not, a cell's sides from
    /// [`Board::cell_sides`] up to [`Board::sides`] are borders no piece reaches.
    #[inline]
    pub fn is_uniform(&self) -> bool {
        self.tiling.is_uniform()
    }

    /// Sides of `cell`: a piece there turns over this many.
    #[inline]
    pub fn cell_sides(&self, cell: usize) -> u8 {
        match &self.geometry {
            Geometry::Classes(_) => self.sides(),
            Geometry::Polygonal(layout) => layout.sides(cell) as u8,
        }
    }

    /// How many polygons the board's cells come in (one but on hexapipes' mixed grids).
    pub fn polygons(&self) -> usize {
        match &self.geometry {
            Geometry::Classes(_) => 1,
            Geometry::Polygonal(layout) => layout.polygons.len(),
        }
    }

    /// Which of [`Board::polygons`] `cell` is.
    #[inline]
    pub fn cell_polygon(&self, cell: usize) -> usize {
        match &self.geometry {
            Geometry::Classes(_) => 0,
            Geometry::Polygonal(layout) => layout.polygon_of[cell] as usize,
        }
    }

    /// Whether `cell` lies outside the board hexapipes draws for a new puzzle of a mixed
    /// grid (a corner cut off, the octagonal grid's last squares): such a cell is left empty
    /// by the generators, as hexapipes leaves it. Never on square and hexagonal boards.
    #[inline]
    pub fn is_outside(&self, cell: usize) -> bool {
        match &self.geometry {
            Geometry::Classes(_) => false,
            Geometry::Polygonal(layout) => layout.outside(cell),
        }
    }

    /// `mask` on `cell` turned `turns` times (a shift up its sides).
    #[inline]
    pub fn turn(&self, cell: usize, mask: u8, turns: u8) -> u8 {
        mask::rotate(mask, self.cell_sides(cell), turns)
    }

    /// How many distinct orientations `mask` has on `cell`.
    #[inline]
    pub fn period(&self, cell: usize, mask: u8) -> u8 {
        mask::period(mask, self.cell_sides(cell))
    }

    /// True when every mask of `turned` is a turn of the mask of the same cell in
    /// `original`: an answer kept the level's pieces.
    pub fn same_pieces(&self, turned: &[u8], original: &[u8]) -> bool {
        if turned.len() != original.len() || turned.len() != self.len() {
            return false;
        }
        if !self.is_uniform() {
            return (0..turned.len()).all(|c| self.same_shape(c, turned[c], original[c]));
        }
        let canon: [u8; 256] = std::array::from_fn(|m| mask::canonical(m as u8, self.sides()));
        // Differences or-ed over pieces in parallel: no early exit to predict per cell.
        turned
            .par_chunks(PIECE_STRIPE)
            .zip(original.par_chunks(PIECE_STRIPE))
            .all(|(a, b)| {
                a.iter().zip(b).fold(0, |acc, (&x, &y)| {
                    acc | (canon[x as usize] ^ canon[y as usize])
                }) == 0
            })
    }

    /// Whether `a` and `b` are the same piece on `cell` (one a turn of the other).
    #[inline]
    pub fn same_shape(&self, cell: usize, a: u8, b: u8) -> bool {
        let k = self.cell_sides(cell);
        mask::canonical(a, k) == mask::canonical(b, k)
    }

    /// The raw link of `cell`'s `side`: `neighbour * 8 + facing side`, or [`NO_LINK`].
    #[inline(always)]
    pub fn link(&self, cell: usize, side: usize) -> u32 {
        match &self.geometry {
            Geometry::Classes(classes) => classes.link(cell, side),
            Geometry::Polygonal(layout) => table_link(layout, cell, side),
        }
    }

    /// A repeating tiling's links by class (square and hexagonal boards), for an engine to
    /// keep and read without going through the board; `None` on a mixed grid.
    pub fn link_classes(&self) -> Option<Arc<LinkClasses>> {
        match &self.geometry {
            Geometry::Classes(classes) => Some(Arc::clone(classes)),
            Geometry::Polygonal(_) => None,
        }
    }

    /// The links as engines read them (see [`Links`]): a repeating tiling's without a
    /// table.
    pub fn link_view(&self) -> Links<'_> {
        match &self.geometry {
            Geometry::Classes(classes) => Links::Classes(classes),
            Geometry::Polygonal(layout) => Links::Table {
                k: self.sides() as usize,
                links: std::borrow::Cow::Borrowed(&layout.links),
            },
        }
    }

    /// The neighbour rule of the inner cells by arithmetic (see [`Lattice`]); `None` on
    /// hexapipes' mixed grids, whose cells are not laid out in rows.
    pub fn lattice(&self) -> Option<Lattice> {
        match self.tiling {
            Tiling::Square => Some(square::lattice(self.width, self.height)),
            Tiling::Hexagonal => Some(hexagonal::lattice(self.width, self.height)),
            Tiling::Polygonal(_) => None,
        }
    }

    /// The whole link table, `sides()` entries per cell (for engines that copy it), made
    /// on the first call.
    pub fn links(&self) -> &[u32] {
        if let Geometry::Polygonal(layout) = &self.geometry {
            return &layout.links;
        }
        self.table.get_or_init(|| match self.tiling {
            Tiling::Square => square::links(self.width, self.height, self.wrap),
            Tiling::Hexagonal => hexagonal::links(self.width, self.height, self.wrap.any()),
            Tiling::Polygonal(_) => unreachable!("returned above"),
        })
    }

    /// A hexapipes tile of `cell` (a mask over its grid's directions) as a mask over the
    /// cell's sides, or `None` when it has a bit the cell has no side for. Square and
    /// hexagonal tiles are read by their own rules in `level/hexapipes.rs`.
    pub fn from_grid_bits(&self, cell: usize, tile: u8) -> Option<u8> {
        match &self.geometry {
            Geometry::Polygonal(layout) => layout.to_local(cell, tile),
            Geometry::Classes(_) => Some(tile),
        }
    }

    /// The inverse of [`Board::from_grid_bits`].
    pub fn to_grid_bits(&self, cell: usize, mask: u8) -> u8 {
        match &self.geometry {
            Geometry::Polygonal(layout) => layout.to_hexapipes(cell, mask),
            Geometry::Classes(_) => mask,
        }
    }

    /// The neighbour across `cell`'s `side` and its side that faces back, or `None` at a
    /// border.
    #[inline]
    pub fn neighbour(&self, cell: usize, side: usize) -> Option<(usize, usize)> {
        let l = self.link(cell, side);
        (l != NO_LINK).then_some(((l >> 3) as usize, (l & 7) as usize))
    }

    /// Row and column of `cell` (row-major numbering).
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.width, cell % self.width)
    }

    /// A cell's name in messages: `(row 2, column 5)`, or on hexapipes' mixed grids, whose
    /// cells are not in rows, `(tile 17)` by hexapipes' own numbering.
    pub fn cell_label(&self, cell: usize) -> String {
        if self.is_uniform() {
            let (r, c) = self.row_col(cell);
            format!("(row {r}, column {c})")
        } else {
            format!("(tile {cell})")
        }
    }

    /// A side's name in messages: `N`, `SE`, ..., or on a mixed grid the side's number and
    /// the direction bit hexapipes gives it.
    pub fn side_label(&self, cell: usize, side: usize) -> String {
        match self.tiling.side_names().get(side) {
            Some(name) if self.is_uniform() => name.to_string(),
            _ => format!("side {side} (bit {})", self.to_grid_bits(cell, 1 << side)),
        }
    }

    /// The cell at row `row`, column `col`.
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// The mask of sides of `cell` that are borders (of its own sides).
    pub fn border_mask(&self, cell: usize) -> u8 {
        let k = if self.is_uniform() {
            self.sides()
        } else {
            self.cell_sides(cell)
        };
        (0..k as usize)
            .filter(|&s| self.link(cell, s) == NO_LINK)
            .fold(0, |m, s| m | 1 << s)
    }

    /// Each pair of facing sides once, as `(cell, side)` with the lower end first.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let k = self.sides() as usize;
        (0..self.len()).flat_map(move |c| {
            (0..k).filter_map(move |s| {
                let (n, t) = self.neighbour(c, s)?;
                ((c, s) < (n, t)).then_some((c, s))
            })
        })
    }

    /// The small cycles of the cell graph (the cells around one corner of the tiling), each
    /// as its first cell and the sides to leave by, one after the other, to walk round it.
    /// XOR-ing faces gives every degree an even number: the `loops` family.
    /// None are listed on hexapipes' mixed grids (nothing is generated on them).
    pub fn faces(&self) -> Vec<(usize, &'static [u8])> {
        match self.tiling {
            Tiling::Square => square::faces(self),
            Tiling::Hexagonal => hexagonal::faces(self),
            Tiling::Polygonal(_) => Vec::new(),
        }
    }

    /// Drawing: the centre of `cell` in a plane where neighbouring cells' centres are one
    /// unit apart, y growing downwards.
    pub fn centre(&self, cell: usize) -> (f64, f64) {
        let (r, c) = self.row_col(cell);
        match (&self.geometry, self.tiling) {
            (Geometry::Polygonal(layout), _) => layout.centres[cell],
            (_, Tiling::Square) => (c as f64 + 0.5, r as f64 + 0.5),
            _ => hexagonal::centre(r, c),
        }
    }

    /// Drawing: the direction `cell`'s `side` faces, as a unit vector (y down).
    pub fn side_direction(&self, cell: usize, side: usize) -> (f64, f64) {
        let k = self.sides() as f64;
        let (start, step) = match &self.geometry {
            Geometry::Polygonal(layout) => {
                return layout.polygons[layout.polygon_of[cell] as usize].side_dirs[side];
            }
            // N first, clockwise (angles measured anticlockwise from east, y up).
            _ if self.tiling == Tiling::Square => (90.0f64, -360.0 / k),
            // E first, anticlockwise.
            _ => (0.0, 360.0 / k),
        };
        let a = (start + step * side as f64).to_radians();
        (a.cos(), -a.sin())
    }

    /// Drawing: the corners of `cell`'s polygon, in order.
    pub fn polygon(&self, cell: usize) -> Vec<(f64, f64)> {
        let (x, y) = self.centre(cell);
        if let Geometry::Polygonal(layout) = &self.geometry {
            // Corner `s` lies between sides `s` and `s + 1` (a test holds every grid to it).
            let corners = &layout.polygons[layout.polygon_of[cell] as usize].corners;
            return corners.iter().map(|&(dx, dy)| (x + dx, y + dy)).collect();
        }
        let k = self.sides() as usize;
        // A corner lies between two sides' directions, at the circumradius.
        let apothem = 0.5;
        let radius = apothem / (std::f64::consts::PI / k as f64).cos();
        (0..k)
            .map(|s| {
                let (ax, ay) = self.side_direction(cell, s);
                let (bx, by) = self.side_direction(cell, (s + 1) % k);
                let (mx, my) = (ax + bx, ay + by);
                let len = (mx * mx + my * my).sqrt();
                (x + radius * mx / len, y + radius * my / len)
            })
            .collect()
    }

    /// Drawing: the bounding box of every cell polygon, `(min_x, min_y, max_x, max_y)`.
    pub fn extent(&self) -> (f64, f64, f64, f64) {
        match self.tiling {
            Tiling::Square => (0.0, 0.0, self.width as f64, self.height as f64),
            Tiling::Hexagonal => hexagonal::extent(self.width, self.height),
            Tiling::Polygonal(_) => (0..self.len()).flat_map(|c| self.polygon(c)).fold(
                (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
                |(x0, y0, x1, y1), (x, y)| (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_small_board() -> Vec<Board> {
        let mut boards = Vec::new();
        for tiling in Tiling::ALL {
            for w in 1..=5 {
                for h in 1..=5 {
                    for wrap in [
                        Wrap::NONE,
                        Wrap::BOTH,
                        Wrap::from_name("horizontal").unwrap(),
                        Wrap::from_name("vertical").unwrap(),
                    ] {
                        if let Ok(b) = Board::new(tiling, w, h, wrap) {
                            boards.push(b);
                        }
                    }
                }
            }
        }
        boards
    }

    #[test]
    fn every_link_is_answered_by_the_side_that_faces_back() {
        for b in every_small_board() {
            for c in 0..b.len() {
                for s in 0..b.sides() as usize {
                    if let Some((n, t)) = b.neighbour(c, s) {
                        assert_ne!(n, c, "{:?} cell {c} side {s} links to itself", b.tiling());
                        assert_eq!(b.neighbour(n, t), Some((c, s)), "{b:?} {c} {s}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_link_classes_are_the_link_table_on_every_small_board() {
        let mut boards = every_small_board();
        for tiling in Tiling::ALL {
            for (w, h) in [(6, 7), (7, 6), (9, 8), (8, 9)] {
                for wrap in [Wrap::NONE, Wrap::BOTH] {
                    boards.push(Board::new(tiling, w, h, wrap).unwrap());
                }
            }
        }
        for b in boards {
            let k = b.sides() as usize;
            let view = b.link_view();
            for (i, &l) in b.links().iter().enumerate() {
                let (c, s) = (i / k, i % k);
                assert_eq!(b.link(c, s), l, "{b:?} cell {c} side {s}");
                assert_eq!(view.get(c, s), l);
            }
            let table = Links::Table {
                k,
                links: b.links().into(),
            };
            for c in 0..b.len() {
                match k {
                    4 => assert_eq!(view.of::<4>(c), table.of::<4>(c)),
                    _ => assert_eq!(view.of::<6>(c), table.of::<6>(c)),
                }
            }
            assert_eq!(view.to_table(b.len(), k), b.links());
        }
    }

    #[test]
    fn the_lattice_names_the_linked_neighbour_of_every_inner_cell() {
        let mut inner = 0;
        for b in every_small_board() {
            let lat = b
                .lattice()
                .expect("square and hexagonal boards have lattices");
            assert_eq!(lat.sides, b.sides() as usize);
            for c in (0..b.len()).filter(|&c| lat.is_inner(c)) {
                inner += 1;
                let parity = b.row_col(c).0 % 2;
                for s in 0..lat.sides {
                    let n = (c as isize + lat.step[parity][s]) as usize;
                    let want = Some((n, lat.facing[s] as usize));
                    assert_eq!(b.neighbour(c, s), want, "{b:?} cell {c} side {s}");
                }
            }
        }
        assert!(
            inner > 100,
            "the boards have inner cells to check ({inner})"
        );
    }

    #[test]
    fn the_lattice_corners_are_the_linked_triangles_of_every_inner_cell() {
        let mut triangles = 0;
        for b in every_small_board() {
            let lat = b
                .lattice()
                .expect("square and hexagonal boards have lattices");
            let k = lat.sides;
            for c in (0..b.len()).filter(|&c| lat.is_inner(c)) {
                let parity = b.row_col(c).0 % 2;
                for s in 0..k {
                    let (n1, _) = b.neighbour(c, s).unwrap();
                    let (n2, _) = b.neighbour(c, (s + 1) % k).unwrap();
                    let linked = (0..k)
                        .find(|&u| b.neighbour(n1, u).is_some_and(|(m, _)| m == n2))
                        .map(|u| (u, b.neighbour(n1, u).unwrap().1));
                    assert_eq!(lat.corner(parity, s), linked, "{b:?} cell {c} corner {s}");
                    triangles += linked.is_some() as usize;
                }
            }
        }
        assert!(triangles > 100, "the boards have triangles ({triangles})");
    }

    #[test]
    fn a_wrapped_board_has_no_border_and_a_bounded_one_has_its_rim() {
        for b in every_small_board() {
            let borders: usize = (0..b.len())
                .map(|c| b.border_mask(c).count_ones() as usize)
                .sum();
            match (b.tiling(), b.wrap()) {
                (_, Wrap::BOTH) => assert_eq!(borders, 0),
                (Tiling::Square, Wrap::NONE) => {
                    assert_eq!(borders, 2 * (b.width() + b.height()))
                }
                (Tiling::Square, w) if w.horizontal => assert_eq!(borders, 2 * b.width()),
                (Tiling::Square, _) => assert_eq!(borders, 2 * b.height()),
                (Tiling::Hexagonal, _) => assert!(borders > 0),
                (Tiling::Polygonal(_), _) => unreachable!("every_small_board is uniform"),
            }
        }
    }

    #[test]
    fn faces_walk_back_to_their_start() {
        for b in every_small_board() {
            for (start, sides) in b.faces() {
                let mut c = start;
                for &s in sides {
                    c = b
                        .neighbour(c, s as usize)
                        .expect("a face crosses no border")
                        .0;
                }
                assert_eq!(c, start);
            }
        }
    }

    #[test]
    fn side_directions_point_at_the_neighbours_centres_on_a_bounded_board() {
        for tiling in Tiling::ALL {
            let b = Board::new(tiling, 6, 6, Wrap::NONE).unwrap();
            for c in 0..b.len() {
                let (x, y) = b.centre(c);
                for s in 0..b.sides() as usize {
                    if let Some((n, _)) = b.neighbour(c, s) {
                        let (nx, ny) = b.centre(n);
                        let (dx, dy) = b.side_direction(c, s);
                        assert!((nx - x - dx).abs() < 1e-9 && (ny - y - dy).abs() < 1e-9);
                    }
                }
            }
        }
    }
}
#[cfg(test)]
mod mixed_polygons {
    #[test]
    fn corners_run_in_side_order_and_each_side_faces_its_middle() {
        use super::*;
        for g in Grid::ALL {
            for wrap in [Wrap::NONE, Wrap::BOTH] {
                let Ok(b) = Board::new(Tiling::Polygonal(g), 5, 5, wrap) else {
                    continue;
                };
                for c in 0..b.len() {
                    let Geometry::Polygonal(l) = &b.geometry else {
                        panic!()
                    };
                    let p = &l.polygons[l.polygon_of[c] as usize];
                    // Side `s` lies between corners `s - 1` and `s`, and faces its middle.
                    let k = p.corners.len();
                    for s in 0..k {
                        let (a, e) = (p.corners[(s + k - 1) % k], p.corners[s]);
                        let m = ((a.0 + e.0) / 2.0, (a.1 + e.1) / 2.0);
                        let len = m.0.hypot(m.1);
                        let d = p.side_dirs[s];
                        assert!(
                            (m.0 / len - d.0).abs() < 1e-6 && (m.1 / len - d.1).abs() < 1e-6,
                            "{g:?} {c} {s} {m:?} {d:?}"
                        );
                    }
                }
            }
        }
    }
}

//! hexapipes' grids of mixed cells (octagons and squares, cube faces, triangles and
//! hexagons, ...), their geometry ported from the web game hexapipes
//! (<https://github.com/gereleth/hexapipes>, MIT licence, © gereleth):
//! `src/lib/puzzle/grids/*grid.js` and `polygonutils.js`.
//!
//! A hexapipes grid numbers its cells `0..total`; each cell has a polygon whose
//! `directions` list names the grid-wide direction bit of each of its sides, anticlockwise,
//! and its `find_neighbour` gives the cell across a side, which faces back with the
//! grid's `OPPOSITE` of that direction. A tile is a mask of direction bits.
//!
//! Here each cell numbers its sides locally instead: local side `i` is the `i`-th entry of
//! its polygon's `directions` (a [`Polygon`]'s `slots`), so a turn is a cyclic shift of the
//! local mask over the cell's own side count, whatever shape the cell has. One hexapipes
//! rotation (`rotate(tile, 1)`, clockwise on screen) moves local side `i` to `i - 1`.
//!
//! Emptiness is not geometry: hexapipes leaves some cells empty (tile 0: cut-off corners,
//! a shape's holes) and some of its neighbour functions then answer "no neighbour". A
//! [`Layout`] links every cell as hexapipes would if no cell were empty; an empty cell is
//! a cell whose mask is 0, which plays the same. Only a side with no cell across it at
//! all is a border. Which cells a new bounded puzzle leaves empty is
//! [`Layout::outside`] (each grid's `emptied`).

mod cube;
mod etrat;
mod octagonal;
mod rhombitrihexagonal;
mod skewed;
mod snubsquare;
mod triangular;
mod trihexagonal;

/// hexapipes' grids other than square and hexagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grid {
    /// Octagons in rows and columns with a square in each gap (`octagrid.js`).
    Octagonal,
    /// Stacked cubes seen from a corner: three rhombi per hexagon (`cubegrid.js`).
    Cube,
    /// Hexagons and triangles, the kagome pattern (`trihexagrid.js`).
    Trihexagonal,
    /// Rows of squares between rows of triangles (`etratgrid.js`).
    Etrat,
    /// Triangles (`triangulargrid.js`).
    Triangular,
    /// Squares and triangles, the snub square tiling (`snubsquaregrid.js`).
    Snubsquare,
    /// Hexagons, squares and triangles (`rhombitrihexagrid.js`).
    Rhombitrihexagonal,
}

impl Grid {
    /// Every grid.
    pub const ALL: [Grid; 7] = [
        Grid::Octagonal,
        Grid::Cube,
        Grid::Trihexagonal,
        Grid::Etrat,
        Grid::Triangular,
        Grid::Snubsquare,
        Grid::Rhombitrihexagonal,
    ];

    /// hexapipes' name of the grid (its files' `grid` field).
    pub const fn name(self) -> &'static str {
        match self {
            Grid::Octagonal => "octagonal",
            Grid::Cube => "cube",
            Grid::Trihexagonal => "trihexagonal",
            Grid::Etrat => "etrat",
            Grid::Triangular => "triangular",
            Grid::Snubsquare => "snubsquare",
            Grid::Rhombitrihexagonal => "rhombitrihexagonal",
        }
    }

    /// The grid of a name as [`Grid::name`] gives it.
    pub fn from_name(name: &str) -> Option<Grid> {
        Grid::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The most sides a cell of this grid has (the stride of [`Layout::links`]).
    pub const fn stride(self) -> usize {
        match self {
            Grid::Octagonal => 8,
            Grid::Trihexagonal | Grid::Rhombitrihexagonal => 6,
            Grid::Cube | Grid::Etrat | Grid::Snubsquare => 4,
            Grid::Triangular => 3,
        }
    }

    /// hexapipes' `NUM_DIRECTIONS`: how many bits a tile of this grid may use.
    pub const fn direction_bits(self) -> usize {
        match self {
            Grid::Octagonal | Grid::Rhombitrihexagonal => 8,
            Grid::Trihexagonal => 6,
            Grid::Cube | Grid::Etrat | Grid::Triangular | Grid::Snubsquare => 4,
        }
    }

    /// hexapipes' `OPPOSITE`: the direction a neighbour faces back with.
    pub const fn opposite(self, direction: u8) -> u8 {
        match self {
            // A and B, C and D face each other (the rhombi's sides are not compass points).
            Grid::Cube => match direction {
                1 => 2,
                2 => 1,
                4 => 8,
                8 => 4,
                _ => 0,
            },
            // The other grids number their directions round the compass: opposite is half
            // a turn of the bits.
            _ => {
                let n = self.direction_bits() as u32;
                let d = direction as u32;
                (((d << (n / 2)) | (d >> (n / 2))) & ((1 << n) - 1)) as u8
            }
        }
    }
}

/// One polygon shape of a grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// hexapipes' direction bit of each local side, in the polygon's order (its `directions`
    /// list).
    pub slots: Vec<u8>,
    /// Drawing, relative to the cell's centre, y growing downwards: the corners in order,
    /// corner `i` between local sides `i` and `i + 1`.
    pub corners: Vec<(f64, f64)>,
    /// For each local side, the unit vector from the centre towards that side's middle (the
    /// direction a pipe leaves by; on a cube face not square to the side).
    pub side_dirs: Vec<(f64, f64)>,
}

/// A 2x2 linear map `[a, b, c, d]`: `(x, y) -> (a x + c y, b x + d y)`, as the npm package
/// `transformation-matrix` that hexapipes uses lays out its matrices (y down).
type Linear = [f64; 4];

const IDENTITY: Linear = [1.0, 0.0, 0.0, 1.0];

fn compose(m: Linear, n: Linear) -> Linear {
    [
        m[0] * n[0] + m[2] * n[1],
        m[1] * n[0] + m[3] * n[1],
        m[0] * n[2] + m[2] * n[3],
        m[1] * n[2] + m[3] * n[3],
    ]
}

fn apply(m: Linear, (x, y): (f64, f64)) -> (f64, f64) {
    (m[0] * x + m[2] * y, m[1] * x + m[3] * y)
}

impl Polygon {
    /// hexapipes' `RegularPolygonTile(slots.len(), angle_offset, radius_in, slots)`.
    fn regular(angle_offset: f64, radius_in: f64, slots: &[u8]) -> Polygon {
        Polygon::transformed(angle_offset, radius_in, slots, IDENTITY)
    }

    /// A regular polygon drawn through `m`, as `TransformedPolygonTile` is: hexapipes draws
    /// the regular shape (angles anticlockwise, y flipped to point down) and lets the CSS
    /// transform bend it, pipes included.
    fn transformed(angle_offset: f64, radius_in: f64, slots: &[u8], m: Linear) -> Polygon {
        let n = slots.len();
        let unit = 2.0 * std::f64::consts::PI / n as f64;
        let radius_out = radius_in / (unit / 2.0).cos();
        let towards = |angle: f64, r: f64| apply(m, (r * angle.cos(), -r * angle.sin()));
        let corners = (0..n)
            .map(|i| towards(angle_offset + unit * (i as f64 + 0.5), radius_out))
            .collect();
        let side_dirs = (0..n)
            .map(|i| {
                let (x, y) = towards(angle_offset + unit * i as f64, radius_in);
                let len = x.hypot(y);
                (x / len, y / len)
            })
            .collect();
        Polygon {
            slots: slots.to_vec(),
            corners,
            side_dirs,
        }
    }

    /// Number of sides.
    pub fn sides(&self) -> usize {
        self.slots.len()
    }
}

/// The most cells a layout may have: a link packs a cell and a side into 32 bits.
pub const MAX_CELLS: usize = (u32::MAX as usize >> 3) - 1;

/// A side with no neighbour in [`Layout::links`].
pub const BORDER: u32 = u32::MAX;

/// The cells of one board of a grid.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The grid.
    pub grid: Grid,
    /// Width as in the hexapipes file: the size asked for, from which each grid works out
    /// its own counts of rows and columns.
    pub width: usize,
    /// Height as in the hexapipes file.
    pub height: usize,
    /// Whether the board wraps (both ways, as hexapipes plays it).
    pub wrap: bool,
    /// hexapipes' `total`.
    pub cells: usize,
    /// The distinct shapes.
    pub polygons: Vec<Polygon>,
    /// Per cell, index into `polygons`.
    pub polygon_of: Vec<u8>,
    /// `cell * stride + local side` -> `neighbour * 8 + neighbour's local side facing back`,
    /// or [`BORDER`] for a border and for local sides at or past that cell's side count.
    pub links: Vec<u32>,
    /// Per cell, its centre for drawing (y down) in hexapipes' own coordinates, where
    /// neighbouring cells' centres are about one unit apart.
    pub centres: Vec<(f64, f64)>,
    /// Per cell, whether hexapipes leaves it empty on a new puzzle ([`Layout::outside`]).
    outside: Vec<bool>,
}

/// Layouts are equal when they are made from the same grid and sizes: the rest follows.
impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        (self.grid, self.width, self.height, self.wrap)
            == (other.grid, other.width, other.height, other.wrap)
    }
}

impl Eq for Layout {}

/// What each grid's file provides: hexapipes' indexing and neighbour rule.
trait Geometry {
    /// hexapipes' `total`.
    fn cells(&self) -> usize;
    /// Index of `cell`'s shape in the grid's polygons (`polygon_at`).
    fn polygon_of(&self, cell: usize) -> u8;
    /// `find_neighbour(cell, direction).neighbour` with no cell empty; `None` for -1.
    /// Only asked for directions of the cell's own polygon.
    fn neighbour(&self, cell: usize, direction: u8) -> Option<usize>;
    /// The centre hexapipes draws the cell at (unwrapped), y down.
    fn centre(&self, cell: usize) -> (f64, f64);
    /// The cells hexapipes' constructor empties when it makes a new puzzle (no tiles given,
    /// `makeEmpty` and the like), as it computes them: an index past the last cell (a quirk
    /// of the trihexagonal grid) empties nothing. None on a wrapped board.
    fn emptied(&self) -> Vec<usize>;
}

/// JavaScript's `Math.round`: halves go up (towards +inf), unlike [`f64::round`].
fn js_round(x: f64) -> f64 {
    let f = x.floor();
    if x - f >= 0.5 { f + 1.0 } else { f }
}

/// A count hexapipes computes in floating point, as a whole number of rows or columns;
/// saturating, as a too-large count fails [`cell_count`] anyway.
fn whole(x: f64) -> usize {
    if x.is_finite() && x > 0.0 {
        x as usize
    } else {
        0
    }
}

/// The product of a grid's counts as a number of cells, or why it is no board.
fn cell_count(
    grid: Grid,
    width: usize,
    height: usize,
    wrap: bool,
    factors: &[usize],
) -> Result<usize, String> {
    let what = format!(
        "a {}{} board of {width}x{height}",
        if wrap { "wrapped " } else { "" },
        grid.name()
    );
    // A file of no width still makes hexapipes a row of triangles (it adds one to a bounded
    // triangular board's counts), which no one means.
    if width == 0 || height == 0 {
        return Err(format!("{what} has no cells"));
    }
    match factors.iter().try_fold(1usize, |n, &f| n.checked_mul(f)) {
        Some(0) => Err(format!("{what} has no cells")),
        Some(n) if n <= MAX_CELLS => Ok(n),
        _ => Err(format!("{what} has too many cells (at most {MAX_CELLS})")),
    }
}

/// hexapipes' `HexaGrid.find_neighbour` (which the cube and etrat grids build on): the
/// hexagonal board's own rule, directions E, NE, NW, W, SW, SE being bits 1..32.
fn hex_neighbour(
    index: usize,
    direction: u8,
    width: usize,
    height: usize,
    wrap: bool,
) -> Option<usize> {
    let side = direction.trailing_zeros() as usize % 6;
    super::hexagonal::neighbour(index / width, index % width, side, width, height, wrap)
}

/// hexapipes' `HexaGrid` drawing: the centre of hexagon `index`, y down.
fn hex_centre(index: usize, width: usize) -> (f64, f64) {
    let (r, c) = (index / width, index % width);
    let shift = if r % 2 == 1 { 0.5 } else { 0.0 };
    (c as f64 + shift, r as f64 * (3f64.sqrt() / 2.0))
}

impl Layout {
    /// The board hexapipes makes of a `width` x `height` file of `grid`. Fails when the
    /// sizes give no cells or too many (more than [`MAX_CELLS`]), or when a wrapped board is
    /// too small for its links to be consistent (a cell across its own side, or two sides
    /// facing the same side).
    pub fn new(grid: Grid, width: usize, height: usize, wrap: bool) -> Result<Layout, String> {
        match grid {
            Grid::Octagonal => build(
                grid,
                width,
                height,
                wrap,
                octagonal::polygons(),
                octagonal::Octagonal::new(width, height, wrap)?,
            ),
            Grid::Cube => build(
                grid,
                width,
                height,
                wrap,
                cube::polygons(),
                cube::Cube::new(width, height, wrap)?,
            ),
            Grid::Trihexagonal => build(
                grid,
                width,
                height,
                wrap,
                trihexagonal::polygons(),
                trihexagonal::Trihexagonal::new(width, height, wrap)?,
            ),
            Grid::Etrat => build(
                grid,
                width,
                height,
                wrap,
                etrat::polygons(),
                etrat::Etrat::new(width, height, wrap)?,
            ),
            Grid::Triangular => build(
                grid,
                width,
                height,
                wrap,
                triangular::polygons(),
                triangular::Triangular::new(width, height, wrap)?,
            ),
            Grid::Snubsquare => build(
                grid,
                width,
                height,
                wrap,
                snubsquare::polygons(),
                snubsquare::Snubsquare::new(width, height, wrap)?,
            ),
            Grid::Rhombitrihexagonal => build(
                grid,
                width,
                height,
                wrap,
                rhombitrihexagonal::polygons(),
                rhombitrihexagonal::Rhombitrihexagonal::new(width, height, wrap)?,
            ),
        }
    }

    /// The polygon of `cell`.
    pub fn polygon(&self, cell: usize) -> &Polygon {
        &self.polygons[self.polygon_of[cell] as usize]
    }

    /// Whether hexapipes leaves `cell` empty when it makes a new puzzle of this size: a
    /// bounded board's cells outside its shape (an octagonal board's last row and column of
    /// squares, a cube board's cut-off corners, ...), exactly those its grid's constructor
    /// empties when given no tiles, quirks included (an odd-height trihexagonal board
    /// empties cell `3 * h * h - 1` of its `w` x `h` fish, an inner triangle when h < w and
    /// nothing when h > w). Never on a wrapped board. The other cells are connected through
    /// one another on every board 2..=12 a side; not on a rhombitrihexagonal board of width
    /// 1 and height 3 or more, whose emptied edges cut its one column apart (in hexapipes
    /// too).
    pub fn outside(&self, cell: usize) -> bool {
        self.outside[cell]
    }

    /// Number of sides of `cell`.
    pub fn sides(&self, cell: usize) -> usize {
        self.polygon(cell).sides()
    }

    /// A hexapipes tile of `cell` as a local mask; `None` when the tile has a bit that is
    /// not one of the cell's sides.
    pub fn to_local(&self, cell: usize, tile: u8) -> Option<u8> {
        let mut local = 0;
        let mut rest = tile;
        for (i, &bit) in self.polygon(cell).slots.iter().enumerate() {
            if tile & bit != 0 {
                local |= 1 << i;
                rest &= !bit;
            }
        }
        (rest == 0).then_some(local)
    }

    /// A local mask of `cell` as hexapipes' direction bits (bits past the cell's sides are
    /// ignored).
    pub fn to_hexapipes(&self, cell: usize, local: u8) -> u8 {
        self.polygon(cell)
            .slots
            .iter()
            .enumerate()
            .filter(|&(i, _)| local >> i & 1 == 1)
            .fold(0, |tile, (_, &bit)| tile | bit)
    }
}

/// The layout of `geometry`: its links by side, checked to be an involution.
fn build<G: Geometry>(
    grid: Grid,
    width: usize,
    height: usize,
    wrap: bool,
    polygons: Vec<Polygon>,
    geometry: G,
) -> Result<Layout, String> {
    let cells = geometry.cells();
    let stride = grid.stride();
    let too_small = |why: String| {
        Err(format!(
            "a {}{} board of {width}x{height} cannot be built: {why}",
            if wrap { "wrapped " } else { "" },
            grid.name()
        ))
    };
    let polygon_of: Vec<u8> = (0..cells).map(|c| geometry.polygon_of(c)).collect();
    let mut links = vec![BORDER; cells * stride];
    for (cell, row) in links.chunks_exact_mut(stride).enumerate() {
        for (side, (link, &direction)) in row
            .iter_mut()
            .zip(&polygons[polygon_of[cell] as usize].slots)
            .enumerate()
        {
            let Some(n) = geometry.neighbour(cell, direction) else {
                continue;
            };
            if n == cell {
                return too_small(format!("cell {cell} would be its own neighbour"));
            }
            let back = grid.opposite(direction);
            let Some(facing) = polygons[polygon_of[n] as usize]
                .slots
                .iter()
                .position(|&d| d == back)
            else {
                return too_small(format!(
                    "cell {cell} side {side} meets cell {n}, which has no side facing back"
                ));
            };
            *link = ((n as u32) << 3) | facing as u32;
        }
    }
    // hexapipes checks nothing of the kind, but its rule is symmetric on every board it
    // makes except for the self-links above: a failure here is a size it never plays.
    for (i, &l) in links.iter().enumerate() {
        if l != BORDER {
            let (n, t) = ((l >> 3) as usize, (l & 7) as usize);
            if links[n * stride + t] != (((i / stride) << 3) | (i % stride)) as u32 {
                return too_small(format!(
                    "cell {} side {} and another side both face cell {n} side {t}",
                    i / stride,
                    i % stride
                ));
            }
        }
    }
    let centres = (0..cells).map(|c| geometry.centre(c)).collect();
    let mut outside = vec![false; cells];
    for c in geometry.emptied() {
        if let Some(o) = outside.get_mut(c) {
            *o = true;
        }
    }
    Ok(Layout {
        grid,
        width,
        height,
        wrap,
        cells,
        polygons,
        polygon_of,
        links,
        centres,
        outside,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of 1..=8 x 1..=8 hexapipes makes, both wraps.
    fn small_layouts() -> Vec<Layout> {
        let mut layouts = Vec::new();
        for grid in Grid::ALL {
            for w in 1..=8 {
                for h in 1..=8 {
                    for wrap in [false, true] {
                        if let Ok(l) = Layout::new(grid, w, h, wrap) {
                            layouts.push(l);
                        }
                    }
                }
            }
        }
        layouts
    }

    /// The neighbour across `cell`'s local `side` and its local side that faces back.
    pub(super) fn across(l: &Layout, cell: usize, side: usize) -> Option<(usize, usize)> {
        let link = l.links[cell * l.grid.stride() + side];
        (link != BORDER).then_some(((link >> 3) as usize, (link & 7) as usize))
    }

    /// The facts a test file of hexapipes states: `cell => the neighbour across each of its
    /// polygon's directions, in order` (-1: none).
    pub(super) fn assert_neighbours(layout: &Layout, facts: &[(usize, &[i64])]) {
        for &(cell, expected) in facts {
            let got: Vec<i64> = (0..layout.sides(cell))
                .map(|s| across(layout, cell, s).map_or(-1, |(n, _)| n as i64))
                .collect();
            assert_eq!(got, expected, "{:?} cell {cell}", layout.grid);
        }
    }

    /// The cells hexapipes leaves empty on a new `width` x `height` bounded board of `grid`.
    pub(super) fn outside_cells(grid: Grid, width: usize, height: usize) -> Vec<usize> {
        let l = Layout::new(grid, width, height, false).unwrap();
        (0..l.cells).filter(|&c| l.outside(c)).collect()
    }

    #[test]
    fn no_cell_is_outside_on_a_wrapped_board() {
        let mut checked = 0;
        for l in small_layouts().iter().filter(|l| l.wrap) {
            assert!((0..l.cells).all(|c| !l.outside(c)), "{:?}", l.grid);
            checked += 1;
        }
        assert!(checked > 300);
    }

    #[test]
    fn every_bounded_board_leaves_some_cells_outside_but_not_all() {
        for l in small_layouts().iter().filter(|l| !l.wrap) {
            let n = (0..l.cells).filter(|&c| l.outside(c)).count();
            let what = format!("{:?} {}x{}", l.grid, l.width, l.height);
            // A cube board one hexagon wide or tall (a side of 1 or 2) has no corner to cut.
            let cut = l.grid != Grid::Cube || (l.width > 2 && l.height > 2);
            assert!(!cut || n > 0, "{what}: nothing outside");
            assert!(n < l.cells, "{what}: everything outside");
        }
    }

    /// The cells of `l` not outside that cannot be reached from the first of them through
    /// cells not outside.
    fn cut_off(l: &Layout) -> Vec<usize> {
        let inside: Vec<usize> = (0..l.cells).filter(|&c| !l.outside(c)).collect();
        let mut seen = vec![false; l.cells];
        let mut stack = vec![inside[0]];
        seen[inside[0]] = true;
        while let Some(c) = stack.pop() {
            for s in 0..l.sides(c) {
                if let Some((n, _)) = across(l, c, s)
                    && !l.outside(n)
                    && !seen[n]
                {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        inside.into_iter().filter(|&c| !seen[c]).collect()
    }

    #[test]
    fn the_cells_of_a_new_bounded_puzzle_are_connected() {
        // A new puzzle's spanning tree must reach every cell hexapipes does not leave empty,
        // through such cells only. It can on every board 2..=12 a side; a rhombitrihexagonal
        // board one wide (a single column of units, 3 or more tall) is cut into pieces by
        // hexapipes' own emptying of its edges.
        let mut broken = Vec::new();
        for grid in Grid::ALL {
            for w in 1..=12 {
                for h in 1..=12 {
                    let Ok(l) = Layout::new(grid, w, h, false) else {
                        continue;
                    };
                    let cut = cut_off(&l);
                    if !cut.is_empty() {
                        broken.push((grid, w, h));
                    }
                    assert!(
                        w == 1 || cut.is_empty(),
                        "{grid:?} {w}x{h}: {cut:?} cut off"
                    );
                }
            }
        }
        let one_wide: Vec<_> = (3..=12).map(|h| (Grid::Rhombitrihexagonal, 1, h)).collect();
        assert_eq!(broken, one_wide);
        assert_eq!(
            cut_off(&Layout::new(Grid::Rhombitrihexagonal, 1, 4, false).unwrap()),
            [6, 13, 14, 22]
        );
    }

    #[test]
    fn every_link_is_answered_by_the_side_that_faces_back() {
        let layouts = small_layouts();
        for grid in Grid::ALL {
            let n = layouts.iter().filter(|l| l.grid == grid).count();
            assert!(n > 40, "{grid:?} makes most small boards ({n})");
        }
        for l in &layouts {
            let k = l.grid.stride();
            assert_eq!(l.links.len(), l.cells * k);
            for c in 0..l.cells {
                for s in 0..k {
                    let Some((n, t)) = across(l, c, s) else {
                        continue;
                    };
                    let what = format!("{:?} {}x{} wrap {}", l.grid, l.width, l.height, l.wrap);
                    assert!(s < l.sides(c), "{what}: cell {c} links past its sides");
                    assert_ne!(n, c, "{what}: cell {c} side {s} links to itself");
                    assert!(t < l.sides(n), "{what}: cell {n} has no side {t}");
                    assert_eq!(across(l, n, t), Some((c, s)), "{what}: cell {c} side {s}");
                    let (d, e) = (l.polygon(c).slots[s], l.polygon(n).slots[t]);
                    assert_eq!(l.grid.opposite(d), e, "{what}: cell {c} side {s}");
                }
            }
        }
    }

    #[test]
    fn a_wrapped_board_has_no_border() {
        for l in small_layouts().iter().filter(|l| l.wrap) {
            for c in 0..l.cells {
                for s in 0..l.sides(c) {
                    assert!(across(l, c, s).is_some(), "{:?} {c} {s}", l.grid);
                }
            }
        }
    }

    #[test]
    fn boards_too_small_to_wrap_are_refused_not_built() {
        // hexapipes links these cells to themselves (found by running its find_neighbour).
        for (grid, w, h) in [
            (Grid::Octagonal, 1, 5),
            (Grid::Octagonal, 5, 1),
            (Grid::Etrat, 1, 4),
        ] {
            let err = Layout::new(grid, w, h, true).unwrap_err();
            assert!(err.contains("its own neighbour"), "{err}");
            assert!(Layout::new(grid, w, h, false).is_ok());
        }
    }

    #[test]
    fn sizes_that_give_no_cells_or_too_many_are_errors() {
        for grid in Grid::ALL {
            for (w, h) in [(0, 5), (5, 0), (usize::MAX, 3), (1 << 20, 1 << 20)] {
                for wrap in [false, true] {
                    assert!(Layout::new(grid, w, h, wrap).is_err(), "{grid:?} {w}x{h}");
                }
            }
        }
        // hexapipes' own scaling rounds these to nothing.
        assert!(Layout::new(Grid::Snubsquare, 1, 5, false).is_err());
        assert!(Layout::new(Grid::Rhombitrihexagonal, 1, 5, true).is_err());
    }

    #[test]
    fn cell_counts_are_hexapipes_totals_for_the_published_sizes() {
        // The daily puzzles' sizes and their files' tile counts.
        for (grid, w, h, wrap, cells) in [
            (Grid::Octagonal, 10, 10, false, 200),
            (Grid::Octagonal, 10, 10, true, 200),
            (Grid::Octagonal, 11, 11, false, 242),
            (Grid::Octagonal, 11, 11, true, 242),
            (Grid::Cube, 16, 16, true, 243),
            (Grid::Cube, 16, 16, false, 363),
            (Grid::Cube, 13, 13, false, 243),
            (Grid::Cube, 17, 17, false, 363),
            (Grid::Cube, 19, 19, true, 363),
            (Grid::Trihexagonal, 12, 12, false, 147),
            (Grid::Etrat, 13, 13, false, 273),
        ] {
            let l = Layout::new(grid, w, h, wrap).unwrap();
            assert_eq!(l.cells, cells, "{grid:?} {w}x{h} wrap {wrap}");
            assert_eq!(l.polygon_of.len(), cells);
            assert_eq!(l.centres.len(), cells);
        }
    }

    #[test]
    fn js_round_takes_halves_up() {
        assert_eq!(js_round(2.5), 3.0);
        assert_eq!(js_round(-2.5), -2.0);
        assert_eq!(js_round(0.49999999999999994), 0.0);
        assert_eq!(js_round(10.72), 11.0);
    }

    #[test]
    fn tiles_go_to_local_masks_and_back() {
        for l in small_layouts() {
            let bits = l.grid.direction_bits();
            for c in 0..l.cells {
                let p = l.polygon(c);
                let full: u8 = p.slots.iter().fold(0, |m, &b| m | b);
                for tile in 0..=((1u16 << bits) - 1) as u8 {
                    match l.to_local(c, tile) {
                        Some(local) => {
                            assert_eq!(tile & !full, 0);
                            assert!((local as u16) < 1 << p.sides());
                            assert_eq!(local.count_ones(), tile.count_ones());
                            assert_eq!(l.to_hexapipes(c, local), tile);
                        }
                        None => assert_ne!(tile & !full, 0, "{:?} cell {c} {tile}", l.grid),
                    }
                }
                for local in 0..1u16 << p.sides() {
                    let tile = l.to_hexapipes(c, local as u8);
                    assert_eq!(l.to_local(c, tile), Some(local as u8));
                }
            }
        }
    }

    #[test]
    fn a_hexapipes_rotation_is_a_shift_of_the_local_mask() {
        // etratgrid.test.js, "Test rotate triangular tile": a down triangle (cell 2) turns
        // tile 3 into 5, 6, 3, 5; an up triangle (cell 0) turns 5 into 9, 12, 5, 9.
        let l = Layout::new(Grid::Etrat, 3, 6, true).unwrap();
        for (cell, tiles) in [(2, [3, 5, 6, 3, 5]), (0, [5, 9, 12, 5, 9])] {
            let k = l.sides(cell);
            let mut local = l.to_local(cell, tiles[0]).unwrap();
            for &t in &tiles[1..] {
                // rotate(tile, 1) moves local side i to i - 1.
                local = ((local >> 1) | (local << (k - 1))) & ((1 << k) - 1);
                assert_eq!(l.to_hexapipes(cell, local), t);
            }
        }
    }

    fn angle_between((ax, ay): (f64, f64), (bx, by): (f64, f64)) -> f64 {
        let cos = (ax * bx + ay * by) / (ax.hypot(ay) * bx.hypot(by));
        cos.clamp(-1.0, 1.0).acos().to_degrees()
    }

    #[test]
    fn side_directions_point_at_the_neighbours_on_a_bounded_board() {
        for grid in Grid::ALL {
            for (w, h) in [(8, 8), (9, 7), (13, 13)] {
                let l = Layout::new(grid, w, h, false).unwrap();
                let mut checked = 0;
                for c in 0..l.cells {
                    let (x, y) = l.centres[c];
                    for s in 0..l.sides(c) {
                        let Some((n, t)) = across(&l, c, s) else {
                            continue;
                        };
                        let (nx, ny) = l.centres[n];
                        let towards = (nx - x, ny - y);
                        let dist = towards.0.hypot(towards.1);
                        assert!(dist > 0.3 && dist < 2.0, "{grid:?} {c}->{n} {dist}");
                        let a = angle_between(l.polygon(c).side_dirs[s], towards);
                        // A cube face's pipes leave it askew: exactly 30 degrees off.
                        assert!(
                            a < 30.0 + 1e-6,
                            "{grid:?} cell {c} side {s}: {a} degrees off"
                        );
                        // Both cells draw the side between the same two corners, so their
                        // pipes meet at its middle.
                        let (p, q) = (l.polygon(c), l.polygon(n));
                        let corner = |p: &Polygon, (x, y): (f64, f64), i: usize| {
                            let (cx, cy) = p.corners[i % p.sides()];
                            (x + cx, y + cy)
                        };
                        let ends = [corner(p, (x, y), s + p.sides() - 1), corner(p, (x, y), s)];
                        let back = [
                            corner(q, (nx, ny), t),
                            corner(q, (nx, ny), t + q.sides() - 1),
                        ];
                        // hexapipes draws the octagonal grid's squares a little large
                        // (their sides 0.437 long, the octagons' 0.414).
                        let slack = if grid == Grid::Octagonal { 0.02 } else { 1e-9 };
                        for (e, b) in ends.iter().zip(&back) {
                            let off = (e.0 - b.0).hypot(e.1 - b.1);
                            assert!(
                                off < slack,
                                "{grid:?} cell {c} side {s}: corners {off} apart"
                            );
                        }
                        checked += 1;
                    }
                }
                assert!(checked > 100);
            }
        }
    }

    #[test]
    fn polygon_sides_run_anticlockwise_with_corners_between_them() {
        for grid in Grid::ALL {
            let l = Layout::new(grid, 6, 6, false).unwrap();
            for p in &l.polygons {
                let k = p.sides();
                assert_eq!(p.corners.len(), k);
                assert_eq!(p.side_dirs.len(), k);
                for i in 0..k {
                    // Anticlockwise on screen is clockwise in y-down coordinates.
                    let (a, b) = (p.side_dirs[i], p.side_dirs[(i + 1) % k]);
                    assert!(a.0 * b.1 - a.1 * b.0 < 0.0, "{grid:?} {p:?}");
                    // Side i runs from corner i - 1 to corner i; its middle is where the
                    // pipe leaves.
                    let (c0, c1) = (p.corners[(i + k - 1) % k], p.corners[i]);
                    let mid = ((c0.0 + c1.0) / 2.0, (c0.1 + c1.1) / 2.0);
                    assert!(angle_between(mid, p.side_dirs[i]) < 1e-3, "{grid:?} {p:?}");
                }
            }
        }
    }
}

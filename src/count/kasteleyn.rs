//! Determinant count of one region: its solutions as the perfect matchings of a planar
//! bipartite graph, counted by Kasteleyn's theorem as |det| of a signed biadjacency matrix.
//!
//! A solution is an on/off value for every side between two cells of the region such that each
//! cell's set of "on" sides is one of its orientations (an orientation is fixed by its sides).
//! A cell whose allowed side sets are "exactly one of its free sides" (a Q, or a corner with one
//! side decided) is one vertex: the neighbour it is matched to is its one "on" side. A cell
//! allowed "all but one of its free sides" (a T) is a star: one port per side plus a centre
//! joined to all ports; a port matched outside is an "on" side, and the centre takes the one
//! "off" side. Each solution is then exactly one perfect matching.
//!
//! Corners and straights with several free sides cannot be drawn this way without crossings.
//! They are branched on instead ("branch cells"): each case fixes some of their sides and
//! leaves a vertex or star on the rest (a corner: "north on, one of east/west" or "south on,
//! one of east/west"). A fixed "on" side towards a vertex or port deletes that vertex (it is
//! matched), so every case's matrix is one base matrix without some of its last rows and
//! columns (one elimination serves every case, see `super::modular_det`). The case graphs are the base
//! graph plus pendant vertices, so the base graph's Kasteleyn signing holds for all of them.
//!
//! Signs come from the FKT construction on the drawing (cells on a grid, ports at the side
//! midpoints, every edge horizontal or vertical): a spanning forest signed +1, then each
//! inner face, leaves of the dual tree first, gets its last edge signed so that the product
//! of its boundary's signs is (−1)^(length/2 − 1).

use num_bigint::BigUint;

use super::modular_det::{self, Deletion, MAX_TOUCHED, SignedMatrix};
use crate::model::PieceKind;
use crate::model::direction::{bit, opposite};
use crate::solve::{Board, State};

/// Branch cells above which a region is left to the other strategies.
pub const MAX_BRANCH_CELLS: usize = 14;

/// Cases (combinations of branch-cell choices) above which a region is left to the others.
pub const MAX_CASES: usize = 1 << 14;

/// Estimated multiplications (cases × primes × a dense determinant of the touched rows and
/// columns each) above which a region is left to the other strategies: the determinants
/// cannot be interrupted, so their work is bounded (about a second) up front.
pub const MAX_CASE_WORK: u64 = 400_000_000;

/// What the determinant counts did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeterminantCounters {
    /// Regions counted by determinants, and their undecided cells.
    pub regions: u64,
    pub cells: u64,
    /// Most branch cells in one region.
    pub branch_cells: u64,
    /// Cases (determinants after the shared elimination) over all regions.
    pub cases: u64,
}

/// What the determinant count made of a region.
pub enum Planned {
    /// The matrix and its cases.
    Matrix(Plan),
    /// The region has no solution (side values contradict).
    Zero,
    /// Not a planar matching problem within the branching bounds.
    Unsuited,
}

/// A region's matrix and cases, ready to count.
pub struct Plan {
    pub matrix: SignedMatrix,
    pub cases: Vec<Deletion>,
    /// Cells branched on.
    pub branch_cells: usize,
}

impl Plan {
    /// The region's number of solutions.
    pub fn count(&self) -> BigUint {
        self.matrix.sum_abs_dets(&self.cases)
    }
}

/// Gadget of a cell on its free sides `G`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gadget {
    /// No free side left outside the branch sides.
    None,
    /// Exactly one side of `G` on.
    Vertex,
    /// All but one side of `G` on.
    Star,
}

/// Set (bit p: side pattern p allowed) of the one-side patterns of `sides`.
fn ones(sides: u8) -> u16 {
    (0..4)
        .filter(|&d| sides & bit(d) != 0)
        .fold(0, |s, d| s | 1 << bit(d))
}

/// Set of the all-but-one-side patterns of `sides`.
fn all_but_one(sides: u8) -> u16 {
    (0..4)
        .filter(|&d| sides & bit(d) != 0)
        .fold(0, |s, d| s | 1 << (sides & !bit(d)))
}

fn gadget_of(sides: u8, set: u16) -> Option<Gadget> {
    if sides == 0 {
        (set == 1).then_some(Gadget::None)
    } else if sides.count_ones() >= 2 && set == ones(sides) {
        Some(Gadget::Vertex)
    } else if sides.count_ones() >= 2 && set == all_but_one(sides) {
        Some(Gadget::Star)
    } else {
        None
    }
}

/// Patterns of `set` (bits of 4-bit side masks) restricted to `side` = `on`, that side removed.
fn restrict(set: u16, side: usize, on: bool) -> u16 {
    let b = bit(side);
    let mut out = 0;
    for p in 0..16u8 {
        if set >> p & 1 == 1 && (p & b != 0) == on {
            out |= 1 << (p & !b);
        }
    }
    out
}

/// Values side `side` takes among `set`: bit 0 off, bit 1 on.
fn values(set: u16, side: usize) -> u8 {
    let mut v = 0;
    for p in 0..16u8 {
        if set >> p & 1 == 1 {
            v |= 1 << u8::from(p & bit(side) != 0);
        }
    }
    v
}

/// Builds the matrix and cases of `region` (undecided cells of a propagated state whose sides
/// to other cells are decided).
#[allow(clippy::needless_range_loop)] // sides index several per-cell arrays
pub fn plan(board: &Board, state: &State, region: &[u32]) -> Planned {
    let mut cells: Vec<usize> = region.iter().map(|&c| c as usize).collect();
    cells.sort_unstable();
    let n = cells.len();
    let local = |c: usize| cells.binary_search(&c).ok();
    // Free sides and allowed patterns on them, per cell.
    let mut free = vec![0u8; n];
    let mut set = vec![0u16; n];
    let mut nb = vec![[usize::MAX; 4]; n];
    for (i, &c) in cells.iter().enumerate() {
        let Some(kind) = PieceKind::from_code(board.kind[c]) else {
            return Planned::Unsuited;
        };
        let dom = state.domain(c);
        let masks: Vec<u8> = (0..4u8)
            .filter(|&o| dom & (1 << o) != 0)
            .map(|o| kind.mask(o))
            .collect();
        for d in 0..4 {
            if let Some(j) = local(board.neighbour(c, d)) {
                nb[i][d] = j;
                free[i] |= bit(d);
            } else if masks.iter().any(|&m| m & bit(d) != masks[0] & bit(d)) {
                return Planned::Unsuited;
            }
        }
        for &m in &masks {
            set[i] |= 1 << (m & free[i]);
        }
    }
    // Sides decided by one end are decided for the other (to a fixed point).
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..n {
            for d in 0..4 {
                if free[i] & bit(d) == 0 {
                    continue;
                }
                let (j, o) = (nb[i][d], opposite(d));
                let both = values(set[i], d) & values(set[j], o);
                if both == 0 {
                    return Planned::Zero;
                }
                if both != 3 {
                    let on = both == 2;
                    set[i] = restrict(set[i], d, on);
                    set[j] = restrict(set[j], o, on);
                    free[i] &= !bit(d);
                    free[j] &= !bit(o);
                    if set[i] == 0 || set[j] == 0 {
                        return Planned::Zero;
                    }
                    changed = true;
                }
            }
        }
    }
    // Gadgets: `branch[i]` are the sides a branch cell fixes per case, `leaves[i]` the
    // patterns on them, `gadget[i]` what is left on the other free sides.
    let mut branch = vec![0u8; n];
    let mut gadget = vec![Gadget::None; n];
    let mut leaves: Vec<Vec<u8>> = vec![Vec::new(); n];
    let mut branch_cells = Vec::new();
    for i in 0..n {
        if let Some(g) = gadget_of(free[i], set[i]) {
            gadget[i] = g;
            continue;
        }
        let mut best: Option<(u8, Gadget, Vec<u8>)> = None;
        for f in 1..16u8 {
            if f & !free[i] != 0 {
                continue;
            }
            let rest = free[i] & !f;
            let mut groups: Vec<(u8, u16)> = Vec::new();
            for p in 0..16u8 {
                if set[i] >> p & 1 == 0 {
                    continue;
                }
                let key = p & f;
                match groups.iter_mut().find(|g| g.0 == key) {
                    Some(g) => g.1 |= 1 << (p & rest),
                    None => groups.push((key, 1 << (p & rest))),
                }
            }
            if groups.iter().any(|g| g.1 != groups[0].1) {
                continue;
            }
            let Some(g) = gadget_of(rest, groups[0].1) else {
                continue;
            };
            if best.as_ref().is_none_or(|b| groups.len() < b.2.len()) {
                best = Some((f, g, groups.iter().map(|g| g.0).collect()));
            }
        }
        let (f, g, l) = best.expect("fixing every free side always splits");
        branch[i] = f;
        gadget[i] = g;
        leaves[i] = l;
        branch_cells.push(i);
    }
    if branch_cells.len() > MAX_BRANCH_CELLS {
        return Planned::Unsuited;
    }
    // Vertices: position (x, y), colour, and per cell the port of each gadget side.
    let mut pos: Vec<(i64, i64)> = Vec::new();
    let mut colour: Vec<bool> = Vec::new();
    let mut port = vec![[u32::MAX; 4]; n];
    let mut edges: Vec<(u32, u32, u8)> = Vec::new();
    const OFF: [(i64, i64); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
    for (i, &c) in cells.iter().enumerate() {
        let (r, col) = board.row_col(c);
        let centre = (4 * col as i64 + 2, 4 * r as i64 + 2);
        let own = board.colour(c);
        let sides = free[i] & !branch[i];
        match gadget[i] {
            Gadget::None => {}
            Gadget::Vertex => {
                let v = pos.len() as u32;
                pos.push(centre);
                colour.push(own);
                for d in 0..4 {
                    if sides & bit(d) != 0 {
                        port[i][d] = v;
                    }
                }
            }
            Gadget::Star => {
                let hub = pos.len() as u32;
                pos.push(centre);
                colour.push(!own);
                for (d, off) in OFF.iter().enumerate() {
                    if sides & bit(d) != 0 {
                        let v = pos.len() as u32;
                        pos.push((centre.0 + off.0, centre.1 + off.1));
                        colour.push(own);
                        port[i][d] = v;
                        edges.push((hub, v, d as u8));
                    }
                }
            }
        }
    }
    // Edges between cells, touched vertices and the constraints between branch cells.
    let mut touched: Vec<u32> = Vec::new();
    // Per branch cell and leaf: the vertices it deletes; per pair of adjacent branch sides:
    // (cell i, side d, cell j, side o) must agree.
    // (side of the branch cell, vertex deleted when that side is on, direction from the
    // vertex towards the branch cell).
    let mut deletes: Vec<Vec<(u8, u32, u8)>> = vec![Vec::new(); n];
    let mut agree: Vec<(usize, usize, usize, usize)> = Vec::new();
    for i in 0..n {
        for d in [1, 2] {
            if free[i] & bit(d) == 0 {
                continue;
            }
            let (j, o) = (nb[i][d], opposite(d));
            let (bi, bj) = (branch[i] & bit(d) != 0, branch[j] & bit(o) != 0);
            match (bi, bj) {
                (false, false) => edges.push((port[i][d], port[j][o], d as u8)),
                (true, true) => agree.push((i, d, j, o)),
                (true, false) => {
                    touched.push(port[j][o]);
                    deletes[i].push((d as u8, port[j][o], o as u8));
                }
                (false, true) => {
                    touched.push(port[i][d]);
                    deletes[j].push((o as u8, port[i][d], d as u8));
                }
            }
        }
    }
    let Some(drawing) = Drawing::new(&pos, &edges) else {
        return Planned::Unsuited;
    };
    // A deleted vertex is a pendant edge drawn towards the branch cell: it flips the sign
    // condition of the face it lies in. The signs are Kasteleyn for every branch cell's first
    // leaf; another leaf negates the entries of a dual path between its faces and the first
    // leaf's (module doc).
    let defects = |i: usize, leaf: u8| -> Vec<u32> {
        deletes[i]
            .iter()
            .filter(|&&(d, _, _)| leaf & bit(d as usize) != 0)
            .filter_map(|&(_, u, slot)| drawing.face_at(u, slot as usize))
            .collect()
    };
    let mut defect = vec![false; drawing.faces.len()];
    for &i in &branch_cells {
        for f in defects(i, leaves[i][0]) {
            defect[f as usize] ^= true;
        }
    }
    let Some(sign) = drawing.signs(&defect) else {
        return Planned::Unsuited;
    };
    let mut flip_edges: Vec<u32> = Vec::new();
    let mut leaf_flips: Vec<Vec<u64>> = vec![Vec::new(); n];
    for &i in &branch_cells {
        let first = defects(i, leaves[i][0]);
        for &leaf in &leaves[i] {
            let mut faces = defects(i, leaf);
            faces.extend_from_slice(&first);
            let mut mask = 0u64;
            for e in drawing.flips_between(&faces) {
                let k = match flip_edges.iter().position(|&x| x == e) {
                    Some(k) => k,
                    None => {
                        flip_edges.push(e);
                        flip_edges.len() - 1
                    }
                };
                if k >= 64 {
                    return Planned::Unsuited;
                }
                mask |= 1 << k;
            }
            leaf_flips[i].push(mask);
        }
    }
    for &e in &flip_edges {
        let (u, v, _) = edges[e as usize];
        touched.push(u);
        touched.push(v);
    }
    touched.sort_unstable();
    touched.dedup();
    // Rows: colour-false vertices; columns: colour-true. Untouched ones along the region's
    // longer dimension, then the touched ones.
    let (xs, ys) = (
        pos.iter().map(|p| p.0).max().unwrap_or(0) - pos.iter().map(|p| p.0).min().unwrap_or(0),
        pos.iter().map(|p| p.1).max().unwrap_or(0) - pos.iter().map(|p| p.1).min().unwrap_or(0),
    );
    let by_rows = xs <= ys;
    let mut is_touched = vec![false; pos.len()];
    for &t in &touched {
        is_touched[t as usize] = true;
    }
    let mut index = vec![0u32; pos.len()];
    let (mut nrows, mut ncols) = (0usize, 0usize);
    let mut touched_rows = 0;
    let mut touched_cols = 0;
    for pass in [false, true] {
        let mut order: Vec<u32> = (0..pos.len() as u32)
            .filter(|&v| is_touched[v as usize] == pass)
            .collect();
        if !pass {
            order.sort_by_key(|&v| {
                let (x, y) = pos[v as usize];
                if by_rows { (y, x) } else { (x, y) }
            });
        }
        for v in order {
            let k = if colour[v as usize] {
                ncols += 1;
                ncols - 1
            } else {
                nrows += 1;
                nrows - 1
            };
            index[v as usize] = k as u32;
        }
        if !pass {
            touched_rows = nrows;
            touched_cols = ncols;
        }
    }
    if nrows - touched_rows > MAX_TOUCHED || ncols - touched_cols > MAX_TOUCHED {
        return Planned::Unsuited;
    }
    let mut entries = vec![Vec::new(); nrows];
    let row_col = |e: usize| {
        let (u, v, _) = edges[e];
        let (r, c) = if colour[u as usize] { (v, u) } else { (u, v) };
        debug_assert!(colour[r as usize] != colour[c as usize]);
        (index[r as usize], index[c as usize])
    };
    for e in 0..edges.len() {
        let (r, c) = row_col(e);
        entries[r as usize].push((c, sign[e]));
    }
    let flips = flip_edges
        .iter()
        .map(|&e| {
            let (r, c) = row_col(e as usize);
            (r, c, sign[e as usize])
        })
        .collect();
    // Cases: one leaf per branch cell, consistent on shared branch sides, no vertex deleted
    // twice.
    let delete_bit = |v: u32| -> (bool, u64) {
        let k = index[v as usize] as usize;
        if colour[v as usize] {
            (true, 1u64 << (k - touched_cols))
        } else {
            (false, 1u64 << (k - touched_rows))
        }
    };
    let mut cases = Vec::new();
    let mut choice = vec![0usize; branch_cells.len()];
    let mut leaf_of = vec![u8::MAX; n];
    // Depth-first over branch cells with explicit counters.
    let mut depth = 0usize;
    let mut acc: Vec<Deletion> = vec![
        Deletion {
            rows: 0,
            cols: 0,
            flips: 0,
        };
        branch_cells.len() + 1
    ];
    loop {
        if depth == branch_cells.len() {
            cases.push(acc[depth]);
            if cases.len() > MAX_CASES {
                return Planned::Unsuited;
            }
            if depth == 0 {
                break;
            }
            depth -= 1;
            choice[depth] += 1;
            continue;
        }
        let i = branch_cells[depth];
        if choice[depth] >= leaves[i].len() {
            leaf_of[i] = u8::MAX;
            choice[depth] = 0;
            if depth == 0 {
                break;
            }
            depth -= 1;
            choice[depth] += 1;
            continue;
        }
        let leaf = leaves[i][choice[depth]];
        leaf_of[i] = leaf;
        let consistent = agree.iter().all(|&(a, d, b, o)| {
            let (la, lb) = (leaf_of[a], leaf_of[b]);
            la == u8::MAX || lb == u8::MAX || (la & bit(d) != 0) == (lb & bit(o) != 0)
        });
        let mut del = acc[depth];
        del.flips ^= leaf_flips[i][choice[depth]];
        let mut ok = consistent;
        for &(d, v, _) in &deletes[i] {
            if ok && leaf & bit(d as usize) != 0 {
                let (is_col, b) = delete_bit(v);
                let slot = if is_col { &mut del.cols } else { &mut del.rows };
                ok = *slot & b == 0;
                *slot |= b;
            }
        }
        if !ok {
            choice[depth] += 1;
            continue;
        }
        acc[depth + 1] = del;
        depth += 1;
    }
    let matrix = SignedMatrix {
        rows: nrows,
        cols: ncols,
        entries,
        touched_rows,
        touched_cols,
        flips,
    };
    let t = (nrows - touched_rows).max(ncols - touched_cols) as u64;
    let primes = u64::from(matrix.hadamard_bits() + 2).div_ceil(u64::from(modular_det::PRIME_BITS));
    if cases.len() as u64 * primes * (t * t * t / 3 + 1) > MAX_CASE_WORK {
        return Planned::Unsuited;
    }
    Planned::Matrix(Plan {
        matrix,
        cases,
        branch_cells: branch_cells.len(),
    })
}

/// A plane graph drawn with axis-parallel edges (at most one per direction at a vertex): its
/// faces, components and a spanning forest, for Kasteleyn signs.
pub struct Drawing<'a> {
    edges: &'a [(u32, u32, u8)],
    /// Per vertex and direction: the half-edge leaving it (2e: u→v, 2e+1: v→u) or `u32::MAX`.
    adj: Vec<[u32; 4]>,
    /// Face of each half-edge, and each face's boundary walk.
    face_of: Vec<u32>,
    faces: Vec<Vec<u32>>,
    outer: Vec<bool>,
    in_tree: Vec<bool>,
}

impl<'a> Drawing<'a> {
    /// The drawing of vertices at `pos` and edges (u, v, direction from u: N, E, S, W);
    /// `None` if two edges leave a vertex in the same direction.
    pub fn new(pos: &[(i64, i64)], edges: &'a [(u32, u32, u8)]) -> Option<Drawing<'a>> {
        let nv = pos.len();
        let mut adj = vec![[u32::MAX; 4]; nv];
        for (e, &(u, v, d)) in edges.iter().enumerate() {
            let d = d as usize;
            let (u, v) = (u as usize, v as usize);
            if adj[u][d] != u32::MAX || adj[v][opposite(d)] != u32::MAX {
                return None;
            }
            adj[u][d] = 2 * e as u32;
            adj[v][opposite(d)] = 2 * e as u32 + 1;
        }
        let mut d = Drawing {
            edges,
            adj,
            face_of: vec![u32::MAX; 2 * edges.len()],
            faces: Vec::new(),
            outer: Vec::new(),
            in_tree: vec![false; edges.len()],
        };
        // Faces: the next half-edge turns clockwise from the way back.
        let mut area: Vec<i64> = Vec::new();
        for h0 in 0..2 * edges.len() as u32 {
            if d.face_of[h0 as usize] != u32::MAX {
                continue;
            }
            let f = d.faces.len() as u32;
            let mut walk = Vec::new();
            let mut a = 0i64;
            let mut h = h0;
            loop {
                d.face_of[h as usize] = f;
                walk.push(h);
                let (p, q) = (pos[d.tail(h)], pos[d.head(h)]);
                a += p.0 * q.1 - q.0 * p.1;
                let v = d.head(h);
                let back = opposite(d.dir(h));
                h = (1..=4)
                    .map(|t| d.adj[v][(back + t) % 4])
                    .find(|&x| x != u32::MAX)
                    .expect("the way back exists");
                if h == h0 {
                    break;
                }
            }
            d.faces.push(walk);
            area.push(a);
        }
        // Spanning forest (breadth-first) and components.
        let mut comp = vec![u32::MAX; nv];
        let mut queue = Vec::new();
        let mut ncomp = 0u32;
        for s in 0..nv {
            if comp[s] != u32::MAX {
                continue;
            }
            comp[s] = ncomp;
            queue.clear();
            queue.push(s);
            let mut at = 0;
            while at < queue.len() {
                let v = queue[at];
                at += 1;
                for &h in &d.adj[v] {
                    if h == u32::MAX {
                        continue;
                    }
                    let w = d.head(h);
                    if comp[w] == u32::MAX {
                        comp[w] = ncomp;
                        d.in_tree[(h / 2) as usize] = true;
                        queue.push(w);
                    }
                }
            }
            ncomp += 1;
        }
        // Outer face of each component: the one of least signed area (inner faces are
        // positive).
        let mut outer = vec![u32::MAX; ncomp as usize];
        for (f, walk) in d.faces.iter().enumerate() {
            let k = comp[d.tail(walk[0])] as usize;
            if outer[k] == u32::MAX || area[f] < area[outer[k] as usize] {
                outer[k] = f as u32;
            }
        }
        d.outer = vec![false; d.faces.len()];
        for f in outer {
            if f != u32::MAX {
                d.outer[f as usize] = true;
            }
        }
        Some(d)
    }

    fn head(&self, h: u32) -> usize {
        let (u, v, _) = self.edges[(h / 2) as usize];
        (if h.is_multiple_of(2) { v } else { u }) as usize
    }

    fn tail(&self, h: u32) -> usize {
        let (u, v, _) = self.edges[(h / 2) as usize];
        (if h.is_multiple_of(2) { u } else { v }) as usize
    }

    fn dir(&self, h: u32) -> usize {
        let d = self.edges[(h / 2) as usize].2 as usize;
        if h.is_multiple_of(2) { d } else { opposite(d) }
    }

    /// The face around vertex `v` in the free direction `slot` (where a pendant edge drawn
    /// that way would lie); `None` for an isolated vertex.
    pub fn face_at(&self, v: u32, slot: usize) -> Option<u32> {
        (1..=4)
            .map(|t| self.adj[v as usize][(slot + t) % 4])
            .find(|&h| h != u32::MAX)
            .map(|h| self.face_of[h as usize])
    }

    /// Kasteleyn signs (true: +1) with face `f`'s condition flipped when `defect[f]` (a pendant
    /// vertex drawn in it), or `None` if the construction fails (not a plane drawing).
    pub fn signs(&self, defect: &[bool]) -> Option<Vec<bool>> {
        let faces = &self.faces;
        let mut sign = vec![true; self.edges.len()];
        let mut signed = self.in_tree.clone();
        let mut unsigned = vec![0u32; faces.len()];
        for (f, walk) in faces.iter().enumerate() {
            unsigned[f] = walk.iter().filter(|&&h| !signed[(h / 2) as usize]).count() as u32;
        }
        let mut ready: Vec<usize> = (0..faces.len())
            .filter(|&f| !self.outer[f] && unsigned[f] == 1)
            .collect();
        while let Some(f) = ready.pop() {
            if unsigned[f] != 1 {
                continue;
            }
            let walk = &faces[f];
            // Boundary of length 2m: the product of signs must be (−1)^(m−1), i.e. +1 for
            // odd m; a pendant in the face adds one to m.
            let mut last_plus = (walk.len() / 2 % 2 == 1) ^ defect[f];
            let mut last = None;
            for &h in walk {
                let e = (h / 2) as usize;
                if signed[e] {
                    last_plus ^= !sign[e];
                } else {
                    last = Some(h);
                }
            }
            let h = last.expect("one unsigned edge");
            let e = (h / 2) as usize;
            sign[e] = last_plus;
            signed[e] = true;
            unsigned[f] = 0;
            let g = self.face_of[(h ^ 1) as usize] as usize;
            unsigned[g] -= 1;
            if unsigned[g] == 1 && !self.outer[g] {
                ready.push(g);
            }
        }
        signed.iter().all(|&s| s).then_some(sign)
    }

    /// Edges whose sign flips change the conditions of exactly the inner faces listed an odd
    /// number of times in `faces`: shortest dual paths pairing them up (or to an outer face).
    pub fn flips_between(&self, faces: &[u32]) -> Vec<u32> {
        let nf = self.faces.len();
        let mut odd = vec![false; nf];
        for &f in faces {
            if !self.outer[f as usize] {
                odd[f as usize] ^= true;
            }
        }
        let mut out: Vec<u32> = Vec::new();
        let mut prev = vec![u32::MAX; nf];
        let mut seen = vec![false; nf];
        while let Some(src) = (0..nf).find(|&f| odd[f]) {
            odd[src] = false;
            seen.fill(false);
            seen[src] = true;
            let mut queue = vec![src];
            let mut at = 0;
            let mut goal = None;
            while at < queue.len() {
                let f = queue[at];
                at += 1;
                if f != src && (odd[f] || self.outer[f]) {
                    goal = Some(f);
                    break;
                }
                for &h in &self.faces[f] {
                    let g = self.face_of[(h ^ 1) as usize] as usize;
                    if !seen[g] {
                        seen[g] = true;
                        prev[g] = h;
                        queue.push(g);
                    }
                }
            }
            let Some(mut f) = goal else {
                continue;
            };
            odd[f] = false;
            while f != src {
                let h = prev[f];
                out.push(h / 2);
                f = self.face_of[h as usize] as usize;
            }
        }
        // An edge crossed twice is not flipped.
        out.sort_unstable();
        let mut dedup: Vec<u32> = Vec::new();
        for e in out {
            if dedup.last() == Some(&e) {
                dedup.pop();
            } else {
                dedup.push(e);
            }
        }
        dedup
    }
}

/// Kasteleyn signs (true: +1) of a plane graph whose vertices are at `pos` and whose edges
/// (u, v, direction from u: N, E, S, W) are axis-parallel segments meeting only at their ends,
/// at most one per direction at a vertex. `None` if the drawing is not such a graph.
#[cfg(test)]
fn kasteleyn_signs(pos: &[(i64, i64)], edges: &[(u32, u32, u8)]) -> Option<Vec<bool>> {
    let d = Drawing::new(pos, edges)?;
    d.signs(&vec![false; d.faces.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Domino tilings of an h × w rectangle, as perfect matchings of the grid graph.
    fn tilings(h: usize, w: usize) -> BigUint {
        let mut pos = Vec::new();
        let mut edges = Vec::new();
        for r in 0..h {
            for c in 0..w {
                pos.push((4 * c as i64, 4 * r as i64));
                let v = (r * w + c) as u32;
                if c + 1 < w {
                    edges.push((v, v + 1, 1));
                }
                if r + 1 < h {
                    edges.push((v, v + w as u32, 2));
                }
            }
        }
        let sign = kasteleyn_signs(&pos, &edges).expect("a plane graph");
        let black = |v: u32| (v as usize / w + v as usize % w).is_multiple_of(2);
        let mut rows = vec![0u32; h * w];
        let (mut nr, mut nc) = (0, 0);
        for v in 0..(h * w) as u32 {
            if black(v) {
                rows[v as usize] = nr;
                nr += 1;
            } else {
                rows[v as usize] = nc;
                nc += 1;
            }
        }
        let mut entries = vec![Vec::new(); nr as usize];
        for (e, &(u, v, _)) in edges.iter().enumerate() {
            let (b, wv) = if black(u) { (u, v) } else { (v, u) };
            entries[rows[b as usize] as usize].push((rows[wv as usize], sign[e]));
        }
        let m = SignedMatrix {
            rows: nr as usize,
            cols: nc as usize,
            entries,
            touched_rows: nr as usize,
            touched_cols: nc as usize,
            flips: Vec::new(),
        };
        m.sum_abs_dets(&[Deletion {
            rows: 0,
            cols: 0,
            flips: 0,
        }])
    }

    #[test]
    fn fkt_signs_count_domino_tilings() {
        let mut fib = (1u64, 2u64);
        for n in 1..30 {
            assert_eq!(tilings(2, n), BigUint::from(fib.0), "2x{n}");
            fib = (fib.1, fib.0 + fib.1);
        }
        assert_eq!(tilings(8, 8), BigUint::from(12_988_816u64));
        assert_eq!(tilings(3, 4), BigUint::from(11u32));
        assert_eq!(tilings(3, 5), BigUint::ZERO);
        assert_eq!(tilings(6, 6), BigUint::from(6728u32));
        // 30x30 (OEIS A004003 would do; compare with the transposed drawing instead).
        assert_eq!(tilings(12, 10), tilings(10, 12));
    }

    #[test]
    fn leaf_and_gadget_sets() {
        assert_eq!(ones(0b0101), (1 << 1) | (1 << 4));
        assert_eq!(all_but_one(0b0111), (1 << 6) | (1 << 5) | (1 << 3));
        assert!(gadget_of(0b1111, all_but_one(0b1111)) == Some(Gadget::Star));
        assert!(gadget_of(0b0011, ones(0b0011)) == Some(Gadget::Vertex));
        assert!(gadget_of(0b1111, (1 << 3) | (1 << 6) | (1 << 12) | (1 << 9)).is_none());
    }
}

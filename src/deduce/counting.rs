//! Rung 4's counting rule: open ends must pair up. Call a side *open* when the position
//! does not yet say whether it connects, and a cell's *open ends* its connections not yet
//! placed (its piece's ends minus its sides surely connected). In every solution each open
//! end of a cell is placed on one of its open sides, and a connection across an open side
//! uses an open end of both cells. So in a set of cells whose only open side to the rest of
//! the board is one side `e`, the open ends pair with each other, except one across `e` if
//! `e` connects: `e` connects exactly when their number is odd. On a board whose cells two
//! colour (dark and light; every connection joins one of each, as on a square grid without
//! an odd wrap) the count is sharper: the dark cells' open ends minus the light ones' must
//! be what `e` carries, 0 or 1 (±1 by the colour of `e`'s cell).
//!
//! Such sets are found as bridges: the cells joined by open sides form components, and a
//! bridge (an open side whose removal splits its component) leaves each part with that one
//! open side out. A whole component (no open side out) must count even and balance; when it
//! does not, the level has no solution. The smaller part is the one explained.
//!
//! Components are searched again only when a cell in them (or next to them) changed since
//! their last search: a search that found nothing finds nothing until then. The search is
//! Tarjan's bridge finding, iterative, over flat per-cell arrays. A level with many
//! solutions has one large component that every guess changes, and searching it after each
//! would make the solve quadratic: the searches share a budget of [`WORK_PER_CELL`] cell
//! visits per cell (at least [`WORK_FLOOR`]), as the trials do; past it the rule is silent.

/// Cells the searches may visit in all, per cell of the level...
pub const WORK_PER_CELL: u64 = 8;
/// ... and at least this many, so small levels are never cut short.
pub const WORK_FLOOR: u64 = 1 << 16;

use super::position::Position;
use super::why::Detail;
use super::{Deduction, Rule};

/// No side: the start of a component's search was reached by none.
const NONE: u8 = u8::MAX;

/// The counting rule's scratch (see the module doc).
pub struct Counting {
    /// Per cell +1 (dark) or -1 (light) when the board's possible connections two-colour.
    colour: Option<Vec<i8>>,
    /// Cells changed (or next to a change) whose component is to be searched again.
    dirty: Vec<u32>,
    dirty_in: Vec<bool>,
    /// The search number that last reached each cell, so no array is cleared per search.
    seen: Vec<u32>,
    search: u32,
    /// Per cell: preorder number, lowest preorder reachable, side it was reached by, and
    /// its subtree's cells, open ends, and dark-minus-light open ends.
    tin: Vec<u32>,
    low: Vec<u32>,
    entry: Vec<u8>,
    size: Vec<u32>,
    ends: Vec<i32>,
    balance: Vec<i32>,
    /// The cells of the component being searched, in preorder (a subtree is a range).
    order: Vec<u32>,
    /// Per cell on the search's path: the cell, the cell it was reached from, and its open
    /// sides not yet followed (going back up needs no lookup of the entry side).
    stack: Vec<(u32, u32, u8)>,
    /// Bridges of the component: the child cell (below the side it was reached by).
    bridges: Vec<u32>,
    /// Cells visited by every search so far, and the budget for them.
    work: u64,
    budget: u64,
}

/// Where a region's count leads: the cell and side concluded, whether that side connects
/// (`None`: the count cannot be met), and the counts.
struct Count {
    cell: usize,
    side: u8,
    on: Option<bool>,
    ends: i32,
    balance: Option<i32>,
}

impl Counting {
    /// Scratch for `pos`, every cell to be searched.
    pub fn new(pos: &Position) -> Counting {
        let n = pos.len();
        Counting {
            colour: two_colouring(pos),
            dirty: (0..n as u32).rev().collect(),
            dirty_in: vec![true; n],
            seen: vec![0; n],
            search: 0,
            tin: vec![0; n],
            low: vec![0; n],
            entry: vec![NONE; n],
            size: vec![0; n],
            ends: vec![0; n],
            balance: vec![0; n],
            order: Vec::new(),
            stack: Vec::new(),
            bridges: Vec::new(),
            work: 0,
            budget: (WORK_PER_CELL * n as u64).max(WORK_FLOOR),
        }
    }

    /// `cell` changed: its component and its neighbours' are to be searched again.
    pub fn touched(&mut self, pos: &Position, cell: usize) {
        self.mark(cell);
        for s in 0..pos.k {
            if let Some((n, _)) = pos.across(cell, s) {
                self.mark(n);
            }
        }
    }

    fn mark(&mut self, cell: usize) {
        if !self.dirty_in[cell] {
            self.dirty_in[cell] = true;
            self.dirty.push(cell as u32);
        }
    }

    /// A counting deduction from the first changed component that has one.
    pub fn find(&mut self, pos: &Position) -> Option<Deduction> {
        while self.work < self.budget
            && let Some(c) = self.dirty.pop()
        {
            let c = c as usize;
            if !self.dirty_in[c] {
                continue;
            }
            self.dirty_in[c] = false;
            if pos.decided(c) {
                continue;
            }
            self.search_component(pos, c);
            self.work += self.order.len() as u64;
            for &x in &self.order {
                self.dirty_in[x as usize] = false;
            }
            if let Some(d) = self.conclude(pos) {
                return Some(d);
            }
        }
        None
    }

    /// Tarjan's bridges over the open sides of `start`'s component, summing each subtree's
    /// open ends on the way back up.
    fn search_component(&mut self, pos: &Position, start: usize) {
        self.search += 1;
        self.order.clear();
        self.bridges.clear();
        let open = self.visit(pos, start, NONE);
        self.stack.push((start as u32, u32::MAX, open));
        while let Some(&mut (u, parent, ref mut rest)) = self.stack.last_mut() {
            let u = u as usize;
            if *rest != 0 {
                let s = rest.trailing_zeros() as usize;
                *rest &= *rest - 1;
                let l = pos.links_of(u)[s];
                let (v, t) = ((l >> 3) as usize, (l & 7) as u8);
                if v == u {
                    continue;
                }
                if self.seen[v] == self.search {
                    self.low[u] = self.low[u].min(self.tin[v]);
                } else {
                    let open = self.visit(pos, v, t);
                    self.stack.push((v as u32, u as u32, open));
                }
                continue;
            }
            self.stack.pop();
            if parent == u32::MAX {
                continue;
            }
            let p = parent as usize;
            self.low[p] = self.low[p].min(self.low[u]);
            self.size[p] += self.size[u];
            self.ends[p] += self.ends[u];
            self.balance[p] += self.balance[u];
            if self.low[u] > self.tin[p] {
                self.bridges.push(u as u32);
            }
        }
    }

    /// Numbers `c`, reached across its side `entry`, and sums its open ends; its open sides
    /// but `entry`.
    fn visit(&mut self, pos: &Position, c: usize, entry: u8) -> u8 {
        self.seen[c] = self.search;
        self.tin[c] = self.order.len() as u32;
        self.low[c] = self.tin[c];
        self.entry[c] = entry;
        self.order.push(c as u32);
        self.size[c] = 1;
        let (sides, open) = open_sides_and_ends(pos, c);
        self.ends[c] = open;
        self.balance[c] = self.colour.as_ref().map_or(0, |col| col[c] as i32 * open);
        if entry == NONE {
            sides
        } else {
            sides & !(1 << entry)
        }
    }

    /// The deduction of the searched component: a contradiction when the whole does not
    /// count out, else the bridge with the smallest part whose count says something.
    fn conclude(&self, pos: &Position) -> Option<Deduction> {
        let root = *self.order.first()? as usize;
        let (total, total_bal) = (self.ends[root], self.balance[root]);
        let unbalanced = self.colour.is_some() && total_bal != 0;
        if total % 2 != 0 || unbalanced {
            let count = Count {
                cell: root,
                side: NONE,
                on: None,
                ends: total,
                balance: self.colour.as_ref().map(|_| total_bal),
            };
            return Some(self.deduction(pos, &count, &self.order));
        }
        let mut best: Option<(u32, u32)> = None;
        for &child in &self.bridges {
            let inside = self.size[child as usize];
            let part = inside.min(self.order.len() as u32 - inside);
            if best.is_none_or(|(_, p)| part < p) {
                best = Some((child, part));
            }
        }
        let (child, _) = best?;
        let child = child as usize;
        let from = self.tin[child] as usize;
        let sub = &self.order[from..from + self.size[child] as usize];
        let entry = self.entry[child] as usize;
        let count = if 2 * sub.len() <= self.order.len() {
            self.count(child, entry, self.ends[child], self.balance[child])
        } else {
            let (p, s) = pos.across(child, entry).expect("a bridge");
            self.count(
                p,
                s,
                total - self.ends[child],
                total_bal - self.balance[child],
            )
        };
        let region: Vec<u32> = if 2 * sub.len() <= self.order.len() {
            sub.to_vec()
        } else {
            let end = from + sub.len();
            [&self.order[..from], &self.order[end..]].concat()
        };
        Some(self.deduction(pos, &count, &region))
    }

    /// What the count of a part with `ends` open ends (`balance` dark minus light) says
    /// about its one open side out, `side` of `cell`.
    fn count(&self, cell: usize, side: usize, ends: i32, balance: i32) -> Count {
        let on = match &self.colour {
            Some(col) => match balance * col[cell] as i32 {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            },
            None => Some(ends % 2 != 0),
        };
        Count {
            cell,
            side: side as u8,
            on,
            ends,
            balance: self.colour.as_ref().map(|_| balance),
        }
    }

    fn deduction(&self, pos: &Position, count: &Count, region: &[u32]) -> Deduction {
        let cell = count.cell;
        let before = pos.dom[cell];
        let after = match count.on {
            None => 0,
            Some(true) => pos.fitting(cell, before, 1 << count.side, 0),
            Some(false) => pos.fitting(cell, before, 0, 1 << count.side),
        };
        let mut read = vec![cell];
        read.extend(region.iter().map(|&c| c as usize).filter(|&c| c != cell));
        let (dark, light) = match (&self.colour, count.balance) {
            (Some(col), Some(_)) => region.iter().fold((0, 0), |(d, l), &c| {
                let e = open_ends(pos, c as usize);
                if col[c as usize] > 0 {
                    (d + e, l)
                } else {
                    (d, l + e)
                }
            }),
            _ => (0, 0),
        };
        Deduction {
            rule: Rule::Counting,
            cell,
            read,
            before,
            after,
            detail: Detail::Counting {
                cells: region.len() as u32,
                ends: count.ends,
                coloured: self.colour.is_some(),
                dark,
                light,
                side: count.side,
            },
        }
    }
}

/// The sides of `cell` the position does not yet say whether they connect (a wall is said
/// not to), and the ends of its piece not yet placed: its ends minus its sides surely
/// connected.
fn open_sides_and_ends(pos: &Position, cell: usize) -> (u8, i32) {
    // The side count a constant for today's tilings, so the loop over sides unrolls.
    match pos.k {
        4 => open_sides_and_ends_in(pos, cell, links_k::<4>(pos, cell)),
        6 => open_sides_and_ends_in(pos, cell, links_k::<6>(pos, cell)),
        _ => open_sides_and_ends_in(pos, cell, pos.links_of(cell)),
    }
}

#[inline(always)]
fn links_k<const K: usize>(pos: &Position, cell: usize) -> &[u32; K] {
    pos.links_of(cell).try_into().expect("K sides")
}

#[inline(always)]
fn open_sides_and_ends_in(pos: &Position, cell: usize, links: &[u32]) -> (u8, i32) {
    let (must, may) = (pos.must(cell), pos.may(cell));
    let (mut open, mut placed) = (0u8, must);
    for (s, &l) in links.iter().enumerate() {
        let (n, t) = ((l >> 3) as usize, l & 7);
        let on = pos.must(n) >> t & 1;
        placed |= on << s;
        let sure = (must >> s | on) & 1;
        let never = (!may >> s | !pos.may(n) >> t) & 1;
        open |= (1 ^ (sure | never)) << s;
    }
    let ends = pos.degree(cell) as i32 - placed.count_ones() as i32;
    (open, ends)
}

/// The ends of `cell`'s piece not yet placed (see [`open_sides_and_ends`]).
fn open_ends(pos: &Position, cell: usize) -> i32 {
    open_sides_and_ends(pos, cell).1
}

/// +1 or -1 per cell such that every side a connection may cross joins opposite colours,
/// if there is such a colouring (breadth first from each uncoloured cell).
fn two_colouring(pos: &Position) -> Option<Vec<i8>> {
    let n = pos.len();
    let mut colour = vec![0i8; n];
    let mut queue = Vec::new();
    for start in 0..n {
        if colour[start] != 0 {
            continue;
        }
        colour[start] = 1;
        queue.push(start);
        while let Some(c) = queue.pop() {
            for s in 0..pos.k {
                let Some((m, _)) = pos.across(c, s) else {
                    continue;
                };
                if colour[m] == 0 {
                    colour[m] = -colour[c];
                    queue.push(m);
                } else if colour[m] == colour[c] {
                    return None;
                }
            }
        }
    }
    Some(colour)
}

//! Regions: after propagation, the undecided cells fall into groups joined by sides between
//! two undecided cells. Decided cells never change again, so each region is a problem of its
//! own: [`sub_network`] copies one out with every side towards a decided cell fixed on or off.

use std::borrow::Cow;

use super::network::{FIXED_OFF, FIXED_ON, Network};
use super::search::{Budget, Stop};
use crate::board::Links;
use crate::par::*;

/// A set of cells as a bitmap with, per word, how many cells come before it: a cell's rank
/// in the set is two reads, so a table over the set's cells is as long as the set. At
/// 4096x4096 a table over every cell is 67 MB, most of whose pages a sparse set touches
/// anyway, and the kernel's zeroing of fresh pages was a fifth of a hexagonal loops solve.
struct Ranked {
    bits: Vec<u64>,
    before: Vec<u32>,
}

impl Ranked {
    /// The set from its bitmap.
    fn new(bits: Vec<u64>) -> Ranked {
        let mut count = 0u32;
        let before = bits
            .iter()
            .map(|w| {
                let b = count;
                count += w.count_ones();
                b
            })
            .collect();
        Ranked { bits, before }
    }

    /// Whether `c` is in the set.
    #[inline(always)]
    fn contains(&self, c: usize) -> bool {
        self.bits[c / 64] >> (c % 64) & 1 == 1
    }

    /// The number of cells of the set before `c`.
    #[inline(always)]
    fn rank(&self, c: usize) -> usize {
        let below = self.bits[c / 64] & ((1u64 << (c % 64)) - 1);
        self.before[c / 64] as usize + below.count_ones() as usize
    }

    /// How many cells the set holds.
    fn len(&self) -> usize {
        self.before.last().map_or(0, |&b| b as usize)
            + self.bits.last().map_or(0, |w| w.count_ones() as usize)
    }

    /// The set's cells, ascending.
    fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &bits)| {
            std::iter::successors((bits != 0).then_some(bits), |&b| {
                let rest = b & (b - 1);
                (rest != 0).then_some(rest)
            })
            .map(move |b| w * 64 + b.trailing_zeros() as usize)
        })
    }
}

/// The undecided cells of `dom`, grouped into regions, largest first (ties: by first cell),
/// each region's cells ascending. Two passes over every undecided cell: a good part of a
/// second at 4096x4096 on a loaded host, so `budget` is looked at every [`COPY_CHECK`]
/// cells.
///
/// A union-find filled in one pass in cell order, each cell joined to its undecided
/// neighbours before it, rather than a walk of each region: the walk's jumps cost half of a
/// 4096x4096 solve whose one region has every cell. Its entries are the undecided cells'
/// ranks ([`Ranked`]). A root is always the smallest of its set (the larger root is the one
/// that moves), so `parent[i] <= i` throughout, and one more pass in order flattens every
/// cell onto its root.
pub fn regions(net: &Network, dom: &[u8], budget: &Budget) -> Result<Vec<Vec<u32>>, Stop> {
    let k = net.k;
    let n = dom.len();
    // The undecided cells a bit each: the passes below walk them a word at a time, where
    // a test per cell was most of their time on a level propagation nearly decided.
    // In parallel: one thread took 20 ms at 4096x4096.
    let mut bits = vec![0u64; n.div_ceil(64)];
    bits.par_chunks_mut(COPY_CHECK / 64)
        .zip(dom.par_chunks(COPY_CHECK))
        .try_for_each(|(words, doms)| {
            budget.check()?;
            for (word, doms) in words.iter_mut().zip(doms.chunks(64)) {
                *word = doms.iter().enumerate().fold(0u64, |bits, (b, d)| {
                    bits | ((d & d.wrapping_sub(1) != 0) as u64) << b
                });
            }
            Ok(())
        })?;
    let open = Ranked::new(bits);
    let mut parent: Vec<u32> = Vec::with_capacity(open.len());
    let find = |parent: &mut [u32], mut i: u32| {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    };
    for (i, c) in open.cells().enumerate() {
        if i.is_multiple_of(COPY_CHECK) {
            budget.check()?;
        }
        parent.push(i as u32);
        for s in 0..k {
            let l = net.links.get(c, s);
            if l >= FIXED_ON {
                continue;
            }
            let nb = (l >> 3) as usize;
            if nb < c && open.contains(nb) {
                let j = open.rank(nb) as u32;
                let (a, b) = (find(&mut parent, i as u32), find(&mut parent, j));
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi as usize] = lo;
            }
        }
    }
    // Roots come before their members, so a root's entry can hold its region's number
    // (tagged) once every smaller cell points straight at its root.
    const TAG: u32 = 1 << 31;
    let mut out: Vec<Vec<u32>> = Vec::new();
    for (i, c) in open.cells().enumerate() {
        if i.is_multiple_of(COPY_CHECK) {
            budget.check()?;
        }
        let p = parent[i] as usize;
        if p == i {
            parent[i] = TAG | out.len() as u32;
            out.push(vec![c as u32]);
        } else {
            // `p < i`: already flattened onto its root, or the root itself (tagged).
            let root = if parent[p] & TAG != 0 {
                p
            } else {
                parent[p] as usize
            };
            parent[i] = root as u32;
            out[(parent[root] & !TAG) as usize].push(c as u32);
        }
    }
    out.sort_by_key(|r| std::cmp::Reverse(r.len()));
    Ok(out)
}

/// Every region's cell positions: [`LocalIndex::get`] of a cell is its index within its
/// region.
pub struct LocalIndex {
    cells: Ranked,
    position: Vec<u32>,
}

impl LocalIndex {
    /// The positions of the cells of `regions` (of a level of `n` cells).
    pub fn new(n: usize, regions: &[Vec<u32>]) -> LocalIndex {
        let mut bits = vec![0u64; n.div_ceil(64)];
        for &c in regions.iter().flatten() {
            bits[c as usize / 64] |= 1 << (c % 64);
        }
        let cells = Ranked::new(bits);
        let mut position = vec![0u32; cells.len()];
        for r in regions {
            for (i, &c) in r.iter().enumerate() {
                position[cells.rank(c as usize)] = i as u32;
            }
        }
        LocalIndex { cells, position }
    }

    /// The index of `c` (a cell of a region) within its region.
    #[inline]
    pub fn get(&self, c: usize) -> u32 {
        debug_assert!(self.cells.contains(c), "cell {c} is in a region");
        self.position[self.cells.rank(c)]
    }
}

/// The network of `cells` (one region of `dom`) on its own, numbered in the order given, and
/// their domains. `local` gives every cell of the region its position.
///
/// A region of millions of cells takes a good part of a second to copy, so `budget` is
/// looked at every [`COPY_CHECK`] cells.
pub fn sub_network<'a>(
    net: &Network<'a>,
    dom: &[u8],
    cells: &[u32],
    local: &LocalIndex,
    budget: &Budget,
) -> Result<(Network<'a>, Vec<u8>), Stop> {
    let k = net.k;
    let mut links = Vec::with_capacity(cells.len() * k);
    for (i, &c) in cells.iter().enumerate() {
        if i.is_multiple_of(COPY_CHECK) && i > 0 {
            budget.check()?;
        }
        let c = c as usize;
        for s in 0..k {
            let l = net.links.get(c, s);
            links.push(if l >= FIXED_ON {
                l
            } else {
                let (n, t) = ((l >> 3) as usize, l & 7);
                if dom[n].count_ones() > 1 {
                    local.get(n) << 3 | t
                } else {
                    let sh = net.shapes.get(net.shape[n]);
                    if sh.must[dom[n] as usize] >> t & 1 == 1 {
                        FIXED_ON
                    } else {
                        FIXED_OFF
                    }
                }
            });
        }
    }
    let sub = Network {
        k,
        shapes: net.shapes,
        shape: Cow::Owned(cells.iter().map(|&c| net.shape[c as usize]).collect()),
        links: Links::Table {
            k,
            links: Cow::Owned(links),
        },
        lattice: None,
    };
    let sub_dom = cells.iter().map(|&c| dom[c as usize]).collect();
    Ok((sub, sub_dom))
}

/// Cells read by [`regions`] or copied by [`sub_network`] between two looks at the budget.
const COPY_CHECK: usize = 1 << 16;

//! Regions: after propagation, the undecided cells fall into groups joined by sides between
//! two undecided cells. Decided cells never change again, so each region is a problem of its
//! own: [`sub_network`] copies one out with every side towards a decided cell fixed on or off.

use std::borrow::Cow;

use super::network::{FIXED_OFF, FIXED_ON, Network};
use super::search::{Budget, Stop};

/// The undecided cells of `dom`, grouped into regions, largest first (ties: by first cell),
/// each region's cells ascending. Two passes over every undecided cell: a good part of a
/// second at 4096x4096 on a loaded host, so `budget` is looked at every [`COPY_CHECK`]
/// cells.
///
/// A union-find filled in one pass in cell order, each cell joined to its undecided
/// neighbours before it, rather than a walk of each region: the walk's jumps cost half of a
/// 4096x4096 solve whose one region has every cell. A root is always the smallest cell of its
/// set (the larger root is the one that moves), so `parent[c] <= c` throughout, and one more
/// pass in cell order flattens every cell onto its root.
pub fn regions(net: &Network, dom: &[u8], budget: &Budget) -> Result<Vec<Vec<u32>>, Stop> {
    let k = net.k;
    let n = dom.len();
    let open = |c: usize| dom[c].count_ones() > 1;
    // The undecided cells a bit each: the passes below walk them a word at a time, where
    // a test per cell was most of their time on a level propagation nearly decided.
    let mut undecided = Vec::with_capacity(n.div_ceil(64));
    for (i, doms) in dom.chunks(64).enumerate() {
        if (i * 64).is_multiple_of(COPY_CHECK) {
            budget.check()?;
        }
        undecided.push(doms.iter().enumerate().fold(0u64, |bits, (b, d)| {
            bits | ((d & d.wrapping_sub(1) != 0) as u64) << b
        }));
    }
    let cells = || {
        undecided.iter().enumerate().flat_map(|(w, &bits)| {
            std::iter::successors((bits != 0).then_some(bits), |&b| {
                let rest = b & (b - 1);
                (rest != 0).then_some(rest)
            })
            .map(move |b| w * 64 + b.trailing_zeros() as usize)
        })
    };
    // Zeroed, so untouched pages cost nothing; a cell's entry is set when it is reached,
    // after every smaller one.
    let mut parent: Vec<u32> = vec![0; n];
    let find = |parent: &mut [u32], mut c: u32| {
        while parent[c as usize] != c {
            let up = parent[parent[c as usize] as usize];
            parent[c as usize] = up;
            c = up;
        }
        c
    };
    for (i, c) in cells().enumerate() {
        if i.is_multiple_of(COPY_CHECK) {
            budget.check()?;
        }
        parent[c] = c as u32;
        for &l in &net.links[c * k..c * k + k] {
            if l >= FIXED_ON {
                continue;
            }
            let nb = (l >> 3) as usize;
            if nb < c && open(nb) {
                let (a, b) = (find(&mut parent, c as u32), find(&mut parent, nb as u32));
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi as usize] = lo;
            }
        }
    }
    // Roots come before their members, so a root's entry can hold its region's number
    // (tagged) once every smaller cell points straight at its root.
    const TAG: u32 = 1 << 31;
    let mut out: Vec<Vec<u32>> = Vec::new();
    for (i, c) in cells().enumerate() {
        if i.is_multiple_of(COPY_CHECK) {
            budget.check()?;
        }
        let p = parent[c] as usize;
        if p == c {
            parent[c] = TAG | out.len() as u32;
            out.push(vec![c as u32]);
        } else {
            // `p < c`: already flattened onto its root, or the root itself (tagged).
            let root = if parent[p] & TAG != 0 {
                p
            } else {
                parent[p] as usize
            };
            parent[c] = root as u32;
            out[(parent[root] & !TAG) as usize].push(c as u32);
        }
    }
    out.sort_by_key(|r| std::cmp::Reverse(r.len()));
    Ok(out)
}

/// The network of `cells` (one region of `dom`) on its own, numbered in the order given, and
/// their domains. `local` maps every cell of the region to its position (other entries are
/// not read).
///
/// A region of millions of cells takes a good part of a second to copy, so `budget` is
/// looked at every [`COPY_CHECK`] cells.
pub fn sub_network<'a>(
    net: &Network<'a>,
    dom: &[u8],
    cells: &[u32],
    local: &[u32],
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
            let l = net.links[c * k + s];
            links.push(if l >= FIXED_ON {
                l
            } else {
                let (n, t) = ((l >> 3) as usize, l & 7);
                if dom[n].count_ones() > 1 {
                    local[n] << 3 | t
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
        links: Cow::Owned(links),
        lattice: None,
    };
    let sub_dom = cells.iter().map(|&c| dom[c as usize]).collect();
    Ok((sub, sub_dom))
}

/// Cells read by [`regions`] or copied by [`sub_network`] between two looks at the budget.
const COPY_CHECK: usize = 1 << 16;

/// Every region's position table: `local[c]` is `c`'s index within its region.
pub fn local_indices(n: usize, regions: &[Vec<u32>]) -> Vec<u32> {
    let mut local = vec![0u32; n];
    for r in regions {
        for (i, &c) in r.iter().enumerate() {
            local[c as usize] = i as u32;
        }
    }
    local
}

//! Regions: after propagation, the undecided cells fall into groups joined by sides between
//! two undecided cells. Decided cells never change again, so each region is a problem of its
//! own: [`sub_network`] copies one out with every side towards a decided cell fixed on or off.

use std::borrow::Cow;

use super::network::{FIXED_OFF, FIXED_ON, Network};

/// The undecided cells of `dom`, grouped into regions, largest first.
pub fn regions(net: &Network, dom: &[u8]) -> Vec<Vec<u32>> {
    let k = net.k;
    let mut seen = vec![false; dom.len()];
    let mut out: Vec<Vec<u32>> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..dom.len() {
        if seen[start] || dom[start].count_ones() <= 1 {
            continue;
        }
        seen[start] = true;
        let mut cells = vec![start as u32];
        stack.push(start);
        while let Some(c) = stack.pop() {
            for s in 0..k {
                let l = net.links[c * k + s];
                if l >= FIXED_ON {
                    continue;
                }
                let n = (l >> 3) as usize;
                if !seen[n] && dom[n].count_ones() > 1 {
                    seen[n] = true;
                    cells.push(n as u32);
                    stack.push(n);
                }
            }
        }
        out.push(cells);
    }
    out.sort_by_key(|r| std::cmp::Reverse(r.len()));
    out
}

/// The network of `cells` (one region of `dom`) on its own, numbered in the order given, and
/// their domains. `local` maps every cell of the region to its position (other entries are
/// not read).
pub fn sub_network<'a>(
    net: &Network<'a>,
    dom: &[u8],
    cells: &[u32],
    local: &[u32],
) -> (Network<'a>, Vec<u8>) {
    let k = net.k;
    let mut links = Vec::with_capacity(cells.len() * k);
    for &c in cells {
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
    };
    let sub_dom = cells.iter().map(|&c| dom[c as usize]).collect();
    (sub, sub_dom)
}

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

//! Probing beside a known solution: every orientation of a cell but the known solution's is
//! decided alone and propagated, and removed when that wipes a domain out. A solution
//! survives every propagation, so the known one is never tried and nothing with a solution
//! is removed. A cell left undecided is where a second solution may be; when none is, the
//! known solution is the only one. What the unique generator asks each round: where is this
//! level perhaps ambiguous? (A search for a second solution answers that for one region at
//! a time, and each round's search covers the whole level.)

use super::network::State;
use super::search::{Budget, Stop};
use super::solve::compile;
use crate::board::BoardLevel;

/// Revisions a probe may spend before its orientation is kept (as in [`super::probe`]):
/// stopping a probe early keeps an orientation, which is always sound.
const PROBE_REACH: usize = 256;

/// Probes between two looks at the budget.
const BUDGET_CHECK: usize = 1 << 10;

/// Per cell of `level`, whether it may hold another orientation than in `known` (a solution
/// of `level`) after propagation and probes beside `known`. Cells outside `free` (when
/// given) are held at `known`'s orientations, so only the free ones and what they reach are
/// looked at. All false: `known` is the only solution (of the free cells, when `free` is
/// given).
pub fn undecided_beside(
    level: &BoardLevel,
    known: &BoardLevel,
    free: Option<&[bool]>,
    budget: &Budget,
) -> Result<Vec<bool>, Stop> {
    let compiled = compile(level);
    let net = compiled.network();
    let witness: Vec<u8> = (0..net.len())
        .map(|c| {
            let shape = compiled.shapes.get(compiled.shape[c]);
            let o = shape.masks[..shape.period as usize]
                .iter()
                .position(|&m| m == known.masks()[c])
                .expect("the known solution turns the level's pieces");
            1u8 << o
        })
        .collect();
    let mut dom = net.full_domains();
    if let Some(free) = free {
        for (c, d) in dom.iter_mut().enumerate() {
            if !free[c] {
                *d = witness[c];
            }
        }
    }
    let mut st = State::new(&net, dom);
    assert!(
        st.propagate_all(&net),
        "the known solution survives propagation"
    );
    st.commit();
    let mut todo: Vec<u32> = (0..net.len() as u32)
        .filter(|&c| st.dom[c as usize].count_ones() > 1)
        .collect();
    let mut probes = 0usize;
    while !todo.is_empty() {
        let pass = st.mark();
        for &c in &todo {
            let c = c as usize;
            let mut rest = st.dom[c] & !witness[c];
            while rest != 0 {
                let o = rest & rest.wrapping_neg();
                rest &= rest - 1;
                probes += 1;
                if probes.is_multiple_of(BUDGET_CHECK) {
                    budget.check()?;
                }
                let mark = st.mark();
                let kept = st.decide_within(&net, c, o, PROBE_REACH);
                st.undo(&net, mark);
                if !kept {
                    let narrowed = st.dom[c] & !o;
                    st.set(&net, c, narrowed);
                    assert!(
                        st.propagate(&net),
                        "the known solution survives propagation"
                    );
                }
            }
        }
        // Next pass: the undecided neighbours of what this one narrowed.
        todo.clear();
        st.undecided_neighbours_since(&net, pass, |y| todo.push(y as u32));
        todo.sort_unstable();
        todo.dedup();
    }
    Ok(st.dom.iter().map(|d| d.count_ones() > 1).collect())
}

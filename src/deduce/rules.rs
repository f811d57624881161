//! The rules of rungs 1 to 4, each looking at one cell and returning at most one
//! [`Deduction`] about it: the orientations of that cell the rule rules out, the cells it read,
//! and why. A rule never changes the position; the ladder applies what it returns.

use super::position::Position;
use super::why::Detail;
use super::{Deduction, Rule};
use crate::board::Rules;

fn deduction(
    pos: &Position,
    rule: Rule,
    cell: usize,
    read: Vec<usize>,
    after: u8,
    detail: Detail,
) -> Deduction {
    Deduction {
        rule,
        cell,
        read,
        before: pos.dom[cell],
        after,
        detail,
    }
}

/// Rung 1: `cell` cannot connect across a side that faces the border or a barrier.
pub fn border(pos: &Position, cell: usize) -> Option<Deduction> {
    let forb = pos.walled(cell);
    let d = pos.dom[cell];
    let keep = pos.fitting(cell, d, 0, forb);
    if keep == d {
        return None;
    }
    Some(deduction(
        pos,
        Rule::Border,
        cell,
        vec![cell],
        keep,
        Detail::Border { walls: forb },
    ))
}

/// Rungs 2 and 3: `cell` connects the sides its neighbours surely connect to it and none
/// they surely leave open; with `decided_only`, only decided neighbours count (rung 2),
/// else every neighbour's sides common to all its orientations left (rung 3).
pub fn agree(pos: &Position, cell: usize, decided_only: bool) -> Option<Deduction> {
    let d = pos.dom[cell];
    let walls = pos.walled(cell);
    let (mut req, mut forb) = (0u8, walls);
    // Neighbours whose side says something, by side (named only when the rule fires: most
    // revisions conclude nothing and must not allocate).
    let mut said = 0u8;
    for (s, &l) in pos.links_of(cell).iter().enumerate() {
        if walls >> s & 1 == 1 {
            continue;
        }
        let (n, t) = ((l >> 3) as usize, l & 7);
        if decided_only && !pos.decided(n) {
            continue;
        }
        let (on, off) = (pos.must(n) >> t & 1, !pos.may(n) >> t & 1);
        req |= on << s;
        forb |= off << s;
        said |= (on | off) << s;
    }
    let keep = pos.fitting(cell, d, req, forb);
    if keep == d {
        return None;
    }
    let mut read = vec![cell];
    for s in (0..pos.k).filter(|&s| said >> s & 1 == 1) {
        let n = pos.across(cell, s).expect("a neighbour").0;
        if !read.contains(&n) {
            read.push(n);
        }
    }
    let rule = if decided_only {
        Rule::Neighbour
    } else {
        Rule::Common
    };
    let open = forb & !walls;
    Some(deduction(
        pos,
        rule,
        cell,
        read,
        keep,
        Detail::Agree { req, open },
    ))
}

/// Rung 4, Net rules only: the first of facing ends, loop and island that rules something
/// out at `cell`.
pub fn net(pos: &Position, cell: usize) -> Option<Deduction> {
    if pos.rules() != Rules::Net || pos.decided(cell) {
        return None;
    }
    facing_ends(pos, cell)
        .or_else(|| no_loop(pos, cell))
        .or_else(|| no_island(pos, cell))
}

/// Two one-end pieces facing each other would be a network of two cells; with more pieces
/// than that, `cell` (a one-end piece) does not point at a one-end neighbour.
fn facing_ends(pos: &Position, cell: usize) -> Option<Deduction> {
    if pos.degree(cell) != 1 || pos.nonempty() <= 2 {
        return None;
    }
    let d = pos.dom[cell];
    let mut forb = 0u8;
    for s in 0..pos.k {
        if pos.across(cell, s).is_some_and(|(n, _)| pos.degree(n) == 1) {
            forb |= 1 << s;
        }
    }
    let keep = pos.fitting(cell, d, 0, forb);
    if keep == d {
        return None;
    }
    // The one-end neighbours that rule an orientation out, each named once.
    let mut read = vec![cell];
    for s in (0..pos.k).filter(|&s| forb >> s & 1 == 1) {
        let n = pos.across(cell, s).expect("a neighbour").0;
        if pos.fitting(cell, d, 0, 1 << s) != d && !read.contains(&n) {
            read.push(n);
        }
    }
    Some(deduction(
        pos,
        Rule::FacingEnds,
        cell,
        read,
        keep,
        Detail::FacingEnds,
    ))
}

/// The connections orientation `o` of `cell` adds to the sure ones: (side, neighbour) pairs.
fn new_links(pos: &Position, cell: usize, o: u32) -> impl Iterator<Item = (usize, usize)> + '_ {
    let m = pos.mask(cell, o) & !pos.joined(cell);
    (0..pos.k)
        .filter(move |&s| m >> s & 1 == 1)
        .filter_map(move |s| pos.across(cell, s).map(|(n, _)| (s, n)))
}

/// An orientation whose new connections reach one network twice (or `cell`'s own) closes a
/// loop.
fn no_loop(pos: &Position, cell: usize) -> Option<Deduction> {
    let d = pos.dom[cell];
    let own = pos.root(cell);
    let mut keep = d;
    let mut read = vec![cell];
    for o in (0..8).filter(|&o| d >> o & 1 == 1) {
        // The networks reached so far (`cell`'s own first) and the cell reaching each.
        let mut roots = [own; 9];
        let mut cells = [cell; 9];
        for (len, (_, n)) in (1..).zip(new_links(pos, cell, o)) {
            let r = pos.root(n);
            if let Some(i) = roots[..len].iter().position(|&x| x == r) {
                keep &= !(1 << o);
                for c in [cells[i], n] {
                    if !read.contains(&c) {
                        read.push(c);
                    }
                }
                break;
            }
            roots[len] = r;
            cells[len] = n;
        }
    }
    if keep == d {
        return None;
    }
    Some(deduction(pos, Rule::Loop, cell, read, keep, Detail::Loop))
}

/// An orientation that joins networks into one with no connection left to make, short of
/// every piece, closes off an island.
fn no_island(pos: &Position, cell: usize) -> Option<Deduction> {
    let d = pos.dom[cell];
    let own = pos.root(cell);
    let mut keep = d;
    let mut read = vec![cell];
    let mut smallest = u32::MAX;
    for o in (0..8).filter(|&o| d >> o & 1 == 1) {
        let (mut weight, mut owed) = (pos.weight(own), pos.owed(own));
        let mut roots = [own; 9];
        let mut reach = [cell; 9];
        let mut reached = 0;
        for (len, (_, n)) in (1..).zip(new_links(pos, cell, o)) {
            let r = pos.root(n);
            if roots[..len].contains(&r) {
                // A loop: the loop rule's business.
                owed = -1;
                break;
            }
            roots[len] = r;
            reach[len - 1] = n;
            reached = len;
            weight += pos.weight(r);
            owed += pos.owed(r) - 2;
        }
        if owed == 0 && weight < pos.nonempty() {
            keep &= !(1 << o);
            smallest = smallest.min(weight);
            for &n in &reach[..reached] {
                if !read.contains(&n) {
                    read.push(n);
                }
            }
        }
    }
    if keep == d {
        return None;
    }
    Some(deduction(
        pos,
        Rule::Island,
        cell,
        read,
        keep,
        Detail::Island { smallest },
    ))
}

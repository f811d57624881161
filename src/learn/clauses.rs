//! [`ClauseDb`]: learned clauses in one arena of literals, each with a header (where, how
//! long, its LBD and activity), watched on its first two literals. Reduction keeps the
//! glue clauses (LBD <= 2) and the clauses that are reasons now, drops the worse half of
//! the rest by LBD then activity, and compacts the arena.

/// A literal: `edge * 2`, connected; `edge * 2 + 1`, not connected.
pub(super) type Lit = u32;

#[inline(always)]
pub(super) fn var(l: Lit) -> u32 {
    l >> 1
}

/// One learned clause.
#[derive(Clone, Copy)]
pub(super) struct Head {
    pub start: u32,
    pub len: u32,
    pub lbd: u32,
    pub activity: f32,
    /// Where the last search for a literal to watch stopped (at least 2): the next one
    /// starts there (Gent's saved position), so a long clause is not scanned from its start
    /// at each move of its watch.
    pub pos: u32,
}

/// A clause watching a literal, and a literal of it seen true lately (checked first).
#[derive(Clone, Copy)]
pub(super) struct Watch {
    pub clause: u32,
    pub blocker: Lit,
}

pub(super) struct ClauseDb {
    pub lits: Vec<Lit>,
    pub heads: Vec<Head>,
    /// Per literal, the clauses that watch it (visited when it becomes false); empty until
    /// the first clause, so a solver that never learns (the root propagation of a level
    /// split into regions) does not pay 144 bytes a cell for it.
    pub watches: Vec<Vec<Watch>>,
    vars: usize,
    pub inc: f32,
}

impl ClauseDb {
    pub fn new(vars: usize) -> ClauseDb {
        ClauseDb {
            lits: Vec::new(),
            heads: Vec::new(),
            watches: Vec::new(),
            vars,
            inc: 1.0,
        }
    }

    /// Adds `clause` (at least two literals; the first two are watched), its number.
    pub fn add(&mut self, clause: &[Lit], lbd: u32) -> u32 {
        let id = self.heads.len() as u32;
        self.heads.push(Head {
            start: self.lits.len() as u32,
            len: clause.len() as u32,
            lbd,
            activity: self.inc,
            pos: 2,
        });
        self.lits.extend_from_slice(clause);
        self.watch(id);
        id
    }

    fn watch(&mut self, id: u32) {
        if self.watches.is_empty() {
            self.watches.resize_with(self.vars * 2, Vec::new);
        }
        let h = self.heads[id as usize];
        let (a, b) = (self.lits[h.start as usize], self.lits[h.start as usize + 1]);
        self.watches[a as usize].push(Watch {
            clause: id,
            blocker: b,
        });
        self.watches[b as usize].push(Watch {
            clause: id,
            blocker: a,
        });
    }

    /// The literals of clause `id`.
    #[inline]
    pub fn clause(&self, id: u32) -> &[Lit] {
        let h = self.heads[id as usize];
        &self.lits[h.start as usize..(h.start + h.len) as usize]
    }

    /// Makes clause `id` more likely to be kept.
    pub fn bump(&mut self, id: u32) {
        let a = &mut self.heads[id as usize].activity;
        *a += self.inc;
        if *a > 1e20 {
            for h in &mut self.heads {
                h.activity *= 1e-20;
            }
            self.inc *= 1e-20;
        }
    }

    /// Ages every clause's activity (by raising the increment).
    pub fn decay(&mut self) {
        self.inc /= 0.999;
    }

    /// Drops about half of the clauses that are neither glue nor in `keep` (a reason now),
    /// compacts the arena and rebuilds the watch lists. Returns the old number -> new number
    /// map (`u32::MAX`: dropped) for the caller's reasons, and how many were dropped.
    pub fn reduce(&mut self, keep: impl Fn(u32) -> bool) -> (Vec<u32>, usize) {
        let n = self.heads.len();
        let mut candidates: Vec<u32> = (0..n as u32)
            .filter(|&i| self.heads[i as usize].lbd > 2 && !keep(i))
            .collect();
        // Worst first: high LBD, then low activity.
        candidates.sort_by(|&a, &b| {
            let (ha, hb) = (self.heads[a as usize], self.heads[b as usize]);
            hb.lbd
                .cmp(&ha.lbd)
                .then(ha.activity.total_cmp(&hb.activity))
        });
        let mut dropped = vec![false; n];
        let drop_count = candidates.len() / 2;
        for &i in &candidates[..drop_count] {
            dropped[i as usize] = true;
        }
        let mut map = vec![u32::MAX; n];
        let old_heads = std::mem::take(&mut self.heads);
        let old_lits = std::mem::take(&mut self.lits);
        for (i, h) in old_heads.iter().enumerate() {
            if dropped[i] {
                continue;
            }
            map[i] = self.heads.len() as u32;
            let start = self.lits.len() as u32;
            self.lits
                .extend_from_slice(&old_lits[h.start as usize..(h.start + h.len) as usize]);
            self.heads.push(Head { start, ..*h });
        }
        for w in &mut self.watches {
            w.clear();
        }
        for id in 0..self.heads.len() as u32 {
            self.watch(id);
        }
        (map, drop_count)
    }
}

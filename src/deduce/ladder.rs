//! [`Ladder`]: finds the next deduction, always from the weakest rung that has one, without
//! rescanning the board. Rungs 1 to 3 run off worklists (the walled cells once; the
//! neighbours of every narrowed cell, and of every newly decided one); Net's rules of rung 4
//! and the trials sweep the cells from a cursor and know they are exhausted after a full lap
//! with no change, so a lap is paid only when the cheaper rungs are stuck; rung 4's counting
//! searches again only the regions next to a change (see [`super::counting`]). The trials
//! share a budget of [`TRIAL_WORK_PER_CELL`] revisions per cell (at least
//! [`TRIAL_WORK_FLOOR`]): a level with many solutions is stuck after every guess, and a lap
//! of trials each time would make its solve quadratic; past the budget the ladder guesses
//! instead.

use super::counting::Counting;
use super::position::{Contradiction, Position};
use super::rules::{agree, border, net};
use super::trial::{Trials, short_steps};
use super::{Deduction, Rule};
use crate::board::{BoardLevel, Rules};

/// Cell revisions the trials may make in all, per cell of the level...
pub const TRIAL_WORK_PER_CELL: u64 = 64;
/// ... and at least this many, so small levels get trials enough to need them.
pub const TRIAL_WORK_FLOOR: u64 = 1 << 16;

/// What the ladder found next.
#[derive(Debug)]
pub enum Step {
    /// A deduction (already applied to the position).
    Deduced(Deduction),
    /// The last deduction emptied a cell or closed a loop or island: no solution.
    Contradiction(Contradiction),
    /// Every cell is decided.
    Solved,
    /// No rule up to the trial applies: only a guess (search) goes on.
    Stuck,
}

/// A sweep over the cells from a cursor (see the module doc).
struct Sweep {
    cursor: usize,
    clean: usize,
}

impl Sweep {
    fn new() -> Sweep {
        Sweep {
            cursor: 0,
            clean: 0,
        }
    }
}

/// The ladder over a position (see the module doc).
pub struct Ladder {
    /// The position, with every deduction returned so far applied (changed only through
    /// [`Ladder::apply`], which tells the trials' memo and the counting rule what changed).
    pos: Position,
    walled: Vec<u32>,
    decided_q: Vec<u32>,
    decided_in: Vec<bool>,
    common_q: Vec<u32>,
    common_in: Vec<bool>,
    net_sweep: Sweep,
    short_sweep: Sweep,
    long_sweep: Sweep,
    trials: Trials,
    counting: Counting,
    /// The highest rung this ladder may use (rungs above are treated as stuck).
    top: u8,
    /// The contradiction the last deduction ran into, reported at the next step.
    failed: Option<Contradiction>,
    /// Undecided cells, kept as deductions apply (a count over the board per step would
    /// make a solve with thousands of guesses quadratic).
    undecided: usize,
    /// Per number of orientations left (2 to 8), a bitset of the undecided cells with that
    /// many, so a guess finds the first cell with the fewest in a few words per count.
    by_count: Vec<Vec<u64>>,
}

impl Ladder {
    /// The ladder at the start of `level`, using rungs up to `top`.
    pub fn new(level: &BoardLevel, top: u8) -> Result<Ladder, Contradiction> {
        let pos = Position::new(level)?;
        let n = pos.len();
        let mut ladder = Ladder {
            walled: Vec::new(),
            decided_q: Vec::new(),
            decided_in: vec![false; n],
            common_q: Vec::new(),
            common_in: vec![false; n],
            net_sweep: Sweep::new(),
            short_sweep: Sweep::new(),
            long_sweep: Sweep::new(),
            trials: Trials::new(n, pos.rules()),
            counting: Counting::new(&pos),
            top,
            failed: None,
            undecided: 0,
            by_count: vec![vec![0; n.div_ceil(64)]; 9],
            pos,
        };
        for c in 0..n {
            ladder.track(c, 0, ladder.pos.dom[c]);
        }
        // Worklists are stacks: the walled cells are pushed last first, so the first
        // deductions read the board from its top-left corner.
        ladder.walled = (0..n as u32)
            .rev()
            .filter(|&c| ladder.pos.walled(c as usize) != 0)
            .collect();
        for c in (0..n).rev() {
            if ladder.pos.decided(c) {
                ladder.queue_neighbours(c, true);
            }
        }
        Ok(ladder)
    }

    /// The position, with every deduction returned so far applied.
    pub fn pos(&self) -> &Position {
        &self.pos
    }

    fn queue_neighbours(&mut self, cell: usize, decided: bool) {
        for s in 0..self.pos.k {
            if let Some((n, _)) = self.pos.across(cell, s) {
                if decided && !self.decided_in[n] {
                    self.decided_in[n] = true;
                    self.decided_q.push(n as u32);
                }
                if !self.common_in[n] {
                    self.common_in[n] = true;
                    self.common_q.push(n as u32);
                }
            }
        }
    }

    /// Moves `cell` from the undecided cells with `old`'s count of orientations to those
    /// with `new`'s (a domain of one or none is not kept).
    fn track(&mut self, cell: usize, old: u8, new: u8) {
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        let (a, b) = (old.count_ones() as usize, new.count_ones() as usize);
        if a >= 2 {
            self.by_count[a][word] &= !bit;
            self.undecided -= 1;
        }
        if b >= 2 {
            self.by_count[b][word] |= bit;
            self.undecided += 1;
        }
    }

    /// Applies `d` to the position and queues what it may lead to.
    pub fn apply(&mut self, d: &Deduction) -> Result<(), Contradiction> {
        let old = self.pos.dom[d.cell];
        let result = self.pos.narrow(d.cell, d.after);
        self.track(d.cell, old, self.pos.dom[d.cell]);
        self.counting.touched(&self.pos, d.cell);
        self.trials.touched(&self.pos, d.cell);
        self.net_sweep.clean = 0;
        self.short_sweep.clean = 0;
        self.long_sweep.clean = 0;
        let decided = self.pos.decided(d.cell);
        self.queue_neighbours(d.cell, decided);
        result
    }

    /// The next deduction of the weakest rung that has one, applied.
    pub fn next_step(&mut self) -> Step {
        if let Some(c) = self.failed {
            return Step::Contradiction(c);
        }
        let Some(d) = self.find() else {
            return if self.undecided == 0 {
                Step::Solved
            } else {
                Step::Stuck
            };
        };
        match self.apply(&d) {
            Ok(()) => Step::Deduced(d),
            Err(c) => {
                // The deduction itself is the proof; report it, then the contradiction.
                self.failed = Some(c);
                Step::Deduced(d)
            }
        }
    }

    fn find(&mut self) -> Option<Deduction> {
        while let Some(c) = self.walled.pop() {
            if let Some(d) = border(&self.pos, c as usize) {
                return Some(d);
            }
        }
        if self.top < 2 {
            return None;
        }
        while let Some(c) = self.decided_q.pop() {
            self.decided_in[c as usize] = false;
            if let Some(d) = agree(&self.pos, c as usize, true) {
                return Some(d);
            }
        }
        if self.top < 3 {
            return None;
        }
        while let Some(c) = self.common_q.pop() {
            self.common_in[c as usize] = false;
            if let Some(d) = agree(&self.pos, c as usize, false) {
                return Some(d);
            }
        }
        if self.top >= 4 && self.pos.rules() == Rules::Net {
            let pos = &self.pos;
            if let Some(d) = sweep(&mut self.net_sweep, pos.len(), |c| Ok(net(pos, c))) {
                return Some(d);
            }
        }
        if self.top >= 4
            && let Some(d) = self.counting.find(&self.pos)
        {
            return Some(d);
        }
        let budget = (TRIAL_WORK_PER_CELL * self.pos.len() as u64).max(TRIAL_WORK_FLOOR);
        if self.top >= 5 && self.trials.work < budget {
            let short = short_steps(self.pos.rules());
            let (pos, trials) = (&mut self.pos, &mut self.trials);
            if let Some(d) = sweep(&mut self.short_sweep, pos.len(), |c| {
                if trials.work >= budget {
                    return Err(());
                }
                Ok((!pos.decided(c))
                    .then(|| trials.trial(pos, c, Some(short)))
                    .flatten())
            }) {
                return Some(d);
            }
        }
        if self.top >= 6 && self.trials.work < budget {
            let (pos, trials) = (&mut self.pos, &mut self.trials);
            if let Some(d) = sweep(&mut self.long_sweep, pos.len(), |c| {
                if trials.work >= budget {
                    return Err(());
                }
                Ok((!pos.decided(c))
                    .then(|| trials.trial(pos, c, None))
                    .flatten())
            }) {
                return Some(d);
            }
        }
        None
    }
}

#[cfg(test)]
impl Ladder {
    /// The same ladder with every trial run, none answered from the memo (`memo` false), or
    /// with every trial answered from the memo run as well, to check the answer.
    pub(super) fn with_trial_memo(mut self, memo: bool) -> Ladder {
        self.trials.memoize = memo;
        self.trials.check_recalls = memo;
        self
    }

    /// Trials answered from the memo, and whether the trials' budget is spent.
    pub(super) fn trial_memo_use(&self) -> (u64, bool) {
        let budget = (TRIAL_WORK_PER_CELL * self.pos.len() as u64).max(TRIAL_WORK_FLOOR);
        (self.trials.recalled, self.trials.work >= budget)
    }
}

/// Looks at the cells from the sweep's cursor on until `rule` has a deduction, a whole lap
/// has passed since the last change, or `rule` says stop (`Err`).
fn sweep(
    sw: &mut Sweep,
    n: usize,
    mut rule: impl FnMut(usize) -> Result<Option<Deduction>, ()>,
) -> Option<Deduction> {
    while sw.clean < n {
        let c = sw.cursor;
        match rule(c) {
            Err(()) => return None,
            Ok(found) => {
                sw.cursor = (sw.cursor + 1) % n;
                sw.clean += 1;
                if found.is_some() {
                    return found;
                }
            }
        }
    }
    None
}

impl Ladder {
    /// A guess: the undecided cell with the fewest orientations (the first such) set to its
    /// orientation in `solution`, a verified solution of the level.
    pub fn guess(&self, solution: &[u8]) -> Option<Deduction> {
        let pos = &self.pos;
        let cell = self.by_count[2..].iter().find_map(|set| {
            let w = set.iter().position(|&w| w != 0)?;
            Some(w * 64 + set[w].trailing_zeros() as usize)
        })?;
        let o = pos.orientation_of(cell, solution[cell])?;
        Some(Deduction {
            rule: Rule::Guess,
            cell,
            read: vec![cell],
            before: pos.dom[cell],
            after: 1 << o,
            detail: super::why::Detail::Guess,
        })
    }
}

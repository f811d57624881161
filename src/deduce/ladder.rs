//! [`Ladder`]: finds the next deduction, always from the weakest rung that has one, without
//! rescanning the board. Rungs 1 to 3 run off worklists (the walled cells once; the
//! neighbours of every narrowed cell, and of every newly decided one); rung 4 and the trials
//! sweep the cells from a cursor and know they are exhausted after a full lap with no
//! change, so a lap is paid only when the cheaper rungs are stuck. The trials share a budget
//! of [`TRIAL_WORK_PER_CELL`] revisions per cell (at least [`TRIAL_WORK_FLOOR`]): a level with many solutions is stuck after
//! every guess, and a lap of trials each time would make its solve quadratic; past the budget
//! the ladder guesses instead.

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
    /// The position, with every deduction returned so far applied.
    pub pos: Position,
    walled: Vec<u32>,
    decided_q: Vec<u32>,
    decided_in: Vec<bool>,
    common_q: Vec<u32>,
    common_in: Vec<bool>,
    net_sweep: Sweep,
    short_sweep: Sweep,
    long_sweep: Sweep,
    trials: Trials,
    /// The highest rung this ladder may use (rungs above are treated as stuck).
    top: u8,
    /// The contradiction the last deduction ran into, reported at the next step.
    failed: Option<Contradiction>,
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
            trials: Trials::new(n),
            top,
            failed: None,
            pos,
        };
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

    /// Applies `d` to the position and queues what it may lead to.
    pub fn apply(&mut self, d: &Deduction) -> Result<(), Contradiction> {
        let result = self.pos.narrow(d.cell, d.after);
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
            return if self.pos.undecided() == 0 {
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

/// A guess: the undecided cell with the fewest orientations (the first such) set to its
/// orientation in `solution`, a verified solution of the level.
pub fn guess(pos: &Position, solution: &[u8]) -> Option<Deduction> {
    let cell = (0..pos.len())
        .filter(|&c| !pos.decided(c))
        .min_by_key(|&c| pos.dom[c].count_ones())?;
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

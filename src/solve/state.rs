//! [`State`]: the search state — one orientation domain per padded cell, the trail of domain
//! changes for undo, and the propagation worklist. Propagation revises a cell against the
//! sides its neighbours may and must connect, to a fixed point; its cost is linear in the
//! number of domain changes. Backtracking undoes the trail to a mark, never copies the grid.

use super::board::Board;
use super::tables::{FULL_DOMAIN, KEEP, requirement, sides};

/// The solver's mutable state: domains, undo trail and propagation queue.
pub struct State {
    /// Orientation domain per padded cell (bit o = orientation o still possible).
    pub(super) dom: Vec<u8>,
    /// (cell, domain before the change), newest last.
    trail: Vec<(u32, u8)>,
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// False during the first propagation pass: nothing before it needs undoing, and a trail
    /// entry per cell would double the memory of a large grid.
    recording: bool,
    /// The cell whose domain the last failed propagation emptied (read by backjumping).
    wiped: u32,
}

impl State {
    /// Every real cell may take every distinct orientation of its kind; ring cells are fixed.
    pub fn new(board: &Board) -> State {
        let dom = board
            .kind
            .iter()
            .map(|&k| FULL_DOMAIN[k as usize])
            .collect();
        State {
            dom,
            trail: Vec::new(),
            queue: Vec::new(),
            queued: vec![false; board.len()],
            recording: true,
            wiped: 0,
        }
    }

    /// A state with the given domains (one per padded cell of `board`).
    pub fn with_domains(board: &Board, dom: Vec<u8>) -> State {
        debug_assert_eq!(dom.len(), board.len());
        State {
            dom,
            trail: Vec::new(),
            queue: Vec::new(),
            queued: vec![false; board.len()],
            recording: true,
            wiped: 0,
        }
    }

    /// The domains, one per padded cell.
    pub fn into_domains(self) -> Vec<u8> {
        self.dom
    }

    /// The orientations `cell` may still take (bit o = orientation o).
    #[inline]
    pub fn domain(&self, cell: usize) -> u8 {
        self.dom[cell]
    }

    /// True when `cell` has exactly one orientation left.
    #[inline]
    pub fn is_fixed(&self, cell: usize) -> bool {
        self.dom[cell].count_ones() == 1
    }

    /// Trail position to come back to with [`State::undo_to`].
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Gives back every domain changed since `mark`, newest change first.
    pub fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (cell, old) = self.trail.pop().expect("trail longer than mark");
            self.dom[cell as usize] = old;
        }
    }

    /// Cells whose domain changed since `mark` (a cell may appear more than once).
    pub fn changed_since(&self, mark: usize) -> impl Iterator<Item = usize> + '_ {
        self.trail[mark..].iter().map(|&(c, _)| c as usize)
    }

    /// The trail since `mark`, oldest first: (cell, domain before that change). Read when an
    /// observer is watching, to report each narrowing and each restoration.
    pub fn changes_since(&self, mark: usize) -> &[(u32, u8)] {
        &self.trail[mark..]
    }

    #[inline]
    fn enqueue(&mut self, cell: usize) {
        if !self.queued[cell] {
            self.queued[cell] = true;
            self.queue.push(cell as u32);
        }
    }

    /// Queues every real cell for revision (for callers that propagate a fresh state by
    /// hand; the solver uses [`State::propagate_all`]).
    pub fn enqueue_all(&mut self, board: &Board) {
        for c in board.cells() {
            self.enqueue(c);
        }
    }

    /// The first propagation pass: revises every real cell once in row-major order, then
    /// whatever that changed, to a fixed point. Not trailed (it is the search's starting
    /// point), and the worklist only ever holds cells next to a change, not the whole grid.
    /// False on a wipe-out.
    pub fn propagate_all(&mut self, board: &Board) -> bool {
        self.propagate_all_until(board, &|| false) != Some(false)
    }

    /// [`State::propagate_all`] that gives up (`None`, the state then half-propagated) once
    /// `halted` says so; the flag is read once per 65,536 cells.
    pub fn propagate_all_until(
        &mut self,
        board: &Board,
        halted: &impl Fn() -> bool,
    ) -> Option<bool> {
        self.propagate_from_until(board, board.cells(), halted)
    }

    /// [`State::propagate_all_until`] that revises `cells` (every cell whose support may
    /// have changed), then what they change.
    pub fn propagate_from_until(
        &mut self,
        board: &Board,
        cells: impl IntoIterator<Item = usize>,
        halted: &impl Fn() -> bool,
    ) -> Option<bool> {
        self.recording = false;
        let mut ok = true;
        // Fixed cells are revised too: an X or a frozen piece may point off the border.
        for (i, c) in cells.into_iter().enumerate() {
            if i & 0xFFFF == 0xFFFF && halted() {
                self.discard_queue();
                self.recording = true;
                return None;
            }
            let keep = self.supported(board, c);
            if keep == 0 {
                ok = false;
                break;
            }
            self.narrow(board, c, keep);
            if !self.propagate(board) {
                ok = false;
                break;
            }
        }
        self.discard_queue();
        self.recording = true;
        Some(ok)
    }

    /// Narrows `cell` to `dom` (a subset of its domain), recording the change and queueing the
    /// undecided neighbours whose shared side changed status.
    #[inline]
    pub fn narrow(&mut self, board: &Board, cell: usize, dom: u8) {
        let old = self.dom[cell];
        if old == dom {
            return;
        }
        let k = board.kind[cell];
        let (may0, must0) = sides(k, old);
        let (may1, must1) = sides(k, dom);
        if self.recording {
            self.trail.push((cell as u32, old));
        }
        self.dom[cell] = dom;
        let changed = (may0 ^ may1) | (must0 ^ must1);
        if changed == 0 {
            return;
        }
        for side in 0..4 {
            if changed & (1 << side) != 0 {
                let nb = board.neighbour(cell, side);
                if self.dom[nb].count_ones() > 1 {
                    self.enqueue(nb);
                }
            }
        }
    }

    /// Orientations of `cell` consistent with what its neighbours may and must connect.
    #[inline]
    pub fn supported(&self, board: &Board, cell: usize) -> u8 {
        let mut on = 0u8;
        let mut off = 0u8;
        for side in 0..4 {
            let nb = board.neighbour(cell, side);
            let (a, b) = requirement(side, sides(board.kind[nb], self.dom[nb]));
            on |= a;
            off |= b;
        }
        self.dom[cell] & KEEP[board.kind[cell] as usize * 256 + (on | off << 4) as usize]
    }

    /// Runs the worklist to a fixed point. False on a wipe-out (some cell has no orientation
    /// left); the queue is then emptied so the state is ready for an undo.
    pub fn propagate(&mut self, board: &Board) -> bool {
        while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            self.queued[cell] = false;
            let keep = self.supported(board, cell);
            if keep == 0 {
                self.wiped = cell as u32;
                for c in self.queue.drain(..) {
                    self.queued[c as usize] = false;
                }
                return false;
            }
            self.narrow(board, cell, keep);
        }
        true
    }

    /// The cell the last failed [`State::propagate`] left without an orientation.
    #[inline]
    pub fn wiped(&self) -> usize {
        self.wiped as usize
    }

    /// Drops pending revisions: used after fixing cells to a known-consistent assignment.
    pub fn discard_queue(&mut self) {
        for c in self.queue.drain(..) {
            self.queued[c as usize] = false;
        }
    }

    /// Fixes `cell` to the single orientation `o` and propagates.
    pub fn decide(&mut self, board: &Board, cell: usize, o: u8) -> bool {
        self.narrow(board, cell, 1 << o);
        self.propagate(board)
    }

    /// True when side `side` of `cell` is not yet known to be connected or not.
    #[inline]
    pub fn side_open(&self, board: &Board, cell: usize, side: usize) -> bool {
        let (may, must) = sides(board.kind[cell], self.dom[cell]);
        (may & !must) & (1 << side) != 0
    }
}

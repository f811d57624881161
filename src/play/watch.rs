//! The watch mode's solver: the observed search on its own thread, handing its events over a
//! small bounded channel, so it runs only as fast as the screen replays them and stops when
//! the receiver goes away.

use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};
use std::thread::JoinHandle;

use crate::model::Game;
use crate::solve::{Event, OnEvent, Outcome, solve_observed};

/// Events the solver may run ahead of the replay.
const AHEAD: usize = 1024;

/// What [`SolverFeed::poll`] found.
#[derive(Debug)]
pub enum Feed {
    /// The next event of the search.
    Event(Event),
    /// Nothing yet: the solver is still working.
    Pending,
    /// The solver has finished and every event was taken.
    Done(Outcome),
}

/// A solver run on its own thread, its events taken one by one through a bounded channel.
pub struct SolverFeed {
    rx: Receiver<Event>,
    handle: Option<JoinHandle<Outcome>>,
}

impl SolverFeed {
    /// Starts the observed search on `game`.
    pub fn start(game: &Game) -> SolverFeed {
        let (tx, rx) = sync_channel(AHEAD);
        let game = game.clone();
        let handle = std::thread::spawn(move || {
            // A failed send means the watcher left: the observer then asks the search to stop.
            solve_observed(&game, true, &mut OnEvent::new(|e| tx.send(e).is_ok())).0
        });
        SolverFeed {
            rx,
            handle: Some(handle),
        }
    }

    /// The next event, without blocking.
    pub fn poll(&mut self) -> Feed {
        match self.rx.try_recv() {
            Ok(e) => Feed::Event(e),
            Err(TryRecvError::Empty) => Feed::Pending,
            Err(TryRecvError::Disconnected) => match self.handle.take() {
                Some(h) => Feed::Done(
                    h.join()
                        .unwrap_or_else(|_| Outcome::Rejected("the solver thread panicked".into())),
                ),
                None => Feed::Done(Outcome::Cancelled),
            },
        }
    }
}

// Dropping a feed drops the receiver: the solver's next send fails and it stops at its next
// decision. The thread is not joined, so leaving the watch never waits for it.

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};
    use crate::play::state::Watch;

    #[test]
    fn replaying_the_feed_ends_on_the_solution() {
        let mut o = GenerateOptions::new(8, 8, 11);
        o.max_components = Some(1);
        let game = generate(&o);
        let mut watch = Watch::new(&game);
        let mut feed = SolverFeed::start(&game);
        let outcome = loop {
            match feed.poll() {
                Feed::Event(e) => watch.apply(game.width(), e),
                Feed::Pending => std::thread::yield_now(),
                Feed::Done(out) => break out,
            }
        };
        let Outcome::Solved(sol) = outcome else {
            panic!("{outcome:?}")
        };
        assert!(watch.events > 0);
        for (i, p) in sol.cells().iter().enumerate() {
            assert_eq!(watch.dom[i], 1 << p.orientation(), "cell {i}");
        }
    }

    #[test]
    fn dropping_the_feed_stops_the_solver() {
        let game = generate(&GenerateOptions::new(40, 40, 3));
        let mut feed = SolverFeed::start(&game);
        while matches!(feed.poll(), Feed::Pending) {
            std::thread::yield_now();
        }
        let handle = feed.handle.take().unwrap();
        drop(feed);
        // The thread ends (solved or stopped) instead of blocking on a full channel.
        let out = handle.join().unwrap();
        assert!(
            matches!(out, Outcome::Cancelled | Outcome::Solved(_)),
            "{out:?}"
        );
    }
}

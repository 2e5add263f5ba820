//! The match's log ([`crate::log`]): built from the record the first time
//! someone connects, then one line per step, sent to every watcher.

use umpire_core::Entry;

use super::actor::Actor;
use crate::log::{self, Before};
use crate::messages;

impl Actor {
    /// Whether this match keeps a log, and it is built.
    fn journal_kept(&self) -> bool {
        self.journal.lines.is_some()
    }

    /// What the next step's line needs of the match now, the step being
    /// at `at` (nothing when no log is kept yet).
    pub(super) fn before_step(&self, at: u64) -> Option<Before> {
        (self.journal_kept()).then(|| Before::of(&self.m, at, self.journal.event.clone()))
    }

    /// Builds the log from the record, if the game keeps one and it is not
    /// built yet.
    fn build_journal(&mut self) {
        if self.journal.lines.is_some() || self.info.game.hides_history() {
            return;
        }
        match log::of_record(self.info.game, self.m.record()) {
            Ok(lines) => {
                self.journal.lines = lines;
                self.journal.event = self.m.last_event(umpire_core::Viewer::Spectator);
            }
            Err(e) => tracing::error!(id = %self.info.id, "the log cannot be built: {e}"),
        }
    }

    /// The whole log, for a new connection `conn`.
    pub(super) fn send_journal(&mut self, conn: u64) {
        self.build_journal();
        if let Some(lines) = &self.journal.lines {
            let text = messages::log(0, lines);
            self.send_to(conn, text);
        }
    }

    /// A step (`entries`) is durable: its line, if it says anything, goes
    /// to everyone.
    pub(super) fn journal_step(&mut self, before: Option<Before>, entries: &[Entry]) {
        let (Some(before), Some(lines)) = (before, self.journal.lines.as_mut()) else {
            return;
        };
        let (said, event) = log::line(before, &self.m, entries);
        self.journal.event = event;
        let Some(line) = said else {
            return;
        };
        let text = messages::log(lines.len(), std::slice::from_ref(&line));
        lines.push(line);
        let conns: Vec<u64> = self.watchers.iter().map(|w| w.conn).collect();
        for conn in conns {
            self.send_to(conn, text.clone());
        }
    }

    /// The match went back to what the store holds: the log is built
    /// again, and everyone watching gets it whole.
    pub(super) fn rebuild_journal(&mut self) {
        self.journal.lines = None;
        let conns: Vec<u64> = self.watchers.iter().map(|w| w.conn).collect();
        for conn in conns {
            self.send_journal(conn);
        }
    }
}

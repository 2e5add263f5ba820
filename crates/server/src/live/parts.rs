//! The parts of a match's task ([`super::actor::Actor`]) that other files
//! of this module work on: its clients, its seats, their bots and the
//! rematch. Each file's own work on them is an `impl Actor` of its own.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use umpire_core::{AnyState, Bot, MatchRng, PerSeat, Think, Viewer};

use crate::chat::{ChatLine, Pace};
use crate::log::{Before, LogLine};
use crate::outbox::{Deliver, Outgoing};
use crate::shown::{Shown, Views};
use crate::store::SeatKind;

/// One connected client.
pub(super) struct Watcher {
    pub(super) conn: u64,
    pub(super) viewer: Viewer,
    pub(super) tx: Arc<dyn Deliver>,
}

/// A client the match lets go (it left, a newer connection of its link
/// came, or it is too slow) has its connection closed, after what is queued.
impl Drop for Watcher {
    fn drop(&mut self) {
        self.tx.close();
    }
}

impl Watcher {
    /// Queues `text`; false if the client is not keeping up.
    pub(super) fn send(&self, text: impl Into<Outgoing>) -> bool {
        self.tx.send(text.into())
    }
}

/// One seat: who plays it and, for a person, whether they are here.
pub(super) struct SeatSlot {
    pub(super) kind: SeatKind,
    pub(super) connected: usize,
    /// Whether a person ever sat here (for the lobby's "open" list).
    pub(super) ever: bool,
    pub(super) away_since: Instant,
    pub(super) bot: Option<BotSlot>,
}

impl SeatSlot {
    /// A bot, or a person with a connection.
    pub(super) fn is_here(&self) -> bool {
        self.kind != SeatKind::Person || self.connected > 0
    }

    pub(super) fn new(kind: SeatKind, ever: bool, now: Instant) -> SeatSlot {
        SeatSlot {
            kind,
            connected: 0,
            ever,
            away_since: now,
            bot: None,
        }
    }
}

/// A bot in a seat.
pub(super) struct BotSlot {
    /// `None` while the bot is thinking on a blocking thread.
    pub(super) bot: Option<Box<dyn Bot>>,
    pub(super) rng: Option<Box<MatchRng>>,
    /// States to show the bot before it next chooses.
    pub(super) pending: Vec<Box<dyn AnyState>>,
    /// The seat must act since the record had this many entries; by when.
    pub(super) want: Option<(usize, Instant)>,
    /// The need the bot is thinking about now, and its switch to stop.
    pub(super) job: Option<(usize, Think)>,
}

impl BotSlot {
    /// When the bot's time for the need it is thinking about runs out.
    pub(super) fn thinking_until(&self) -> Option<Instant> {
        match (self.want, &self.job) {
            (Some((tag, by)), Some((job, _))) if tag == *job => Some(by),
            _ => None,
        }
    }
}

/// The rematch's state in a match's task.
pub(super) struct Rematch {
    pub(super) offers: PerSeat<bool>,
    /// The hub is creating it now.
    pub(super) making: bool,
    pub(super) made: Option<String>,
}

impl Rematch {
    pub(super) fn new(made: Option<String>) -> Rematch {
        Rematch {
            offers: PerSeat::new(false, false),
            making: false,
            made,
        }
    }
}

/// What a step applied to the match tells: what each kind of viewer is
/// shown after it (`shown`, counted from `views`), the mover's accepted
/// action, and the match before it as the log needs it.
pub(super) struct Step {
    pub(super) shown: Shown,
    pub(super) views: Views,
    pub(super) accepted: Option<(Viewer, String)>,
    pub(super) before: Option<Before>,
}

/// What the match's task keeps of its chat.
#[derive(Default)]
pub(super) struct Talk {
    pub(super) lines: Vec<ChatLine>,
    pub(super) pace: Pace,
    /// Each spectator connection's number, in the order they first spoke.
    pub(super) spectators: HashMap<u64, usize>,
}

/// The log as far as it is known: not built yet, or its lines; and the
/// latest event a spectator was told of (for the next step's line).
#[derive(Default)]
pub(super) struct Journal {
    pub(super) lines: Option<Vec<LogLine>>,
    pub(super) event: Option<String>,
}

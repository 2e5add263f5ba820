//! One live match: a task that owns the [`Match`] and is the only code that
//! changes it. Commands arrive on a channel, so matches never wait for each
//! other; a timer wakes the task at the next clock deadline, so timeouts act
//! by themselves; bots think on blocking threads and send their move back.
//!
//! The task's jobs, one module each: [`actor`] runs the loop and handles
//! commands, [`watchers`] keeps the connected clients and sends them their
//! messages, [`presence`] keeps who sits where (connections, the lobby's
//! summary, handing an absent seat to a bot), [`bots`] drives bot seats,
//! [`commit`] makes applied entries durable before anyone hears of them,
//! [`talk`] keeps the chat and [`journal`] the match log.

mod actor;
mod bots;
mod commit;
mod host;
mod journal;
mod presence;
mod rematch;
mod talk;
#[cfg(test)]
mod tests;
mod watchers;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use umpire_bots::Bot;
use umpire_core::{AnyGame, Match, MatchRng, PerSeat, Record, Seat, Viewer};

use crate::Config;
use crate::shown::Shown;
use crate::store::{SeatKind, Store, Tokens};
use crate::tokens;

pub use actor::spawn;
pub use rematch::RematchOrder;

/// Frames that may wait for a client's socket ([`crate::outbox`]). A client
/// further behind is too slow and is disconnected rather than allowed to
/// hold anything up.
pub const OUT_QUEUE: usize = 64;

/// What a client is sent at once: one message, or two that leave in one
/// socket write (a mover's `accepted` and its new `state`).
pub enum Outgoing {
    One(Utf8Bytes),
    Two(Utf8Bytes, Utf8Bytes),
}

impl From<String> for Outgoing {
    fn from(text: String) -> Outgoing {
        Outgoing::One(text.into())
    }
}

impl From<Utf8Bytes> for Outgoing {
    fn from(text: Utf8Bytes) -> Outgoing {
        Outgoing::One(text)
    }
}

/// What does not change during a match.
pub struct Info {
    pub id: String,
    pub game: &'static dyn AnyGame,
    pub tokens: Tokens,
    pub takeover: bool,
    pub created_ms: u64,
    /// The hidden options a host set (their labels): players are told.
    pub fixed: Vec<&'static str>,
    /// The epoch this node runs the match in (0 for a lone node): every
    /// write of it carries it.
    pub epoch: u64,
    /// The address that created it, while this server runs.
    pub from: Option<std::net::IpAddr>,
    /// Both seats were bots from the start.
    pub bots_only: bool,
    /// A host runs it (docs/hosting.md).
    pub hosted: bool,
    /// The audience may watch while it is played.
    pub audience: bool,
    /// Whether the invite (if any) was claimed: set once, by the first
    /// opener, before the store hears of it.
    pub claimed: std::sync::atomic::AtomicBool,
}

impl Info {
    /// Who holds `token`: no token is a spectator; a wrong token is nobody.
    pub fn viewer(&self, token: Option<&str>) -> Option<Viewer> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Some(Viewer::Spectator);
        };
        // Check every secret, so the time taken says nothing about which matched.
        let mut found = None;
        for seat in Seat::BOTH {
            if tokens::same(token, &self.tokens.seats[seat]) {
                found = Some(Viewer::Seat(seat));
            }
        }
        if tokens::same(token, &self.tokens.umpire) {
            found = Some(Viewer::Umpire);
        }
        found
    }
}

/// A way to talk to a live match.
#[derive(Clone)]
pub struct Handle {
    pub tx: mpsc::Sender<Cmd>,
    pub info: Arc<Info>,
    /// The lobby's summary, kept current by the match's task.
    pub summary: Arc<Mutex<Value>>,
}

impl Handle {
    /// Why `viewer` may not look at the match now, if it may not: a host
    /// may keep the audience out until the end.
    pub fn closed_to(&self, viewer: Viewer) -> Option<&'static str> {
        (viewer == Viewer::Spectator && !self.info.audience && !self.is_over())
            .then_some("the host keeps this match from the audience until it ends; come back then")
    }

    /// Whether the match is over (as the lobby's summary says).
    pub fn is_over(&self) -> bool {
        self.summary.lock().unwrap_or_else(|e| e.into_inner())["status"] == "finished"
    }

    /// The `state` message `viewer` would receive now.
    pub async fn snapshot(&self, viewer: Viewer) -> Option<Value> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Snapshot { viewer, reply }).await.ok()?;
        answer.await.ok()
    }

    /// Each viewer's state and words ([`Cmd::Words`]).
    pub async fn words(&self, viewers: Vec<Viewer>) -> Option<Value> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Words { viewers, reply }).await.ok()?;
        answer.await.ok()
    }

    /// The record so far, and whether the match is over.
    pub async fn record(&self) -> Option<(Record, bool)> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Record { reply }).await.ok()?;
        answer.await.ok()
    }
}

pub enum Cmd {
    /// A client connects; its messages go to `tx`. `reply` says whether it
    /// was let in.
    Join {
        viewer: Viewer,
        conn: u64,
        tx: Arc<dyn crate::outbox::Deliver>,
        reply: oneshot::Sender<bool>,
    },
    Leave {
        conn: u64,
    },
    /// A seat's action in notation (or `resign`), received `at`: its
    /// time is when it arrived, not when the match's task got to it. `by`:
    /// entered by the host for the seat, or the umpire's ruling about it.
    Act {
        conn: u64,
        seat: Seat,
        text: String,
        at: std::time::Instant,
        by: Option<umpire_core::By>,
    },
    /// A seat asks the host whether an action would be accepted (the host
    /// has the final call): judged as a check, told to the umpire.
    Ask {
        conn: u64,
        seat: Seat,
        text: String,
    },
    /// Each viewer's state and words, for the host's console and for a
    /// viewer's own words ([`crate::hosting::words`]).
    Words {
        viewers: Vec<Viewer>,
        reply: oneshot::Sender<Value>,
    },
    /// Whether `seat`'s action would be accepted now; nothing changes.
    Check {
        conn: u64,
        seat: Seat,
        text: String,
        id: Option<u64>,
    },
    /// `seat` asks for a rematch, or accepts the other's. Once both seats
    /// agreed, `reply` gets the rematch to create: the caller creates it
    /// and reports back with [`Cmd::Rematched`].
    Rematch {
        conn: u64,
        seat: Seat,
        reply: oneshot::Sender<Option<RematchOrder>>,
    },
    /// The rematch was created (its id), or why not.
    Rematched {
        result: Result<String, String>,
    },
    /// `seat` hands its absent opponent to a bot.
    Takeover {
        conn: u64,
        seat: Seat,
    },
    /// A line of chat from `conn`, a client of `viewer`.
    Chat {
        conn: u64,
        viewer: Viewer,
        text: String,
    },
    Snapshot {
        viewer: Viewer,
        reply: oneshot::Sender<Value>,
    },
    Record {
        reply: oneshot::Sender<(Record, bool)>,
    },
    /// This node hands the match over to another (it shuts down): the
    /// clients are told, and the task ends.
    HandOver,
    /// Another node took the match over: let it go.
    Moved,
    /// A bot's answer for the need that started at `tag`.
    BotDone {
        seat: Seat,
        tag: usize,
        bot: Box<dyn Bot>,
        rng: Box<MatchRng>,
        action: Option<String>,
    },
}

/// The live matches by id, shared with the hub.
pub type Registry = Arc<Mutex<HashMap<String, Handle>>>;

/// Everything needed to start a match's task.
pub struct Start {
    pub info: Arc<Info>,
    pub m: Match,
    /// What each kind of viewer has been shown of `m`.
    pub shown: Shown,
    /// Its chat so far.
    pub chat: Vec<crate::chat::ChatLine>,
    pub seats: PerSeat<SeatKind>,
    pub store: Store,
    pub config: Arc<Config>,
    pub registry: Registry,
    pub bots: crate::pool::Pool,
    /// Where costly actions are judged.
    pub judges: crate::pool::Pool,
    /// Where checks are judged.
    pub checks: crate::pool::Pool,
}

/// Wall time in ms since the Unix epoch.
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

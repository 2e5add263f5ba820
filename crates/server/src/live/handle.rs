//! A live match as the rest of the server sees it: its handle, the
//! commands its task takes, and what starting one takes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use umpire_core::Bot;
use umpire_core::{Match, MatchRng, PerSeat, Record, Seat, Viewer};

use super::info::Info;
use crate::config::Config;
use crate::request::CreateRequest;
use crate::shown::Shown;
use crate::store::{SeatKind, Store, Tokens};

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

/// A rematch to create: its settings and the tokens it reuses.
pub struct RematchOrder {
    pub req: CreateRequest,
    pub tokens: Tokens,
}

//! Match records: everything needed to replay a match to the identical state.
//!
//! ```
//! use umpire_core::{Match, Record};
//! # use umpire_core::testing::SealedBids;
//!
//! let text = r#"{"game": "sealed-bids", "seed": 3, "timed": false,
//!   "actions": [{"seat": "P1", "action": "bid 2"}, {"seat": "P2", "action": "bid 9"}]}"#;
//! let record: Record = serde_json::from_str(text).unwrap();
//! let e = Match::replay(umpire_core::erase::<SealedBids>(), &record).unwrap_err();
//! assert_eq!(e.index(), Some(1));
//! assert!(e.to_string().contains("a bid is 1, 2 or 3, not 9"));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{ActionError, ClockPolicy, Outcome, PerSeat, Player, Seat};

/// A match as it was played: `{"game", "config", "seed", "actions": [...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub game: String,
    #[serde(default)]
    pub config: Value,
    pub seed: u64,
    /// Whether clocks ran (default true). An untimed match never times out.
    #[serde(default = "yes")]
    pub timed: bool,
    /// The clock used, when not the game's standard one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockPolicy>,
    /// Who played each seat: `{"P1": {"name": "Ada"}, "P2": {}}`.
    #[serde(default, skip_serializing_if = "unnamed")]
    pub seats: PerSeat<Player>,
    /// A host ran the match: it may enter a seat's action for it
    /// ([`By::Host`]) and make the umpire's rulings ([`By::Umpire`]). A
    /// record without a host that holds either is refused.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub host: bool,
    pub actions: Vec<Entry>,
    /// The result, written once the match is over; replay recomputes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

fn yes() -> bool {
    true
}

fn unnamed(seats: &PerSeat<Player>) -> bool {
    *seats == PerSeat::default()
}

/// Who made an entry when it was not the seat itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum By {
    /// The host entered the seat's action for it (the player sent it by
    /// private message).
    Host,
    /// The umpire's own ruling about the seat's play (the host's final
    /// call), in the game's notation for rulings ([`crate::Game::rule`]).
    Umpire,
}

impl By {
    /// `host` or `umpire`, as the record writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            By::Host => "host",
            By::Umpire => "umpire",
        }
    }
}

impl std::str::FromStr for By {
    type Err = String;

    fn from_str(text: &str) -> Result<By, String> {
        match text {
            "host" => Ok(By::Host),
            "umpire" => Ok(By::Umpire),
            _ => Err(format!(
                "`{text}` is not who made an entry (host or umpire)"
            )),
        }
    }
}

/// One accepted action. `action` is in the game's notation, or one of the
/// engine's own words: `resign`, or `timeout` (the seat's time ran out and
/// the game's timeout effect applied; `effect` says what it did).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seat: Seat,
    pub action: String,
    /// Milliseconds since the match started.
    #[serde(default)]
    pub at_ms: u64,
    /// For a `timeout`: what the game's timeout rule did, in words
    /// (`loses`, `passed`, …). Replay checks it when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Made by the host for the seat, or the umpire's ruling about it;
    /// absent when the seat itself acted (or its clock ran out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<By>,
}

impl Entry {
    /// An action in notation (or `resign`) by `seat` at `at_ms`.
    pub fn new(seat: Seat, action: impl Into<String>, at_ms: u64) -> Entry {
        Entry {
            seat,
            action: action.into(),
            at_ms,
            effect: None,
            by: None,
        }
    }

    /// The same entry, made `by` the host or the umpire.
    pub fn by(self, by: Option<By>) -> Entry {
        Entry { by, ..self }
    }
}

/// The engine's own action words.
pub const RESIGN: &str = "resign";
pub const TIMEOUT: &str = "timeout";

/// Why a record does not replay. Actions are numbered from 1, as a person
/// counts the entries of a record.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error("unknown game `{0}`")]
    UnknownGame(String),
    #[error("{0}")]
    Config(#[from] crate::ConfigError),
    /// The record's clock is out of bounds.
    #[error("the record's clock is refused: {0}")]
    Clock(String),
    #[error("action {} ({seat} `{action}`): {error}", .index + 1)]
    Action {
        /// From 0; shown from 1.
        index: usize,
        seat: Seat,
        action: String,
        error: Box<ActionError>,
    },
    /// The record's outcome is not the replay's, said in words.
    #[error("{0}")]
    OutcomeMismatch(String),
    /// The caller of [`crate::Match::replay_each`] stopped it, for this reason.
    #[error("{0}")]
    Stopped(String),
}

impl ReplayError {
    /// The index (from 0) of the failing action, if an action failed.
    pub fn index(&self) -> Option<usize> {
        match self {
            ReplayError::Action { index, .. } => Some(*index),
            _ => None,
        }
    }
}

/// The difference between a recorded outcome and the replayed one, in
/// words, or `None` when the replay confirms the record. A record that
/// claims no outcome claims nothing.
pub fn outcome_mismatch(recorded: Option<&Outcome>, replayed: Option<&Outcome>) -> Option<String> {
    let recorded = recorded?;
    let said = match recorded.winner {
        Some(w) => format!("{w} won"),
        None => "it was a draw".into(),
    };
    let Some(replayed) = replayed else {
        return Some(format!(
            "the record says {said}, but its actions stop before the end: replaying them, the match is not over"
        ));
    };
    let scores = |o: &Outcome| format!("P1 {}, P2 {}", o.scores.p1, o.scores.p2);
    if recorded.winner != replayed.winner {
        let now = match replayed.winner {
            Some(w) => format!("{w} wins"),
            None => "it is a draw".into(),
        };
        Some(format!("the record says {said}; replaying it, {now}"))
    } else if recorded.scores != replayed.scores {
        Some(format!(
            "the record gives the scores {}; replaying it, {}",
            scores(recorded),
            scores(replayed)
        ))
    } else if recorded.decided_by != replayed.decided_by {
        Some(format!(
            "the record says it was decided by {}; replaying it, by {}",
            recorded.decided_by, replayed.decided_by
        ))
    } else if recorded.reason != replayed.reason {
        Some(format!(
            "the record's reason is \"{}\"; replaying it, \"{}\"",
            recorded.reason, replayed.reason
        ))
    } else {
        None
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} @{}ms", self.seat, self.action, self.at_ms)?;
        if let Some(by) = self.by {
            write!(f, " by {}", by.as_str())?;
        }
        match &self.effect {
            Some(effect) => write!(f, " ({effect})"),
            None => Ok(()),
        }
    }
}

//! Match records: everything needed to replay a match to the identical state.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{ActionError, ClockPolicy, Outcome, Seat};

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
    pub actions: Vec<Entry>,
    /// The result, written once the match is over; replay recomputes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

fn yes() -> bool {
    true
}

/// One accepted action. `action` is in the game's notation, or one of the
/// engine's own words: `resign`, or `timeout` (the seat's time ran out and
/// the game's timeout effect applied).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seat: Seat,
    pub action: String,
    /// Milliseconds since the match started.
    #[serde(default)]
    pub at_ms: u64,
}

/// The engine's own action words.
pub const RESIGN: &str = "resign";
pub const TIMEOUT: &str = "timeout";

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error("unknown game `{0}`")]
    UnknownGame(String),
    #[error("{0}")]
    Config(#[from] crate::ConfigError),
    #[error("action {index} ({seat} `{action}`): {error}")]
    Action {
        index: usize,
        seat: Seat,
        action: String,
        error: ActionError,
    },
    #[error(
        "the record's outcome does not match the replay: recorded {recorded}, replayed {replayed}"
    )]
    OutcomeMismatch { recorded: String, replayed: String },
}

impl ReplayError {
    /// The index of the failing action, if an action failed.
    pub fn index(&self) -> Option<usize> {
        match self {
            ReplayError::Action { index, .. } => Some(*index),
            _ => None,
        }
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} @{}ms", self.seat, self.action, self.at_ms)
    }
}

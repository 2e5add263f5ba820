//! What the store keeps, whichever database holds it: a match as created,
//! its accepted entries, and the writes the server makes.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use umpire_core::{ClockPolicy, Entry, Outcome, PerSeat, Player, Record, Seat};

use crate::chat::ChatLine;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum SeatKind {
    Person,
    /// A bot, by name or level (`easy`, `medium`, `hard`).
    Bot {
        bot: String,
    },
}

/// The secret tokens of a match, and the match that reuses them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tokens {
    pub seats: PerSeat<String>,
    pub umpire: String,
    /// The opponent's invite, when a player created the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<Invite>,
    /// The rematch's id, once both seats agreed: its seats' tokens are
    /// these, swapped, so each person keeps their key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
}

/// An invite to a seat: its code, and whether someone took the seat with it
/// (an invite is claimed once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Invite {
    pub seat: Seat,
    pub code: String,
    pub claimed: bool,
    /// Listed in the lobby: anyone may take the seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

/// A match as created: everything needed to rebuild it with its actions.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRow {
    pub id: String,
    pub game: String,
    /// The normalised config.
    pub config: Value,
    pub seed: u64,
    pub timed: bool,
    pub clock: Option<ClockPolicy>,
    pub seats: PerSeat<SeatKind>,
    pub tokens: Tokens,
    pub takeover: bool,
    /// Wall time of creation, ms since the Unix epoch.
    pub created_ms: u64,
    /// The address that created it, kept where several nodes share the
    /// store, so that an address's share of live matches holds across them.
    pub creator: Option<String>,
    /// Who plays each seat, by name.
    pub players: PerSeat<Player>,
    /// A host runs it: the umpire's link may act for the seats and rule.
    pub hosted: bool,
    /// The host chose the seed (the players are told).
    pub seed_set: bool,
    /// The audience may watch while it is played (else only once it ends).
    pub audience: bool,
}

impl MatchRow {
    /// The record of this match with `actions`.
    pub fn record(&self, actions: Vec<Entry>) -> Record {
        Record {
            game: self.game.clone(),
            config: self.config.clone(),
            seed: self.seed,
            timed: self.timed,
            clock: self.clock,
            seats: self.players.clone(),
            host: self.hosted,
            actions,
            outcome: None,
        }
    }
}

/// A stored match with its accepted actions.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub row: MatchRow,
    pub actions: Vec<Entry>,
    /// Why it was called off, if it was ([`Op::Abandon`]).
    pub abandoned: Option<String>,
    /// Its chat, in the order said.
    pub chat: Vec<ChatLine>,
}

/// A finished match for the lobby.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FinishedSummary {
    pub id: String,
    pub game: String,
    pub created_ms: u64,
    pub finished_ms: u64,
    pub seats: PerSeat<SeatKind>,
    /// Who played each seat, by name (left out when nobody was named).
    #[serde(skip_serializing_if = "unnamed")]
    pub players: PerSeat<Player>,
    pub moves: u64,
    pub outcome: Option<Outcome>,
}

fn unnamed(players: &PerSeat<Player>) -> bool {
    *players == PerSeat::default()
}

/// Players as the store keeps them: JSON, or nothing when nobody is named.
pub fn players_json(players: &PerSeat<Player>) -> Option<String> {
    (!unnamed(players)).then(|| serde_json::to_string(players).unwrap_or_default())
}

/// Players read back from [`players_json`]'s text.
pub fn players_from(text: Option<&str>) -> PerSeat<Player> {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default()
}

/// Who made an entry, as the store keeps it (`actor`).
pub fn actor(entry: &Entry) -> Option<&'static str> {
    entry.by.map(umpire_core::By::as_str)
}

/// An entry's maker read back from [`actor`]'s text.
pub fn by_from(actor: Option<&str>) -> Option<umpire_core::By> {
    actor.and_then(|a| a.parse().ok())
}

/// One write, acknowledged once committed.
#[derive(Clone, Debug)]
pub enum Op {
    Create(Box<MatchRow>),
    /// Accepted entries `first..first + entries.len()`; `finished` when the
    /// match ended with them (outcome and wall time). Refused unless the
    /// match is being played and `first` is its next entry: no index is
    /// written twice, none is skipped.
    Append {
        id: String,
        first: usize,
        entries: Vec<Entry>,
        finished: Option<(Outcome, u64)>,
    },
    /// A seat changed hands (a takeover by a bot).
    Seats {
        id: String,
        seats: PerSeat<SeatKind>,
    },
    /// An invite was claimed, or a rematch made.
    Tokens {
        id: String,
        tokens: Tokens,
    },
    /// Called off (its seats never arrived, or nobody moved for long), for
    /// `reason`. Neither finished nor resumed.
    Abandon {
        id: String,
        at_ms: u64,
        reason: String,
    },
    /// A line of chat, kept with its match.
    Chat {
        id: String,
        line: ChatLine,
    },
}

//! What clients send: a new match, a seat's token.

use serde::Deserialize;
use serde_json::Value;
use umpire_core::{PerSeat, Seat};

use crate::store::SeatKind;

/// `POST /api/matches`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub game: String,
    #[serde(default)]
    pub config: Value,
    #[serde(default = "yes")]
    pub timed: bool,
    #[serde(default = "people", deserialize_with = "seats_or_people")]
    pub seats: PerSeat<SeatKind>,
    #[serde(default = "yes")]
    pub takeover: bool,
    /// The seat the creator plays: they get its link and an invite for the
    /// other seat, never the umpire's link or the other seat's key. Without
    /// it the creator hosts: the umpire's link and every seat's.
    #[serde(default, rename = "as")]
    pub creator: Option<Seat>,
    /// The invited seat is listed in the lobby: anyone may take it.
    #[serde(default)]
    pub open: bool,
    /// The players' display names.
    #[serde(default)]
    pub names: crate::hosting::Names,
    /// A host runs the match: the umpire's link may enter the seats'
    /// actions and make the umpire's rulings (docs/hosting.md).
    #[serde(default)]
    pub host: bool,
    /// A clock of the host's own instead of the rulebook's.
    #[serde(default)]
    pub clock: Option<crate::hosting::Clock>,
    /// The seed, set by a host (to play a match again); drawn otherwise.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Whether the audience may watch while it is played (a host may keep
    /// it out until the end).
    #[serde(default = "yes")]
    pub audience: bool,
}

fn yes() -> bool {
    true
}

fn people() -> PerSeat<SeatKind> {
    PerSeat::new(SeatKind::Person, SeatKind::Person)
}

fn person() -> SeatKind {
    SeatKind::Person
}

/// `seats` with either seat left out: a seat not given is a person.
fn seats_or_people<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PerSeat<SeatKind>, D::Error> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Given {
        #[serde(rename = "P1", default = "person")]
        p1: SeatKind,
        #[serde(rename = "P2", default = "person")]
        p2: SeatKind,
    }
    // An object only (serde would also read a list, even an empty one).
    let value = Value::deserialize(d)?;
    if !value.is_object() {
        return Err(serde::de::Error::custom(
            "seats is an object like {\"P1\": {\"kind\": \"person\"}, \"P2\": {\"kind\": \"bot\", \"bot\": \"easy\"}}",
        ));
    }
    let given = Given::deserialize(value).map_err(serde::de::Error::custom)?;
    Ok(PerSeat::new(given.p1, given.p2))
}

#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    pub t: Option<String>,
}

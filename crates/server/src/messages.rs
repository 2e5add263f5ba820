//! The protocol's messages (see `docs/protocol.md`). Every piece of game data
//! a client receives is built here, from the recipient's own view: this is
//! the one chokepoint for secrets.

use serde::Deserialize;
use serde_json::{Value, json};
use umpire_core::{Match, Viewer};

/// At most this many legal actions are listed in a `state` message.
pub const MAX_LEGAL: usize = 1000;

/// A message from a client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMsg {
    Act { action: String },
    Resign,
    Takeover,
    Ping,
}

pub fn hello(viewer: Viewer, game: &str, name: &str, id: &str, takeover: Value) -> String {
    json!({"type": "hello", "you": viewer.to_string(), "game": game, "name": name,
           "match": id, "takeover": takeover})
    .to_string()
}

/// What `viewer` may know of the match at match time `now`. `seats` is the
/// public table of who plays each seat.
pub fn state(m: &Match, viewer: Viewer, seats: &Value, now: u64) -> Value {
    let decision = m.decision();
    let mut msg = json!({
        "type": "state",
        "seq": m.record().actions.len(),
        "view": m.view(viewer),
        "decision": decision,
        "clocks": m.clocks(now),
        "outcome": m.outcome(),
        "seats": seats,
    });
    if let Some(seat) = viewer.seat().filter(|&s| decision.seats.contains(s)) {
        if let Some(actions) = m.state().legal_actions(seat) {
            let legal: Vec<String> = actions.take(MAX_LEGAL + 1).collect();
            if legal.len() <= MAX_LEGAL {
                msg["legal"] = json!(legal);
            }
        }
    }
    msg
}

pub fn accepted(action: &str, seq: usize) -> String {
    json!({"type": "accepted", "action": action, "seq": seq}).to_string()
}

pub fn error(rule: &str, message: &str) -> String {
    json!({"type": "error", "rule": rule, "message": message}).to_string()
}

pub fn pong() -> String {
    json!({"type": "pong"}).to_string()
}

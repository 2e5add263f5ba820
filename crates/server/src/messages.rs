//! The protocol's messages (see `docs/protocol.md`). Every piece of game data
//! a client receives is built here, from the recipient's own view: this is
//! the one chokepoint for secrets.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use umpire_core::{ActionError, ClockStatus, Decision, Match, Outcome, PerSeat, Seat, Viewer};

/// At most this many legal actions are listed in a `state` message.
pub const MAX_LEGAL: usize = 1000;

/// A message from a client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMsg {
    Act {
        action: String,
    },
    /// Would this action be accepted now? Nothing changes.
    Check {
        action: String,
        #[serde(default)]
        id: Option<u64>,
    },
    Resign,
    Takeover,
    /// Asks for a rematch once the game is over, or accepts the opponent's.
    Rematch,
    Ping,
}

pub fn hello(viewer: Viewer, game: &str, name: &str, id: &str, takeover: Value) -> String {
    json!({"type": "hello", "you": viewer.to_string(), "game": game, "name": name,
           "match": id, "takeover": takeover})
    .to_string()
}

/// What `viewer` may know of the match at match time `now`, as its `seq`th
/// change ([`crate::shown`]). `seats` is the public table of who plays each
/// seat. `now` is `None` before play can start: the clocks are shown
/// stopped, at their full time.
pub fn state(m: &Match, viewer: Viewer, seq: u64, seats: &Value, now: Option<u64>) -> Value {
    let view = m.view_text(viewer);
    serde_json::to_value(State::new(m, viewer, view, seq, seats, now)).unwrap_or_default()
}

/// [`state`] as text, written straight from the engine's types; `view` is
/// `m.view_text(viewer)`, when it was made already.
pub fn state_text(
    m: &Match,
    viewer: Viewer,
    view: Option<String>,
    seq: u64,
    seats: &Value,
    now: Option<u64>,
) -> String {
    let view = view.unwrap_or_else(|| m.view_text(viewer));
    serde_json::to_string(&State::new(m, viewer, view, seq, seats, now)).unwrap_or_default()
}

#[derive(Serialize)]
struct State<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    view: Box<RawValue>,
    decision: Decision,
    clocks: Option<PerSeat<ClockStatus>>,
    outcome: Option<Outcome>,
    seats: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Box<RawValue>>,
}

impl<'a> State<'a> {
    fn new(
        m: &Match,
        viewer: Viewer,
        view: String,
        seq: u64,
        seats: &'a Value,
        now: Option<u64>,
    ) -> State<'a> {
        let decision = m.decision_for(viewer);
        let legal = viewer
            .seat()
            .filter(|&s| decision.seats().contains(s))
            .and_then(|seat| m.state().legal_json(seat, MAX_LEGAL))
            .and_then(|text| RawValue::from_string(text).ok());
        State {
            kind: "state",
            seq,
            // Written straight from the game's types: no `Value` tree.
            view: RawValue::from_string(view).unwrap_or_default(),
            decision,
            clocks: m.clocks(viewer, now.unwrap_or(m.now())).map(|clocks| {
                PerSeat::from_fn(|seat| ClockStatus {
                    running: clocks[seat].running && now.is_some(),
                    ..clocks[seat]
                })
            }),
            outcome: m.outcome(),
            seats,
            legal,
        }
    }
}

pub fn accepted(action: &str, seq: u64) -> String {
    json!({"type": "accepted", "action": action, "seq": seq}).to_string()
}

/// A refused action: the rule, the reason, and for notation where the text
/// went wrong, what was expected and a suggestion (`ActionError`'s fields).
pub fn refusal(e: &ActionError) -> String {
    let mut msg = serde_json::to_value(e).unwrap_or_default();
    msg["type"] = json!("error");
    msg.to_string()
}

/// The answer to a `check`: whether the action would be accepted now (in
/// canonical notation), or why not, as an `error` says it.
pub fn checked(id: Option<u64>, result: Result<String, ActionError>) -> String {
    let mut msg = match result {
        Ok(action) => json!({"ok": true, "action": action}),
        Err(e) => {
            let mut m = serde_json::to_value(&e).unwrap_or_default();
            m["ok"] = json!(false);
            m
        }
    };
    msg["type"] = json!("checked");
    msg["id"] = json!(id);
    msg.to_string()
}

pub fn error(rule: &str, message: &str) -> String {
    json!({"type": "error", "rule": rule, "message": message}).to_string()
}

/// Who asked for a rematch, and the rematch once both seats agreed (its
/// seats are swapped; each person's key opens their new seat).
pub fn rematch(offers: &[Seat], id: Option<&str>) -> String {
    json!({"type": "rematch", "offers": offers, "match": id}).to_string()
}

pub fn pong() -> String {
    json!({"type": "pong"}).to_string()
}

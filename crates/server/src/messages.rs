//! The protocol's messages (see `docs/protocol.md`). Every piece of game data
//! a client receives is built here, from the recipient's own view: this is
//! the one chokepoint for secrets.

use serde::Deserialize;
use serde_json::{Value, json};
use umpire_core::{ActionError, ClockStatus, Match, PerSeat, Seat, Viewer};

/// At most this many legal actions are listed in a `state` message.
pub const MAX_LEGAL: usize = 1000;

/// A message from a client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMsg {
    /// An action; `seat` from the umpire's link of a host's match: the
    /// host enters it for that seat.
    Act {
        action: String,
        #[serde(default)]
        seat: Option<Seat>,
    },
    /// Would this action be accepted now? Nothing changes. `seat` as in
    /// `Act`.
    Check {
        action: String,
        #[serde(default)]
        id: Option<u64>,
        #[serde(default)]
        seat: Option<Seat>,
    },
    /// The umpire's ruling about `seat`'s play (a host's match only).
    Rule {
        seat: Seat,
        ruling: String,
    },
    /// A seat asks the host whether `action` would be accepted (a host's
    /// match only).
    Ask {
        action: String,
    },
    /// Resigns; `seat` as in `Act`.
    Resign {
        #[serde(default)]
        seat: Option<Seat>,
    },
    Takeover,
    /// Asks for a rematch once the game is over, or accepts the opponent's.
    Rematch,
    /// A line of chat ([`crate::chat`]).
    Chat {
        text: String,
    },
    Ping,
}

/// The first message of a connection. `fixed` names the hidden options a
/// host set; `host` says a host runs the match, and for the umpire
/// `rulings` how the game's rulings are written (empty: none).
pub fn hello(info: &crate::live::Info, viewer: Viewer, takeover: Value) -> String {
    let mut hello = json!({"type": "hello", "you": viewer.to_string(), "game": info.game.id(),
           "name": info.game.name(), "match": info.id, "takeover": takeover,
           "fixed": info.fixed, "host": info.hosted, "audience": info.audience});
    if info.hosted && viewer == Viewer::Umpire {
        hello["rulings"] = json!(info.game.rulings());
    }
    hello.to_string()
}

/// Who sits where now (`seats`: the table a `state` carries, as JSON text),
/// sent when a seat's person comes or goes.
pub fn presence(seats: &str) -> String {
    format!("{{\"type\":\"presence\",\"seats\":{seats}}}")
}

/// What `viewer` may know of the match at match time `now`, as its `seq`th
/// change ([`crate::shown`]). `seats` is the public table of who plays each
/// seat, as JSON text. `now` is `None` before play can start: the clocks are
/// shown stopped, at their full time.
pub fn state(m: &Match, viewer: Viewer, seq: u64, seats: &str, now: Option<u64>) -> Value {
    serde_json::from_str(&state_text(m, viewer, None, seq, seats, now)).unwrap_or_default()
}

/// [`state`] as text; `view` is `m.view_text(viewer)`, when it was made
/// already. The view, the seats and the legal actions are JSON text made by
/// serde_json already, so they are written in as they are, not parsed
/// again.
pub fn state_text(
    m: &Match,
    viewer: Viewer,
    view: Option<String>,
    seq: u64,
    seats: &str,
    now: Option<u64>,
) -> String {
    let view = view.unwrap_or_else(|| m.view_text(viewer));
    let decision = m.decision_for(viewer);
    let legal = viewer
        .seat()
        .filter(|&s| decision.seats().contains(s))
        .and_then(|seat| m.state().legal_json(seat, MAX_LEGAL));
    let clocks = m.clocks(viewer, now.unwrap_or(m.now())).map(|clocks| {
        PerSeat::from_fn(|seat| ClockStatus {
            running: clocks[seat].running && now.is_some(),
            ..clocks[seat]
        })
    });
    let legal_len = legal.as_ref().map_or(0, String::len);
    let mut out = Vec::with_capacity(view.len() + seats.len() + legal_len + 320);
    // Writing to a Vec cannot fail.
    out.extend_from_slice(b"{\"type\":\"state\",\"seq\":");
    let _ = serde_json::to_writer(&mut out, &seq);
    out.extend_from_slice(b",\"view\":");
    out.extend_from_slice(view.as_bytes());
    out.extend_from_slice(b",\"decision\":");
    let _ = serde_json::to_writer(&mut out, &decision);
    out.extend_from_slice(b",\"clocks\":");
    let _ = serde_json::to_writer(&mut out, &clocks);
    out.extend_from_slice(b",\"outcome\":");
    let _ = serde_json::to_writer(&mut out, &m.outcome());
    out.extend_from_slice(b",\"seats\":");
    out.extend_from_slice(seats.as_bytes());
    if let Some(legal) = legal {
        out.extend_from_slice(b",\"legal\":");
        out.extend_from_slice(legal.as_bytes());
    }
    out.push(b'}');
    String::from_utf8(out).unwrap_or_default()
}

pub fn accepted(action: &str, seq: u64) -> String {
    // One a move: written directly, not through a `Value`.
    let action = serde_json::to_string(action).unwrap_or_default();
    format!(r#"{{"type":"accepted","action":{action},"seq":{seq}}}"#)
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

/// To the host: `seat`'s own action `text` was refused, as the seat was
/// told (the host may overrule the machine).
pub fn refused_to_host(seat: Seat, text: &str, e: &ActionError) -> String {
    let mut msg = serde_json::to_value(e).unwrap_or_default();
    msg["type"] = json!("refused");
    msg["seat"] = json!(seat);
    msg["action"] = json!(text);
    msg.to_string()
}

/// To the host and the asking seat: what the machine says of `text`, which
/// `seat` asked the host about; as a `checked` says it.
pub fn asked(seat: Seat, text: &str, result: Result<String, ActionError>) -> String {
    let mut msg = serde_json::from_str::<Value>(&checked(None, result)).unwrap_or_default();
    msg["type"] = json!("asked");
    msg["seat"] = json!(seat);
    msg["asked"] = json!(text);
    if let Some(m) = msg.as_object_mut() {
        m.remove("id");
    }
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

/// Lines of chat the recipient may read ([`crate::chat`]); `all` when they
/// are every such line so far (on connecting), replacing what it had.
pub fn chat(lines: &[crate::chat::ChatLine], all: bool) -> String {
    json!({"type": "chat", "all": all, "lines": lines}).to_string()
}

/// The match log's lines from index `from` on ([`crate::log`]): the
/// recipient keeps its first `from` lines and adds these.
pub fn log(from: usize, lines: &[crate::log::LogLine]) -> String {
    json!({"type": "log", "from": from, "lines": lines}).to_string()
}

pub fn pong() -> String {
    json!({"type": "pong"}).to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use umpire_core::{Match, MatchOptions, Seat, Viewer, seeded_rng};

    use super::*;

    /// The `state` text, written piece by piece, is one JSON object whose
    /// every field is what the engine says, for every game and viewer.
    #[test]
    fn state_text_is_the_engines_view_decision_clocks_and_legal_actions() {
        let seats = r#"{"P1":{"kind":"person","connected":true},"P2":{"kind":"bot","bot":"easy"}}"#;
        let mut rng = seeded_rng(3);
        for &game in umpire_catalog::games() {
            let options = MatchOptions::default();
            let mut m = Match::new(game, &game.default_config(), 5, options).expect("a match");
            for step in 0..12u64 {
                for viewer in [
                    Viewer::Seat(Seat::P1),
                    Viewer::Seat(Seat::P2),
                    Viewer::Spectator,
                    Viewer::Umpire,
                ] {
                    let text = state_text(&m, viewer, None, step, seats, Some(m.now()));
                    let state: Value = serde_json::from_str(&text).expect("JSON");
                    let id = game.id();
                    assert_eq!(state["type"], "state");
                    assert_eq!(state["seq"], step);
                    assert_eq!(state["view"], m.view(viewer), "{id} {viewer}");
                    let decision = serde_json::to_value(m.decision_for(viewer)).expect("JSON");
                    assert_eq!(state["decision"], decision, "{id} {viewer}");
                    let clocks = serde_json::to_value(m.clocks(viewer, m.now())).expect("JSON");
                    assert_eq!(state["clocks"], clocks, "{id} {viewer}");
                    assert_eq!(state["outcome"], json!(m.outcome()));
                    assert_eq!(state["seats"]["P2"]["bot"], "easy");
                    let to_act = viewer
                        .seat()
                        .filter(|&s| m.decision_for(viewer).seats().contains(s));
                    let legal = to_act.and_then(|s| m.state().legal_actions(s));
                    match legal.map(|l| l.collect::<Vec<_>>()) {
                        Some(l) if l.len() <= MAX_LEGAL => assert_eq!(state["legal"], json!(l)),
                        _ => assert!(state.get("legal").is_none(), "{id} {viewer}"),
                    }
                }
                let Some(seat) = m.decision().seats().iter().next() else {
                    break;
                };
                let Some(action) = m.state().sample_action(seat, &mut rng) else {
                    break;
                };
                let now = m.now() + 100;
                m.submit(seat, &action, now)
                    .expect("a sampled action is legal");
            }
        }
    }
}

//! The server on the engine's test game, Sealed Bids
//! (`umpire_core::testing::SealedBids`), through real WebSockets: two seats
//! facing different decisions at once, a timeout whose effect the game
//! decides, and a clock that depends on a secret choice, which neither the
//! opponent nor a spectator may learn of.

mod common;

use common::*;
use serde_json::{Value, json};
use umpire_core::{Match, Record};
use umpire_load::client::{Ws, http_json};
use umpire_server::Config;

const GAME: &str = "sealed-bids";

/// The test games, `speed` match milliseconds to a real one.
fn at_speed(speed: u64) -> Config {
    Config {
        speed,
        ..with_test_games()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_games_are_served_only_when_asked() {
    let s = start(fast()).await;
    let listed = games(s.addr).await;
    assert!(!json!(listed).to_string().contains(GAME), "{listed:?}");
    let body = json!({"game": GAME});
    let error = bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
    assert!(error.contains("unknown game"), "{error}");

    let s = start(with_test_games()).await;
    let listed = games(s.addr).await;
    let ids: Vec<&str> = listed.iter().filter_map(|g| g["id"].as_str()).collect();
    assert!(
        ids.contains(&GAME) && ids.contains(&"masked-army"),
        "{ids:?}"
    );
    people(s.addr, GAME).await;
}

/// Sends an action and waits until it is accepted; returns the `state`
/// that shows it and everything received before it.
async fn act(ws: &mut Ws, action: &str) -> (Value, Vec<Value>) {
    ws.send(&json!({"type": "act", "action": action}))
        .await
        .expect("sent");
    let (accepted, mut before) = ws.until("accepted", WAIT).await.expect("accepted");
    assert_eq!(accepted["action"], action, "{before:?}");
    let (state, more) = ws.until("state", WAIT).await.expect("its state");
    before.extend(more);
    assert_eq!(state["seq"], accepted["seq"], "the state that shows it");
    (state, before)
}

/// What a client was told besides the match log's line for a round's end:
/// that line says only what everyone may know (no notation of a sealed
/// bid, no time-out under the cover); any other line counts as told.
fn besides_the_log(told: &[Value]) -> Vec<&Value> {
    let round_over = |line: &Value| {
        let text = line["text"].as_str().unwrap_or_default();
        let words: Vec<&str> = text.split(' ').collect();
        matches!(words[..], ["round", n, "is", "over"] if n.parse::<u32>().is_ok())
            && line.get("notation").is_none()
            && line.get("timed_out").is_none()
    };
    told.iter()
        .filter(|m| {
            m["type"] != "log"
                || !m["lines"]
                    .as_array()
                    .is_some_and(|l| l.iter().all(round_over))
        })
        .collect()
}

/// The kind of decision `seat` faces in `state`, as its recipient may know.
fn kind<'a>(state: &'a Value, seat: &str) -> Option<&'a str> {
    state["decision"][seat]["kind"].as_str()
}

/// Everything but the clocks, which `state` messages sent at different
/// moments differ in.
fn without_clocks(state: &Value) -> Value {
    let mut state = state.clone();
    state["clocks"] = Value::Null;
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_seat_faces_its_own_decision_and_only_it_knows() {
    let s = start(with_test_games()).await;
    let c = people(s.addr, GAME).await;
    let (mut p1, mut p2) = join_both(s.addr, &c).await;
    let (mut umpire, _) = join(s.addr, &c.id, Some(&c.umpire)).await;
    let (mut spectator, at_start) = join(s.addr, &c.id, None).await;
    let (_, p2_before) = snapshot(s.addr, &c.id, c.p2.as_deref()).await;

    // P1 bids 3 and must confirm it; P2 and the spectator still see P1
    // bidding, and are not told anything happened.
    let (mine, _) = act(&mut p1, "bid 3").await;
    assert_eq!(kind(&mine, "P1"), Some("confirm"), "{mine}");
    assert_eq!(mine["legal"], json!(["confirm"]));
    let (umpires, _) = umpire.until("state", WAIT).await.expect("a state");
    assert_eq!(kind(&umpires, "P1"), Some("confirm"), "{umpires}");
    assert_eq!(umpires["seq"], 1, "{umpires}");
    for token in [c.p2.as_deref(), None] {
        let (_, theirs) = snapshot(s.addr, &c.id, token).await;
        assert_eq!(kind(&theirs, "P1"), Some("bid"), "{theirs}");
        assert_eq!(theirs["seq"], 0, "{theirs}");
    }
    let (_, p2_after) = snapshot(s.addr, &c.id, c.p2.as_deref()).await;
    assert_eq!(without_clocks(&p2_after), without_clocks(&p2_before));

    // P2 bids and has nothing left to do; trying again, it is told what a
    // seat still bidding would tell it, not that P1 must confirm.
    let (theirs, before) = act(&mut p2, "bid 1").await;
    assert!(before.is_empty(), "P2 was told of P1's bid: {before:?}");
    assert_eq!(kind(&theirs, "P2"), None, "{theirs}");
    assert_eq!(kind(&theirs, "P1"), Some("bid"), "{theirs}");
    p2.send(&json!({"type": "act", "action": "bid 2"}))
        .await
        .expect("sent");
    let (refused, _) = p2.until("error", WAIT).await.expect("refused");
    assert_eq!(refused["rule"], "already-submitted", "{refused}");

    // P1 confirms: the round is over for everyone.
    act(&mut p1, "confirm").await;
    let (next, between) = spectator.until("state", WAIT).await.expect("a state");
    assert!(besides_the_log(&between).is_empty(), "{between:?}");
    assert_eq!(next["seq"], 1, "one change since {at_start}");
    assert_eq!(next["view"]["round"], 1, "{next}");
    assert_eq!(next["view"]["points"]["P1"], at_start["view"]["prizes"][0]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_bid_is_the_games_own_timeout_recorded_with_its_effect() {
    // Fifty match milliseconds per real one: a 21.5 s bid lasts 0.43 s.
    let s = start(at_speed(50)).await;
    let c = people(s.addr, GAME).await;
    let (mut spectator, _) = join(s.addr, &c.id, None).await;
    let (mut p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    // P1 bids in the first round; P2 never does. Each missed bid is a bid
    // of 0, which no player could send.
    p1.send(&json!({"type": "act", "action": "bid 2"}))
        .await
        .expect("sent");
    let mut states = Vec::new();
    loop {
        let (state, _) = spectator.until("state", WAIT).await.expect("a state");
        states.push(state.clone());
        if !state["outcome"].is_null() {
            break;
        }
    }
    let path = format!("/api/matches/{}/record", c.id);
    let (status, record) = http_json(s.addr, "GET", &path, None).await.expect("record");
    assert_eq!(status, 200, "{record}");
    let actions = record["actions"].as_array().expect("actions");
    let p2_missed = actions
        .iter()
        .find(|e| e["seat"] == "P2")
        .expect("P2 in the record");
    assert_eq!(
        (&p2_missed["action"], &p2_missed["effect"]),
        (&json!("timeout"), &json!("P2 bids 0")),
        "{record}"
    );
    // In the last rounds both seats' bids ran out at the same moment: one
    // step, one message to the spectator. P1's sealed bid was none.
    let last = &actions[actions.len() - 2..];
    assert_eq!(last[0]["at_ms"], last[1]["at_ms"], "{record}");
    assert_eq!(last[0]["effect"], "P1 bids 0", "{record}");
    assert_eq!(last[1]["effect"], "P2 bids 0", "{record}");
    let seqs: Vec<u64> = states.iter().filter_map(|s| s["seq"].as_u64()).collect();
    // (P1 arriving was a `presence` message, not a state.)
    assert_eq!(seqs, [1, 2, 3], "three rounds");
    let record: Record = serde_json::from_value(record).expect("a record");
    let game = umpire_catalog::require_in(umpire_catalog::with_tests(), GAME).expect("a game");
    let replayed = Match::replay(game, &record).expect("the record replays");
    assert_eq!(replayed.record(), &record);
}

/// `state` with what may differ between two matches of the same story
/// taken away: the prizes drawn from the seed, the points won with them,
/// and turn times a moment apart (they must be within 2 s of `like`'s).
fn story(state: &Value, like: &Value) -> Value {
    let mut state = state.clone();
    state["view"]["prizes"] = Value::Null;
    state["view"]["points"] = Value::Null;
    for seat in ["P1", "P2"] {
        let clock = &mut state["clocks"][seat];
        let (a, b) = (
            clock["turn_ms"].as_i64(),
            like["clocks"][seat]["turn_ms"].as_i64(),
        );
        let (a, b) = (a.expect("a clock"), b.expect("a clock"));
        assert!((a - b).abs() < 2_000, "{seat}: {a} ms, then {b} ms");
        clock["turn_ms"] = Value::Null;
    }
    state
}

/// One round in which P1 bids 2 (after pondering, if `ponder`) and P2 bids
/// 1; returns every `state` P2 and a spectator get, or would get by asking
/// or reconnecting, while it is played.
async fn round_seen_by_others(s: &TestServer, ponder: bool) -> Vec<Value> {
    let c = people(s.addr, GAME).await;
    let (mut p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (mut p2, p2_first) = join(s.addr, &c.id, c.p2.as_deref()).await;
    let (mut spectator, spectator_first) = join(s.addr, &c.id, None).await;
    if ponder {
        let (mine, _) = act(&mut p1, "ponder").await;
        // P1's own clock is now 20 s.
        let turn = mine["clocks"]["P1"]["turn_ms"].as_u64().expect("a clock");
        assert!((15_000..=20_000).contains(&turn), "{mine}");
    }
    act(&mut p1, "bid 2").await;
    let (_, p2_asks) = snapshot(s.addr, &c.id, c.p2.as_deref()).await;
    let (_, spectator_asks) = snapshot(s.addr, &c.id, None).await;
    let (again, p2_reconnects) = join(s.addr, &c.id, c.p2.as_deref()).await;
    again.close().await;
    let (p2_last, told) = act(&mut p2, "bid 1").await;
    assert!(
        besides_the_log(&told).is_empty(),
        "P2 was told of P1's moves: {told:?}"
    );
    let (spectator_last, told) = spectator.until("state", WAIT).await.expect("a state");
    assert!(
        besides_the_log(&told).is_empty(),
        "the spectator was told: {told:?}"
    );
    vec![
        p2_first,
        spectator_first,
        p2_asks,
        spectator_asks,
        p2_reconnects,
        p2_last,
        spectator_last,
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whether_a_seat_pondered_shows_in_no_message_to_others() {
    let s = start(with_test_games()).await;
    let plain = round_seen_by_others(&s, false).await;
    let pondered = round_seen_by_others(&s, true).await;
    for (i, (a, b)) in plain.iter().zip(&pondered).enumerate() {
        assert_eq!(story(a, a), story(b, a), "message {i}");
    }
    // While P1 bid, the others saw both seats bidding on the public 30 s.
    let p2_asks = &pondered[2];
    assert_eq!(kind(p2_asks, "P1"), Some("bid"), "{p2_asks}");
    let turn = p2_asks["clocks"]["P1"]["turn_ms"]
        .as_u64()
        .expect("a clock");
    assert!(turn > 25_000, "{p2_asks}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_under_a_cover_sends_the_others_nothing() {
    // Ten match milliseconds per real one: P1's bid runs out after 2.15 s,
    // P2's (pondered) after 3.15 s.
    let s = start(at_speed(10)).await;
    let c = people(s.addr, GAME).await;
    let (mut p1, mut p2) = join_both(s.addr, &c).await;
    let (mut umpire, _) = join(s.addr, &c.id, Some(&c.umpire)).await;
    let (mut spectator, _) = join(s.addr, &c.id, None).await;
    act(&mut p2, "ponder").await;
    // P1 lets its bid run out: only P1 and the umpire hear of it.
    let missed = |state: &Value| state["view"]["sealed"]["P1"] == "0";
    for ws in [&mut p1, &mut umpire] {
        while !missed(&ws.until("state", WAIT).await.expect("a state").0) {}
    }
    let (theirs, told) = act(&mut p2, "bid 1").await;
    assert!(
        besides_the_log(&told).is_empty(),
        "P2 was told of P1's timeout: {told:?}"
    );
    assert_eq!(theirs["view"]["round"], 1, "{theirs}");
    let (next, told) = spectator.until("state", WAIT).await.expect("a state");
    assert!(
        besides_the_log(&told).is_empty(),
        "the spectator was told: {told:?}"
    );
    assert_eq!(
        (&next["seq"], &next["view"]["round"]),
        (&json!(1), &json!(1))
    );
    let (_, umpires) = snapshot(s.addr, &c.id, Some(&c.umpire)).await;
    assert_eq!(
        umpires["view"]["points"]["P2"],
        next["view"]["points"]["P2"]
    );
    let path = format!("/api/matches/{}/record?t={}", c.id, c.umpire);
    let (_, record) = http_json(s.addr, "GET", &path, None).await.expect("record");
    assert_eq!(record["actions"][1]["effect"], "P1 bids 0", "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_viewers_seq_goes_on_after_a_restart() {
    let s = start(with_test_games()).await;
    let c = people(s.addr, GAME).await;
    let (mut p1, mut p2) = join_both(s.addr, &c).await;
    // Sealed actions count for their seat and the umpire only.
    act(&mut p1, "ponder").await;
    act(&mut p1, "bid 3").await;
    act(&mut p2, "bid 2").await;
    let tokens = [
        c.p1.as_deref(),
        c.p2.as_deref(),
        None,
        Some(c.umpire.as_str()),
    ];
    let mut before = Vec::new();
    for token in tokens {
        before.push(snapshot(s.addr, &c.id, token).await.1);
    }
    let seqs: Vec<&Value> = before.iter().map(|s| &s["seq"]).collect();
    assert_eq!(seqs, [&json!(2), &json!(1), &json!(0), &json!(3)]);
    p1.close().await;
    p2.close().await;
    let TestServer { server, dir, .. } = s;
    server.stop();
    let s = start_in(dir, with_test_games()).await;
    for (token, before) in tokens.into_iter().zip(&before) {
        let (_, after) = join(s.addr, &c.id, token).await;
        assert_eq!(after["seq"], before["seq"], "{after}");
        assert_eq!(after["view"], before["view"], "{after}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_says_what_an_action_would_do_and_changes_nothing() {
    let s = start(with_test_games()).await;
    let c = people(s.addr, GAME).await;
    let (mut p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (mut spectator, _) = join(s.addr, &c.id, None).await;
    let (_, before) = snapshot(s.addr, &c.id, c.p1.as_deref()).await;
    let check = |action: &str, id: u64| json!({"type": "check", "action": action, "id": id});
    p1.send(&check("bid 9", 1)).await.expect("sent");
    let (refused, _) = p1.until("checked", WAIT).await.expect("checked");
    assert_eq!(
        (&refused["id"], &refused["ok"], &refused["rule"]),
        (&json!(1), &json!(false), &json!("bid-range")),
        "{refused}"
    );
    p1.send(&check("BID 2", 2)).await.expect("sent");
    let (fine, _) = p1.until("checked", WAIT).await.expect("checked");
    assert_eq!(
        fine,
        json!({"type": "checked", "id": 2, "ok": true, "action": "bid 2"})
    );
    // Nothing happened: the same state, no message to anyone else, and the
    // checked action is still to be made.
    let (_, after) = snapshot(s.addr, &c.id, c.p1.as_deref()).await;
    let settled = |state: &Value| {
        let mut state = without_clocks(state);
        state["seats"] = Value::Null; // how long P2 has been away
        state
    };
    assert_eq!(settled(&after), settled(&before));
    assert!(
        spectator
            .until("state", std::time::Duration::from_millis(300))
            .await
            .is_err()
    );
    act(&mut p1, "bid 2").await;
    // A spectator may not ask.
    spectator.send(&check("bid 1", 3)).await.expect("sent");
    let (error, _) = spectator.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "forbidden");
}

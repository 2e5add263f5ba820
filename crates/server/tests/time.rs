//! Clocks on the server (timeouts act by themselves), resuming after a
//! restart with clocks that stood still, reconnection and takeover.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;
use umpire_core::{Match, Record};
use umpire_load::client::http_json;

/// These tests rely on Masked Army's rules: the advantage seat (P1)
/// decides first, and a seat out of time loses.
fn game() -> &'static str {
    "masked-army"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_out_by_itself() {
    // A thousand match milliseconds per real one: minutes pass in a blink.
    let s = start(fast_with(|c| c.speed = 1000)).await;
    let c = people(s.addr, game()).await;
    let (mut spectator, _) = join(s.addr, &c.id, None).await;
    let _p1 = join(s.addr, &c.id, c.p1.as_deref()).await;
    let _p2 = join(s.addr, &c.id, c.p2.as_deref()).await;
    let (over, _) = state_at(&mut spectator, 1).await;
    assert!(!over["outcome"].is_null(), "{over}");
    let path = format!("/api/matches/{}/record", c.id);
    let (status, record) = http_json(s.addr, "GET", &path, None).await.expect("record");
    assert_eq!(status, 200);
    let record: Record = serde_json::from_value(record).expect("a record");
    assert!(
        record.actions.iter().any(|e| e.action == "timeout"),
        "{record:?}"
    );
    let game = umpire_catalog::require(game()).expect("a game");
    assert_eq!(
        Match::replay(game, &record).expect("replays").record(),
        &record
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_resumes_every_match_where_it_was() {
    let s = start(fast()).await;
    let c = people(s.addr, game()).await;
    let (mut p1, mut p2) = join_both(s.addr, &c).await;
    // A few moves by whoever must act, as its snapshot says.
    for _ in 0..5 {
        let (_, s1) = snapshot(s.addr, &c.id, c.p1.as_deref()).await;
        let (_, s2) = snapshot(s.addr, &c.id, c.p2.as_deref()).await;
        let (mover, state) = if to_act(&s1, "P1") {
            (&mut p1, s1)
        } else {
            (&mut p2, s2)
        };
        act_first_legal(mover, &state).await;
    }
    let before = snapshot(s.addr, &c.id, Some(&c.umpire)).await.1;
    let p1_before = snapshot(s.addr, &c.id, c.p1.as_deref()).await.1;
    let p1_clock = before["clocks"].clone();
    p1.close().await;
    p2.close().await;
    // Stop, wait, start on the same store.
    let TestServer { server, dir, .. } = s;
    server.stop();
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let s = start_in(dir, fast()).await;
    let (status, after) = snapshot(s.addr, &c.id, Some(&c.umpire)).await;
    assert_eq!(status, 200);
    assert_eq!(after["seq"], before["seq"]);
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["decision"], before["decision"]);
    // Clocks stood still while the server was down: the running clock resumes
    // from the last recorded action, within moments of where it stood.
    for seat in ["P1", "P2"] {
        let (b, a) = (&p1_clock[seat], &after["clocks"][seat]);
        assert_eq!(a["bank_ms"], b["bank_ms"]);
        let (b, a) = (
            b["turn_ms"].as_u64().unwrap_or(0),
            a["turn_ms"].as_u64().unwrap_or(0),
        );
        assert!(b.abs_diff(a) < 1500, "{seat}: {b} ms before, {a} ms after");
    }
    // Reconnecting with a token gives the current view, and each viewer's
    // seq goes on from where it was.
    let (_, mine) = join(s.addr, &c.id, c.p1.as_deref()).await;
    assert_eq!(mine["view"], p1_before["view"]);
    assert_eq!(mine["seq"], p1_before["seq"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_absent_opponent_can_be_handed_to_a_bot_after_the_grace() {
    let s = start(fast_with(|c| c.grace_ms = 300)).await;
    let c = people(s.addr, game()).await;
    let (mut p1, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    assert!(
        to_act(&state, "P1"),
        "the advantage seat decides first: {state}"
    );
    // A seat nobody has taken yet is never handed over, however long.
    tokio::time::sleep(Duration::from_millis(400)).await;
    p1.send(&json!({"type": "takeover"})).await.expect("sent");
    let (error, _) = p1.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "takeover");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("not arrived")),
        "{error}"
    );
    // P2 arrives and leaves: the grace counts from the leaving, which P1
    // sees before it asks (its ask could otherwise reach the match first).
    let (p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
    p2.close().await;
    p1.until_seat("P2", false, WAIT)
        .await
        .expect("P2 is seen leaving");
    // Too early: refused.
    p1.send(&json!({"type": "takeover"})).await.expect("sent");
    let (error, _) = p1.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "takeover");
    tokio::time::sleep(Duration::from_millis(400)).await;
    p1.send(&json!({"type": "takeover"})).await.expect("sent");
    let (state, _) = p1.until("state", WAIT).await.expect("a state");
    assert_eq!(state["seats"]["P2"]["kind"], "bot", "{state}");
    // Play on: the bot answers every move until the end.
    let mut seq = state["seq"].as_u64().unwrap_or(0);
    let mut state = state;
    while state["outcome"].is_null() {
        if to_act(&state, "P1") {
            let accepted = act_first_legal(&mut p1, &state).await;
            seq = accepted["seq"].as_u64().expect("a seq");
        } else {
            seq += 1;
        }
        state = state_at(&mut p1, seq).await.0;
    }
    // The seat is the bot's for good: P2's own link can no longer act.
    let (mut p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
    p2.send(&json!({"type": "resign"})).await.expect("sent");
    let (error, _) = p2.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "forbidden");
    // A match may forbid it.
    let c = create(s.addr, json!({"game": game(), "takeover": false})).await;
    let (mut p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    p1.send(&json!({"type": "takeover"})).await.expect("sent");
    let (error, _) = p1.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "takeover");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_pause_between_moves_so_people_can_watch() {
    let s = start(fast_with(|c| c.bot_pace_ms = 30)).await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let c = create(
        s.addr,
        json!({"game": game(), "seats": {"P1": bot, "P2": bot}}),
    )
    .await;
    let (mut spectator, _) = join(s.addr, &c.id, None).await;
    loop {
        let (state, _) = spectator.until("state", WAIT).await.expect("a state");
        if !state["outcome"].is_null() {
            break;
        }
    }
    let path = format!("/api/matches/{}/record", c.id);
    let (_, record) = http_json(s.addr, "GET", &path, None).await.expect("record");
    let record: Record = serde_json::from_value(record).expect("a record");
    for pair in record.actions.windows(2) {
        assert!(pair[1].at_ms >= pair[0].at_ms + 30, "{pair:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_wait_until_both_seats_are_here() {
    let s = start(fast_with(|c| c.speed = 1000)).await;
    let c = people(s.addr, game()).await;
    let (mut p1, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    assert_eq!(state["clocks"]["P1"]["running"], false, "{state}");
    // Far longer than P1's whole time, in match time: nobody loses on time.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (_, now) = snapshot(s.addr, &c.id, Some(&c.umpire)).await;
    assert!(now["outcome"].is_null(), "{now}");
    assert_eq!(now["clocks"]["P1"]["running"], false, "{now}");
    assert_eq!(now["clocks"]["P1"]["bank_ms"], 300_000, "{now}");
    // P2 arrives: the clocks run, and P1's runs out.
    let (_p2, state) = join(s.addr, &c.id, c.p2.as_deref()).await;
    assert_eq!(state["clocks"]["P1"]["running"], true, "{state}");
    let (over, _) = state_at(&mut p1, 1).await;
    assert_eq!(over["outcome"]["winner"], "P2", "{over}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_action_starts_the_clocks() {
    let s = start(fast_with(|c| c.speed = 1000)).await;
    let c = people(s.addr, game()).await;
    let (mut p1, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    act_first_legal(&mut p1, &state).await;
    // P2 never came, but play started: a clock runs out.
    loop {
        let (state, _) = p1.until("state", WAIT).await.expect("a state");
        if !state["outcome"].is_null() {
            assert_eq!(state["outcome"]["decided_by"], "time", "{state}");
            break;
        }
    }
}

/// A bot that would think for ten seconds a move is held to its turn time:
/// it plays before its turn ends (a hair into its bank at most), never by
/// the bank nor by a timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_searching_bot_keeps_within_its_turn_time() {
    // Masked Army: 2 minutes a turn and a 5-minute bank; here 1.2 s a turn.
    let s = start(fast_with(|c| {
        c.speed = 100;
        c.bot_budget_ms = 600_000;
    }))
    .await;
    let bot = json!({"kind": "bot", "bot": "search@10s"});
    let c = create(
        s.addr,
        json!({"game": "masked-army", "timed": true, "seats": {"P1": bot, "P2": bot}}),
    )
    .await;
    let path = format!("/api/matches/{}/record?t={}", c.id, c.umpire);
    let record = loop {
        let (status, record) = http_json(s.addr, "GET", &path, None)
            .await
            .expect("answers");
        assert_eq!(status, 200, "{record}");
        if record["actions"].as_array().is_some_and(|a| a.len() >= 5) {
            break record;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let actions = record["actions"].as_array().expect("actions");
    let mut at = 0;
    for entry in actions {
        assert_ne!(entry["action"], "timeout", "{record}");
        let took = entry["at_ms"].as_u64().expect("at_ms") - at;
        // Within the turn (plus a few real ms of answering at speed 100),
        // and held back by it: a 10 s search would take 1,000 s here.
        assert!(took <= 120_000 + 3_000, "{took} ms: {record}");
        assert!(took >= 60_000, "the bot used its turn: {took} ms");
        at = entry["at_ms"].as_u64().expect("at_ms");
    }
}

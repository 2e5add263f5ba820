//! A host's match through real sockets: named players, the host entering a
//! seat's action (checked with the player's own errors) and ruling on its
//! play, a player at the page beside it, the record marking each, and the
//! console's texts, each built from its viewer's own view.

mod common;

use std::collections::BTreeSet;

use common::*;
use serde_json::{Value, json};
use umpire_core::{Match, Record};
use umpire_load::client::{Ws, http_json};

const GAME: &str = "sealed-bids";

fn named_host_match(game: &str) -> Value {
    json!({"game": game, "host": true, "timed": false,
           "names": {"P1": "Ada", "P2": "Bo Li"}})
}

/// Sends `msg` and waits for `kind`; returns it.
async fn ask(ws: &mut Ws, msg: Value, kind: &str) -> Value {
    ws.send(&msg).await.expect("sent");
    ws.until(kind, WAIT).await.expect(kind).0
}

/// A message that acts for `seat` (the host's way to play a seat).
fn act_for(seat: &str, action: &str) -> Value {
    json!({"type": "act", "seat": seat, "action": action})
}

/// The host's ruling on `seat`.
fn ruling(seat: &str, ruling: &str) -> Value {
    json!({"type": "rule", "seat": seat, "ruling": ruling})
}

async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    http_json(addr, "GET", path, None).await.expect("answers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_runs_a_mixed_match_and_the_record_replays_marking_the_host() {
    let s = start(with_test_games()).await;
    let m = create(s.addr, named_host_match(GAME)).await;
    // The player of P2 is at the page; P1 plays through the host.
    let (mut p2, first) = join(s.addr, &m.id, m.p2.as_deref()).await;
    assert_eq!(first["seats"]["P1"]["name"], "Ada");
    assert_eq!(first["seats"]["P2"]["name"], "Bo Li");
    let mut host = Ws::connect(s.addr, &m.id, Some(&m.umpire))
        .await
        .expect("connects");
    let (hello, _) = host.until("hello", WAIT).await.expect("hello");
    assert_has(&hello, json!({"host": true, "you": "umpire"}));
    assert!(
        hello["rulings"]
            .as_str()
            .is_some_and(|r| r.contains("void")),
        "{hello}"
    );

    // The host's entry is refused with the error the player would get.
    let refused = ask(&mut host, act_for("P1", "bid 7"), "error").await;
    assert_eq!(refused["rule"], "bid-range", "{refused}");
    let accepted = ask(&mut host, act_for("P1", "bid 2"), "accepted").await;
    assert_eq!(accepted["action"], "bid 2");
    // The host may check for a seat, as a board does.
    let checked = ask(
        &mut host,
        json!({"type": "check", "seat": "P2", "action": "bid 1", "id": 4}),
        "checked",
    )
    .await;
    assert_has(&checked, json!({"ok": true, "id": 4}));
    // The host rules: P1's bid is void, P1 bids again.
    ask(&mut host, ruling("P1", "void"), "accepted").await;
    // What the player sends reaches the host too: the refusal of its own
    // action, and the machine's answer to its question.
    let mut heard = Value::Null;
    for (msg, kind, has) in [
        (
            json!({"type": "act", "action": "bid 0"}),
            "refused",
            json!({"action": "bid 0"}),
        ),
        (
            json!({"type": "ask", "action": "bid 9"}),
            "asked",
            json!({"ok": false}),
        ),
    ] {
        p2.send(&msg).await.expect("sent");
        heard = host.until(kind, WAIT).await.expect(kind).0;
        assert_has(&heard, json!({"seat": "P2", "rule": "bid-range"}));
        assert_has(&heard, has);
    }
    // Both hear the answer to the question.
    assert_eq!(p2.until("asked", WAIT).await.expect("asked").0, heard);
    // A seat cannot act for the other seat, nor rule.
    for msg in [act_for("P1", "bid 1"), ruling("P1", "void")] {
        let no = ask(&mut p2, msg, "error").await;
        assert_eq!(no["rule"], "forbidden", "{no}");
    }

    // Three rounds: P1 by the host, P2 by its player.
    for round in 0..3 {
        ask(&mut host, act_for("P1", "bid 1"), "accepted").await;
        let accepted = ask(
            &mut p2,
            json!({"type": "act", "action": "bid 2"}),
            "accepted",
        )
        .await;
        assert_eq!(accepted["action"], "bid 2", "round {round}");
    }
    let (status, record) = get(s.addr, &format!("/api/matches/{}/record", m.id)).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["host"], true);
    assert_eq!(
        record["seats"],
        json!({"P1": {"name": "Ada"}, "P2": {"name": "Bo Li"}})
    );
    let by: Vec<(String, Option<String>)> = record["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|e| {
            (
                format!(
                    "{} {}",
                    e["seat"].as_str().unwrap(),
                    e["action"].as_str().unwrap()
                ),
                e["by"].as_str().map(str::to_string),
            )
        })
        .collect();
    let host_made = |s: &str| Some(s.to_string());
    assert_eq!(
        by[..3],
        [
            ("P1 bid 2".into(), host_made("host")),
            ("P1 void".into(), host_made("umpire")),
            ("P1 bid 1".into(), host_made("host"))
        ]
    );
    assert_eq!(by[3], ("P2 bid 2".into(), None));
    let parsed: Record = serde_json::from_value(record.clone()).expect("a record");
    Match::replay(
        umpire_catalog::find(umpire_catalog::with_tests(), GAME).unwrap(),
        &parsed,
    )
    .expect("the record replays");
    // The same record without its host is refused, saying why.
    let mut hostless = parsed.clone();
    hostless.host = false;
    let error = bad_request(s.addr, "POST", "/api/replay", Some(&json!(hostless))).await;
    assert!(error.contains("this match has no host"), "{error}");

    // What the store keeps comes back after a restart.
    let TestServer { server, dir, .. } = s;
    server.stop();
    let s = start_in(dir, with_test_games()).await;
    let (_, again) = get(s.addr, &format!("/api/matches/{}/record", m.id)).await;
    assert_eq!(again, record);
    let (_, lobby) = get(s.addr, "/api/matches").await;
    let finished = &lobby["finished"][0];
    assert_eq!(finished["seats"]["P2"]["name"], "Bo Li", "{lobby}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_hosts_match_lets_the_umpire_act_and_names_are_checked() {
    let s = start(with_test_games()).await;
    let plain = create(s.addr, json!({"game": GAME, "timed": false})).await;
    let (mut umpire, _) = join(s.addr, &plain.id, Some(&plain.umpire)).await;
    for msg in [act_for("P1", "bid 1"), ruling("P1", "void")] {
        let refused = ask(&mut umpire, msg, "error").await;
        assert_eq!(refused["rule"], "forbidden", "{refused}");
    }
    for (body, says) in [
        (
            json!({"game": GAME, "names": {"P1": "A\u{1b}[2J"}}),
            "P1's name",
        ),
        (
            json!({"game": GAME, "names": {"P2": "x".repeat(40)}}),
            "at most 32",
        ),
        (
            json!({"game": GAME, "names": {"P1": "Ada", "P2": "ADA"}}),
            "different names",
        ),
        (json!({"game": GAME, "names": {"P3": "Ada"}}), "P3"),
        (
            json!({"game": GAME, "host": true, "as": "P1"}),
            "a host plays neither seat",
        ),
        (
            json!({"game": GAME, "clock": {"bank_ms": 1u64 << 40}}),
            "at most",
        ),
    ] {
        let words = bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
        assert!(words.contains(says), "{body}: {words}");
    }
    // A host's own clock is the match's.
    let own = create(
        s.addr,
        json!({"game": GAME, "host": true, "clock": {"bank_ms": 90000}}),
    )
    .await;
    let (_, state) = snapshot(s.addr, &own.id, None).await;
    assert_eq!(state["clocks"]["P1"]["bank_ms"], 90000, "{state}");
}

/// Every string in `value`.
fn strings(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// Steps the host plays before resigning for P2.
const STEPS: usize = 40;

/// Checks the console at one step against what each viewer's own link
/// gets: each player's state and words are its own link's, and no longer
/// string of the umpire's view that the player's view lacks is in the
/// player's message.
async fn compare(
    addr: std::net::SocketAddr,
    m: &Created,
    console: &Value,
    game: &str,
    step: usize,
) {
    let umpire_view = &console["umpire"]["state"]["view"];
    for seat in ["P1", "P2"] {
        let token = m.token(seat).unwrap();
        let (_, own) = snapshot(addr, &m.id, Some(token)).await;
        let mine = &console[seat]["state"];
        assert_eq!(mine["view"], own["view"], "{game} step {step} {seat}");
        assert_eq!(mine["decision"], own["decision"], "{game} {seat}");
        let (_, words) = get(addr, &format!("/api/matches/{}/words?t={token}", m.id)).await;
        assert_eq!(console[seat]["words"], words, "{game} step {step} {seat}");
        let message = words["message"].as_str().unwrap();
        let name = if seat == "P1" { "Ada" } else { "Bo Li" };
        assert!(
            message.contains(&format!("for {name} ({seat})")),
            "{message}"
        );
        if console["umpire"]["state"]["outcome"].is_null() {
            let (mut theirs, mut ours) = (BTreeSet::new(), BTreeSet::new());
            strings(umpire_view, &mut theirs);
            strings(&own["view"], &mut ours);
            for secret in theirs.difference(&ours).filter(|t| t.len() >= 8) {
                assert!(
                    !message.contains(secret.as_str()),
                    "{game} step {step}: {seat}'s message holds `{secret}`"
                );
            }
        }
    }
    let (_, audience) = get(addr, &format!("/api/matches/{}/words", m.id)).await;
    assert_eq!(console["spectator"]["words"], audience);
}

/// Every game, played by the host through the console's socket (random
/// legal actions, then a resignation), checked at each step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_consoles_texts_are_each_viewers_own() {
    let s = start(fast()).await;
    let mut rng = umpire_core::seeded_rng(32);
    for &game in umpire_catalog::games() {
        let m = create(s.addr, named_host_match(game.id())).await;
        let (mut host, _) = join(s.addr, &m.id, Some(&m.umpire)).await;
        let path = format!(
            "/api/matches/{}/console?t={}",
            m.id,
            m.p1.as_deref().unwrap()
        );
        let (status, refused) = get(s.addr, &path).await;
        assert_eq!(status, 403, "{refused}");
        for step in 0..=STEPS + 1 {
            let path = format!("/api/matches/{}/console?t={}", m.id, m.umpire);
            let (status, console) = get(s.addr, &path).await;
            assert_eq!(status, 200, "{console}");
            compare(s.addr, &m, &console, game.id(), step).await;
            if !console["umpire"]["state"]["outcome"].is_null() {
                let result = console["umpire"]["words"]["result"].as_str().unwrap();
                assert!(
                    result.contains("Ada")
                        && result.contains("Bo Li")
                        && result.contains("Decided by"),
                    "{result}"
                );
                assert_eq!(
                    console["P1"]["words"]["result"], result,
                    "everyone is told the result"
                );
                break;
            }
            assert!(step <= STEPS, "{} did not end", game.id());
            let msg = if step == STEPS {
                json!({"type": "resign", "seat": "P2"})
            } else {
                // A random legal action of a seat that must act.
                let path = format!("/api/matches/{}/record?t={}", m.id, m.umpire);
                let record: Record = serde_json::from_value(get(s.addr, &path).await.1).unwrap();
                let now = Match::replay(game, &record).expect("replays");
                let seat = now.decision().seats().iter().next().expect("someone acts");
                let action = now
                    .state()
                    .sample_action(seat, &mut rng)
                    .expect("an action");
                json!({"type": "act", "seat": seat, "action": action})
            };
            ask(&mut host, msg, "accepted").await;
            host.until("state", WAIT).await.expect("its state");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_may_keep_the_audience_out_until_the_end() {
    let s = start(with_test_games()).await;
    let body = json!({"game": GAME, "host": true, "audience": false, "timed": false});
    let m = create(s.addr, body).await;
    let (status, refused) = snapshot(s.addr, &m.id, None).await;
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap_or("")
            .contains("until it ends")
    );
    let (status, _) = get(s.addr, &format!("/api/matches/{}/words", m.id)).await;
    assert_eq!(status, 403);
    let mut ws = Ws::connect(s.addr, &m.id, None).await.expect("connects");
    let (error, _) = ws.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "private");
    let (_, lobby) = get(s.addr, "/api/matches").await;
    assert_eq!(lobby["open"][0]["audience"], false, "{lobby}");
    // The players see their own; once it ends the audience sees it all.
    let (status, _) = snapshot(s.addr, &m.id, m.p1.as_deref()).await;
    assert_eq!(status, 200);
    let (mut host, _) = join(s.addr, &m.id, Some(&m.umpire)).await;
    let resign = json!({"type": "resign", "seat": "P1"});
    ask(&mut host, resign, "accepted").await;
    let (status, state) = snapshot(s.addr, &m.id, None).await;
    assert_eq!(status, 200, "{state}");
    // Only a host's match may keep the audience out.
    let body = json!({"game": GAME, "audience": false});
    bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
}

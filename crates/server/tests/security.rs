//! Security, second round: each finding of the attack on the server, driven
//! through the real HTTP and WebSocket entry points.

mod common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use umpire_load::client::{Ws, http_json};
use umpire_server::Config;

/// Sends `request` as it is; the answer's status, head (lower case) and
/// body.
async fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request).await.expect("sent");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_lowercase(), body.to_string())
}

/// A POST with a JSON body and extra header lines.
fn post(path: &str, body: &Value, extra: &str) -> Vec<u8> {
    let body = body.to_string();
    format!(
        "POST {path} HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn four_statements() -> &'static str {
    "four-statements"
}

#[tokio::test]
async fn a_player_cannot_set_a_hidden_option_and_a_host_who_does_is_named() {
    let s = start(fast()).await;
    let addr = s.addr;
    // Every hidden option of every game, set by a player: refused.
    let mut hidden = 0;
    for game in umpire_catalog::games() {
        for option in game.options().into_iter().filter(|o| o.hidden) {
            hidden += 1;
            let umpire_core::OptionKind::Text { placeholder } = option.kind else {
                panic!("{}: {} is hidden but not text", game.id(), option.key);
            };
            let body = json!({"game": game.id(), "as": "P1", "config": {option.key: placeholder}});
            let words = bad_request(addr, "POST", "/api/matches", Some(&body)).await;
            assert!(
                words.contains(option.label) && words.contains("only a host"),
                "{words}"
            );
        }
    }
    assert!(hidden >= 3, "the hidden grid and each seat's cells");
    // A host may: the players are told what the host fixed.
    let layout = "RRBG YGBR BBRY GYRG";
    let c = create(
        addr,
        json!({"game": four_statements(), "config": {"layout": layout}}),
    )
    .await;
    let mut p2 = Ws::connect(addr, &c.id, c.p2.as_deref())
        .await
        .expect("connects");
    let (hello, _) = p2.until("hello", WAIT).await.expect("hello");
    assert_eq!(hello["fixed"], json!(["Grid"]), "{hello}");
    // A match drawn as usual says nothing.
    let drawn = people(addr, four_statements()).await;
    let mut p1 = Ws::connect(addr, &drawn.id, drawn.p1.as_deref())
        .await
        .expect("connects");
    let (hello, _) = p1.until("hello", WAIT).await.expect("hello");
    assert_eq!(hello["fixed"], json!([]), "{hello}");
}

#[tokio::test]
async fn a_rematch_draws_the_hidden_grid_anew() {
    let s = start(fast()).await;
    let addr = s.addr;
    let layout = "RRBG YGBR BBRY GYRG";
    let c = create(
        addr,
        json!({"game": four_statements(), "config": {"layout": layout}}),
    )
    .await;
    let (mut p1, _) = join(addr, &c.id, c.p1.as_deref()).await;
    let (mut p2, _) = join(addr, &c.id, c.p2.as_deref()).await;
    p1.send(&json!({"type": "resign"})).await.expect("sent");
    for ws in [&mut p1, &mut p2] {
        ws.send(&json!({"type": "rematch"})).await.expect("sent");
    }
    let rematch = loop {
        let (m, _) = p1.until("rematch", WAIT).await.expect("rematch news");
        if let Some(id) = m["match"].as_str() {
            break id.to_string();
        }
    };
    // The new match's record (the umpire's token is the same) has the
    // default config: its grid is drawn from its own seed.
    let path = format!("/api/matches/{rematch}/record?t={}", c.umpire);
    let (status, record) = http_json(addr, "GET", &path, None).await.expect("record");
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["config"]["layout"], "", "{record}");
    let path = format!("/api/matches/{rematch}?t={}", c.umpire);
    let (_, state) = http_json(addr, "GET", &path, None).await.expect("state");
    assert_ne!(
        state["view"]["layout"]
            .as_str()
            .unwrap_or_default()
            .replace(' ', ""),
        layout.replace(' ', ""),
        "{state}"
    );
}

#[tokio::test]
async fn config_and_seats_are_taken_only_as_documented() {
    let s = start(fast()).await;
    for (body, words) in [
        (
            json!({"game": four_statements(), "config": {"max_rounds": 100000}}),
            "max_rounds",
        ),
        (json!({"game": "masked-army", "seats": []}), "seats"),
    ] {
        let error = bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
        assert!(error.contains(words), "{error}");
    }
    // No Limit twice is refused too (a stray `-` in a cell list is
    // core's `a_joiner_goes_between_two_cells_once`).
    let fs = people(s.addr, four_statements()).await;
    let (mut f1, _) = join(s.addr, &fs.id, fs.p1.as_deref()).await;
    let _f2 = join(s.addr, &fs.id, fs.p2.as_deref()).await;
    let twice = "subset A1 B1 A2 B2; Exactly two tiles are red.; Exactly one tile is blue.; \
                 Exactly one tile is green.; No tile is yellow.; nolimit; nolimit";
    f1.send(&json!({"type": "act", "action": twice}))
        .await
        .expect("sent");
    let (refused, _) = f1.until("error", WAIT).await.expect("refused");
    assert!(
        refused["message"]
            .as_str()
            .unwrap_or_default()
            .contains("once"),
        "{refused}"
    );
}

#[tokio::test]
async fn the_invites_sender_cannot_claim_it() {
    let s = start(fast()).await;
    let body = json!({"game": "masked-army", "as": "P1"});
    let (_, made) = http_json(s.addr, "POST", "/api/matches", Some(&body))
        .await
        .expect("created");
    let invite = made["links"]["invite"].as_str().expect("an invite");
    let mine = umpire_load::client::token_of(&made["links"]["P1"]).expect("P1's key");
    let (path, code) = invite.split_once("?c=").expect("a code");
    let id = path.trim_start_matches("/i/");
    let claim = format!("/api/matches/{id}/claim");
    let (status, answer) = http_json(
        s.addr,
        "POST",
        &claim,
        Some(&json!({"code": code, "mine": [mine]})),
    )
    .await
    .expect("answers");
    assert_eq!(status, 403, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap_or_default()
            .contains("you play P1"),
        "{answer}"
    );
    // The opponent still gets it.
    let (status, answer) = http_json(s.addr, "POST", &claim, Some(&json!({"code": code})))
        .await
        .expect("answers");
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test]
async fn pages_of_other_sites_cannot_create_matches_or_open_sockets() {
    let s = start(fast()).await;
    let addr = s.addr;
    let body = json!({"game": "masked-army"});
    // A cross-origin "simple" request: text/plain needs no preflight.
    let foreign = format!(
        "POST /api/matches HTTP/1.0\r\nHost: {addr}\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.to_string().len()
    );
    let (status, _, answer) = raw(addr, foreign.as_bytes()).await;
    assert_eq!(status, 403, "{answer}");
    // The server's own pages may.
    let own = foreign.replace("http://evil.example", &format!("http://{addr}"));
    let (status, _, answer) = raw(addr, own.as_bytes()).await;
    assert_eq!(status, 201, "{answer}");
    let c = people(addr, "masked-army").await;
    let refused = Ws::open(
        addr,
        &c.id,
        None,
        None,
        &[("Origin", "http://evil.example")],
    )
    .await;
    let err = refused.err().expect("the upgrade is refused");
    assert!(err.contains("403"), "{err}");
    let own_origin = format!("http://{addr}");
    Ws::open(addr, &c.id, None, None, &[("Origin", &own_origin)])
        .await
        .expect("the server's own page connects");
}

#[tokio::test]
async fn token_answers_are_not_stored_and_parser_errors_are_json() {
    let s = start(fast()).await;
    let addr = s.addr;
    let (_, head, _) = raw(
        addr,
        &post("/api/matches", &json!({"game": "masked-army"}), ""),
    )
    .await;
    assert!(head.contains("cache-control: no-store"), "{head}");
    for (request, want) in [
        (b"NOT HTTP\r\n\r\n".to_vec(), 400),
        (
            format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(70_000)).into_bytes(),
            431,
        ),
    ] {
        let (status, head, body) = raw(addr, &request).await;
        assert_eq!(status, want, "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(head.contains("content-security-policy"), "{head}");
        let body: Value = serde_json::from_str(&body).expect("JSON");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_keeps_its_place_in_the_addresss_cap() {
    let s = start(fast_with(|c| c.conns_per_address = 3)).await;
    let c = people(s.addr, "masked-army").await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(join(s.addr, &c.id, None).await.0);
    }
    // The address holds three sockets: a fourth connection is closed.
    assert!(Ws::connect(s.addr, &c.id, None).await.is_err());
    // Another address is not affected.
    let other: IpAddr = "127.0.0.2".parse().unwrap();
    Ws::open(s.addr, &c.id, None, Some(other), &[])
        .await
        .expect("another address connects");
    open.pop().expect("one").close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    join(s.addr, &c.id, None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_the_trusted_proxy_each_client_has_its_own_limits() {
    let s = start(Config {
        trusted_proxy: Some("127.0.0.1".parse().unwrap()),
        creates_per_minute: 2,
        ..fast()
    })
    .await;
    let make = |client: &'static str| {
        post(
            "/api/matches",
            &json!({"game": "masked-army"}),
            &format!("X-Forwarded-For: 203.0.113.9, {client}\r\n"),
        )
    };
    for _ in 0..2 {
        assert_eq!(raw(s.addr, &make("198.51.100.1")).await.0, 201);
    }
    assert_eq!(raw(s.addr, &make("198.51.100.1")).await.0, 429);
    // Another client behind the same proxy has its own limit.
    assert_eq!(raw(s.addr, &make("198.51.100.2")).await.0, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_keeps_a_share_of_the_live_matches() {
    let shares = |c: &mut Config| (c.matches_per_address, c.bot_matches_per_address) = (3, 1);
    let s = start(fast_with(shares)).await;
    let bots = json!({"game": "masked-army", "timed": false,
        "seats": {"P1": {"kind": "bot", "bot": "random"}, "P2": {"kind": "bot", "bot": "random"}}});
    let (status, _) = http_json(s.addr, "POST", "/api/matches", Some(&bots))
        .await
        .unwrap();
    assert_eq!(status, 201);
    let (status, answer) = http_json(s.addr, "POST", "/api/matches", Some(&bots))
        .await
        .unwrap();
    assert_eq!(status, 429, "one match between bots at a time: {answer}");
    for _ in 0..2 {
        people(s.addr, "masked-army").await;
    }
    let body = json!({"game": "masked-army"});
    let (status, answer) = http_json(s.addr, "POST", "/api/matches", Some(&body))
        .await
        .unwrap();
    assert_eq!(status, 429, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_bodies_of_one_address_cannot_pile_up() {
    let s = start(fast()).await;
    let addr = s.addr;
    // Each connection declares a big record and sends nothing more.
    let mut stalled = Vec::new();
    let head = format!(
        "POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{{",
        1024 * 1024 - 1
    );
    for _ in 0..4 {
        let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        stream.write_all(head.as_bytes()).await.expect("sent");
        stalled.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Its budget is spent: one more is refused at once.
    let (status, _, body) = raw(addr, head.replace("HTTP/1.1", "HTTP/1.0").as_bytes()).await;
    assert_eq!(status, 429, "{body}");
    // Another address still uploads.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let mut other = socket.connect(addr).await.expect("connect");
    other
        .write_all(&post("/api/replay", &json!({"not": "a record"}), ""))
        .await
        .unwrap();
    let mut answer = String::new();
    other.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.0 400"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seats_comings_and_goings_send_presence_not_states() {
    let s = start(fast()).await;
    let c = people(s.addr, "masked-army").await;
    let (mut spectator, _) = join(s.addr, &c.id, None).await;
    let (_p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    spectator
        .until_seat("P1", true, WAIT)
        .await
        .expect("P1 arrives");
    // P2 comes and goes ten times; play has started once, so each coming
    // and going is a small presence message.
    let (p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
    p2.close().await;
    let mut bytes = 0;
    for _ in 0..10 {
        let (p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
        p2.close().await;
        spectator
            .until_seat("P2", false, WAIT)
            .await
            .expect("P2 leaves");
    }
    // What else reached the spectator, up to a ping.
    spectator
        .send(&json!({"type": "ping"}))
        .await
        .expect("sent");
    let (_, before) = spectator.until("pong", WAIT).await.expect("pong");
    for m in before {
        assert_ne!(m["type"], "state", "{m}");
        bytes += m.to_string().len();
    }
    assert!(bytes < 10 * 400, "{bytes} bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ninth_connection_of_a_link_closes_the_oldest_with_a_closing_frame() {
    let s = start(fast()).await;
    let c = people(s.addr, "masked-army").await;
    let mut conns = Vec::new();
    for _ in 0..8 {
        conns.push(join(s.addr, &c.id, c.p1.as_deref()).await.0);
    }
    // Some leave and come back, so the server's list is out of order.
    let third = conns.remove(2);
    third.close().await;
    conns.push(join(s.addr, &c.id, c.p1.as_deref()).await.0);
    let (_ninth, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    // The oldest (the first) is told and closed properly.
    let (told, _) = conns[0].until("error", WAIT).await.expect("told");
    assert_eq!(told["rule"], "replaced", "{told}");
    assert!(conns[0].closed_with_frame(WAIT).await.expect("closed"));
    // The others stay.
    for ws in &mut conns[1..] {
        ws.send(&json!({"type": "ping"})).await.expect("sent");
        ws.until("pong", WAIT).await.expect("still open");
    }
}

/// An untimed match whose seats came but nobody moved is called off after
/// the same wait as one whose seats never came.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untimed_match_nobody_plays_is_called_off_soon() {
    let s = start(fast_with(|c| c.abandon_ms = 500)).await;
    let c = create(s.addr, json!({"game": "masked-army", "timed": false})).await;
    let (mut p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (_p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
    let (error, _) = p1.until("error", WAIT).await.expect("told");
    assert_eq!(error["rule"], "gone", "{error}");
}

/// A heavy statement check: a No Limit bluff on ten tiles whose first
/// statement fails every-tile-matters only after a search.
const HEAVY: &str = "subset A1 B1 C1 D1 A2 B2 C2 D2 A3 B3; \
    No two orthogonally adjacent tiles share a colour and exactly six tiles are red.; \
    Exactly two tiles are red.; Exactly two tiles are blue.; Exactly two tiles are green.; nolimit";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_has_one_check_judged_at_a_time() {
    let s = start(fast()).await;
    let c = people(s.addr, four_statements()).await;
    let (mut p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (_p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
    for id in 0..20 {
        p1.send(&json!({"type": "check", "action": HEAVY, "id": id}))
            .await
            .expect("sent");
    }
    let mut rules = Vec::new();
    while rules.len() < 20 {
        let (checked, _) = p1.until("checked", WAIT).await.expect("an answer");
        rules.push(checked["rule"].as_str().unwrap_or_default().to_string());
    }
    assert!(rules.iter().any(|r| r == "every-tile-matters"), "{rules:?}");
    assert!(rules.iter().any(|r| r == "busy"), "{rules:?}");
    // One after another, none is busy.
    for id in 20..25 {
        p1.send(&json!({"type": "check", "action": HEAVY, "id": id}))
            .await
            .expect("sent");
        let (checked, _) = p1.until("checked", WAIT).await.expect("an answer");
        assert_eq!(checked["rule"], "every-tile-matters", "{checked}");
    }
}

/// P1 floods heavy checks while P2 thinks: P2's clock is charged for P2's
/// own time only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_clock_is_charged_for_another_seats_checks() {
    let s = start(fast()).await;
    let c = people(s.addr, four_statements()).await;
    let (mut p1, mut p2) = join_both(s.addr, &c).await;
    let flood = tokio::spawn(async move {
        for id in 0..300 {
            if p1
                .send(&json!({"type": "check", "action": HEAVY, "id": id}))
                .await
                .is_err()
            {
                break;
            }
        }
        p1
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = Instant::now();
    let bluff = "subset A1 B1 A2 B2; Exactly two tiles are red.; Exactly one tile is blue.; \
                 Exactly one tile is green.; No tile is yellow.";
    p2.send(&json!({"type": "act", "action": bluff}))
        .await
        .expect("sent");
    let (answer, _) = p2
        .until_any(&["accepted", "error"], WAIT)
        .await
        .expect("an answer");
    let waited = sent.elapsed();
    assert!(waited < Duration::from_secs(1), "P2 waited {waited:?}");
    let _p1 = flood.await.expect("the flood ends");
    let path = format!("/api/matches/{}/record?t={}", c.id, c.umpire);
    let (_, record) = http_json(s.addr, "GET", &path, None).await.expect("record");
    let at = record["actions"][0]["at_ms"].as_u64().expect("P2's bluff");
    assert_eq!(answer["type"], "accepted", "{answer}");
    // P2's bluff is timed when it arrived: about 300 ms into the match,
    // whatever P1's checks cost.
    assert!(at < 1_000, "P2's bluff at {at} ms: {record}");
}

//! Who may do what, and what hostile or broken clients cannot do: wrong
//! tokens, the other seat's token, spectators and the umpire trying to act,
//! malformed, oversized and flooding messages, slow clients.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use umpire_load::client::{Ws, http, http_json};

/// These tests rely on Masked Army's rules: one seat decides first.
fn game() -> &'static str {
    "masked-army"
}

/// The seat that must act first and a legal action for it.
fn first_move(state: &Value) -> (String, Value) {
    let seat = state["decision"]["seats"][0]
        .as_str()
        .expect("a seat to act")
        .to_string();
    (seat, Value::Null)
}

/// The error the next message carries.
async fn error_of(ws: &mut Ws) -> Value {
    let (error, _) = ws.until("error", WAIT).await.expect("an error");
    error
}

async fn seq_now(addr: std::net::SocketAddr, c: &Created) -> u64 {
    let (status, state) = snapshot(addr, &c.id, Some(&c.umpire)).await;
    assert_eq!(status, 200);
    state["seq"].as_u64().expect("a seq")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_seats_own_token_acts_for_it() {
    let s = start(fast()).await;
    let c = people(s.addr, game()).await;
    let other = people(s.addr, game()).await;

    // A wrong token, or another match's token, is refused, never a spectator.
    for token in ["nope", other.p1.as_deref().expect("a token")] {
        let mut ws = Ws::connect(s.addr, &c.id, Some(token))
            .await
            .expect("connects");
        let first = ws
            .recv_within(WAIT)
            .await
            .expect("an answer")
            .expect("a message");
        assert_eq!(first["type"], "error");
        assert_eq!(first["rule"], "auth");
        assert_eq!(ws.recv_within(WAIT).await.expect("closes"), None);
        let (status, _) = snapshot(s.addr, &c.id, Some(token)).await;
        assert_eq!(status, 403);
    }
    let (status, _) = snapshot(s.addr, "nosuchmatch", None).await;
    assert_eq!(status, 404);

    let (mut p1, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (mut p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
    let (mut spectator, spectated) = join(s.addr, &c.id, None).await;
    let (mut umpire, _) = join(s.addr, &c.id, Some(&c.umpire)).await;
    assert!(spectated.get("legal").is_none());
    let (seat, _) = first_move(&state);
    let (mover, waiting) = if seat == "P1" {
        (&mut p1, &mut p2)
    } else {
        (&mut p2, &mut p1)
    };
    let (mover_state, _) = state_at(mover, 0).await;
    let legal = mover_state["legal"][0].clone();
    assert!(legal.is_string(), "{mover_state}");

    // The other seat, a spectator and the umpire try the mover's legal move.
    let act = json!({"type": "act", "action": legal});
    waiting.send(&act).await.expect("sent");
    let refused = error_of(waiting).await;
    assert_eq!(refused["rule"], "not-your-turn", "{refused}");
    for ws in [&mut spectator, &mut umpire] {
        for msg in [
            act.clone(),
            json!({"type": "resign"}),
            json!({"type": "takeover"}),
        ] {
            ws.send(&msg).await.expect("sent");
            assert_eq!(error_of(ws).await["rule"], "forbidden");
        }
    }
    assert_eq!(seq_now(s.addr, &c).await, 0, "nothing changed");
    // Garbage notation from the mover is refused and changes nothing.
    mover
        .send(&json!({"type": "act", "action": "@@ not a move"}))
        .await
        .expect("sent");
    let refusal = error_of(mover).await;
    assert_eq!(refusal["rule"], "notation");
    // Where the text went wrong and what was expected there reach the client.
    assert_eq!(
        (refusal["at"].as_u64(), refusal["expected"][0].as_str()),
        (Some(0), Some("a cell like A1")),
        "{refusal}"
    );
    assert_eq!(seq_now(s.addr, &c).await, 0, "nothing changed");
    // The mover's own token works.
    mover.send(&act).await.expect("sent");
    let (accepted, _) = mover.until("accepted", WAIT).await.expect("accepted");
    assert_eq!(accepted["seq"], 1);
    assert_eq!(seq_now(s.addr, &c).await, 1);

    // The record stays closed until the end, except to the umpire.
    let path = format!("/api/matches/{}/record", c.id);
    let (status, _) = http(s.addr, "GET", &path, None).await.expect("answers");
    assert_eq!(status, 409);
    let seat_path = format!("{path}?t={}", c.p1.as_deref().expect("a token"));
    let (status, _) = http(s.addr, "GET", &seat_path, None)
        .await
        .expect("answers");
    assert_eq!(status, 409);
    let (status, _) = http(s.addr, "GET", &format!("{path}?t=wrong"), None)
        .await
        .expect("answers");
    assert_eq!(status, 403);
    let umpire_path = format!("{path}?t={}", c.umpire);
    let (status, record) = http_json(s.addr, "GET", &umpire_path, None)
        .await
        .expect("answers");
    assert_eq!(status, 200);
    assert_eq!(record["actions"].as_array().map(Vec::len), Some(1));

    // Resigning ends it; then the record is open to all.
    waiting
        .send(&json!({"type": "resign"}))
        .await
        .expect("sent");
    let (over, _) = state_at(&mut spectator, 2).await;
    assert_eq!(over["outcome"]["decided_by"], "resignation");
    let (status, _) = http(s.addr, "GET", &path, None).await.expect("answers");
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_with_a_reason() {
    let s = start(fast()).await;
    for (body, says) in [
        (json!({"game": "chess"}), "unknown game"),
        (json!({"game": game(), "config": {"nonsense": 1}}), "config"),
        (
            json!({"game": game(), "seats": {"P1": {"kind": "bot", "bot": "nobody"}, "P2": {"kind": "person"}}}),
            "no bot",
        ),
        (json!({"gaem": game()}), "bad request"),
        (json!([1, 2]), "bad request"),
    ] {
        let error = bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
        assert!(error.contains(says), "{error} should say {says}");
    }
    let nonsense =
        json!({"game": game(), "seed": 1, "actions": [{"seat": "P1", "action": "nonsense"}]});
    let error = bad_request(s.addr, "POST", "/api/replay", Some(&nonsense)).await;
    assert!(error.starts_with("action 1 (P1 `nonsense`)"), "{error}");
    // A seat left out of `seats` is a person, as documented.
    let c = create(
        s.addr,
        json!({"game": game(), "seats": {"P2": {"kind": "bot", "bot": "easy"}}}),
    )
    .await;
    assert!(c.p1.is_some() && c.p2.is_none(), "P1 a person, P2 the bot");
    // An unknown seat is refused.
    let p3 = json!({"game": game(), "seats": {"P3": {"kind": "person"}}});
    bad_request(s.addr, "POST", "/api/matches", Some(&p3)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_get_errors_and_harm_nothing() {
    let s = start(fast()).await;
    let c = people(s.addr, game()).await;
    let (mut p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    for (raw, rule) in [
        ("not json", "protocol"),
        ("{\"type\": \"fly\"}", "protocol"),
        ("{\"type\": \"act\"}", "protocol"),
        ("{\"type\": \"act\", \"action\": 7}", "protocol"),
        ("[]", "protocol"),
    ] {
        p1.send_text(raw.to_string()).await.expect("sent");
        assert_eq!(error_of(&mut p1).await["rule"], rule, "{raw}");
    }
    p1.send_raw(Message::Binary(vec![1, 2, 3].into()))
        .await
        .expect("sent");
    assert_eq!(error_of(&mut p1).await["rule"], "protocol");
    // Oversized: refused, the connection stays open.
    let big = json!({"type": "act", "action": "x".repeat(20 * 1024)});
    p1.send(&big).await.expect("sent");
    let error = error_of(&mut p1).await;
    assert_eq!(error["rule"], "protocol");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("large"))
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    p1.send(&json!({"type": "ping"})).await.expect("sent");
    p1.until("pong", WAIT).await.expect("still served");
    // A flood: past a burst of 100, messages are read 100 a second; none
    // is refused. 300 pings take at least (300 - 100) / 100 = 2 s.
    // (In batches, read as they come: a client that never reads is dropped.)
    let flood = std::time::Instant::now();
    for _ in 0..12 {
        for _ in 0..25 {
            p1.send(&json!({"type": "ping"})).await.expect("sent");
        }
        for _ in 0..25 {
            let msg = p1.recv_within(WAIT).await.expect("a reply").expect("open");
            assert_eq!(msg["type"], "pong", "{msg}");
        }
    }
    let took = flood.elapsed();
    assert!(
        took >= Duration::from_millis(1900),
        "300 pings answered in {took:?}: not slowed"
    );
    assert_eq!(seq_now(s.addr, &c).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_stalls_nothing() {
    let s = start(fast()).await;
    let slow_match = people(s.addr, game()).await;
    // Connects, then never reads while its match keeps broadcasting.
    let _slow = Ws::connect(s.addr, &slow_match.id, None)
        .await
        .expect("connects");
    let (mut p1, _) = join(s.addr, &slow_match.id, slow_match.p1.as_deref()).await;
    for _ in 0..400 {
        // Each of these toggles the seat's presence and broadcasts a state.
        let (ws, _) = join(s.addr, &slow_match.id, slow_match.p2.as_deref()).await;
        ws.close().await;
    }
    p1.send(&json!({"type": "ping"})).await.expect("sent");
    p1.until("pong", WAIT)
        .await
        .expect("the match still answers");
    // Another match is served at once.
    let c = people(s.addr, game()).await;
    let started = std::time::Instant::now();
    let (mut other, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    act_first_legal(&mut other, &state).await;
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_and_static_files_are_served_with_their_types() {
    let s = start(fast()).await;
    let on_disk = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/");
    let read = |file: &str| std::fs::read_to_string(format!("{on_disk}{file}"));
    for (path, file, kind) in [
        ("/", "pages/index.html", "text/html"),
        ("/m/abc", "pages/match.html", "text/html"),
        ("/replay", "pages/replay.html", "text/html"),
        ("/replay/abc", "pages/replay.html", "text/html"),
        ("/static/app.css", "app.css", "text/css"),
        ("/static/match.js", "match.js", "text/javascript"),
    ] {
        let Ok(mut expected) = read(file) else {
            continue; // the web client is not in this tree
        };
        if kind == "text/html" {
            // The shared head, the page's own head lines, then its body.
            let at = expected.find("<body").expect("a page has a body");
            expected.insert_str(at, "</head>\n");
            expected.insert_str(0, &read("frame.html").expect("the frame"));
        }
        let raw = umpire_load::client::http(s.addr, "GET", path, None)
            .await
            .expect("answers");
        assert_eq!(raw.0, 200, "{path}");
        assert_eq!(raw.1, expected, "{path}");
        if kind == "text/html" {
            assert!(raw.1.starts_with("<!doctype html>"), "{path}");
            assert_eq!(raw.1.matches("</head>").count(), 1, "{path}");
        }
        let head = http_head(s.addr, path).await;
        assert!(
            head.to_ascii_lowercase()
                .contains(&format!("content-type: {kind}")),
            "{path}: {head}"
        );
    }
    let (status, _) = http(s.addr, "GET", "/static/../Cargo.toml", None)
        .await
        .expect("answers");
    assert_eq!(status, 404);
    let (status, _) = http(s.addr, "GET", "/static/nothing.here", None)
        .await
        .expect("answers");
    assert_eq!(status, 404);
}

/// The response head of a GET.
async fn http_head(addr: std::net::SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let request = format!("GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    let answer = String::from_utf8_lossy(&answer);
    answer.split("\r\n\r\n").next().unwrap_or("").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ninth_connection_of_one_link_closes_the_oldest() {
    let s = start(fast()).await;
    let c = people(s.addr, game()).await;
    let mut conns = Vec::new();
    for _ in 0..8 {
        conns.push(join(s.addr, &c.id, c.p1.as_deref()).await.0);
    }
    let (mut newest, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    // The server closes the oldest of the link's connections…
    let mut oldest = conns.remove(0);
    let closed = async {
        loop {
            match oldest.recv().await {
                Ok(None) | Err(_) => break,
                Ok(Some(_)) => continue,
            }
        }
    };
    tokio::time::timeout(WAIT, closed)
        .await
        .expect("the oldest connection is closed");
    // …and serves the others, the newest among them.
    for ws in [&mut newest, &mut conns[0]] {
        ws.send(&json!({"type": "ping"})).await.expect("sent");
        ws.until("pong", WAIT).await.expect("still served");
    }
}

//! The lobby's open seats and rematches (issue 16).

mod common;

use common::*;
use serde_json::{Value, json};
use umpire_load::client::{Ws, http_json, token_of};

const GAME: &str = "masked-army";

/// The lobby's summary of match `id` among its open matches, if listed.
async fn open_entry(addr: std::net::SocketAddr, id: &str) -> Option<Value> {
    let (status, lobby) = http_json(addr, "GET", "/api/matches", None)
        .await
        .expect("the lobby answers");
    assert_eq!(status, 200, "{lobby}");
    lobby["open"]
        .as_array()?
        .iter()
        .find(|m| m["id"] == id)
        .cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_seat_is_offered_in_the_lobby_until_someone_takes_it() {
    let s = start(fast()).await;
    // Only a player whose opponent is a person can open the other seat.
    for body in [
        json!({"game": GAME, "open": true}),
        json!({"game": GAME, "as": "P1", "open": true,
               "seats": {"P2": {"kind": "bot", "bot": "random"}}}),
    ] {
        let error = bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
        assert!(error.contains("open"), "{error}");
    }
    // A private invite is not listed; an open one is.
    let body = json!({"game": GAME, "as": "P1"});
    let (_, private) = http_json(s.addr, "POST", "/api/matches", Some(&body))
        .await
        .expect("answers");
    let private_id = private["id"].as_str().expect("an id");
    let listed = open_entry(s.addr, private_id)
        .await
        .expect("listed as open");
    assert!(listed.get("join").is_none(), "{listed}");

    let body = json!({"game": GAME, "as": "P1", "open": true});
    let (status, made) = http_json(s.addr, "POST", "/api/matches", Some(&body))
        .await
        .expect("answers");
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().expect("an id").to_string();
    let listed = open_entry(s.addr, &id).await.expect("listed as open");
    assert_eq!(listed["join"]["seat"], "P2", "{listed}");
    let link = listed["join"]["link"].as_str().expect("a join link");
    assert_eq!(Some(link), made["links"]["invite"].as_str());

    // Whoever takes it gets P2; the lobby stops offering it at once.
    let code = link.split_once("?c=").expect("a code").1;
    let (status, taken) = http_json(
        s.addr,
        "POST",
        &format!("/api/matches/{id}/claim"),
        Some(&json!({ "code": code })),
    )
    .await
    .expect("answers");
    assert_eq!(status, 200, "{taken}");
    assert_eq!(taken["seat"], "P2");
    let listed = open_entry(s.addr, &id).await.expect("still open");
    assert!(listed.get("join").is_none(), "{listed}");
    // Once P2 has arrived it stays unoffered, also after the task rebuilt the summary.
    let p2 = token_of(&taken["link"]).expect("P2's key");
    let (_ws, _) = join(s.addr, &id, Some(&p2)).await;
    let listed = open_entry(s.addr, &id)
        .await
        .expect("still open: P1 never came");
    assert!(listed.get("join").is_none(), "{listed}");
}

/// Receives until a `rematch` message.
async fn rematch_msg(ws: &mut Ws) -> Value {
    ws.until("rematch", WAIT)
        .await
        .expect("a rematch message")
        .0
}

/// Receives `rematch` messages until one names the rematch; its id.
async fn rematch_made(ws: &mut Ws) -> String {
    loop {
        let msg = rematch_msg(ws).await;
        if let Some(id) = msg["match"].as_str() {
            assert_eq!(msg["offers"], json!(["P1", "P2"]), "{msg}");
            return id.to_string();
        }
    }
}

/// Who the server says a token's holder is in match `id`.
async fn hello_you(addr: std::net::SocketAddr, id: &str, token: &str) -> Value {
    let mut ws = Ws::connect(addr, id, Some(token)).await.expect("connects");
    let (hello, _) = ws.until("hello", WAIT).await.expect("hello");
    ws.close().await;
    hello["you"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_swaps_the_seats_once_both_agree_and_is_found_again_after_a_restart() {
    let s = start(fast()).await;
    let c = create(
        s.addr,
        json!({"game": GAME, "config": {"advantage": "P2"}, "timed": false}),
    )
    .await;
    let (p1, p2) = (c.p1.clone().expect("P1"), c.p2.clone().expect("P2"));
    let (mut w1, _) = join(s.addr, &c.id, Some(&p1)).await;
    let (mut w2, _) = join(s.addr, &c.id, Some(&p2)).await;
    let (mut watcher, _) = join(s.addr, &c.id, None).await;

    // Not before the game is over; a spectator cannot ask.
    w1.send(&json!({"type": "rematch"})).await.expect("sent");
    let (error, _) = w1.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "rematch", "{error}");
    watcher
        .send(&json!({"type": "rematch"}))
        .await
        .expect("sent");
    let (error, _) = watcher.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "forbidden", "{error}");

    w2.send(&json!({"type": "resign"})).await.expect("sent");
    // P1 asks once it has seen the game end: sent at once, its request
    // could reach the match before P2's resignation from another
    // connection, and be refused.
    loop {
        let (state, _) = w1.until("state", WAIT).await.expect("a state");
        if !state["outcome"].is_null() {
            break;
        }
    }
    // P1 asks: everyone hears it, nothing is made yet.
    w1.send(&json!({"type": "rematch"})).await.expect("sent");
    for ws in [&mut w1, &mut w2, &mut watcher] {
        let msg = rematch_msg(ws).await;
        assert_eq!(msg["offers"], json!(["P1"]), "{msg}");
        assert!(msg["match"].is_null(), "{msg}");
    }
    // P2 accepts: the rematch is made, and everyone is told its id.
    w2.send(&json!({"type": "rematch"})).await.expect("sent");
    let next = rematch_made(&mut w2).await;
    assert_ne!(next, c.id);
    assert_eq!(rematch_made(&mut watcher).await, next);
    // Each person's key opens the other seat of the rematch; the host's
    // umpire key is the umpire's there too.
    assert_eq!(hello_you(s.addr, &next, &p1).await, "P2");
    assert_eq!(hello_you(s.addr, &next, &p2).await, "P1");
    assert_eq!(hello_you(s.addr, &next, &c.umpire).await, "umpire");
    let (_, state) = snapshot(s.addr, &next, Some(&p1)).await;
    assert!(state["outcome"].is_null(), "a fresh match: {state}");
    assert_eq!(state["view"]["advantage"], "P2", "same settings: {state}");
    // Asking again changes nothing: the same rematch.
    assert_eq!(rematch_made(&mut w1).await, next);
    w1.send(&json!({"type": "rematch"})).await.expect("sent");
    assert_eq!(rematch_made(&mut w1).await, next);

    // After a restart, a late reload of the old match still finds it.
    drop((w1, w2, watcher));
    let TestServer { server, dir, .. } = s;
    server.stop();
    let s = start_in(dir, fast()).await;
    let (status, state) = snapshot(s.addr, &c.id, Some(&p2)).await;
    assert_eq!(status, 200, "the old match loads: {state}");
    let (mut again, _) = join(s.addr, &c.id, Some(&p2)).await;
    let (found, before) = again
        .until("rematch", WAIT)
        .await
        .expect("the rematch is told again");
    assert_eq!(found["match"], next, "{found} after {before:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_a_bot_one_request_makes_the_rematch_and_the_bot_changes_seat() {
    let s = start(fast()).await;
    let c = create(
        s.addr,
        json!({"game": GAME, "timed": false,
               "seats": {"P2": {"kind": "bot", "bot": "random"}}}),
    )
    .await;
    let p1 = c.p1.clone().expect("P1");
    let (mut w1, _) = join(s.addr, &c.id, Some(&p1)).await;
    w1.send(&json!({"type": "resign"})).await.expect("sent");
    w1.send(&json!({"type": "rematch"})).await.expect("sent");
    let next = loop {
        let msg = rematch_msg(&mut w1).await;
        if let Some(id) = msg["match"].as_str() {
            break id.to_string();
        }
        assert_eq!(msg["offers"], json!(["P1"]), "the bot is not asked: {msg}");
    };
    let (_, state) = snapshot(s.addr, &next, Some(&p1)).await;
    assert_eq!(state["seats"]["P1"]["kind"], "bot", "{state}");
    assert_eq!(state["seats"]["P2"]["kind"], "person", "{state}");
    assert_eq!(hello_you(s.addr, &next, &p1).await, "P2");
}

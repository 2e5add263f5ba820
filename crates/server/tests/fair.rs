//! Fair seats (issue 15): nobody can lock a seat holder or the umpire out
//! of their match.

mod common;

use common::*;
use umpire_load::client::Ws;

fn game() -> &'static str {
    "masked-army"
}

/// Waits until `ws` is shown `seat` with the connection state `connected`.
async fn until_seat(ws: &mut Ws, seat: &str, connected: bool) {
    ws.until_seat(seat, connected, WAIT)
        .await
        .expect("the seat's presence");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_flood_never_locks_out_a_seat_holder_or_the_umpire() {
    let s = start(fast_with(|c| c.max_spectators = 5)).await;
    let c = people(s.addr, game()).await;
    let (p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (mut watching, _) = join(s.addr, &c.id, None).await;
    p1.close().await;
    until_seat(&mut watching, "P1", false).await;
    // The spectators fill their list: the next one is refused.
    let mut flood = Vec::new();
    for _ in 1..5 {
        flood.push(join(s.addr, &c.id, None).await.0);
    }
    let mut refused = Ws::connect(s.addr, &c.id, None).await.expect("connects");
    let (error, _) = refused.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "full", "{error}");
    // The seat holder comes back, and the umpire comes in.
    let (_p1, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    assert_eq!(state["seats"]["P1"]["connected"], true, "{state}");
    let (_umpire, _) = join(s.addr, &c.id, Some(&c.umpire)).await;
    until_seat(&mut watching, "P1", true).await;
    // A seat holder's many connections never refuse its newest one.
    let mut p2s = Vec::new();
    for _ in 0..12 {
        p2s.push(join(s.addr, &c.id, c.p2.as_deref()).await.0);
    }
    assert_eq!(p2s.len(), 12);
}

/// Who the server says a token's holder is.
async fn hello_you(addr: std::net::SocketAddr, id: &str, token: &str) -> String {
    let mut ws = Ws::connect(addr, id, Some(token)).await.expect("connects");
    let (hello, _) = ws.until("hello", WAIT).await.expect("hello");
    ws.close().await;
    hello["you"].as_str().unwrap_or_default().to_string()
}

/// `POST /api/matches/{id}/claim` with the invite link's code.
async fn claim(addr: std::net::SocketAddr, invite: &str) -> (u16, serde_json::Value) {
    let (path, code) = invite.split_once("?c=").expect("an invite link");
    let id = path.trim_start_matches("/i/");
    let body = serde_json::json!({ "code": code });
    let (status, answer) = umpire_load::client::http_json(
        addr,
        "POST",
        &format!("/api/matches/{id}/claim"),
        Some(&body),
    )
    .await
    .expect("claim answers");
    (status, answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gets_their_seat_and_an_invite_claimed_once_never_the_umpire_link() {
    let s = start(fast()).await;
    let body = serde_json::json!({"game": game(), "as": "P1"});
    let (status, made) =
        umpire_load::client::http_json(s.addr, "POST", "/api/matches", Some(&body))
            .await
            .expect("create answers");
    assert_eq!(status, 201, "{made}");
    let links = made["links"].as_object().expect("links");
    let mut keys: Vec<&str> = links.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["P1", "invite", "spectator"], "{made}");
    let id = made["id"].as_str().expect("an id").to_string();
    let p1 = umpire_load::client::token_of(&made["links"]["P1"]).expect("P1's key");
    let invite = made["links"]["invite"]
        .as_str()
        .expect("an invite")
        .to_string();
    assert!(!invite.contains(&p1), "the invite is not P1's key");
    // The creator's key is P1's, not the umpire's.
    assert_eq!(hello_you(s.addr, &id, &p1).await, "P1");

    // A wrong code is refused; the first opener takes P2 with its own key.
    let (status, _) = claim(s.addr, &format!("/i/{id}?c=nottheinvite")).await;
    assert_eq!(status, 403);
    let (status, first) = claim(s.addr, &invite).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["seat"], "P2");
    let p2 = umpire_load::client::token_of(&first["link"]).expect("P2's key");
    assert_ne!(p2, p1);
    assert_eq!(hello_you(s.addr, &id, &p2).await, "P2");
    // A second opener learns the seat is taken, also after a restart.
    let (status, second) = claim(s.addr, &invite).await;
    assert_eq!(status, 409, "{second}");
    assert!(
        second["error"]
            .as_str()
            .is_some_and(|e| e.contains("taken")),
        "{second}"
    );
    let TestServer { server, dir, .. } = s;
    server.stop();
    let s = start_in(dir, fast()).await;
    let (status, _) = claim(s.addr, &invite).await;
    assert_eq!(status, 409, "the claim survives a restart");

    // A player cannot claim to play a bot's seat; a host still gets every link.
    let body = serde_json::json!({"game": game(), "as": "P2",
        "seats": {"P2": {"kind": "bot", "bot": "random"}}});
    bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
    let host = people(s.addr, game()).await;
    assert!(host.p1.is_some() && host.p2.is_some() && !host.umpire.is_empty());
    // Against a bot, a player gets no invite.
    let body = serde_json::json!({"game": game(), "as": "P1",
        "seats": {"P2": {"kind": "bot", "bot": "random"}}});
    let (_, made) = umpire_load::client::http_json(s.addr, "POST", "/api/matches", Some(&body))
        .await
        .expect("answers");
    assert!(
        made["links"]["invite"].is_null() && made["links"]["umpire"].is_null(),
        "{made}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_whose_seats_never_arrive_is_called_off_and_nobody_loses() {
    let config = || fast_with(|c| c.abandon_ms = 500);
    let s = start(config()).await;
    let lonely = people(s.addr, game()).await;
    let played = people(s.addr, game()).await;
    // Both seats of `played` arrive: play starts, it stays.
    let (_p1, _) = join(s.addr, &played.id, played.p1.as_deref()).await;
    let (_p2, _) = join(s.addr, &played.id, played.p2.as_deref()).await;
    // Only P1 of `lonely` arrives; a spectator watches.
    let (mut p1, _) = join(s.addr, &lonely.id, lonely.p1.as_deref()).await;
    let (error, _) = p1.until("error", WAIT).await.expect("told");
    assert_eq!(error["rule"], "gone", "{error}");
    let words = error["message"].as_str().unwrap_or_default().to_string();
    assert!(
        words.contains("called off") && words.contains("nobody lost"),
        "{words}"
    );
    let (status, answer) = snapshot(s.addr, &lonely.id, None).await;
    assert_eq!(status, 410, "{answer}");
    assert_eq!(answer["error"], words.as_str());
    let (status, _) = snapshot(s.addr, &played.id, None).await;
    assert_eq!(status, 200, "a match whose seats arrived goes on");
    // Not lost on time, not finished, not resumed after a restart.
    let TestServer { server, dir, .. } = s;
    server.stop();
    let s = start_in(dir, config()).await;
    let (status, _) = snapshot(s.addr, &lonely.id, None).await;
    assert_eq!(status, 410);
    let (_, lobby) = umpire_load::client::http_json(s.addr, "GET", "/api/matches", None)
        .await
        .expect("the lobby");
    let listed = lobby.to_string();
    assert!(!listed.contains(&lonely.id), "{listed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untimed_match_nobody_moves_in_is_called_off() {
    let s = start(fast_with(|c| c.untimed_idle_ms = 600)).await;
    let c = create(s.addr, serde_json::json!({"game": game(), "timed": false})).await;
    let timed = people(s.addr, game()).await;
    let (mut p1, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (_p2, _) = join(s.addr, &c.id, c.p2.as_deref()).await;
    assert!(to_act(&state, "P1"));
    p1.send(&serde_json::json!({"type": "act", "action": "first P1"}))
        .await
        .expect("sent");
    let (error, _) = p1.until("error", WAIT).await.expect("told");
    assert_eq!(error["rule"], "gone", "{error}");
    let words = error["message"].as_str().unwrap_or_default();
    assert!(words.contains("untimed and nobody moved"), "{words}");
    let (status, answer) = snapshot(s.addr, &c.id, None).await;
    assert_eq!(status, 410);
    assert_eq!(answer["error"], words);
    // A timed match is left to its clocks.
    let (_t1, _) = join(s.addr, &timed.id, timed.p1.as_deref()).await;
    let (_t2, _) = join(s.addr, &timed.id, timed.p2.as_deref()).await;
    tokio::time::sleep(std::time::Duration::from_millis(900)).await;
    let (status, _) = snapshot(s.addr, &timed.id, None).await;
    assert_eq!(status, 200);
}

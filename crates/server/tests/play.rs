//! Whole matches of every catalogue game through real WebSocket clients (one
//! per seat, a spectator and the umpire), checking that every message each
//! client received is exactly what that client may see: its own view of the
//! match at that point, rebuilt by an independent replay of the record.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use rand::RngExt;
use serde_json::{Value, json};
use umpire_core::{AnyGame, Match, Record, Seat, SeatView, Viewer, seeded_rng};
use umpire_server::client::{Ws, http_json};

/// Plays `seat` with random legal actions until the match ends; returns
/// every message it received.
async fn seat_player(mut ws: Ws, seat: Seat, addr: SocketAddr, c: &Created) -> Vec<Value> {
    let mut rng = seeded_rng(rand::random());
    let mut seen = Vec::new();
    let mut waiting = false;
    loop {
        let msg = ws
            .recv_within(WAIT)
            .await
            .expect("a message")
            .expect("open");
        seen.push(msg.clone());
        match msg["type"].as_str() {
            Some("accepted") | Some("error") => {
                assert_ne!(msg["type"], "error", "{seat}: {msg}");
                waiting = false;
            }
            Some("state") if !msg["outcome"].is_null() => break,
            Some("state") if !waiting && to_act(&msg, &seat.to_string()) => {
                let action = match msg["legal"].as_array() {
                    Some(legal) => legal[rng.random_range(0..legal.len())].clone(),
                    // Too many to list: the umpire's record gives the state.
                    None => json!(sample_from_record(addr, c, seat).await),
                };
                ws.send(&json!({"type": "act", "action": action}))
                    .await
                    .expect("sent");
                waiting = true;
            }
            _ => {}
        }
    }
    ws.close().await;
    seen
}

async fn sample_from_record(addr: SocketAddr, c: &Created, seat: Seat) -> String {
    let path = format!("/api/matches/{}/record?t={}", c.id, c.umpire);
    let (status, record) = http_json(addr, "GET", &path, None).await.expect("record");
    assert_eq!(status, 200);
    let record: Record = serde_json::from_value(record).expect("a record");
    let game = umpire_catalog::require(&record.game).expect("a game");
    let m = Match::replay(game, &record).expect("replays");
    SeatView::new(m.state(), seat)
        .sample_action(&mut seeded_rng(rand::random()))
        .expect("a legal action")
}

/// Reads until the match is over; returns every message.
async fn watcher(mut ws: Ws) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let msg = ws
            .recv_within(WAIT)
            .await
            .expect("a message")
            .expect("open");
        let over = msg["type"] == "state" && !msg["outcome"].is_null();
        seen.push(msg);
        if over {
            break;
        }
    }
    ws.close().await;
    seen
}

/// Checks every message a viewer received against an independent replay.
fn check(game: &'static dyn AnyGame, record: &Record, viewer: Viewer, seen: &[Value]) {
    let full = Match::replay(game, record).expect("the record replays");
    assert_eq!(full.record(), record, "the record is what a replay gives");
    let at = |k: usize| {
        let mut prefix = record.clone();
        prefix.actions.truncate(k);
        prefix.outcome = None;
        Match::replay(game, &prefix).expect("a prefix replays")
    };
    let mut states = 0;
    for msg in seen {
        match msg["type"].as_str() {
            Some("state") => {
                states += 1;
                let k = msg["seq"].as_u64().expect("a seq") as usize;
                let m = at(k);
                assert_eq!(msg["view"], m.view(viewer), "{viewer} view at {k}");
                assert_eq!(
                    msg["decision"],
                    json!(m.decision()),
                    "{viewer} decision at {k}"
                );
                assert_eq!(
                    msg["outcome"],
                    json!(m.outcome()),
                    "{viewer} outcome at {k}"
                );
                let legal = viewer
                    .seat()
                    .filter(|&s| m.decision().seats.contains(s))
                    .and_then(|s| m.state().legal_actions(s))
                    .map(|l| l.collect::<Vec<_>>())
                    .filter(|l| l.len() <= 1000);
                assert_eq!(
                    msg.get("legal"),
                    legal.map(|l| json!(l)).as_ref(),
                    "{viewer} legal at {k}"
                );
            }
            Some("accepted") => {
                let seat = viewer.seat().expect("only seats hear of accepted actions");
                let k = msg["seq"].as_u64().expect("a seq") as usize;
                let entry = &record.actions[k - 1];
                assert_eq!(entry.seat, seat, "{viewer} told of another seat's action");
                assert_eq!(msg["action"], entry.action);
            }
            Some("hello") => assert_eq!(msg["you"], viewer.to_string()),
            other => panic!("{viewer} got an unexpected {other:?}: {msg}"),
        }
    }
    assert!(states > 0);
}

/// One match with `seats` (`None` = a person), a spectator and the umpire.
async fn play(addr: SocketAddr, game: &'static dyn AnyGame, bots: [Option<&str>; 2]) {
    let seat_json = |b: Option<&str>| match b {
        Some(bot) => json!({"kind": "bot", "bot": bot}),
        None => json!({"kind": "person"}),
    };
    let c = create(
        addr,
        json!({"game": game.id(), "timed": true,
               "seats": {"P1": seat_json(bots[0]), "P2": seat_json(bots[1])}}),
    )
    .await;
    let mut clients = Vec::new();
    for (viewer, token) in [
        (Viewer::Spectator, None),
        (Viewer::Umpire, Some(c.umpire.clone())),
    ] {
        let ws = Ws::connect(addr, &c.id, token.as_deref())
            .await
            .expect("connects");
        clients.push((viewer, tokio::spawn(watcher(ws))));
    }
    let c = std::sync::Arc::new(c);
    for (i, seat) in Seat::BOTH.into_iter().enumerate() {
        if bots[i].is_some() {
            assert!(
                c.token(&seat.to_string()).is_none(),
                "a bot seat has no link"
            );
            continue;
        }
        let token = c
            .token(&seat.to_string())
            .expect("a person seat has a link");
        let ws = Ws::connect(addr, &c.id, Some(token))
            .await
            .expect("connects");
        let c = c.clone();
        let player = tokio::spawn(async move { seat_player(ws, seat, addr, &c).await });
        clients.push((Viewer::Seat(seat), player));
    }
    let mut seen = Vec::new();
    for (viewer, task) in clients {
        seen.push((viewer, task.await.expect("the client finished")));
    }
    // The record is public once the match is over.
    let path = format!("/api/matches/{}/record", c.id);
    let (status, record) = http_json(addr, "GET", &path, None).await.expect("record");
    assert_eq!(status, 200, "{record}");
    let record: Record = serde_json::from_value(record).expect("a record");
    assert!(record.outcome.is_some());
    for (viewer, seen) in &seen {
        check(game, &record, *viewer, seen);
    }
    // The replay endpoint agrees.
    let path = format!("/api/matches/{}/replay", c.id);
    let (status, replay) = http_json(addr, "GET", &path, None).await.expect("replay");
    assert_eq!(status, 200, "{replay}");
    assert_eq!(
        replay["steps"].as_array().map(Vec::len),
        Some(record.actions.len() + 1)
    );
    // So does `POST /api/replay` with the downloaded file.
    let (status, uploaded) = http_json(addr, "POST", "/api/replay", Some(&json!(record)))
        .await
        .expect("replay upload");
    assert_eq!(status, 200);
    assert_eq!(uploaded["steps"], replay["steps"]);
}

fn limit() -> Duration {
    Duration::from_secs(120)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_play_whole_matches_of_every_game() {
    let s = start(fast()).await;
    for game in umpire_catalog::games() {
        tokio::time::timeout(limit(), play(s.addr, *game, [None, None]))
            .await
            .expect("the match ends in time");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_every_bot_and_bots_play_each_other() {
    let s = start(fast()).await;
    for game in umpire_catalog::games() {
        let bots = umpire_bots::for_game(game.id());
        for bot in &bots {
            tokio::time::timeout(limit(), play(s.addr, *game, [None, Some(bot.name)]))
                .await
                .expect("the match ends in time");
        }
        let (first, last) = (bots[0].name, bots[bots.len() - 1].name);
        tokio::time::timeout(limit(), play(s.addr, *game, [Some(last), Some(first)]))
            .await
            .expect("the match ends in time");
        // A level names a bot too.
        tokio::time::timeout(limit(), play(s.addr, *game, [Some("easy"), None]))
            .await
            .expect("the match ends in time");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_open_live_and_finished_matches() {
    let s = start(fast()).await;
    let game = umpire_catalog::games()[0];
    let open = people(s.addr, game.id()).await;
    let (status, lobby) = http_json(s.addr, "GET", "/api/matches", None)
        .await
        .expect("lobby");
    assert_eq!(status, 200);
    assert!(
        lobby["open"]
            .as_array()
            .expect("open")
            .iter()
            .any(|m| m["id"] == open.id.as_str())
    );
    let (_p1, _) = join(s.addr, &open.id, open.p1.as_deref()).await;
    let (_p2, _) = join(s.addr, &open.id, open.p2.as_deref()).await;
    let (_, lobby) = http_json(s.addr, "GET", "/api/matches", None)
        .await
        .expect("lobby");
    let live = lobby["live"].as_array().expect("live");
    let entry = live
        .iter()
        .find(|m| m["id"] == open.id.as_str())
        .expect("listed as live");
    assert_eq!(entry["seats"]["P1"]["connected"], true);
    play(s.addr, game, [Some("random"), Some("random")]).await;
    let (_, lobby) = http_json(s.addr, "GET", "/api/matches", None)
        .await
        .expect("lobby");
    let finished = lobby["finished"].as_array().expect("finished");
    assert_eq!(finished.len(), 1);
    assert!(finished[0]["outcome"].is_object());
    let (status, games) = http_json(s.addr, "GET", "/api/games", None)
        .await
        .expect("games");
    assert_eq!(status, 200);
    assert_eq!(
        games.as_array().map(Vec::len),
        Some(umpire_catalog::games().len())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_out_of_time_plays_a_random_legal_action() {
    // No time at all: every bot move races the fallback, and late answers
    // must be dropped without harm.
    let s = start(umpire_server::Config {
        bot_budget_ms: 0,
        ..fast()
    })
    .await;
    for game in umpire_catalog::games() {
        let bot = umpire_bots::for_game(game.id()).last().expect("a bot").name;
        tokio::time::timeout(limit(), play(s.addr, *game, [Some(bot), None]))
            .await
            .expect("the match ends in time");
    }
}

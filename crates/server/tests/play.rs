//! Whole matches of every game (the test games too) through real WebSocket
//! clients (one per seat, a spectator and the umpire), checking that every
//! message each client received is exactly what that client may see: its own
//! view of the match at that point, rebuilt by an independent replay of the
//! record, each change once and in order.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use rand::RngExt;
use serde_json::{Value, json};
use umpire_core::{AnyGame, Match, Record, Seat, Viewer, seeded_rng};
use umpire_load::client::{Ws, http_json};

/// Plays `seat` with random legal actions until the match ends; returns
/// every message it received.
async fn seat_player(mut ws: Ws, seat: Seat, game: &'static dyn AnyGame) -> Vec<Value> {
    let mut rng = seeded_rng(rand::random());
    let mut seen = Vec::new();
    let mut waiting = false;
    loop {
        let msg = next(&mut ws).await;
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
                    // Too many to list: chosen from the seat's view alone.
                    None => json!(
                        game.sample_action_from_view(seat, &msg["view"], &mut rng)
                            .expect("a view of this game")
                            .expect("a legal action")
                    ),
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

/// The next message, which must come within [`WAIT`] on an open socket.
async fn next(ws: &mut Ws) -> Value {
    ws.recv_within(WAIT)
        .await
        .expect("a message")
        .expect("open")
}

/// Reads until the match is over; returns every message.
async fn watcher(mut ws: Ws) -> Vec<Value> {
    let mut seen = Vec::new();
    // A watcher that arrives after the end still reads what every arrival
    // is sent after the state: the log, then the chat.
    let (mut over, mut greeted) = (false, false);
    while !(over && greeted) {
        let msg = next(&mut ws).await;
        over |= msg["type"] == "state" && !msg["outcome"].is_null();
        greeted |= msg["type"] == "chat";
        seen.push(msg);
    }
    ws.close().await;
    seen
}

/// The match after the first `k` entries of `record`, replayed on its own.
fn prefix(game: &'static dyn AnyGame, record: &Record, k: usize) -> Match {
    let mut prefix = record.clone();
    prefix.actions.truncate(k);
    prefix.outcome = None;
    Match::replay(game, &prefix).expect("a prefix replays")
}

/// What `viewer` may see of `m`, as a `state` message carries it, and
/// what its clocks are computed from.
fn content(m: &Match, viewer: Viewer) -> Value {
    let decision = m.decision_for(viewer);
    let legal = viewer
        .seat()
        .filter(|&s| decision.seats().contains(s))
        .and_then(|s| m.state().legal_actions(s))
        .map(|l| l.collect::<Vec<_>>())
        .filter(|l| l.len() <= 1000);
    json!({"view": m.view(viewer), "decision": decision, "outcome": m.outcome(),
           "legal": legal, "clocks": format!("{:?}", m.clock_basis(viewer))})
}

/// What `viewer` sees at the start and after each step of `record` that
/// changed it, each rebuilt by replaying a prefix: its `seq`th change is
/// `changes[seq]`. A step is an action, or the timeouts of one moment.
fn changes(game: &'static dyn AnyGame, record: &Record, viewer: Viewer) -> Vec<Value> {
    let mut changes = vec![content(&prefix(game, record, 0), viewer)];
    let actions = &record.actions;
    for (k, entry) in actions.iter().enumerate() {
        let together = actions.get(k + 1).is_some_and(|next| {
            entry.action == "timeout" && next.action == "timeout" && next.at_ms == entry.at_ms
        });
        let now = content(&prefix(game, record, k + 1), viewer);
        if !together && changes.last() != Some(&now) {
            changes.push(now);
        }
    }
    changes
}

/// The seats table without how long anyone has been away.
fn seats_without_times(seats: &Value) -> Value {
    let mut seats = seats.clone();
    for seat in ["P1", "P2"] {
        if let Some(s) = seats[seat].as_object_mut() {
            s.remove("away_ms");
        }
    }
    seats
}

/// Checks every message a viewer received against an independent replay:
/// each `state` is the viewer's `seq`th change, and a viewer watching
/// throughout gets each change once, in order, and no other; the match log
/// it was sent, line by line, is the log of the whole record, the same for
/// every viewer (none for a game whose rules delete the earlier moves).
fn check(
    game: &'static dyn AnyGame,
    record: &Record,
    whole_log: &Option<Vec<Value>>,
    viewer: Viewer,
    seen: &[Value],
) {
    let full = Match::replay(game, record).expect("the record replays");
    assert_eq!(full.record(), record, "the record is what a replay gives");
    let changes = changes(game, record, viewer);
    let mut last: Option<(usize, Value)> = None;
    let mut accepted = Vec::new();
    let mut log: Option<Vec<Value>> = None;
    for msg in seen {
        match msg["type"].as_str() {
            Some("state") => {
                let seq = msg["seq"].as_u64().expect("a seq") as usize;
                let want = changes.get(seq).unwrap_or_else(|| {
                    panic!("{viewer}: seq {seq} of {} changes: {msg}", changes.len())
                });
                for key in ["view", "decision", "outcome"] {
                    assert_eq!(msg[key], want[key], "{viewer} {key} at seq {seq}");
                }
                assert_eq!(
                    msg.get("legal").unwrap_or(&Value::Null),
                    &want["legal"],
                    "{viewer} legal at seq {seq}"
                );
                // The same seq again only when who sits where changed.
                let seats = seats_without_times(&msg["seats"]);
                if let Some((last, last_seats)) = &last {
                    assert!(
                        seq == last + 1 || (seq == *last && seats != *last_seats),
                        "{viewer}: seq {last}, then {seq}: {msg}"
                    );
                }
                last = Some((seq, seats));
            }
            Some("accepted") => {
                assert!(
                    viewer.seat().is_some(),
                    "only seats hear of accepted actions"
                );
                accepted.push(msg["action"].clone());
            }
            Some("hello") => assert_eq!(msg["you"], viewer.to_string()),
            // Who sits where, and nothing else.
            Some("presence") => {
                assert_eq!(msg.as_object().map(|o| o.len()), Some(2), "{viewer}: {msg}")
            }
            Some("log") => {
                let lines = log.get_or_insert_with(Vec::new);
                let from = msg["from"].as_u64().expect("from") as usize;
                assert!(from <= lines.len(), "{viewer}: a log from {from}: {msg}");
                lines.truncate(from);
                lines.extend(msg["lines"].as_array().expect("lines").iter().cloned());
            }
            // Nobody chats here.
            Some("chat") => assert_eq!(msg["lines"], json!([]), "{viewer}: {msg}"),
            other => panic!("{viewer} got an unexpected {other:?}: {msg}"),
        }
    }
    assert_eq!(&log, whole_log, "{viewer}'s log");
    assert_eq!(
        last.map(|(seq, _)| seq),
        Some(changes.len() - 1),
        "{viewer} saw the end"
    );
    if let Some(seat) = viewer.seat() {
        let own: Vec<Value> = record
            .actions
            .iter()
            .filter(|e| e.seat == seat && e.action != "timeout")
            .map(|e| json!(e.action))
            .collect();
        assert_eq!(accepted, own, "{viewer} was told of its own actions only");
    }
}

/// One match with `seats` (`None` = a person), a spectator and the umpire.
async fn play(addr: SocketAddr, game: &'static dyn AnyGame, bots: [Option<&str>; 2]) {
    play_at(addr, [addr; 4], game, bots).await
}

/// [`play`], creating the match at `addr` and connecting the spectator,
/// the umpire, P1 and P2 at `at`'s addresses (nodes of one service: each
/// client is relayed to the node that runs the match).
async fn play_at(
    addr: SocketAddr,
    at: [SocketAddr; 4],
    game: &'static dyn AnyGame,
    bots: [Option<&str>; 2],
) {
    let seat_json = |b: Option<&str>| match b {
        Some(bot) => json!({"kind": "bot", "bot": bot}),
        None => json!({"kind": "person"}),
    };
    // Random players never end a game without a round limit.
    let limited = game.options().iter().any(|o| o.key == "max_rounds");
    let config = if limited {
        json!({"max_rounds": 3})
    } else {
        json!({})
    };
    let c = create(
        addr,
        json!({"game": game.id(), "timed": true, "config": config,
               "seats": {"P1": seat_json(bots[0]), "P2": seat_json(bots[1])}}),
    )
    .await;
    let mut clients = Vec::new();
    for (i, (viewer, token)) in [
        (Viewer::Spectator, None),
        (Viewer::Umpire, Some(c.umpire.clone())),
    ]
    .into_iter()
    .enumerate()
    {
        let ws = Ws::connect(at[i], &c.id, token.as_deref())
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
        let ws = Ws::connect(at[2 + i], &c.id, Some(token))
            .await
            .expect("connects");
        let player = tokio::spawn(seat_player(ws, seat, game));
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
    let log = umpire_server::log::of_record(game, &record).expect("the record replays");
    let log = log.map(|lines| lines.iter().map(|l| json!(l)).collect());
    for (viewer, seen) in &seen {
        check(game, &record, &log, *viewer, seen);
    }
    // The replay endpoint agrees.
    let path = format!("/api/matches/{}/replay", c.id);
    let (status, replay) = http_json(addr, "GET", &path, None).await.expect("replay");
    assert_eq!(status, 200, "{replay}");
    // Each step is the umpire's view after that many entries, as replaying
    // that prefix of the record gives it: the first in full, each next one
    // as a JSON Patch to the one before.
    let steps = replay["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), record.actions.len() + 1);
    let mut view = steps[0]["view"].clone();
    for (k, step) in steps.iter().enumerate() {
        if k > 0 {
            let patch: json_patch::Patch =
                serde_json::from_value(step["patch"].clone()).expect("a patch");
            json_patch::patch(&mut view, &patch).expect("the patch applies");
        }
        let m = prefix(game, &record, k);
        assert_eq!(view, m.view(Viewer::Umpire), "step {k}");
        let entry = k.checked_sub(1).map(|i| json!(record.actions[i]));
        assert_eq!(step["entry"], entry.unwrap_or(Value::Null), "step {k}");
    }
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
    let s = start(with_test_games()).await;
    for game in umpire_catalog::with_tests() {
        tokio::time::timeout(limit(), play(s.addr, *game, [None, None]))
            .await
            .expect("the match ends in time");
    }
}

/// Three nodes of one service: each match is made on one node and every
/// client connects to another, so each is relayed to the node that runs
/// the match; every client still sees exactly its own view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relayed_clients_see_exactly_their_views_in_every_game() {
    let Some(c) = cluster(3, with_test_games()).await else {
        return;
    };
    let [a, b, d] = [c.addrs[0], c.addrs[1], c.addrs[2]];
    for game in umpire_catalog::with_tests() {
        tokio::time::timeout(limit(), play_at(a, [b, d, b, d], *game, [None, None]))
            .await
            .expect("the match ends in time");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_every_bot_and_bots_play_each_other() {
    let s = start(with_test_games()).await;
    // The games side by side: most of the time is the bots' thinking.
    let games = umpire_catalog::with_tests().iter().map(|game| async move {
        // The searching levels think 200 ms (hard) and 2 s (expert) a move
        // unless told otherwise; here the plumbing counts, not the strength.
        let names: Vec<String> = umpire_catalog::bots(game.id())
            .iter()
            .map(|bot| match bot.level {
                umpire_core::Level::Hard | umpire_core::Level::Expert => {
                    format!("{}@20ms", bot.name)
                }
                _ => bot.name.to_string(),
            })
            .collect();
        for name in &names {
            tokio::time::timeout(limit(), play(s.addr, *game, [None, Some(name)]))
                .await
                .expect("the match ends in time");
        }
        let (first, last) = (&names[0], &names[names.len() - 1]);
        tokio::time::timeout(limit(), play(s.addr, *game, [Some(last), Some(first)]))
            .await
            .expect("the match ends in time");
        // A level names a bot too.
        tokio::time::timeout(limit(), play(s.addr, *game, [Some("easy"), None]))
            .await
            .expect("the match ends in time");
    });
    futures_util::future::join_all(games).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_open_live_and_finished_matches() {
    let s = start(fast()).await;
    let game = umpire_catalog::require("masked-army").expect("a game");
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
    let (mut p1, _) = join(s.addr, &open.id, open.p1.as_deref()).await;
    let (p2, p2_state) = join(s.addr, &open.id, open.p2.as_deref()).await;
    // Everyone is sent a state when a seat arrives.
    let (p1_state, _) = p1.until("state", WAIT).await.expect("a state");
    let (_, lobby) = http_json(s.addr, "GET", "/api/matches", None)
        .await
        .expect("lobby");
    let live = lobby["live"].as_array().expect("live");
    let entry = live
        .iter()
        .find(|m| m["id"] == open.id.as_str())
        .expect("listed as live");
    assert_eq!(entry["seats"]["P1"]["connected"], true);
    assert_eq!(entry["moves"], 0);
    // A move shows in the live match's count.
    let (mut mover, state) = if to_act(&p1_state, "P1") {
        (p1, p1_state)
    } else {
        (p2, p2_state)
    };
    act_first_legal(&mut mover, &state).await;
    let (_, lobby) = http_json(s.addr, "GET", "/api/matches", None)
        .await
        .expect("lobby");
    let entry = lobby["live"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|m| m["id"] == open.id.as_str())
        .cloned()
        .expect("still live");
    assert_eq!(entry["moves"], 1, "{entry}");
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
    // Each game describes its config options for the lobby.
    for (listed, game) in games
        .as_array()
        .into_iter()
        .flatten()
        .zip(umpire_catalog::games())
    {
        assert_eq!(listed["id"], game.id());
        assert_eq!(listed["options"], json!(game.options()), "{listed}");
    }
    let masked = games
        .as_array()
        .into_iter()
        .flatten()
        .find(|g| g["id"] == "masked-army")
        .expect("Masked Army is listed");
    assert_eq!(masked["options"][0]["key"], "advantage");
    assert_eq!(masked["options"][0]["kind"]["type"], "seat");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_the_expert_bots_off_neither_lists_nor_seats_them() {
    let s = start(umpire_server::Config {
        expert_bots: false,
        ..fast()
    })
    .await;
    let listed = games(s.addr).await;
    let levels: Vec<&Value> = listed
        .iter()
        .flat_map(|g| g["bots"].as_array().into_iter().flatten())
        .map(|b| &b["level"])
        .collect();
    assert!(levels.contains(&&json!("hard")), "{listed:?}");
    assert!(!levels.contains(&&json!("expert")), "{listed:?}");
    for game in umpire_catalog::games() {
        let body = json!({"game": game.id(), "seats": {"P2": {"kind": "bot", "bot": "expert@1s"}}});
        let said = bad_request(s.addr, "POST", "/api/matches", Some(&body)).await;
        assert!(
            said.contains("the expert bots are turned off on this server"),
            "{said}"
        );
    }
    // Where they are on, every game lists one.
    let on = start(fast()).await;
    for game in games(on.addr).await {
        let bots = game["bots"].to_string();
        assert!(bots.contains(r#""level":"expert""#), "{game}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_out_of_time_plays_a_random_legal_action() {
    // No time at all: every bot move races the fallback, and late answers
    // must be dropped without harm.
    let s = start(umpire_server::Config {
        bot_budget_ms: 0,
        ..with_test_games()
    })
    .await;
    for game in umpire_catalog::with_tests() {
        let bot = umpire_catalog::bots(game.id()).last().expect("a bot").name;
        tokio::time::timeout(limit(), play(s.addr, *game, [Some(bot), None]))
            .await
            .expect("the match ends in time");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_comes_in_pages_newest_first() {
    let s = start(fast()).await;
    let mut made = Vec::new();
    for _ in 0..120 {
        made.push(people(s.addr, "masked-army").await.id);
    }
    let mut seen = Vec::new();
    for page in 0..3 {
        let (status, lobby) = http_json(s.addr, "GET", &format!("/api/matches?page={page}"), None)
            .await
            .expect("lobby");
        assert_eq!(status, 200);
        assert_eq!(lobby["page"], page);
        let open = lobby["open"].as_array().expect("open");
        assert_eq!(open.len(), [50, 50, 20][page], "page {page}");
        assert_eq!(lobby["more"]["open"], page < 2, "page {page}");
        seen.extend(open.iter().map(|m| {
            let id = m["id"].as_str().unwrap_or_default().to_string();
            (m["created_ms"].as_u64().unwrap_or_default(), id)
        }));
    }
    assert!(
        seen.windows(2).all(|w| w[0] > w[1]),
        "newest first, none twice"
    );
    let mut ids: Vec<String> = seen.into_iter().map(|(_, id)| id).collect();
    ids.sort();
    made.sort();
    assert_eq!(ids, made, "every match on one page");
    bad_request(s.addr, "GET", "/api/matches?page=x", None).await;
}

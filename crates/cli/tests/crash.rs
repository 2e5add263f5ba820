//! The crash tests: the real `umpire serve` process is killed with SIGKILL
//! during play and started again on the same store. Every acknowledged
//! action is in the final record, in order, and the record equals its own
//! uninterrupted replay. The store is a SQLite file, or with
//! `UMPIRE_TEST_STORE=postgres` a schema of the test's own on the
//! PostgreSQL `UMPIRE_TEST_POSTGRES` names (`scripts/test` runs both).

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use umpire_core::{AnyGame, Match, Record, Seat, seeded_rng};
use umpire_load::client::{Ws, http_json, token_of};

mod common;
use common::{Served, serve_with};

const WAIT: Duration = Duration::from_secs(20);

/// The store of a test in `dir`.
async fn store(dir: &Path) -> String {
    if std::env::var("UMPIRE_TEST_STORE").as_deref() != Ok("postgres") {
        return format!("sqlite:{}", dir.join("crash.db").display());
    }
    common::postgres(dir)
        .await
        .expect("UMPIRE_TEST_STORE=postgres needs UMPIRE_TEST_POSTGRES, a database's URL")
}

/// `umpire serve` on `store`, at `addr` (`127.0.0.1:0` for any port).
fn serve_at(store: &str, addr: &str) -> Served {
    serve_with(addr, &["--store", store], None)
}

async fn snapshot(addr: SocketAddr, id: &str, token: &str) -> Value {
    let path = format!("/api/matches/{id}?t={token}");
    let (status, state) = http_json(addr, "GET", &path, None).await.expect("answers");
    assert_eq!(status, 200, "{state}");
    state
}

/// An action for seat `i` (0 for P1) in the `state` it was sent, varied by
/// `step`: from its legal list, or, when there are too many to list, drawn
/// from its view as a remote client would. `None` if it need not act.
fn choose(game: &dyn AnyGame, i: usize, state: &Value, step: usize) -> Option<Value> {
    if let Some(legal) = state["legal"].as_array().filter(|l| !l.is_empty()) {
        return Some(legal[(step * 7 + 3) % legal.len()].clone());
    }
    let seat = Seat::BOTH[i];
    let seats = state["decision"]["seats"].as_array()?;
    if !seats.iter().any(|s| s == seat.to_string().as_str()) {
        return None;
    }
    let mut rng = seeded_rng(step as u64);
    let action = game
        .sample_action_from_view(seat, &state["view"], &mut rng)
        .expect("a view of this game")?;
    Some(json!(action))
}

/// Plays `count` actions (or to the end) by whoever must act, each chosen
/// by [`choose`]; returns the accepted (seat, action) pairs.
async fn play(
    game: &dyn AnyGame,
    addr: SocketAddr,
    id: &str,
    tokens: &[String; 2],
    count: usize,
) -> Vec<(String, String)> {
    let mut seats = Vec::new();
    for token in tokens {
        seats.push(Ws::connect(addr, id, Some(token)).await.expect("connects"));
    }
    let mut accepted = Vec::new();
    for step in 0..count {
        let mut acted = false;
        for (i, name) in ["P1", "P2"].into_iter().enumerate() {
            let state = snapshot(addr, id, &tokens[i]).await;
            if !state["outcome"].is_null() {
                return accepted;
            }
            // Vary the choice so the matches differ from game to game.
            let Some(action) = choose(game, i, &state, step) else {
                continue;
            };
            seats[i]
                .send(&json!({"type": "act", "action": action}))
                .await
                .expect("sent");
            let (ok, _) = seats[i].until("accepted", WAIT).await.expect("accepted");
            accepted.push((
                name.to_string(),
                ok["action"].as_str().unwrap_or("").to_string(),
            ));
            acted = true;
            break;
        }
        assert!(acted, "nobody could act at step {step}");
    }
    accepted
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_every_match_and_loses_no_accepted_action() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = store(dir.path()).await;
    let serve = |db: &str| serve_at(db, "127.0.0.1:0");
    for game in umpire_catalog::games() {
        let server = serve(&db);
        let body = common::match_body(*game, 4, true);
        let (status, created) = http_json(server.addr, "POST", "/api/matches", Some(&body))
            .await
            .expect("created");
        assert_eq!(status, 201);
        let id = created["id"].as_str().expect("an id").to_string();
        let tokens = [
            token_of(&created["links"]["P1"]).expect("P1"),
            token_of(&created["links"]["P2"]).expect("P2"),
        ];
        let mut accepted = play(*game, server.addr, &id, &tokens, 12).await;
        let before = snapshot(server.addr, &id, &tokens[0]).await;
        let seq = before["seq"].as_u64().expect("a seq");
        // One more action in flight when the server dies: it may or may not
        // have been stored, but it was never acknowledged.
        let mut in_flight = None;
        for (i, name) in ["P1", "P2"].into_iter().enumerate() {
            let state = snapshot(server.addr, &id, &tokens[i]).await;
            if let Some(action) = choose(*game, i, &state, 0) {
                let mut ws = Ws::connect(server.addr, &id, Some(&tokens[i]))
                    .await
                    .expect("ws");
                ws.send(&json!({"type": "act", "action": action}))
                    .await
                    .expect("sent");
                in_flight = Some((name.to_string(), action.as_str().unwrap_or("").to_string()));
                break;
            }
        }

        // SIGKILL: no chance to flush anything.
        drop(server);
        let server = serve(&db);
        let after = snapshot(server.addr, &id, &tokens[0]).await;
        let resumed = after["seq"].as_u64().expect("a seq");
        assert!(
            resumed == seq || resumed == seq + 1,
            "{}: {seq} then {resumed}",
            game.id()
        );
        if resumed == seq {
            assert_eq!(
                after["view"],
                before["view"],
                "{}: resumed where it was",
                game.id()
            );
        } else {
            accepted.extend(in_flight);
        }
        accepted.extend(play(*game, server.addr, &id, &tokens, 100_000).await);

        let path = format!("/api/matches/{id}/record");
        let (status, record) = http_json(server.addr, "GET", &path, None)
            .await
            .expect("record");
        assert_eq!(status, 200, "{record}");
        // The download is what `umpire replay` takes.
        let file = dir.path().join(format!("{id}.json"));
        std::fs::write(&file, record.to_string()).expect("saved");
        let replay = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .arg("replay")
            .arg(&file)
            .output()
            .expect("umpire replay runs");
        assert!(
            replay.status.success(),
            "{}",
            String::from_utf8_lossy(&replay.stderr)
        );
        let record: Record = serde_json::from_value(record).expect("a record");
        assert!(record.outcome.is_some());
        let played: Vec<(String, String)> = record
            .actions
            .iter()
            .filter(|e| e.action != "timeout")
            .map(|e| (e.seat.to_string(), e.action.clone()))
            .collect();
        assert_eq!(
            played,
            accepted,
            "{}: the record holds every accepted action",
            game.id()
        );
        let replayed = Match::replay(*game, &record).expect("the record replays");
        assert_eq!(
            replayed.record(),
            &record,
            "{}: record equals its replay",
            game.id()
        );
    }
}

/// The actions acknowledged in one match, in order.
type Acknowledged = std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>;

/// Plays matches of `game` one after another until `until`, through the
/// server's deaths: each acknowledged action goes into its match's list.
/// Returns each match's id, umpire token and list.
async fn keep_playing(
    game: &'static dyn AnyGame,
    addr: SocketAddr,
    until: std::time::Instant,
) -> Vec<(String, String, Acknowledged)> {
    let mut played = Vec::new();
    while std::time::Instant::now() < until {
        let body = common::match_body(game, 3, false);
        let Ok((201, created)) = http_json(addr, "POST", "/api/matches", Some(&body)).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let id = created["id"].as_str().expect("an id").to_string();
        let tokens = [
            token_of(&created["links"]["P1"]).expect("P1"),
            token_of(&created["links"]["P2"]).expect("P2"),
        ];
        let umpire = token_of(&created["links"]["umpire"]).expect("umpire");
        let acknowledged = Acknowledged::default();
        played.push((id.clone(), umpire, acknowledged.clone()));
        play_through_deaths(game, addr, &id, &tokens, &acknowledged).await;
    }
    played
}

/// Plays one match to its end, reconnecting whenever the server dies.
async fn play_through_deaths(
    game: &'static dyn AnyGame,
    addr: SocketAddr,
    id: &str,
    tokens: &[String; 2],
    acknowledged: &Acknowledged,
) {
    let mut step = 0;
    let mut seats: [Option<Ws>; 2] = [None, None];
    loop {
        step += 1;
        assert!(step < 100_000, "{}: the match never ends", game.id());
        let mut states = Vec::new();
        for token in tokens {
            let path = format!("/api/matches/{id}?t={token}");
            match http_json(addr, "GET", &path, None).await {
                Ok((200, state)) => states.push(state),
                _ => break,
            }
        }
        if states.len() < 2 {
            // The server is down: wait for it.
            seats = [None, None];
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        if !states[0]["outcome"].is_null() {
            return;
        }
        let Some((i, action)) =
            (0..2).find_map(|i| choose(game, i, &states[i], step).map(|a| (i, a)))
        else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        if seats[i].is_none() {
            seats[i] = Ws::connect(addr, id, Some(&tokens[i])).await.ok();
        }
        let Some(ws) = seats[i].as_mut() else {
            continue;
        };
        let answered = async {
            ws.send(&json!({"type": "act", "action": action})).await?;
            ws.until_any(&["accepted", "error"], Duration::from_secs(5))
                .await
                .map(|(m, _)| m)
        };
        match answered.await {
            Ok(m) if m["type"] == "accepted" => {
                let name = ["P1", "P2"][i].to_string();
                let action = m["action"].as_str().unwrap_or_default().to_string();
                acknowledged.lock().unwrap().push((name, action));
            }
            // Refused (it raced a timeout or a restart): choose again.
            Ok(_) => {}
            Err(_) => seats[i] = None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_kills_during_busy_play_lose_no_acknowledged_action() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = store(dir.path()).await;
    let port = common::free_port();
    let at = format!("127.0.0.1:{port}");
    let addr: SocketAddr = at.parse().unwrap();
    let mut server = serve_at(&db, &at);
    // Two players of each game play on while the server dies ten times.
    let until = std::time::Instant::now() + Duration::from_secs(12);
    let mut players = Vec::new();
    for game in umpire_catalog::games() {
        for _ in 0..2 {
            players.push(tokio::spawn(keep_playing(*game, addr, until)));
        }
    }
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(1_100)).await;
        // SIGKILL: no chance to flush anything.
        drop(server);
        server = serve_at(&db, &at);
    }
    let mut matches = Vec::new();
    for p in players {
        matches.extend(p.await.expect("a player"));
    }
    let mut acknowledged = 0;
    for (id, umpire, acks) in matches {
        let path = format!("/api/matches/{id}/record?t={umpire}");
        let (status, record) = http_json(server.addr, "GET", &path, None)
            .await
            .expect("record");
        assert_eq!(status, 200, "{record}");
        let record: Record = serde_json::from_value(record).expect("a record");
        assert!(record.outcome.is_some(), "{id} finished");
        let stored: Vec<(String, String)> = record
            .actions
            .iter()
            .map(|e| (e.seat.to_string(), e.action.clone()))
            .collect();
        // Every acknowledged action is stored, in order (an action the
        // server died before acknowledging may be stored as well).
        let acks = acks.lock().unwrap().clone();
        let mut rest = stored.iter();
        for ack in &acks {
            assert!(
                rest.any(|s| s == ack),
                "{id}: acknowledged {ack:?} is not stored in order: {stored:?}"
            );
        }
        acknowledged += acks.len();
        let game = umpire_catalog::require_in(umpire_catalog::games(), &record.game).unwrap();
        let replayed = Match::replay(game, &record).expect("the record replays");
        assert_eq!(replayed.record(), &record);
    }
    eprintln!("{acknowledged} acknowledged actions through ten kills, none lost");
    assert!(acknowledged > 200, "busy play: {acknowledged} actions");
}

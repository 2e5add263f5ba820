//! The crash test: the real `umpire serve` process plays half a match of
//! every game, is killed with SIGKILL, starts again on the same store and
//! finishes the match. Every accepted action is in the final record, in
//! order, and the record equals its own uninterrupted replay.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use umpire_core::{AnyGame, Match, Record, Seat, seeded_rng};
use umpire_server::client::{Ws, http_json, token_of};

const WAIT: Duration = Duration::from_secs(20);

struct Served {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(db: &Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("umpire serve starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    Served { child, addr }
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
    let db = dir.path().join("crash.db");
    for game in umpire_catalog::games() {
        let server = serve(&db);
        // Random players never end a game without a round limit.
        let limited = game.options().iter().any(|o| o.key == "max_rounds");
        let config = if limited {
            json!({"max_rounds": 4})
        } else {
            json!({})
        };
        let body = json!({"game": game.id(), "config": config, "timed": true});
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

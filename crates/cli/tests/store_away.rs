//! A PostgreSQL store that goes away for ten seconds under play loses no
//! acknowledged action, refuses actions meanwhile with a clear error, and
//! plays on when it is back. Needs `UMPIRE_TEST_POSTGRES` and
//! `UMPIRE_TEST_POSTGRES_DIR` (`scripts/test` sets them); it stops that
//! server, so it is a test binary of its own (binaries never run at once).

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use umpire_load::client::{Ws, http_json, token_of};
use umpire_load::served::Served;

fn serve(store: &str) -> Served {
    let mut command = Command::new(env!("CARGO_BIN_EXE_umpire"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--store", store])
        .env("RUST_LOG", "warn");
    Served::start(command).expect("umpire serve starts")
}

/// Stops or starts the test PostgreSQL (`scripts/pg`).
fn pg(what: &str, dir: &str) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/pg");
    let status = Command::new(script)
        .args([what, dir])
        .stdout(Stdio::null())
        .status()
        .expect("scripts/pg runs");
    assert!(status.success(), "scripts/pg {what}");
}

/// The first legal action of whichever seat must act, and that seat (0
/// for P1), from the seats' snapshots (a live match answers them from
/// memory, with or without its store).
async fn to_play(addr: SocketAddr, id: &str, tokens: &[String; 2]) -> Option<(usize, Value)> {
    for (i, token) in tokens.iter().enumerate() {
        let path = format!("/api/matches/{id}?t={token}");
        let (_, state) = http_json(addr, "GET", &path, None).await.ok()?;
        if !state["outcome"].is_null() {
            return None;
        }
        if let Some(action) = state["legal"].as_array().and_then(|l| l.first()) {
            return Some((i, action.clone()));
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_away_for_ten_seconds_loses_nothing_and_play_resumes() {
    let (Ok(url), Ok(pg_dir)) = (
        std::env::var("UMPIRE_TEST_POSTGRES"),
        std::env::var("UMPIRE_TEST_POSTGRES_DIR"),
    ) else {
        eprintln!("not tested: UMPIRE_TEST_POSTGRES(_DIR) are not set (scripts/test sets them)");
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = match umpire_server::scratch_schema(&url, dir.path()).await {
        Ok(umpire_server::Place::Postgres(url)) => url,
        other => panic!("a schema: {other:?}"),
    };
    let server = serve(&store);
    let addr = server.addr;
    let body = json!({"game": "masked-army", "timed": false});
    let (status, made) = http_json(addr, "POST", "/api/matches", Some(&body))
        .await
        .unwrap();
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let tokens = [
        token_of(&made["links"]["P1"]).unwrap(),
        token_of(&made["links"]["P2"]).unwrap(),
    ];
    let umpire = token_of(&made["links"]["umpire"]).unwrap();
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Ws::connect(addr, &id, Some(token)).await.unwrap());
    }
    let mut acknowledged = Vec::new();
    let act = async |seats: &mut Vec<Ws>, acknowledged: &mut Vec<String>| -> Value {
        let (i, action) = to_play(addr, &id, &tokens).await.expect("a seat to act");
        seats[i]
            .send(&json!({"type": "act", "action": action}))
            .await
            .unwrap();
        let (answer, _) = seats[i]
            .until_any(&["accepted", "error"], Duration::from_secs(20))
            .await
            .unwrap();
        if answer["type"] == "accepted" {
            acknowledged.push(answer["action"].as_str().unwrap().to_string());
        }
        answer
    };
    for _ in 0..6 {
        let answer = act(&mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "accepted", "{answer}");
    }
    // PostgreSQL goes away for ten seconds: every action meanwhile is
    // refused, saying so, and none is acknowledged.
    pg("stop", &pg_dir);
    let away = Instant::now();
    let mut refusals = 0;
    while away.elapsed() < Duration::from_secs(10) {
        let answer = act(&mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "error", "acknowledged while away: {answer}");
        assert_eq!(answer["rule"], "store", "{answer}");
        assert!(
            answer["message"]
                .as_str()
                .unwrap_or_default()
                .contains("try again"),
            "{answer}"
        );
        refusals += 1;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    pg("start", &pg_dir);
    // Back: within seconds the match plays on, to its end.
    let back = Instant::now();
    let resumed = loop {
        let answer = act(&mut seats, &mut acknowledged).await;
        if answer["type"] == "accepted" {
            break back.elapsed();
        }
        assert!(
            back.elapsed() < Duration::from_secs(15),
            "never resumed: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    while to_play(addr, &id, &tokens).await.is_some() {
        let answer = act(&mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "accepted", "{answer}");
    }
    eprintln!(
        "{refusals} actions refused while PostgreSQL was away; play resumed {resumed:?} after it came back"
    );
    let path = format!("/api/matches/{id}/record?t={umpire}");
    let (status, record) = http_json(addr, "GET", &path, None).await.unwrap();
    assert_eq!(status, 200, "{record}");
    let stored: Vec<&str> = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(stored, acknowledged, "the record is what was acknowledged");
    assert!(!record["outcome"].is_null());
}

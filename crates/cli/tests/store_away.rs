//! A PostgreSQL store that goes away for ten seconds under play loses no
//! acknowledged action, refuses actions meanwhile with a clear error, and
//! plays on when it is back; with two nodes of one service, too. Needs `UMPIRE_TEST_POSTGRES` and
//! `UMPIRE_TEST_POSTGRES_DIR` (`scripts/test` sets them); it stops that
//! server, so it is a test binary of its own (binaries never run at once).

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use umpire_load::client::{Ws, http_json, token_of};

mod common;
use common::Served;

fn serve(store: &str) -> Served {
    serve_with(store, &[])
}

/// `umpire serve` on `store` with more `args`.
fn serve_with(store: &str, args: &[&str]) -> Served {
    let mut all = vec!["--store", store];
    all.extend(args);
    common::serve_with("127.0.0.1:0", &all, None)
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

/// Both tests stop the one test PostgreSQL: one at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The test PostgreSQL's URL and data directory; `None` (said on stderr)
/// when they are not set.
fn test_postgres() -> Option<(String, String)> {
    let (Ok(url), Ok(pg_dir)) = (
        std::env::var("UMPIRE_TEST_POSTGRES"),
        std::env::var("UMPIRE_TEST_POSTGRES_DIR"),
    ) else {
        eprintln!("not tested: UMPIRE_TEST_POSTGRES(_DIR) are not set (scripts/test sets them)");
        return None;
    };
    Some((url, pg_dir))
}

/// A schema of `dir`'s own on the PostgreSQL at `url`, as a store URL.
async fn schema(url: &str, dir: &std::path::Path) -> String {
    match umpire_server::scratch_schema(url, dir).await {
        Ok(umpire_server::Place::Postgres(url)) => url,
        other => panic!("a schema: {other:?}"),
    }
}

/// Creates an untimed match of Masked Army at `addr`: its id, the seats'
/// tokens and the umpire's.
async fn create(addr: SocketAddr) -> (String, [String; 2], String) {
    let body = json!({"game": "masked-army", "timed": false});
    let (status, made) = http_json(addr, "POST", "/api/matches", Some(&body))
        .await
        .unwrap();
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let token = |link: &str| token_of(&made["links"][link]).unwrap();
    (id, [token("P1"), token("P2")], token("umpire"))
}

/// Plays the first legal action of whichever seat must act; its answer.
async fn act(
    addr: SocketAddr,
    id: &str,
    tokens: &[String; 2],
    seats: &mut [Ws],
    acknowledged: &mut Vec<String>,
) -> Value {
    let (i, action) = to_play(addr, id, tokens).await.expect("a seat to act");
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_away_for_ten_seconds_loses_nothing_and_play_resumes() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some((url, pg_dir)) = test_postgres() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = schema(&url, dir.path()).await;
    let server = serve(&store);
    let addr = server.addr;
    let (id, tokens, umpire) = create(addr).await;
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Ws::connect(addr, &id, Some(token)).await.unwrap());
    }
    let mut acknowledged = Vec::new();
    for _ in 0..6 {
        let answer = act(addr, &id, &tokens, &mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "accepted", "{answer}");
    }
    // PostgreSQL goes away for ten seconds: every action meanwhile is
    // refused, saying so, and none is acknowledged.
    pg("stop", &pg_dir);
    let away = Instant::now();
    let mut refusals = 0;
    while away.elapsed() < Duration::from_secs(10) {
        let answer = act(addr, &id, &tokens, &mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "error", "acknowledged while away: {answer}");
        assert_eq!(answer["rule"], "store", "{answer}");
        let message = answer["message"].as_str().unwrap_or_default();
        assert!(message.contains("try again"), "{answer}");
        refusals += 1;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    pg("start", &pg_dir);
    // Back: within seconds the match plays on, to its end.
    let back = Instant::now();
    let resumed = loop {
        let answer = act(addr, &id, &tokens, &mut seats, &mut acknowledged).await;
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
        let answer = act(addr, &id, &tokens, &mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "accepted", "{answer}");
    }
    eprintln!(
        "{refusals} actions refused while PostgreSQL was away; play resumed {resumed:?} after it came back"
    );
    let path = format!("/api/matches/{id}/record?t={umpire}");
    let (status, record) = http_json(addr, "GET", &path, None).await.unwrap();
    assert_eq!(status, 200, "{record}");
    let stored: Vec<&str> = common::texts(&record["actions"], "action");
    assert_eq!(stored, acknowledged, "the record is what was acknowledged");
    assert!(!record["outcome"].is_null());
}

/// Two nodes of one service, PostgreSQL away for ten seconds under play,
/// one player relayed: nothing acknowledged that was not written, no match
/// changes hands when it is back (every node renews before any takes
/// over), and play resumes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_away_from_two_nodes_loses_nothing_and_moves_nothing() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some((url, pg_dir)) = test_postgres() else {
        return;
    };
    let Some(nats) = common::Nats::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = schema(&url, dir.path()).await;
    let bus = nats.url();
    let a = serve_with(&store, &["--bus", &bus, "--node", "a"]);
    let b = serve_with(&store, &["--bus", &bus, "--node", "b"]);
    let (id, tokens, umpire) = create(a.addr).await;
    // P1 at the match's node, P2 relayed by the other.
    let mut seats = vec![
        Ws::connect(a.addr, &id, Some(&tokens[0])).await.unwrap(),
        Ws::connect(b.addr, &id, Some(&tokens[1])).await.unwrap(),
    ];
    let mut acknowledged = Vec::new();
    let epoch = |store: String| async move {
        let db = common::connect(&store).await;
        let row = db
            .query_one("SELECT owner, epoch FROM matches", &[])
            .await
            .unwrap();
        (row.get::<_, Option<String>>(0), row.get::<_, i64>(1))
    };
    let before = epoch(store.clone()).await;
    for _ in 0..4 {
        let answer = act(a.addr, &id, &tokens, &mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "accepted", "{answer}");
    }
    pg("stop", &pg_dir);
    let away = Instant::now();
    while away.elapsed() < Duration::from_secs(10) {
        let answer = act(a.addr, &id, &tokens, &mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "error", "acknowledged while away: {answer}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    pg("start", &pg_dir);
    let back = Instant::now();
    loop {
        let answer = act(a.addr, &id, &tokens, &mut seats, &mut acknowledged).await;
        if answer["type"] == "accepted" {
            break;
        }
        assert!(
            back.elapsed() < Duration::from_secs(15),
            "never resumed: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Some seconds on, the match is still run where it was.
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        epoch(store.clone()).await,
        before,
        "nobody took the match over"
    );
    while to_play(a.addr, &id, &tokens).await.is_some() {
        let answer = act(a.addr, &id, &tokens, &mut seats, &mut acknowledged).await;
        assert_eq!(answer["type"], "accepted", "{answer}");
    }
    let path = format!("/api/matches/{id}/record?t={umpire}");
    let (status, record) = http_json(b.addr, "GET", &path, None).await.unwrap();
    assert_eq!(status, 200, "{record}");
    let stored: Vec<&str> = common::texts(&record["actions"], "action");
    assert_eq!(stored, acknowledged, "the record is what was acknowledged");
}

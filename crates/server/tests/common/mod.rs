//! Shared by the server's integration tests: a real server on a loopback
//! port with its own store, and small protocol helpers.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use umpire_load::client::{Ws, http_json, token_of};
use umpire_server::{Config, Server};

/// Long enough for a slow CI machine, short enough to fail fast.
pub const WAIT: Duration = Duration::from_secs(20);

pub struct TestServer {
    pub server: Server,
    pub addr: SocketAddr,
    pub dir: tempfile::TempDir,
}

/// Server settings for tests: bots between themselves do not pause, and
/// one address (the tests') may create and connect freely.
pub fn fast() -> Config {
    Config {
        bot_pace_ms: 0,
        creates_per_minute: 0,
        connects_per_minute: 0,
        conns_per_address: 0,
        matches_per_address: 0,
        bot_matches_per_address: 0,
        replays_per_minute: 0,
        lobby_fresh_ms: 0,
        ..Config::default()
    }
}

/// [`fast`] with what `change` sets: `fast_with(|c| c.speed = 1000)`.
pub fn fast_with(change: impl FnOnce(&mut Config)) -> Config {
    let mut config = fast();
    change(&mut config);
    config
}

/// [`fast`], serving the test games too.
pub fn with_test_games() -> Config {
    Config {
        test_games: true,
        ..fast()
    }
}

/// Where a test server in `dir` keeps its matches: a SQLite file there, or,
/// with `UMPIRE_TEST_STORE=postgres`, a schema of `dir`'s own in the
/// database `UMPIRE_TEST_POSTGRES` names (`scripts/test` runs the server's
/// tests both ways). The same `dir` finds the same store after a restart.
pub async fn place(dir: &std::path::Path) -> umpire_server::Place {
    if std::env::var("UMPIRE_TEST_STORE").as_deref() != Ok("postgres") {
        return umpire_server::Place::Sqlite(dir.join("test.db"));
    }
    let url = std::env::var("UMPIRE_TEST_POSTGRES")
        .expect("UMPIRE_TEST_STORE=postgres needs UMPIRE_TEST_POSTGRES, a database's URL");
    umpire_server::scratch_schema(&url, dir)
        .await
        .expect("a schema on the test PostgreSQL")
}

pub async fn start(config: Config) -> TestServer {
    let dir = tempfile::tempdir().expect("a temp dir");
    start_in(dir, config).await
}

pub async fn start_in(dir: tempfile::TempDir, config: Config) -> TestServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let config = Config {
        store: place(dir.path()).await,
        ..config
    };
    let server = umpire_server::start(listener, config)
        .await
        .expect("the server starts");
    let addr = server.addr;
    TestServer { server, addr, dir }
}

/// A created match: its id and the tokens of each link.
pub struct Created {
    pub id: String,
    pub p1: Option<String>,
    pub p2: Option<String>,
    pub umpire: String,
}

impl Created {
    pub fn token(&self, seat: &str) -> Option<&str> {
        match seat {
            "P1" => self.p1.as_deref(),
            "P2" => self.p2.as_deref(),
            _ => Some(&self.umpire),
        }
    }
}

pub async fn create(addr: SocketAddr, body: Value) -> Created {
    let (status, created) = http_json(addr, "POST", "/api/matches", Some(&body))
        .await
        .expect("create answers");
    assert_eq!(status, 201, "{created}");
    Created {
        id: created["id"].as_str().expect("an id").to_string(),
        p1: token_of(&created["links"]["P1"]),
        p2: token_of(&created["links"]["P2"]),
        umpire: token_of(&created["links"]["umpire"]).expect("an umpire link"),
    }
}

pub async fn people(addr: SocketAddr, game: &str) -> Created {
    create(addr, json!({"game": game, "timed": true})).await
}

/// Connects and reads `hello`, the first `state`, and the match log and
/// the chat sent with it.
pub async fn join(addr: SocketAddr, id: &str, token: Option<&str>) -> (Ws, Value) {
    let mut ws = Ws::connect(addr, id, token).await.expect("connects");
    let (hello, _) = ws.until("hello", WAIT).await.expect("hello");
    assert_eq!(hello["type"], "hello");
    let (state, _) = ws.until("state", WAIT).await.expect("a first state");
    // Then the match log (for a game that keeps one) and the chat so far.
    let (chat, _) = ws.until("chat", WAIT).await.expect("the chat so far");
    assert_eq!(chat["all"], true, "{chat}");
    (ws, state)
}

/// Connects both seats of match `c` ([`join`]): P1's socket, then P2's.
pub async fn join_both(addr: SocketAddr, c: &Created) -> (Ws, Ws) {
    let (p1, _) = join(addr, &c.id, c.p1.as_deref()).await;
    let (p2, _) = join(addr, &c.id, c.p2.as_deref()).await;
    (p1, p2)
}

/// Receives until a `state` with `seq` at least `seq`; returns it and the
/// messages before it.
pub async fn state_at(ws: &mut Ws, seq: u64) -> (Value, Vec<Value>) {
    let mut before = Vec::new();
    loop {
        let (state, earlier) = ws.until("state", WAIT).await.expect("a state");
        before.extend(earlier);
        if state["seq"].as_u64().unwrap_or(0) >= seq {
            return (state, before);
        }
        before.push(state);
    }
}

/// Plays the first legal action `state` lists; returns its `accepted`.
pub async fn act_first_legal(ws: &mut Ws, state: &Value) -> Value {
    let action = state["legal"][0].clone();
    ws.send(&json!({"type": "act", "action": action}))
        .await
        .expect("sent");
    ws.until("accepted", WAIT).await.expect("accepted").0
}

/// Each field of `fields` stands in `msg` with that value.
pub fn assert_has(msg: &Value, fields: Value) {
    for (key, value) in fields.as_object().expect("fields as an object") {
        assert_eq!(&msg[key], value, "{key} of {msg}");
    }
}

/// Whether `seat` must act in this state.
pub fn to_act(state: &Value, seat: &str) -> bool {
    state["decision"]["seats"]
        .as_array()
        .is_some_and(|s| s.iter().any(|s| s == seat))
}

/// Sends a request that must be refused as bad (400); returns the words
/// of its `error`.
pub async fn bad_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> String {
    let (status, answer) = http_json(addr, method, path, body).await.expect("answers");
    assert_eq!(status, 400, "{method} {path} {body:?}: {answer}");
    answer["error"].as_str().unwrap_or_default().to_string()
}

/// `GET /api/games`: the games the server lists.
pub async fn games(addr: SocketAddr) -> Vec<Value> {
    let (status, games) = http_json(addr, "GET", "/api/games", None)
        .await
        .expect("the games");
    assert_eq!(status, 200, "{games}");
    games.as_array().cloned().unwrap_or_default()
}

/// The current snapshot over HTTP.
pub async fn snapshot(addr: SocketAddr, id: &str, token: Option<&str>) -> (u16, Value) {
    let path = match token {
        Some(t) => format!("/api/matches/{id}?t={t}"),
        None => format!("/api/matches/{id}"),
    };
    http_json(addr, "GET", &path, None).await.expect("answers")
}

/// A NATS server of a test's own, on a loopback port; stopped on drop.
pub struct Nats {
    child: std::process::Child,
    pub url: String,
    pub port: u16,
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Nats {
    /// Starts `nats-server` (Debian's, which `scripts/test` installs) on
    /// `port` (0: a free one); `None` if it is not installed.
    pub fn start(port: u16) -> Option<Nats> {
        let port = match port {
            0 => std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .ok()?
                .port(),
            p => p,
        };
        let bin = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())?;
        let child = std::process::Command::new(bin)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        // Ready once it takes connections.
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if started.elapsed() > Duration::from_secs(10) {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Nats {
            child,
            url: format!("nats://127.0.0.1:{port}"),
            port,
        })
    }
}

/// Nodes of one service in this process, sharing a PostgreSQL schema of
/// the test's own and a NATS server.
pub struct TestCluster {
    pub nodes: Vec<Server>,
    pub addrs: Vec<SocketAddr>,
    pub nats: Nats,
    pub store: umpire_server::Place,
    pub dir: tempfile::TempDir,
}

/// `n` nodes with `config`, or `None` (said on stderr) without a test
/// PostgreSQL (`UMPIRE_TEST_POSTGRES`) or `nats-server`.
pub async fn cluster(n: usize, config: Config) -> Option<TestCluster> {
    let Ok(url) = std::env::var("UMPIRE_TEST_POSTGRES") else {
        eprintln!("not tested: UMPIRE_TEST_POSTGRES is not set (scripts/test sets it)");
        return None;
    };
    let Some(nats) = Nats::start(0) else {
        eprintln!("not tested: nats-server is not installed (scripts/test installs it)");
        return None;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = umpire_server::scratch_schema(&url, dir.path())
        .await
        .expect("a schema on the test PostgreSQL");
    let mut nodes = Vec::new();
    for i in 0..n {
        nodes.push(node(&store, &nats, i, config.clone()).await);
    }
    let addrs = nodes.iter().map(|s| s.addr).collect();
    Some(TestCluster {
        nodes,
        addrs,
        nats,
        store,
        dir,
    })
}

/// Node `i` of a test cluster.
pub async fn node(store: &umpire_server::Place, nats: &Nats, i: usize, config: Config) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let config = Config {
        store: store.clone(),
        bus: Some(nats.url.clone()),
        node: format!("n{i}"),
        ..config
    };
    umpire_server::start(listener, config)
        .await
        .expect("the node starts")
}

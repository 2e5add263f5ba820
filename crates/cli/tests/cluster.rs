//! Three `umpire serve` processes as one service (a PostgreSQL schema of
//! the test's own, a NATS server of its own), with people playing every
//! game on them at once:
//!
//! - a node killed with SIGKILL, again and again, loses no acknowledged
//!   action; its matches go on on the other nodes within seconds, every
//!   match finishes with a record that replays, and the store shows no
//!   entry written by a node that had lost its match;
//! - a rolling restart (SIGTERM, one node at a time) behind HAProxy costs
//!   players a reconnect and nothing more;
//! - while the bus is away each node serves its own matches to its own
//!   clients, relayed clients are told to try again, and all recovers.
//!
//! Needs `UMPIRE_TEST_POSTGRES`, `nats-server` and `haproxy`, which
//! `scripts/test` provides. The chaos test's size comes from
//! `UMPIRE_CHAOS_MATCHES`, `UMPIRE_CHAOS_SECONDS` and `UMPIRE_CHAOS_EVERY`
//! (defaults small enough for CI; `docs/cluster.md` has the full run).

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{Value, json};
use umpire_core::{AnyGame, Match, Record, Seat, seeded_rng};
use umpire_load::client::{Ws, http_json, token_of};

mod common;
use common::{Nats, free_port};

/// The tests run one at a time: each starts three servers.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn kill(child: &mut Child, signal: &str) {
    let _ = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status();
}

/// One node: `umpire serve` on a port that stays its own across restarts.
struct Node {
    child: Option<Child>,
    name: String,
    port: u16,
    store: String,
    bus: String,
}

impl Node {
    fn start(name: &str, store: &str, bus: &str) -> Node {
        let mut node = Node {
            child: None,
            name: name.to_string(),
            port: free_port(),
            store: store.to_string(),
            bus: bus.to_string(),
        };
        node.up();
        node
    }

    fn addr(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }

    /// Starts the process (again) and waits until it listens.
    fn up(&mut self) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args(["serve", "--addr", &format!("127.0.0.1:{}", self.port)])
            .args([
                "--store",
                &self.store,
                "--bus",
                &self.bus,
                "--node",
                &self.name,
            ])
            .args(["--creates-per-minute", "0", "--connects-per-minute", "0"])
            .args(["--conns-per-address", "0", "--matches-per-address", "0"])
            .args(["--bot-matches-per-address", "0"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .expect("umpire serve starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout).read_line(&mut line).expect("a line");
        assert!(line.starts_with("listening on"), "{}: {line}", self.name);
        self.child = Some(child);
    }

    /// SIGKILL: no chance to hand anything over.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            kill(&mut child, "-KILL");
            let _ = child.wait();
        }
    }

    /// SIGTERM: hands its matches over, then exits.
    fn term(&mut self) {
        if let Some(mut child) = self.child.take() {
            kill(&mut child, "-TERM");
            let _ = child.wait();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// What a cluster test runs on: its turn (the tests run one at a time),
/// its own schema on the test PostgreSQL (`place`, kept in `_dir`) with a
/// connection to it, and a NATS bus.
struct Setup {
    _one: tokio::sync::MutexGuard<'static, ()>,
    _dir: tempfile::TempDir,
    place: String,
    db: tokio_postgres::Client,
    nats: Nats,
}

/// Waits for this test's turn and sets up; `None` (said on stderr) when
/// PostgreSQL or NATS is not there.
async fn setup() -> Option<Setup> {
    let one = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().expect("a temp dir");
    let place = common::postgres(dir.path()).await?;
    let db = common::connect(&place).await;
    let nats = Nats::start()?;
    Some(Setup {
        _one: one,
        _dir: dir,
        place,
        db,
        nats,
    })
}

/// An acknowledged action: its seat, its notation and when it was heard.
type Ack = (String, String, Instant);
type Acks = Arc<Mutex<Vec<Ack>>>;

/// A match played: its id, umpire token and acknowledgements.
struct Played {
    id: String,
    umpire: String,
    acks: Acks,
    /// The outcome each seat was shown at the end, and by which node.
    ends: Arc<Mutex<Vec<(SocketAddr, Value)>>>,
}

/// Creates a match of `game` at `at` (retrying while nodes come and go).
async fn create(at: SocketAddr, game: &dyn AnyGame) -> Value {
    let body = common::match_body(game, 3, true);
    loop {
        if let Ok((201, made)) = http_json(at, "POST", "/api/matches", Some(&body)).await {
            return made;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Plays matches of `game` one after another until `until`, each made at
/// a random node and each seat connecting at a random one of `addrs`
/// (again at every reconnect); the matches, as they start, go to `played`.
async fn keep_playing(
    game: &'static dyn AnyGame,
    addrs: Arc<Vec<SocketAddr>>,
    until: Instant,
    played: Arc<Mutex<Vec<Played>>>,
) {
    while Instant::now() < until {
        let at = addrs[rand::rng().random_range(0..addrs.len())];
        let made = create(at, game).await;
        let id = made["id"].as_str().expect("an id").to_string();
        let acks = Acks::default();
        let ends = Arc::new(Mutex::new(Vec::new()));
        played.lock().unwrap().push(Played {
            id: id.clone(),
            umpire: token_of(&made["links"]["umpire"]).expect("the umpire's link"),
            acks: acks.clone(),
            ends: ends.clone(),
        });
        let mut seats = Vec::new();
        for seat in Seat::BOTH {
            let token = token_of(&made["links"][seat.to_string()]).expect("a seat's link");
            let (id, acks, addrs) = (id.clone(), acks.clone(), addrs.clone());
            seats.push(tokio::spawn(play_seat(game, seat, id, token, addrs, acks)));
        }
        for seat in seats {
            let end = tokio::time::timeout(Duration::from_secs(240), seat)
                .await
                .expect("the match ends")
                .expect("the player");
            ends.lock().unwrap().push(end);
        }
    }
}

/// Plays `seat` of match `id` to its end, thinking a little before each
/// action, reconnecting (at a random node) whenever its connection ends.
async fn play_seat(
    game: &'static dyn AnyGame,
    seat: Seat,
    id: String,
    token: String,
    addrs: Arc<Vec<SocketAddr>>,
    acks: Acks,
) -> (SocketAddr, Value) {
    let mut rng = seeded_rng(rand::random());
    loop {
        let at = addrs[rng.random_range(0..addrs.len())];
        let Ok(mut ws) = Ws::connect(at, &id, Some(&token)).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut state: Option<Value> = None;
        let mut waiting = false;
        loop {
            let msg = match ws.recv_within(Duration::from_secs(10)).await {
                Ok(Some(msg)) => msg,
                // Closed, or silent: connect again.
                _ => break,
            };
            match msg["type"].as_str() {
                Some("state") => {
                    if !msg["outcome"].is_null() {
                        return (at, msg["outcome"].clone());
                    }
                    state = Some(msg);
                }
                Some("accepted") => {
                    let action = msg["action"].as_str().unwrap_or_default().to_string();
                    acks.lock()
                        .unwrap()
                        .push((seat.to_string(), action, Instant::now()));
                    waiting = false;
                    continue;
                }
                Some("error") => waiting = false,
                _ => continue,
            }
            let Some(s) = state.as_ref() else { continue };
            let mine = s["decision"]["seats"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == seat.to_string().as_str()));
            if waiting || !mine {
                continue;
            }
            let action = match s["legal"].as_array().filter(|l| !l.is_empty()) {
                Some(legal) => legal[rng.random_range(0..legal.len())].clone(),
                None => match game.sample_action_from_view(seat, &s["view"], &mut rng) {
                    Ok(Some(a)) => json!(a),
                    _ => continue,
                },
            };
            tokio::time::sleep(Duration::from_millis(rng.random_range(50..150))).await;
            if ws
                .send(&json!({"type": "act", "action": action}))
                .await
                .is_err()
            {
                break;
            }
            waiting = true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Checks every match (all over): its record replays and holds every
/// acknowledged action in order.
async fn check_matches(played: &[Played], at: SocketAddr) -> usize {
    let mut acknowledged = 0;
    for p in played {
        let path = format!("/api/matches/{}/record?t={}", p.id, p.umpire);
        let (status, record) = http_json(at, "GET", &path, None).await.expect("record");
        assert_eq!(status, 200, "{record}");
        let record: Record = serde_json::from_value(record).expect("a record");
        let acks = p.acks.lock().unwrap().clone();
        assert!(
            record.outcome.is_some(),
            "{} did not finish: {} stored actions, the last acknowledged {:?}; the seats were shown {:?}",
            p.id,
            record.actions.len(),
            acks.iter().rev().take(3).collect::<Vec<_>>(),
            p.ends.lock().unwrap()
        );
        let stored: Vec<(String, String)> = (record.actions.iter())
            .map(|e| (e.seat.to_string(), e.action.clone()))
            .collect();
        // Each seat's, in its order (the seats' own may interleave either
        // way when they decide at once).
        for seat in ["P1", "P2"] {
            let mut rest = stored.iter().filter(|(s, _)| s == seat);
            for (_, action, _) in acks.iter().filter(|(s, _, _)| s == seat) {
                assert!(
                    rest.any(|(_, a)| a == action),
                    "{}: {seat}'s acknowledged `{action}` is not stored in order: {stored:?}",
                    p.id
                );
            }
        }
        acknowledged += acks.len();
        let game = umpire_catalog::require_in(umpire_catalog::games(), &record.game).unwrap();
        let replayed = Match::replay(game, &record).expect("the record replays");
        assert_eq!(replayed.record(), &record);
    }
    acknowledged
}

/// In the store, each match's entries were written in epochs that never go
/// back: no entry was written by a node that had lost its match.
async fn check_epochs(db: &tokio_postgres::Client) {
    let rows = db
        .query(
            "SELECT match_id, idx, epoch FROM actions ORDER BY match_id, idx",
            &[],
        )
        .await
        .expect("reads");
    let mut last: HashMap<String, (i32, i64)> = HashMap::new();
    for r in &rows {
        let (id, idx, epoch): (String, i32, i64) = (r.get(0), r.get(1), r.get(2));
        if let Some(&(i, e)) = last.get(&id) {
            assert_eq!(idx, i + 1, "{id}: entries in order, none twice");
            assert!(
                epoch >= e,
                "{id}: entry {idx} in epoch {epoch} after epoch {e}"
            );
        }
        last.insert(id, (idx, epoch));
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_nodes_lose_nothing_and_their_matches_go_on() {
    let Some(on) = setup().await else {
        return;
    };
    let matches = env_number("UMPIRE_CHAOS_MATCHES", 40) as usize;
    let seconds = env_number("UMPIRE_CHAOS_SECONDS", 30);
    let every = env_number("UMPIRE_CHAOS_EVERY", 10);
    let mut nodes: Vec<Node> = (0..3)
        .map(|i| Node::start(&format!("n{i}"), &on.place, &on.nats.url()))
        .collect();
    let addrs = Arc::new(nodes.iter().map(Node::addr).collect::<Vec<_>>());
    // `matches` matches at once, of every game, each followed by another
    // until the time is up.
    let games = umpire_catalog::games();
    let played = Arc::new(Mutex::new(Vec::new()));
    let until = Instant::now() + Duration::from_secs(seconds);
    let slots: Vec<_> = (0..matches)
        .map(|i| {
            let (addrs, played) = (addrs.clone(), played.clone());
            tokio::spawn(keep_playing(games[i % games.len()], addrs, until, played))
        })
        .collect();
    // Kill a node every so often (each in turn), and start it again.
    let mut kills = Vec::new();
    let mut k = 0;
    while Instant::now() + Duration::from_secs(every) <= until {
        tokio::time::sleep(Duration::from_secs(every)).await;
        let node = &mut nodes[k % 3];
        let owned: Vec<String> = on
            .db
            .query(
                "SELECT m.id FROM matches m JOIN nodes n ON n.id = m.owner
                 WHERE n.name = $1 AND n.alive_until > now() AND m.finished = 0",
                &[&node.name],
            )
            .await
            .expect("reads")
            .iter()
            .map(|r| r.get(0))
            .collect();
        let at = Instant::now();
        node.kill();
        kills.push((at, owned));
        tokio::time::sleep(Duration::from_secs(1)).await;
        node.up();
        k += 1;
    }
    for slot in slots {
        slot.await.expect("a slot");
    }
    let played = std::mem::take(&mut *played.lock().unwrap());
    // How long each killed node's match waited for its next action.
    let by_id: HashMap<&str, &Acks> = played.iter().map(|p| (p.id.as_str(), &p.acks)).collect();
    let mut waits = Vec::new();
    for (at, owned) in &kills {
        // A match whose making was never answered (its node died first)
        // has no players to wait for.
        for (id, acks) in owned
            .iter()
            .filter_map(|id| Some((id, by_id.get(id.as_str())?)))
        {
            let acks = acks.lock().unwrap();
            if let Some(next) = acks.iter().map(|a| a.2).find(|t| t > at) {
                waits.push(next - *at);
                if next - *at > Duration::from_secs(5) {
                    let before = acks.iter().rfind(|a| a.2 < *at);
                    eprintln!(
                        "slow: {id} {:?} after the kill; the last before it {:?} {:?} before",
                        next - *at,
                        before.map(|a| (&a.0, &a.1)),
                        before.map(|a| *at - a.2)
                    );
                }
            }
        }
    }
    waits.sort();
    let p99 = waits
        .get((waits.len() * 99).div_ceil(100).saturating_sub(1))
        .copied();
    let deciles: Vec<_> = (1..10).map(|d| waits[waits.len() * d / 10]).collect();
    eprintln!(
        "kill to next accepted action, deciles: {deciles:.1?}, the slowest: {:.1?}",
        &waits[waits.len().saturating_sub(5)..]
    );
    let acknowledged = check_matches(&played, addrs[0]).await;
    check_epochs(&on.db).await;
    eprintln!(
        "{matches} matches at once ({} in all), {} kills, {acknowledged} acknowledged actions, none lost; \
         {} taken-over matches, kill to next accepted action p50 {:?}, p99 {p99:?}",
        played.len(),
        kills.len(),
        waits.len(),
        waits.get(waits.len() / 2)
    );
    assert!(!waits.is_empty(), "matches were taken over");
    // The goal (p99 under 5 s) is measured by the long chaos run on a quiet
    // machine (docs/cluster.md); here, on a busy CI machine, a bound that
    // only a stuck take-over would break.
    assert!(
        p99.is_some_and(|p| p < Duration::from_secs(10)),
        "p99 from a kill to the next accepted action: {p99:?}"
    );
}

/// HAProxy in front of the nodes, with `docs/cluster/haproxy.cfg`.
struct Haproxy {
    child: Child,
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Haproxy {
    fn start(nodes: &[Node]) -> Option<Haproxy> {
        let bin = ["/usr/sbin/haproxy", "/usr/bin/haproxy"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())?;
        let front = free_port();
        let mut cfg = include_str!("../../../docs/cluster/haproxy.cfg")
            .replace("${FRONT}", &front.to_string());
        for (i, node) in nodes.iter().enumerate() {
            cfg = cfg.replace(&format!("${{NODE{i}}}"), &node.port.to_string());
        }
        let dir = tempfile::tempdir().ok()?;
        let file = dir.path().join("haproxy.cfg");
        std::fs::write(&file, cfg).ok()?;
        let child = Command::new(bin)
            .arg("-db")
            .arg("-f")
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let addr = SocketAddr::from(([127, 0, 0, 1], front));
        let started = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "haproxy starts"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Haproxy {
            child,
            addr,
            _dir: dir,
        })
    }
}

/// The longest pause between two acknowledged actions of any match, while
/// it was played.
fn longest_stall(played: &[Played]) -> Duration {
    played
        .iter()
        .flat_map(|p| {
            let acks = p.acks.lock().unwrap();
            let mut times: Vec<Instant> = acks.iter().map(|a| a.2).collect();
            times.sort();
            times.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>()
        })
        .max()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_behind_haproxy_costs_a_reconnect_and_nothing_more() {
    let Some(on) = setup().await else {
        return;
    };
    let mut nodes: Vec<Node> = (0..3)
        .map(|i| Node::start(&format!("n{i}"), &on.place, &on.nats.url()))
        .collect();
    let Some(proxy) = Haproxy::start(&nodes) else {
        eprintln!("not tested: haproxy is not installed (scripts/test installs it)");
        return;
    };
    // Every client goes through the load balancer.
    let addrs = Arc::new(vec![proxy.addr]);
    let games = umpire_catalog::games();
    let played = Arc::new(Mutex::new(Vec::new()));
    let until = Instant::now() + Duration::from_secs(25);
    let slots: Vec<_> = (0..20)
        .map(|i| {
            let (addrs, played) = (addrs.clone(), played.clone());
            tokio::spawn(keep_playing(games[i % games.len()], addrs, until, played))
        })
        .collect();
    // One node after the other: SIGTERM (its matches are handed over),
    // then started again.
    for node in &mut nodes {
        tokio::time::sleep(Duration::from_secs(5)).await;
        node.term();
        node.up();
    }
    for slot in slots {
        slot.await.expect("a slot");
    }
    let played = std::mem::take(&mut *played.lock().unwrap());
    let stall = longest_stall(&played);
    let acknowledged = check_matches(&played, proxy.addr).await;
    check_epochs(&on.db).await;
    eprintln!(
        "{} matches through a rolling restart, {acknowledged} acknowledged actions, none lost; \
         the longest pause in a match {stall:?}",
        played.len()
    );
    assert!(stall < Duration::from_secs(2), "a match stalled {stall:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_the_bus_is_away_each_node_serves_its_own_and_all_recovers() {
    let Some(mut on) = setup().await else {
        return;
    };
    let nodes: Vec<Node> = (0..2)
        .map(|i| Node::start(&format!("n{i}"), &on.place, &on.nats.url()))
        .collect();
    let (a, b) = (nodes[0].addr(), nodes[1].addr());
    let game = umpire_catalog::require_in(umpire_catalog::games(), "masked-army").unwrap();
    // A match on node A whose clients are A's own.
    let here = Arc::new(Mutex::new(Vec::new()));
    let until = Instant::now() + Duration::from_secs(20);
    let own = tokio::spawn(keep_playing(game, Arc::new(vec![a]), until, here.clone()));
    // Another made on A, one of whose players is relayed by B.
    let made = create(a, game).await;
    let id = made["id"].as_str().unwrap().to_string();
    let relayed_token = token_of(&made["links"]["P2"]).unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    on.nats.down();
    let away = Instant::now();
    // Meanwhile the relayed player is told, clearly, to try again.
    let mut told = Vec::new();
    while away.elapsed() < Duration::from_secs(10) {
        match Ws::connect(b, &id, Some(&relayed_token)).await {
            Ok(mut ws) => match ws
                .until_any(&["error", "state"], Duration::from_secs(2))
                .await
            {
                Ok((m, _)) => told.push(m),
                Err(e) => told.push(json!({"silent": e})),
            },
            Err(e) => told.push(json!({"connect": e})),
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let during = here
        .lock()
        .unwrap()
        .iter()
        .map(|p: &Played| p.acks.lock().unwrap().iter().filter(|a| a.2 > away).count())
        .sum::<usize>();
    assert!(
        during > 20,
        "A's own matches went on while the bus was away: {during} actions"
    );
    assert!(
        !told.is_empty()
            && told.iter().all(|m| {
                m["type"] == "error"
                    && m["message"]
                        .as_str()
                        .is_some_and(|w| w.contains("try again"))
            }),
        "the relayed player was told to try again: {told:?}"
    );
    on.nats.up();
    // Back: the relayed player joins through B within seconds.
    let back = Instant::now();
    let state = loop {
        if let Ok(mut ws) = Ws::connect(b, &id, Some(&relayed_token)).await {
            if let Ok((m, _)) = ws
                .until_any(&["state", "error"], Duration::from_secs(2))
                .await
            {
                if m["type"] == "state" {
                    break m;
                }
            }
        }
        assert!(back.elapsed() < Duration::from_secs(15), "never recovered");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    eprintln!(
        "{during} actions of A's own matches while the bus was away; the relayed player was told {} times to try again, and was back {:?} after the bus",
        told.len(),
        back.elapsed()
    );
    assert_eq!(state["view"]["phase"], "first", "{state}");
    own.await.expect("A's own matches");
    let played = std::mem::take(&mut *here.lock().unwrap());
    check_matches(&played, a).await;
}

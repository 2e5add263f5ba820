//! `umpire loadtest`: N concurrent matches of any game between random
//! players over WebSocket, on loopback only, bounded in count and time. It
//! reports accepted actions per second, three latencies from `act` (to
//! `accepted`, to the mover's own new `state`, to the opponent's new
//! `state`; p50, p99, max), the server's CPU time per 1,000 actions and its
//! peak resident memory (VmHWM).
//! A player chooses from the legal actions its `state` lists, or, when there
//! are too many to list, draws one from its view alone
//! ([`umpire_core::AnyGame::sample_action_from_view`]), as a remote client
//! must.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Semaphore;
use umpire_core::AnyGame;

use crate::client::http_json;
use crate::player::{play, setup};
use crate::procfs::{by_thread, cpu_seconds, peak_rss_kib, postgres_seconds, thread_seconds};
use crate::report::{Latency, Report};
use crate::served::Served;
use crate::tally::{Sent, Tally};

/// Matches at most, so a typo cannot start a flood.
pub const MAX_MATCHES: usize = 5_000;

pub struct Options {
    /// Concurrent matches.
    pub matches: usize,
    /// Matches each of the concurrent slots plays, one after another.
    pub repeat: usize,
    pub game: String,
    /// Time limit for the whole run.
    pub seconds: u64,
    /// A running server to target (loopback only); `None` starts one.
    pub addr: Option<String>,
    /// Nodes of one running service (loopback only): each match is made
    /// on one of them and each client connects to one, at random, so that
    /// most clients are relayed to the node that runs their match.
    pub nodes: Vec<String>,
    /// The `umpire` binary to start a server with, when `addr` is `None`.
    pub server_exe: Option<PathBuf>,
    /// The target server's process id, to read its memory.
    pub pid: Option<u32>,
    /// A player's mean thinking time before each action (0.5 to 1.5 times it).
    pub think_ms: u64,
    /// The matches' config (`{}` for the game's default).
    pub config: serde_json::Value,
    /// Matches between two bots kept playing beside the measured ones
    /// (each replaced once over), to see what thinking bots cost people.
    pub bot_matches: usize,
    /// The bot (a name or a level) that plays both seats of those matches.
    pub bot: String,
    /// A PostgreSQL database for the server it starts (a schema of the
    /// run's own in it); `None`: a SQLite file.
    pub store: Option<String>,
}

/// Starts `umpire serve`; `test_games` serves the test games too; `store`
/// is a PostgreSQL database's URL (else a SQLite file in a temporary
/// directory).
fn start_server(exe: &PathBuf, test_games: bool, store: Option<&str>) -> Result<Served, String> {
    let dir = std::env::temp_dir().join(format!("umpire-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let store = match store {
        None => format!("sqlite:{}", dir.join("load.db").display()),
        Some(url) => {
            let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
            match runtime.block_on(umpire_server::scratch_schema(url, &dir)) {
                Ok(umpire_server::Place::Postgres(url)) => url,
                Ok(other) => return Err(format!("not a PostgreSQL store: {other}")),
                Err(e) => return Err(e.to_string()),
            }
        }
    };
    let mut command = Command::new(exe);
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--store", &store])
        .args(test_games.then_some("--test-games"))
        // One address opens every load client: no per-address limits.
        .args(["--creates-per-minute", "0", "--connects-per-minute", "0"])
        .args(["--conns-per-address", "0", "--matches-per-address", "0"])
        .args(["--bot-matches-per-address", "0"])
        .env("RUST_LOG", "warn")
        .stderr(Stdio::inherit());
    Ok(Served::start(command)?.removing(dir))
}

/// The address, if it is on loopback: the load tool never targets anything else.
fn loopback(addr: &str) -> Result<SocketAddr, String> {
    let addrs: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|e| format!("bad address {addr}: {e}"))?
        .collect();
    match addrs.first() {
        Some(first) if addrs.iter().all(|a| a.ip().is_loopback()) => Ok(*first),
        _ => Err(format!(
            "{addr} is not a loopback address: the load tool only targets this machine"
        )),
    }
}

pub fn run(opts: Options) -> Result<Report, String> {
    if opts.matches == 0 || opts.matches > MAX_MATCHES {
        return Err(format!("--matches must be 1..={MAX_MATCHES}"));
    }
    if opts.repeat == 0 {
        return Err("--repeat must be at least 1".into());
    }
    let game = umpire_catalog::require_in(umpire_catalog::with_tests(), &opts.game)?;
    let test_game = umpire_catalog::game(game.id()).is_none();
    let nodes: Vec<SocketAddr> = (opts.nodes.iter())
        .map(|n| loopback(n))
        .collect::<Result<_, _>>()?;
    let (served, addr, pid) = match (&opts.addr, nodes.first()) {
        (_, Some(&first)) => (None, first, opts.pid),
        (Some(addr), None) => (None, loopback(addr)?, opts.pid),
        (None, None) => {
            let exe = opts.server_exe.as_ref().ok_or("no server to start")?;
            let served = start_server(exe, test_game, opts.store.as_deref())?;
            let (addr, pid) = (served.addr, served.child.id());
            (Some(served), addr, Some(pid))
        }
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let nodes = if nodes.is_empty() { vec![addr] } else { nodes };
    let report = runtime.block_on(drive(&opts, game, Arc::new(nodes), pid));
    let peak_rss_kib = pid.and_then(peak_rss_kib);
    drop(served);
    report.map(|r| Report { peak_rss_kib, ..r })
}

async fn drive(
    opts: &Options,
    game: &'static dyn AnyGame,
    nodes: Arc<Vec<SocketAddr>>,
    pid: Option<u32>,
) -> Result<Report, String> {
    let addr = nodes[0];
    let limit = Duration::from_secs(opts.seconds.max(1));
    let started = Instant::now();
    let tally = Arc::new(Tally::default());
    // Set every match up first, so they all play at once.
    let gate = Arc::new(Semaphore::new(64));
    let mut setups = Vec::new();
    for _ in 0..opts.matches {
        let (gate, game, config) = (gate.clone(), opts.game.clone(), opts.config.clone());
        let nodes = nodes.clone();
        setups.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
            setup(&nodes, &game, &config).await
        }));
    }
    let mut pairs = Vec::new();
    for s in setups {
        let remaining = limit.saturating_sub(started.elapsed());
        match tokio::time::timeout(remaining, s).await {
            Ok(Ok(Ok(pair))) => pairs.push(pair),
            Ok(Ok(Err(e))) => return Err(format!("setting up a match: {e}")),
            Ok(Err(e)) => return Err(e.to_string()),
            Err(_) => return Err("the time limit ran out while setting up".into()),
        }
    }
    let bots_finished = Arc::new(AtomicU64::new(0));
    let bot_keeper = (opts.bot_matches > 0).then(|| {
        let (name, config, bot) = (opts.game.clone(), opts.config.clone(), opts.bot.clone());
        let (count, finished) = (opts.bot_matches, bots_finished.clone());
        tokio::spawn(keep_bots_playing(addr, name, config, bot, count, finished))
    });
    let play_start = Instant::now();
    let cpu_start = pid.and_then(cpu_seconds);
    let postgres = opts.store.is_some();
    let store_start = postgres.then(postgres_seconds);
    let threads_start = pid.map(thread_seconds).unwrap_or_default();
    let think = Duration::from_millis(opts.think_ms);
    let mut players = tokio::task::JoinSet::new();
    for pair in pairs {
        let (tally, name, repeat) = (tally.clone(), opts.game.clone(), opts.repeat);
        let (config, nodes) = (opts.config.clone(), nodes.clone());
        players.spawn(async move {
            let mut first = Some(pair);
            for _ in 0..repeat {
                let next = match first.take() {
                    Some(pair) => Some(pair),
                    None => setup(&nodes, &name, &config).await.ok(),
                };
                let Some((p1, p2)) = next else {
                    tally.errors.fetch_add(1, Ordering::Relaxed);
                    return;
                };
                let sent = Arc::new(Sent {
                    epoch: play_start,
                    at: Default::default(),
                });
                let t = || tally.clone();
                tokio::join!(
                    play(p1, game, think, t(), sent.clone()),
                    play(p2, game, think, t(), sent)
                );
            }
        });
    }
    let remaining = limit.saturating_sub(started.elapsed());
    let all = async { while players.join_next().await.is_some() {} };
    if tokio::time::timeout(remaining, all).await.is_err() {
        eprintln!("the time limit ran out; unfinished matches count as failures");
        players.abort_all();
    }
    let seconds = play_start.elapsed().as_secs_f64();
    if let Some(keeper) = bot_keeper {
        keeper.abort();
        if let Ok(Err(e)) = keeper.await {
            return Err(format!("the bot matches: {e}"));
        }
    }
    let cpu = cpu_start.zip(pid.and_then(cpu_seconds)).map(|(a, b)| b - a);
    let store_cpu = store_start.map(|a| postgres_seconds() - a);
    let threads_end = pid.map(thread_seconds).unwrap_or_default();
    let [accepted, own_state, opponent_state] =
        std::mem::take(&mut *tally.latencies.lock().unwrap_or_else(|e| e.into_inner()));
    let [direct, relayed] =
        std::mem::take(&mut *tally.routes.lock().unwrap_or_else(|e| e.into_inner()));
    let routes = |l: [Vec<u32>; 3]| -> Option<[Latency; 3]> {
        (nodes.len() > 1).then(|| l.map(Latency::of))
    };
    let actions = tally.actions.load(Ordering::Relaxed);
    Ok(Report {
        game: opts.game.clone(),
        concurrent: opts.matches,
        matches: opts.matches * opts.repeat,
        // Both seats see the end; count each match once.
        finished: tally.finished.load(Ordering::Relaxed) / 2,
        actions,
        errors: tally.errors.load(Ordering::Relaxed),
        seconds,
        actions_per_second: actions as f64 / seconds.max(1e-9),
        accepted: Latency::of(accepted),
        own_state: Latency::of(own_state),
        opponent_state: Latency::of(opponent_state),
        direct: routes(direct),
        relayed: routes(relayed),
        cpu_seconds_per_1000_actions: cpu
            .filter(|_| actions > 0)
            .map(|c| c * 1000.0 / actions as f64),
        cpu_by_thread: by_thread(&threads_start, &threads_end, actions),
        store_cpu_seconds_per_1000_actions: store_cpu
            .filter(|_| actions > 0)
            .map(|c| c * 1000.0 / actions as f64),
        peak_rss_kib: None,
        bot_matches: opts.bot_matches,
        bot_matches_finished: bots_finished.load(Ordering::Relaxed),
    })
}

/// Keeps `count` matches between two `bot`s playing: each finished one is
/// replaced by a new one (checked every half second).
async fn keep_bots_playing(
    addr: SocketAddr,
    game: String,
    config: Value,
    bot: String,
    count: usize,
    finished: Arc<AtomicU64>,
) -> Result<(), String> {
    let body = json!({"game": game, "config": config, "timed": true,
        "seats": {"P1": {"kind": "bot", "bot": bot}, "P2": {"kind": "bot", "bot": bot}}});
    let create = || async {
        let (status, created) = http_json(addr, "POST", "/api/matches", Some(&body)).await?;
        match created["id"].as_str() {
            Some(id) if status == 201 => Ok(id.to_string()),
            _ => Err(format!("create answered {status}: {created}")),
        }
    };
    let mut ids = Vec::with_capacity(count);
    for _ in 0..count {
        ids.push(create().await?);
    }
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        for id in &mut ids {
            let (_, state) = http_json(addr, "GET", &format!("/api/matches/{id}"), None).await?;
            if !state["outcome"].is_null() {
                finished.fetch_add(1, Ordering::Relaxed);
                *id = create().await?;
            }
        }
    }
}

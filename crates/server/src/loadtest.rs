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

use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{Value, json};
use tokio::sync::Semaphore;
use umpire_core::{AnyGame, MatchRng, Seat, seeded_rng};

use crate::client::{Ws, http_json, token_of};

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

#[derive(serde::Serialize)]
pub struct Report {
    /// Concurrent matches.
    pub concurrent: usize,
    /// Matches in all (`concurrent` times the repeats).
    pub matches: usize,
    pub finished: u64,
    pub actions: u64,
    pub errors: u64,
    pub seconds: f64,
    pub actions_per_second: f64,
    /// `act` to `accepted`.
    pub accepted: Latency,
    /// `act` to the mover's own next `state`.
    pub own_state: Latency,
    /// `act` to the opponent's next `state`.
    pub opponent_state: Latency,
    /// With `nodes`: the same three for the clients connected to the node
    /// that runs their match, and for those relayed to it.
    pub direct: Option<[Latency; 3]>,
    pub relayed: Option<[Latency; 3]>,
    /// The server's CPU time (user + system) per 1,000 accepted actions
    /// while the matches played.
    pub cpu_seconds_per_1000_actions: Option<f64>,
    /// The same, per kind of server thread (`tokio-rt-worker`,
    /// `umpire-store`, …), for the threads alive at both ends of the run.
    pub cpu_by_thread: BTreeMap<String, f64>,
    /// PostgreSQL's own CPU time (every process of this machine named
    /// `postgres`) per 1,000 accepted actions, when the store is PostgreSQL.
    pub store_cpu_seconds_per_1000_actions: Option<f64>,
    pub peak_rss_kib: Option<u64>,
    /// Bot-against-bot matches kept playing at once (`--bot-matches`).
    pub bot_matches: usize,
    /// Of those, how many finished during the run.
    pub bot_matches_finished: u64,
}

/// One latency's distribution, in milliseconds.
#[derive(serde::Serialize, Default, Clone, Copy)]
pub struct Latency {
    pub samples: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Latency {
    /// From round trips in microseconds.
    fn of(mut micros: Vec<u32>) -> Latency {
        micros.sort_unstable();
        let pick = |q: f64| {
            if micros.is_empty() {
                0.0
            } else {
                let i = ((micros.len() as f64 * q).ceil() as usize).clamp(1, micros.len()) - 1;
                micros[i] as f64 / 1000.0
            }
        };
        Latency {
            samples: micros.len(),
            p50_ms: pick(0.50),
            p99_ms: pick(0.99),
            max_ms: pick(1.0),
        }
    }
}

impl fmt::Display for Latency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.p50_ms, self.p99_ms, self.max_ms
        )
    }
}

impl Report {
    /// Every match finished without a single error.
    pub fn ok(&self) -> bool {
        self.errors == 0 && self.finished == self.matches as u64
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "matches:      {} finished of {} ({} at once, {} WebSocket clients)",
            self.finished,
            self.matches,
            self.concurrent,
            self.concurrent * 2
        )?;
        writeln!(
            f,
            "actions:      {} in {:.1} s = {:.0} actions/s",
            self.actions,
            self.seconds,
            self.actions as f64 / self.seconds.max(1e-9)
        )?;
        writeln!(f, "act -> accepted:        {}", self.accepted)?;
        writeln!(f, "act -> own state:       {}", self.own_state)?;
        writeln!(f, "act -> opponent state:  {}", self.opponent_state)?;
        for (route, latencies) in [("direct", &self.direct), ("relayed", &self.relayed)] {
            if let Some([accepted, own, opponent]) = latencies {
                writeln!(
                    f,
                    "  {route} clients: accepted {accepted}; own state {own}; opponent state {opponent}"
                )?;
            }
        }
        writeln!(f, "errors:       {}", self.errors)?;
        if self.bot_matches > 0 {
            writeln!(
                f,
                "bot matches:  {} at once beside them, {} finished",
                self.bot_matches, self.bot_matches_finished
            )?;
        }
        match self.cpu_seconds_per_1000_actions {
            Some(s) => {
                let threads: Vec<String> = (self.cpu_by_thread.iter())
                    .map(|(name, s)| format!("{name} {:.1}", s * 1000.0))
                    .collect();
                writeln!(
                    f,
                    "server CPU:   {:.1} ms per 1,000 actions ({:.1} µs an action; {})",
                    s * 1000.0,
                    s * 1000.0,
                    threads.join(", ")
                )?
            }
            None => writeln!(f, "server CPU:   unknown (give --pid)")?,
        }
        if let Some(s) = self.store_cpu_seconds_per_1000_actions {
            writeln!(
                f,
                "PostgreSQL CPU: {:.1} ms per 1,000 actions ({:.1} µs an action)",
                s * 1000.0,
                s * 1000.0
            )?;
        }
        match self.peak_rss_kib {
            Some(kib) => write!(
                f,
                "server peak resident memory: {:.1} MB (VmHWM)",
                kib as f64 / 1024.0
            ),
            None => write!(f, "server peak resident memory: unknown (give --pid)"),
        }
    }
}

/// A server started for the run; killed when dropped.
struct Spawned {
    child: Child,
    dir: PathBuf,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts `umpire serve`; `test_games` serves the test games too; `store`
/// is a PostgreSQL database's URL (else a SQLite file in a temporary
/// directory).
fn start_server(
    exe: &PathBuf,
    test_games: bool,
    store: Option<&str>,
) -> Result<(Spawned, SocketAddr), String> {
    let dir = std::env::temp_dir().join(format!("umpire-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let store = match store {
        None => format!("sqlite:{}", dir.join("load.db").display()),
        Some(url) => {
            let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
            match runtime.block_on(crate::scratch_schema(url, &dir)) {
                Ok(crate::Place::Postgres(url)) => url,
                Ok(other) => return Err(format!("not a PostgreSQL store: {other}")),
                Err(e) => return Err(e.to_string()),
            }
        }
    };
    let child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--store", &store])
        .args(test_games.then_some("--test-games"))
        // One address opens every load client: no per-address limits.
        .args(["--creates-per-minute", "0", "--connects-per-minute", "0"])
        .args(["--conns-per-address", "0", "--matches-per-address", "0"])
        .args(["--bot-matches-per-address", "0"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let mut spawned = Spawned { child, dir };
    let stdout = spawned.child.stdout.take().ok_or("no server stdout")?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("the server did not say where it listens: `{}`", line.trim()))?;
    Ok((spawned, addr))
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

/// The process's CPU time so far (user + system, its finished threads
/// included), from /proc/PID/stat.
fn cpu_seconds(pid: u32) -> Option<f64> {
    stat_seconds(&format!("/proc/{pid}/stat"))
}

/// User + system seconds from a `stat` file of /proc.
fn stat_seconds(path: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The command name may hold spaces: count fields after its `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on every Linux the kernel ABI still supports.
    Some(ticks as f64 / 100.0)
}

/// Each live thread's name (its number dropped: `umpire-bot-1` is
/// `umpire-bot`) and CPU seconds so far, by thread id.
fn thread_seconds(pid: u32) -> BTreeMap<u64, (String, f64)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return BTreeMap::new();
    };
    tasks
        .flatten()
        .filter_map(|task| {
            let tid: u64 = task.file_name().to_str()?.parse().ok()?;
            let dir = task.path();
            let name = std::fs::read_to_string(dir.join("comm")).ok()?;
            let name = name.trim().trim_end_matches(|c: char| c.is_ascii_digit());
            let seconds = stat_seconds(dir.join("stat").to_str()?)?;
            Some((tid, (name.trim_end_matches('-').to_string(), seconds)))
        })
        .collect()
}

/// CPU seconds per 1,000 actions by kind of thread, between two readings.
fn by_thread(
    start: &BTreeMap<u64, (String, f64)>,
    end: &BTreeMap<u64, (String, f64)>,
    actions: u64,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    if actions == 0 {
        return out;
    }
    for (tid, (name, seconds)) in end {
        if let Some((_, before)) = start.get(tid) {
            *out.entry(name.clone()).or_default() += (seconds - before) * 1000.0 / actions as f64;
        }
    }
    out
}

/// CPU seconds so far of every process named `postgres` (the server and
/// its backends; those that ended meanwhile are not counted).
fn postgres_seconds() -> f64 {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    procs
        .flatten()
        .filter(|p| {
            std::fs::read_to_string(p.path().join("comm")).is_ok_and(|c| c.trim() == "postgres")
        })
        .filter_map(|p| stat_seconds(p.path().join("stat").to_str()?))
        .sum()
}

fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[derive(Default)]
struct Tally {
    finished: AtomicU64,
    actions: AtomicU64,
    errors: AtomicU64,
    /// Microseconds from `act` to `accepted`, to the mover's own state and
    /// to the opponent's state.
    latencies: std::sync::Mutex<[Vec<u32>; 3]>,
    /// The same, of direct clients (0) and relayed ones (1).
    routes: std::sync::Mutex<[[Vec<u32>; 3]; 2]>,
}

const ACCEPTED: usize = 0;
const OWN_STATE: usize = 1;
const OPPONENT_STATE: usize = 2;

/// When each seat of one match last sent `act`, in microseconds since the
/// run's epoch (0: nothing outstanding), so the opponent's client can time
/// its own new state from the mover's act.
struct Sent {
    epoch: Instant,
    at: [AtomicU64; 2],
}

impl Sent {
    fn now(&self) -> u64 {
        (self.epoch.elapsed().as_micros() as u64).max(1)
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
    let (spawned, addr, pid) = match (&opts.addr, nodes.first()) {
        (_, Some(&first)) => (None, first, opts.pid),
        (Some(addr), None) => (None, loopback(addr)?, opts.pid),
        (None, None) => {
            let exe = opts.server_exe.as_ref().ok_or("no server to start")?;
            let (spawned, addr) = start_server(exe, test_game, opts.store.as_deref())?;
            let pid = spawned.child.id();
            (Some(spawned), addr, Some(pid))
        }
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let nodes = if nodes.is_empty() { vec![addr] } else { nodes };
    let report = runtime.block_on(drive(&opts, game, Arc::new(nodes), pid));
    let peak_rss_kib = pid.and_then(peak_rss_kib);
    drop(spawned);
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

/// Creates a match between two people and connects both seats.
/// A new match made on one of `nodes`, and its two players, each connected
/// to one of them (at random when there are several), with whether it is
/// relayed (its node does not run the match).
async fn setup(
    nodes: &[SocketAddr],
    game: &str,
    config: &Value,
) -> Result<((Ws, bool), (Ws, bool)), String> {
    let pick = || nodes[rand::rng().random_range(0..nodes.len())];
    let addr = pick();
    let body = json!({"game": game, "config": config, "timed": true, "takeover": false});
    let (status, created) = http_json(addr, "POST", "/api/matches", Some(&body)).await?;
    if status != 201 {
        return Err(format!("create answered {status}: {created}"));
    }
    let id = created["id"].as_str().ok_or("no id")?;
    let p1 = token_of(&created["links"]["P1"]).ok_or("no P1 token")?;
    let p2 = token_of(&created["links"]["P2"]).ok_or("no P2 token")?;
    let (at1, at2) = (pick(), pick());
    Ok((
        (Ws::connect(at1, id, Some(&p1)).await?, at1 != addr),
        (Ws::connect(at2, id, Some(&p2)).await?, at2 != addr),
    ))
}

/// The parts of a server message a load client reads; the rest is skipped
/// unparsed, so the clients leave the CPU to the server.
#[derive(serde::Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default, borrow)]
    you: Option<&'a str>,
    #[serde(default)]
    outcome: Option<serde::de::IgnoredAny>,
    #[serde(default, borrow)]
    decision: Option<DecisionSeats<'a>>,
    #[serde(default, borrow)]
    legal: Option<Vec<&'a str>>,
}

#[derive(serde::Deserialize)]
struct DecisionSeats<'a> {
    #[serde(borrow)]
    seats: Vec<&'a str>,
}

/// Plays one seat with random legal actions until the match ends.
async fn play(
    (mut ws, relayed): (Ws, bool),
    game: &'static dyn AnyGame,
    think: Duration,
    tally: Arc<Tally>,
    shared: Arc<Sent>,
) {
    let mut rng = seeded_rng(rand::random());
    let mut me = String::new();
    let mut seat = 0;
    let mut sent: Option<Instant> = None;
    // An act whose own new state has not come yet.
    let mut awaiting_state: Option<Instant> = None;
    let mut latencies: [Vec<u32>; 3] = Default::default();
    let micros = |d: Duration| d.as_micros().min(u32::MAX as u128) as u32;
    loop {
        let text = match ws.recv_text(Duration::from_secs(60)).await {
            Ok(Some(t)) => t,
            _ => {
                tally.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
        };
        let Ok(msg) = serde_json::from_str::<Incoming>(&text) else {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            break;
        };
        match msg.kind {
            "hello" => {
                me = msg.you.unwrap_or("").to_string();
                seat = usize::from(me == "P2");
            }
            "accepted" => {
                if let Some(at) = sent.take() {
                    latencies[ACCEPTED].push(micros(at.elapsed()));
                    tally.actions.fetch_add(1, Ordering::Relaxed);
                }
            }
            "error" => {
                tally.errors.fetch_add(1, Ordering::Relaxed);
                sent = None;
                awaiting_state = None;
            }
            "state" => {
                // The server answers an act with `accepted` and then the
                // mover's state before it handles the next act, so the
                // first state after our own act is its answer; any later
                // one answers the opponent's act.
                if let Some(at) = awaiting_state.take() {
                    latencies[OWN_STATE].push(micros(at.elapsed()));
                } else {
                    let theirs = shared.at[1 - seat].swap(0, Ordering::Relaxed);
                    if theirs != 0 {
                        let waited = shared.now().saturating_sub(theirs);
                        latencies[OPPONENT_STATE].push(waited.min(u32::MAX as u64) as u32);
                    }
                }
                if msg.outcome.is_some() {
                    tally.finished.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                let to_act = msg.decision.is_some_and(|d| d.seats.contains(&me.as_str()));
                if sent.is_some() || !to_act {
                    continue;
                }
                let action = choose(game, &me, &msg.legal, &text, &mut rng);
                let act = json!({"type": "act", "action": action}).to_string();
                if !think.is_zero() {
                    // Random thinking, 0.5 to 1.5 times the mean, so the
                    // matches do not move in lockstep.
                    let ms = think.as_millis() as u64;
                    let ms = rng.random_range(ms / 2..=ms + ms / 2);
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                }
                sent = Some(Instant::now());
                awaiting_state = sent;
                shared.at[seat].store(shared.now(), Ordering::Relaxed);
                if ws.send_text(act).await.is_err() {
                    tally.errors.fetch_add(1, Ordering::Relaxed);
                    break;
                }
            }
            _ => {}
        }
    }
    {
        let mut routes = tally.routes.lock().unwrap_or_else(|e| e.into_inner());
        for (route, mine) in routes[usize::from(relayed)].iter_mut().zip(&latencies) {
            route.extend(mine);
        }
        let mut all = tally.latencies.lock().unwrap_or_else(|e| e.into_inner());
        for (all, mine) in all.iter_mut().zip(latencies) {
            all.extend(mine);
        }
    }
    ws.close().await;
}

/// A random legal action for seat `me` in the `state` message `text`: one
/// of those it lists, or, when there are too many to list, one drawn from
/// the seat's view. With nothing to choose from, the seat resigns.
fn choose(
    game: &dyn AnyGame,
    me: &str,
    legal: &Option<Vec<&str>>,
    text: &str,
    rng: &mut MatchRng,
) -> String {
    if let Some(legal) = legal.as_ref().filter(|l| !l.is_empty()) {
        return legal[rng.random_range(0..legal.len())].to_string();
    }
    draw(game, me, text, rng).unwrap_or_else(|| "resign".to_string())
}

/// A random legal action for seat `me` drawn from its view in `text`.
fn draw(game: &dyn AnyGame, me: &str, text: &str, rng: &mut MatchRng) -> Option<String> {
    let seat: Seat = me.parse().ok()?;
    let state: serde_json::Value = serde_json::from_str(text).ok()?;
    game.sample_action_from_view(seat, &state["view"], rng)
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use umpire_core::{Match, MatchOptions, Seat, Viewer};

    use super::*;

    #[test]
    fn a_state_without_a_legal_list_is_played_from_the_view() {
        let game = umpire_catalog::require("masked-army").expect("a game");
        let mut m = Match::new(game, &Value::Null, 3, MatchOptions::default()).expect("a match");
        m.submit(Seat::P1, "first P2", 10).expect("legal");
        let text = json!({"type": "state", "view": m.view(Viewer::Seat(Seat::P2))}).to_string();
        let mut rng = seeded_rng(5);
        for _ in 0..20 {
            let action = choose(game, "P2", &None, &text, &mut rng);
            let mut after = m.clone();
            after.submit(Seat::P2, &action, 20).expect("a legal action");
        }
        // Nothing to draw from: the seat gives up rather than stall.
        assert_eq!(choose(game, "P2", &None, "{}", &mut rng), "resign");
    }
}

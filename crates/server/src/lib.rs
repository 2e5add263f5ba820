//! The umpire game server: `umpire serve`.
//!
//! HTTP + WebSocket on axum; one task per match owns its [`umpire_core::Match`]
//! ([`live`]); every accepted action is synced to SQLite before anyone hears
//! of it ([`store`]); every message is built for its recipient from that
//! recipient's view ([`messages`]). It serves every game of the catalogue
//! (and the test games when asked) and names none. The protocol is `docs/protocol.md`.

mod address;
mod bodies;
pub mod chat;
pub mod client;
mod cluster;
mod head;
mod hosting;
mod hub;
mod limits;
mod listen;
mod live;
pub mod loadtest;
pub mod log;
mod messages;
mod origin;
mod outbox;
mod pool;
mod replay;
mod routes;
mod shown;
mod store;
mod tokens;
mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;

pub use store::{Place, scratch_schema};

/// Server settings. The defaults are the documented ones.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where matches are kept: a SQLite file (the default, `umpire.db`), or
    /// a PostgreSQL database.
    pub store: Place,
    /// Lag allowance: a seat is flagged only this long after its time is
    /// out, so the network never costs a game. Time inside it is not charged.
    pub lag_ms: u64,
    /// How long a person must be away before the opponent may hand the seat
    /// to a bot (when the match allows it).
    pub grace_ms: u64,
    /// A bot's time per move; past it, the seat plays a random legal action.
    /// A bot never thinks past its seat's clock either (less the lag
    /// allowance and a margin).
    pub bot_budget_ms: u64,
    /// Threads bots think on, below the server's priority; however many
    /// bots play, they share these ([`pool`]).
    pub bot_threads: usize,
    /// Threads that judge actions the games call costly (and half as many,
    /// below the server's priority, that judge checks) ([`pool`]).
    pub judge_threads: usize,
    /// In a match between two bots, the pause before each move, so that
    /// spectators can follow it.
    pub bot_pace_ms: u64,
    /// Match milliseconds per real millisecond: 1 in service; tests raise it
    /// to see clocks run out in a blink.
    pub speed: u64,
    /// Spectators one match admits at most. Seat holders and the umpire
    /// are counted apart and always get in.
    pub max_spectators: usize,
    /// Serve the test games too (`umpire_catalog::with_tests`), for tests
    /// of the server and the browser client.
    pub test_games: bool,
    /// Matches one address may create a minute (and at once); 0: no limit.
    pub creates_per_minute: u32,
    /// WebSocket connections one address may open a minute; 0: no limit.
    pub connects_per_minute: u32,
    /// Replays one address may ask for a minute (and at once); 0: no limit.
    pub replays_per_minute: u32,
    /// A reverse proxy in front of the server: requests from it are
    /// counted against the address it names in `X-Forwarded-For`.
    pub trusted_proxy: Option<std::net::IpAddr>,
    /// The bus of a service of several nodes (`nats://HOST:PORT`); they
    /// share the store, which must then be PostgreSQL. `None`: a lone node.
    pub bus: Option<String>,
    /// This node's name in the service (`--node`).
    pub node: String,
    /// Origins (`https://host:port`) besides the server's own whose pages
    /// may create matches and open sockets (a page served elsewhere).
    pub origins: Vec<String>,
    /// Live matches at most; past it creating one is refused (`503`).
    pub max_live: usize,
    /// Live matches one address may have created at once (0: no cap).
    pub matches_per_address: usize,
    /// Of those, matches between two bots at once (0: no cap): they think
    /// on the threads every bot shares.
    pub bot_matches_per_address: usize,
    /// Connections one address keeps open at most, WebSockets included
    /// (0: no cap); lowered to an eighth of what the open-file limit leaves.
    pub conns_per_address: usize,
    /// How long the lobby's sorted lists are served before they are sorted
    /// again, so many lobbies polling cost what one does.
    pub lobby_fresh_ms: u64,
    /// A match in which nobody acted this long after its creation, its
    /// seats not both taken (or, untimed, taken and left untouched), is
    /// called off: nobody loses, it leaves the lobby.
    pub abandon_ms: u64,
    /// An untimed match in which nobody moved this long (while the server
    /// runs) is called off the same way; 0 for never.
    pub untimed_idle_ms: u64,
}

impl Config {
    /// The games this server serves.
    pub fn games(&self) -> &'static [&'static dyn umpire_core::AnyGame] {
        if self.test_games {
            umpire_catalog::with_tests()
        } else {
            umpire_catalog::games()
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            store: Place::Sqlite(PathBuf::from("umpire.db")),
            lag_ms: 1_500,
            grace_ms: 60_000,
            bot_budget_ms: 2_000,
            bot_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            judge_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            bot_pace_ms: 700,
            speed: 1,
            max_spectators: 1_000,
            test_games: false,
            creates_per_minute: 30,
            connects_per_minute: 600,
            replays_per_minute: 30,
            trusted_proxy: None,
            origins: Vec::new(),
            bus: None,
            node: "umpire".into(),
            max_live: 20_000,
            matches_per_address: 100,
            bot_matches_per_address: 4,
            conns_per_address: 256,
            lobby_fresh_ms: 1_000,
            abandon_ms: 30 * 60_000,
            untimed_idle_ms: 24 * 3_600_000,
        }
    }
}

/// What the request handlers share.
pub struct App {
    hub: hub::Hub,
    creates: limits::PerAddress,
    connects: limits::PerAddress,
    replays_allowed: limits::PerAddress,
    replays: replay::Replays,
    bodies: bodies::Budget,
    conns: Arc<listen::Conns>,
    /// The reverse proxy whose `X-Forwarded-For` names the client.
    trusted_proxy: Option<std::net::IpAddr>,
    /// Origins besides the server's own whose pages may change things.
    origins: Vec<String>,
    /// `GET /api/games`'s answer, made once.
    games_json: std::sync::OnceLock<axum::body::Bytes>,
    /// This node's part in a service of several (`--bus`).
    cluster: Option<Arc<cluster::Cluster>>,
}

impl App {
    /// Takes one of `ip`'s allowance of requests of `kind` (`bucket`'s
    /// rate): shared by every node of a service, through the store (this
    /// node's own bucket while the store cannot answer); else this node's.
    async fn allow(&self, bucket: &limits::PerAddress, kind: &str, ip: std::net::IpAddr) -> bool {
        let per_minute = bucket.per_minute();
        if let (Some(leases), true) = (self.hub.store.leases(), per_minute > 0) {
            match leases.allow(&ip.to_string(), kind, per_minute).await {
                Ok(allowed) => return allowed,
                Err(e) => tracing::warn!("the shared limits cannot be read: {e}"),
            }
        }
        bucket.allow(ip)
    }
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
    app: Arc<App>,
}

impl Server {
    /// Stops accepting and drops every connection (for tests).
    pub fn stop(self) {
        self.task.abort();
    }

    /// Stops taking requests; a node of a service first hands its matches
    /// over to the other nodes (SIGTERM).
    pub async fn shut_down(self) {
        self.task.abort();
        if self.app.cluster.is_some() {
            self.app.hub.hand_over().await;
            tracing::info!("the node's matches were handed over");
        }
    }
}

/// Opens the store, resumes every unfinished match and serves on `listener`.
pub async fn start(listener: TcpListener, config: Config) -> Result<Server, String> {
    let addr = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    let config = Arc::new(config);
    // A node of a service: this process, named and told apart from its
    // earlier lives.
    let node_id = config
        .bus
        .as_ref()
        .map(|_| format!("{}-{}", config.node, &tokens::token()[..8]));
    let store = store::Store::open_as(&config.store, node_id.as_deref())
        .await
        .map_err(|e| e.to_string())?;
    let cluster = match (&config.bus, &node_id, store.leases()) {
        (Some(bus), Some(id), Some(leases)) => Some(Arc::new(
            cluster::Cluster::connect(bus, &config.node, id, leases.clone()).await?,
        )),
        _ => None,
    };
    let (creates, connects) = (config.creates_per_minute, config.connects_per_minute);
    let fds = listen::raise_fd_limit();
    let conns = Arc::new(listen::Conns::new(
        config.conns_per_address,
        fds,
        config.trusted_proxy,
    ));
    tracing::info!(
        open_files = fds,
        per_address = conns.per_address(),
        "connection limits"
    );
    let config_replays = config.replays_per_minute;
    let trusted_proxy = config.trusted_proxy;
    let origins = config.origins.clone();
    let hub = hub::Hub::new(store, config);
    // A lone node resumes every unfinished match; a node of a service
    // takes over those whose node is gone, as they lapse.
    if cluster.is_none() {
        let resumed = hub.resume_all().await?;
        if resumed > 0 {
            tracing::info!(resumed, "unfinished matches resumed");
        }
    }
    let app = Arc::new(App {
        creates: limits::PerAddress::new(creates),
        connects: limits::PerAddress::new(connects),
        replays_allowed: limits::PerAddress::new(config_replays),
        replays: replay::Replays::new(),
        bodies: bodies::Budget::default(),
        conns: conns.clone(),
        trusted_proxy,
        origins,
        games_json: Default::default(),
        cluster,
        hub,
    });
    cluster::Cluster::start(&app).await?;
    if let Some(cluster) = &app.cluster {
        tracing::info!(node = %cluster.id, "a node of the service");
    }
    let router = routes::router(app.clone());
    let task = tokio::spawn(listen::serve(listener, router, conns));
    Ok(Server { addr, task, app })
}

/// `umpire serve`: binds `addr`, prints `listening on http://ADDR` once
/// bound, and serves until Ctrl-C or SIGTERM.
pub fn serve(addr: &str, config: Config) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let server = start(listener, config).await?;
        println!("listening on http://{}", server.addr);
        use std::io::Write;
        let _ = std::io::stdout().flush();
        shutdown_signal().await;
        tracing::info!("shutting down");
        server.shut_down().await;
        Ok(())
    })
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {},
                    _ = term.recv() => {},
                }
            }
            Err(_) => {
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

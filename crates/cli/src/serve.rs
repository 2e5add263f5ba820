//! `umpire serve` and `umpire loadtest`: thin wrappers over `umpire_server`.

use std::path::PathBuf;

use clap::Args;
use umpire_core::AnyGame;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on, as HOST:PORT (`127.0.0.1:0` picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Only the port, on 127.0.0.1: a shortcut for `--addr 127.0.0.1:PORT`.
    #[arg(long, conflicts_with = "addr")]
    pub port: Option<u16>,
    /// The SQLite file that keeps every match (created if missing); the
    /// short form of `--store sqlite:PATH`.
    #[arg(long, default_value = "umpire.db", conflicts_with = "store")]
    pub db: PathBuf,
    /// Where matches are kept: `sqlite:PATH`, or a PostgreSQL database
    /// `postgres://USER:PASSWORD@HOST:PORT/DB` (created or migrated at start).
    #[arg(long)]
    pub store: Option<umpire_server::Place>,
    /// Matches one address may create a minute (0: no limit).
    #[arg(long, default_value_t = 30)]
    pub creates_per_minute: u32,
    /// WebSocket connections one address may open a minute (0: no limit).
    #[arg(long, default_value_t = 600)]
    pub connects_per_minute: u32,
    /// Connections one address may keep open at once, WebSockets included
    /// (0: no limit); at most an eighth of what the open-file limit allows.
    #[arg(long, default_value_t = 256)]
    pub conns_per_address: usize,
    /// Live matches this server (node) runs at most; past it a new match
    /// is refused, or made on another node of the service with room.
    #[arg(long, default_value_t = 20_000)]
    pub max_live: usize,
    /// Live matches one address may have created (0: no limit).
    #[arg(long, default_value_t = 100)]
    pub matches_per_address: usize,
    /// Live matches between two bots one address may have created (0: no limit).
    #[arg(long, default_value_t = 4)]
    pub bot_matches_per_address: usize,
    /// A reverse proxy's address: its requests count against the client
    /// it names in X-Forwarded-For.
    #[arg(long)]
    pub trusted_proxy: Option<std::net::IpAddr>,
    /// Runs as one node of a service of several: the NATS bus they share
    /// (nats://HOST:PORT). The store must then be the PostgreSQL they share.
    #[arg(long, requires = "store")]
    pub bus: Option<String>,
    /// This node's name in the service (logs, the nodes table).
    #[arg(long, default_value = "node")]
    pub node: String,
    /// Turns the expert bots off (each thinks 2 s a move on every core): the
    /// strongest level offered is then hard.
    #[arg(long)]
    pub no_expert_bots: bool,
    /// In a match between two bots, the pause before each move in ms, so
    /// that spectators can follow it.
    #[arg(long, default_value_t = umpire_server::BOT_PACE_MS)]
    pub bot_pace_ms: u64,
    /// An origin (like https://play.example.org) besides the server's own
    /// whose pages may create matches and open sockets; repeatable.
    #[arg(long = "origin")]
    pub origins: Vec<String>,
}

/// The address to listen on: `--port`, or `--addr` checked for the
/// HOST:PORT form (a lone port number gets an explanation).
fn address(args: &ServeArgs) -> Result<String, String> {
    if let Some(port) = args.port {
        return Ok(format!("127.0.0.1:{port}"));
    }
    if args.addr.parse::<u16>().is_ok() {
        return Err(format!(
            "`--addr {0}` is a port alone: --addr takes HOST:PORT, like 127.0.0.1:{0} \
             (or 0.0.0.0:{0} for every interface), or use `--port {0}`",
            args.addr
        ));
    }
    Ok(args.addr.clone())
}

/// Serves, the test games too when `test_games`.
pub fn serve(args: ServeArgs, test_games: bool) -> Result<(), String> {
    let addr = address(&args)?;
    let config = umpire_server::Config {
        store: args.store.unwrap_or(umpire_server::Place::Sqlite(args.db)),
        test_games,
        creates_per_minute: args.creates_per_minute,
        connects_per_minute: args.connects_per_minute,
        conns_per_address: args.conns_per_address,
        max_live: args.max_live,
        matches_per_address: args.matches_per_address,
        bot_matches_per_address: args.bot_matches_per_address,
        trusted_proxy: args.trusted_proxy,
        origins: args.origins,
        bus: args.bus,
        node: args.node,
        expert_bots: !args.no_expert_bots,
        bot_pace_ms: args.bot_pace_ms,
        ..Default::default()
    };
    umpire_server::serve(&addr, config)
}

#[derive(Args)]
pub struct LoadArgs {
    /// Concurrent matches (two WebSocket clients each).
    #[arg(long, default_value_t = 100)]
    pub matches: usize,
    /// Matches each slot plays one after another (more samples at few matches).
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
    /// Game id, as `umpire games` lists them [default: the first it lists].
    #[arg(long)]
    pub game: Option<String>,
    /// Time limit for the whole run, in seconds.
    #[arg(long, default_value_t = 120)]
    pub seconds: u64,
    /// Target a running server (loopback only) instead of starting one.
    #[arg(long)]
    pub addr: Option<String>,
    /// Target the nodes of a running service (loopback only), as
    /// HOST:PORT,HOST:PORT,…: each match is made on one at random and each
    /// client connects to one at random (never steered to the node that
    /// runs its match); latencies are given for direct and relayed clients.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["addr", "store"])]
    pub nodes: Vec<String>,
    /// The target server's process id, to report its peak memory.
    #[arg(long)]
    pub pid: Option<u32>,
    /// A player's mean thinking time before each action, in ms (each wait is drawn from 0.5 to 1.5 times it).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// The matches' config as JSON. Random players never guess right: a
    /// game with a `max_rounds` option gets 10 rounds unless this says
    /// otherwise, so that every match ends.
    #[arg(long, default_value = "{}")]
    pub config: String,
    /// Matches between two bots kept playing beside the measured ones
    /// (each finished one is replaced), to measure what thinking bots cost
    /// people's matches.
    #[arg(long, default_value_t = 0)]
    pub bot_matches: usize,
    /// The bot, by name or level, that plays both seats of those matches.
    #[arg(long, default_value = "hard")]
    pub bot: String,
    /// The server it starts keeps matches in this PostgreSQL database
    /// (`postgres://USER:PASSWORD@HOST:PORT/DB`), in a schema of the run's
    /// own, and PostgreSQL's CPU per action is reported too; default: a
    /// temporary SQLite file.
    #[arg(long, conflicts_with = "addr")]
    pub store: Option<String>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs the load test on one of `games`.
pub fn loadtest(args: LoadArgs, games: &[&'static dyn AnyGame]) -> Result<(), String> {
    let game = match &args.game {
        Some(id) => umpire_catalog::require_in(games, id)?,
        None => games[0],
    };
    let config = ending_config(game, &args.config, 10)?;
    let options = umpire_load::loadtest::Options {
        matches: args.matches,
        repeat: args.repeat,
        game: game.id().to_string(),
        seconds: args.seconds,
        addr: args.addr,
        nodes: args.nodes,
        server_exe: Some(std::env::current_exe().map_err(|e| e.to_string())?),
        pid: args.pid,
        think_ms: args.think_ms,
        config,
        bot_matches: args.bot_matches,
        bot: args.bot,
        store: args.store,
    };
    let report = umpire_load::loadtest::run(options)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
    } else {
        println!("{report}");
    }
    if report.ok() {
        Ok(())
    } else {
        Err("the load test had errors or unfinished matches".into())
    }
}

/// `config` (JSON text), with a limit of `rounds` for a game that offers
/// one and was given none, so that matches between bots that never win end.
pub fn ending_config(
    game: &dyn AnyGame,
    config: &str,
    rounds: u32,
) -> Result<serde_json::Value, String> {
    let mut config: serde_json::Value =
        serde_json::from_str(config).map_err(|e| format!("--config is not JSON: {e}"))?;
    let limited = game.options().iter().any(|o| o.key == "max_rounds");
    if let Some(map) = config.as_object_mut().filter(|_| limited) {
        map.entry("max_rounds").or_insert(serde_json::json!(rounds));
    }
    Ok(config)
}

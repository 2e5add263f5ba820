//! Starting the server: the store opened, unfinished matches resumed, this
//! node entered in its service, and the router served until a signal.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::app::App;
use crate::config::Config;
use crate::lobby::Lobby;
use crate::{cluster, hub, limits, listen, replay, routes, store, tokens};

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
    let lobby = Lobby::new(config.lobby_fresh_ms);
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
        lobby,
        creates: limits::PerAddress::new(creates),
        connects: limits::PerAddress::new(connects),
        replays_allowed: limits::PerAddress::new(config_replays),
        replays: replay::Replays::new(),
        bodies: limits::Budget::default(),
        conns: conns.clone(),
        trusted_proxy,
        origins,
        games_json: Default::default(),
        cluster,
        hub,
    });
    cluster::owner::start(&app).await?;
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

//! Several nodes, one service (`umpire serve --store postgres://… --bus
//! nats://…`). The nodes share the PostgreSQL store and a NATS bus. Each
//! live match is run by one node, recorded in the store with an epoch that
//! every write of the match carries ([`crate::store::Leases`]): a node that
//! takes a match over moves the epoch on, so the node that had it can never
//! write to it again. A node renews its lease every half second; when it
//! lapses (the node died) the others take its matches over from the store,
//! and on SIGTERM a node hands its matches over at once.
//!
//! Any node serves any client: a request or a WebSocket for a match another
//! node runs is relayed to that node over the bus ([`relay`]), which builds
//! every message from its recipient's own view as always, and sends a
//! relayed connection's messages on a subject of that connection alone
//! ([`owner`]). The lobby lists every node's live matches ([`Cluster::lobby`]).

pub mod owner;
pub mod relay;
pub mod wire;

use std::sync::Arc;
use std::time::Duration;

use async_nats::client::RequestErrorKind;
use axum::body::Bytes;
use serde_json::Value;

use crate::App;
use crate::store::Leases;
use wire::{Answer, Ask};

/// How often a node renews its lease, and looks for matches to take over.
pub const RENEW: Duration = Duration::from_millis(500);
/// How long a node waits for another's answer.
const ASK_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the lobby waits for the other nodes' lists.
const LOBBY_WAIT: Duration = Duration::from_millis(300);

/// This node's part in the service.
pub struct Cluster {
    /// The name given (`--node`).
    pub name: String,
    /// This process: the name and a random incarnation.
    pub id: String,
    pub nats: async_nats::Client,
    pub leases: Arc<Leases>,
    /// The relayed connections this node serves as a match's node.
    pub relayed: owner::Relayed,
    /// The nodes this node relays its clients to.
    pub watches: relay::Watches,
}

/// Why a node could not be asked, in the API's terms.
pub fn unreachable(e: &async_nats::RequestError) -> Answer {
    match e.kind() {
        RequestErrorKind::NoResponders => Answer::error(
            503,
            "the node running this match is gone; it moves to another node in a moment: try again",
        ),
        _ => Answer::error(
            503,
            "the node running this match cannot be reached now; try again",
        ),
    }
}

impl Cluster {
    /// Connects to the bus at `url` as node `name` (`id` is this
    /// process's).
    pub async fn connect(
        url: &str,
        name: &str,
        id: &str,
        leases: Arc<Leases>,
    ) -> Result<Cluster, String> {
        let nats = async_nats::ConnectOptions::new()
            .name(id)
            .request_timeout(Some(ASK_TIMEOUT))
            .connection_timeout(Duration::from_secs(5))
            .max_reconnects(None)
            .connect(url)
            .await
            .map_err(|e| format!("cannot reach the bus at {url}: {e}"))?;
        Ok(Cluster {
            name: name.to_string(),
            id: id.to_string(),
            nats,
            leases,
            relayed: Default::default(),
            watches: Default::default(),
        })
    }

    /// Starts this node's loops: its lease, taking over the matches of
    /// nodes that are gone, and answering the other nodes.
    pub async fn start(app: &Arc<App>) -> Result<(), String> {
        let Some(cluster) = app.cluster.as_ref() else {
            return Ok(());
        };
        owner::serve(app.clone(), cluster).await?;
        // Entered among the nodes before serving anyone.
        cluster
            .leases
            .renew(&cluster.name, 0, app.hub.max_live())
            .await
            .map_err(|e| e.to_string())?;
        let app = app.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(RENEW);
            loop {
                tick.tick().await;
                let Some(cluster) = app.cluster.as_ref() else {
                    return;
                };
                let live = app.hub.live_count();
                let renewed = cluster
                    .leases
                    .renew(&cluster.name, live, app.hub.max_live())
                    .await;
                if let Err(e) = renewed {
                    tracing::warn!("the node's lease was not renewed: {e}");
                    continue;
                }
                match app.hub.let_go_of_lost().await {
                    Ok(0) => {}
                    Ok(n) => tracing::warn!(matches = n, "matches taken over by other nodes"),
                    Err(e) => tracing::warn!("this node's matches were not checked: {e}"),
                }
                match app.hub.adopt_orphans().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(matches = n, "matches taken over"),
                    Err(e) => tracing::warn!("matches were not taken over: {e}"),
                }
                cluster.relayed.sweep().await;
            }
        });
        Ok(())
    }

    /// Whether node `node` is gone: nothing listens for its asks (it died;
    /// a node merely slow, or a bus away, is not gone).
    pub async fn gone(&self, node: &str) -> bool {
        // With the bus away nobody can tell; an ask would only wait it out.
        if self.nats.connection_state() != async_nats::connection::State::Connected {
            return false;
        }
        let Ok(payload) = serde_json::to_vec(&Ask::Keep { conns: Vec::new() }) else {
            return false;
        };
        match self.nats.request(wire::asks(node), payload.into()).await {
            Ok(_) => false,
            Err(e) => e.kind() == RequestErrorKind::NoResponders,
        }
    }

    /// Asks node `node` (it runs the match the ask is about).
    pub async fn ask(&self, node: &str, ask: &Ask) -> Answer {
        let payload = match serde_json::to_vec(ask) {
            Ok(p) => Bytes::from(p),
            Err(e) => return Answer::error(500, &e.to_string()),
        };
        match self.nats.request(wire::asks(node), payload).await {
            Ok(reply) => serde_json::from_slice(&reply.payload)
                .unwrap_or_else(|e| Answer::error(502, &format!("a node answered wrongly: {e}"))),
            Err(e) => unreachable(&e),
        }
    }

    /// Every node's open and live matches: this node's and each other's
    /// that answers within a moment (a node that cannot be reached is
    /// left out until it can).
    pub async fn lobby(&self, ours: (Vec<Value>, Vec<Value>)) -> (Vec<Value>, Vec<Value>) {
        let (mut open, mut live) = ours;
        let others = self
            .leases
            .nodes()
            .await
            .map_or(0, |n| n.len().saturating_sub(1));
        if others == 0 {
            return (open, live);
        }
        let inbox = self.nats.new_inbox();
        let Ok(mut replies) = self.nats.subscribe(inbox.clone()).await else {
            return (open, live);
        };
        let asked = self
            .nats
            .publish_with_reply(wire::LOBBY, inbox, Bytes::from(self.id.clone()))
            .await;
        if asked.is_err() {
            return (open, live);
        }
        let deadline = tokio::time::sleep(LOBBY_WAIT);
        tokio::pin!(deadline);
        let mut heard = 0;
        use futures_util::StreamExt;
        while heard < others {
            tokio::select! {
                reply = replies.next() => {
                    let Some(reply) = reply else { break };
                    if let Ok((o, l)) = serde_json::from_slice::<(Vec<Value>, Vec<Value>)>(&reply.payload) {
                        open.extend(o);
                        live.extend(l);
                        heard += 1;
                    }
                }
                _ = &mut deadline => break,
            }
        }
        (open, live)
    }
}

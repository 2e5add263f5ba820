//! This node's part in a service of several: its connection to the bus,
//! its lease, asking another node, every node's lobby, and what it keeps of
//! the connections relayed to it and by it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_nats::client::RequestErrorKind;
use axum::body::Bytes;
use serde_json::Value;
use tokio::sync::watch;

use super::wire::{self, Answer, Ask};
use crate::admitted::Admitted;
use crate::store::Leases;

/// How often a node renews its lease, and looks for matches to take over.
pub const RENEW: Duration = Duration::from_millis(500);
/// How long a node waits for another's answer.
const ASK_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a node waits for another's answer to "are you there?".
const PROBE: Duration = Duration::from_millis(300);
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
    pub relayed: Relayed,
    /// The nodes this node relays its clients to.
    pub watches: Watches,
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

    /// Whether node `node` seems gone: nothing listens for its asks (it
    /// died), or it did not answer within [`PROBE`] (an ask that reached it
    /// as it died is never answered, and would wait out the whole ask
    /// timeout). A bus away is not a node gone. Callers ask again shortly:
    /// a node merely slow answers the next time.
    pub async fn gone(&self, node: &str) -> bool {
        // With the bus away nobody can tell; an ask would only wait it out.
        if self.nats.connection_state() != async_nats::connection::State::Connected {
            return false;
        }
        let Ok(payload) = serde_json::to_vec(&Ask::Keep { conns: Vec::new() }) else {
            return false;
        };
        let asked = self.nats.request(wire::asks(node), payload.into());
        match tokio::time::timeout(PROBE, asked).await {
            Ok(Ok(_)) => false,
            Ok(Err(e)) => e.kind() == RequestErrorKind::NoResponders,
            Err(_) => true,
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

/// A relayed connection whose node has not said it holds it for this long
/// is dropped (that node is gone).
const KEEP: Duration = Duration::from_secs(15);

/// The relayed clients of the matches this node runs.
#[derive(Default)]
pub struct Relayed(pub tokio::sync::Mutex<HashMap<u64, (Arc<Admitted>, Instant)>>);

impl Relayed {
    /// Drops the connections no node holds any more.
    pub async fn sweep(&self) {
        let gone: Vec<Arc<Admitted>> = {
            let mut map = self.0.lock().await;
            let stale: Vec<u64> = (map.iter())
                .filter(|(_, (_, kept))| kept.elapsed() > KEEP)
                .map(|(&conn, _)| conn)
                .collect();
            stale
                .iter()
                .filter_map(|c| map.remove(c))
                .map(|(a, _)| a)
                .collect()
        };
        for client in gone {
            client.leave().await;
        }
    }
}

/// How often this node asks the nodes it relays to whether they still
/// hold its clients.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// The nodes this node relays clients to: for each, its connections, each
/// with a flag raised once the node no longer holds it (it died, or it
/// restarted under the same name and knows the connection no more).
#[derive(Default)]
pub struct Watches(Mutex<HashMap<String, HashMap<u64, watch::Sender<bool>>>>);

impl Watches {
    /// Watches `node` for connection `conn`; the receiver turns true once
    /// the node no longer holds it.
    pub fn add(&self, cluster: &Arc<Cluster>, node: &str, conn: u64) -> watch::Receiver<bool> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (gone, seen) = watch::channel(false);
        if let Some(conns) = map.get_mut(node) {
            conns.insert(conn, gone);
            return seen;
        }
        map.insert(node.to_string(), HashMap::from([(conn, gone)]));
        tokio::spawn(watch_node(cluster.clone(), node.to_string()));
        seen
    }

    pub fn remove(&self, node: &str, conn: u64) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(conns) = map.get_mut(node) {
            conns.remove(&conn);
        }
    }

    /// Raises the flag of each of `node`'s connections that `held` (what
    /// the node answered; `None`: it could not be reached) leaves out.
    fn lost(&self, node: &str, asked: &[u64], held: Option<&[u64]>) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(conns) = map.get_mut(node) else {
            return;
        };
        for conn in asked {
            if held.is_some_and(|h| h.contains(conn)) {
                continue;
            }
            if let Some(gone) = conns.remove(conn) {
                let _ = gone.send(true);
            }
        }
    }
}

/// Asks `node` twice a second whether it still holds this node's clients;
/// tells those it does not hold (all of them once it cannot be reached).
/// Ends when none is left.
async fn watch_node(cluster: Arc<Cluster>, node: String) {
    let mut tick = tokio::time::interval(WATCH_EVERY);
    loop {
        tick.tick().await;
        let conns: Vec<u64> = {
            let mut map = cluster.watches.0.lock().unwrap_or_else(|e| e.into_inner());
            match map.get(&node) {
                Some(conns) if conns.is_empty() => {
                    map.remove(&node);
                    return;
                }
                Some(conns) => conns.keys().copied().collect(),
                None => return,
            }
        };
        let keep = Ask::Keep {
            conns: conns.clone(),
        };
        // No answer soon: ask again next time rather than wait out the
        // whole ask timeout (an ask that reached the node as it died is
        // never answered; the next one finds nobody listening at once).
        let Ok(answer) = tokio::time::timeout(WATCH_EVERY * 2, cluster.ask(&node, &keep)).await
        else {
            continue;
        };
        let held: Option<Vec<u64>> = (answer.status == 200)
            .then(|| serde_json::from_value(answer.body["held"].clone()).ok())
            .flatten();
        cluster.watches.lost(&node, &conns, held.as_deref());
    }
}

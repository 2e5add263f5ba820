//! A client of a match another node runs: this node holds its socket and
//! relays it. The client joins on the match's node (which checks its token
//! and makes every message from its own view, as for a client of its own);
//! its messages go there in order, and its frames come back on a subject
//! of this connection alone. A watch on each node relayed to notices when
//! that node is gone, and its clients are then told to reconnect: the
//! match moves to another node.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket};
use futures_util::StreamExt;
use tokio::sync::watch;

use super::Cluster;
use super::wire::{self, Ask, Send};
use crate::App;
use crate::messages;
use crate::ws::{Bucket, IDLE_CHECK, IDLE_LIMIT, MAX_MESSAGE, PING_EVERY};

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
    fn add(&self, cluster: &Arc<Cluster>, node: &str, conn: u64) -> watch::Receiver<bool> {
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

    fn remove(&self, node: &str, conn: u64) {
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
        let answer = cluster
            .ask(
                &node,
                &Ask::Keep {
                    conns: conns.clone(),
                },
            )
            .await;
        let held: Option<Vec<u64>> = (answer.status == 200)
            .then(|| serde_json::from_value(answer.body["held"].clone()).ok())
            .flatten();
        cluster.watches.lost(&node, &conns, held.as_deref());
    }
}

/// Relays a client of match `id`, which node `node` runs.
pub async fn connection(
    mut socket: WebSocket,
    app: Arc<App>,
    node: String,
    id: String,
    token: Option<String>,
) {
    let Some(cluster) = app.cluster.clone() else {
        return;
    };
    if cluster.nats.connection_state() != async_nats::connection::State::Connected {
        let text = messages::error(
            "server",
            "the node running this match cannot be reached now (the nodes' bus is away); try again",
        );
        return refuse(socket, text).await;
    }
    let subject = format!("umpire.conn.{}.{}", cluster.id, crate::ws::next_conn());
    let frames = cluster.nats.subscribe(subject.clone()).await;
    let Ok(mut frames) = frames else {
        let text = messages::error("server", "the nodes cannot reach each other now; try again");
        return refuse(socket, text).await;
    };
    let joined = cluster
        .ask(
            &node,
            &Ask::Join {
                id,
                token,
                reply: subject,
            },
        )
        .await;
    let Some(conn) = joined.body["conn"]
        .as_u64()
        .filter(|_| joined.status == 200)
    else {
        let rule = joined.body["rule"].as_str().unwrap_or("server");
        let words = joined.body["error"]
            .as_str()
            .unwrap_or("the match cannot be joined now");
        return refuse(socket, messages::error(rule, words)).await;
    };
    let mut gone = cluster.watches.add(&cluster, &node, conn);
    let mut bucket = Bucket::new();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let mut idle_check = tokio::time::interval_at((Instant::now() + IDLE_CHECK).into(), IDLE_CHECK);
    let mut heard = Instant::now();
    let sends = wire::sends(&node);
    loop {
        tokio::select! {
            biased;
            frame = frames.next() => {
                let Some(frame) = frame else { break };
                let closing = frame.headers.as_ref().is_some_and(|h| h.get(wire::CLOSE).is_some());
                if closing {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
                let Ok(text) = String::from_utf8(frame.payload.to_vec()) else { continue };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            message = socket.next() => {
                heard = Instant::now();
                let text = match message {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        let text = messages::error("protocol", "messages are JSON text");
                        let _ = socket.send(Message::Text(text.into())).await;
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                bucket.take().await;
                if text.len() > MAX_MESSAGE {
                    let text = messages::error("protocol", "message too large (16 KiB at most)");
                    let _ = socket.send(Message::Text(text.into())).await;
                    continue;
                }
                let send = Send::Text { conn, text: text.to_string() };
                let body = serde_json::to_vec(&send).unwrap_or_default();
                let _ = cluster.nats.publish(sends.clone(), Bytes::from(body)).await;
            }
            _ = gone.changed() => {
                let text = messages::error(
                    "server",
                    "the node running this match is gone; it moves to another node: reconnecting",
                );
                let _ = socket.send(Message::Text(text.into())).await;
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            _ = ping.tick() => {
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            _ = idle_check.tick() => {
                if heard.elapsed() >= IDLE_LIMIT {
                    break;
                }
            }
        }
    }
    cluster.watches.remove(&node, conn);
    let leave = serde_json::to_vec(&Send::Leave { conn }).unwrap_or_default();
    let _ = cluster.nats.publish(sends, Bytes::from(leave)).await;
}

/// Tells the client why it is not let in, and closes.
async fn refuse(mut socket: WebSocket, text: String) {
    let _ = socket.send(Message::Text(text.into())).await;
    let _ = socket.send(Message::Close(None)).await;
}

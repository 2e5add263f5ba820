//! The node that runs a match answers the other nodes: their asks (a
//! snapshot, a record, a claim, a client joining, a match to create) and
//! the messages of the clients they relay. A relayed client is a watcher
//! of the match like any other; its messages go to a subject of its own.
//! And this node's loops: its lease, and taking over the matches of nodes
//! that are gone.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use async_nats::HeaderMap;
use axum::body::Bytes;
use futures_util::StreamExt;
use serde_json::json;
use tokio::sync::mpsc;

use super::node::{Cluster, RENEW};
use super::wire::{self, Answer, Ask, Send};
use crate::app::App;
use crate::lobby::Lobby;
use crate::outbox::{Deliver, OUT_QUEUE, Outgoing};
use crate::ws;

/// Starts this node's loops: its lease, taking over the matches of
/// nodes that are gone, and answering the other nodes.
pub async fn start(app: &Arc<App>) -> Result<(), String> {
    let Some(cluster) = app.cluster.as_ref() else {
        return Ok(());
    };
    serve(app.clone(), cluster).await?;
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

/// Listens to the other nodes: asks, relayed clients' messages, the lobby.
pub async fn serve(app: Arc<App>, cluster: &Cluster) -> Result<(), String> {
    let nats = &cluster.nats;
    let failed = |e: async_nats::SubscribeError| format!("cannot listen on the bus: {e}");
    let mut asks = nats
        .subscribe(wire::asks(&cluster.id))
        .await
        .map_err(failed)?;
    let mut sends = nats
        .subscribe(wire::sends(&cluster.id))
        .await
        .map_err(failed)?;
    let mut lobby = nats.subscribe(wire::LOBBY).await.map_err(failed)?;
    let app_asks = app.clone();
    tokio::spawn(async move {
        while let Some(msg) = asks.next().await {
            let app = app_asks.clone();
            tokio::spawn(async move {
                let answer = match serde_json::from_slice::<Ask>(&msg.payload) {
                    Ok(ask) => answer(&app, ask).await,
                    Err(e) => Answer::error(400, &format!("not an ask: {e}")),
                };
                reply(&app, msg.reply, &answer).await;
            });
        }
    });
    let app_sends = app.clone();
    tokio::spawn(async move {
        // In order: one client's messages are taken as it sent them.
        while let Some(msg) = sends.next().await {
            if let Ok(send) = serde_json::from_slice::<Send>(&msg.payload) {
                take(&app_sends, send).await;
            }
        }
    });
    tokio::spawn(async move {
        while let Some(msg) = lobby.next().await {
            let Some(cluster) = app.cluster.as_ref() else {
                return;
            };
            // Not this node's own question.
            if msg.payload.as_ref() == cluster.id.as_bytes() {
                continue;
            }
            let lists = Lobby::own_lists(&app.hub).await;
            if let (Some(to), Ok(body)) = (msg.reply, serde_json::to_vec(&*lists)) {
                let _ = cluster.nats.publish(to, Bytes::from(body)).await;
            }
        }
    });
    Ok(())
}

async fn reply(app: &App, to: Option<async_nats::Subject>, answer: &Answer) {
    let (Some(cluster), Some(to)) = (app.cluster.as_ref(), to) else {
        return;
    };
    if let Ok(body) = serde_json::to_vec(answer) {
        let _ = cluster.nats.publish(to, Bytes::from(body)).await;
    }
}

/// The answer to another node's ask, about a match this node runs.
async fn answer(app: &App, ask: Ask) -> Answer {
    match ask {
        Ask::Join { id, token, reply } => join(app, &id, token.as_deref(), reply).await,
        Ask::Keep { conns } => {
            let Some(cluster) = app.cluster.as_ref() else {
                return Answer::error(500, "not a node of a service");
            };
            let mut map = cluster.relayed.0.lock().await;
            let now = Instant::now();
            let held: Vec<u64> = (conns.into_iter())
                .filter(|c| map.get_mut(c).map(|(_, kept)| *kept = now).is_some())
                .collect();
            Answer::ok(json!({ "held": held }))
        }
        Ask::Create { body, from } => match from.parse::<IpAddr>() {
            Ok(from) => crate::routes::create_here(app, body.as_bytes(), from).await,
            Err(_) => Answer::error(400, "a bad address"),
        },
        ask => crate::routes::answer_here(app, ask).await,
    }
}

/// A client of another node joins match `id`; its frames go to `reply`.
async fn join(app: &App, id: &str, token: Option<&str>, reply: String) -> Answer {
    let refused = |status: u16, rule: &str, words: &str| Answer {
        status,
        body: json!({ "error": words, "rule": rule }),
    };
    let (Some(cluster), handle) = (app.cluster.as_ref(), ws::find(app, id).await) else {
        return Answer::error(500, "not a node of a service");
    };
    let handle = match handle {
        Ok(crate::hub::Found::Here(handle)) => handle,
        Ok(crate::hub::Found::There(_)) => {
            return refused(503, "server", "the match moved to another node; reconnect");
        }
        Err((rule, words)) => return refused(404, rule, &words),
    };
    let outbox: Arc<dyn Deliver> = Arc::new(Frames::new(cluster.nats.clone(), reply));
    match ws::admit(app, handle, token, outbox).await {
        Ok(client) => {
            let conn = client.conn;
            (cluster.relayed.0.lock().await).insert(conn, (Arc::new(client), Instant::now()));
            Answer::ok(json!({ "conn": conn }))
        }
        Err((rule, words)) => refused(403, rule, &words),
    }
}

/// A relayed client's message, or its leaving.
async fn take(app: &Arc<App>, send: Send) {
    let Some(cluster) = app.cluster.as_ref() else {
        return;
    };
    match send {
        Send::Text { conn, text } => {
            let client = cluster
                .relayed
                .0
                .lock()
                .await
                .get(&conn)
                .map(|c| c.0.clone());
            if let Some(client) = client {
                // Timed when it reached the node that runs the match.
                ws::take(app, &client, &text, Instant::now()).await;
            }
        }
        Send::Leave { conn } => {
            let client = cluster.relayed.0.lock().await.remove(&conn);
            if let Some((client, _)) = client {
                client.leave().await;
            }
        }
    }
}

/// A relayed client's outgoing frames: published in order on its own
/// subject by a task of its own; a client too far behind is dropped.
struct Frames {
    queue: mpsc::Sender<Option<Outgoing>>,
    closed: AtomicBool,
}

impl Frames {
    fn new(nats: async_nats::Client, subject: String) -> Frames {
        let (queue, mut frames) = mpsc::channel::<Option<Outgoing>>(OUT_QUEUE);
        tokio::spawn(async move {
            while let Some(frame) = frames.recv().await {
                let texts = match frame {
                    Some(Outgoing::One(a)) => vec![a],
                    Some(Outgoing::Two(a, b)) => vec![a, b],
                    None => {
                        let mut end = HeaderMap::new();
                        end.insert(wire::CLOSE, "1");
                        let _ = nats
                            .publish_with_headers(subject.clone(), end, Bytes::new())
                            .await;
                        return;
                    }
                };
                for text in texts {
                    let bytes = Bytes::copy_from_slice(text.as_str().as_bytes());
                    if nats.publish(subject.clone(), bytes).await.is_err() {
                        return;
                    }
                }
            }
        });
        Frames {
            queue,
            closed: AtomicBool::new(false),
        }
    }
}

impl Deliver for Frames {
    fn send(&self, out: Outgoing) -> bool {
        if self.closed.load(Ordering::SeqCst) {
            return false;
        }
        if self.queue.try_send(Some(out)).is_err() {
            self.close();
            return false;
        }
        true
    }

    fn close(&self) {
        if self.closed.swap(true, Ordering::SeqCst) {
            return;
        }
        let queue = self.queue.clone();
        // After what is queued: the other node then closes its socket.
        tokio::spawn(async move {
            let _ = queue.send(None).await;
        });
    }
}

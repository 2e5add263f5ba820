//! One WebSocket client: reads its messages (checked for size, rate and
//! shape), passes them to the match's task, and writes what the task sends.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};
use umpire_core::Viewer;

use crate::App;
use crate::live::{Cmd, OUT_QUEUE};
use crate::messages::{self, ClientMsg};
use crate::routes::TokenQuery;

/// Messages longer than this get an error; the connection stays open.
pub const MAX_MESSAGE: usize = 16 * 1024;
/// Frames longer than this close the connection: they are not read at all.
pub const MAX_FRAME: usize = 64 * 1024;
/// Messages per second a client may send (and the burst it may save up).
pub const RATE: f64 = 20.0;
/// A socket that accepts nothing for this long is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
    State(app): State<Arc<App>>,
) -> Response {
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // Small buffers: thousands of idle sockets must stay cheap.
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .on_upgrade(move |socket| connection(socket, app, id, q.t))
}

async fn refuse(mut socket: WebSocket, rule: &str, message: &str) {
    let _ = socket
        .send(Message::Text(messages::error(rule, message).into()))
        .await;
    let _ = socket.send(Message::Close(None)).await;
}

async fn connection(socket: WebSocket, app: Arc<App>, id: String, token: Option<String>) {
    let handle = match app.hub.get(&id).await {
        Ok(Some(h)) => h,
        Ok(None) => return refuse(socket, "not-found", "no match with this id").await,
        Err(e) => return refuse(socket, "server", &e.1).await,
    };
    let Some(viewer) = handle.info.viewer(token.as_deref()) else {
        return refuse(socket, "auth", "this token does not belong to this match").await;
    };
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(OUT_QUEUE);
    let (reply, admitted) = oneshot::channel();
    let join = Cmd::Join {
        viewer,
        conn,
        tx: tx.clone(),
        reply,
    };
    if handle.tx.send(join).await.is_err() {
        return refuse(socket, "server", "the match is not available; try again").await;
    }
    if admitted.await != Ok(true) {
        return refuse(socket, "full", "too many clients on this match").await;
    }
    let (mut sink, mut stream) = socket.split();
    let mut writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text))).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
        let _ = sink.send(Message::Close(None)).await;
    });
    let mut bucket = Bucket::new();
    let reply = |text: String| {
        // A full queue means the client is not reading: dropping is fine.
        let _ = tx.try_send(text.into());
    };
    let mut writer_done = false;
    loop {
        let message = tokio::select! {
            _ = &mut writer => {
                writer_done = true;
                break;
            }
            m = stream.next() => m,
        };
        let text = match message {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                reply(messages::error("protocol", "messages are JSON text"));
                continue;
            }
            Some(Ok(_)) => continue, // pings are answered by the library
        };
        if !bucket.take() {
            reply(messages::error("rate", "too many messages; slow down"));
            continue;
        }
        if text.len() > MAX_MESSAGE {
            reply(messages::error(
                "protocol",
                "message too large (16 KiB at most)",
            ));
            continue;
        }
        let msg: ClientMsg = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                let why = format!("not a protocol message: {e}");
                reply(messages::error("protocol", &why));
                continue;
            }
        };
        let cmd = match (msg, viewer) {
            (ClientMsg::Ping, _) => {
                reply(messages::pong());
                continue;
            }
            (ClientMsg::Act { action }, Viewer::Seat(seat)) => Cmd::Act {
                conn,
                seat,
                text: action,
            },
            (ClientMsg::Resign, Viewer::Seat(seat)) => Cmd::Act {
                conn,
                seat,
                text: umpire_core::RESIGN.into(),
            },
            (ClientMsg::Takeover, Viewer::Seat(seat)) => Cmd::Takeover { conn, seat },
            _ => {
                reply(messages::error(
                    "forbidden",
                    "only a seat's token can act for it",
                ));
                continue;
            }
        };
        if handle.tx.send(cmd).await.is_err() {
            break;
        }
    }
    let _ = handle.tx.send(Cmd::Leave { conn }).await;
    drop(tx);
    // Let the writer flush what is queued, but not for ever.
    if !writer_done
        && tokio::time::timeout(Duration::from_secs(1), &mut writer)
            .await
            .is_err()
    {
        writer.abort();
    }
}

/// A token bucket: `RATE` messages a second, bursts up to `RATE`.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            tokens: RATE,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * RATE;
        self.tokens = (self.tokens + refill).min(RATE);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

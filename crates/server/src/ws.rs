//! One WebSocket client: reads its messages (checked for size, rate and
//! shape), passes them to the match's task, and writes what the task sends.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Extension;
use axum::Json;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use futures_util::stream::{SplitSink, SplitStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use umpire_core::{By, Seat, Viewer};

use crate::address::Client;
use crate::admitted::Admitted;
use crate::app::App;
use crate::hub::Found;
use crate::listen::Held;
use crate::live::{Cmd, Handle};
use crate::messages::{self, ClientMsg};
use crate::outbox::{Deliver, Outbox, Outgoing, Stop};
use crate::request::TokenQuery;
use crate::socket::{Bucket, IDLE_CHECK, IDLE_LIMIT, MAX_MESSAGE, PING_EVERY, next_conn};

/// Frames longer than this close the connection: they are not read at all.
pub const MAX_FRAME: usize = 64 * 1024;
/// Frames are buffered up to this many bytes before a write, so the two
/// messages of an [`Outgoing::Two`] leave in one.
const WRITE_BUFFER: usize = 8 * 1024;
/// A socket that accepts nothing for this long is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
    State(app): State<Arc<App>>,
    Client(from): Client,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Extension(held): Extension<Held>,
) -> Response {
    if !app.allow(&app.connects, "connect", from).await {
        let why = "too many connections from your address; try again in a minute";
        return refused(StatusCode::TOO_MANY_REQUESTS, why);
    }
    // Behind the trusted proxy, each client has its own cap too.
    let proxied = if app.conns.is_proxy(peer.ip()) {
        match app.conns.behind_proxy(from) {
            Some(slot) => Some(slot),
            None => {
                let why = "too many connections from your address";
                return refused(StatusCode::TOO_MANY_REQUESTS, why);
            }
        }
    } else {
        None
    };
    let stranger = q.t.as_deref().is_none_or(str::is_empty);
    if stranger && !app.conns.room_for_anyone() {
        let why = "the server is full; spectators may try again later";
        return refused(StatusCode::SERVICE_UNAVAILABLE, why);
    }
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // Small buffers: thousands of idle sockets must stay cheap.
        .read_buffer_size(4 * 1024)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(1024 * 1024)
        .on_upgrade(move |socket| async move {
            // The connection keeps its places while the socket is open.
            let _places = (held, proxied);
            connection(socket, app, id, q.t).await
        })
}

fn refused(status: StatusCode, why: &str) -> Response {
    (status, Json(serde_json::json!({ "error": why }))).into_response()
}

/// A client's frames go out through its outbox (see [`crate::outbox`]).
type Out = Outbox<SplitSink<WebSocket, Message>>;

/// Tells the client why it is not let in, and closes.
async fn refuse(outbox: &Out, rule: &str, message: &str) {
    outbox.send(Outgoing::from(messages::error(rule, message)));
    outbox.close();
    if tokio::time::timeout(Duration::from_secs(1), drain(outbox)).await == Ok(Some(Stop::Closed)) {
        close_socket(outbox).await;
    }
}

async fn connection(socket: WebSocket, app: Arc<App>, id: String, token: Option<String>) {
    let found = find_running(&app, &id).await;
    if let Ok(Found::There(node)) = found {
        // Another node runs the match: this one relays the client to it.
        return crate::cluster::relay::connection(socket, app, node, id, token).await;
    }
    let (sink, mut stream) = socket.split();
    let outbox = Arc::new(Outbox::new(sink));
    let handle = match found {
        Ok(Found::Here(handle)) => handle,
        Ok(Found::There(_)) => return,
        Err((rule, message)) => return refuse(&outbox, rule, &message).await,
    };
    let deliver: Arc<dyn Deliver> = outbox.clone();
    let client = match admit(&app, handle, token.as_deref(), deliver).await {
        Ok(admitted) => admitted,
        Err((rule, message)) => return refuse(&outbox, rule, &message).await,
    };
    let mut writer = tokio::spawn(write_loop(outbox.clone()));
    let writer_done = read_loop(&app, &mut stream, &client, &mut writer).await;
    let _ = client
        .handle
        .tx
        .send(Cmd::Leave { conn: client.conn })
        .await;
    drop(client);
    outbox.close();
    // Let the writer flush what is queued, but not for ever.
    if !writer_done
        && tokio::time::timeout(Duration::from_secs(1), &mut writer)
            .await
            .is_err()
    {
        writer.abort();
    }
}

/// Where match `id` is run, or the refusal to send (its rule and message).
pub async fn find(app: &App, id: &str) -> Result<Found, (&'static str, String)> {
    match app.hub.get(id).await {
        Ok(Some(found)) => Ok(found),
        Ok(None) => Err(("not-found", "no match with this id".into())),
        Err(e) if e.0 == 410 => Err(("gone", e.1)),
        Err(e) => Err(("server", e.1)),
    }
}

/// Who runs match `id`, as [`find`] says; but a node that is gone (it
/// died, and its lease has not lapsed yet) is waited out, so that its
/// clients are served by the node that takes the match over rather than
/// sent away to try again, all at once, until it has.
async fn find_running(app: &App, id: &str) -> Result<Found, (&'static str, String)> {
    let until = Instant::now() + crate::store::LEASE_TIME + Duration::from_secs(1);
    loop {
        let found = find(app, id).await;
        let (Ok(Found::There(node)), Some(cluster)) = (&found, app.cluster.as_ref()) else {
            return found;
        };
        if Instant::now() >= until || !cluster.gone(node).await {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Checks the token and joins the match's watchers, who send to `outbox`;
/// or the refusal to send (its rule and message).
pub async fn admit(
    app: &App,
    mut handle: Handle,
    token: Option<&str>,
    outbox: Arc<dyn Deliver>,
) -> Result<Admitted, (&'static str, String)> {
    // A task found just as it let the match go ends without answering: the
    // match is looked up afresh, a few times at most.
    for _ in 0..3 {
        let Some(viewer) = handle.info.viewer(token) else {
            return Err(("auth", "this token does not belong to this match".into()));
        };
        if let Some(why) = handle.closed_to(viewer) {
            return Err(("private", why.into()));
        }
        let conn = next_conn();
        let (reply, admitted) = oneshot::channel();
        let join = Cmd::Join {
            viewer,
            conn,
            tx: outbox.clone(),
            reply,
        };
        // None: the task ended before it answered.
        let answer = match handle.tx.send(join).await {
            Ok(()) => admitted.await.ok(),
            Err(_) => None,
        };
        match answer {
            Some(true) => {
                return Ok(Admitted {
                    handle,
                    viewer,
                    conn,
                    outbox,
                });
            }
            Some(false) => return Err(("full", "too many clients on this match".into())),
            None => match find(app, &handle.info.id).await? {
                Found::Here(found) => handle = found,
                Found::There(_) => {
                    let why = "the match moved to another node: reconnecting";
                    return Err(("moved", why.into()));
                }
            },
        }
    }
    Err(("server", "the match is not available; try again".into()))
}

/// Sends what waits in the client's outbox (most frames go out at once,
/// without this task) and pings the client, until the outbox closes (the
/// match let the client go, or the client left), the socket fails or it
/// accepts nothing for too long; then closes the socket.
async fn write_loop(outbox: Arc<Out>) {
    // WebSocket pings: any client library answers them, so a live but quiet
    // client is heard from (see IDLE_LIMIT).
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let stop = loop {
        tokio::select! {
            biased;
            _ = outbox.woken() => {}
            _ = ping.tick() => outbox.queue(Message::Ping(Default::default())),
        }
        if let Some(stop) = drain(&outbox).await {
            break stop;
        }
    };
    // Senders learn that nothing more goes out.
    outbox.close();
    if stop == Stop::Closed {
        close_socket(&outbox).await;
    }
}

/// Sends the closing frame, waiting a second at most.
async fn close_socket(outbox: &Out) {
    let close = std::future::poll_fn(|cx| outbox.poll_close(cx));
    let _ = tokio::time::timeout(Duration::from_secs(1), close).await;
}

/// Sends what waits in `outbox`, polling again whenever a sender wakes the
/// writer; `Some` once the writer is to stop.
async fn drain(outbox: &Out) -> Option<Stop> {
    let deadline = tokio::time::sleep(SEND_TIMEOUT);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            biased;
            stop = std::future::poll_fn(|cx| outbox.poll_drain(cx)) => return stop,
            // A sender met the socket not ready: poll again with our waker.
            _ = outbox.woken() => continue,
            _ = &mut deadline => return Some(Stop::Failed),
        }
    }
}

/// Reads the client's messages and passes them on, until the client
/// leaves, the writer gives up or the match's task ends (it stopped on a
/// store failure). Returns whether the writer is done.
async fn read_loop(
    app: &App,
    stream: &mut SplitStream<WebSocket>,
    client: &Admitted,
    writer: &mut JoinHandle<()>,
) -> bool {
    let mut bucket = Bucket::new();
    // Silence is checked now and then, not timed by a timer per message.
    let mut idle_check = tokio::time::interval_at((Instant::now() + IDLE_CHECK).into(), IDLE_CHECK);
    let mut heard = Instant::now();
    loop {
        let message = tokio::select! {
            // A message first: the usual wake-up needs no other poll.
            biased;
            m = stream.next() => m,
            _ = &mut *writer => return true,
            _ = client.handle.tx.closed() => return false,
            _ = idle_check.tick() => {
                // Not even a pong: the client is gone.
                if heard.elapsed() >= IDLE_LIMIT {
                    return false;
                }
                continue;
            }
        };
        heard = Instant::now();
        bucket.take().await;
        let text = match message {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return false,
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                client.reply(messages::error("protocol", "messages are JSON text"));
                continue;
            }
            Some(Ok(_)) => continue, // pings are answered by the library
        };
        if !take(app, client, &text, heard).await {
            return false;
        }
    }
}

/// Does what a client's message (received `at`) asks; false once the
/// match's task is gone.
pub async fn take(app: &App, client: &Admitted, text: &str, at: Instant) -> bool {
    match command(text, client, at) {
        Ok(Ask::Match(cmd)) => client.handle.tx.send(cmd).await.is_ok(),
        Ok(Ask::Rematch(seat)) => rematch(app, client, seat).await,
        Err(answer) => {
            client.reply(answer);
            true
        }
    }
}

/// What a client's message asks.
enum Ask {
    /// Something of the match's task alone.
    Match(Cmd),
    /// A rematch, which the hub creates once both seats agreed.
    Rematch(umpire_core::Seat),
}

/// `seat` asks for a rematch; when that makes both seats agree, creates it
/// and reports back to the match. False if the match's task is gone.
async fn rematch(app: &App, client: &Admitted, seat: umpire_core::Seat) -> bool {
    let (reply, order) = oneshot::channel();
    let ask = Cmd::Rematch {
        conn: client.conn,
        seat,
        reply,
    };
    if client.handle.tx.send(ask).await.is_err() {
        return false;
    }
    let Ok(Some(order)) = order.await else {
        return true;
    };
    let result = app.hub.rematch(order.req, order.tokens).await;
    let done = Cmd::Rematched {
        result: result.map_err(|refusal| refusal.1),
    };
    client.handle.tx.send(done).await.is_ok()
}

/// What a client's message asks, or the answer to give the client directly
/// (a pong, or an error).
fn command(text: &str, client: &Admitted, at: Instant) -> Result<Ask, String> {
    if text.len() > MAX_MESSAGE {
        return Err(messages::error(
            "protocol",
            "message too large (16 KiB at most)",
        ));
    }
    let msg: ClientMsg = serde_json::from_str(text)
        .map_err(|e| messages::error("protocol", &format!("not a protocol message: {e}")))?;
    let conn = client.conn;
    let act = |seat, text, by| Cmd::Act {
        conn,
        seat,
        text,
        at,
        by,
    };
    // A seat acts for itself; the umpire's link, for a seat it names (the
    // host's, in a host's match: the match refuses it otherwise).
    let acting = |named: Option<Seat>| match (client.viewer, named) {
        (Viewer::Seat(me), None) => Ok((me, None)),
        (Viewer::Seat(me), Some(seat)) if seat == me => Ok((me, None)),
        (Viewer::Umpire, Some(seat)) => Ok((seat, Some(By::Host))),
        _ => Err(messages::error(
            "forbidden",
            "only a seat's token can act for it (or a host's, naming the seat)",
        )),
    };
    let cmd = match (msg, client.viewer) {
        (ClientMsg::Ping, _) => return Err(messages::pong()),
        (ClientMsg::Rematch, Viewer::Seat(seat)) => return Ok(Ask::Rematch(seat)),
        (ClientMsg::Act { action, seat }, _) => {
            acting(seat).map(|(seat, by)| act(seat, action, by))
        }
        (ClientMsg::Check { action, id, seat }, _) => acting(seat).map(|(seat, _)| Cmd::Check {
            conn,
            seat,
            text: action,
            id,
        }),
        (ClientMsg::Resign { seat }, _) => {
            acting(seat).map(|(seat, by)| act(seat, umpire_core::RESIGN.into(), by))
        }
        (ClientMsg::Rule { seat, ruling }, Viewer::Umpire) => {
            Ok(act(seat, ruling, Some(By::Umpire)))
        }
        (ClientMsg::Ask { action }, Viewer::Seat(seat)) => Ok(Cmd::Ask {
            conn,
            seat,
            text: action,
        }),
        (ClientMsg::Takeover, Viewer::Seat(seat)) => Ok(Cmd::Takeover { conn, seat }),
        (ClientMsg::Chat { text }, viewer) => Ok(Cmd::Chat { conn, viewer, text }),
        _ => Err(messages::error(
            "forbidden",
            "only a seat's token can act for it",
        )),
    };
    cmd.map(Ask::Match)
}

//! Request bodies, read whole before a handler sees them: within a size
//! limit (judged from `Content-Length` before a byte is read), a time
//! limit, and a budget of bytes one address may have on the way at once,
//! so that stalled uploads cannot pile up in the server's memory.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use http_body_util::BodyExt;

use crate::address::Client;
use crate::app::App;
use crate::reply::error;

/// A body must arrive within this.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Most bodies (a new match, a claim) are small.
pub const MAX_SMALL: usize = 64 * 1024;
/// A body of at most [`MAX_SMALL`] bytes.
pub async fn small(
    State(app): State<Arc<App>>,
    client: Client,
    req: Request,
    next: Next,
) -> Response {
    read(&app, client, req, next, MAX_SMALL).await
}

/// A record to replay.
pub async fn record(
    State(app): State<Arc<App>>,
    client: Client,
    req: Request,
    next: Next,
) -> Response {
    read(&app, client, req, next, crate::replay::MAX_BODY).await
}

async fn read(app: &App, Client(ip): Client, req: Request, next: Next, limit: usize) -> Response {
    let too_large = || {
        error(
            413,
            &format!("the body is too large ({} KiB at most)", limit / 1024),
        )
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return too_large();
    }
    // What may come: what was declared, else the limit.
    let Some(_taken) = app.bodies.take(ip, declared.unwrap_or(limit)) else {
        return error(
            429,
            "too many requests with bodies from your address at once; try again",
        );
    };
    let (parts, body) = req.into_parts();
    let limited = http_body_util::Limited::new(body, limit);
    let bytes = match tokio::time::timeout(BODY_TIMEOUT, limited.collect()).await {
        Err(_) => return error(408, "the request's body took too long to arrive"),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return too_large(),
        Ok(Err(_)) => return error(400, "the request's body could not be read"),
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

//! Request bodies, read whole before a handler sees them: within a size
//! limit (judged from `Content-Length` before a byte is read), a time
//! limit, and a budget of bytes one address may have on the way at once,
//! so that stalled uploads cannot pile up in the server's memory.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use http_body_util::BodyExt;

use crate::App;
use crate::address::Client;
use crate::routes::error;

/// A body must arrive within this.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Most bodies (a new match, a claim) are small.
pub const MAX_SMALL: usize = 64 * 1024;
/// Bytes of bodies one address may have on the way at once.
pub const PER_ADDRESS: usize = 4 * 1024 * 1024;

/// The bytes each address has on the way.
#[derive(Default)]
pub struct Budget(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// Bytes taken from an address's budget, given back on drop.
struct Taken(Arc<Mutex<HashMap<IpAddr, usize>>>, IpAddr, usize);

impl Drop for Taken {
    fn drop(&mut self) {
        let mut used = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = used.get_mut(&self.1) {
            *n = n.saturating_sub(self.2);
            if *n == 0 {
                used.remove(&self.1);
            }
        }
    }
}

impl Budget {
    fn take(&self, ip: IpAddr, bytes: usize) -> Option<Taken> {
        let mut used = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = used.entry(ip).or_insert(0);
        if *n + bytes > PER_ADDRESS {
            return None;
        }
        *n += bytes;
        Some(Taken(self.0.clone(), ip, bytes))
    }
}

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

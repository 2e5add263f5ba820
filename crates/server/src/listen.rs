//! Accepting connections: `TCP_NODELAY`, a cap on the connections one
//! address keeps open, and a time limit on a request's head, so silent or
//! slow sockets cannot use up the server's file descriptors.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::task::JoinSet;

/// A request's head must arrive within this.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Open connections per address.
type Open = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// One address's place among the open connections, given back on drop.
struct Held(Open, IpAddr);

impl Held {
    fn take(open: &Open, ip: IpAddr, cap: usize) -> Option<Held> {
        let mut map = open.lock().unwrap_or_else(|e| e.into_inner());
        let n = map.entry(ip).or_insert(0);
        if cap > 0 && *n >= cap {
            return None;
        }
        *n += 1;
        Some(Held(open.clone(), ip))
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = map.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.1);
            }
        }
    }
}

/// Serves `router` on `listener` until the task is dropped, which drops
/// every connection too. `per_address` caps the connections one address
/// keeps open (0: no cap); one more is closed at once.
pub async fn serve(listener: TcpListener, router: Router, per_address: usize) {
    let open: Open = Arc::default();
    let mut conns = JoinSet::new();
    loop {
        let (stream, from) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, most likely: wait for some to close.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        while conns.try_join_next().is_some() {}
        let Some(held) = Held::take(&open, from.ip(), per_address) else {
            tracing::debug!(%from, "too many connections from one address");
            continue;
        };
        // Small frames go out at once: without nodelay the mover's `state`,
        // sent right after `accepted`, waits ~40 ms for the client's delayed ACK.
        if let Err(e) = stream.set_nodelay(true) {
            tracing::warn!("cannot set TCP_NODELAY: {e}");
        }
        let service = TowerToHyperService::new(
            router
                .clone()
                .layer(axum::Extension(ConnectInfo::<SocketAddr>(from))),
        );
        conns.spawn(async move {
            let _held = held;
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            if let Err(e) = connection.await {
                tracing::debug!(%from, "connection ended: {e}");
            }
        });
    }
}

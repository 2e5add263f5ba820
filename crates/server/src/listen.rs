//! Accepting connections: `TCP_NODELAY`, a cap on the connections one
//! address keeps open (WebSockets included: a connection keeps its place
//! after it upgrades), a ceiling on all connections below the file
//! descriptors the process may open, with room kept above it for seat
//! holders and the umpire, and a time limit on a request's head, so that
//! silent, slow or many sockets cannot lock anyone out.

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

use crate::head;

/// A request's head must arrive within this.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Descriptors kept for the store, the log and the threads.
const SPARE_FDS: usize = 128;

/// The open connections: in all, and of each address.
pub struct Conns {
    /// Per address at most (0: no cap).
    per_address: usize,
    /// In all at most (0: no ceiling).
    ceiling: usize,
    /// Below the ceiling, kept for seat holders and the umpire: a
    /// spectator's WebSocket is refused once fewer than this are left.
    reserve: usize,
    /// The trusted proxy, whose connections are counted for the address
    /// each request names, not its own.
    proxy: Option<IpAddr>,
    open: Mutex<(HashMap<IpAddr, usize>, usize)>,
}

/// A place among the open connections, given back on drop: in all (from
/// the accept), of one address, or both.
pub struct Slot {
    conns: Arc<Conns>,
    address: Option<IpAddr>,
    counted: bool,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.conns.lock();
        if self.counted {
            open.1 -= 1;
        }
        if let Some(ip) = self.address {
            if let Some(n) = open.0.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    open.0.remove(&ip);
                }
            }
        }
    }
}

impl Conns {
    /// `per_address` 0: no cap. The ceiling comes from the descriptors the
    /// process may open (`fds`); the cap per address is at most an eighth
    /// of what is left below the reserve, so that a few addresses cannot
    /// fill the server.
    pub fn new(per_address: usize, fds: Option<usize>, proxy: Option<IpAddr>) -> Conns {
        let ceiling = fds.map_or(0, |fds| fds.saturating_sub(SPARE_FDS).max(64));
        let reserve = ceiling / 8;
        let share = (ceiling - reserve) / 8;
        let per_address = match (per_address, ceiling) {
            (0, _) | (_, 0) => per_address,
            (cap, _) => cap.min(share.max(1)),
        };
        Conns {
            per_address,
            ceiling,
            reserve,
            proxy,
            open: Mutex::new((HashMap::new(), 0)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (HashMap<IpAddr, usize>, usize)> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The cap per address in force.
    pub fn per_address(&self) -> usize {
        self.per_address
    }

    /// A place for a connection accepted from `peer`, or `None` past the
    /// ceiling or its address's cap.
    fn accept(self: &Arc<Self>, peer: IpAddr) -> Option<Slot> {
        let mut open = self.lock();
        if self.ceiling > 0 && open.1 >= self.ceiling {
            return None;
        }
        let address = (Some(peer) != self.proxy).then_some(peer);
        if let Some(ip) = address {
            let n = open.0.entry(ip).or_insert(0);
            if self.per_address > 0 && *n >= self.per_address {
                return None;
            }
            *n += 1;
        }
        open.1 += 1;
        Some(Slot {
            conns: self.clone(),
            address,
            counted: true,
        })
    }

    /// A place of `client`'s, behind the trusted proxy, for a connection
    /// that outlives its request (a WebSocket); `None` past its cap.
    pub fn behind_proxy(self: &Arc<Self>, client: IpAddr) -> Option<Slot> {
        let mut open = self.lock();
        let n = open.0.entry(client).or_insert(0);
        if self.per_address > 0 && *n >= self.per_address {
            return None;
        }
        *n += 1;
        Some(Slot {
            conns: self.clone(),
            address: Some(client),
            counted: false,
        })
    }

    /// Whether the trusted proxy is `peer`.
    pub fn is_proxy(&self, peer: IpAddr) -> bool {
        self.proxy == Some(peer)
    }

    /// Whether a connection without a seat's token may stay: the last
    /// places below the ceiling are kept for seat holders and the umpire.
    pub fn room_for_anyone(&self) -> bool {
        self.ceiling == 0 || self.lock().1 <= self.ceiling - self.reserve
    }
}

/// The connection's place, shared by its requests: a WebSocket keeps it
/// (the place is given back when the last holder is dropped).
#[derive(Clone)]
pub struct Held {
    _place: Arc<Slot>,
}

/// Raises the soft limit on open files to the hard one (where the system
/// allows); returns the limit in force, if known.
pub fn raise_fd_limit() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write `limit`.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
            return None;
        }
        let before = limit.rlim_cur;
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            // SAFETY: as above.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
                limit.rlim_cur = limit.rlim_max;
            }
        }
        if limit.rlim_cur != before {
            tracing::info!(
                from = before,
                to = limit.rlim_cur,
                "raised the limit on open files"
            );
        }
        usize::try_from(limit.rlim_cur).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Serves `router` on `listener` until the task is dropped, which drops
/// every connection too. A connection past `conns`' limits is closed at
/// once.
pub async fn serve(listener: TcpListener, router: Router, conns: Arc<Conns>) {
    let mut tasks = JoinSet::new();
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
        while tasks.try_join_next().is_some() {}
        let Some(slot) = conns.accept(from.ip()) else {
            tracing::debug!(%from, "too many connections (from one address, or in all)");
            continue;
        };
        // Small frames go out at once: without nodelay the mover's `state`,
        // sent right after `accepted`, waits ~40 ms for the client's delayed ACK.
        if let Err(e) = stream.set_nodelay(true) {
            tracing::warn!("cannot set TCP_NODELAY: {e}");
        }
        let held = Held {
            _place: Arc::new(slot),
        };
        let service = TowerToHyperService::new(
            router
                .clone()
                .layer(axum::Extension(ConnectInfo::<SocketAddr>(from)))
                .layer(axum::Extension(held.clone())),
        );
        tasks.spawn(async move {
            let _held = held;
            let mut stream = stream;
            let read = match tokio::time::timeout(HEADER_TIMEOUT, head::first(&mut stream)).await {
                Ok(Ok(read)) => read,
                Ok(Err(head::Refused::Answer(status, words))) => {
                    return head::refuse(&mut stream, status, words).await;
                }
                Ok(Err(head::Refused::Gone)) | Err(_) => return,
            };
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(head::MAX_HEAD.max(8192))
                .serve_connection(TokioIo::new(head::Prefixed::new(read, stream)), service)
                .with_upgrades();
            if let Err(e) = connection.await {
                tracing::debug!(%from, "connection ended: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_has_its_cap_and_strangers_leave_room_for_seat_holders() {
        // 1,024 descriptors: 896 connections, 112 of them kept back.
        let conns = Arc::new(Conns::new(256, Some(1024), None));
        assert_eq!(conns.per_address(), 98);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let held: Vec<Slot> = (0..98).map_while(|_| conns.accept(a)).collect();
        assert_eq!(held.len(), 98);
        assert!(conns.accept(a).is_none(), "past the cap");
        let others: Vec<Slot> = (2..=8u8)
            .flat_map(|i| {
                let ip = IpAddr::from([192, 0, 2, i]);
                (0..98).map_while(|_| conns.accept(ip)).collect::<Vec<_>>()
            })
            .collect();
        // Eight addresses reach the line kept for seat holders, no further.
        assert_eq!(held.len() + others.len(), 784);
        assert!(conns.room_for_anyone());
        let more = conns.accept(IpAddr::from([192, 0, 2, 9])).unwrap();
        assert!(!conns.room_for_anyone());
        drop(more);
        drop(held);
        assert!(conns.accept(a).is_some(), "places come back");
    }

    #[test]
    fn behind_the_proxy_each_client_has_its_own_cap() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let conns = Arc::new(Conns::new(2, None, Some(proxy)));
        let from_proxy: Vec<Slot> = (0..10).map_while(|_| conns.accept(proxy)).collect();
        assert_eq!(from_proxy.len(), 10, "the proxy itself has no cap");
        let client: IpAddr = "192.0.2.1".parse().unwrap();
        let a = conns.behind_proxy(client).unwrap();
        let _b = conns.behind_proxy(client).unwrap();
        assert!(conns.behind_proxy(client).is_none());
        drop(a);
        assert!(conns.behind_proxy(client).is_some());
    }
}

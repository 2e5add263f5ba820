//! What the request handlers share: the hub, the lobby, the limits they
//! keep, and this node's part in a service of several.

use std::sync::Arc;

use crate::cluster::Cluster;
use crate::hub::Hub;
use crate::limits::{Budget, PerAddress};
use crate::listen::Conns;
use crate::lobby::Lobby;
use crate::replay::Replays;

/// What the request handlers share.
pub struct App {
    pub hub: Hub,
    /// The lobby's lists, sorted and kept for a moment.
    pub lobby: Lobby,
    pub creates: PerAddress,
    pub connects: PerAddress,
    pub replays_allowed: PerAddress,
    pub replays: Replays,
    pub bodies: Budget,
    pub conns: Arc<Conns>,
    /// The reverse proxy whose `X-Forwarded-For` names the client.
    pub trusted_proxy: Option<std::net::IpAddr>,
    /// Origins besides the server's own whose pages may change things.
    pub origins: Vec<String>,
    /// `GET /api/games`'s answer, made once.
    pub games_json: std::sync::OnceLock<axum::body::Bytes>,
    /// This node's part in a service of several (`--bus`).
    pub cluster: Option<Arc<Cluster>>,
}

impl App {
    /// Takes one of `ip`'s allowance of requests of `kind` (`bucket`'s
    /// rate): shared by every node of a service, through the store (this
    /// node's own bucket while the store cannot answer); else this node's.
    pub async fn allow(&self, bucket: &PerAddress, kind: &str, ip: std::net::IpAddr) -> bool {
        let per_minute = bucket.per_minute();
        if let (Some(leases), true) = (self.hub.store.leases(), per_minute > 0) {
            match leases.allow(&ip.to_string(), kind, per_minute).await {
                Ok(allowed) => return allowed,
                Err(e) => tracing::warn!("the shared limits cannot be read: {e}"),
            }
        }
        bucket.allow(ip)
    }
}

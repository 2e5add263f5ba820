//! Who a request comes from, for the per-address limits: the connection's
//! peer, or, when that peer is the trusted reverse proxy
//! (`Config::trusted_proxy`), the address the proxy says it forwarded for
//! (the last entry of `X-Forwarded-For`, the one the proxy added). Without
//! it, everyone behind a proxy would share the proxy's limits.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::app::App;

/// The client's address, as the limits count it.
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

/// The client behind `peer`: `peer` itself unless it is `proxy`.
pub fn client(peer: IpAddr, headers: &HeaderMap, proxy: Option<IpAddr>) -> IpAddr {
    if Some(peer) != proxy {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back()
        .and_then(|a| a.trim().parse().ok())
        .unwrap_or(peer)
}

impl FromRequestParts<Arc<App>> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<App>,
    ) -> Result<Client, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
        Ok(Client(client(peer, &parts.headers, app.trusted_proxy)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_trusted_proxy_may_name_the_client() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.append("x-forwarded-for", "1.1.1.1, 2.2.2.2".parse().unwrap());
        headers.append("x-forwarded-for", "3.3.3.3".parse().unwrap());
        // The proxy's own entry is the last: what a client wrote before it
        // (1.1.1.1, 2.2.2.2) is not believed.
        assert_eq!(
            client(proxy, &headers, Some(proxy)),
            "3.3.3.3".parse::<IpAddr>().unwrap()
        );
        let stranger: IpAddr = "192.0.2.9".parse().unwrap();
        assert_eq!(client(stranger, &headers, Some(proxy)), stranger);
        assert_eq!(client(stranger, &headers, None), stranger);
        assert_eq!(client(proxy, &HeaderMap::new(), Some(proxy)), proxy);
    }
}

//! Requests that change something, and WebSocket upgrades, are taken only
//! from the server's own pages (or the origins `Config::origins` lists):
//! any other web page could otherwise make its visitors' browsers create
//! matches or open sockets here. Browsers name the page's origin in the
//! `Origin` header of such requests; clients that are not browsers send
//! none and are let through.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::app::App;
use crate::reply::error;

pub async fn same_origin(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let upgrade = req.headers().contains_key(header::UPGRADE);
    if changes || upgrade {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let host = req
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok());
            let origin = origin.to_str().unwrap_or("null");
            if !allowed(origin, host, &app.origins) {
                return error(
                    403,
                    &format!(
                        "requests from pages of {origin} are refused: only this server's own pages may make them"
                    ),
                );
            }
        }
    }
    next.run(req).await
}

/// Whether a page of `origin` may make the request: it is the server's own
/// (`http://` or `https://` and the `Host` the request was sent to), or
/// listed.
fn allowed(origin: &str, host: Option<&str>, listed: &[String]) -> bool {
    let own = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(|o| host.is_some_and(|h| o.eq_ignore_ascii_case(h)));
    own || listed.iter().any(|l| l.eq_ignore_ascii_case(origin))
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn only_the_servers_own_pages_and_listed_origins() {
        let host = Some("127.0.0.1:8080");
        assert!(allowed("http://127.0.0.1:8080", host, &[]));
        assert!(allowed("https://127.0.0.1:8080", host, &[]));
        assert!(!allowed("http://evil.example", host, &[]));
        assert!(!allowed("http://127.0.0.1:9999", host, &[]));
        assert!(!allowed("null", host, &[]));
        assert!(!allowed("http://127.0.0.1:8080", None, &[]));
        let listed = ["https://play.example.org".to_string()];
        assert!(allowed("https://play.example.org", host, &listed));
    }
}

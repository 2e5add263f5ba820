//! Every error answer is `{"error": …}` JSON, whoever makes it (a route, the
//! router's 404 and 405, the body limit, a failed WebSocket upgrade), and
//! every answer carries the security headers.

mod common;

use std::net::SocketAddr;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends `request` as it is; the answer's status, head and body.
async fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request).await.expect("sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    let answer = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, head.to_lowercase(), body.to_string())
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").into_bytes()
}

/// The answer is `{"error": "<non-empty>"}` with a JSON content type.
fn assert_json_error(what: &str, (status, head, body): &(u16, String, String), want: u16) {
    assert_eq!(*status, want, "{what}: {head}\n{body}");
    assert!(
        head.contains("content-type: application/json"),
        "{what}: {head}"
    );
    let value: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{what}: {e}: {body}"));
    let message = value["error"].as_str().unwrap_or_default();
    assert!(!message.is_empty(), "{what}: {body}");
}

#[tokio::test]
async fn every_error_is_json_and_every_answer_has_the_security_headers() {
    let s = common::start(common::fast()).await;
    let addr = s.addr;
    assert_json_error("no such path", &raw(addr, &get("/nope")).await, 404);
    assert_json_error(
        "no such match",
        &raw(addr, &get("/api/matches/0000")).await,
        404,
    );
    let delete = b"DELETE /api/matches HTTP/1.0\r\nHost: x\r\n\r\n";
    assert_json_error("a method not served", &raw(addr, delete).await, 405);
    // A body over the limit is refused from its length alone.
    for path in ["/api/replay", "/api/matches"] {
        let post = format!(
            "POST {path} HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            5 * 1024 * 1024
        );
        assert_json_error(path, &raw(addr, post.as_bytes()).await, 413);
    }
    // A WebSocket path asked without the upgrade.
    let created = common::create(addr, serde_json::json!({"game": "masked-army"})).await;
    let (status, head, body) = raw(addr, &get(&format!("/ws/{}", created.id))).await;
    assert!((400..500).contains(&status), "{status}");
    assert_json_error("no upgrade", &(status, head, body), status);

    for path in ["/", "/m/abc", "/replay", "/api/games", "/nope"] {
        let (_, head, _) = raw(addr, &get(path)).await;
        assert!(
            head.contains("content-security-policy: default-src 'self'; script-src 'self';"),
            "{path}: {head}"
        );
        assert!(head.contains("frame-ancestors 'none'"), "{path}: {head}");
        assert!(
            head.contains("referrer-policy: no-referrer"),
            "{path}: {head}"
        );
        assert!(
            head.contains("x-content-type-options: nosniff"),
            "{path}: {head}"
        );
    }
}

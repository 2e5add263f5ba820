//! Per-address limits: one address that creates 20,000 matches is held to
//! its rate and the server still creates matches for everyone else, also
//! after a restart; the same for opening connections.

mod common;

use std::net::SocketAddr;

use common::*;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};

/// A keep-alive HTTP/1.1 connection from `from` (a loopback address).
async fn connect(from: &str, to: SocketAddr) -> BufReader<TcpStream> {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(format!("{from}:0").parse().expect("an address"))
        .expect("binds a loopback address");
    BufReader::new(socket.connect(to).await.expect("connects"))
}

/// Sends one request on `conn`; its status.
async fn request(conn: &mut BufReader<TcpStream>, method: &str, path: &str, body: &str) -> u16 {
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    conn.get_mut()
        .write_all(head.as_bytes())
        .await
        .expect("sent");
    let mut status = 0;
    let mut length = 0;
    loop {
        let mut line = String::new();
        conn.read_line(&mut line).await.expect("a line");
        let line = line.trim_end().to_ascii_lowercase();
        if line.is_empty() {
            break;
        }
        if let Some(s) = line.strip_prefix("http/1.1 ") {
            status = s[..3].parse().expect("a status");
        }
        if let Some(n) = line.strip_prefix("content-length: ") {
            length = n.parse().expect("a length");
        }
    }
    let mut body = vec![0; length];
    conn.read_exact(&mut body).await.expect("the body");
    status
}

const CREATE: &str = r#"{"game": "masked-army"}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_creates_from_one_address_leaves_the_others_served() {
    let config = || fast_with(|c| c.creates_per_minute = 30);
    let s = start(config()).await;
    let mut flood = connect("127.0.0.1", s.addr).await;
    let mut created = 0;
    let mut limited = 0;
    let began = std::time::Instant::now();
    for _ in 0..20_000 {
        match request(&mut flood, "POST", "/api/matches", CREATE).await {
            201 => created += 1,
            429 => limited += 1,
            other => panic!("create answered {other}"),
        }
    }
    // The burst of 30, and one more every 2 s the flood lasted.
    let refilled = (began.elapsed().as_secs_f64() / 2.0).ceil() as usize;
    assert!(
        (30..=31 + refilled).contains(&created),
        "{created} created in {:?}: the burst, and the rate since",
        began.elapsed()
    );
    assert_eq!(created + limited, 20_000);
    let mut other = connect("127.0.0.2", s.addr).await;
    assert_eq!(
        request(&mut other, "POST", "/api/matches", CREATE).await,
        201
    );

    let TestServer { server, dir, .. } = s;
    server.stop();
    let s = start_in(dir, config()).await;
    let mut other = connect("127.0.0.3", s.addr).await;
    assert_eq!(
        request(&mut other, "POST", "/api/matches", CREATE).await,
        201
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_connections_from_one_address_is_refused_with_429() {
    let s = start(fast_with(|c| c.connects_per_minute = 10)).await;
    let c = people(s.addr, "masked-army").await;
    let mut opened = Vec::new();
    let mut refused = 0;
    for _ in 0..30 {
        match umpire_load::client::Ws::connect(s.addr, &c.id, None).await {
            Ok(ws) => opened.push(ws),
            Err(e) => {
                assert!(e.contains("429"), "{e}");
                refused += 1;
            }
        }
    }
    assert_eq!(opened.len(), 10, "the burst is let in");
    assert_eq!(refused, 20);
    // Another address still gets in.
    let stream = connect("127.0.0.2", s.addr).await.into_inner();
    let url = format!("ws://{}/ws/{}", s.addr, c.id);
    let (_ws, _) = tokio_tungstenite::client_async(url, stream)
        .await
        .expect("another address connects");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_creates_cannot_pass_the_live_match_cap() {
    let s = start(fast_with(|c| c.max_live = 5)).await;
    let mut tasks = Vec::new();
    for i in 0..40 {
        let to = s.addr;
        tasks.push(tokio::spawn(async move {
            let mut conn = connect(&format!("127.0.0.{}", 10 + i), to).await;
            request(&mut conn, "POST", "/api/matches", CREATE).await
        }));
    }
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.expect("a task"));
    }
    assert_eq!(
        answers.iter().filter(|&&a| a == 201).count(),
        5,
        "{answers:?}"
    );
    assert_eq!(
        answers.iter().filter(|&&a| a == 503).count(),
        35,
        "{answers:?}"
    );
}

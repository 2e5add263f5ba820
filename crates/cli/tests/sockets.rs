//! Silent sockets cannot take the server away: with only 1,024 file
//! descriptors, 1,100 connections that never send a byte leave a normal
//! request answered at once (one address keeps at most 256 connections;
//! without that cap the request waits for the head timeouts, seconds),
//! and a silent socket is closed once its request head is overdue.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A connection from `from` (a loopback address) to `to`.
fn connect_from(from: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(
        &format!("{from}:0")
            .parse::<SocketAddr>()
            .expect("an address")
            .into(),
    )?;
    socket.connect(&to.into())?;
    Ok(socket.into())
}

#[test]
fn more_silent_sockets_than_descriptors_leave_the_server_answering() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut server = Command::new("prlimit")
        .arg("--nofile=1024:1024")
        .arg(env!("CARGO_BIN_EXE_umpire"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("s.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("prlimit (util-linux) starts the server");
    let mut line = String::new();
    BufReader::new(server.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in `{line}`"));

    let opened = Instant::now();
    // More than the server has descriptors for.
    let silent: Vec<TcpStream> = (0..1_100)
        .map(|_| connect_from("127.0.0.1", addr).expect("connects"))
        .collect();
    // A normal request from elsewhere is answered at once.
    let mut other = connect_from("127.0.0.2", addr).expect("connects");
    other
        .set_read_timeout(Some(Duration::from_secs(2)))
        .expect("a timeout");
    other
        .write_all(b"GET /api/games HTTP/1.0\r\nHost: x\r\n\r\n")
        .expect("sent");
    let mut answer = String::new();
    let asked = Instant::now();
    other
        .read_to_string(&mut answer)
        .expect("an answer within 2 s");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "answered after {:?}",
        asked.elapsed()
    );
    assert!(
        answer.starts_with("HTTP/1.0 200") || answer.starts_with("HTTP/1.1 200"),
        "{answer:.200}"
    );
    // A silent socket the server kept is closed once its head is overdue.
    let mut kept = silent.into_iter().next().expect("a socket");
    kept.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    let mut byte = [0u8; 1];
    let n = kept.read(&mut byte).unwrap_or(0);
    assert_eq!(n, 0, "the server closed it");
    assert!(
        opened.elapsed() < Duration::from_secs(25),
        "closed after {:?}",
        opened.elapsed()
    );
    let _ = server.kill();
    let _ = server.wait();
}

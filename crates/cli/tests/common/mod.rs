//! What the CLI's tests that run `umpire serve` share: the process, a free
//! port, the test PostgreSQL's schemas and a NATS server of their own.
#![allow(dead_code)]

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use umpire_core::AnyGame;
pub use umpire_load::served::Served;

/// A body that creates a match of `game`, `timed` or not. Random players
/// never end a game without a round limit: a game that has one gets
/// `rounds`.
pub fn match_body(game: &dyn AnyGame, rounds: u32, timed: bool) -> Value {
    let limited = game.options().iter().any(|o| o.key == "max_rounds");
    let config = if limited {
        json!({"max_rounds": rounds})
    } else {
        json!({})
    };
    json!({"game": game.id(), "config": config, "timed": timed})
}

/// The text under `key` in each item of the JSON list `list`.
pub fn texts<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    let items = list.as_array().expect("a list");
    items
        .iter()
        .map(|item| item[key].as_str().unwrap())
        .collect()
}

/// `umpire` run with `args`.
pub fn umpire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .output()
        .expect("umpire runs")
}

/// The standard output of `umpire` with `args`, which must succeed.
pub fn succeeds(args: &[&str]) -> String {
    let out = umpire(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stdout}{stderr}");
    stdout
}

/// `umpire serve --addr ADDR` with `args` (`127.0.0.1:0` for a free
/// port), started through `prlimit --nofile=FDS:FDS` when `fds` is given;
/// returns once it listens.
pub fn serve_with(addr: &str, args: &[&str], fds: Option<u32>) -> Served {
    let exe = env!("CARGO_BIN_EXE_umpire");
    let mut command = match fds {
        Some(n) => {
            let mut c = Command::new("prlimit");
            c.arg(format!("--nofile={n}:{n}")).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    command
        .args(["serve", "--addr", addr])
        .args(args)
        .env("RUST_LOG", "warn");
    Served::start(command).expect("umpire serve starts")
}

/// `umpire serve` on a free loopback port with the store `store`.
pub fn serve(store: &str) -> Served {
    serve_with("127.0.0.1:0", &["--store", store], None)
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A schema of `dir`'s own on the test PostgreSQL, as a store URL; `None`
/// (said on stderr) when `UMPIRE_TEST_POSTGRES` is not set.
pub async fn postgres(dir: &std::path::Path) -> Option<String> {
    let Ok(url) = std::env::var("UMPIRE_TEST_POSTGRES") else {
        eprintln!("not tested: UMPIRE_TEST_POSTGRES is not set (scripts/test sets it)");
        return None;
    };
    match umpire_server::scratch_schema(&url, dir).await {
        Ok(umpire_server::Place::Postgres(url)) => Some(url),
        other => panic!("a schema on the test PostgreSQL: {other:?}"),
    }
}

/// A connection to the store at `url`.
pub async fn connect(url: &str) -> tokio_postgres::Client {
    umpire_server::connect_postgres(url)
        .await
        .expect("connects")
}

/// A NATS server on a port of its own (the same across restarts).
pub struct Nats {
    child: Option<Child>,
    pub port: u16,
}

impl Nats {
    /// Starts Debian's `nats-server`; `None` (said on stderr) if it is not
    /// installed.
    pub fn start() -> Option<Nats> {
        let mut nats = Nats {
            child: None,
            port: free_port(),
        };
        if nats.up() {
            Some(nats)
        } else {
            eprintln!("not tested: nats-server is not installed (scripts/test installs it)");
            None
        }
    }

    /// Starts it (again, on the same port); false if it is not installed.
    pub fn up(&mut self) -> bool {
        let Some(bin) = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
        else {
            return false;
        };
        let child = Command::new(bin)
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else { return false };
        self.child = Some(child);
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "nats-server starts"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    }

    pub fn down(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.down();
    }
}

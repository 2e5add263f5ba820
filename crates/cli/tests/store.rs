//! `umpire serve --store`: a database that cannot be used is a clear error
//! and a non-zero exit, never a panic. The PostgreSQL test needs
//! `UMPIRE_TEST_POSTGRES`, which `scripts/test` sets (`store_away.rs`
//! stops that server, so it is a test binary of its own).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `umpire serve --store STORE`, for at most 20 s: its exit status and what
/// it wrote to stderr, when it exits by itself.
fn serve_exits(store: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["serve", "--addr", "127.0.0.1:0", "--store", store])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("umpire serve starts");
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        if let Some(status) = child.try_wait().expect("a status") {
            let mut err = String::new();
            use std::io::Read;
            let _ = child
                .stderr
                .take()
                .expect("stderr")
                .read_to_string(&mut err);
            return (status.code(), err);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("umpire serve --store {store} did not exit");
}

#[test]
fn an_unreachable_database_is_a_clear_error() {
    let (code, err) = serve_exits("postgres://umpire:s3cret@127.0.0.1:1/umpire");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("cannot reach PostgreSQL at postgres://umpire:***@127.0.0.1:1/umpire"),
        "{err}"
    );
    assert!(
        !err.contains("s3cret") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn a_store_that_is_not_one_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "not a database, just words".repeat(100)).expect("written");
    let (code, err) = serve_exits(&format!("sqlite:{}", file.display()));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("notes.txt") && !err.contains("panicked"),
        "{err}"
    );
}

/// The test PostgreSQL's URL, if `scripts/test` started one.
fn postgres() -> Option<String> {
    let url = std::env::var("UMPIRE_TEST_POSTGRES").ok();
    if url.is_none() {
        eprintln!("PostgreSQL not tested: UMPIRE_TEST_POSTGRES is not set (scripts/test sets it)");
    }
    url
}

#[test]
fn a_wrong_password_is_a_clear_error() {
    let Some(url) = postgres() else { return };
    let wrong = url.replacen("umpire:umpire@", "umpire:not-the-password@", 1);
    assert_ne!(wrong, url, "the test database's URL has a password");
    let (code, err) = serve_exits(&wrong);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("refused the login"), "{err}");
    assert!(err.contains("password authentication failed"), "{err}");
    assert!(
        !err.contains("not-the-password") && !err.contains("panicked"),
        "{err}"
    );
}

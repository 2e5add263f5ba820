//! `umpire loadtest` on a small scale: it starts its own server, plays every
//! match of any game to the end and reports; it refuses to target another
//! machine.

mod common;
use common::{succeeds, umpire};

/// Two slots of three matches each, in turn.
const SMALL: [&str; 7] = [
    "loadtest",
    "--matches",
    "2",
    "--repeat",
    "3",
    "--seconds",
    "60",
];

#[test]
fn a_small_load_test_runs_clean() {
    // Every game, the test games too (the load test then serves them).
    for game in umpire_catalog::with_tests() {
        let stdout = succeeds(&[
            "--test-games",
            "loadtest",
            "--matches",
            "20",
            "--seconds",
            "60",
            "--game",
            game.id(),
        ]);
        assert!(stdout.contains("20 finished of 20"), "{stdout}");
        assert!(stdout.contains("errors:       0"), "{stdout}");
        assert!(stdout.contains("p99"), "{stdout}");
        assert!(stdout.contains("MB (VmHWM)"), "{stdout}");
    }
}

#[test]
fn the_load_test_only_targets_loopback() {
    let out = umpire(&["loadtest", "--matches", "1", "--addr", "192.0.2.1:80"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a loopback address"));
}

/// With Nagle's algorithm on, the mover's `state`, sent right after its
/// `accepted`, waits ~40 ms for the client's delayed ACK; with TCP_NODELAY
/// it follows at once. The gap between the two medians shows which.
#[test]
fn the_movers_state_follows_its_accepted_at_once() {
    let stdout = succeeds(&[&SMALL[..], &["--json"]].concat());
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    let p50 = |key: &str| report[key]["p50_ms"].as_f64().expect("a median");
    let gap = p50("own_state") - p50("accepted");
    assert!(
        gap < 20.0,
        "the mover's state comes {gap:.1} ms after its accepted: {stdout}"
    );
    assert_eq!(report["finished"], 6, "2 slots, 3 matches each: {stdout}");
    for key in ["accepted", "own_state", "opponent_state"] {
        assert!(report[key]["samples"].as_u64() > Some(10), "{stdout}");
    }
    assert!(
        report["cpu_seconds_per_1000_actions"].as_f64() > Some(0.0),
        "{stdout}"
    );
    // The server's threads, by kind: the runtime's workers and the store's writer.
    for thread in ["tokio-rt-worker", "umpire-store"] {
        assert!(report["cpu_by_thread"][thread].is_f64(), "{stdout}");
    }
}

#[test]
fn bot_matches_play_beside_the_measured_ones_and_a_bad_bot_is_named() {
    let stdout = succeeds(
        &[
            &SMALL[..],
            &["--bot-matches", "3", "--bot", "random", "--json"],
        ]
        .concat(),
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(report["bot_matches"], 3, "{report}");
    assert_eq!(report["finished"], 6, "{report}");
    // No `--game`: the first game `umpire games` lists.
    assert_eq!(report["game"], umpire_catalog::games()[0].id(), "{report}");
    // An unknown bot is refused with the server's words.
    let out = umpire(&[
        "loadtest",
        "--matches",
        "1",
        "--seconds",
        "20",
        "--bot-matches",
        "1",
        "--bot",
        "nobody",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bot matches") && stderr.contains("nobody"),
        "{stderr}"
    );
}

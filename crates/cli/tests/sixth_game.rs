//! A sixth game through the catalogue alone. The test game Sealed Bids is
//! its crate's (core's `testing`: the game, a bot of its own and a
//! command) and one line among the catalogue's test games; nothing else
//! names it. With `--test-games`, umpire offers it wherever it offers a
//! game: `umpire games`, the arena, the lobby (`GET /api/games`) with its
//! bots and levels, `loadtest`, and its command.

use serde_json::{Value, json};
use umpire_core::testing::REGISTRATION;
use umpire_load::client::http_json;

mod common;
use common::{serve_with, succeeds, umpire};

/// The game's bots as the registration lists them: (name, level).
fn its_bots() -> Vec<(String, String)> {
    let bots = REGISTRATION.bots();
    bots.map(|b| (b.name.into(), b.level.to_string())).collect()
}

#[test]
fn umpire_games_lists_it_with_its_bots() {
    let id = REGISTRATION.id();
    let listed = succeeds(&["--test-games", "games"]);
    let line = listed
        .lines()
        .find(|l| l.starts_with(id))
        .unwrap_or_else(|| panic!("{id} is not listed: {listed}"));
    let names: Vec<String> = its_bots().into_iter().map(|(name, _)| name).collect();
    assert!(line.contains(REGISTRATION.game.name()), "{line}");
    assert!(
        line.ends_with(&format!("bots: {}", names.join(", "))),
        "{line}"
    );
    // Only when asked.
    assert!(!succeeds(&["games"]).contains(id));
}

#[test]
fn the_arena_plays_its_own_bots_by_name_and_level() {
    let id = REGISTRATION.id();
    let args = ["--test-games", "arena", id, "--bots", "random,eager,medium"];
    let out = succeeds(&[&args[..], &["--games", "6", "--json"]].concat());
    let report: Value = serde_json::from_str(&out).expect("one JSON object");
    let bots: Vec<(&str, &str)> = report["bots"]
        .as_array()
        .expect("the bots")
        .iter()
        .map(|b| (b["name"].as_str().unwrap(), b["level"].as_str().unwrap()))
        .collect();
    assert_eq!(
        bots,
        [
            ("random", "easy"),
            ("eager", "medium"),
            ("medium", "medium")
        ]
    );
    assert!(
        !umpire(&["arena", id, "--bots", "random,eager"])
            .status
            .success()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_lobby_offers_it_with_its_bots_and_plays_them() {
    let dir = tempfile::tempdir().expect("a directory");
    let store = format!("sqlite:{}", dir.path().join("lobby.db").display());
    let served = serve_with("127.0.0.1:0", &["--test-games", "--store", &store], None);
    let (status, games) = http_json(served.addr, "GET", "/api/games", None)
        .await
        .expect("the lobby answers");
    assert_eq!(status, 200);
    let game = games
        .as_array()
        .expect("a list")
        .iter()
        .find(|g| g["id"] == REGISTRATION.id())
        .unwrap_or_else(|| panic!("not in the lobby: {games}"));
    assert_eq!(game["name"], REGISTRATION.game.name());
    let bots: Vec<(String, String)> = game["bots"]
        .as_array()
        .expect("its bots")
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap().into(),
                b["level"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(bots, its_bots());
    // Its own bot plays a match the lobby creates, to the end.
    let bot = json!({"kind": "bot", "bot": "eager"});
    let body = json!({"game": REGISTRATION.id(), "timed": false, "seats": {"P1": bot, "P2": bot}});
    let (status, created) = http_json(served.addr, "POST", "/api/matches", Some(&body))
        .await
        .expect("created");
    assert_eq!(status, 201, "{created}");
    let path = format!("/api/matches/{}", created["id"].as_str().unwrap());
    for _ in 0..100 {
        let (_, state) = http_json(served.addr, "GET", &path, None).await.unwrap();
        if !state["outcome"].is_null() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the bots' match did not end");
}

#[test]
fn loadtest_plays_it() {
    let args = ["--test-games", "loadtest", "--game", REGISTRATION.id()];
    let out = succeeds(&[&args[..], &["--matches", "2", "--seconds", "60"]].concat());
    assert!(out.contains("2 finished of 2"), "{out}");
    assert!(out.contains("errors:       0"), "{out}");
}

#[test]
fn its_command_is_one_of_umpire_s() {
    let command = &REGISTRATION.commands[0];
    let help = succeeds(&["--test-games", "--help"]);
    assert!(
        help.lines()
            .any(|l| l.trim_start().starts_with(command.name) && l.contains(command.about)),
        "{help}"
    );
    assert!(!succeeds(&["--help"]).contains(command.about));
    // What it prints is the game's: the prizes seed 5 draws.
    let state = REGISTRATION.game.start(&json!({}), 5).expect("a match");
    let prizes = state.view(umpire_core::Viewer::Spectator)["prizes"].to_string();
    let out = succeeds(&["--test-games", command.name, "5"]);
    assert_eq!(out.trim().replace(' ', ""), prizes);
    // Its help, either way asked, and its own errors.
    let asked = succeeds(&["--test-games", "help", command.name]);
    assert_eq!(asked, succeeds(&["--test-games", command.name, "--help"]));
    let out = umpire(&["--test-games", command.name, "five"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`five` is not a seed"));
    assert!(!umpire(&[command.name, "5"]).status.success());
}

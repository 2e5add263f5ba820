//! Records written by hand in the rulebooks' notation, outside the engine,
//! in the orders of play the rulebooks allow: `umpire replay` accepts each,
//! and two orders of the same play reach the same match. Also the arena's
//! records that docs/strength.md's figures come from.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn records() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/records")
}

fn replay(name: &str, json: bool) -> Output {
    replay_file(&records().join(name), json)
}

fn replay_file(path: &Path, json: bool) -> Output {
    let mut args = vec!["replay".to_string(), path.display().to_string()];
    if json {
        args.push("--json".into());
    }
    Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(&args)
        .output()
        .expect("umpire runs")
}

/// `umpire replay` accepts the record; returns what it printed.
fn accepted(name: &str) -> String {
    accepted_file(&records().join(name))
}

/// `umpire replay` accepts the record at `path`; returns what it printed.
fn accepted_file(path: &Path) -> String {
    let out = replay_file(path, false);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let name = path.display();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("actions, all legal"), "{name}: {text}");
    text
}

/// The final board and result the replay prints, without the count of
/// actions (which differs when one record writes out a forced choice).
fn end_of(name: &str) -> String {
    accepted(name)
        .lines()
        .filter(|l| !l.ends_with("actions, all legal."))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_reference_record_replays() {
    let mut names: Vec<String> = std::fs::read_dir(records())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    for name in names {
        accepted(&name);
    }
}

#[test]
fn the_presenter_may_orient_before_or_after_placing() {
    let placed_first = end_of("pentomino-wall-presenter-places-first.json");
    for other in [
        "pentomino-wall-presenter-orients-first.json",
        "pentomino-wall-orders-mixed.json",
    ] {
        assert_eq!(end_of(other), placed_first, "{other}");
    }
    accepted("pentomino-wall-both-exchange-one-places-first.json");
}

#[test]
fn the_forced_fourth_pick_replays_written_or_left_out() {
    let left_out = "flower-domain-fourth-pick-left-out.json";
    let written = "flower-domain-fourth-pick-written.json";
    assert_eq!(end_of(written), end_of(left_out));
    let json = |name| {
        let out = replay(name, true);
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["actions"] = serde_json::Value::Null;
        v
    };
    assert_eq!(json(written), json(left_out));
    assert_eq!(json(written)["winner"], "P2");
    accepted("flower-domain-red-drafter-writes-fourth-pick.json");
}

/// Every game record under `docs/arena` (the runs docs/strength.md reports)
/// still replays to the outcome it holds, so the figures stay reproducible
/// as the rules' code changes.
#[test]
fn every_arena_record_in_the_docs_replays_to_its_outcome() {
    let runs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/arena");
    let mut replayed = 0;
    for run in std::fs::read_dir(&runs).unwrap() {
        for file in std::fs::read_dir(run.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.file_name().is_some_and(|n| n == "arena.json") {
                continue;
            }
            accepted_file(&path);
            replayed += 1;
        }
    }
    assert!(replayed >= 400, "{replayed} records");
}

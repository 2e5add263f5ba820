//! The `umpire` binary, driven as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn umpire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .output()
        .expect("umpire runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The command's error output says `text`.
fn assert_stderr(out: &Output, text: &str) {
    assert!(stderr(out).contains(text), "{}", stderr(out));
}

#[test]
fn games_and_rules() {
    let out = umpire(&["games"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("masked-army") && stdout(&out).contains("Masked Army"));
    let out = umpire(&["rules", "masked-army"]);
    assert!(stdout(&out).contains("## Notation") && stdout(&out).contains("`E5 F5`"));
    let out = umpire(&["rules", "chess"]);
    assert!(!out.status.success());
    assert_stderr(&out, "unknown game `chess` (known: masked-army");
}

/// A finished record: the mirror game from the rules tests, played here by
/// two random bots through the arena's engine path instead.
fn finished_record() -> Value {
    let game = umpire_catalog::game("masked-army").unwrap();
    let mut m = umpire_core::Match::new(game, &json!({}), 7, true, None).unwrap();
    let mut rng = umpire_core::seeded_rng(7);
    let mut t = 0;
    while let Some(seat) = m.decision().seats.iter().next() {
        t += 1_500;
        let action = m.state().sample_action(seat, &mut rng).unwrap();
        m.submit(seat, &action, t).unwrap();
    }
    serde_json::to_value(m.record()).unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, value: &Value) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, value.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn replay_prints_board_outcome_and_reason() {
    let dir = tempfile::tempdir().unwrap();
    let record = finished_record();
    let file = write(&dir, "good.json", &record);
    let out = umpire(&["replay", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("A B C D E F G H I") && text.contains("all legal") && text.contains(" wins"),
        "{text}"
    );
    let out = umpire(&["replay", &file, "--json"]);
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["winner"], record["outcome"]["winner"]);
    assert_eq!(result["scores"], record["outcome"]["scores"]);
    assert!(result["reason"].as_str().unwrap().contains("wins"));
}

#[test]
fn replay_names_the_illegal_action_and_its_rule() {
    let dir = tempfile::tempdir().unwrap();
    let mut record = finished_record();
    // Action 3 repeats action 1's cells.
    let first_piece = record["actions"][1]["action"].clone();
    record["actions"][3]["action"] = first_piece.clone();
    record["outcome"] = Value::Null;
    let out = umpire(&["replay", &write(&dir, "bad.json", &record)]);
    assert_eq!(out.status.code(), Some(1));
    let cell = &first_piece.as_str().unwrap()[..2];
    assert_stderr(&out, "action 3 (P");
    assert_stderr(&out, &format!("{cell} is already occupied (occupied)"));

    let out = umpire(&[
        "replay",
        &write(&dir, "junk.json", &json!({"game": "masked-army"})),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr(&out, "is not a match record");
}

#[test]
fn arena_reports_json_with_bots_in_order() {
    let out = umpire(&[
        "arena",
        "masked-army",
        "--bots",
        "greedy,random",
        "--games",
        "200",
        "--seed",
        "3",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 200);
    let bots = report["bots"].as_array().unwrap();
    assert_eq!(
        (bots[0]["name"].as_str(), bots[1]["name"].as_str()),
        (Some("greedy"), Some("random"))
    );
    let (wins, losses) = (
        bots[0]["wins"].as_u64().unwrap(),
        bots[0]["losses"].as_u64().unwrap(),
    );
    assert_eq!(wins + losses + bots[0]["draws"].as_u64().unwrap(), 200);
    assert_eq!(bots[1]["wins"].as_u64().unwrap(), losses);
    assert!(wins > 150, "greedy should clearly beat random: {report}");
    assert!(report["games_per_second"].as_f64().unwrap() > 0.0);
    assert!(report["mean_length"].as_f64().unwrap() > 10.0);
    // The same seed gives the same results.
    let again: Value = serde_json::from_slice(
        &umpire(&[
            "arena",
            "masked-army",
            "--bots",
            "greedy,random",
            "--games",
            "200",
            "--seed",
            "3",
            "--json",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(again["bots"], report["bots"]);
}

#[test]
fn arena_refuses_unknown_bots() {
    let out = umpire(&["arena", "masked-army", "--bots", "greedy,deep-blue"]);
    assert!(!out.status.success());
    assert_stderr(
        &out,
        "no bot `deep-blue` for masked-army (known: random, greedy)",
    );
}

#[test]
fn play_reasks_a_bad_entry_with_the_reason() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["play", "masked-army", "--bot", "random", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Choose to start, try nonsense and an off-board move, then resign.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"first P1\nZZ\nI9 J9\nE5 F5\nresign\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("Not accepted: `ZZ` is not a cell"), "{text}");
    assert!(text.contains("Not accepted: J9 is off the board"), "{text}");
    assert!(text.contains("P1 resigned; P2 wins"), "{text}");
    assert!(
        text.matches("P1> ").count() >= 4,
        "each entry is asked again: {text}"
    );
}

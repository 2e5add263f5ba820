//! The `umpire` binary, driven as a user would.

mod common;

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
    let mut m =
        umpire_core::Match::new(game, &json!({}), 7, umpire_core::MatchOptions::default()).unwrap();
    let mut rng = umpire_core::seeded_rng(7);
    let mut t = 0;
    while let Some(seat) = m.decision().seats().iter().next() {
        t += 1_500;
        let action = m.state().sample_action(seat, &mut rng).unwrap();
        m.submit(seat, &action, t).unwrap();
    }
    serde_json::to_value(m.record()).unwrap()
}

/// `umpire ARGS` is refused (exit code 1), saying `says` on stderr.
fn refused(args: &[&str], says: &str) {
    let out = umpire(args);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    assert_stderr(&out, says);
}

/// `umpire replay` of `record`, written to `name` in `dir`: refused (exit
/// code 1), saying each of `says` on stderr.
fn replay_refused(dir: &tempfile::TempDir, name: &str, record: &Value, says: &[&str]) {
    let out = umpire(&["replay", &write(dir, name, record)]);
    assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
    for words in says {
        assert_stderr(&out, words);
    }
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
    assert!(result["reason"].as_str().unwrap().contains("beats"));
}

#[test]
fn replay_names_the_illegal_action_and_its_rule() {
    let dir = tempfile::tempdir().unwrap();
    let mut record = finished_record();
    // The fourth action (index 3) repeats the second's cells; people count from 1.
    let first_piece = record["actions"][1]["action"].clone();
    record["actions"][3]["action"] = first_piece.clone();
    record["outcome"] = Value::Null;
    let out = umpire(&["replay", &write(&dir, "bad.json", &record)]);
    assert_eq!(out.status.code(), Some(1));
    let cell = &first_piece.as_str().unwrap()[..2];
    assert_stderr(&out, "action 4 (P");
    assert_stderr(&out, &format!("{cell} is already occupied (occupied)"));

    refused(
        &[
            "replay",
            &write(&dir, "junk.json", &json!({"game": "masked-army"})),
        ],
        "is not a match record",
    );
}

#[test]
fn arena_reports_json_with_bots_in_order() {
    let arena = [
        "arena",
        "masked-army",
        "--bots",
        "greedy,random",
        "--games",
        "200",
        "--seed",
        "3",
        "--json",
    ];
    let out = umpire(&arena);
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
    let again: Value = serde_json::from_slice(&umpire(&arena).stdout).unwrap();
    assert_eq!(again["bots"], report["bots"]);
}

#[test]
fn arena_refuses_unknown_bots() {
    let out = umpire(&["arena", "masked-army", "--bots", "greedy,deep-blue"]);
    assert!(!out.status.success());
    assert_stderr(
        &out,
        "no bot `deep-blue` for masked-army (known: random, greedy, human, forgetful, search, perfect, expert)",
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
        .write_all(b"first P1\nZZ\nI9 J9\nE5 F5\nhelp\nrules\nresign\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    for says in [
        "Not accepted: `ZZ` is not a cell",
        "Not accepted: J9 is off the board",
        "P1 resigned; P2 wins",
        // Each move is said in the game's words, and the board has a legend.
        "P1 places first.",
        "P1 placed red (X) on E5 and blue (O) on F5.",
        "legend: X red (P1)",
        // `help` and `rules` print formatted text, not Markdown.
        "Commands: a move in the notation below",
        "Umpire's decisions",
    ] {
        assert!(text.contains(says), "{says}: {text}");
    }
    assert!(!text.contains("## "), "{text}");
    assert!(
        text.matches("P1> ").count() >= 4,
        "each entry is asked again: {text}"
    );
}

/// Runs `umpire args…` with `input` on standard input.
/// `umpire play ARGS --record FILE` with `input`, which must succeed: the
/// directory FILE is in (it lives as long as the value), FILE, and what
/// the command printed.
fn play_recorded(args: &[&str], input: &[u8]) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("played.json");
    let path = path.to_str().unwrap().to_string();
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend(["--record", &path]);
    let out = umpire_with_input(&all, input);
    assert!(out.status.success(), "{}", stderr(&out));
    (dir, path, stdout(&out))
}

fn umpire_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that ends before reading all its input closes the pipe.
    child.stdin.take().unwrap().write_all(input).ok();
    child.wait_with_output().unwrap()
}

#[test]
fn a_record_cut_before_its_claimed_end_fails() {
    let dir = tempfile::tempdir().unwrap();
    let mut record = finished_record();
    let winner = record["outcome"]["winner"].as_str().unwrap().to_string();
    record["actions"] = json!(record["actions"].as_array().unwrap()[..10]);
    replay_refused(
        &dir,
        "cut.json",
        &record,
        &[&format!(
            "the record says {winner} won, but its actions stop before the end: replaying them, the match is not over"
        )],
    );
    // A claimed winner the replay does not confirm is said in words.
    let mut record = finished_record();
    let other = if winner == "P1" { "P2" } else { "P1" };
    record["outcome"]["winner"] = json!(other);
    let out = umpire(&["replay", &write(&dir, "wrong.json", &record)]);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr(
        &out,
        &format!("the record says {other} won; replaying it, {winner} wins"),
    );
    assert!(!stderr(&out).contains("Some("), "{}", stderr(&out));
}

#[test]
fn replay_reads_standard_input() {
    let record = finished_record();
    let out = umpire_with_input(&["replay", "-", "--json"], record.to_string().as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["winner"], record["outcome"]["winner"]);
    let out = umpire_with_input(&["replay", "-"], b"not json");
    assert_eq!(out.status.code(), Some(1));
    assert_stderr(&out, "standard input is not a match record");
}

#[test]
fn play_saves_a_record_that_replays_and_prints_its_seed() {
    let (_dir, path, text) = play_recorded(
        &["masked-army", "--bot", "easy"],
        b"first P1\nE5 F5\nresign\n",
    );
    assert!(text.contains("Seed ") && text.contains("Untimed"), "{text}");
    assert!(text.contains("You lose (decided by resignation)"), "{text}");
    assert!(text.contains("Record saved to"), "{text}");
    let out = umpire(&["replay", &path, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["winner"], "P2");
    // The replay's final board shows no turn: the match is over.
    let text = stdout(&umpire(&["replay", &path]));
    assert!(text.trim_end().ends_with("P1 resigned; P2 wins"), "{text}");
    assert!(
        !text.contains("to place") && !text.contains("your turn"),
        "{text}"
    );
    // Two plays without --seed draw two seeds.
    let seed = |out: &Output| {
        let text = stdout(out);
        let after = text.split("Seed ").nth(1).unwrap().to_string();
        after.split_whitespace().next().unwrap().to_string()
    };
    let first = umpire_with_input(&["play", "masked-army"], b"resign\n");
    let second = umpire_with_input(&["play", "masked-army"], b"resign\n");
    assert_ne!(seed(&first), seed(&second));
}

#[test]
fn arena_takes_levels_saves_records_and_refuses_zero_games() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let out = umpire(&[
        "arena",
        "masked-army",
        "--bots",
        "medium,easy",
        "--games",
        "4",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("medium  medium") && text.contains("easy    easy"),
        "{text}"
    );
    for seed in 0..4 {
        let file = records.join(format!("masked-army-{seed}.json"));
        let out = umpire(&["replay", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = umpire(&[
        "arena",
        "masked-army",
        "--bots",
        "greedy,greedy",
        "--games",
        "2",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("greedy#1  greedy#2")
            && text.contains("greedy#1  medium")
            && text.contains("A is P1 in the pair's even games"),
        "{text}"
    );
    refused(
        &[
            "arena",
            "masked-army",
            "--bots",
            "greedy,random",
            "--games",
            "0",
        ],
        "--games 0 plays nothing",
    );
}

fn arena_json(args: &[&str]) -> Value {
    let out = umpire(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn arena_round_robin_reports_pairs_and_ratings_whatever_the_threads() {
    let args = |threads| {
        [
            "arena",
            "masked-army",
            "--bots",
            "random,greedy,random",
            "--games",
            "60",
            "--seed",
            "11",
            "--json",
            "--threads",
            threads,
        ]
    };
    let report = arena_json(&args("1"));
    assert_eq!(
        (report["games"].as_u64(), report["threads"].as_u64()),
        (Some(180), Some(1))
    );
    assert_eq!(report["games_per_pair"], 60);
    // A name given twice is told apart by its place.
    let labels: Vec<&str> = common::texts(&report["bots"], "label");
    assert_eq!(labels, ["random#1", "greedy", "random#3"]);
    assert_eq!(report["bots"][2]["name"], "random");
    // Every pair once, in order, from A's side, split by A's seat.
    let pairs = report["pairs"].as_array().unwrap();
    let names: Vec<(&str, &str)> = pairs
        .iter()
        .map(|p| (p["a"].as_str().unwrap(), p["b"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("random#1", "greedy"),
            ("random#1", "random#3"),
            ("greedy", "random#3")
        ]
    );
    let count = |x: &Value| ["wins", "draws", "losses"].map(|k| x[k].as_u64().unwrap());
    for p in pairs {
        let [w, d, l] = count(p);
        assert_eq!((w + d + l, p["games"].as_u64()), (60, Some(60)), "{p}");
        let ([w1, d1, l1], [w2, d2, l2]) = (count(&p["a_as_p1"]), count(&p["a_as_p2"]));
        assert_eq!((w1 + w2, d1 + d2, l1 + l2), (w, d, l), "{p}");
        assert_eq!((w1 + d1 + l1, w2 + d2 + l2), (30, 30), "{p}");
    }
    // Bots' totals add up over their pairs.
    let [w, d, l] = count(&report["bots"][1]);
    assert_eq!(w + d + l, 120);
    assert_eq!(
        w,
        pairs[0]["losses"].as_u64().unwrap() + pairs[2]["wins"].as_u64().unwrap()
    );
    // Ratings: highest first, greedy on top, mean 0, intervals around them.
    let ratings = report["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    assert_eq!(
        (ratings[0]["bot"].as_str(), ratings[0]["level"].as_str()),
        (Some("greedy"), Some("medium"))
    );
    let elo: Vec<f64> = ratings.iter().map(|r| r["elo"].as_f64().unwrap()).collect();
    assert!(elo[0] >= elo[1] && elo[1] >= elo[2], "{elo:?}");
    assert!(elo.iter().sum::<f64>().abs() < 1.0, "{elo:?}");
    assert!(
        elo[0] > 100.0,
        "greedy should clearly beat random: {report}"
    );
    for r in ratings {
        assert_eq!(r["games"], 120);
        assert!(
            r["low"]
                .as_f64()
                .is_none_or(|low| low < r["elo"].as_f64().unwrap()),
            "{r}"
        );
        assert!(
            r["high"]
                .as_f64()
                .is_none_or(|high| high > r["elo"].as_f64().unwrap()),
            "{r}"
        );
        let score = r["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score), "{r}");
    }
    assert!(
        report["elo_method"]
            .as_str()
            .unwrap()
            .contains("Bradley-Terry")
    );
    // The same seed gives the same results on two threads.
    let again = arena_json(&args("2"));
    assert_eq!(again["threads"], 2);
    for key in ["bots", "pairs", "ratings", "mean_length"] {
        assert_eq!(again[key], report[key], "{key}");
    }
}

#[test]
fn arena_prints_pairs_and_elo_tables_and_saves_every_pairs_records() {
    let dir = tempfile::tempdir().unwrap();
    let out = umpire(&[
        "arena",
        "masked-army",
        "--bots",
        "greedy,random,easy",
        "--games",
        "4",
        "--records",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("12 games of Masked Army"), "{text}");
    assert!(text.contains("Pairs, 4 games each"), "{text}");
    assert!(
        text.contains("  greedy  random  ") && text.contains("  random  easy  "),
        "{text}"
    );
    assert!(
        text.contains("Elo (Bradley-Terry") && text.contains("95% interval"),
        "{text}"
    );
    assert!(text.contains(" 1  greedy  medium"), "{text}");
    // Seeds follow on from pair to pair, so no record overwrites another.
    for seed in 0..12 {
        assert!(
            dir.path().join(format!("masked-army-{seed}.json")).exists(),
            "{seed}"
        );
    }
    assert!(!dir.path().join("masked-army-12.json").exists());
}

#[test]
fn arena_resumes_a_run_from_its_records_and_refuses_anothers() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let run = |bots: &str, resume: bool| {
        let mut args = vec![
            "arena",
            "masked-army",
            "--bots",
            bots,
            "--games",
            "6",
            "--json",
            "--records",
            folder,
        ];
        if resume {
            args.push("--resume");
        }
        umpire(&args)
    };
    let json = |out: &Output| -> serde_json::Value {
        assert!(out.status.success(), "{}", stderr(out));
        serde_json::from_str(&stdout(out)).unwrap()
    };
    let whole = json(&run("greedy,random", false));
    assert_eq!(whole["resumed"], 0);
    // A run stopped after four games: two records are missing.
    for seed in [1, 4] {
        std::fs::remove_file(dir.path().join(format!("masked-army-{seed}.json"))).unwrap();
    }
    let resumed = json(&run("greedy,random", true));
    assert_eq!(resumed["resumed"], 4);
    assert_eq!(resumed["games"], 6);
    assert_eq!(resumed["pairs"], whole["pairs"]);
    assert!(dir.path().join("masked-army-4.json").exists());
    // Another run's records are not taken for this one's.
    let out = run("greedy,easy", true);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("are of another run"),
        "{}",
        stderr(&out)
    );
    // Nor is a record of another game in a game's place.
    let three = std::fs::read(dir.path().join("masked-army-3.json")).unwrap();
    std::fs::write(dir.path().join("masked-army-2.json"), three).unwrap();
    let out = run("greedy,random", true);
    assert!(!out.status.success());
    assert!(
        stderr(&out)
            .contains("masked-army-2.json: it is masked-army seed 3, not masked-army seed 2"),
        "{}",
        stderr(&out)
    );
    // Resuming needs the folder.
    let out = umpire(&[
        "arena",
        "masked-army",
        "--bots",
        "greedy,random",
        "--resume",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--records"), "{}", stderr(&out));
}

#[test]
fn arena_refuses_one_bot_and_zero_threads() {
    refused(
        &["arena", "masked-army", "--bots", "greedy"],
        "--bots takes two or more bots",
    );
    refused(
        &[
            "arena",
            "masked-army",
            "--bots",
            "greedy,random",
            "--threads",
            "0",
        ],
        "--threads 0 runs nothing",
    );
}

#[test]
fn serve_explains_the_address_form_and_takes_a_port() {
    let out = umpire(&["serve", "--addr", "8081"]);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr(&out, "--addr takes HOST:PORT, like 127.0.0.1:8081");
    assert_stderr(&out, "or use `--port 8081`");
    // `--port 0` serves on 127.0.0.1 and a free port.
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["serve", "--port", "0", "--db"])
        .arg(dir.path().join("u.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
}

#[test]
fn replay_refuses_a_record_with_huge_clock_values() {
    let dir = tempfile::tempdir().unwrap();
    for (key, value) in [
        ("bank_ms", json!(u64::MAX)),
        ("period_ms", json!(u64::MAX)),
        ("lag_ms", json!(u64::MAX - 1)),
    ] {
        let mut record = finished_record();
        record["clock"] = json!({"bank_ms": 300000, "periods": 0, "period_ms": 0, "lag_ms": 1500});
        record["clock"][key] = value;
        let out = umpire(&["replay", &write(&dir, "clock.json", &record)]);
        assert_eq!(out.status.code(), Some(1), "{key}");
        assert_stderr(
            &out,
            &format!("the record's clock is refused: clock {key} is"),
        );
    }
    // Periods whose sum overflows.
    let mut record = finished_record();
    record["clock"] = json!({"bank_ms": 0, "periods": 1000, "period_ms": 1u64 << 42, "lag_ms": 0});
    replay_refused(
        &dir,
        "sum.json",
        &record,
        &["the record's clock is refused: the clock's bank, periods and lag add up"],
    );
    // A huge time for an action.
    let mut record = finished_record();
    record["actions"][2]["at_ms"] = json!(u64::MAX);
    replay_refused(
        &dir,
        "at.json",
        &record,
        &["action 3 (P", "is past the longest match time"],
    );
}

#[test]
fn replay_accepts_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bom.json");
    std::fs::write(&path, format!("\u{feff}{}", finished_record())).unwrap();
    let out = umpire(&["replay", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("all legal"), "{}", stdout(&out));
}

#[test]
fn replay_escapes_terminal_control_characters_from_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut record = finished_record();
    record["actions"][3]["action"] = json!("\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}1m");
    record["outcome"] = Value::Null;
    let out = umpire(&["replay", &write(&dir, "ansi.json", &record)]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    assert_stderr(&out, "\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\u{9b}1m");
}

/// Each kind of failure has its own exit code, listed in `umpire --help`.
#[test]
fn exit_codes_tell_a_missing_file_from_a_bad_record() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let out = umpire(&["replay", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert_stderr(&out, "cannot read");
    replay_refused(
        &dir,
        "junk.json",
        &json!({"game": 1}),
        &["is not a match record"],
    );
    let out = umpire(&["replay"]);
    assert_eq!(out.status.code(), Some(2));
    let help = stdout(&umpire(&["--help"]));
    for line in [
        "Exit codes:",
        "  1    refused",
        "  2    usage",
        "  3    a file",
    ] {
        assert!(help.contains(line), "{line}: {help}");
    }
    // A record path that cannot be written is refused before play begins.
    let bad = dir.path().join("no-such-folder").join("game.json");
    let out = umpire_with_input(
        &["play", "masked-army", "--record", bad.to_str().unwrap()],
        b"first P1\n",
    );
    assert_eq!(out.status.code(), Some(3));
    assert_stderr(&out, "cannot write the record to");
    assert!(!stdout(&out).contains("P1> "), "{}", stdout(&out));
}

#[test]
fn help_lists_the_bots_and_hides_nothing_it_names() {
    let out = umpire(&["help", "--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = umpire(&["help", "play"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Usage: umpire play"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("`umpire games` lists each game's bots"));
    let games = stdout(&umpire(&["games"]));
    assert!(
        games.contains("bots: random, greedy, human, forgetful, search, perfect"),
        "{games}"
    );
    assert!(games.contains("easy, medium, hard"), "{games}");
    let loadtest = stdout(&umpire(&["loadtest", "--help"]));
    assert!(!loadtest.contains("--test-games"), "{loadtest}");
}

#[test]
fn play_refuses_a_very_long_line_without_echoing_it() {
    let mut input = b"first P1\n".to_vec();
    input.extend(std::iter::repeat_n(b'Z', 10_000));
    input.extend(b"\nquit\n");
    let out = umpire_with_input(&["play", "masked-army", "--seed", "1"], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Not accepted: a line of 10000 characters is longer than any move"),
        "{text}"
    );
    assert!(!text.contains(&"Z".repeat(100)), "the line is echoed");
}

/// Every event is said once; a move the person cannot see is said to be
/// sealed; a record left unfinished replays and says so.
#[test]
fn play_says_each_event_once_and_keeps_an_unfinished_record() {
    let (_dir, path, text) = play_recorded(&["four-statements", "--seed", "3"], b"");
    assert_eq!(
        text.matches("P2 has made its choice, sealed until both are in.")
            .count(),
        1,
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with("Your input ended: the match is left unfinished, and nobody wins."),
        "{text}"
    );
    let out = umpire(&["replay", &path, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&result["over"], &result["unfinished"]),
        (&json!(false), &json!("the input ended"))
    );
}

#[test]
fn arena_names_its_threads_and_rate_in_words() {
    let out = umpire(&[
        "arena",
        "masked-army",
        "--bots",
        "random,random",
        "--games",
        "2",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = stdout(&out).lines().next().unwrap().to_string();
    assert!(first.contains(" games/s, 1 thread)"), "{first}");
    assert!(!first.contains("(0 games/s"), "{first}");
}

/// A host's record: named players, one action entered by the host.
fn hosted_record() -> Value {
    let mut record = finished_record();
    record["seats"] = json!({"P1": {"name": "Ada"}, "P2": {"name": "Bo"}});
    record["host"] = json!(true);
    record["actions"][1]["by"] = json!("host");
    record
}

#[test]
fn replay_names_the_players_and_counts_the_hosts_entries() {
    let dir = tempfile::tempdir().unwrap();
    let out = umpire(&["replay", &write(&dir, "hosted.json", &hosted_record())]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Ada (P1) against Bo (P2), run by a host.\n"),
        "{text}"
    );
    assert!(text.contains("(1 made by the host"), "{text}");
    assert!(
        text.contains("Ada wins") || text.contains("Bo wins"),
        "{text}"
    );
    assert!(
        !text.contains("P1 wins") && !text.contains("P2 wins"),
        "{text}"
    );
    // The host's entry in a match without a host is refused, saying why.
    let mut hostless = hosted_record();
    hostless["host"] = json!(false);
    replay_refused(
        &dir,
        "hostless.json",
        &hostless,
        &["action 2 (P", "this match has no host"],
    );
}

#[test]
fn play_calls_the_seats_by_their_names_and_records_them() {
    let (_dir, path, text) = play_recorded(
        &["masked-army", "--seed", "3", "--names", "Ada,Bo"],
        b"first P1\nresign\n",
    );
    assert!(text.contains("you are Ada, bot random is Bo."), "{text}");
    assert!(
        text.contains("`first P1` or `first P2`"),
        "notation keeps its words: {text}"
    );
    assert!(
        text.contains("Ada> ") && text.contains("Ada resigned"),
        "{text}"
    );
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["seats"]["P2"]["name"], "Bo");
    refused(
        &["play", "masked-army", "--names", "Ada,ada"],
        "different names",
    );
}

//! `umpire statement`, the command this game adds to `umpire`, run as the
//! command line runs it (the words after `statement`), as a host in a chat
//! room uses it.

use serde_json::{Value, json};
use umpire_four_statements::REGISTRATION;

/// What a run of the command printed, and its exit status.
struct Ran {
    status: u8,
    out: String,
    err: String,
}

fn statement(args: &[&str]) -> Ran {
    let command = REGISTRATION.command("statement").expect("the command");
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = (command.run)(&args, &mut out, &mut err);
    Ran {
        status,
        out: String::from_utf8(out).expect("UTF-8"),
        err: String::from_utf8(err).expect("UTF-8"),
    }
}

/// The command's error output says `text`.
fn assert_err(ran: &Ran, text: &str) {
    assert!(ran.err.contains(text), "`{text}` not in: {}", ran.err);
}

/// `umpire statement check`, as a host in a chat room uses it: valid (0),
/// invalid with the rule (1), unparsable with where and what (3), a bad
/// argument (2); the subset rules apply unless `--no-limit`.
#[test]
fn statement_check_judges_like_the_server() {
    let check = |args: &[&str]| {
        let mut all = vec!["check", "--subset", "A1 B1 A2 B2"];
        all.extend(args);
        statement(&all)
    };
    let out = check(&["There are two red tiles.", "--layout", "RRBGYGBRBBRYGYRG"]);
    assert_eq!(Some(out.status), Some(0), "{}", out.err);
    assert_eq!(
        out.out,
        "valid\nYou are saying: At least two tiles are red.\n5 words (at most 15)\ntruth: true\n"
    );
    let out = check(&[
        "--json",
        "There is a 2x2 square with one red tile.",
        "--layout",
        "BBBBBBBBBBBBBBBB",
    ]);
    assert_eq!(Some(out.status), Some(0));
    let verdict: Value = serde_json::from_str(&out.out).expect("JSON");
    assert_eq!(
        verdict,
        json!({"valid": true, "kind": "valid", "reason": null, "rule": null,
               "reading": "Some 2x2 square has a red tile.", "words": 9,
               "readings": [], "suggestion": null, "truth": false})
    );
    // The rulebook's invalid examples, each with the rule it breaks.
    for (text, rule) in [
        ("There are four red tiles on the grid.", "outside-subset"),
        ("The leftmost tile is red.", "every-tile-matters"),
        (
            "There are two red tiles, and I beat Marcer in arithmetic 3-1.",
            "outside-game",
        ),
    ] {
        let out = check(&["--json", text]);
        assert_eq!(Some(out.status), Some(1), "{text}");
        let verdict: Value = serde_json::from_str(&out.out).expect("JSON");
        assert_eq!(
            (&verdict["valid"], &verdict["rule"]),
            (&json!(false), &json!(rule)),
            "{text}"
        );
        assert_eq!(verdict["truth"], Value::Null);
    }
    // Two readings: both are said.
    let out = check(&["It is not true that no tile is red and no tile is blue."]);
    assert_eq!(Some(out.status), Some(1));
    assert!(
        out.out
            .contains("it may mean: At least one tile is red and no tile is blue."),
        "{}",
        out.out
    );
    // A typo: unparsable (3), with the corrected sentence and its reading.
    let out = check(&["There are two rde tiles."]);
    assert_eq!(Some(out.status), Some(3));
    assert!(out.out.contains("`rde`"), "{}", out.out);
    assert!(
        out.out.contains("did you mean: There are two red tiles."),
        "{}",
        out.out
    );
    let out = statement(&["check", "--subset", "A1 Q9", "There is a red tile."]);
    assert_eq!(Some(out.status), Some(2));
    assert_err(&out, "--subset");
}

/// The subset rules, as a match applies them: connected, 4 to 8 tiles,
/// under half shared with `--previous`; `--no-limit` lifts them.
#[test]
fn statement_check_applies_the_subset_rules() {
    let check = |subset: &str, more: &[&str]| {
        let mut all = vec!["check", "--json", "--subset", subset];
        all.extend(more);
        all.push("There are two red tiles.");
        let out = statement(&all);
        let verdict: Value = serde_json::from_str(&out.out).expect("JSON");
        (Some(out.status), verdict)
    };
    let ten = "A1 B1 C1 D1 A2 B2 C2 D2 A3 B3";
    for (subset, more, rule, why) in [
        ("A1 C3", &[][..], "subset-connected", "not connected"),
        (ten, &[][..], "subset-size", "10 tiles"),
        (
            "A1 B1 A2 B2",
            &["--previous", "A1 B1 C1 D1"][..],
            "subset-overlap",
            "shares 2 tiles",
        ),
    ] {
        let (code, v) = check(subset, more);
        assert_eq!(code, Some(1), "{subset}");
        assert_eq!(v["rule"], rule, "{subset}");
        assert!(v["reason"].as_str().unwrap().contains(why), "{v}");
    }
    // No Limit lifts them: the statement alone is judged.
    let (code, v) = check(ten, &["--no-limit"]);
    assert_eq!((code, &v["kind"]), (Some(0), &json!("valid")));
    let (code, v) = check("A1 C3", &["--no-limit"]);
    assert_eq!(
        (code, &v["reading"]),
        (Some(0), &json!("At least two tiles are red."))
    );
}

/// `deduce --help` says what each argument is.
#[test]
fn statement_deduce_help_describes_its_arguments() {
    let out = statement(&["deduce", "--help"]);
    assert_eq!(out.status, 0);
    let help = out.out;
    for words in [
        "The knowledge file, or - for standard input",
        "docs/statements.md",
        "possible (grids left)",
    ] {
        assert!(help.contains(words), "{help}");
    }
}

/// `umpire statement deduce`: a seat's knowledge in, the grids it allows out.
#[test]
fn statement_deduce_counts_the_grids_left() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("knowledge.json");
    // Every tile known but A1.
    let known: serde_json::Map<String, Value> = [
        "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "A4", "B4", "C4", "D4",
    ]
    .iter()
    .map(|c| (c.to_string(), json!("green")))
    .collect();
    let knowledge = json!({
        "known": known,
        "statements": [{"subset": "A1 B1 A2 B2", "statement": "There are two red tiles.", "truth": false}],
        "wrong_guesses": ["BGGGGGGGGGGGGGGG", "YGGGGGGGGGGGGGGG", "GGGGGGGGGGGGGGGG"]
    });
    std::fs::write(&file, knowledge.to_string()).expect("written");
    let out = statement(&["deduce", file.to_str().unwrap()]);
    assert_eq!(out.status, 0, "{}", out.err);
    // The false statement rules nothing out (one red at most either way);
    // the three wrong guesses leave A1 red.
    assert!(out.out.starts_with("1 grid is possible"), "{}", out.out);
    assert!(
        out.out.contains("the grid: RGGGGGGGGGGGGGGG"),
        "{}",
        out.out
    );
    let out = statement(&["deduce", "--json", file.to_str().unwrap()]);
    let deduced: Value = serde_json::from_str(&out.out).expect("JSON");
    assert_eq!(deduced["possible"], 1);
    assert_eq!(deduced["cells"]["A1"]["red"], 1.0);
    std::fs::write(&file, r#"{"known": {"Z9": "red"}}"#).expect("written");
    let out = statement(&["deduce", file.to_str().unwrap()]);
    assert_eq!(Some(out.status), Some(2));
    assert_err(&out, "known");
}

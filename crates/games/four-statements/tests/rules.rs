//! Four Statements' rules, one test per rule, legal and illegal; every
//! refusal goes through one shared check that it names its rule and
//! changes nothing.

use serde_json::{Value, json};
use umpire_core::conformance::timed_match;
use umpire_core::conformance::{assert_refused_by as assert_refused, play_text as play};
use umpire_core::{Game, Match, MatchOptions, RuleViolation, Seat, Viewer, erase, seeded_rng};
use umpire_four_statements::deduce;
use umpire_four_statements::knowledge;
use umpire_four_statements::{Action, Config, FourStatements, Phase};

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

/// Row by row: R R B G / Y G B R / B B R Y / G Y R G.
const LAYOUT: &str = "RRBG YGBR BBRY GYRG";

fn config() -> Config {
    Config {
        layout: LAYOUT.into(),
        known_p1: "A1 B1 C1 D1".into(),
        known_p2: "A4 B4 C4 D4".into(),
        ..Config::default()
    }
}

fn new_game() -> FourStatements {
    FourStatements::new(&config(), 0).unwrap()
}

fn view(state: &FourStatements, viewer: Viewer) -> Value {
    serde_json::to_value(state.view(viewer)).unwrap()
}

const FOUR: &str = "There are two red tiles.; There is a blue tile.; There is a green tile.; There is a yellow tile.";

/// P1 on A1 B1 A2 B2 (R R Y G): true, false, true, true.
fn p1_bluff() -> String {
    format!("subset A1 B1 A2 B2; {FOUR}")
}

/// P2 on C3 D3 C4 D4 (R Y R G): true, false, true, true.
fn p2_bluff() -> String {
    format!("subset C3 D3 C4 D4; {FOUR}")
}

/// A game in its first reveal phase: P1 claimed all four right (3 + 8 =
/// 11 RP), P2 three (3 + 6 = 9 RP).
fn at_reveal() -> FourStatements {
    let mut g = new_game();
    play(&mut g, P1, &p1_bluff());
    play(&mut g, P2, &p2_bluff());
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims T T T T");
    g
}

#[test]
fn a_round_scores_own_truths_and_right_claims_each_seat_seeing_only_its_own() {
    let mut g = new_game();
    play(&mut g, P1, &p1_bluff());
    // Sealed: P2 sees that P1 submitted, not what.
    let seen = view(&g, Viewer::Seat(P2));
    assert_eq!(seen["status"]["P1"], "submitted");
    assert_eq!(seen["sealed"]["P1"], Value::Null);
    assert!(!seen.to_string().contains("two red"));
    play(&mut g, P2, &p2_bluff());
    assert_eq!(g.phase(), Phase::Claim);
    let p1 = view(&g, Viewer::Seat(P1));
    assert_eq!(p1["rp"], json!({"P1": 3, "P2": null}));
    let truths = |v: &Value, seat: &str| -> Vec<Value> {
        v["rounds"][0]["sides"][seat]["statements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["truth"].clone())
            .collect()
    };
    assert_eq!(
        p1["rounds"][0]["sides"]["P1"]["statements"][1]["text"],
        "At least one tile is blue."
    );
    assert_eq!(
        truths(&p1, "P1"),
        [true, false, true, true].map(Value::from)
    );
    assert_eq!(truths(&p1, "P2"), [const { Value::Null }; 4]);
    // Everyone reads both subsets and statements.
    let spectator = view(&g, Viewer::Spectator);
    assert_eq!(
        spectator["rounds"][0]["sides"]["P2"]["subset"],
        json!(["C3", "D3", "C4", "D4"])
    );
    assert_eq!(
        spectator["rounds"][0]["sides"]["P2"]["statements"][0]["text"],
        "At least two tiles are red."
    );
    assert_eq!(truths(&spectator, "P1"), [const { Value::Null }; 4]);
    assert_eq!(spectator["rp"], json!({"P1": null, "P2": null}));
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims T T T T");
    assert_eq!((g.rp(P1), g.rp(P2)), (11, 9));
    let p2 = view(&g, Viewer::Seat(P2));
    assert_eq!(p2["rp"], json!({"P1": null, "P2": 9}));
    assert_eq!(p2["rounds"][0]["sides"]["P2"]["correct"], 3);
    // Which claims were right is never said, nor the other's claims.
    assert_eq!(p2["rounds"][0]["sides"]["P1"]["claims"], Value::Null);
    assert_eq!(p2["rounds"][0]["sides"]["P1"]["correct"], Value::Null);
    let notes: Vec<String> = p2["notebook"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        notes,
        [
            "You were shown A4 green, B4 yellow, C4 red, D4 green.",
            "Round 1: your statements: true: 1, 3, 4; false: 2 (+3 RP).",
            "Round 1: 3 of your 4 claims were right (+6 RP).",
        ]
    );
}

#[test]
fn rp_are_never_in_the_opponents_view_over_random_games() {
    let config = Config {
        max_rounds: Some(4),
        ..Config::default()
    };
    for seed in 0..20 {
        let mut g = FourStatements::new(&config, seed).unwrap();
        let mut rng = seeded_rng(seed);
        while let Some(seat) = g.decision().seats().iter().next() {
            let a = g.sample_action(seat, &mut rng).unwrap();
            g.play(seat, &a).unwrap();
            if g.phase() == Phase::Over {
                break;
            }
            // Before anything is scored both have 0, which all know.
            if g.round() == 1 && g.phase() == Phase::Bluff {
                continue;
            }
            for s in Seat::BOTH {
                let v = view(&g, Viewer::Seat(s));
                assert_eq!(v["rp"][s.other().to_string()], Value::Null, "seed {seed}");
                assert_eq!(v["rp"][s.to_string()], g.rp(s), "seed {seed}");
                assert_eq!(v["may_buy"][s.other().to_string()], Value::Null);
            }
        }
    }
}

#[test]
fn subsets_are_connected_4_to_8_tiles_and_share_under_half_with_the_previous() {
    let mut g = new_game();
    assert_refused(
        &g,
        &[
            (
                P1,
                &format!("subset A1 C1 A2 C2; {FOUR}"),
                "subset-connected",
                "the subset is not connected: every tile must reach every other by steps up, down, left or right",
            ),
            (
                P1,
                &format!("subset A1 B1 C1; {FOUR}"),
                "subset-size",
                "the subset has 3 tiles: a subset has 4 to 8",
            ),
            (
                P1,
                &format!("subset A1 B1 C1 D1 A2 B2 C2 D2 A3; {FOUR}"),
                "subset-size",
                "the subset has 9 tiles: a subset has 4 to 8",
            ),
        ],
    );
    // The rulebook's example: A1 B1 C1 D1, then A1 B1 A2 B2 is refused.
    play(&mut g, P1, &format!("subset A1 B1 C1 D1; {FOUR}"));
    play(&mut g, P2, &p2_bluff());
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims T T T T");
    play(&mut g, P1, "pass");
    play(&mut g, P2, "pass");
    assert_eq!((g.round(), g.phase()), (2, Phase::Bluff));
    assert_refused(
        &g,
        &[(
            P1,
            &p1_bluff(),
            "subset-overlap",
            "the subset shares 2 tiles with your previous subset (A1 B1 C1 D1): a subset of 4 may share at most 1",
        )],
    );
    // One shared tile is fewer than half of four; what P2 did does not matter.
    play(&mut g, P1, &format!("subset A1 A2 B2 A3; {FOUR}"));
    play(
        &mut g,
        P2,
        &format!("subset C3 D3 C4 D4 B4; {FOUR}").replace("C3 D3 C4 D4 B4", "A4 B4 B3 A3"),
    );
}

#[test]
fn the_rulebooks_invalid_statements_are_refused_with_the_rule_they_break() {
    let g = new_game();
    let with = |s: &str| {
        format!(
            "subset A1 B1 A2 B2; {s}; There is a blue tile.; There is a green tile.; There is a yellow tile."
        )
    };
    let outside = with("There are four red tiles on the grid.");
    let leftmost = with("The leftmost tile is red.");
    let marcer = with("There are two red tiles, and I beat Marcer in arithmetic 3-1.");
    for (text, rule) in [
        (&outside, "outside-subset"),
        (&leftmost, "every-tile-matters"),
        (&marcer, "outside-game"),
    ] {
        let mut copy = g.clone();
        let action: Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = copy.play(P1, &action).unwrap_err();
        assert_eq!(e.rule(), rule, "{text}: {e}");
        assert!(e.to_string().starts_with("statement 1: "), "{e}");
        assert_eq!(copy, g);
    }
    // The rulebook's valid 2×2 example, on a subset where C2 lies in no
    // 2×2 square of the subset.
    let square = "There is a 2x2 square with one red tile.";
    let e = {
        let mut copy = g.clone();
        let a: Action = format!("subset A1 B1 A2 B2 C2; {FOUR}")
            .replace("There is a green tile.", square)
            .parse()
            .unwrap();
        copy.play(P1, &a).unwrap_err()
    };
    assert_eq!(
        (e.rule(), e.to_string().as_str()),
        (
            "two-by-two",
            "statement 3: C2 lies in no 2×2 square inside the subset"
        )
    );
    let mut valid = g.clone();
    play(
        &mut valid,
        P1,
        &p1_bluff().replace("There is a green tile.", square),
    );
}

#[test]
fn no_limit_lifts_the_subset_rules_for_one_round_once() {
    let mut g = new_game();
    let odd = "subset A1 C1 A3; There are two red tiles.; There is a blue tile.; There is a green tile.; There is a yellow tile.; nolimit";
    play(&mut g, P1, odd);
    play(&mut g, P2, &p2_bluff());
    let seen = view(&g, Viewer::Seat(P2));
    assert_eq!(seen["items"]["P1"], json!({"nolimit": 1}));
    assert_eq!(seen["rounds"][0]["sides"]["P1"]["nolimit"], true);
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims - - - -");
    play(&mut g, P1, "pass");
    play(&mut g, P2, "pass");
    assert_refused(
        &g,
        &[(
            P1,
            odd,
            "item-used",
            "you have used No Limit already: each item is used once",
        )],
    );
}

#[test]
fn smokescreen_hides_a_statement_which_cannot_be_claimed() {
    let mut g = new_game();
    play(&mut g, P1, &format!("{}; smokescreen 2", p1_bluff()));
    play(&mut g, P2, &p2_bluff());
    let p2 = view(&g, Viewer::Seat(P2));
    let s = &p2["rounds"][0]["sides"]["P1"];
    assert_eq!(s["smokescreen"], 2);
    assert_eq!(s["statements"][1]["text"], Value::Null);
    assert_eq!(s["statements"][0]["text"], "At least two tiles are red.");
    let p1 = view(&g, Viewer::Seat(P1));
    assert_eq!(
        p1["rounds"][0]["sides"]["P1"]["statements"][1]["text"],
        "At least one tile is blue."
    );
    assert_refused(
        &g,
        &[
            (
                P2,
                "claims T T T T",
                "smokescreened",
                "statement 2 of your opponent is smokescreened: write - for it",
            ),
            (
                P2,
                "detective 2",
                "smokescreened",
                "statement 2 of your opponent is smokescreened: write - for it",
            ),
        ],
    );
    play(&mut g, P2, "claims T - T T");
    play(&mut g, P1, "claims - - - -");
    // 3 own truths and 3 right claims.
    assert_eq!(g.rp(P2), 9);
}

#[test]
fn detective_tells_one_truth_at_once_which_then_earns_nothing() {
    let mut g = new_game();
    play(&mut g, P1, &p1_bluff());
    play(&mut g, P2, &p2_bluff());
    let before = view(&g, Viewer::Seat(P2));
    play(&mut g, P1, "detective 2");
    // The answer is in P1's view at once, in the claim phase, before the
    // claims are sealed.
    assert_eq!(g.phase(), Phase::Claim);
    let p1 = view(&g, Viewer::Seat(P1));
    let theirs = &p1["rounds"][0]["sides"]["P2"]["statements"];
    assert_eq!(theirs[1]["truth"], false);
    assert_eq!(theirs[0]["truth"], Value::Null);
    assert_eq!(p1["rounds"][0]["sides"]["P1"]["detective"], 2);
    assert!(
        p1["notebook"]
            .to_string()
            .contains("Detective: P2's statement 2 is false.")
    );
    // P2 sees nothing of it, now or once the claims are in.
    assert_eq!(view(&g, Viewer::Seat(P2)), before);
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims - - - -");
    // 3 own truths + 3 right claims; statement 2 earns nothing.
    assert_eq!(g.rp(P1), 9);
    let p2 = view(&g, Viewer::Seat(P2));
    assert_eq!(p2["rounds"][0]["sides"]["P1"]["detective"], Value::Null);
    assert_eq!(p2["items"]["P1"], json!({}));
    assert!(!p2.to_string().contains("Detective"), "{p2}");
    play(&mut g, P1, "pass");
    play(&mut g, P2, "pass");
    play(&mut g, P1, &format!("subset A3 B3 A4 B4; {FOUR}"));
    play(&mut g, P2, &format!("subset A1 B1 C1 D1; {FOUR}"));
    assert_refused(
        &g,
        &[(
            P1,
            "detective 1",
            "item-used",
            "you have used Detective already: each item is used once",
        )],
    );
}

/// Through a timed match, as the server sends it: after Detective the
/// asking seat's own view has the answer while the claims are still due,
/// and everything the other seat is sent (view, decisions, clocks, the
/// moment its picture of the clocks last changed) is as before.
#[test]
fn detective_leaves_no_trace_in_what_the_opponent_is_sent() {
    let game = erase::<FourStatements>();
    let config = serde_json::to_value(config()).unwrap();
    let mut m = Match::new(game, &config, 3, MatchOptions::default()).unwrap();
    m.submit(P1, &p1_bluff(), 1_000).unwrap();
    m.submit(P2, &p2_bluff(), 2_000).unwrap();
    let sent = |m: &Match, at: u64| {
        (
            m.view(Viewer::Seat(P2)),
            m.decision_for(Viewer::Seat(P2)),
            serde_json::to_value(m.clocks(Viewer::Seat(P2), at)).unwrap(),
            m.clock_basis(Viewer::Seat(P2)),
            m.last_event(Viewer::Seat(P2)),
        )
    };
    let before = sent(&m, 5_000);
    m.submit(P1, "detective 2", 4_000).unwrap();
    assert_eq!(sent(&m, 5_000), before);
    let own = m.view(Viewer::Seat(P1));
    assert_eq!(
        own["rounds"][0]["sides"]["P2"]["statements"][1]["truth"],
        false
    );
    assert_eq!(
        m.decision_for(Viewer::Seat(P1)).get(P1).map(|p| p.kind),
        Some("claim")
    );
    assert!(before.2.is_object(), "a timed match: {:?}", before.2);
    // The claims go in after the answer: P2 learns that P1 has claimed,
    // and once both are in, nothing says Detective was used.
    m.submit(P1, "claims T F T T", 6_000).unwrap();
    m.submit(P2, "claims - - - -", 7_000).unwrap();
    let after = m.view(Viewer::Seat(P2));
    assert_eq!(after["rounds"][0]["sides"]["P1"]["detective"], Value::Null);
    assert_eq!(after["items"]["P1"], json!({}));
}

#[test]
fn buying_costs_8_rp_a_cell_and_the_opponent_learns_only_how_many() {
    let mut g = at_reveal();
    assert_refused(
        &g,
        &[
            (
                P2,
                "buy A1 B1",
                "not-enough-rp",
                "you have 9 RP: buying 2 tiles costs 16",
            ),
            (P2, "buy A4", "already-known", "you already know A4"),
            (
                P1,
                "claims T T T T",
                "wrong-phase",
                "`claims T T T T` is not what this phase takes: `buy B3`, `guess RRBG YGBR BBRY GYRG`, `guess` (to take the guessing time) or `pass`",
            ),
        ],
    );
    play(&mut g, P2, "buy B3");
    // Nothing shows before the phase ends.
    let before = view(&g, Viewer::Seat(P1));
    assert_eq!(before["status"]["P2"], "deciding");
    play(&mut g, P1, "pass");
    assert_eq!(g.rp(P2), 1);
    let p2 = view(&g, Viewer::Seat(P2));
    assert_eq!(p2["known"]["P2"], ".........B..GYRG");
    let p1 = view(&g, Viewer::Seat(P1));
    assert_eq!(p1["rounds"][0]["sides"]["P2"]["bought"], 1);
    assert_eq!(p1["rounds"][0]["sides"]["P2"]["bought_cells"], Value::Null);
    assert!(!p1.to_string().contains("B3"), "{p1}");
    assert!(p1["notebook"].to_string().contains("P2 bought 1 tile."));
}

#[test]
fn a_wrong_guess_loses_all_rp_and_the_next_buy_and_the_opponent_cannot_tell() {
    let wrong = "guess RRRR RRRR RRRR RRRR";
    let mut guessed = at_reveal();
    let mut passed = at_reveal();
    play(&mut guessed, P1, wrong);
    play(&mut passed, P1, "pass");
    for g in [&mut guessed, &mut passed] {
        play(g, P2, "pass");
    }
    assert_eq!((guessed.rp(P1), passed.rp(P1)), (0, 11));
    assert_eq!(
        view(&guessed, Viewer::Seat(P2)),
        view(&passed, Viewer::Seat(P2))
    );
    assert_eq!(
        view(&guessed, Viewer::Spectator),
        view(&passed, Viewer::Spectator)
    );
    let p1 = view(&guessed, Viewer::Seat(P1));
    assert_eq!(p1["may_buy"]["P1"], false);
    assert_eq!(
        p1["rounds"][0]["sides"]["P1"]["guess"],
        "RRRRRRRRRRRRRRRR wrong"
    );
    // Round 2: earn some RP, then buying is refused for this round only.
    play(&mut guessed, P1, &format!("subset A3 B3 A4 B4; {FOUR}"));
    play(&mut guessed, P2, &format!("subset A1 B1 C1 D1; {FOUR}"));
    play(&mut guessed, P1, "claims T T T T");
    play(&mut guessed, P2, "claims - - - -");
    assert!(guessed.rp(P1) >= 8);
    assert_refused(
        &guessed,
        &[(
            P1,
            "buy C2",
            "no-buying",
            "you guessed wrong last round: no buying this round",
        )],
    );
    play(&mut guessed, P1, "pass");
    play(&mut guessed, P2, "pass");
    assert_eq!(view(&guessed, Viewer::Seat(P1))["may_buy"]["P1"], true);
}

#[test]
fn a_right_guess_wins_and_both_right_goes_to_more_rp_then_the_earlier_guess() {
    let right = format!("guess {LAYOUT}");
    let mut g = at_reveal();
    play(&mut g, P2, &right);
    play(&mut g, P1, "pass");
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.decided_by.as_str()), (Some(P2), "guess"));
    assert!(
        o.reason.starts_with("P2 guessed the whole grid"),
        "{}",
        o.reason
    );
    // Everyone sees everything at the end.
    assert_eq!(view(&g, Viewer::Spectator)["layout"], "RRBGYGBRBBRYGYRG");
    assert_eq!(
        view(&g, Viewer::Spectator)["rp"],
        json!({"P1": 11, "P2": 9})
    );

    // Both right: P1 has more RP (11 to 9), though P2 sent first.
    let mut g = at_reveal();
    play(&mut g, P2, &right);
    play(&mut g, P1, &right);
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.decided_by.as_str()), (Some(P1), "more RP"));
    assert!(
        o.reason.contains("P1 has more RP (11 to 9)"),
        "{}",
        o.reason
    );

    // Equal RP: the earlier guess wins, whoever took the guessing time.
    let mut g = new_game();
    play(&mut g, P1, &p1_bluff());
    play(&mut g, P2, &p2_bluff());
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims T F T T");
    assert_eq!(g.rp(P1), g.rp(P2));
    play(&mut g, P1, "guess");
    play(&mut g, P2, &right);
    play(&mut g, P1, &right);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.decided_by.as_str()),
        (Some(P2), "earlier guess")
    );
}

#[test]
fn the_round_limit_ends_a_match_as_a_draw() {
    let mut g = FourStatements::new(
        &Config {
            max_rounds: Some(1),
            ..config()
        },
        0,
    )
    .unwrap();
    play(&mut g, P1, &p1_bluff());
    play(&mut g, P2, &p2_bluff());
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims T T T T");
    play(&mut g, P1, "pass");
    play(&mut g, P2, "guess RRRR RRRR RRRR RRRR");
    let o = g.outcome().unwrap();
    assert_eq!((o.winner, o.decided_by.as_str()), (None, "round limit"));
}

#[test]
fn bad_claims_and_guesses_are_refused_saying_what_was_wrong() {
    let mut g = new_game();
    play(&mut g, P1, &p1_bluff());
    play(&mut g, P2, &p2_bluff());
    assert_refused(
        &g,
        &[
            (
                P1,
                "claims T F",
                "notation",
                "2 claims: claim each of the four statements, T, F or -, like `claims T F T -`",
            ),
            (
                P1,
                "claims T F X T",
                "notation",
                "`x` is not a claim: write T, F or - for each statement",
            ),
            (
                P1,
                "detective 7",
                "notation",
                "`detective` takes a statement number, 1 to 4, like `detective 2`",
            ),
            (
                P1,
                "claims T F T T; detective 3",
                "notation",
                "Detective is asked on its own, before the claims: send `detective 3`, then your claims",
            ),
            (
                P1,
                "pass",
                "wrong-phase",
                "`pass` is not what this phase takes: claims on your opponent's statements, like `claims T F T -` (`detective 3` first asks Detective)",
            ),
        ],
    );
    play(&mut g, P1, "claims T F T T");
    play(&mut g, P2, "claims T F T T");
    assert_refused(
        &g,
        &[
            (
                P1,
                "guess RRBG YGBR",
                "notation",
                "8 colours: a layout names each of the 16 cells, A1…D1 then A2…D4",
            ),
            (
                P1,
                "guess RRBG YGBR BBRY GYRX",
                "notation",
                "`X` is not a colour: a layout is 16 letters of R, B, G and Y",
            ),
            (
                P1,
                "buy Z9",
                "notation",
                "Z9 is off the board (columns A–D, rows 1–4)",
            ),
        ],
    );
    play(&mut g, P1, "guess");
    assert_refused(
        &g,
        &[(
            P1,
            "buy C2",
            "guessing",
            "you are guessing: send the grid with `guess RRBG YGBR BBRY GYRG`, or `pass`",
        )],
    );
}

// ---- time ----

fn timed(config: &Config) -> Match {
    timed_match::<FourStatements>(&serde_json::to_value(config).unwrap(), 0)
}

#[test]
fn the_reserve_covers_bluff_and_claim_overruns_and_running_out_loses() {
    let mut m = timed(&config());
    // 3 minutes plus the 5-minute reserve.
    assert_eq!(m.next_deadline(), Some(180_000 + 300_000));
    m.submit(P2, &p2_bluff(), 10_000).unwrap();
    m.submit(P1, &p1_bluff(), 200_000).unwrap();
    // P1 used 20 s of its reserve: claims get 90 s plus the 280 s left.
    let clocks = m.clocks(Viewer::Spectator, 200_000).unwrap();
    assert_eq!(clocks[P1].bank_ms, 280_000);
    assert_eq!(clocks[P2].bank_ms, 300_000);
    let flagged = m.advance(200_000 + 90_000 + 280_000 + 2_000);
    assert!(flagged.iter().any(|e| e.seat == P1));
    let o = m.outcome().unwrap();
    assert_eq!(o.winner, Some(P2));
}

#[test]
fn the_reveal_phase_is_30_seconds_or_180_to_guess_outside_the_reserve() {
    let mut m = timed(&config());
    m.submit(P1, &p1_bluff(), 1_000).unwrap();
    m.submit(P2, &p2_bluff(), 1_000).unwrap();
    m.submit(P1, "claims T F T T", 2_000).unwrap();
    m.submit(P2, "claims T T T T", 2_000).unwrap();
    // P1 takes the guessing time: 150 s more from then.
    m.submit(P1, "guess", 10_000).unwrap();
    // Everyone else is shown 180 s for each seat.
    let seen = m.clocks(Viewer::Seat(P2), 10_000).unwrap();
    assert_eq!(seen[P1].turn_ms, 180_000 - 8_000);
    // P2 does nothing: after 30 s nothing happens, and no reserve is used.
    let flagged = m.advance(33_000);
    assert_eq!(flagged.len(), 1);
    assert_eq!(
        flagged[0].effect.as_deref(),
        Some("no reveal action: nothing happens")
    );
    assert!(m.outcome().is_none());
    m.submit(P1, &format!("guess {LAYOUT}"), 150_000).unwrap();
    assert_eq!(m.outcome().unwrap().winner, Some(P1));
    let replayed = Match::replay(erase::<FourStatements>(), m.record()).unwrap();
    assert_eq!(replayed.view(Viewer::Umpire), m.view(Viewer::Umpire));
}

#[test]
fn bad_configs_are_refused_with_a_clear_reason() {
    for (config, message) in [
        (
            json!({"layout": "RRBG"}),
            "four-statements: layout: 4 colours: a layout names each of the 16 cells, A1…D1 then A2…D4",
        ),
        (
            json!({"known_p1": "A1 B1"}),
            "four-statements: known_p1 names 2 cells; each seat is dealt 4",
        ),
        (
            json!({"known_p1": "A1 B1 C1 D1", "known_p2": "D1 A2 B2 C2"}),
            "four-statements: known_p1 and known_p2 share cells; the seats' cells are disjoint",
        ),
        (
            json!({"max_rounds": 0}),
            "four-statements: max_rounds is 0; it takes a whole number from 1 to 1000, or null for none",
        ),
    ] {
        let e = Match::new(
            erase::<FourStatements>(),
            &config,
            0,
            MatchOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), format!("bad config: {message}"));
    }
}

// ---- secrets ----

/// A seat's views are identical for two grids that agree on everything
/// the seat may know: the same actions replayed on another grid drawn from
/// the seat's knowledge show the seat the same match.
#[test]
fn a_seats_views_do_not_depend_on_what_it_cannot_know() {
    let mut compared = 0;
    for seed in 0..40 {
        let config = Config {
            max_rounds: Some(3),
            ..Config::default()
        };
        let mut g = FourStatements::new(&config, seed).unwrap();
        let mut rng = seeded_rng(seed);
        let mut actions = Vec::new();
        let stop = 3 + seed as usize % 12;
        while actions.len() < stop {
            let Some(seat) = g.decision().seats().iter().next() else {
                break;
            };
            let a = g.sample_action(seat, &mut rng).unwrap();
            g.play(seat, &a).unwrap();
            actions.push((seat, a));
        }
        for seat in Seat::BOTH {
            let seen = g.view(Viewer::Seat(seat));
            let k = knowledge::from_view(seat, &seen);
            let other = deduce::sample(&k, &mut rng).expect("the real grid is possible");
            let twin_config = Config {
                layout: other.to_string(),
                known_p1: first_cells(&g, P1),
                known_p2: first_cells(&g, P2),
                ..config.clone()
            };
            let mut twin = FourStatements::new(&twin_config, seed).unwrap();
            // The opponent may not afford on the other grid what it bought
            // on the real one: such a replay is no comparison.
            if actions.iter().all(|(s, a)| twin.play(*s, a).is_ok()) {
                assert_eq!(
                    serde_json::to_value(twin.view(Viewer::Seat(seat))).unwrap(),
                    serde_json::to_value(&seen).unwrap(),
                    "seed {seed}, {seat}: grids {} and {other}",
                    g.layout()
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 50, "only {compared} comparisons");
}

/// The cells `seat` was dealt in `g`.
fn first_cells(g: &FourStatements, seat: Seat) -> String {
    umpire_four_statements::view::dealt(&g.view(Viewer::Umpire), seat)
        .unwrap()
        .to_string()
}

/// No Limit allows the whole grid as a subset. Facts over more than 10
/// tiles are left out of the count (a table of 4^16 colourings would not
/// fit), but a state drawn from the seat's view still agrees with what it
/// was told.
#[test]
fn a_whole_grid_subset_is_judged_and_drawn_from_without_counting_it() {
    let mut g = FourStatements::new(
        &Config {
            aids: true,
            ..config()
        },
        0,
    )
    .unwrap();
    let all = "A1 B1 C1 D1 A2 B2 C2 D2 A3 B3 C3 D3 A4 B4 C4 D4";
    play(
        &mut g,
        P1,
        &format!(
            "subset {all}; At least five tiles are red.; Exactly four tiles are green.; At most three tiles are yellow.; More tiles are blue than yellow.; nolimit"
        ),
    );
    play(&mut g, P2, &p2_bluff());
    let seen = g.view(Viewer::Seat(P1));
    assert_eq!(
        seen.possible,
        Some(4u64.pow(12)),
        "the wide fact is not counted"
    );
    let truths: Vec<Option<bool>> = seen.rounds[0].sides[P1]
        .as_ref()
        .unwrap()
        .statements
        .iter()
        .map(|s| s.truth)
        .collect();
    assert_eq!(truths, [Some(true), Some(true), Some(true), Some(true)]);
    let mut rng = seeded_rng(1);
    for _ in 0..20 {
        let drawn = FourStatements::sample(Viewer::Seat(P1), &seen, &Default::default(), &mut rng);
        assert_eq!(
            serde_json::to_value(drawn.view(Viewer::Seat(P1))).unwrap(),
            serde_json::to_value(&seen).unwrap()
        );
    }
}

/// A bluff is recorded in the players' own words with the umpire's
/// reading in brackets, replays from the record, and a reading that is not
/// the umpire's is refused.
#[test]
fn a_bluff_is_recorded_in_the_players_words_with_its_reading() {
    let mut m = timed(&config());
    let typed = "subset A1 B1 A2 B2; There are two red tiles.; There's a blue one.; \
                 A red tile is next to a green one.; Yellow appears.";
    let entry = m.submit(P1, typed, 1_000).unwrap();
    assert_eq!(
        entry.action,
        "subset A1 B1 A2 B2; There are two red tiles. [At least two tiles are red.]; \
         There's a blue one. [At least one tile is blue.]; \
         A red tile is next to a green one. [A red tile is adjacent to a green tile.]; \
         Yellow appears. [At least one tile is yellow.]"
    );
    m.submit(P2, &p2_bluff(), 1_000).unwrap();
    let replayed = Match::replay(erase::<FourStatements>(), m.record()).unwrap();
    assert_eq!(replayed.view(Viewer::Umpire), m.view(Viewer::Umpire));
    let p2 = m.view(Viewer::Seat(P2));
    let said = &p2["rounds"][0]["sides"]["P1"]["statements"][2];
    assert_eq!(said["said"], "A red tile is next to a green one.");
    assert_eq!(said["text"], "A red tile is adjacent to a green tile.");
    let wrong = "subset A1 B1 A2 B2; There are two red tiles. [Exactly two tiles are red.]; \
                 There is a blue tile.; There is a green tile.; There is a yellow tile.";
    let e = wrong.parse::<Action>().unwrap_err();
    assert!(e.message().contains("is not how the umpire reads"), "{e}");
    assert_eq!(
        e.suggestion(),
        Some("There are two red tiles. [At least two tiles are red.]")
    );
}

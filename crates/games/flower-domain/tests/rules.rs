//! Flower Domain's rules, through the typed API and the erased text layer.

use serde_json::json;
use umpire_core::conformance::assert_refused;
use umpire_core::conformance::{time_out_to_the_end, timed_match};
use umpire_core::{Game, Match, MatchOptions, Seat, Viewer, erase, seeded_rng};
use umpire_flower_domain::{
    ByColour, Colour, Config, FirstMove, FlowerDomain, Phase, View, compare,
};

mod common;

/// `RYGB` repeated, with C2 and J10 swapped so that A1 B1 C1 C2 hold red,
/// yellow, green and blue (and B2, C2 are two blues side by side):
///
/// ```text
///    A B C D E F G H I J
///  1 R Y G B R Y G B R Y
///  2 G B B Y G B R Y G B
///  3 R Y G B R Y G B R Y
///  4 G B R Y G B R Y G B
///  …
/// 10 G B R Y G B R Y G R
/// ```
fn meadow() -> String {
    let mut m: Vec<char> = "RYGB".repeat(25).chars().collect();
    m.swap(12, 99);
    m.into_iter().collect()
}

fn config(first_move: FirstMove) -> serde_json::Value {
    json!({"meadow": meadow(), "first_move": first_move})
}

fn new_match(first_move: FirstMove) -> Match {
    Match::new(
        erase::<FlowerDomain>(),
        &config(first_move),
        0,
        MatchOptions::untimed(),
    )
    .unwrap()
}

fn submit(m: &mut Match, seat: Seat, text: &str) {
    m.submit(seat, text, 0)
        .unwrap_or_else(|e| panic!("{seat} `{text}`: {e}"));
}

/// Study, `first P1`, and the draft: P1 red (then blue, given), P2 yellow
/// and green. Red (P1) is to move.
fn drafted(first_move: FirstMove) -> Match {
    let mut m = new_match(first_move);
    // The shared draft up to red, then yellow instead of blue.
    let draft = common::DRAFT[..4].iter().copied();
    for (seat, text) in draft.chain([(Seat::P2, "yellow"), (Seat::P2, "green")]) {
        submit(&mut m, seat, text);
    }
    m
}

/// After red's amended first move (E3-H3 into D5-G5) and P2's pass: P1 to move.
fn midgame() -> Match {
    let mut m = drafted(FirstMove::Amended);
    submit(&mut m, Seat::P1, "E3-F3-G3-H3 to D5-E5-F5-G5");
    submit(&mut m, Seat::P2, "pass");
    m
}

fn state(m: &Match) -> FlowerDomain {
    m.state().downcast::<FlowerDomain>().unwrap().clone()
}

#[test]
fn the_study_ends_when_both_are_ready_then_the_advantage_names_the_first_drafter() {
    let mut m = Match::new(
        erase::<FlowerDomain>(),
        &json!({"advantage": "P2"}),
        3,
        MatchOptions::untimed(),
    )
    .unwrap();
    assert_eq!(m.decision().kind(Seat::P1), Some("study"));
    assert_eq!(m.decision().kind(Seat::P2), Some("study"));
    submit(&mut m, Seat::P2, "ready");
    assert_eq!(m.decision().kind(Seat::P2), None);
    assert_eq!(
        m.view(Viewer::Seat(Seat::P1))["ready"],
        json!({"P1": false, "P2": true})
    );
    submit(&mut m, Seat::P1, "ready");
    assert_eq!(m.decision().kind(Seat::P2), Some("first"));
    submit(&mut m, Seat::P2, "first P1");
    // A B B A: P1, P2, P2, then the last colour goes to P1.
    let draft = |m: &Match| m.decision().seats().iter().next().unwrap();
    assert_eq!(draft(&m), Seat::P1);
    submit(&mut m, Seat::P1, "blue");
    assert_eq!(draft(&m), Seat::P2);
    let step = m.decision().get(Seat::P2).unwrap().step;
    submit(&mut m, Seat::P2, "red");
    assert_eq!(draft(&m), Seat::P2);
    assert_ne!(m.decision().get(Seat::P2).unwrap().step, step);
    submit(&mut m, Seat::P2, "green");
    let owners = state(&m).view(Viewer::Spectator).owners;
    assert_eq!(
        owners,
        ByColour {
            red: Some(Seat::P2),
            yellow: Some(Seat::P1),
            green: Some(Seat::P2),
            blue: Some(Seat::P1),
        }
    );
    // Red's controller moves first.
    assert_eq!(m.decision().kind(Seat::P2), Some("move"));
}

#[test]
fn each_of_the_eight_symmetries_is_accepted() {
    let m = midgame();
    // The L of A1 B1 C1 C2 (red, yellow, green, blue) turned and flipped.
    let l = [(0, 0), (1, 0), (2, 0), (2, 1)];
    let mut gardens = std::collections::HashSet::new();
    for [a, b, c, d] in common::TURNS {
        let moved: Vec<(i32, i32)> = l
            .iter()
            .map(|&(x, y)| (a * x + b * y, c * x + d * y))
            .collect();
        let (mx, my) = (
            moved.iter().map(|p| p.0).min().unwrap(),
            moved.iter().map(|p| p.1).min().unwrap(),
        );
        let to: Vec<String> = moved
            .iter()
            .map(|&(x, y)| format!("{}{}", (b'B' + (x - mx) as u8) as char, 7 + y - my))
            .collect();
        let text = format!("A1-B1-C1-C2 to {}", to.join("-"));
        let mut copy = m.clone();
        submit(&mut copy, Seat::P1, &text);
        let s = state(&copy);
        assert_eq!(s.meadow().occupied().count_ones(), 100 - 8, "{text}");
        gardens.insert(s.view(Viewer::Spectator).garden);
    }
    assert_eq!(gardens.len(), 8, "eight different gardens");
    // The rulings' own example.
    let mut copy = m.clone();
    submit(&mut copy, Seat::P1, "A1-B1-C1-C2 to B3-B2-B1-A1");
    assert_eq!(
        state(&copy).view(Viewer::Spectator).garden[..3],
        ["BG........", ".Y........", ".R........"]
    );
}

/// Every kind of illegal entry, as text through the erased layer: the rule
/// and reason are given and the state is unchanged.
#[test]
fn illegal_actions_are_refused_with_their_rule() {
    let mut m = new_match(FirstMove::Amended);
    assert_refused(
        &mut m,
        &[
            (
                Seat::P1,
                "A1-B1 to E5-F5",
                "study-period",
                "the meadow is being studied: the only action now is `ready`",
            ),
            (
                Seat::P1,
                "first P1",
                "study-period",
                "the meadow is being studied: the only action now is `ready`",
            ),
        ],
    );
    submit(&mut m, Seat::P1, "ready");
    assert_refused(
        &mut m,
        &[(
            Seat::P1,
            "ready",
            "already-submitted",
            "P1 has already submitted for this round",
        )],
    );
    submit(&mut m, Seat::P2, "ready");
    assert_refused(
        &mut m,
        &[
            (
                Seat::P2,
                "first P2",
                "not-your-turn",
                "it is not P2's turn: waiting for P1",
            ),
            (
                Seat::P1,
                "red",
                "choose-first",
                "the advantage seat must first name who drafts first (`first P1` or `first P2`)",
            ),
        ],
    );
    submit(&mut m, Seat::P1, "first P2");
    submit(&mut m, Seat::P2, "red");
    assert_refused(
        &mut m,
        &[
            (Seat::P1, "red", "colour-taken", "red is already taken"),
            (
                Seat::P1,
                "pass",
                "draft-colour",
                "the colours are being drafted: pick yellow, green, blue",
            ),
        ],
    );
    let mut m = midgame();
    let over = |m: &mut Match| {
        assert_refused(
            m,
            &[
                (
                    Seat::P1,
                    "A1 to A8",
                    "flower-count",
                    "a move takes 2 to 4 flowers, not 1",
                ),
                (
                    Seat::P1,
                    "A1-B1-C1-D1-E1 to A8-B8-C8-D8-E8",
                    "flower-count",
                    "a move takes 2 to 4 flowers, not 5",
                ),
            ],
        )
    };
    over(&mut m);
    assert_refused(
        &mut m,
        &[
            (
                Seat::P1,
                "A1-B1-C1-C2 to B7-A7-C7-C8",
                "not-congruent",
                "B7-A7-C7-C8 is not A1-B1-C1-C2 turned or flipped: the n-th meadow flower goes to the n-th garden cell, and a move keeps its shape",
            ),
            (
                Seat::P1,
                "B2-C2 to A8-B8",
                "same-colour",
                "B2 and C2 are both blue: the flowers of a move must all differ in colour",
            ),
            (
                Seat::P1,
                "A1-C1 to A8-C8",
                "not-connected",
                "the flowers on A1-C1 are not orthogonally connected",
            ),
            (
                Seat::P1,
                "A1-B1 to D5-D6",
                "occupied",
                "garden cell D5 already holds a flower",
            ),
            (
                Seat::P1,
                "A1-B1 to J8-K8",
                "off-board",
                "K8 is off the board (columns A–J, rows 1–10)",
            ),
            (
                Seat::P1,
                "A1-A2 to A10-A11",
                "off-board",
                "A11 is off the board (columns A–J, rows 1–10)",
            ),
            (
                Seat::P1,
                "A1-B1 to A8-A8",
                "cell-twice",
                "A8 is named twice in the garden: each flower and each garden cell once",
            ),
            (
                Seat::P1,
                "A1-A1 to A8-B8",
                "cell-twice",
                "A1 is named twice in the meadow: each flower and each garden cell once",
            ),
            (
                Seat::P1,
                "E3-E4 to A8-A9",
                "no-flower",
                "the meadow has no flower on E3",
            ),
            (
                Seat::P1,
                "ready",
                "in-play",
                "the draft is over: move flowers (like `A1-B1 to C3-C4`) or `pass`",
            ),
            (
                Seat::P1,
                "blue",
                "in-play",
                "the draft is over: move flowers (like `A1-B1 to C3-C4`) or `pass`",
            ),
            (
                Seat::P2,
                "A1-B1 to A8-B8",
                "not-your-turn",
                "it is not P2's turn: waiting for P1",
            ),
            (
                Seat::P1,
                "A1-B1 to A8",
                "notation",
                "2 meadow cells but 1 garden cells: name one garden cell for each flower",
            ),
            (
                Seat::P1,
                "plant roses",
                "notation",
                "`plant roses` is not an action",
            ),
            (
                Seat::P1,
                "timeout",
                "notation",
                "`timeout` is for the clock to say",
            ),
        ],
    );
}

#[test]
fn the_amended_first_move_takes_four_flowers_covering_the_centre() {
    let mut m = drafted(FirstMove::Amended);
    assert_refused(
        &mut m,
        &[
            (
                Seat::P1,
                "A1-B1 to E5-F5",
                "first-move",
                "the first move of the game takes exactly four flowers, not 2",
            ),
            (
                Seat::P1,
                "A1-B1-C1-C2 to A8-B8-C8-C9",
                "first-move",
                "the first move of the game must cover E5, F5, E6 or F6 in the garden",
            ),
        ],
    );
    assert_eq!(
        state(&m).view(Viewer::Spectator).restriction,
        Some(FirstMove::Amended)
    );
    // Touching the centre with one flower is enough; then any size goes.
    submit(&mut m, Seat::P1, "A1-B1-C1-C2 to C4-D4-E4-E5");
    submit(&mut m, Seat::P2, "A2-B2 to A9-A10");
    assert_eq!(state(&m).view(Viewer::Spectator).restriction, None);
}

#[test]
fn a_pass_first_leaves_the_first_move_rule_for_the_first_placement() {
    let mut m = drafted(FirstMove::Amended);
    submit(&mut m, Seat::P1, "pass");
    assert_refused(
        &mut m,
        &[(
            Seat::P2,
            "A2-B2 to A9-A10",
            "first-move",
            "the first move of the game takes exactly four flowers, not 2",
        )],
    );
    submit(&mut m, Seat::P2, "A1-B1-C1-C2 to E5-F5-G5-G6");
}

#[test]
fn the_original_first_move_takes_exactly_two_flowers_anywhere() {
    let mut m = drafted(FirstMove::Original);
    assert_refused(
        &mut m,
        &[(
            Seat::P1,
            "A1-B1-C1-C2 to E5-F5-G5-G6",
            "first-move",
            "the first move of the game takes exactly two flowers, not 4",
        )],
    );
    submit(&mut m, Seat::P1, "A1-B1 to J9-J10");
    submit(&mut m, Seat::P2, "C1-C2-D2 to A1-A2-B2");
}

#[test]
fn three_passes_do_not_end_the_game_and_four_do() {
    let mut m = drafted(FirstMove::Amended);
    for (seat, text) in [
        (Seat::P1, "pass"),
        (Seat::P2, "pass"),
        (Seat::P1, "A1-B1-C1-C2 to E5-F5-G5-G6"),
        (Seat::P2, "pass"),
        (Seat::P1, "pass"),
        (Seat::P2, "pass"),
    ] {
        submit(&mut m, seat, text);
    }
    assert!(!m.is_over(), "a move in between starts the count again");
    assert_eq!(state(&m).passes(), 3);
    submit(&mut m, Seat::P1, "pass");
    assert!(m.is_over());
    // One flower of each colour: 2 to 2 at every depth, and P1 holds blue.
    let outcome = m.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Seat::P1));
    assert_eq!(outcome.decided_by, "blue");
    assert_refused(
        &mut m,
        &[(Seat::P2, "pass", "game-over", "the game is over")],
    );
}

/// A finished game on a hand-made garden.
fn finished(garden: [&str; 10], owners: ByColour<Seat>) -> FlowerDomain {
    let start = FlowerDomain::new(&Config::default(), 0).unwrap();
    let view = View {
        phase: Phase::Over,
        garden: garden.map(String::from).to_vec(),
        meadow: vec![".".repeat(100)],
        owners: ByColour {
            red: Some(owners.red),
            yellow: Some(owners.yellow),
            green: Some(owners.green),
            blue: Some(owners.blue),
        },
        first_drafter: Some(Seat::P1),
        picks: vec![Colour::Red, Colour::Yellow, Colour::Green],
        ready: umpire_core::PerSeat::new(true, true),
        passes: 4,
        ..start.view(Viewer::Spectator)
    };
    FlowerDomain::from_view(&view).unwrap()
}

const P1_RED_BLUE: ByColour<Seat> = ByColour {
    red: Seat::P1,
    yellow: Seat::P2,
    green: Seat::P2,
    blue: Seat::P1,
};

#[test]
fn the_largest_region_of_each_colour_scores() {
    let s = finished(
        [
            "RRRRR.....",
            "..........",
            "YYYY......",
            "..........",
            "GG........",
            "......BB..",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
        P1_RED_BLUE,
    );
    let o = s.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::P1));
    assert_eq!(o.decided_by, "largest regions");
    assert_eq!((o.scores.p1, o.scores.p2), (7, 6));
    assert_eq!(
        o.reason,
        "P1's largest regions make 7 to P2's 6: \
         P1's red 5, blue 2 against P2's yellow 4, green 2"
    );
}

#[test]
fn ties_add_the_second_then_the_third_largest_regions() {
    // 4 + 2 against 3 + 3; then 1 + 1 against 1 + 0: P1 by the second.
    let o = finished(
        [
            "RRRR.R....",
            "..........",
            "BB........",
            "..........",
            "YYY.Y.....",
            "..........",
            "GGG.......",
            "..........",
            "B.........",
            "..........",
        ],
        P1_RED_BLUE,
    )
    .outcome()
    .unwrap();
    assert_eq!(o.decided_by, "second-largest regions");
    assert_eq!(o.winner, Some(Seat::P1));
    assert_eq!((o.scores.p1, o.scores.p2), (8, 7));
    assert!(
        o.reason.starts_with(
            "tied on the largest regions, P1 leads 8 to 7 with the second-largest regions added: \
             P1's red 4 and 1, blue 2 and 1"
        ),
        "{}",
        o.reason
    );
    // Equal largest and second-largest; the third decides for P2.
    let o = finished(
        [
            "RR.R......",
            "..........",
            "YY.Y.Y....",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
        P1_RED_BLUE,
    )
    .outcome()
    .unwrap();
    assert_eq!(o.decided_by, "third-largest regions");
    assert_eq!(o.winner, Some(Seat::P2));
    assert_eq!((o.scores.p1, o.scores.p2), (3, 4));
}

#[test]
fn a_tie_that_never_resolves_goes_to_blue() {
    let garden = [
        "RR.YY.....",
        "..........",
        "G.B.......",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
    ];
    for blue in Seat::BOTH {
        let owners = ByColour {
            red: Seat::P1,
            yellow: Seat::P2,
            green: blue.other(),
            blue,
        };
        let o = finished(garden, owners).outcome().unwrap();
        assert_eq!(o.winner, Some(blue));
        assert_eq!(o.decided_by, "blue");
        let reason = &o.reason;
        assert!(
            reason.starts_with("tied 3 to 3 with every region counted: "),
            "{reason}"
        );
    }
    // An empty garden too: nothing ever breaks the tie.
    let sizes = ByColour::<Vec<u32>>::default();
    assert_eq!(compare(&sizes, &P1_RED_BLUE).0, Seat::P1);
}

#[test]
fn everything_is_public_and_a_view_rebuilds_the_exact_state() {
    let m = midgame();
    let s = state(&m);
    let view = s.view(Viewer::Umpire);
    for viewer in Viewer::ALL {
        assert_eq!(s.view(viewer), view, "{viewer}");
    }
    assert_eq!(view.garden[4], "...RYGB...");
    assert_eq!(view.meadow[2], "RYGB....RY");
    assert_eq!(view.score, umpire_core::PerSeat::new(2, 2));
    assert_eq!(view.last.as_ref().unwrap().action, "pass");
    let text = serde_json::to_string(&view).unwrap();
    let back: View = serde_json::from_str(&text).unwrap();
    let sample = FlowerDomain::sample(Viewer::Seat(Seat::P2), &back, &(), &mut seeded_rng(1));
    assert_eq!(sample, s);
}

#[test]
fn a_timeout_is_a_pass_and_four_end_the_game() {
    let mut m = timed_match::<FlowerDomain>(&json!({}), 0);
    // Nobody does anything: the study ends after 3 minutes, the advantage
    // seat drafts first, picks go to the first free colours, and every
    // turn is passed.
    let effects = time_out_to_the_end(&mut m);
    assert_eq!(
        effects,
        [
            "P1 ready (study time is up)",
            "P2 ready (study time is up)",
            "P1 P1 drafts first (no choice in time)",
            "P1 took red (no pick in time)",
            "P2 took yellow (no pick in time)",
            "P2 took green (no pick in time)",
            "P1 passed",
            "P2 passed",
            "P1 passed",
            "P2 passed",
        ]
    );
    let o = m.outcome().unwrap();
    assert_eq!((o.winner, o.decided_by.as_str()), (Some(Seat::P1), "blue"));
    assert!(Match::replay(erase::<FlowerDomain>(), m.record()).is_ok());
}

#[test]
fn clocks_give_3_minutes_to_study_then_90_s_a_turn_and_a_5_minute_reserve() {
    let mut timed = timed_match::<FlowerDomain>(&config(FirstMove::Amended), 0);
    assert_eq!(timed.next_deadline(), Some(180_000));
    for (seat, text) in common::draft("red", ["yellow", "green"]) {
        timed.submit(seat, text, 1_000).unwrap();
    }
    assert_eq!(timed.next_deadline(), Some(1_000 + 90_000 + 300_000));
    // Red takes 2 minutes: 30 s come out of the reserve.
    timed
        .submit(Seat::P1, "A1-B1-C1-C2 to E5-F5-G5-G6", 121_000)
        .unwrap();
    let clocks = timed.clocks(Viewer::Spectator, 121_000).unwrap();
    assert_eq!(clocks.p1.bank_ms, 270_000);
}

#[test]
fn bad_configs_are_refused_with_the_reason() {
    let cases = [
        (
            json!({"meadow": "RYGB"}),
            "flower-domain: bad meadow: it has 4 letters, not 100 (ten rows of ten, A1…J1 first)",
        ),
        (
            json!({"meadow": "RYGX".repeat(25)}),
            "flower-domain: bad meadow: `X` at D1 is not a flower: use R, Y, G or B",
        ),
        (
            json!({"meadow": "RRGB".repeat(25)}),
            "flower-domain: bad meadow: it needs 25 flowers of each colour, not 50 red, 0 yellow, 25 green, 25 blue",
        ),
        (
            json!({"first_move": "sideways"}),
            "flower-domain: unknown variant",
        ),
        (json!({"advantage": "P3"}), "flower-domain: unknown variant"),
        (json!({"colour": 1}), "flower-domain: unknown field"),
    ];
    for (config, message) in cases {
        let e =
            Match::new(erase::<FlowerDomain>(), &config, 0, MatchOptions::default()).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!("bad config: {message}")),
            "{e}"
        );
    }
    // Whitespace and case are forgiven; an empty meadow means the seed's.
    let rows: Vec<String> = meadow()
        .to_lowercase()
        .as_bytes()
        .chunks(10)
        .map(|r| String::from_utf8(r.to_vec()).unwrap())
        .collect();
    let m = timed_match::<FlowerDomain>(&json!({"meadow": rows.join("\n")}), 0);
    assert_eq!(m.view(Viewer::Spectator)["meadow"][1], "GBBYGBRYGB");
    assert!(
        Match::new(
            erase::<FlowerDomain>(),
            &json!({"meadow": ""}),
            0,
            MatchOptions::default()
        )
        .is_ok()
    );
}

/// The fourth colour is given, and a record may also write it out: the
/// forced pick by the seat it went to, before the first move, is accepted
/// (out of turn too) and changes nothing.
#[test]
fn the_forced_fourth_pick_may_be_written_or_left_out() {
    // P1 drafts first and controls red: it moves first and writes its pick.
    let mut written = drafted(FirstMove::Amended);
    let before = state(&written);
    submit(&mut written, Seat::P1, "Blue");
    assert_eq!(state(&written), before);
    assert_eq!(written.record().actions.last().unwrap().action, "blue");
    // Another colour, or another seat, is refused by the rule it breaks.
    assert_refused(
        &mut written,
        &[
            (
                Seat::P1,
                "green",
                "in-play",
                "the draft is over: move flowers (like `A1-B1 to C3-C4`) or `pass`",
            ),
            (
                Seat::P2,
                "blue",
                "not-your-turn",
                "it is not P2's turn: waiting for P1",
            ),
        ],
    );
    submit(&mut written, Seat::P1, "E3-F3-G3-H3 to D5-E5-F5-G5");
    assert_eq!(
        state(&written),
        state(&{
            let mut m = drafted(FirstMove::Amended);
            submit(&mut m, Seat::P1, "E3-F3-G3-H3 to D5-E5-F5-G5");
            m
        })
    );
    // After the first move the pick is no longer accepted.
    assert_refused(
        &mut written,
        &[(
            Seat::P1,
            "blue",
            "not-your-turn",
            "it is not P1's turn: waiting for P2",
        )],
    );

    // P1 drafts first and P2 takes red: P1 writes its pick out of turn.
    let mut m = new_match(FirstMove::Amended);
    let yellow = (Seat::P1, "yellow");
    for (seat, text) in common::draft("blue", ["red", "green"])
        .into_iter()
        .chain([yellow])
    {
        submit(&mut m, seat, text);
    }
    assert_eq!(m.decision().kind(Seat::P2), Some("move"));
    assert_eq!(state(&m).owner(Colour::Yellow), Some(Seat::P1));
    let replayed = Match::replay(erase::<FlowerDomain>(), m.record()).unwrap();
    assert_eq!(state(&replayed), state(&m));
}

//! The engine's promises to every game, proved on the test game
//! (`umpire_core::testing::SealedBids`) through `Match` and the erased layer.

use serde_json::json;
use umpire_core::testing::{Config, SealedBids, Variant};
use umpire_core::{
    ActionError, AnyGame, Game, Match, MatchOptions, Pending, Refused, Seat, Seats, TurnError,
    Viewer, erase,
};

fn game() -> &'static dyn AnyGame {
    erase::<SealedBids>()
}

fn new_match() -> Match {
    umpire_core::conformance::timed_match::<SealedBids>(&json!({}), 3)
}

const P1: Viewer = Viewer::Seat(Seat::P1);
const P2: Viewer = Viewer::Seat(Seat::P2);

#[test]
fn conformance_holds_for_the_test_game() {
    umpire_core::conformance::run::<SealedBids>(&Config::default(), 200);
}

/// The suite fails each broken variant, saying why: a leaking view, and a
/// sampler that fixes hidden values.
#[test]
fn conformance_catches_a_leaking_view_and_a_narrow_sampler() {
    for (variant, says) in [
        (Variant::LeakyView, "view changes with what it may not know"),
        (Variant::NarrowSample, "does not vary"),
    ] {
        let config = Config { variant };
        let run = || umpire_core::conformance::run::<SealedBids>(&config, 50);
        let panic = std::panic::catch_unwind(run).expect_err("the suite fails");
        let message = match panic.downcast_ref::<String>() {
            Some(text) => text.as_str(),
            None => panic.downcast_ref::<&str>().copied().unwrap_or_default(),
        };
        assert!(message.contains(says), "{variant:?}: {message}");
    }
}

#[test]
fn seats_face_different_decisions_at_once() {
    let mut m = new_match();
    m.submit(Seat::P1, "bid 3", 1_000).unwrap();
    let real = m.decision();
    assert_eq!(real.kind(Seat::P1), Some("confirm"));
    assert_eq!(real.kind(Seat::P2), Some("bid"));
    // P1 sees its own decision; P2 and spectators see P1 still bidding.
    assert_eq!(m.decision_for(P1).kind(Seat::P1), Some("confirm"));
    assert_eq!(m.decision_for(P2).kind(Seat::P1), Some("bid"));
    assert_eq!(m.decision_for(Viewer::Spectator), m.decision_for(P2));
    assert_eq!(m.decision_for(Viewer::Umpire), real);
    // The erased layer refuses the wrong kind of action with the game's rule.
    let e = m.submit(Seat::P1, "bid 2", 2_000).unwrap_err();
    assert_eq!(e.rule, "wrong-decision");
    m.submit(Seat::P1, "confirm", 2_000).unwrap();
    // P1 is done: acting again is refused by core's turn rule, as a
    // simultaneous decision's.
    let e = m.submit(Seat::P1, "confirm", 2_500).unwrap_err();
    assert_eq!(e.rule, "already-submitted");
}

#[test]
fn refusals_share_core_turn_rules() {
    let mut state = SealedBids::new(&Config::default(), 1).unwrap();
    state.play(Seat::P1, &"bid 1".parse().unwrap()).unwrap();
    let e = state.play(Seat::P1, &"bid 2".parse().unwrap()).unwrap_err();
    assert_eq!(
        e,
        Refused::Turn(TurnError::AlreadySubmitted { seat: Seat::P1 })
    );
}

#[test]
fn the_game_decides_what_a_timeout_does_and_the_record_says_it() {
    let mut m = new_match();
    m.submit(Seat::P1, "bid 3", 0).unwrap();
    m.submit(Seat::P1, "confirm", 500).unwrap();
    // A bid of 0 is no action a player may send…
    let e = m.submit(Seat::P2, "bid 0", 600).unwrap_err();
    assert_eq!(e.rule, "bid-range");
    // …but it is what the timeout rule does: after 10 s and two 5 s periods.
    assert_eq!(m.next_deadline(), Some(20_000));
    let played = m.advance(20_001);
    assert_eq!(played.len(), 1);
    let entry = &m.record().actions[2];
    assert_eq!(
        (entry.action.as_str(), entry.effect.as_deref()),
        ("timeout", Some("P2 bids 0"))
    );
    assert_eq!(m.view(Viewer::Umpire)["round"], 1);
    // The periods are spent: next round P2 has only its turn time.
    assert_eq!(m.clocks(P2, 20_001).unwrap().p2.periods, 0);
    assert_eq!(m.next_deadline(), Some(30_000));
    // Replay recomputes the effect and checks it against the record.
    let replayed = Match::replay(game(), m.record()).unwrap();
    assert!(replayed.state().same_as(m.state()));
    let mut forged = m.record().clone();
    forged.actions[2].effect = Some("P2 bids 3".into());
    let e = Match::replay(game(), &forged).unwrap_err();
    assert_eq!(e.index(), Some(2));
    assert!(e.to_string().contains("P2 bids 0"), "{e}");
    // The effect is written in the record's JSON.
    let text = serde_json::to_string(m.record()).unwrap();
    assert!(text.contains(r#""effect":"P2 bids 0""#), "{text}");
}

#[test]
fn a_secret_choice_changes_the_seat_s_clock_and_nobody_else_s() {
    let mut pondering = new_match();
    let mut plain = new_match();
    pondering.submit(Seat::P1, "ponder", 2_000).unwrap();
    plain.submit(Seat::P2, "bid 2", 2_000).unwrap();
    // P1 sees its own longer clock, restarted when its decision changed.
    let own = pondering.clocks(P1, 5_000).unwrap().p1;
    assert_eq!((own.running, own.turn_ms), (true, 17_000));
    // P2 and spectators see the same cover in both matches: 30 s from the
    // round's start, whatever either seat chose.
    for viewer in [P2, Viewer::Spectator] {
        let a = pondering.clocks(viewer, 5_000).unwrap();
        let b = plain.clocks(viewer, 5_000).unwrap();
        assert_eq!(a.p1, b.p1, "{viewer}");
        assert_eq!((a.p1.turn_ms, a.p1.running), (25_000, true));
        assert_eq!(
            pondering.decision_for(Viewer::Spectator),
            plain.decision_for(Viewer::Spectator)
        );
    }
}

#[test]
fn a_covered_timeout_is_invisible_until_the_round_ends() {
    let mut m = new_match();
    m.submit(Seat::P2, "ponder", 1_000).unwrap();
    let look = |m: &Match, v: Viewer| (m.view(v), m.decision_for(v), m.clocks(v, 21_000));
    let p2_before = look(&m, P2);
    let spectator_before = look(&m, Viewer::Spectator);
    let (basis_p1, basis_p2) = (m.clock_basis(P1), m.clock_basis(P2));
    // P1 never bids: at 20 s (10 s + two periods) its bid becomes 0.
    let played = m.advance(20_001);
    assert_eq!(played[0].effect.as_deref(), Some("P1 bids 0"));
    assert_eq!(m.decision().seats(), Seats::one(Seat::P2));
    assert_eq!(look(&m, P2), p2_before);
    assert_eq!(look(&m, Viewer::Spectator), spectator_before);
    // What the others' clocks are computed from did not change either; P1's own did.
    assert_eq!(m.clock_basis(P2), basis_p2);
    assert_ne!(m.clock_basis(P1), basis_p1);
    // The round ends when P2 bids; then everyone sees it.
    m.submit(Seat::P2, "bid 1", 21_000).unwrap();
    assert_eq!(m.view(P2)["round"], 1);
}

#[test]
fn parse_errors_say_where_and_what_was_expected() {
    let e = ActionError::from("bid x".parse::<umpire_core::testing::Action>().unwrap_err());
    assert_eq!(e.rule, "notation");
    assert_eq!(e.at, Some(3));
    assert_eq!(e.expected, ["1", "2", "3"]);
    let mut m = new_match();
    let e = m.submit(Seat::P1, "bidd 2", 0).unwrap_err();
    assert_eq!((e.at, e.expected.len()), (Some(3), 3));
    assert_eq!(m.record().actions.len(), 0);
}

#[test]
fn sampling_goes_through_the_seat_s_window() {
    let mut m = new_match();
    m.submit(Seat::P1, "bid 2", 0).unwrap();
    let window = m.seat_view(Seat::P2);
    let mut rng = umpire_core::seeded_rng(9);
    let drawn: Vec<SealedBids> = (0..64)
        .map(|_| window.sample::<SealedBids, _>(&(), &mut rng).unwrap())
        .collect();
    for state in &drawn {
        assert_eq!(serde_json::to_value(state.view(P2)).unwrap(), m.view(P2));
    }
    // P1's hidden part takes several values over the samples.
    let p1_parts: std::collections::BTreeSet<String> = drawn
        .iter()
        .map(|s| serde_json::to_value(s.view(Viewer::Umpire)).unwrap()["sealed"]["P1"].to_string())
        .collect();
    assert!(p1_parts.len() > 4, "{p1_parts:?}");
    // A remote client's view is enough to choose a legal action.
    let view = m.view(P2);
    let action = game()
        .sample_action_from_view(Seat::P2, &view, &mut rng)
        .unwrap()
        .unwrap();
    m.submit(Seat::P2, &action, 100).unwrap();
    let e = game()
        .sample_action_from_view(Seat::P2, &json!({"no": "view"}), &mut rng)
        .unwrap_err();
    assert!(e.contains("not a sealed-bids view"), "{e}");
}

#[test]
fn the_lobby_gets_the_game_s_options() {
    let options = serde_json::to_value(game().options()).unwrap();
    assert_eq!(options[0]["key"], "variant");
    assert_eq!(options[0]["kind"]["choices"][1], "leaky-view");
    let e = Match::new(
        game(),
        &json!({"variant": "nonsense"}),
        0,
        MatchOptions::untimed(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("unknown variant"), "{e}");
}

#[test]
fn pending_decisions_serialise_per_seat() {
    let mut m = new_match();
    m.submit(Seat::P1, "bid 3", 0).unwrap();
    let d = serde_json::to_value(m.decision_for(P1)).unwrap();
    assert_eq!(d["seats"], json!(["P1", "P2"]));
    assert_eq!(d["P1"]["kind"], "confirm");
    assert_eq!(
        d["P2"],
        serde_json::to_value(Pending::new("bid").simultaneous()).unwrap()
    );
}

fn hosted_match() -> Match {
    let seats = umpire_core::PerSeat::new(
        umpire_core::Player::named("Ada").unwrap(),
        umpire_core::Player::named("Bo").unwrap(),
    );
    new_match().with_players(seats, true).unwrap()
}

#[test]
fn a_host_enters_actions_and_rules_and_the_record_replays_both() {
    use umpire_core::By;
    let mut m = hosted_match();
    let entered = m
        .submit_by(Seat::P1, "bid 2", 1_000, Some(By::Host))
        .unwrap();
    assert_eq!(entered.by, Some(By::Host));
    // The umpire voids P1's sealed bid: P1 bids again.
    let ruled = m
        .submit_by(Seat::P1, " VOID ", 1_500, Some(By::Umpire))
        .unwrap();
    assert_eq!(
        (ruled.action.as_str(), ruled.by),
        ("void", Some(By::Umpire))
    );
    assert_eq!(m.decision().kind(Seat::P1), Some("bid"));
    // A host's entry is refused as the seat's own would be.
    let e = m
        .submit_by(Seat::P1, "bid 9", 2_000, Some(By::Host))
        .unwrap_err();
    assert_eq!(e.rule, "bid-range");
    let e = m
        .submit_by(Seat::P2, "void", 2_000, Some(By::Umpire))
        .unwrap_err();
    assert_eq!(e.rule, "nothing-to-void");
    m.submit(Seat::P1, "bid 1", 2_500).unwrap();
    let text = serde_json::to_string(m.record()).unwrap();
    assert!(
        text.contains(r#""seats":{"P1":{"name":"Ada"},"P2":{"name":"Bo"}}"#),
        "{text}"
    );
    assert!(text.contains(r#""host":true"#), "{text}");
    assert!(text.contains(r#""by":"umpire""#), "{text}");
    let record: umpire_core::Record = serde_json::from_str(&text).unwrap();
    let replayed = Match::replay(game(), &record).unwrap();
    assert_eq!(replayed.record(), m.record());
    assert_eq!(replayed.named("P1 bid; P2 waits"), "Ada bid; Bo waits");
}

#[test]
fn a_record_that_marks_the_host_in_a_match_without_one_is_refused() {
    for (by, action) in [("host", "bid 2"), ("umpire", "void")] {
        let text = format!(
            r#"{{"game": "sealed-bids", "seed": 3, "actions": [
                {{"seat": "P1", "action": "bid 1"}},
                {{"seat": "P1", "action": "{action}", "by": "{by}"}}]}}"#
        );
        let record: umpire_core::Record = serde_json::from_str(&text).unwrap();
        let e = Match::replay(game(), &record).unwrap_err();
        assert_eq!(e.index(), Some(1), "{by}");
        let words = e.to_string();
        assert!(
            words.contains("action 2") && words.contains("this match has no host"),
            "{words}"
        );
    }
    // The umpire rules; it never acts for a seat by itself, and a timeout
    // is the clock's.
    let mut m = hosted_match();
    let e = m
        .submit_by(Seat::P1, "timeout", 1, Some(umpire_core::By::Host))
        .unwrap_err();
    assert_eq!(e.rule, "notation");
}

#[test]
fn a_record_with_a_bad_name_is_refused() {
    let text = r#"{"game": "sealed-bids", "seed": 3, "actions": [],
        "seats": {"P1": {"name": "Ada\u001b[2J"}, "P2": {}}}"#;
    let record: umpire_core::Record = serde_json::from_str(text).unwrap();
    let e = Match::replay(game(), &record).unwrap_err().to_string();
    assert!(e.contains("P1's name") && e.contains("control"), "{e}");
}

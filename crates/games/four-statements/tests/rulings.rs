//! The host's final call: in a match with a host, the umpire accepts a
//! statement the machine refuses and refuses one it accepts, with a reason
//! both players see once the bluffs are in; the record replays with both
//! rulings, and a record that carries a ruling without a host is refused.

use serde_json::{Value, json};
use umpire_core::{By, Match, MatchOptions, PerSeat, Player, Record, Seat, Viewer, erase};
use umpire_four_statements::FourStatements;

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

/// The machine refuses the repeated part (every-part-matters).
const TWICE: &str = "There is a red tile and a red tile.";
const SUBSET: &str = "A1 B1 A2 B2";
const REST: &str = "There is a blue tile.; There is a green tile.; There is a yellow tile.";

fn hosted() -> Match {
    let config = json!({"layout": "RRBG YGBR BBRY GYRG", "known_p1": "A1 B1 C1 D1",
                        "known_p2": "A4 B4 C4 D4"});
    let players = PerSeat::new(Player::named("Ada").unwrap(), Player::named("Bo").unwrap());
    Match::new(
        erase::<FourStatements>(),
        &config,
        1,
        MatchOptions::untimed(),
    )
    .unwrap()
    .with_players(players, true)
    .unwrap()
}

fn bluff(first: &str) -> String {
    format!("subset {SUBSET}; {first}; {REST}")
}

fn rule(m: &mut Match, seat: Seat, ruling: &str) -> Result<String, umpire_core::ActionError> {
    m.submit_by(seat, ruling, 0, Some(By::Umpire))
        .map(|e| e.action)
}

fn rulings(m: &Match, viewer: Viewer) -> Value {
    m.view(viewer)["rulings"].clone()
}

#[test]
fn the_host_overrules_one_verdict_each_way_and_the_record_replays() {
    let mut m = hosted();
    // P2's valid bluff is in; the host refuses its first statement, which
    // sends the bluff back.
    let p2_bluff = bluff("There is a red tile.");
    m.submit(P2, &p2_bluff, 0).unwrap();
    assert_eq!(m.decision().kind(P2), None);
    let refusal =
        format!("refuse subset {SUBSET}; There is a red tile.; reason too easy for a final");
    assert_eq!(rule(&mut m, P2, &refusal).unwrap(), refusal);
    assert_eq!(
        m.decision().kind(P2),
        Some("bluff"),
        "the bluff is sent back"
    );
    let e = m.submit(P2, &p2_bluff, 0).unwrap_err();
    assert_eq!(e.rule, "host-refused");
    assert!(
        e.message
            .contains("statement 1 was refused by the host: too easy for a final"),
        "{}",
        e.message
    );

    // P1's statement the machine refuses; the host accepts it.
    let e = m.submit(P1, &bluff(TWICE), 0).unwrap_err();
    assert_eq!(e.rule, "every-part-matters");
    let accept = format!("accept subset {SUBSET}; {TWICE}; reason we read it as one red tile");
    rule(&mut m, P1, &accept).unwrap();
    // Until the bluffs are in, only the ruled seat and the umpire see a ruling.
    assert_eq!(rulings(&m, Viewer::Seat(P1)).as_array().unwrap().len(), 1);
    assert_eq!(
        rulings(&m, Viewer::Seat(P2)).as_array().unwrap().len(),
        1,
        "its own only"
    );
    assert_eq!(rulings(&m, Viewer::Seat(P2))[0]["seat"], "P2");
    assert_eq!(rulings(&m, Viewer::Spectator), Value::Null);
    m.submit(P1, &bluff(TWICE), 0).unwrap();
    m.submit(P2, &bluff("There are two red tiles."), 0).unwrap();

    // Both bluffs are in: both players see both reasons; the words of the
    // refused statement stay with its author.
    let seen = rulings(&m, Viewer::Seat(P1));
    assert_eq!(seen[0]["reason"], "too easy for a final");
    assert_eq!(seen[0]["statement"], Value::Null);
    let seen = rulings(&m, Viewer::Seat(P2));
    assert_eq!(
        (seen[1]["statement"].as_str(), seen[1]["accepted"].as_bool()),
        (Some(TWICE), Some(true))
    );
    assert_eq!(
        seen[1]["reading"],
        "At least one tile is red and at least one tile is red."
    );
    let words = m.named(&m.render(Viewer::Seat(P2), false));
    assert!(words.contains("the host accepted Ada's statement “There is a red tile and a red tile.”: we read it as one red tile"), "{words}");
    let words = m.named(&m.render(Viewer::Seat(P1), false));
    assert!(
        words.contains("the host refused one of Bo's statements: too easy for a final"),
        "{words}"
    );
    // Its truth was told as any other's: A1 and B1 are red.
    assert_eq!(
        m.view(Viewer::Seat(P1))["rounds"][0]["sides"]["P1"]["statements"][0]["truth"],
        true
    );

    // A ruling comes in the bluff phase only.
    let e = rule(&mut m, P1, &accept).unwrap_err();
    assert_eq!(e.rule, "ruling-too-late");

    let record = m.record().clone();
    let by: Vec<_> = record.actions.iter().map(|e| (e.seat, e.by)).collect();
    assert_eq!(
        by,
        [
            (P2, None),
            (P2, Some(By::Umpire)),
            (P1, Some(By::Umpire)),
            (P1, None),
            (P2, None)
        ]
    );
    let text = serde_json::to_string(&record).unwrap();
    let back: Record = serde_json::from_str(&text).unwrap();
    let replayed =
        Match::replay(erase::<FourStatements>(), &back).expect("replays with both rulings");
    assert_eq!(replayed.view(Viewer::Umpire), m.view(Viewer::Umpire));
    // Without a host the record is refused at its first ruling.
    let hostless = Record {
        host: false,
        ..back
    };
    let e = Match::replay(erase::<FourStatements>(), &hostless).unwrap_err();
    assert_eq!(e.index(), Some(1));
    assert!(e.to_string().contains("this match has no host"), "{e}");
}

#[test]
fn a_ruling_overrules_only_what_the_machine_said_and_needs_a_meaning() {
    let mut m = hosted();
    for (ruling, rule_key, says) in [
        (
            format!("accept subset {SUBSET}; There is a red tile.; reason fine"),
            "nothing-to-overrule",
            "already accepts",
        ),
        (
            format!("refuse subset {SUBSET}; {TWICE}; reason no"),
            "nothing-to-overrule",
            "already refuses",
        ),
        (
            format!("accept subset {SUBSET}; The red tiles touch the blue tiles.; reason ok"),
            "unreadable",
            "cannot read",
        ),
        (
            format!("accept subset {SUBSET}; {TWICE} [At least one tile is blue.]; reason ok"),
            "readings",
            "reads this statement as",
        ),
        (
            format!("accept subset {SUBSET}; {TWICE}"),
            "notation",
            "separated by",
        ),
    ] {
        let e = rule(&mut m, P1, &ruling).unwrap_err();
        assert_eq!(e.rule, rule_key, "{ruling}: {}", e.message);
        assert!(e.message.contains(says), "{ruling}: {}", e.message);
    }
    assert!(m.record().actions.is_empty(), "nothing was recorded");
}

//! Masked Army's rules, through the typed API and the erased text layer.

use umpire_core::conformance::timed_match;
use umpire_core::conformance::{assert_refused, play_text as play};
use umpire_core::{Game, Match, MatchOptions, PerSeat, Seat, Viewer, erase};
use umpire_masked_army::{Config, MaskedArmy, compare_armies};

fn new_game() -> MaskedArmy {
    MaskedArmy::new(&Config::default(), 0).unwrap()
}

/// A match where P1 starts, with `moves` played alternately from P1.
fn after(moves: &[&str]) -> MaskedArmy {
    let mut state = new_game();
    play(&mut state, Seat::P1, "first P1");
    for (i, m) in moves.iter().enumerate() {
        play(&mut state, if i % 2 == 0 { Seat::P1 } else { Seat::P2 }, m);
    }
    state
}

#[test]
fn rulebook_example_red_4_1_beats_blue_3_1_1() {
    // P1 is red, P2 is blue; each text puts the mover's colour first.
    let state = after(&["A1 A2", "B2 B1", "C1 C2", "E1 D1", "F3 F4"]);
    let armies = state.armies();
    assert_eq!(armies, PerSeat::new(vec![4, 1], vec![3, 1, 1]));
    assert_eq!(compare_armies(&armies), Some((Seat::P1, 0)));
}

#[test]
fn later_armies_break_ties_and_missing_ones_count_zero() {
    let armies = PerSeat::new(vec![4, 2], vec![4, 1, 1]);
    assert_eq!(compare_armies(&armies), Some((Seat::P1, 1)));
    let armies = PerSeat::new(vec![3, 1], vec![3, 1, 1]);
    assert_eq!(compare_armies(&armies), Some((Seat::P2, 2)));
    assert_eq!(compare_armies(&PerSeat::new(vec![2, 2], vec![2, 2])), None);
}

fn rotate(cell: &str) -> String {
    let (col, row) = (cell.as_bytes()[0], cell.as_bytes()[1]);
    format!(
        "{}{}",
        (b'A' + b'I' - col) as char,
        (b'1' + b'9' - row) as char
    )
}

#[test]
fn all_equal_armies_go_to_the_last_placer() {
    // P2 answers every move with its 180° rotation, colours swapped, so both
    // sides' armies are mirror images of each other and P2 places last.
    let mut state = new_game();
    play(&mut state, Seat::P1, "first P1");
    while !state.decision().is_over() {
        let action = state
            .legal_actions(Seat::P1)
            .unwrap()
            .find(|a| !a.to_string().contains("E5"))
            .expect("a move away from the centre");
        let text = action.to_string();
        play(&mut state, Seat::P1, &text);
        let (a, b) = text.split_once(' ').unwrap();
        play(
            &mut state,
            Seat::P2,
            &format!("{} {}", rotate(a), rotate(b)),
        );
    }
    let armies = state.armies();
    assert_eq!(armies.p1, armies.p2);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Seat::P2));
    assert_eq!(outcome.decided_by, "last piece placed");
    assert!(
        outcome.reason.contains("P2 placed the last piece"),
        "{}",
        outcome.reason
    );
}

#[test]
fn the_game_ends_when_no_two_adjacent_cells_are_empty() {
    let mut moves: Vec<String> = Vec::new();
    for row in 1..=9 {
        for pair in ["A B", "C D", "E F", "G H"] {
            let (a, b) = pair.split_once(' ').unwrap();
            moves.push(format!("{a}{row} {b}{row}"));
        }
    }
    for top in [1, 3, 5, 7] {
        moves.push(format!("I{top} I{}", top + 1));
    }
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let before_last = after(&moves[..39]);
    assert!(
        !before_last.decision().is_over(),
        "I7–I9 still hold a free pair"
    );
    let end = after(&moves);
    assert!(end.decision().is_over(), "only I9 is left empty");
    assert!(end.outcome().is_some());
    assert_eq!(end.view(Viewer::Spectator).board[8], "12211221."); // revealed
    let mut copy = end.clone();
    let e = copy.play(Seat::P1, &"I9 H9".parse().unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "the game is over");
    assert_eq!(copy, end);
}

/// Every kind of illegal entry, as text through the erased layer: the
/// reason and rule are given and the state is unchanged.
#[test]
fn illegal_moves_are_refused_with_their_rule() {
    let mut m = Match::new(
        erase::<MaskedArmy>(),
        &serde_json::json!({}),
        1,
        MatchOptions::untimed(),
    )
    .unwrap();
    let cases = [
        (
            Seat::P2,
            "first P1",
            "not-your-turn",
            "it is not P2's turn: waiting for P1",
        ),
        (
            Seat::P1,
            "E5 F5",
            "choose-first",
            "the advantage seat must first choose who starts (`first P1` or `first P2`)",
        ),
    ];
    assert_refused(&mut m, &cases);
    m.submit(Seat::P1, "first P2", 0).unwrap();
    m.submit(Seat::P2, "E5 F5", 0).unwrap();
    let cases = [
        (Seat::P1, "E5 E6", "occupied", "E5 is already occupied"),
        (Seat::P1, "F5 F6", "occupied", "F5 is already occupied"),
        (
            Seat::P1,
            "I9 J9",
            "off-board",
            "J9 is off the board (columns A–I, rows 1–9)",
        ),
        (
            Seat::P1,
            "A9 A10",
            "off-board",
            "A10 is off the board (columns A–I, rows 1–9)",
        ),
        (
            Seat::P1,
            "A1 B2",
            "not-adjacent",
            "A1 and B2 are not orthogonally adjacent: a piece covers two cells side by side",
        ),
        (
            Seat::P1,
            "A1 A1",
            "not-adjacent",
            "A1 and A1 are not orthogonally adjacent: a piece covers two cells side by side",
        ),
        (
            Seat::P2,
            "A1 A2",
            "not-your-turn",
            "it is not P2's turn: waiting for P1",
        ),
        (
            Seat::P1,
            "first P1",
            "already-chosen",
            "who starts has already been chosen; place a piece like `E5 F5`",
        ),
        (
            Seat::P1,
            "E5",
            "notation",
            "expected two cells like `E5 F5` (your colour first) or `first P1`, got `E5`",
        ),
        (
            Seat::P1,
            "hello",
            "notation",
            "`hello` is not a cell: cells are written like A1",
        ),
        (
            Seat::P1,
            "E5 F5!",
            "notation",
            "unexpected `!` in `E5 F5!`: cells are written like A1",
        ),
        (
            Seat::P1,
            "timeout",
            "notation",
            "`timeout` is for the clock to say",
        ),
    ];
    assert_refused(&mut m, &cases);
}

#[test]
fn views_hide_every_colour_but_the_last_piece() {
    let state = after(&["A1 A2", "C3 D3"]);
    for viewer in [
        Viewer::Seat(Seat::P1),
        Viewer::Seat(Seat::P2),
        Viewer::Spectator,
    ] {
        let view = state.view(viewer);
        assert_eq!(&view.board[..3], &["#........", "#........", "..21....."]);
        assert!(view.armies.is_none());
        let json = serde_json::to_string(&view).unwrap();
        assert!(!json.contains("A1") && !json.contains("A2"), "{json}");
    }
    assert_eq!(state.view(Viewer::Umpire).board[0], "1........");
}

#[test]
fn running_out_of_turn_time_and_bank_loses() {
    let mut m = timed_match::<MaskedArmy>(&serde_json::json!({}), 0);
    m.submit(Seat::P1, "first P1", 1_000).unwrap();
    // P1 takes 3 minutes: 1 minute comes out of the 5-minute bank.
    m.submit(Seat::P1, "E5 F5", 181_000).unwrap();
    let clocks = m.clocks(Viewer::Spectator, 181_000).unwrap();
    assert_eq!((clocks.p1.bank_ms, clocks.p1.running), (240_000, false));
    assert_eq!((clocks.p2.turn_ms, clocks.p2.running), (120_000, true));
    // P2 never answers: flagged after 2 + 5 minutes.
    assert_eq!(m.next_deadline(), Some(181_000 + 420_000));
    assert!(
        m.advance(181_000 + 420_000).is_empty(),
        "not yet flagged at the deadline"
    );
    let flagged = m.advance(181_000 + 420_001);
    assert_eq!(flagged.len(), 1);
    assert_eq!(
        (
            flagged[0].seat,
            flagged[0].action.as_str(),
            flagged[0].effect.as_deref()
        ),
        (Seat::P2, "timeout", Some("loses"))
    );
    let outcome = m.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.decided_by.as_str()),
        (Some(Seat::P1), "time")
    );
    // The whole board is revealed once the match is over.
    assert_eq!(m.view(Viewer::Spectator)["board"][4], "....12...");
    // A late move is refused; the record replays to the same result.
    assert!(m.submit(Seat::P2, "A1 A2", 700_000).is_err());
    let replayed = Match::replay(erase::<MaskedArmy>(), m.record()).unwrap();
    assert_eq!(replayed.outcome(), m.outcome());
}

#[test]
fn a_record_with_a_move_after_the_flag_does_not_replay() {
    let mut m = timed_match::<MaskedArmy>(&serde_json::json!({}), 0);
    m.submit(Seat::P1, "first P1", 0).unwrap();
    let mut record = m.record().clone();
    record
        .actions
        .push(umpire_core::Entry::new(Seat::P1, "E5 F5", 420_001));
    let e = Match::replay(erase::<MaskedArmy>(), &record).unwrap_err();
    assert_eq!(e.index(), Some(1));
    assert!(e.to_string().contains("ran out at 420000 ms"), "{e}");
}

#[test]
fn resigning_ends_the_match() {
    let mut m = timed_match::<MaskedArmy>(&serde_json::json!({"advantage": "P2"}), 0);
    assert_eq!(
        m.decision().seats().iter().collect::<Vec<_>>(),
        vec![Seat::P2]
    );
    m.submit(Seat::P1, "resign", 5).unwrap();
    assert_eq!(m.outcome().unwrap().winner, Some(Seat::P2));
    assert!(m.submit(Seat::P2, "resign", 6).is_err());
}

#[test]
fn bad_configs_are_refused() {
    for config in [
        serde_json::json!({"advantage": "P3"}),
        serde_json::json!({"colour": 1}),
    ] {
        let e = Match::new(erase::<MaskedArmy>(), &config, 0, MatchOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("bad config: masked-army:"), "{e}");
    }
}

/// "Players may choose any reasonable color": each seat's colour is an
/// option, and the board, the words and the prompt use the chosen names.
#[test]
fn players_may_choose_their_colours() {
    let game = erase::<MaskedArmy>();
    let config = serde_json::json!({"colour_p1": "orange", "colour_p2": "sky-blue"});
    let mut m = Match::new(game, &config, 0, MatchOptions::untimed()).unwrap();
    m.submit(Seat::P1, "first P1", 0).unwrap();
    let prompt = m.prompt(Seat::P1).unwrap();
    assert!(
        prompt.contains("orange (X) on one empty cell and sky blue (O)"),
        "{prompt}"
    );
    m.submit(Seat::P1, "E5 F5", 0).unwrap();
    assert_eq!(
        m.last_event(Viewer::Spectator).unwrap(),
        "P1 placed orange (X) on E5 and sky blue (O) on F5"
    );
    let board = m.render(Viewer::Spectator, false);
    assert!(
        board.contains("legend: X orange (P1)  O sky blue (P2)"),
        "{board}"
    );
    let coloured = m.render(Viewer::Spectator, true);
    assert!(coloured.contains("\x1b[1;38;5;208mX"), "{coloured:?}");
    assert_eq!(
        m.view(Viewer::Seat(Seat::P2))["colours"],
        serde_json::json!({"P1": "orange", "P2": "sky-blue"})
    );
    // The same colour twice is refused; a record without the options (as
    // every record before them) gets red and blue and replays the same.
    let same = serde_json::json!({"colour_p1": "green", "colour_p2": "green"});
    let e = Match::new(game, &same, 0, MatchOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad config: both seats are green: choose two different colours"
    );
    let mut old = Match::new(game, &serde_json::json!({}), 0, MatchOptions::untimed()).unwrap();
    old.submit(Seat::P1, "first P1", 0).unwrap();
    old.submit(Seat::P1, "E5 F5", 0).unwrap();
    let mut record = serde_json::to_value(old.record()).unwrap();
    record["config"] = serde_json::json!({"advantage": "P1"});
    let record: umpire_core::Record = serde_json::from_value(record).unwrap();
    let replayed = Match::replay(game, &record).unwrap();
    assert!(replayed.state().same_as(old.state()));
    assert_eq!(
        replayed.last_event(Viewer::Spectator).unwrap(),
        "P1 placed red (X) on E5 and blue (O) on F5"
    );
}

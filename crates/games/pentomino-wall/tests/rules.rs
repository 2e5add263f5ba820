//! Pentomino Wall's rules, through the typed API and the erased text layer.

use std::collections::{HashMap, VecDeque};

use serde_json::json;
use umpire_core::conformance::assert_refused;
use umpire_core::conformance::{time_out_to_the_end, timed_match};
use umpire_core::{
    Cell, Game, Match, MatchOptions, PerSeat, Render, Seat, Viewer, erase, seeded_rng,
};
use umpire_pentomino_wall::{
    Decider, Orientation, PentominoWall, Phase, Piece, Pieces, Placed, Score, View, Wall, compare,
};

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

fn new_match(config: serde_json::Value) -> Match {
    Match::new(
        erase::<PentominoWall>(),
        &config,
        0,
        MatchOptions::untimed(),
    )
    .unwrap()
}

fn submit(m: &mut Match, seat: Seat, text: &str) {
    m.submit(seat, text, 0)
        .unwrap_or_else(|e| panic!("{seat} `{text}`: {e}"));
}

fn play(m: &mut Match, moves: &[(Seat, &str)]) {
    for &(seat, text) in moves {
        submit(m, seat, text);
    }
}

fn state(m: &Match) -> PentominoWall {
    m.state().downcast::<PentominoWall>().unwrap().clone()
}

fn view(m: &Match) -> View {
    state(m).view(Viewer::Umpire)
}

fn kind(m: &Match, seat: Seat) -> Option<&'static str> {
    m.decision().kind(seat)
}

fn o(text: &str) -> Orientation {
    text.parse().unwrap()
}

fn placed(orientation: &str, at: &str) -> Placed {
    Placed::new(o(orientation), Cell::parse(at, 10, 9).unwrap())
}

/// `first P1`, then a draft of alternate single picks in letter order:
/// P1 takes F L P U W Y, P2 takes I N T V X and is given Z.
fn drafted() -> Match {
    drafted_with(json!({}))
}

/// [`drafted`], in a match of `config`.
fn drafted_with(config: serde_json::Value) -> Match {
    let mut m = new_match(config);
    submit(&mut m, P1, "first P1");
    for (i, p) in "FILNPTUVWXY".chars().enumerate() {
        submit(
            &mut m,
            if i % 2 == 0 { P1 } else { P2 },
            &format!("take {p}"),
        );
    }
    m
}

/// The piece `seat` has to place now.
fn to_place(m: &Match, seat: Seat) -> Orientation {
    state(m).to_place(seat).expect("a piece to place")
}

/// The umpire's default placement: the piece as it lies, at the first
/// legal cell in reading order.
fn place_plainly(m: &mut Match, seat: Seat) {
    let piece = to_place(m, seat);
    let first = m
        .seat_view(seat)
        .legal_actions()
        .unwrap()
        .into_iter()
        .find(|a| a.starts_with(&format!("place {piece} at")))
        .expect("a placement as it lies");
    submit(m, seat, &first);
}

/// Plays plainly until `done`: picks in pool order, the first piece of a
/// hand presented as drawn and the second set aside, placements as they lie,
/// every set-aside piece returned. No credit changes hands.
fn play_plainly(m: &mut Match, done: impl Fn(&PentominoWall) -> bool) {
    while !done(&state(m)) {
        let seat = m.decision().seats().iter().next().expect("someone to act");
        let s = state(m);
        let v = s.view(Viewer::Umpire);
        match kind(m, seat) {
            Some("place") => place_plainly(m, seat),
            Some("draft") => submit(m, seat, &format!("take {}", v.pool.nth(0).unwrap())),
            Some("present") => {
                let hand = v.hands[seat];
                let text = format!(
                    "present {} aside {}",
                    hand.nth(0).unwrap(),
                    hand.nth(1).unwrap()
                );
                submit(m, seat, &text);
            }
            Some("round-end") => {
                let ret: Vec<String> = v.aside[seat]
                    .iter()
                    .map(|p| format!("return {p}"))
                    .collect();
                submit(m, seat, &ret.join(", "));
            }
            other => panic!("no plain play for {other:?}"),
        }
    }
}

fn at_round_end(s: &PentominoWall) -> bool {
    s.phase() == Phase::RoundEnd
}

/// Both seats' round-end choices, each given as a verb for every piece.
fn round_end_all(m: &mut Match, verbs: PerSeat<&str>) {
    for seat in Seat::BOTH {
        let aside = view(m).aside[seat];
        let words: Vec<String> = aside
            .iter()
            .map(|p| format!("{} {p}", verbs[seat]))
            .collect();
        submit(m, seat, &words.join(", "));
    }
}

/// Round 1 played plainly, then P1 gives all its set-aside pieces (3
/// credits) and P2 returns all of them: round 2's draft begins.
fn p1_with_three_credits() -> Match {
    let mut m = drafted();
    play_plainly(&mut m, at_round_end);
    round_end_all(&mut m, PerSeat::new("give", "return"));
    assert_eq!(view(&m).credits, PerSeat::new(3, 0));
    m
}

#[test]
fn the_advantage_names_the_first_drafter_who_alternates_by_round() {
    let mut m = new_match(json!({"advantage": "P2"}));
    assert_eq!((kind(&m, P1), kind(&m, P2)), (None, Some("first")));
    assert_refused(
        &mut m,
        &[(
            P2,
            "take F",
            "wrong-decision",
            "you must name who drafts first (`first P1` or `first P2`) now, not `take`",
        )],
    );
    submit(&mut m, P2, "first P1");
    assert_eq!(kind(&m, P1), Some("draft"));
    play_plainly(&mut m, at_round_end);
    round_end_all(&mut m, PerSeat::new("return", "return"));
    // Round 2: P2 drafts first.
    assert_eq!(state(&m).round(), 2);
    assert_eq!((kind(&m, P1), kind(&m, P2)), (None, Some("draft")));
}

#[test]
fn the_draft_alternates_until_a_hand_holds_six_and_the_other_takes_the_rest() {
    let mut m = new_match(json!({}));
    submit(&mut m, P1, "first P2");
    let picks = [
        (P2, "Z"),
        (P1, "Y"),
        (P2, "X"),
        (P1, "W"),
        (P2, "V"),
        (P1, "U"),
        (P2, "T"),
        (P1, "N"),
        (P2, "P"),
        (P1, "L"),
        (P2, "I"),
    ];
    let mut steps = Vec::new();
    for (seat, p) in picks {
        assert_eq!(kind(&m, seat), Some("draft"), "{seat} takes {p}");
        assert_eq!(kind(&m, seat.other()), None);
        steps.push(m.decision().get(seat).unwrap().step);
        submit(&mut m, seat, &format!("take {p}"));
    }
    // P2 holds six; P1 takes the rest (F) and the first turn begins.
    let v = view(&m);
    assert_eq!(v.hands.p2.to_string(), "IPTVXZ");
    assert_eq!(v.hands.p1.to_string(), "FLNUWY");
    assert!(v.pool.is_empty());
    assert_eq!(v.phase, Phase::Present);
    assert_eq!(
        v.last_event().as_deref(),
        Some("P2 took I; P1 takes the rest of the pool (F)")
    );
    steps.dedup();
    assert_eq!(steps.len(), 11, "every pick is a new step");
}

#[test]
fn a_double_turn_takes_two_pieces_for_two_credits_paid_to_the_opponent() {
    let mut m = p1_with_three_credits();
    // Round 2: P2 drafts first, with no credits.
    let pool = view(&m).pool;
    let [a, b, c] = [0, 1, 2].map(|i| pool.nth(i).unwrap());
    assert_refused(
        &mut m,
        &[
            (
                P2,
                &format!("take {a} {b}"),
                "credits",
                "a Double Turn costs 2 credits; you have 0 credits",
            ),
            (
                P2,
                &format!("take {a} {a}"),
                "double-turn",
                "a Double Turn takes two different pieces",
            ),
        ],
    );
    submit(&mut m, P2, &format!("take {a}"));
    assert_refused(
        &mut m,
        &[(
            P1,
            &format!("take {a} {b}"),
            "not-in-pool",
            &format!(
                "{a} is not in the pool (the pool: {})",
                pool.without(a).listed()
            ),
        )],
    );
    submit(&mut m, P1, &format!("take {c} {b}"));
    let v = view(&m);
    assert_eq!(v.credits, PerSeat::new(1, 2));
    assert_eq!(v.hands.p1, Pieces::one(b).with(c));
    assert_eq!(
        v.last_event(),
        Some(format!(
            "P1 took {b} and {c} with a Double Turn (2 credits to P2)"
        ))
    );
    // Then P2 picks: one Double Turn is one turn.
    assert_eq!(kind(&m, P2), Some("draft"));
}

#[test]
fn a_double_turn_needs_room_for_both_pieces() {
    let mut m = drafted();
    play_plainly(&mut m, at_round_end);
    // Each seat gives its three set-aside pieces: 3 credits each, and
    // three pieces in each hand for round 2, which P2 drafts first.
    round_end_all(&mut m, PerSeat::new("give", "give"));
    for seat in [P2, P1, P2, P1] {
        let take = format!("take {}", view(&m).pool.nth(0).unwrap());
        submit(&mut m, seat, &take);
    }
    let v = view(&m);
    assert_eq!((v.hands.p2.len(), v.pool.len(), v.credits.p2), (5, 2, 3));
    let (a, b) = (v.pool.nth(0).unwrap(), v.pool.nth(1).unwrap());
    assert_refused(
        &mut m,
        &[(
            P2,
            &format!("take {a} {b}"),
            "hand-full",
            "a Double Turn would give you 7 pieces: a hand holds at most six",
        )],
    );
}

#[test]
fn a_hand_of_six_at_the_start_of_a_round_skips_the_draft() {
    let mut m = drafted();
    play_plainly(&mut m, at_round_end);
    // P1 keeps its three set-aside pieces (P2 gains 3) and P2 gives P1
    // its three (P2 gains 3 more): P1 starts round 2 with six.
    round_end_all(&mut m, PerSeat::new("keep", "give"));
    let v = view(&m);
    assert_eq!(v.hands.p1.len(), 6, "no draft: P1 holds six");
    assert_eq!(v.hands.p2.len(), 6, "P2 took the rest");
    assert_eq!(v.phase, Phase::Present);
    assert_eq!(v.credits, PerSeat::new(0, 6));
}

#[test]
fn choices_are_sealed_until_both_are_in() {
    let mut m = drafted();
    assert!(m.decision().get(P1).unwrap().simultaneous);
    submit(&mut m, P1, "present L90 aside F");
    for viewer in [Viewer::Seat(P2), Viewer::Spectator] {
        let v = state(&m).view(viewer);
        assert_eq!(v.sealed, PerSeat::new(None, None), "{viewer}");
        assert_eq!(v.submitted, PerSeat::new(true, false));
        // The hand still shows both pieces.
        assert_eq!(v.hands.p1.to_string(), "FLPUWY");
        assert_eq!(v.last_event().as_deref(), Some("P1 sealed its choice"));
    }
    let mine = state(&m).view(Viewer::Seat(P1)).sealed.p1.unwrap();
    assert_eq!((mine.present, mine.aside), (o("L90"), Piece::F));
    assert_refused(
        &mut m,
        &[(
            P1,
            "present P aside U",
            "already-submitted",
            "P1 has already submitted for this round",
        )],
    );
    submit(&mut m, P2, "present T aside I");
    let v = view(&m);
    assert_eq!(v.phase, Phase::Place);
    assert_eq!(v.hands.p1.to_string(), "PUWY");
    assert_eq!(
        v.aside,
        PerSeat::new(Pieces::one(Piece::F), Pieces::one(Piece::I))
    );
    assert_eq!(v.to_place, PerSeat::new(Some(o("T")), Some(o("L90"))));
    assert_eq!(
        v.last_event().as_deref(),
        Some("P1 presents L90 and sets F aside; P2 presents T and sets I aside")
    );
}

/// Turn 1 revealed: P1 places T (as presented), P2 places L.
fn turn_one() -> Match {
    let mut m = drafted();
    play(
        &mut m,
        &[(P1, "present L aside F"), (P2, "present T aside I")],
    );
    m
}

#[test]
fn the_first_piece_touches_the_border_and_later_ones_the_paint() {
    let mut m = turn_one();
    assert_refused(
        &mut m,
        &[(
            P1,
            "place T at D4",
            "border",
            "the first piece of a wall must touch its border: T at D4 does not",
        )],
    );
    submit(&mut m, P1, "place T at D1");
    submit(&mut m, P2, "place L at I5");
    play(
        &mut m,
        &[(P1, "present P aside U"), (P2, "present N aside V")],
    );
    assert_refused(
        &mut m,
        &[(
            P1,
            "place N at A5",
            "connected",
            "N at A5 neither covers nor touches the paint on your wall: the paint must stay connected",
        )],
    );
    // Touching the T's stem (E3) from below: E4.
    submit(&mut m, P1, "place N at D4");
    assert_eq!(state(&m).wall(P1).rows()[3], "....N.....");
    assert_eq!(state(&m).wall(P1).black(), 0);
}

#[test]
fn overlaps_paint_black_and_count_as_connected() {
    let mut m = turn_one();
    play(&mut m, &[(P1, "place T at A1"), (P2, "place L at A1")]);
    play(
        &mut m,
        &[(P1, "present P aside U"), (P2, "present X aside V")],
    );
    // X at A1 covers B1 A2 B2 C2 B3: B1, B2 and B3 over the T's stem.
    submit(&mut m, P1, "place X at A1");
    let wall = state(&m).wall(P1).clone();
    assert_eq!(wall.rows()[..3], ["T#T.......", "X#X.......", ".#........"]);
    assert_eq!(wall.black().count_ones(), 3);
    assert_eq!(wall.unpainted(), 90 - 7);
}

#[test]
fn two_steps_a_turn_are_free_and_more_cost_a_credit_each() {
    // L has no symmetry: L270 (a quarter turn anticlockwise) is 3 steps.
    let mut m = turn_one();
    submit(&mut m, P1, "place T at A1");
    assert_refused(
        &mut m,
        &[(
            P2,
            "place L270 at A1",
            "credits",
            "turning L into L270 takes 3 steps, and 1 beyond the two free ones costs 1 credit; you have 0 credits",
        )],
    );
    // Two steps are free: a half turn, or a mirror and a quarter turn.
    for free in ["L180", "Lm90", "Lm270", "L90", "Lm"] {
        let mut copy = m.clone();
        submit(&mut copy, P2, &format!("place {free} at A1"));
        assert_eq!(view(&copy).credits, PerSeat::new(0, 0), "{free}");
    }
    // With quarter turns both ways, L270 is one step.
    let mut both = drafted_with(json!({"quarter_turns": "both"}));
    play(
        &mut both,
        &[
            (P1, "present L aside F"),
            (P2, "present T aside I"),
            (P2, "place L270 at A1"),
        ],
    );
    assert_eq!(view(&both).credits, PerSeat::new(0, 0));
}

#[test]
fn paid_steps_go_to_the_opponent_who_can_spend_them_at_once() {
    let mut m = p1_with_three_credits();
    play_plainly(&mut m, |s| s.phase() == Phase::Present);
    // Each seat presents a piece with eight orientations as drawn.
    let v = view(&m);
    let chiral = |seat: Seat| {
        v.hands[seat]
            .iter()
            .find(|p| p.orientation_count() == 8)
            .expect("a piece with eight orientations")
    };
    let aside = |seat: Seat, not: Piece| v.hands[seat].without(not).nth(0).unwrap();
    let (a, b) = (chiral(P1), chiral(P2));
    play(
        &mut m,
        &[
            (P1, &format!("present {a} aside {}", aside(P1, a))),
            (P2, &format!("present {b} aside {}", aside(P2, b))),
        ],
    );
    // P1 places b, P2 places a. A quarter turn anticlockwise: 3 steps.
    let three = |p: Piece| Orientation::new(p, 3);
    let wall_cell = |m: &Match, seat: Seat, o: Orientation| {
        let anchors = state(m).wall(seat).anchors(o);
        Cell::from_index(anchors.trailing_zeros() as usize, 10)
    };
    let p2_place = format!("place {} at {}", three(a), wall_cell(&m, P2, three(a)));
    assert_refused(
        &mut m,
        &[(
            P2,
            &p2_place,
            "credits",
            &format!(
                "turning {a} into {} takes 3 steps, and 1 beyond the two free ones costs 1 credit; you have 0 credits",
                three(a)
            ),
        )],
    );
    let p1_place = format!("place {} at {}", three(b), wall_cell(&m, P1, three(b)));
    submit(&mut m, P1, &p1_place);
    assert_eq!(view(&m).credits, PerSeat::new(2, 1));
    // The credit P1 paid is P2's at once.
    submit(&mut m, P2, &p2_place);
    assert_eq!(view(&m).credits, PerSeat::new(3, 0));
}

/// The fewest steps between two orientations, by breadth-first search over
/// cell sets: quarter turn clockwise, left-right mirror, top-bottom mirror
/// (and with `anticlockwise`, a quarter turn anticlockwise).
fn bfs(from: Orientation, to: Orientation, anticlockwise: bool) -> u8 {
    type Cells = Vec<(i32, i32)>;
    fn norm(cells: Cells) -> Cells {
        let mx = cells.iter().map(|c| c.0).min().unwrap();
        let my = cells.iter().map(|c| c.1).min().unwrap();
        let mut out: Cells = cells.iter().map(|&(x, y)| (x - mx, y - my)).collect();
        out.sort();
        out
    }
    let cells = |o: Orientation| {
        norm(
            o.cells()
                .iter()
                .map(|&(x, y)| (x as i32, y as i32))
                .collect(),
        )
    };
    type Step = fn((i32, i32)) -> (i32, i32);
    let mut steps: Vec<Step> = vec![|(x, y)| (-y, x), |(x, y)| (-x, y), |(x, y)| (x, -y)];
    if anticlockwise {
        steps.push(|(x, y)| (y, -x));
    }
    let goal = cells(to);
    let mut seen = HashMap::from([(cells(from), 0u8)]);
    let mut queue = VecDeque::from([cells(from)]);
    while let Some(c) = queue.pop_front() {
        let d = seen[&c];
        if c == goal {
            return d;
        }
        for s in &steps {
            let next = norm(c.iter().map(|&p| s(p)).collect());
            if !seen.contains_key(&next) {
                seen.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    unreachable!("every orientation is reachable")
}

#[test]
fn reorientation_costs_equal_a_breadth_first_search_over_the_steps() {
    let mut pairs = 0;
    for piece in Piece::ALL {
        for a in piece.orientations() {
            for b in piece.orientations() {
                for anticlockwise in [false, true] {
                    assert_eq!(
                        a.steps_to(b, anticlockwise),
                        bfs(a, b, anticlockwise),
                        "{a} to {b}, anticlockwise {anticlockwise}"
                    );
                }
                pairs += 1;
            }
        }
    }
    // 1 + 4 + 64·5 + 16·5 over X, I, the eight-way and four-way pieces.
    assert_eq!(pairs, 1 + 4 + 5 * 64 + 5 * 16);
    assert_eq!(o("L").steps_to(o("L270"), false), 3);
    assert_eq!(
        o("T").steps_to(o("T270"), false),
        2,
        "T is its own mirror image"
    );
}

/// Round 2, turn 1 revealed, P1 with 3 credits; returns P1's and P2's
/// presented pieces' letters too.
fn exchange_ready() -> Match {
    let mut m = p1_with_three_credits();
    play_plainly(&mut m, |s| s.phase() == Phase::Place);
    m
}

#[test]
fn an_exchange_swaps_the_piece_and_the_presenter_orients_it() {
    let mut m = exchange_ready();
    let v = view(&m);
    let presented = v.to_place.p1.unwrap();
    let swap = v.hands.p1.nth(0).unwrap();
    let before = m.decision();
    assert_eq!((kind(&m, P1), kind(&m, P2)), (Some("place"), Some("place")));
    submit(&mut m, P1, &format!("exchange {swap}"));
    let v = view(&m);
    assert_eq!(v.credits, PerSeat::new(1, 2));
    assert!(v.hands.p1.contains(presented.piece) && !v.hands.p1.contains(swap));
    assert_eq!(v.exchanged.p1, Some(swap));
    // P1 waits for its piece; P2's placement is not disturbed: it places
    // first, then orients.
    assert_eq!((kind(&m, P1), kind(&m, P2)), (None, Some("place")));
    assert_eq!(m.decision().get(P2), before.get(P2));
    place_plainly(&mut m, P2);
    assert_eq!((kind(&m, P1), kind(&m, P2)), (None, Some("orient")));
    let wrong = if swap == Piece::X { "I" } else { "X" };
    assert_refused(
        &mut m,
        &[(
            P2,
            &format!("orient {wrong}"),
            "wrong-piece",
            &format!("the piece to orient is {swap}, not {wrong}"),
        )],
    );
    let oriented = Orientation::new(swap, 2);
    submit(&mut m, P2, &format!("orient {oriented}"));
    assert_eq!((kind(&m, P1), kind(&m, P2)), (Some("place"), None));
    assert_ne!(m.decision().get(P1), before.get(P1), "a new step");
    assert_eq!(to_place(&m, P1), oriented);
    assert_refused(
        &mut m,
        &[(
            P1,
            "exchange Z",
            "one-exchange",
            "you have already made an Exchange this turn",
        )],
    );
    place_plainly(&mut m, P1);
    let placed = *state(&m).wall(P1).placed().last().unwrap();
    assert_eq!(placed.orientation, oriented);
    assert_eq!(view(&m).phase, Phase::Present);
}

/// The rulebook sets no order between placing one's own piece and
/// orienting the swapped-in one: the presenter may orient first.
#[test]
fn the_presenter_may_orient_before_placing_its_own_piece() {
    let mut m = exchange_ready();
    let swap = view(&m).hands.p1.nth(0).unwrap();
    submit(&mut m, P1, &format!("exchange {swap}"));
    let placing = m.decision().get(P2);
    assert_eq!(kind(&m, P2), Some("place"));
    let oriented = Orientation::new(swap, 1);
    assert!(
        m.state()
            .legal_actions(P2)
            .unwrap()
            .any(|a| a == format!("orient {oriented}")),
        "orienting is listed among P2's legal actions"
    );
    submit(&mut m, P2, &format!("orient {oriented}"));
    // P2 still places, at a new step; P1 places the piece as oriented.
    assert_eq!((kind(&m, P1), kind(&m, P2)), (Some("place"), Some("place")));
    assert_ne!(m.decision().get(P2), placing, "a new step");
    assert_eq!(to_place(&m, P1), oriented);
    assert_refused(
        &mut m,
        &[(
            P2,
            &format!("orient {oriented}"),
            "wrong-decision",
            "you must place the piece presented to you (`place T90 at C4`) or exchange it (`exchange L`) now, not `orient`",
        )],
    );
    place_plainly(&mut m, P1);
    place_plainly(&mut m, P2);
    assert_eq!(view(&m).phase, Phase::Present);
    let replayed = Match::replay(erase::<PentominoWall>(), m.record()).unwrap();
    assert!(replayed.state().same_as(m.state()));
}

#[test]
fn when_both_seats_exchange_both_orient_first() {
    let mut m = drafted();
    play_plainly(&mut m, at_round_end);
    round_end_all(&mut m, PerSeat::new("give", "give"));
    play_plainly(&mut m, |s| s.phase() == Phase::Place);
    assert_eq!(view(&m).credits, PerSeat::new(3, 3));
    let hands = view(&m).hands;
    submit(
        &mut m,
        P1,
        &format!("exchange {}", hands.p1.nth(0).unwrap()),
    );
    submit(
        &mut m,
        P2,
        &format!("exchange {}", hands.p2.nth(0).unwrap()),
    );
    assert_eq!(
        (kind(&m, P1), kind(&m, P2)),
        (Some("orient"), Some("orient"))
    );
    let piece = view(&m).exchanged.p1.unwrap();
    submit(&mut m, P2, &format!("orient {piece}"));
    // P1's decision is still named for the orienting that fell due first,
    // though its own piece has arrived; it may place first all the same.
    assert_eq!((kind(&m, P1), kind(&m, P2)), (Some("orient"), None));
    let mut placed_first = m.clone();
    let piece = view(&m).exchanged.p2.unwrap();
    submit(&mut m, P1, &format!("orient {piece}"));
    assert_eq!((kind(&m, P1), kind(&m, P2)), (Some("place"), Some("place")));
    assert_eq!(view(&m).credits, PerSeat::new(3, 3));
    let orienting = placed_first.decision().get(P1);
    place_plainly(&mut placed_first, P1);
    assert_eq!(kind(&placed_first, P1), Some("orient"));
    assert_ne!(placed_first.decision().get(P1), orienting, "a new step");
    submit(&mut placed_first, P1, &format!("orient {piece}"));
    assert_eq!(
        (kind(&placed_first, P1), kind(&placed_first, P2)),
        (None, Some("place"))
    );
}

#[test]
fn round_end_gives_returns_and_keeps() {
    let mut m = drafted();
    play_plainly(&mut m, at_round_end);
    let v = view(&m);
    assert_eq!(
        (kind(&m, P1), kind(&m, P2)),
        (Some("round-end"), Some("round-end"))
    );
    let a1: Vec<Piece> = v.aside.p1.iter().collect();
    let a2: Vec<Piece> = v.aside.p2.iter().collect();
    assert_refused(
        &mut m,
        &[(
            P1,
            &format!("give {}, keep {}", a1[0], a1[1]),
            "round-end",
            &format!(
                "name each of your set-aside pieces once ({}): {} missing",
                v.aside.p1.listed(),
                a1[2]
            ),
        )],
    );
    submit(
        &mut m,
        P1,
        &format!("give {}, return {}, keep {}", a1[0], a1[1], a1[2]),
    );
    // Public at once, with its credits.
    assert_eq!(view(&m).credits, PerSeat::new(1, 1));
    assert_eq!((kind(&m, P1), kind(&m, P2)), (None, Some("round-end")));
    submit(
        &mut m,
        P2,
        &format!("give {}, give {}, return {}", a2[0], a2[1], a2[2]),
    );
    let v = view(&m);
    assert_eq!(v.credits, PerSeat::new(1, 3));
    assert_eq!(v.round, 2);
    let expect_p1: Pieces = [a1[2], a2[0], a2[1]].into_iter().collect();
    let expect_p2: Pieces = [a1[0]].into_iter().collect();
    assert_eq!((v.hands.p1, v.hands.p2), (expect_p1, expect_p2));
    assert_eq!(v.pool.len(), 8);
    assert_eq!(v.kept.p1[0].piece, a1[2]);
}

#[test]
fn keeping_the_same_piece_doubles_the_price_each_round() {
    let mut m = drafted();
    play_plainly(&mut m, at_round_end);
    let kept = view(&m).aside.p1;
    let mut credits = Vec::new();
    for round in 1..=3 {
        // P1 keeps the same three pieces again; P2 returns.
        assert_eq!(view(&m).aside.p1, kept, "round {round}");
        round_end_all(&mut m, PerSeat::new("keep", "return"));
        credits.push(view(&m).credits);
        // Next round: P1 presents the drafted pieces and sets the kept ones aside.
        play_plainly(&mut m, |s| s.phase() != Phase::Draft);
        for _ in 0..3 {
            let hand = view(&m).hands.p1;
            let aside = hand.iter().find(|p| kept.contains(*p)).unwrap();
            let present = hand.iter().find(|p| !kept.contains(*p)).unwrap();
            submit(&mut m, P1, &format!("present {present} aside {aside}"));
            let hand = view(&m).hands.p2;
            let text = format!(
                "present {} aside {}",
                hand.nth(0).unwrap(),
                hand.nth(1).unwrap()
            );
            submit(&mut m, P2, &text);
            place_plainly(&mut m, P1);
            place_plainly(&mut m, P2);
        }
    }
    // 1 each, then 2 each, then 4 each, for three pieces.
    assert_eq!(
        credits,
        [PerSeat::new(0, 3), PerSeat::new(0, 9), PerSeat::new(0, 21)]
    );
    let v = view(&m);
    assert!(v.kept.p1.iter().all(|k| k.rounds == 3), "{:?}", v.kept.p1);
    // A round end without keeping starts the count again.
    round_end_all(&mut m, PerSeat::new("return", "return"));
    assert!(view(&m).kept.p1.is_empty());
}

/// Every kind of illegal entry, as text through the erased layer.
#[test]
fn illegal_actions_are_refused_with_their_rule() {
    let mut m = drafted();
    assert_refused(
        &mut m,
        &[
            (
                P1,
                "take Q",
                "notation",
                "`Q` is not a piece: the pieces are F I L N P T U V W X Y Z",
            ),
            (
                P1,
                "place T at A1",
                "wrong-decision",
                "you must present a piece and set one aside (`present T90 aside P`) now, not `place`",
            ),
            (
                P1,
                "present F aside F",
                "same-piece",
                "you cannot present and set aside the same piece (F)",
            ),
            (
                P1,
                "present I aside F",
                "not-in-hand",
                "I is not in your hand (your hand: F, L, P, U, W, Y)",
            ),
            (
                P1,
                "timeout",
                "notation",
                "`timeout` is for the clock to say",
            ),
        ],
    );
    play(
        &mut m,
        &[(P1, "present L aside F"), (P2, "present T aside I")],
    );
    assert_refused(
        &mut m,
        &[
            (
                P1,
                "place L at A1",
                "wrong-piece",
                "the piece to place is T, not L",
            ),
            (
                P1,
                "place T at I1",
                "off-wall",
                "T at I1 leaves the wall (columns A–J, rows 1–9)",
            ),
            (
                P1,
                "place T at A99",
                "off-wall",
                "T at A99 leaves the wall (columns A–J, rows 1–9)",
            ),
            (
                P1,
                "exchange P",
                "credits",
                "an Exchange costs 2 credits; you have 0 credits",
            ),
            (
                P1,
                "exchange I",
                "not-in-hand",
                "I is not in your hand (your hand: P, U, W, Y)",
            ),
            (
                P1,
                "orient T",
                "wrong-decision",
                "you must place the piece presented to you (`place T90 at C4`) or exchange it (`exchange L`) now, not `orient`",
            ),
        ],
    );
    submit(&mut m, P1, "place T at A1");
    assert_refused(
        &mut m,
        &[(
            P1,
            "place T at A2",
            "not-your-turn",
            "it is not P1's turn: waiting for P2",
        )],
    );
}

// Scoring.

fn wall(pieces: &[(&str, &str)]) -> Wall {
    Wall::from_placements(pieces.iter().map(|&(o, at)| placed(o, at))).unwrap()
}

/// The rulebook's example, laid out to match its description: a 6×6
/// square in rows 3–8, three P's in corners (1 each), a Z on the bottom
/// edge (2) and one inside (3), two T's on an edge (2 each), an X inside
/// (3); every other piece has a black cell, touches its own colour or an
/// unpainted cell; 3 cells unpainted (G7–G9), 3 black (I4–I6):
///
/// ```text
///    A B C D E F G H I J
///  1 P P Y Y Y Y T P P P
///  2 P P P Y T T T P P Y
///  3 T Y Y Y Y X T Z Z Y
///  4 T T T Y X X X Z # Y
///  5 T W W W L X Z Z # Y
///  6 W W W W L L L L # N
///  7 W W W Z Z P . L L N
///  8 P P P Z P P . P P N
///  9 P P Z Z P P . P P P
/// ```
#[test]
fn the_rulebook_scoring_example_scores_22() {
    let w = wall(EXAMPLE);
    let score = w.score(7);
    assert_eq!(
        (
            score.square,
            score.pieces,
            score.credits,
            score.unpainted,
            score.total
        ),
        (6, 15, 7, 3, 22)
    );
    let drawn = w.rows();
    assert_eq!(
        drawn,
        [
            "PPYYYYTPPP",
            "PPPYTTTPPY",
            "TYYYYXTZZY",
            "TTTYXXXZ#Y",
            "TWWWLXZZ#Y",
            "WWWWLLLL#N",
            "WWWZZP.LLN",
            "PPPZPP.PPN",
            "PPZZPP.PPP",
        ]
    );
    // The 6×6 square: columns A–F of rows 3–8.
    assert!(drawn[2..8].iter().all(|r| !r[..6].contains('.')));
    // The eight scoring pieces, as the rulebook lists them: three P's in
    // corners, a Z on the bottom edge and one inside, two T's on an edge,
    // an X inside; the other ten score nothing.
    assert_eq!(score.piece_points[..8], [1, 1, 1, 2, 3, 2, 2, 3]);
    assert!(score.piece_points[8..].iter().all(|&p| p == 0));
}

/// In placing order: the eight scoring pieces, then the rest.
const EXAMPLE: &[(&str, &str)] = &[
    ("Pm270", "H1"),
    ("Pm270", "A8"),
    ("P270", "A1"),
    ("Zm", "C7"),
    ("Zm", "G3"),
    ("T270", "A3"),
    ("T90", "E1"),
    ("X", "E3"),
    ("Y270", "C1"),
    ("Ym90", "B3"),
    ("Ym180", "I2"),
    ("W90", "A5"),
    ("W270", "B5"),
    ("Lm90", "E5"),
    ("Nm180", "I5"),
    ("P270", "H8"),
    ("P180", "E7"),
    ("Lm", "H4"),
];

#[test]
fn the_largest_square_counts_black_cells_as_painted() {
    // Two rows of I's make a 2×2 square; an X over them keeps it.
    let w = wall(&[("I", "A1"), ("I", "F1"), ("I", "A2"), ("I", "F2")]);
    assert_eq!(w.largest_square(), 2);
    let w = wall(&[("I", "A1"), ("I", "A2"), ("I", "A3"), ("X", "B1")]);
    assert_ne!(w.black(), 0);
    assert_eq!(w.largest_square(), 3);
    assert_eq!(Wall::default().largest_square(), 0);
}

/// A 5×5 block: an I along the top and one along the bottom, a U on
/// each side wrapped round an X.
///
/// ```text
/// I I I I I
/// U X X X U      (the X's arms reach the U's armpits)
/// U X X X U
/// ...
/// ```
const FRAME: [(&str, &str); 5] = [
    ("I", "A1"),
    ("U90", "A2"),
    ("X", "B2"),
    ("U270", "D2"),
    ("I", "A5"),
];

/// Five I's filling columns F–J of rows 1–5, beside the frame.
const BESIDE: [(&str, &str); 5] = [
    ("I", "F1"),
    ("I", "F2"),
    ("I", "F3"),
    ("I", "F4"),
    ("I", "F5"),
];

#[test]
fn a_clean_piece_scores_three_minus_the_edges_it_touches() {
    let w = wall(&FRAME);
    assert_eq!(
        w.rows()[..5],
        [
            "IIIII.....",
            "UUXUU.....",
            "UXXXU.....",
            "UUXUU.....",
            "IIIII....."
        ]
    );
    // The X: every neighbour painted, no edge: 3. The left U touches the
    // left edge: 2. The right U and both I's have unpainted neighbours: 0.
    assert_eq!(w.piece_points(), [0, 2, 3, 0, 0]);
    let w = wall(&[&FRAME[..], &BESIDE[..]].concat());
    // Painted beside it, the right U scores 3; the top I now touches
    // another I (F1): the same colour, so 0.
    assert_eq!(w.piece_points()[..5], [0, 2, 3, 3, 0]);
}

#[test]
fn black_cells_spoil_a_piece_and_have_no_colour() {
    // A second I over F1–J1 turns it black: those I's score nothing, and
    // the I on A1–E1 no longer touches its colour: a corner piece, 1.
    let mut pieces = [&FRAME[..], &BESIDE[..]].concat();
    pieces.push(("I", "F1"));
    let w = wall(&pieces);
    let points = w.piece_points();
    assert_eq!(points[0], 1, "{points:?}");
    assert_eq!((points[5], points[10]), (0, 0));
    // An X over the frame's X: both black, neither scores.
    let mut pieces = FRAME.to_vec();
    pieces.push(("X", "B2"));
    assert_eq!(wall(&pieces).piece_points()[2], 0);
}

#[test]
fn every_unpainted_cell_costs_two_and_every_credit_scores_one() {
    let w = wall(&[("I", "A1")]);
    let s = w.score(4);
    assert_eq!((s.unpainted, s.credits, s.square), (85, 4, 1));
    assert_eq!(s.total, 1 + 4 - 170);
}

// Tiebreaks.

fn scored(total: i64, unpainted: u32, credits: u32, square: u8) -> Score {
    Score {
        total,
        unpainted,
        credits,
        square,
        ..Score::default()
    }
}

#[test]
fn each_tiebreak_step_decides_in_turn() {
    for (p1, p2, winner, decider) in [
        (scored(10, 5, 0, 3), scored(9, 0, 9, 9), P1, Decider::Score),
        (
            scored(9, 5, 9, 9),
            scored(9, 4, 0, 0),
            P2,
            Decider::Unpainted,
        ),
        (scored(9, 4, 3, 0), scored(9, 4, 2, 9), P1, Decider::Credits),
        (scored(9, 4, 3, 4), scored(9, 4, 3, 5), P2, Decider::Square),
    ] {
        let scores = PerSeat::new(p1, p2);
        assert_eq!(compare(&scores, &[]), (Some(winner), decider), "{scores:?}");
    }
}

#[test]
fn the_threshold_rule_goes_to_the_first_seat_to_reach_zero_or_lower_steps() {
    let equal = PerSeat::new(scored(5, 2, 3, 4), scored(5, 2, 3, 4));
    let h = |v: &[(i64, i64)]| {
        v.iter()
            .map(|&(a, b)| PerSeat::new(a, b))
            .collect::<Vec<_>>()
    };
    // P2 reaches 0 first (after the third turn), though P1 ends higher.
    assert_eq!(
        compare(&equal, &h(&[(-50, -60), (-10, -5), (-2, 0), (5, 5)])),
        (Some(P2), Decider::Threshold(0))
    );
    // Neither ever reached 0: the highest reached is -20, P1 first.
    assert_eq!(
        compare(&equal, &h(&[(-80, -90), (-20, -40), (-30, -15)])),
        (Some(P1), Decider::Threshold(-20))
    );
    // Both reach it at the same turn: the higher score then.
    assert_eq!(
        compare(&equal, &h(&[(-80, -90), (-12, -18), (-25, -30)])),
        (Some(P1), Decider::Threshold(-20))
    );
    assert_eq!(
        compare(&equal, &h(&[(-80, -90), (-10, -10), (-5, -5)])),
        (None, Decider::Draw)
    );
    assert_eq!(Decider::Threshold(-20).words(), "first to reach -20");
}

#[test]
fn running_scores_are_taken_after_every_turn_and_the_outcome_names_its_step() {
    let mut m = drafted();
    play_plainly(&mut m, at_round_end);
    let s = state(&m);
    assert_eq!(s.history().len(), 3);
    let now = s.scores().map(|sc| sc.total);
    assert_eq!(*s.history().last().unwrap(), now);
    for _ in 2..=6 {
        round_end_all(&mut m, PerSeat::new("return", "return"));
        play_plainly(&mut m, |s| at_round_end(s) || s.phase() == Phase::Over);
    }
    let s = state(&m);
    assert_eq!(s.history().len(), 18);
    let outcome = m.outcome().expect("over");
    assert_eq!(outcome.scores, s.scores().map(|sc| sc.total));
    let (winner, decider) = compare(&s.scores(), s.history());
    assert_eq!(
        (outcome.winner, outcome.decided_by),
        (winner, decider.words())
    );
    assert!(Match::replay(erase::<PentominoWall>(), m.record()).is_ok());
}

// Time.

#[test]
fn a_timeout_plays_the_default_choice_and_says_so() {
    let mut m = timed_match::<PentominoWall>(&json!({}), 0);
    // 90 s a decision, then the 5-minute reserve.
    assert_eq!(m.next_deadline(), Some(90_000 + 300_000));
    let effects = time_out_to_the_end(&mut m);
    assert_eq!(
        effects[..4],
        [
            "P1 P1 drafts first (no choice in time)",
            "P1 took F (no choice in time)",
            "P2 took I (no choice in time)",
            "P1 took L (no choice in time)",
        ]
    );
    let turn: Vec<&str> = effects
        .iter()
        .skip(1)
        .skip_while(|e| e.contains("took"))
        .take(4)
        .map(String::as_str)
        .collect();
    assert_eq!(
        turn,
        [
            "P1 presented the first piece of its hand as drawn and set aside the second (no choice in time)",
            "P2 presented the first piece of its hand as drawn and set aside the second (no choice in time)",
            "P1 placed I at A1 (no choice in time)",
            "P2 placed F at A1 (no choice in time)",
        ]
    );
    assert!(effects.iter().any(|e| e.starts_with("P1 returned")));
    assert!(m.outcome().is_some());
    assert!(Match::replay(erase::<PentominoWall>(), m.record()).is_ok());
}

#[test]
fn time_past_90_seconds_comes_out_of_the_reserve() {
    let mut m = timed_match::<PentominoWall>(&json!({}), 0);
    m.submit(P1, "first P1", 120_000).unwrap();
    let clocks = m.clocks(Viewer::Spectator, 120_000).unwrap();
    assert_eq!(clocks.p1.bank_ms, 270_000);
    assert_eq!(m.next_deadline(), Some(120_000 + 90_000 + 270_000));
}

#[test]
fn bad_configs_are_refused_with_the_reason() {
    for (config, message) in [
        (
            json!({"quarter_turns": "sideways"}),
            "pentomino-wall: unknown variant",
        ),
        (
            json!({"advantage": "P3"}),
            "pentomino-wall: unknown variant",
        ),
        (json!({"rounds": 4}), "pentomino-wall: unknown field"),
    ] {
        let e = Match::new(
            erase::<PentominoWall>(),
            &config,
            0,
            MatchOptions::default(),
        )
        .unwrap_err();
        assert!(
            e.to_string().starts_with(&format!("bad config: {message}")),
            "{e}"
        );
    }
    let options: Vec<&str> = PentominoWall::options().iter().map(|o| o.key).collect();
    assert_eq!(options, ["advantage", "quarter_turns"]);
}

// Views.

#[test]
fn a_view_rebuilds_the_state_and_hides_only_a_sealed_choice() {
    let mut m = turn_one();
    play(&mut m, &[(P1, "place T at A1"), (P2, "place L at A1")]);
    submit(&mut m, P2, "present X aside N");
    let s = state(&m);
    let spectator = s.view(Viewer::Spectator);
    let text = serde_json::to_string(&spectator).unwrap();
    let back: View = serde_json::from_str(&text).unwrap();
    assert_eq!(back, spectator);
    let mut rng = seeded_rng(3);
    let mut asides = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let sample = PentominoWall::sample(Viewer::Spectator, &back, &(), &mut rng);
        assert_eq!(sample.view(Viewer::Spectator), spectator);
        asides.insert(sample.view(Viewer::Umpire).sealed.p2.unwrap().aside);
    }
    assert!(asides.len() > 2, "{asides:?}");
    // P2 itself gets its own choice back, and sees it on its board.
    let own = s.view(Viewer::Seat(P2));
    let board = own.render(false);
    assert!(board.contains("; sealed: present X aside N\n"), "{board}");
    assert!(
        board.contains("  1 T T T . . . . . . .     1 L . . . . . . . . ."),
        "{board}"
    );
    let sample = PentominoWall::sample(Viewer::Seat(P2), &own, &(), &mut rng);
    assert_eq!(sample, s);
}

#[test]
fn there_is_always_a_legal_placement_as_the_piece_lies() {
    // Any wall holds some piece's paint, and the cells a piece may reach
    // only grow with more paint: one piece anywhere is the worst case.
    let orientations: Vec<Orientation> = Piece::ALL.iter().flat_map(|p| p.orientations()).collect();
    for &o in &orientations {
        assert_ne!(Wall::default().anchors(o), 0, "{o} on an empty wall");
    }
    for &first in &orientations {
        // Every anchor where it lies on the wall, border or not.
        let (w, h) = first.size();
        let mut anchors = 0u128;
        for row in 0..=(9 - h as usize) {
            for col in 0..=(10 - w as usize) {
                anchors |= 1 << (row * 10 + col);
            }
        }
        while anchors != 0 {
            let at = Cell::from_index(anchors.trailing_zeros() as usize, 10);
            anchors &= anchors - 1;
            let w = Wall::from_placements([Placed::new(first, at)]).unwrap();
            for &o in &orientations {
                assert_ne!(w.anchors(o), 0, "{o} after {first} at {at}");
            }
        }
    }
}

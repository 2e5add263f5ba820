//! Bomb Domain's rules, one test per rule, legal and illegal; every
//! refusal goes through one shared check that it names its rule and
//! changes nothing.

use serde_json::{Value, json};
use umpire_bomb_domain::{
    Action, BombDomain, Config, Kind, Phase, Placement, SealedView, Turn, View,
};
use umpire_core::conformance::{self, assert_refused_by as assert_refused, play_text as play};
use umpire_core::{Cell, Game, Match, MatchOptions, Render, Seat, Viewer, erase, seeded_rng};

const P1: Seat = Seat::P1;
const P2: Seat = Seat::P2;

fn c(text: &str) -> Cell {
    Cell::parse(text, 9, 9).unwrap()
}

fn new_game() -> BombDomain {
    BombDomain::new(&Config::default(), 0).unwrap()
}

/// A position built from a picture: nine rows of nine cells (spaces are
/// ignored): `.` empty, `S P X` P1's square, plus, cross, `s p x` P2's,
/// `O`/`o` a peg P1/P2 placed, `B`/`b` a peg a P1/P2 detonation left.
/// P1 is the DMO and chose the starter; domains are the starting halves,
/// with every peg's cell its owner's. Returns the umpire's view as JSON,
/// to adjust before [`build`].
fn picture(phase: &str, rows: [&str; 9]) -> Value {
    let mut view = serde_json::to_value(new_game().view(Viewer::Umpire)).unwrap();
    let mut pieces = json!({"P1": {"square": [], "plus": [], "cross": []},
                            "P2": {"square": [], "plus": [], "cross": []}});
    let mut pegs = json!({"P1": [], "P2": []});
    let mut blast_pegs = json!({"P1": [], "P2": []});
    let mut domain: Vec<Vec<char>> = (0..9).map(|_| "1111.2222".chars().collect()).collect();
    for (row, line) in rows.iter().enumerate() {
        let line: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(line.len(), 9, "row {}", row + 1);
        for (col, ch) in line.into_iter().enumerate() {
            let cell = Cell::new(col as u8, row as u8).to_string();
            let seat = if ch.is_ascii_uppercase() { "P1" } else { "P2" };
            let add = |list: &mut Value| list.as_array_mut().unwrap().push(json!(cell));
            match ch.to_ascii_lowercase() {
                's' => add(&mut pieces[seat]["square"]),
                'p' => add(&mut pieces[seat]["plus"]),
                'x' => add(&mut pieces[seat]["cross"]),
                'o' => add(&mut pegs[seat]),
                'b' => add(&mut blast_pegs[seat]),
                _ => continue,
            }
            if matches!(ch, 'o' | 'O' | 'b' | 'B') {
                domain[row][col] = if seat == "P1" { '1' } else { '2' };
            }
        }
    }
    view["phase"] = json!(phase);
    view["pieces"] = pieces;
    view["pegs"] = pegs;
    view["blast_pegs"] = blast_pegs;
    view["domain"] = json!(
        domain
            .iter()
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
    );
    view["chooser"] = json!("P1");
    view["starter"] = json!("P1");
    view
}

/// The state a view shows (the umpire's view hides nothing).
fn build(view: Value) -> BombDomain {
    let view: View = serde_json::from_value(view).unwrap();
    BombDomain::sample(Viewer::Umpire, &view, &(), &mut seeded_rng(0))
}

/// A turns-phase position with `turn` turns taken, P1 starting.
fn turns(rows: [&str; 9], turn: u8) -> BombDomain {
    let mut view = picture("turns", rows);
    view["round"] = json!(7);
    view["in_hand"] = json!(0);
    view["turn"] = json!(turn);
    build(view)
}

/// A placement-phase position in round `round`.
fn placing(rows: [&str; 9], round: u8) -> BombDomain {
    let mut view = picture("place", rows);
    view["round"] = json!(round);
    build(view)
}

const EMPTY: [&str; 9] = [
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
];

fn owner_row(state: &BombDomain, row: u8) -> String {
    (0..9)
        .map(|col| match state.owner(Cell::new(col, row - 1)) {
            Some(Seat::P1) => '1',
            Some(Seat::P2) => '2',
            None => '.',
        })
        .collect()
}

// ---- the starter choice ----

#[test]
fn the_dmo_chooses_the_starter_or_defers_to_the_ec() {
    let mut state = new_game();
    assert_eq!(state.decision().kind(P1), Some("first"));
    assert_eq!(state.decision().kind(P2), None);
    let listed: Vec<String> = state
        .legal_actions(P1)
        .unwrap()
        .map(|a| a.to_string())
        .collect();
    assert_eq!(listed, ["first P1", "first P2", "defer"]);
    assert_refused(
        &state,
        &[
            (
                P2,
                "first P2",
                "not-your-turn",
                "it is not P2's turn: waiting for P1",
            ),
            (
                P1,
                "square B2, plus C4, cross A7",
                "wrong-decision",
                "`square B2, plus C4, cross A7` is not what this decision takes: choose who takes \
                 the first turn, `first P1` or `first P2`, or `defer` to the EC",
            ),
        ],
    );
    let mut chosen = state.clone();
    play(&mut chosen, P1, "first P2");
    assert_eq!(chosen.chooser(), Some(P1));
    assert_eq!(chosen.phase(), Phase::Place);

    play(&mut state, P1, "defer");
    assert_eq!(state.decision().kind(P2), Some("deferred-first"));
    assert_refused(
        &state,
        &[
            (
                P2,
                "defer",
                "cannot-defer",
                "the DMO handed you the starter choice: say `first P1` or `first P2`",
            ),
            (
                P1,
                "first P1",
                "not-your-turn",
                "it is not P1's turn: waiting for P2",
            ),
        ],
    );
    play(&mut state, P2, "first P1");
    assert_eq!(state.chooser(), Some(P2));
    assert_eq!(state.phase(), Phase::Place);
}

// ---- placement ----

#[test]
fn a_submission_stays_sealed_until_both_are_in_and_then_both_land() {
    let mut state = new_game();
    play(&mut state, P1, "first P1");
    play(&mut state, P1, "square B2, plus C4, cross A7");
    for viewer in [Viewer::Seat(P2), Viewer::Spectator] {
        let view = state.view(viewer);
        assert_eq!(view.sealed.p1, SealedView::Submitted);
        let text = serde_json::to_string(&view).unwrap();
        for cell in ["B2", "C4", "A7"] {
            assert!(!text.contains(cell), "{viewer} sees {cell}: {text}");
        }
        assert!(view.pieces.p1.square.is_empty());
    }
    let own = state.view(Viewer::Seat(P1));
    assert_eq!(
        own.sealed.p1,
        SealedView::Placed("square B2, plus C4, cross A7".parse::<Placement>().unwrap())
    );
    assert!(
        state.piece(c("B2")).is_none(),
        "nothing lands before both are in"
    );
    assert_refused(
        &state,
        &[(
            P1,
            "square B3, plus C5, cross A8",
            "already-submitted",
            "P1 has already submitted for this round",
        )],
    );
    play(&mut state, P2, "x H7, p G4, s I2");
    assert_eq!(state.piece(c("B2")), Some((P1, Kind::Square)));
    assert_eq!(state.piece(c("G4")), Some((P2, Kind::Plus)));
    assert_eq!(state.decision().get(P1).unwrap().step, 2);
    let last = state.view(Viewer::Spectator).last_event().unwrap();
    assert_eq!(
        last,
        "round 1: P1 square B2, plus C4, cross A7; P2 square I2, plus G4, cross H7"
    );
    // Placement claims nothing.
    assert_eq!(state.cells().p1, 36);
}

#[test]
fn odd_rounds_place_in_the_own_starting_domain_even_rounds_in_the_opponents() {
    let round1 = placing(EMPTY, 1);
    assert_refused(
        &round1,
        &[
            (
                P1,
                "square F2, plus C4, cross A7",
                "wrong-domain",
                "round 1 places in your starting domain, columns A–D: F2 is not there",
            ),
            (
                P2,
                "square E2, plus G4, cross I7",
                "wrong-domain",
                "round 1 places in your starting domain, columns F–I: E2 is not there",
            ),
        ],
    );
    let round2 = placing(EMPTY, 2);
    assert_refused(
        &round2,
        &[(
            P1,
            "square B2, plus G4, cross I7",
            "wrong-domain",
            "round 2 places in the opponent's starting domain, columns F–I: B2 is not there",
        )],
    );
    let mut round2 = round2;
    play(&mut round2, P1, "square F2, plus G4, cross I7");
    play(&mut round2, P2, "square A2, plus B4, cross D7");
    assert_eq!(round2.piece(c("A2")), Some((P2, Kind::Square)));
}

#[test]
fn no_two_pieces_of_a_submission_in_one_two_by_two_block() {
    let state = placing(EMPTY, 1);
    assert_refused(
        &state,
        &[
            (
                P1,
                "square B2, plus C3, cross A7",
                "two-by-two",
                "B2 and C3 lie in one 2×2 block, which no two pieces of one submission may share",
            ),
            (
                P1,
                "square B2, plus A7, cross B3",
                "two-by-two",
                "B2 and B3 lie in one 2×2 block, which no two pieces of one submission may share",
            ),
            (
                P1,
                "square B2, plus B2, cross A7",
                "same-cell",
                "two pieces on B2: each piece needs its own cell",
            ),
        ],
    );
    let mut ok = state;
    play(&mut ok, P1, "square B2, plus D2, cross B4");
}

#[test]
fn a_piece_never_goes_on_an_occupied_cell() {
    let state = placing(
        [
            ". . . . . . . . .",
            ". S . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        3,
    );
    assert_refused(
        &state,
        &[(
            P1,
            "square B2, plus D4, cross A7",
            "occupied",
            "B2 is occupied",
        )],
    );
}

#[test]
fn the_neighbour_rule_holds_while_three_cells_meet_both_rules() {
    let state = placing(
        [
            ". S . . . . . . .",
            "p . x . . . . . .",
            ". s . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        3,
    );
    assert_refused(
        &state,
        &[(
            P1,
            "square B2, plus D4, cross A7",
            "neighbours",
            "B2 has 4 occupied orthogonal neighbours: a piece may have at most 2 while three \
             cells of the domain still meet both rules (e.g. A1, C1, A3)",
        )],
    );
    let mut ok = state;
    play(&mut ok, P1, "square D2, plus D4, cross A7");
}

#[test]
fn the_neighbour_rule_is_lifted_when_no_three_cells_meet_both_rules() {
    // A–D full but for B2, B5 and B8, each with four occupied neighbours.
    let rows = [
        "S S S S . . . . .",
        "S . S S . . . . .",
        "S S S S . . . . .",
        "p p p p . . . . .",
        "p . p p . . . . .",
        "p p p p . . . . .",
        "x x x x . . . . .",
        "x . x x . . . . .",
        "x x x x . . . . .",
    ];
    let state = placing(rows, 5);
    let (cells, lifted) = state.placement_cells(P1);
    assert!(lifted);
    assert_eq!(cells.count_ones(), 3);
    let mut state = state;
    play(&mut state, P1, "square B2, plus B5, cross B8");
    let listed: Vec<String> = state
        .placements(P2)
        .take(3)
        .map(|p| p.to_string())
        .collect();
    assert_eq!(listed.len(), 3, "P2's own half is empty");
}

// ---- the move step ----

const PAIR: [&str; 9] = [
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . P . . .",
    ". . . S . . . . .",
    ". . . . . . . . .",
    ". . . s . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
];

#[test]
fn a_move_pair_is_one_vertical_and_one_horizontal_move_of_equal_length() {
    let state = turns(PAIR, 0);
    assert_refused(
        &state,
        &[
            (
                P1,
                "move D4-D3 F3-H3",
                "equal-lengths",
                "both moves of a pair go the same number of cells: D4-D3 goes 1, F3-H3 goes 2",
            ),
            (
                P1,
                "move D4-D2 F3-F1",
                "one-of-each",
                "a move pair is one vertical and one horizontal move: D4-D2 and F3-F1 are both vertical",
            ),
            (
                P1,
                "move D4-I4 F3-F8",
                "move-length",
                "D4-I4 moves 5 cells: a straight move is 1 to 4 cells",
            ),
            (
                P1,
                "move D4-D4 F3-F3",
                "move-length",
                "D4-D4 moves 0 cells: a straight move is 1 to 4 cells",
            ),
            (
                P1,
                "move D4-E5 F3-G3",
                "not-straight",
                "D4-E5 is neither vertical nor horizontal",
            ),
            (
                P1,
                "move D6-D8 F3-H3",
                "not-your-piece",
                "D6 holds no piece of yours",
            ),
            (
                P1,
                "move D4-D2 D2-B2",
                "same-piece",
                "the piece that moved D4-D2 cannot move again: a pair moves two different pieces",
            ),
            (
                P1,
                "move D4-D7 F3-I3",
                "blocked",
                "D4-D7 is blocked at D6: no piece moves through or onto a piece or peg",
            ),
            (
                P1,
                "move D4-D6 F3-H3",
                "blocked",
                "D4-D6 is blocked at D6: no piece moves through or onto a piece or peg",
            ),
            (
                P1,
                "move D4-J4 F3-F9",
                "off-board",
                "J4 is off the board (columns A–I, rows 1–9)",
            ),
        ],
    );
    let mut state = state;
    play(&mut state, P1, "move F3-I3 D4-D1");
    assert_eq!(state.piece(c("I3")), Some((P1, Kind::Plus)));
    assert_eq!(state.piece(c("D1")), Some((P1, Kind::Square)));
}

#[test]
fn a_pair_moves_in_the_order_written_each_on_the_board_as_it_stands() {
    // B1 must step down before A1 can move right into its cell.
    let state = turns(
        [
            "S X o . . . . . .",
            "o . . . . . . . .",
            ". o . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        0,
    );
    assert_eq!(state.pairs(P1).len(), 1);
    assert!(state.has_pair(P1));
    assert_refused(
        &state,
        &[(
            P1,
            "move A1-B1 B1-B2",
            "blocked",
            "A1-B1 is blocked at B1: no piece moves through or onto a piece or peg",
        )],
    );
    let mut state = state;
    play(&mut state, P1, "move B1-B2 A1-B1");
    assert_eq!(state.piece(c("B1")), Some((P1, Kind::Square)));
    assert_eq!(state.piece(c("B2")), Some((P1, Kind::Cross)));
}

#[test]
fn a_moving_piece_claims_the_cell_it_leaves_and_the_cell_it_lands_on() {
    let mut state = turns(
        [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . S . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . P",
        ],
        1,
    );
    // P2's turn: P1 is the one to move next, so P2 passes first.
    play(&mut state, P2, "pass");
    play(&mut state, P1, "move D5-H5 I9-I5");
    assert_eq!(
        owner_row(&state, 5),
        "1111.2211",
        "D5, H5 and I5: not E5–G5"
    );
    assert_eq!(owner_row(&state, 9), "1111.2221");
}

#[test]
fn the_diagonal_step_only_when_no_pair_exists_and_it_ends_the_turn() {
    // A1 and B1 cannot move straight at all.
    let boxed = turns(
        [
            "S X o . . . . . .",
            "o o . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        0,
    );
    assert!(!boxed.has_pair(P1));
    assert_eq!(boxed.diagonal_steps(P1).len(), 1);
    assert_refused(
        &boxed,
        &[
            (
                P1,
                "diagonal B1-C2; peg E5",
                "diagonal-ends-turn",
                "a diagonal step ends the turn: no peg or detonation after it",
            ),
            (
                P1,
                "diagonal A1-B2",
                "blocked",
                "A1-B2 is blocked at B2: no piece moves through or onto a piece or peg",
            ),
            (
                P1,
                "diagonal B1-D3",
                "not-diagonal",
                "B1-D3 is not one cell diagonally",
            ),
        ],
    );
    let mut moved = boxed.clone();
    play(&mut moved, P1, "diagonal B1-C2");
    assert_eq!(moved.piece(c("C2")), Some((P1, Kind::Cross)));
    assert_eq!(
        owner_row(&moved, 2),
        "2211.2222",
        "A2, B2: P2's pegs; C2 claimed"
    );
    // With a pair on the board (even one that exists only in one order),
    // no diagonal step.
    let with_pair = turns(PAIR, 0);
    assert_refused(
        &with_pair,
        &[(
            P1,
            "diagonal D4-E5",
            "pair-exists",
            "a diagonal step is allowed only when no move pair exists, and `move F3-F2 D4-C4` is one",
        )],
    );
    // Without a move, a seat with no pair may still peg or detonate.
    let mut stay = boxed;
    play(&mut stay, P1, "peg E5; detonate A1");
}

// ---- pegs ----

#[test]
fn pegs_take_a_row_and_column_of_their_own_among_the_seats_placed_pegs() {
    let state = turns(
        [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . B . . . . . .",
            ". . . . . . . . .",
            ". . . . O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        0,
    );
    assert_refused(
        &state,
        &[
            (
                P1,
                "peg E8",
                "peg-row-column",
                "E8 shares a column with your peg on E5: each peg needs its own row and column",
            ),
            (
                P1,
                "peg H5",
                "peg-row-column",
                "H5 shares a row with your peg on E5: each peg needs its own row and column",
            ),
            (P1, "peg C3", "occupied", "C3 is occupied"),
        ],
    );
    // A detonation's peg neither counts nor binds: C7 shares C3's column.
    let mut state = state;
    play(&mut state, P1, "peg C7");
    assert_eq!(state.owner(c("C7")), Some(P1));
    assert_eq!(state.view(Viewer::Spectator).pegs_left.p1, 7);
}

#[test]
fn a_seat_places_nine_pegs_at_most() {
    let state = turns(
        [
            "O . . . . . . . .",
            ". O . . . . . . .",
            ". . O . . . . . .",
            ". . . O . . . . .",
            ". . . . O . . . .",
            ". . . . . O . . .",
            ". . . . . . O . .",
            ". . . . . . . O .",
            ". . . . . . . . O",
        ],
        0,
    );
    assert_eq!(state.view(Viewer::Spectator).pegs_left.p1, 0);
    assert_refused(
        &state,
        &[(
            P1,
            "peg B1",
            "no-pegs-left",
            "all 9 of your pegs are placed",
        )],
    );
}

#[test]
fn no_peg_in_the_blast_shape_of_a_piece_moved_or_detonated_this_turn() {
    let state = turns(PAIR, 0);
    assert_refused(
        &state,
        &[
            (
                P1,
                "move D4-D3 F3-E3; peg C5",
                "peg-in-blast",
                "C5 is in the blast shape of your square moved from D4: no peg in the blast shape \
                 of a piece you move (start or end) or detonate this turn",
            ),
            (
                P1,
                "move D4-D3 F3-E3; peg C2",
                "peg-in-blast",
                "C2 is in the blast shape of your square moved to D3: no peg in the blast shape \
                 of a piece you move (start or end) or detonate this turn",
            ),
            (
                P1,
                "move D4-D3 F3-E3; peg F5",
                "peg-in-blast",
                "F5 is in the blast shape of your plus moved from F3: no peg in the blast shape \
                 of a piece you move (start or end) or detonate this turn",
            ),
            (
                P1,
                "peg F1; detonate F3",
                "peg-in-blast",
                "F1 is in the blast shape of your plus detonating on F3: no peg in the blast \
                 shape of a piece you move (start or end) or detonate this turn",
            ),
        ],
    );
    let mut state = state;
    // Outside every shape; the detonated piece moved first, and its shape
    // is centred where it stands after the move.
    play(&mut state, P1, "move D4-D3 F3-E3; peg H8; detonate E3");
    assert_eq!(state.owner(c("H8")), Some(P1));
    assert_eq!(state.pegs(P1), (vec![c("H8")], vec![c("E3")]));
}

#[test]
fn no_peg_next_to_a_piece_the_opponent_moved_diagonally_the_turn_before() {
    // P2's only pieces are boxed in at I1 and H1.
    let mut state = turns(
        [
            ". . . . . . o x s",
            ". . . . . . . o o",
            ". . . . . . . . .",
            ". S . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        1,
    );
    assert!(!state.has_pair(P2));
    play(&mut state, P2, "diagonal H1-G2");
    assert_eq!(state.view(Viewer::Spectator).diagonal, Some(c("G2")));
    assert_refused(
        &state,
        &[(
            P1,
            "peg G3",
            "peg-next-to-diagonal",
            "G3 is next to G2, which P2 moved diagonally in the turn just before: no peg there this turn",
        )],
    );
    let mut later = state.clone();
    play(&mut later, P1, "peg A9");
    play(&mut later, P2, "pass");
    // The turn just before was a pass: next to G2 is open again.
    play(&mut later, P1, "peg F2");
    assert_eq!(later.view(Viewer::Spectator).diagonal, None);
}

// ---- detonation ----

#[test]
fn each_blast_shape_at_the_centre_an_edge_and_a_corner() {
    for (kind, letter, sizes) in [
        (Kind::Square, 'S', [9, 6, 4]),
        (Kind::Plus, 'P', [9, 7, 5]),
        (Kind::Cross, 'X', [9, 5, 3]),
    ] {
        for (at, size) in ["E5", "A5", "I9"].into_iter().zip(sizes) {
            let cell = c(at);
            let mut rows: Vec<String> = EMPTY.iter().map(|r| r.replace(' ', "")).collect();
            rows[cell.row as usize].replace_range(
                cell.col as usize..cell.col as usize + 1,
                &letter.to_string(),
            );
            let rows: [&str; 9] = std::array::from_fn(|i| rows[i].as_str());
            let mut state = turns(rows, 0);
            let mut view = serde_json::to_value(state.view(Viewer::Umpire)).unwrap();
            view["domain"] = json!(vec![".........".to_string(); 9]);
            state = build(view);
            play(&mut state, P1, &format!("detonate {at}"));
            assert_eq!(state.cells().p1, size, "{kind} at {at}");
            let shape = state.shapes().of(kind, cell);
            assert_eq!(shape.count_ones(), size, "{kind} at {at}");
            assert_eq!(state.pegs(P1).1, vec![cell]);
        }
    }
}

#[test]
fn a_detonation_claims_its_shape_but_not_pegs_or_pieces_and_leaves_a_peg() {
    let mut state = turns(
        [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . s o . . .",
            ". . . . . S . . .",
            ". . . . . . P . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        0,
    );
    assert_refused(
        &state,
        &[(
            P1,
            "detonate E4",
            "not-your-piece",
            "E4 holds no piece of yours",
        )],
    );
    play(&mut state, P1, "detonate F5");
    // E4 (P2's piece) and F4 (P2's peg) are not claimed; G6 (P1's own
    // piece) neither, and E5, G4, G5, E6, F6 are; F5 becomes P1's peg.
    assert_eq!(owner_row(&state, 4), "1111.2122");
    assert_eq!(owner_row(&state, 5), "111111122");
    assert_eq!(owner_row(&state, 6), "111111222");
    assert_eq!(state.piece(c("F5")), None);
    assert_eq!(state.pegs(P1), (vec![], vec![c("F5")]));
    assert_eq!(state.view(Viewer::Spectator).pegs_left.p1, 9);
}

// ---- the end ----

#[test]
fn the_final_blast_claims_around_each_piece_and_a_cell_both_reach_keeps_its_owner() {
    let mut state = turns(
        [
            ". . . . . . . . .",
            ". . s . . . . . .",
            ". o X . x . . . .",
            ". . S . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        49,
    );
    // Before: D3 is P1's (column D), E3 nobody's.
    play(&mut state, P2, "pass");
    assert_eq!(state.phase(), Phase::Over);
    // C3's blast: B3 is P2's peg and C2, C4 hold pieces, so only D3,
    // which E3's blast reaches too: D3 stays P1's. E3 claims E2, E4 (and
    // F3, P2's already); C2 claims C1, B2, D2; C4 claims B4, D4, C5.
    assert_eq!(owner_row(&state, 1), "1121.2222");
    assert_eq!(owner_row(&state, 2), "122222222");
    assert_eq!(owner_row(&state, 3), "121122222");
    assert_eq!(owner_row(&state, 4), "111122222");
    assert_eq!(owner_row(&state, 5), "1111.2222");
    assert_eq!(state.view(Viewer::Spectator).pieces.p1.cross, vec![c("C3")]);
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.decided_by, "cells");
}

#[test]
fn most_cells_win_and_the_outcome_says_how_many() {
    let mut state = turns(
        [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . P . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        49,
    );
    play(&mut state, P2, "pass");
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.winner, Some(P1));
    assert_eq!((outcome.scores.p1, outcome.scores.p2), (40, 35));
    assert_eq!(
        outcome.reason,
        "P1 wins with more cells: P1 holds 40 cells, P2 35 (6 neutral)"
    );
}

#[test]
fn a_tie_goes_to_the_seat_that_did_not_choose_the_starter() {
    let mut chosen = turns(EMPTY, 49);
    play(&mut chosen, P2, "pass");
    let outcome = chosen.outcome().unwrap();
    assert_eq!(outcome.winner, Some(P2));
    assert_eq!(outcome.decided_by, "did not choose the starter");
    assert_eq!(
        outcome.reason,
        "P2 wins the tie as the seat that did not choose the starter (P1 chose the starter): \
         P1 holds 36 cells, P2 36 (9 neutral)"
    );
}

/// The mirror image of a cell across column E.
fn mirror(cell: Cell) -> Cell {
    Cell::new(8 - cell.col, cell.row)
}

#[test]
fn after_defer_the_dmo_has_not_decided_and_wins_the_tie() {
    // A whole game: P2 answers every placement with P1's mirror image and
    // both pass every turn, so the board stays symmetric.
    let mut state = new_game();
    play(&mut state, P1, "defer");
    play(&mut state, P2, "first P2");
    let mut rng = seeded_rng(9);
    while state.phase() == Phase::Place {
        let p = state.sample_placement(P1, &mut rng).unwrap();
        let m = Placement {
            cells: p.cells.map(mirror),
        };
        play(&mut state, P1, &p.to_string());
        play(&mut state, P2, &m.to_string());
    }
    assert_eq!(state.to_move(), Some(P2));
    for i in 0..50 {
        play(&mut state, if i % 2 == 0 { P2 } else { P1 }, "pass");
    }
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome.scores.p1, outcome.scores.p2);
    assert_eq!(outcome.winner, Some(P1));
    assert!(
        outcome
            .reason
            .contains("P1 deferred and P2 chose the starter"),
        "{}",
        outcome.reason
    );
}

#[test]
fn a_turn_is_one_action_and_pass_is_a_turn() {
    let mut state = turns(PAIR, 0);
    assert_eq!(state.decision().kind(P1), Some("turn"));
    assert!(
        state.legal_actions(P1).is_none(),
        "turns are too many to list"
    );
    assert_refused(
        &state,
        &[
            (
                P1,
                "square B2, plus C4, cross A7",
                "wrong-decision",
                "`square B2, plus C4, cross A7` is not what this decision takes: play a turn, \
                 like `move D4-D6 F3-H3; peg G7; detonate C3`, or `pass`",
            ),
            (
                P1,
                "detonate C3; peg G7",
                "notation",
                "the parts of a turn go in the order they happen: move (or diagonal), then peg, \
                 then detonate",
            ),
        ],
    );
    play(&mut state, P1, "pass");
    assert_eq!(state.to_move(), Some(P2));
    assert_eq!(state.turns_taken(), 1);
    assert_eq!(
        state.view(Viewer::Spectator).last_event().unwrap(),
        "P1 passed"
    );
}

#[test]
fn listed_and_sampled_turns_agree_with_the_rules() {
    let state = turns(PAIR, 0);
    let listed: Vec<Turn> = state.turns(P1).collect();
    assert!(
        listed.contains(
            &"move D4-D3 F3-E3; peg H8; detonate E3"
                .parse::<Turn>()
                .unwrap()
        )
    );
    for t in &listed {
        let mut copy = state.clone();
        copy.play(P1, &Action::Turn(*t))
            .unwrap_or_else(|e| panic!("listed `{t}`: {e}"));
    }
    let mut rng = seeded_rng(1);
    for _ in 0..200 {
        let t = state.sample_turn(P1, &mut rng);
        assert!(listed.contains(&t), "sampled `{t}` is not listed");
    }
    assert!(state.turns(P2).next().is_none(), "not P2's turn");
}

// ---- time ----

fn timed_match() -> Match {
    conformance::timed_match::<BombDomain>(&json!({}), 0)
}

#[test]
fn a_lapsed_starter_choice_makes_the_dmo_start_and_count_as_the_chooser() {
    let mut m = timed_match();
    assert_eq!(m.next_deadline(), Some(90_000));
    let flagged = m.advance(90_001);
    assert_eq!(
        flagged[0].effect.as_deref(),
        Some("starter choice lapsed: P1 takes the first turn and counts as the chooser")
    );
    assert_eq!(m.view(Viewer::Spectator)["chooser"], "P1");
    assert_eq!(m.view(Viewer::Spectator)["phase"], "place");
}

#[test]
fn a_missed_placement_loses_those_pieces() {
    let mut m = timed_match();
    m.submit(P1, "first P1", 1_000).unwrap();
    m.submit(P1, "square B2, plus C4, cross A7", 30_000)
        .unwrap();
    // P2's 90 s run out.
    assert_eq!(m.next_deadline(), Some(91_000));
    let flagged = m.advance(91_001);
    assert_eq!(flagged.len(), 1);
    assert_eq!(
        (
            flagged[0].seat,
            flagged[0].action.as_str(),
            flagged[0].effect.as_deref()
        ),
        (
            P2,
            "timeout",
            Some("pieces lost: P2's square, plus and cross of round 1")
        )
    );
    let view = m.view(Viewer::Spectator);
    assert_eq!(view["lost"]["P2"], 1);
    assert_eq!(view["pieces"]["P1"]["square"], json!(["B2"]));
    assert_eq!(view["pieces"]["P2"]["square"], json!([]));
    assert_eq!(view["round"], 2);
    // Both miss round 2: the round still ends.
    let flagged = m.advance(91_001 + 90_001);
    assert_eq!(flagged.len(), 2);
    assert_eq!(m.view(Viewer::Spectator)["round"], 3);
    let replayed = Match::replay(erase::<BombDomain>(), m.record()).unwrap();
    assert_eq!(replayed.view(Viewer::Umpire), m.view(Viewer::Umpire));
}

#[test]
fn a_turn_with_no_time_left_is_skipped() {
    let mut m = timed_match();
    let mut rng = seeded_rng(3);
    let mut now = 0;
    while m.view(Viewer::Spectator)["phase"] != "turns" {
        now += 1_000;
        let seat = m.decision().seats().iter().next().unwrap();
        let action = m.seat_view(seat).sample_action(&mut rng).unwrap();
        m.submit(seat, &action, now).unwrap();
    }
    let seat = m.decision().seats().iter().next().unwrap();
    // 2 minutes, then three 1-minute reserve periods.
    assert_eq!(m.next_deadline(), Some(now + 120_000 + 180_000));
    // A turn that runs 61 s over uses two periods.
    m.submit(seat, "pass", now + 181_000).unwrap();
    let clocks = m.clocks(Viewer::Spectator, now + 181_000).unwrap();
    assert_eq!(clocks[seat].periods, 1);
    now += 181_000;
    m.submit(seat.other(), "pass", now).unwrap();
    // The seat has one period left: flagged after 3 minutes.
    assert_eq!(m.next_deadline(), Some(now + 180_000));
    let flagged = m.advance(now + 180_001);
    assert_eq!(
        flagged[0].effect.as_deref(),
        Some(
            "turn skipped: P1's turn 2 of 25"
                .replace("P1", &seat.to_string())
                .as_str()
        )
    );
    assert_eq!(m.view(Viewer::Spectator)["turn"], 3);
    assert_eq!(m.decision().kind(seat.other()), Some("turn"));
}

// ---- config ----

#[test]
fn bad_configs_are_refused_with_a_clear_reason() {
    for (config, message) in [
        (json!({"advantage": "P3"}), "unknown variant `P3`"),
        (json!({"colour": 1}), "unknown field `colour`"),
        (
            json!({"square_blast": "##/##"}),
            "bad config: bomb-domain: square_blast `##/##` has no centre cell: its width and \
             height must be odd",
        ),
        (
            json!({"cross_blast": "#x#"}),
            "bad config: bomb-domain: cross_blast `#x#` has `x`: a picture is rows of `#` \
             (covered) and `.` separated by `/`",
        ),
        (
            json!({"final_blast": "#.#"}),
            "bad config: bomb-domain: final_blast `#.#` does not cover its centre: the piece's \
             own cell must be `#`",
        ),
    ] {
        let e = Match::new(erase::<BombDomain>(), &config, 0, MatchOptions::default()).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("bad config: bomb-domain:"), "{text}");
        assert!(text.contains(message), "{text}");
    }
}

#[test]
fn a_host_s_shapes_are_used_and_shown() {
    let config = json!({"square_blast": "#####", "final_blast": null, "plus_blast": ""});
    let m = conformance::timed_match::<BombDomain>(&config, 0);
    let view = m.view(Viewer::Spectator);
    assert_eq!(view["shapes"]["square"], "#####");
    assert_eq!(view["shapes"]["final"], ".#./###/.#.");
    assert_eq!(view["shapes"]["plus"], "..#../..#../#####/..#../..#..");
    let state = m.state().downcast::<BombDomain>().unwrap();
    assert_eq!(state.shapes().of(Kind::Square, c("A1")).count_ones(), 3);
}

// ---- the terminal ----

fn last(state: &BombDomain, viewer: Viewer) -> String {
    state.view(viewer).last_event().unwrap_or_default()
}

#[test]
fn the_latest_event_says_a_sealed_submission_in_full_only_to_its_seat() {
    let mut state = new_game();
    play(&mut state, P1, "defer");
    assert_eq!(
        last(&state, Viewer::Spectator),
        "P1 deferred the starter choice to P2"
    );
    play(&mut state, P2, "first P1");
    assert_eq!(
        last(&state, Viewer::Seat(P1)),
        "P2 chose P1 to take the first turn"
    );
    play(&mut state, P2, "square I2, plus G4, cross H7");
    for viewer in [Viewer::Seat(P1), Viewer::Spectator] {
        assert_eq!(
            last(&state, viewer),
            "P2 submitted its round 1 placement, sealed until both are in"
        );
    }
    for viewer in [Viewer::Seat(P2), Viewer::Umpire] {
        assert_eq!(
            last(&state, viewer),
            "P2 submitted, sealed: square I2, plus G4, cross H7 (round 1)"
        );
    }
    play(&mut state, P1, "square B2, plus C4, cross A7");
    for viewer in [Viewer::Seat(P1), Viewer::Seat(P2), Viewer::Spectator] {
        assert_eq!(
            last(&state, viewer),
            "round 1: P1 square B2, plus C4, cross A7; P2 square I2, plus G4, cross H7"
        );
    }
}

#[test]
fn a_lost_round_and_a_skipped_turn_are_said_in_words() {
    let mut m = timed_match();
    m.submit(P1, "first P1", 1_000).unwrap();
    m.submit(P1, "square B2, plus C4, cross A7", 30_000)
        .unwrap();
    m.advance(91_001);
    assert_eq!(
        m.last_event(Viewer::Spectator).unwrap(),
        "round 1: P1 square B2, plus C4, cross A7; P2 lost its pieces to the clock"
    );
}

/// A turns-phase view with every symbol the board draws.
const EVERY_SYMBOL: [&str; 9] = [
    "S P X . . s p x .",
    "O B . . . o b . .",
    ". . . . . . . . .",
    ". . . S . . . . .",
    ". . . . . . . . .",
    ". . . s . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
];

#[test]
fn the_terminal_board_has_a_legend_for_every_symbol() {
    let mut view = picture("turns", EVERY_SYMBOL);
    view["round"] = json!(7);
    view["turn"] = json!(4);
    view["to_move"] = json!("P1");
    view["diagonal"] = json!("D6");
    view["domain"][2] = json!("12.......");
    let view: View = serde_json::from_value(view).unwrap();
    let text = view.render(false);
    let (board, rest) = text.split_once("legend:").unwrap();
    for symbol in ['1', '2', '·', 'S', 'P', 'X', 's', 'p', 'x', 'o', '*'] {
        assert!(board.contains(symbol), "the board shows {symbol}:\n{text}");
        assert!(rest.contains(symbol), "the legend names {symbol}:\n{text}");
    }
    assert!(text.contains(" 1  1S 1P 1X 1· ·· 2s 2p 2x 2·"), "{text}");
    assert!(text.contains(" 2  1o 1* 1· 1· ·· 2o 2* 2· 2·"), "{text}");
    // Whose turn it is is the prompt's, for the seat that decides.
    assert!(!text.contains("turn 3"), "{text}");
    let prompt = view.prompt(P1).unwrap();
    assert!(prompt.starts_with("your turn 3 of 25:"), "{prompt}");
    assert!(prompt.contains("no peg next to D6 this turn"), "{prompt}");
    assert_eq!(view.prompt(P2), None);
}

#[test]
fn the_terminal_fits_80_columns_through_a_whole_game() {
    let mut rng = seeded_rng(7);
    let mut state = new_game();
    let mut seen = 0;
    loop {
        for viewer in [Viewer::Seat(P1), Viewer::Seat(P2), Viewer::Spectator] {
            let view = state.view(viewer);
            for colour in [false, true] {
                let text = view.render(colour);
                let plain = strip_ansi(&text);
                for line in plain.lines() {
                    assert!(line.chars().count() <= 80, "{} columns: {line}", line.len());
                }
            }
            if let Some(event) = view.last_event() {
                // The terminal prints it after a 4-column prompt, with a full stop.
                assert!(event.chars().count() <= 75, "{event}");
            }
            seen += 1;
        }
        if state.outcome().is_some() {
            break;
        }
        for seat in [P1, P2] {
            if let Some(action) = state.sample_action(seat, &mut rng) {
                state.play(seat, &action).unwrap();
            }
        }
    }
    // Every step of the game, from each viewer: the starter choice, seven
    // rounds, 25 pairs of turns, the end.
    assert_eq!(seen, 3 * (1 + 7 + 25 + 1), "{seen} views");
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if ch == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(ch);
        }
    }
    out
}

//! Pentomino Wall's bots: strength where claimed, and no knowledge beyond
//! their seat's window.

use umpire_core::bot_checks::{assert_blind_to_hidden, assert_wins};
use umpire_pentomino_wall::{PentominoWall, REGISTRATION};

#[test]
fn greedy_beats_random() {
    assert_wins(&REGISTRATION, "greedy", "random", 18, 20);
}

#[test]
fn search_beats_greedy() {
    assert_wins(&REGISTRATION, "search:1000", "greedy", 2, 2);
}

#[test]
fn search_knows_only_its_seat_s_window() {
    assert_blind_to_hidden::<PentominoWall>(|| REGISTRATION.make_bot("search:30").unwrap(), 4);
}

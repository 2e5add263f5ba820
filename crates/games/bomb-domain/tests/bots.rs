//! Bomb Domain's bots: strength where claimed, and no knowledge beyond
//! their seat's window.

use umpire_bomb_domain::{BombDomain, REGISTRATION};
use umpire_core::bot_checks::{assert_blind_to_hidden, assert_wins};

#[test]
fn greedy_beats_random() {
    assert_wins(&REGISTRATION, "greedy", "random", 11, 12);
}

/// The placements are simultaneous: decoupled selection there.
#[test]
fn search_beats_random() {
    assert_wins(&REGISTRATION, "search:100", "random", 4, 4);
}

#[test]
fn search_knows_only_its_seat_s_window() {
    assert_blind_to_hidden::<BombDomain>(|| REGISTRATION.make_bot("search:30").unwrap(), 4);
}

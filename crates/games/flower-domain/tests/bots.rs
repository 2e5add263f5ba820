//! Flower Domain's bots: strength where claimed, and greedy within its
//! budget on the largest move lists.

use std::time::Duration;

use serde_json::json;
use umpire_core::{Match, MatchOptions, Seat, Think, seeded_rng};
use umpire_flower_domain::REGISTRATION;

mod common;

umpire_core::bot_tests! {
    umpire_flower_domain::FlowerDomain, REGISTRATION;
    greedy_beats_random: wins("greedy", "random", 19, 20);
    search_beats_random: wins("search:30", "random", 2, 2);
}

/// On the largest move lists (an unrestricted second move, over 200,000
/// moves) greedy answers within its budget, and with a legal move even
/// when its time is up at once.
#[test]
fn greedy_keeps_to_its_budget() {
    let config = json!({"first_move": "original"});
    let mut m = Match::new(REGISTRATION.game, &config, 0, MatchOptions::untimed()).unwrap();
    let first = (Seat::P1, "A1-A2 to A1-A2");
    for (seat, text) in common::DRAFT.into_iter().chain([first]) {
        m.submit(seat, text, 0).unwrap();
    }
    let mut bot = REGISTRATION.make_bot("greedy").unwrap();
    let mut rng = seeded_rng(0);
    let started = std::time::Instant::now();
    let action = bot
        .choose(m.seat_view(Seat::P2), &Think::unlimited(), &mut rng)
        .unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "greedy took {took:?}");
    m.clone().submit(Seat::P2, &action, 0).unwrap();
    let stopped = Think::for_at_most(Duration::ZERO);
    let action = bot
        .choose(m.seat_view(Seat::P2), &stopped, &mut rng)
        .unwrap();
    m.submit(Seat::P2, &action, 0).unwrap();
}

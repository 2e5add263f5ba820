//! The engine's conformance suite, and garbage input as property tests.

use umpire_core::Seat;
use umpire_flower_domain::{Config, FirstMove, FlowerDomain};

umpire_core::conformance_tests! {
    FlowerDomain;
    conformance_over_random_games: Config::default(), 30;
    conformance_with_the_original_first_move: original_first_move(), 12;
}

umpire_core::garbage_tests! {
    random FlowerDomain, Config::default();
    any_text_is_harmless: 0usize..40, ".{0,32}";
    move_like_text_is_harmless: 6usize..40,
        "([A-Ka-k][0-9]{1,2}[ ,-]?){1,5} ?(to|->) ?([A-Ka-k][0-9]{1,2}[ ,-]?){1,5}";
}

/// The original first move, and P2 the advantage seat.
fn original_first_move() -> Config {
    Config {
        first_move: FirstMove::Original,
        advantage: Seat::P2,
        ..Config::default()
    }
}

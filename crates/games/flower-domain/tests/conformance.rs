//! The engine's conformance suite, and garbage input as property tests.

use proptest::prelude::*;
use umpire_core::Seat;
use umpire_core::conformance::{self, assert_garbage_harmless};
use umpire_flower_domain::{Config, FirstMove, FlowerDomain};

#[test]
fn conformance_over_random_games() {
    conformance::run::<FlowerDomain>(&Config::default(), 30);
}

#[test]
fn conformance_with_the_original_first_move() {
    let config = Config {
        first_move: FirstMove::Original,
        advantage: Seat::P2,
        ..Config::default()
    };
    conformance::run::<FlowerDomain>(&config, 12);
}

/// A state some random actions into a game.
fn midgame(seed: u64, actions: usize) -> FlowerDomain {
    conformance::random_state(&Config::default(), seed, actions)
}

proptest! {
    #[test]
    fn any_text_is_harmless(seed in 0u64..1000, actions in 0usize..40, p1 in any::<bool>(), text in ".{0,32}") {
        let seat = if p1 { Seat::P1 } else { Seat::P2 };
        assert_garbage_harmless(&midgame(seed, actions), seat, &text);
    }

    #[test]
    fn move_like_text_is_harmless(seed in 0u64..1000, actions in 6usize..40, p1 in any::<bool>(),
                                  text in "([A-Ka-k][0-9]{1,2}[ ,-]?){1,5} ?(to|->) ?([A-Ka-k][0-9]{1,2}[ ,-]?){1,5}") {
        let seat = if p1 { Seat::P1 } else { Seat::P2 };
        assert_garbage_harmless(&midgame(seed, actions), seat, &text);
    }
}

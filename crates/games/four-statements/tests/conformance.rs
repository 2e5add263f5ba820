//! The engine's conformance suite, and garbage input as property tests.

use proptest::prelude::*;
use umpire_core::Seat;
use umpire_core::conformance::{self, assert_garbage_harmless, random_state};
use umpire_four_statements::{Config, FourStatements};

/// Random games need an end: random seats never guess right.
fn short() -> Config {
    Config {
        max_rounds: Some(3),
        ..Config::default()
    }
}

#[test]
fn conformance_over_random_games() {
    conformance::run::<FourStatements>(&short(), 10);
}

#[test]
fn conformance_with_the_aid_and_fixed_cells() {
    let config = Config {
        layout: "RRBG YGBR BBRY GYRG".into(),
        known_p1: "A1 B1 C1 D1".into(),
        known_p2: "A4 B4 C4 D4".into(),
        max_rounds: Some(2),
        aids: true,
    };
    conformance::run::<FourStatements>(&config, 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_is_harmless(seed in 0u64..1000, actions in 0usize..20, p1 in any::<bool>(), text in ".{0,40}") {
        let seat = if p1 { Seat::P1 } else { Seat::P2 };
        let state: FourStatements = random_state(&short(), seed, actions);
        assert_garbage_harmless(&state, seat, &text);
    }

    #[test]
    fn action_like_text_is_harmless(seed in 0u64..1000, actions in 0usize..20, p1 in any::<bool>(),
        text in "(subset|claims|buy|guess|pass) ?([A-Ea-e][0-5] ?){0,9}(; ?(There (is|are) (a|two|no|[0-9]) (red|blue|green) tiles?\\.?|smokescreen [0-5]|nolimit|detective [0-5]|[TF-] [TF-] [TF-] [TF-])){0,6}") {
        let seat = if p1 { Seat::P1 } else { Seat::P2 };
        let state: FourStatements = random_state(&short(), seed, actions);
        assert_garbage_harmless(&state, seat, &text);
    }
}

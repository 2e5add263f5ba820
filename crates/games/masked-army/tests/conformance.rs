//! The engine's conformance suite, and garbage input as property tests.

use proptest::prelude::*;
use umpire_core::conformance::{self, assert_garbage_harmless};
use umpire_core::{Game, Seat, seeded_rng};
use umpire_masked_army::{Config, MaskedArmy};

#[test]
fn conformance_over_random_games() {
    conformance::run::<MaskedArmy>(&Config::default(), 300);
}

/// A state some random moves into a game.
fn midgame(seed: u64, moves: usize) -> MaskedArmy {
    let mut rng = seeded_rng(seed);
    let mut state = MaskedArmy::new(&Config::default(), seed).unwrap();
    for _ in 0..moves {
        let Some(seat) = state.decision().seats.iter().next() else {
            break;
        };
        let action = state.sample_action(seat, &mut rng).unwrap();
        state.apply(seat, &action).unwrap();
    }
    state
}

proptest! {
    #[test]
    fn any_text_is_harmless(seed in 0u64..1000, moves in 0usize..45, p1 in any::<bool>(), text in ".{0,24}") {
        let seat = if p1 { Seat::P1 } else { Seat::P2 };
        assert_garbage_harmless(&midgame(seed, moves), seat, &text);
    }

    #[test]
    fn cell_like_text_is_harmless(seed in 0u64..1000, moves in 0usize..45, p1 in any::<bool>(),
                                  text in "(first )?[A-Ka-k]?[0-9]{0,3}[ ,-]{0,2}[A-Ka-k][0-9]{0,3}") {
        let seat = if p1 { Seat::P1 } else { Seat::P2 };
        assert_garbage_harmless(&midgame(seed, moves), seat, &text);
    }
}

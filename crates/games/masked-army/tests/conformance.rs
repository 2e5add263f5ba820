//! The engine's conformance suite, and garbage input as property tests.

use proptest::prelude::*;
use umpire_core::{Seat, seeded_rng};
use umpire_masked_army::{Config, MaskedArmy};

umpire_core::conformance_tests! {
    MaskedArmy;
    conformance_over_random_games: Config::default(), 300;
}

proptest! {
    /// A view from outside (a remote client's) never makes sampling panic.
    #[test]
    fn any_view_samples_without_panic(rows in proptest::collection::vec("[.#12x]{0,11}", 0..20),
                                       last in proptest::option::of(("[A-Z][0-9]{1,2}", "[A-Z][0-9]{1,2}")),
                                       seed in 0u64..100) {
        let view = serde_json::json!({
            "phase": "place", "advantage": "P1", "to_move": "P2", "board": rows,
            "last": last.map(|(a, b)| serde_json::json!({"by": "P1", "mine": a, "theirs": b})),
            "pieces": 3, "armies": null,
        });
        let game = umpire_core::erase::<MaskedArmy>();
        let _ = game.sample_action_from_view(Seat::P2, &view, &mut seeded_rng(seed));
    }
}

umpire_core::garbage_tests! {
    random MaskedArmy, Config::default();
    any_text_is_harmless: 0usize..45, ".{0,24}";
    cell_like_text_is_harmless: 0usize..45,
        "(first )?[A-Ka-k]?[0-9]{0,3}[ ,-]{0,2}[A-Ka-k][0-9]{0,3}";
}

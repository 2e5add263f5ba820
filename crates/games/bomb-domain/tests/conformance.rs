//! The engine's conformance suite, and garbage input as property tests.

use proptest::prelude::*;
use umpire_bomb_domain::{BombDomain, Config};
use umpire_core::{Seat, seeded_rng};

umpire_core::conformance_tests! {
    BombDomain;
    conformance_over_random_games: Config::default(), 12;
    conformance_with_the_ec_as_p1_and_other_shapes: ec_as_p1_and_other_shapes(), 3;
}

umpire_core::garbage_tests! {
    random BombDomain, Config::default(), cases: 200;
    any_text_is_harmless: 0usize..70, ".{0,32}";
    turn_like_text_is_harmless: 16usize..70,
        "(move [A-Ka-k][0-9]{1,2}-[A-Ka-k][0-9]{1,2} [A-K][0-9]-[A-K][0-9]; )?(diagonal [A-K][0-9]-[A-K][0-9]; )?(peg [A-K][0-9]{1,2}; )?(detonate [A-K][0-9])?";
    placement_like_text_is_harmless: 0usize..16,
        "([spxSPX]|square|plus|cross) [A-K][0-9]{1,2},? ([spx]|plus) [A-K][0-9],? ([spx]|cross) [A-K][0-9]";
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A view from outside (a remote client's) never makes sampling panic.
    #[test]
    fn any_view_samples_without_panic(domain in proptest::collection::vec("[.12x]{0,11}", 0..12),
                                      cells in proptest::collection::vec("[A-Z][0-9]{1,2}", 0..8),
                                      phase in "(first|place|turns|over)", round in 0u8..12, turn in 0u8..60,
                                      sealed in "(waiting|submitted|missed)", seed in 0u64..100) {
        let view = serde_json::json!({
            "phase": phase, "dmo": "P1",
            "shapes": {"square": "###/###/###", "plus": "bad", "cross": "#", "final": ".#./###/.#."},
            "domain": domain,
            "pieces": {"P1": {"square": cells, "plus": [], "cross": cells}, "P2": {"square": [], "plus": cells, "cross": []}},
            "pegs": {"P1": cells, "P2": []}, "blast_pegs": {"P1": [], "P2": cells},
            "pegs_left": {"P1": 9, "P2": 9}, "deferred": false, "chooser": null, "starter": null,
            "round": round, "in_hand": 3, "lost": {"P1": 0, "P2": 0},
            "sealed": {"P1": sealed, "P2": "submitted"}, "turn": turn, "to_move": "P2",
            "diagonal": cells.first(), "cells": {"P1": 0, "P2": 0}, "last": null,
        });
        let game = umpire_core::erase::<BombDomain>();
        for seat in Seat::BOTH {
            let _ = game.sample_action_from_view(seat, &view, &mut seeded_rng(seed));
        }
    }
}

fn ec_as_p1_and_other_shapes() -> Config {
    Config {
        advantage: Seat::P2,
        square_blast: "#.#/.#./#.#".into(),
        plus_blast: "#####".into(),
        ..Config::default()
    }
}

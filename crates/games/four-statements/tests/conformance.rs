//! The engine's conformance suite, and garbage input as property tests.

use umpire_four_statements::{Config, FourStatements};

/// Random games need an end: random seats never guess right.
fn short() -> Config {
    Config {
        max_rounds: Some(3),
        ..Config::default()
    }
}

umpire_core::conformance_tests! {
    FourStatements;
    conformance_over_random_games: short(), 10;
    conformance_with_the_aid_and_fixed_cells: aid_and_fixed_cells(), 3;
}

umpire_core::garbage_tests! {
    random FourStatements, short(), cases: 64;
    any_text_is_harmless: 0usize..20, ".{0,40}";
    action_like_text_is_harmless: 0usize..20,
        "(subset|claims|buy|guess|pass) ?([A-Ea-e][0-5] ?){0,9}(; ?(There (is|are) (a|two|no|[0-9]) (red|blue|green) tiles?\\.?|smokescreen [0-5]|nolimit|detective [0-5]|[TF-] [TF-] [TF-] [TF-])){0,6}";
}

fn aid_and_fixed_cells() -> Config {
    Config {
        layout: "RRBG YGBR BBRY GYRG".into(),
        known_p1: "A1 B1 C1 D1".into(),
        known_p2: "A4 B4 C4 D4".into(),
        max_rounds: Some(2),
        aids: true,
    }
}

//! The engine's conformance suite, and garbage input as property tests.

use rand::RngExt;
use umpire_core::{Game, Render, Seat, seeded_rng};
use umpire_pentomino_wall::{Action, Config, PentominoWall, QuarterTurns};

umpire_core::conformance_tests! {
    PentominoWall;
    conformance_over_random_games: Config::default(), 12;
    conformance_with_both_quarter_turns_and_p2_advantage: both_turns_p2_advantage(), 4;
}

/// A state some random actions into a game (a match takes about 90).
fn midgame(seed: u64, actions: usize) -> PentominoWall {
    let mut rng = seeded_rng(seed);
    let mut state = PentominoWall::new(&Config::default(), seed).unwrap();
    for _ in 0..actions {
        let seats: Vec<Seat> = state.decision().seats().iter().collect();
        let Some(&seat) = seats.get(actions % seats.len().max(1)) else {
            break;
        };
        let action = state.sample_action(seat, &mut rng).unwrap();
        state.play(seat, &action).unwrap();
    }
    state
}

umpire_core::garbage_tests! {
    state: midgame;
    any_text_is_harmless: 0usize..120, ".{0,32}";
    action_like_text_is_harmless: 0usize..120,
        "(take|present|place|exchange|orient|give|keep|return|first) ?[A-Za-z]{0,2}(m?(90|180|270)?)? ?(at|aside)? ?[A-Ka-k]?[0-9]{0,2}[, ]*((give|keep|return) [A-Z])?";
}

/// Random games in which every seat that may exchange does so half the
/// time: a seat's pending decision never changes because of the other
/// seat's action (so a client never sends a move computed for a decision
/// that has just changed under it).
#[test]
fn a_decision_never_changes_under_a_seat() {
    let mut exchanges = 0;
    for seed in 0..40 {
        let mut rng = seeded_rng(seed);
        let mut state = PentominoWall::new(&Config::default(), seed).unwrap();
        loop {
            let decision = state.decision();
            let seats: Vec<Seat> = decision.seats().iter().collect();
            let Some(&seat) = seats.get(rng.random_range(0..seats.len().max(1))) else {
                break;
            };
            let legal: Vec<Action> = state.legal_actions(seat).unwrap().collect();
            let exchange = legal.iter().find(|a| matches!(a, Action::Exchange(_)));
            let action = match exchange {
                Some(a) if rng.random() => {
                    exchanges += 1;
                    *a
                }
                _ => state.sample_action(seat, &mut rng).unwrap(),
            };
            state.play(seat, &action).unwrap();
            let other = seat.other();
            if decision.get(other).is_some() {
                assert_eq!(
                    state.decision().get(other),
                    decision.get(other),
                    "seed {seed}: {seat} played `{action}` and {other}'s decision changed"
                );
            }
        }
    }
    assert!(exchanges > 40, "{exchanges} exchanges");
}

/// Replaces the leaves numbered in `targets` (in walking order) with
/// values of the same kind that no match shows; returns the leaves seen.
fn garble(
    value: &mut serde_json::Value,
    targets: &[usize],
    seen: usize,
    rng: &mut umpire_core::MatchRng,
) -> usize {
    use serde_json::Value;
    const NUMBERS: [u64; 6] = [0, 1, 3, 7, 255, 4_294_967_295];
    const WORDS: [&str; 16] = [
        "",
        "F",
        "FILNPTUVWXYZ",
        "XZ",
        "T90",
        "Zm270",
        "A1",
        "J9",
        "K10",
        "P2",
        "draft",
        "place",
        "present",
        "orient",
        "round-end",
        "over",
    ];
    match value {
        Value::Object(map) => map
            .values_mut()
            .fold(seen, |n, v| garble(v, targets, n, rng)),
        Value::Array(items) => items
            .iter_mut()
            .fold(seen, |n, v| garble(v, targets, n, rng)),
        leaf => {
            if targets.contains(&seen) {
                *leaf = match leaf {
                    Value::Number(_) => NUMBERS[rng.random_range(0..NUMBERS.len())].into(),
                    Value::Bool(b) => Value::Bool(!*b),
                    _ => WORDS[rng.random_range(0..WORDS.len())].into(),
                };
            }
            seen + 1
        }
    }
}

/// Views from outside (a remote client's, with a few values garbled)
/// never make sampling, or anything done with the sample, panic.
#[test]
fn garbled_views_sample_without_panic() {
    let mut parsed = 0;
    for seed in 0..400u64 {
        let mut rng = seeded_rng(seed);
        let seat = if seed % 2 == 0 { Seat::P1 } else { Seat::P2 };
        let state = midgame(seed, rng.random_range(0..120));
        let viewer = umpire_core::Viewer::Seat(seat);
        let mut view = serde_json::to_value(state.view(viewer)).unwrap();
        let leaves = garble(&mut view, &[], 0, &mut rng);
        let targets: Vec<usize> = (0..rng.random_range(1..4))
            .map(|_| rng.random_range(0..leaves))
            .collect();
        garble(&mut view, &targets, 0, &mut rng);
        let Ok(view) = serde_json::from_value::<umpire_pentomino_wall::View>(view) else {
            continue;
        };
        parsed += 1;
        let sample = PentominoWall::sample(viewer, &view, &(), &mut rng);
        let _ = sample.view(umpire_core::Viewer::Umpire);
        let _ = view.render(true);
        let _ = view.last_event();
        for s in sample.decision().seats().iter() {
            let _ = sample.legal_actions(s).map(|a| a.take(100).count());
            if let Some(action) = sample.sample_action(s, &mut rng) {
                let mut copy = sample.clone();
                let _ = copy.play(s, &action);
            }
            let _ = sample.clone().timeout(s);
        }
        let _ = sample.outcome();
    }
    assert!(parsed > 100, "only {parsed} garbled views parse");
}

fn both_turns_p2_advantage() -> Config {
    Config {
        advantage: Seat::P2,
        quarter_turns: QuarterTurns::Both,
    }
}

//! The conformance suite every game runs, in the manner of OpenSpiel's
//! `basic_tests.h`: random legal games to the end, notation round-trips,
//! replay equality, no hidden information in views, and garbage input that
//! never panics and never changes the state.
//!
//! A game crate runs it in a few lines:
//!
//! ```ignore
//! #[test]
//! fn conformance() {
//!     umpire_core::conformance::run::<MaskedArmy>(&Config::default(), 300);
//! }
//! ```

use rand::{Rng, RngExt};
use serde_json::Value;

use crate::{Entry, Game, Match, MatchRng, Record, Seat, Viewer, erase, seeded_rng};

/// More steps than this and a random game is taken to be stuck.
const MAX_STEPS: usize = 100_000;

/// Runs every check over `games` random games from seeds 0, 1, 2, ….
pub fn run<G: Game>(config: &G::Config, games: u64) {
    let mut hidden_seen = false;
    let mut resampled_differently = false;
    for seed in 0..games {
        let stats = random_game::<G>(config, seed);
        hidden_seen |= stats.hidden_seen;
        resampled_differently |= stats.resampled_differently;
    }
    // A game that hides something must be able to redraw it, or the
    // no-leak check above proved nothing.
    assert!(
        !hidden_seen || resampled_differently,
        "{}: views hide something, but resample_hidden never changed the state",
        G::ID
    );
}

struct Stats {
    hidden_seen: bool,
    resampled_differently: bool,
}

/// Plays one random game from `seed`, checking at every step.
fn random_game<G: Game>(config: &G::Config, seed: u64) -> Stats {
    let mut state = G::new(config, seed).expect("the config starts a game");
    let mut rng = seeded_rng(seed ^ 0x5eed);
    let mut stats = Stats {
        hidden_seen: false,
        resampled_differently: false,
    };
    let mut actions = Vec::new();
    for step in 0.. {
        assert!(
            step < MAX_STEPS,
            "{}: seed {seed} did not end in {MAX_STEPS} steps",
            G::ID
        );
        check_views::<G>(&state, &mut rng, &mut stats);
        check_garbage::<G>(&state, &mut rng);
        let decision = state.decision();
        if decision.is_over() {
            assert!(
                state.outcome().is_some(),
                "{}: game over without an outcome",
                G::ID
            );
            break;
        }
        assert!(
            state.outcome().is_none(),
            "{}: an outcome before the end",
            G::ID
        );
        let seats: Vec<Seat> = decision.seats.iter().collect();
        let seat = seats[rng.random_range(0..seats.len())];
        check_listed_actions::<G>(&state, seat, &mut rng);
        check_timeouts::<G>(&state);
        let action = state
            .sample_action(seat, &mut rng)
            .unwrap_or_else(|| panic!("{}: {seat} must act but has no legal action", G::ID));
        let text = action.to_string();
        let parsed: G::Action = text
            .parse()
            .unwrap_or_else(|e| panic!("{}: `{text}` does not parse back: {e}", G::ID));
        assert_eq!(
            parsed,
            action,
            "{}: `{text}` parses to another action",
            G::ID
        );
        if let Err(e) = state.apply(seat, &action) {
            panic!("{}: sampled action `{text}` of {seat} refused: {e}", G::ID);
        }
        actions.push(Entry {
            seat,
            action: text,
            at_ms: 0,
        });
    }
    check_replay::<G>(config, seed, actions, &state);
    stats
}

/// States that differ only in what a viewer may not know give that viewer the
/// identical view and the identical legal actions.
fn check_views<G: Game>(state: &G, rng: &mut MatchRng, stats: &mut Stats) {
    let umpire = json(&state.view(Viewer::Umpire));
    for viewer in [
        Viewer::Seat(Seat::P1),
        Viewer::Seat(Seat::P2),
        Viewer::Spectator,
    ] {
        let view = json(&state.view(viewer));
        stats.hidden_seen |= view != umpire;
        let other = state.resample_hidden(viewer, rng);
        stats.resampled_differently |= &other != state;
        assert_eq!(
            view,
            json(&other.view(viewer)),
            "{}: the {viewer} view changes with what it may not know",
            G::ID
        );
        assert_eq!(
            other.decision(),
            state.decision(),
            "{}: resampling changed the decision",
            G::ID
        );
        if let Some(seat) = viewer.seat() {
            let legal = |s: &G| {
                s.legal_actions(seat)
                    .map(|a| a.take(2_000).map(|a| a.to_string()).collect::<Vec<_>>())
            };
            assert_eq!(
                legal(state),
                legal(&other),
                "{}: {seat}'s legal actions leak hidden information",
                G::ID
            );
        }
    }
}

/// Every listed action is accepted (checked on a sample of them).
fn check_listed_actions<G: Game>(state: &G, seat: Seat, rng: &mut MatchRng) {
    let Some(actions) = state.legal_actions(seat) else {
        return;
    };
    let actions: Vec<G::Action> = actions.take(10_000).collect();
    assert!(
        !actions.is_empty(),
        "{}: {seat} must act but lists no action",
        G::ID
    );
    for _ in 0..8 {
        let action = &actions[rng.random_range(0..actions.len())];
        let mut copy = state.clone();
        if let Err(e) = copy.apply(seat, action) {
            panic!("{}: listed action `{action}` refused: {e}", G::ID);
        }
    }
}

/// A timeout that plays an action must play a legal one, or a match could
/// not go on (and its record would not replay).
fn check_timeouts<G: Game>(state: &G) {
    for seat in state.decision().seats.iter() {
        if let crate::Timeout::Act(action) = state.timeout(seat) {
            let mut copy = state.clone();
            if let Err(e) = copy.apply(seat, &action) {
                panic!(
                    "{}: {seat}'s timeout action `{action}` is refused: {e}",
                    G::ID
                );
            }
        }
    }
}

/// Garbage of every kind: never a panic, and a refusal changes nothing.
fn check_garbage<G: Game>(state: &G, rng: &mut MatchRng) {
    let seat = if rng.random() { Seat::P1 } else { Seat::P2 };
    let mut texts: Vec<String> = (0..4).map(|_| random_text(rng)).collect();
    if let Some(action) = state.sample_action(seat.other(), rng) {
        let text = action.to_string();
        texts.push(mutate(&text, rng));
        texts.push(text);
    }
    for text in texts {
        assert_garbage_harmless(state, if rng.random() { seat } else { seat.other() }, &text);
    }
}

/// Parses and applies `text` for `seat` on a copy: if anything is refused,
/// the copy must equal the original. Panics are failures too.
pub fn assert_garbage_harmless<G: Game>(state: &G, seat: Seat, text: &str) {
    let Ok(action) = text.parse::<G::Action>() else {
        return;
    };
    let mut copy = state.clone();
    if copy.apply(seat, &action).is_err() {
        assert_eq!(
            &copy,
            state,
            "{}: refused `{text}` changed the state",
            G::ID
        );
    }
}

/// Replaying the record, also through JSON and the erased layer, rebuilds the
/// identical state.
fn check_replay<G: Game>(config: &G::Config, seed: u64, actions: Vec<Entry>, end: &G) {
    let config = serde_json::to_value(config).expect("configs serialise");
    let record = Record {
        game: G::ID.into(),
        config,
        seed,
        timed: false,
        clock: None,
        actions,
        outcome: end.outcome(),
    };
    let text = serde_json::to_string(&record).expect("records serialise");
    let record: Record = serde_json::from_str(&text).expect("records parse back");
    let replayed = Match::replay(erase::<G>(), &record)
        .unwrap_or_else(|e| panic!("{}: seed {seed} does not replay: {e}", G::ID));
    let state = replayed.state().downcast::<G>().expect("the same game");
    assert_eq!(
        state,
        end,
        "{}: seed {seed} replays to another state",
        G::ID
    );
    assert_eq!(
        replayed.record().actions,
        record.actions,
        "{}: replay changed the record",
        G::ID
    );
}

fn json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("views serialise")
}

/// Random text from characters that notations use, and some they do not.
fn random_text<R: Rng + ?Sized>(rng: &mut R) -> String {
    const PIECES: &[&str] = &[
        "A",
        "e",
        "I",
        "J",
        "z",
        "0",
        "1",
        "5",
        "9",
        "10",
        "99",
        " ",
        "-",
        ",",
        "to",
        "first",
        "P1",
        "p2",
        "pass",
        "red",
        ";",
        "\u{0}",
        "é",
        "🂡",
        "\n",
        "-1",
        "18446744073709551616",
    ];
    let len = rng.random_range(0..8);
    (0..len)
        .map(|_| PIECES[rng.random_range(0..PIECES.len())])
        .collect()
}

/// A valid action's text with one character changed, removed or doubled.
fn mutate<R: Rng + ?Sized>(text: &str, rng: &mut R) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return random_text(rng);
    }
    let i = rng.random_range(0..chars.len());
    match rng.random_range(0..3) {
        0 => chars[i] = ['A', 'Z', '0', '9', ' ', '-'][rng.random_range(0..6)],
        1 => {
            chars.remove(i);
        }
        _ => chars.insert(i, chars[i]),
    }
    chars.into_iter().collect()
}

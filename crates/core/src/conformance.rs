//! The conformance suite every game runs, in the manner of OpenSpiel's
//! `basic_tests.h`: random legal games to the end, notation round-trips,
//! replay equality, sampling from what a viewer knows (and so no hidden
//! information in views, decisions or clocks), timeout rules, and garbage
//! input that never panics and never changes the state.
//!
//! A game crate runs it in a few lines:
//!
//! ```
//! use umpire_core::testing::{Config, SealedBids};
//! umpire_core::conformance::run::<SealedBids>(&Config::default(), 20);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use rand::{Rng, RngExt};
use serde_json::Value;

use crate::{
    Decision, Entry, Game, Match, MatchOptions, MatchRng, PerSeat, Record, RuleViolation, Seat,
    Timeout, Viewer, erase, seeded_rng,
};

/// More steps than this and a random game is taken to be stuck.
const MAX_STEPS: usize = 100_000;
/// Games whose every step also checks that hidden values vary over samples.
const VARIED_GAMES: u64 = 8;
/// Samples drawn for that check: a hidden value that can take two values
/// shows only one in all of them with odds of 2^-31.
const VARIED_SAMPLES: usize = 32;

const WATCHERS: [Viewer; 3] = [
    Viewer::Seat(Seat::P1),
    Viewer::Seat(Seat::P2),
    Viewer::Spectator,
];

/// Runs every check over `games` random games from seeds 0, 1, 2, ….
pub fn run<G: Game>(config: &G::Config, games: u64) {
    for seed in 0..games {
        random_game::<G>(config, seed, seed < VARIED_GAMES);
    }
}

/// Plays up to `actions` random legal actions on `state` and returns how
/// many were played: for benchmarks of whole games and for property tests
/// that need positions deep in a game. When both seats decide at once, P1
/// and P2 take turns at submitting first.
pub fn play_randomly<G: Game, R: Rng + ?Sized>(
    state: &mut G,
    actions: usize,
    rng: &mut R,
) -> usize {
    for played in 0..actions {
        let seats = state.decision().seats();
        let seat = match seats.iter().next() {
            None => return played,
            Some(_) if seats == crate::Seats::BOTH && played % 2 == 1 => Seat::P2,
            Some(seat) => seat,
        };
        let action = state
            .sample_action(seat, rng)
            .unwrap_or_else(|| panic!("{}: {seat} must act but has no legal action", G::ID));
        if let Err(e) = state.play(seat, &action) {
            panic!("{}: sampled action `{action}` refused: {e}", G::ID);
        }
    }
    actions
}

/// The state `actions` random legal actions into a game from `seed`.
pub fn random_state<G: Game>(config: &G::Config, seed: u64, actions: usize) -> G {
    let mut state = G::new(config, seed).expect("the config starts a game");
    play_randomly(&mut state, actions, &mut seeded_rng(seed));
    state
}

/// Plays one random game from `seed`, checking at every step.
fn random_game<G: Game>(config: &G::Config, seed: u64, vary: bool) {
    let mut state = G::new(config, seed).expect("the config starts a game");
    let mut rng = seeded_rng(seed ^ 0x5eed);
    // What each seat remembers of every view it was shown, as a bot would.
    let mut memory: PerSeat<G::Memory> = PerSeat::default();
    let mut actions = Vec::new();
    for step in 0.. {
        assert!(
            step < MAX_STEPS,
            "{}: seed {seed} did not end in {MAX_STEPS} steps",
            G::ID
        );
        for seat in Seat::BOTH {
            G::remember(&mut memory[seat], &state.view(Viewer::Seat(seat)));
        }
        for viewer in WATCHERS {
            check_sampling::<G>(&state, viewer, &memory, &mut rng, vary);
        }
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
        let seats: Vec<Seat> = decision.seats().iter().collect();
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
        if let Err(e) = state.play(seat, &action) {
            panic!("{}: sampled action `{text}` of {seat} refused: {e}", G::ID);
        }
        let after = state.decision().get(seat);
        assert!(
            after.is_none() || after != decision.get(seat),
            "{}: {seat} acted and faces the same decision ({:?}): bump its step so its clock restarts",
            G::ID,
            after
        );
        actions.push(Entry::new(seat, text, 0));
    }
    check_replay::<G>(config, seed, actions, &state);
}

/// What `viewer` may know of `state`'s decisions.
fn seen<G: Game>(state: &G, viewer: Viewer) -> Decision {
    Decision::seen(state.decision(), state.public_decision(), viewer)
}

/// Samples drawn from what `viewer` sees (and, for a seat, remembers) agree
/// with the real state on everything the viewer may know; the same seed
/// draws the same sample; and with `vary`, every value the viewer may not
/// know takes more than one value over the samples.
fn check_sampling<G: Game>(
    state: &G,
    viewer: Viewer,
    memory: &PerSeat<G::Memory>,
    rng: &mut MatchRng,
    vary: bool,
) {
    let view = state.view(viewer);
    let mut now_only = G::Memory::default();
    G::remember(&mut now_only, &view);
    let seed = rng.random::<u64>();
    let sample = G::sample(viewer, &view, &now_only, &mut seeded_rng(seed));
    assert_eq!(
        sample,
        G::sample(viewer, &view, &now_only, &mut seeded_rng(seed)),
        "{}: sampling twice from the same seed gives two states",
        G::ID
    );
    check_agrees(state, &sample, viewer);
    if let Some(seat) = viewer.seat() {
        check_agrees(state, &G::sample(viewer, &view, &memory[seat], rng), viewer);
    }
    if vary {
        check_varies(state, viewer, &view, &now_only, rng);
    }
}

/// `sample` cannot be told from `state` by `viewer`: the same view, the same
/// decisions and clocks as shown to it, and (for a seat) the same legal
/// actions.
fn check_agrees<G: Game>(state: &G, sample: &G, viewer: Viewer) {
    assert_eq!(
        json(&state.view(viewer)),
        json(&sample.view(viewer)),
        "{}: the {viewer} view changes with what it may not know (or the sampler does not rebuild it)",
        G::ID
    );
    let shown = seen(state, viewer);
    assert_eq!(
        shown,
        seen(sample, viewer),
        "{}: the decisions shown to {viewer} change with what it may not know",
        G::ID
    );
    for seat in shown.seats().iter() {
        let (real, drawn) = if viewer == Viewer::Seat(seat) {
            (state.turn_clock(seat), sample.turn_clock(seat))
        } else {
            (
                state.public_turn_clock(seat),
                sample.public_turn_clock(seat),
            )
        };
        assert_eq!(
            real,
            drawn,
            "{}: {seat}'s clock as shown to {viewer} changes with what it may not know",
            G::ID
        );
    }
    if let Some(seat) = viewer.seat() {
        let legal = |s: &G| {
            s.legal_actions(seat)
                .map(|a| a.take(2_000).map(|a| a.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(
            legal(state),
            legal(sample),
            "{}: {seat}'s legal actions leak hidden information",
            G::ID
        );
    }
}

/// Every value of the umpire's view that `viewer` does not see takes at
/// least two values over samples drawn from `viewer`'s view: a sampler that
/// fixes what the viewer cannot know would hide a leak from the checks above.
/// Fields the game names in [`Game::DEDUCIBLE`] are let be.
fn check_varies<G: Game>(
    state: &G,
    viewer: Viewer,
    view: &G::View,
    memory: &G::Memory,
    rng: &mut MatchRng,
) {
    let seen = leaves(&json(view));
    let deducible = |path: &str| path.split('.').any(|part| G::DEDUCIBLE.contains(&part));
    let hidden: Vec<String> = leaves(&json(&state.view(Viewer::Umpire)))
        .into_iter()
        .filter(|(path, value)| seen.get(path) != Some(value) && !deducible(path))
        .map(|(path, _)| path)
        .collect();
    if hidden.is_empty() {
        return;
    }
    let mut values: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for _ in 0..VARIED_SAMPLES {
        let drawn = leaves(&json(
            &G::sample(viewer, view, memory, rng).view(Viewer::Umpire),
        ));
        for path in &hidden {
            let value = drawn.get(path).cloned().unwrap_or_default();
            values.entry(path).or_default().insert(value);
        }
    }
    for (path, seen) in values {
        assert!(
            seen.len() > 1,
            "{}: `{path}` is hidden from {viewer} but does not vary over {VARIED_SAMPLES} samples \
             (always {seen:?}): the sampler fixes what the viewer cannot know",
            G::ID
        );
    }
}

/// A JSON value's leaves by path (`board.3`, `sealed.P1.bid`), as text.
fn leaves(value: &Value) -> BTreeMap<String, String> {
    fn walk(value: &Value, path: String, out: &mut BTreeMap<String, String>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    walk(v, format!("{path}.{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, format!("{path}.{i}"), out);
                }
            }
            leaf => {
                out.insert(path, leaf.to_string());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(value, String::new(), &mut out);
    out
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
    // The erased layer's JSON list says the same, or nothing past its limit.
    let limit = 1_000;
    let erased = crate::erased::Erased(state.clone());
    let json = crate::erased::AnyState::legal_json(&erased, seat, limit);
    let listed: Option<Vec<String>> =
        json.map(|j| serde_json::from_str::<Vec<String>>(&j).expect("a JSON list"));
    let want: Vec<String> = actions.iter().map(|a| a.to_string()).collect();
    assert_eq!(
        listed,
        (want.len() <= limit).then_some(want),
        "{}: the JSON list of legal actions",
        G::ID
    );
    for _ in 0..8 {
        let action = &actions[rng.random_range(0..actions.len())];
        let mut copy = state.clone();
        if let Err(e) = copy.play(seat, action) {
            panic!("{}: listed action `{action}` refused: {e}", G::ID);
        }
    }
}

/// A timeout rule either says the seat loses (and changes nothing) or moves
/// the seat on to another decision, saying what it did; every viewer's
/// view of the result can be built.
fn check_timeouts<G: Game>(state: &G) {
    for seat in state.decision().seats().iter() {
        let mut copy = state.clone();
        match copy.timeout(seat) {
            Timeout::Lose => assert_eq!(
                &copy,
                state,
                "{}: a timeout that loses changed the state",
                G::ID
            ),
            Timeout::Applied(what) => {
                assert!(
                    !what.trim().is_empty(),
                    "{}: {seat}'s timeout does not say what it did",
                    G::ID
                );
                assert_ne!(
                    copy.decision().get(seat),
                    state.decision().get(seat),
                    "{}: {seat}'s timeout ({what}) leaves it facing the same decision",
                    G::ID
                );
                for viewer in Viewer::ALL {
                    json(&copy.view(viewer));
                    seen(&copy, viewer);
                }
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

/// Each `(seat, text, rule, message)` is refused by `m` with that rule key
/// and message, and changes neither the state nor the record: the one
/// refusal check every game's rules tests share.
pub fn assert_refused(m: &mut Match, cases: &[(Seat, &str, &str, &str)]) {
    for &(seat, text, rule, message) in cases {
        let before = m.state().clone_box();
        let recorded = m.record().actions.len();
        let e = match m.submit(seat, text, m.now()) {
            Ok(_) => panic!("`{text}` by {seat} was accepted; expected the rule {rule}"),
            Err(e) => e,
        };
        assert_eq!(
            (e.rule.as_str(), e.message.as_str()),
            (rule, message),
            "{text}"
        );
        assert!(m.state().same_as(&*before), "{text} changed the state");
        assert_eq!(m.record().actions.len(), recorded, "{text} was recorded");
    }
}

/// A timed match of `G` (the game's default clock) from `config` and
/// `seed`: how a rules test starts one. Panics if the config is refused.
pub fn timed_match<G: Game>(config: &Value, seed: u64) -> Match {
    Match::new(erase::<G>(), config, seed, MatchOptions::default()).expect("a valid config")
}

/// Lets every clock of `m` run out until the match is over; each timeout's
/// effect, as `seat effect`.
pub fn time_out_to_the_end(m: &mut Match) -> Vec<String> {
    let mut effects = Vec::new();
    while !m.is_over() {
        let due = m.next_deadline().expect("a clock runs");
        for entry in m.advance(due + 1) {
            let effect = entry.effect.expect("a timeout says its effect");
            effects.push(format!("{} {effect}", entry.seat));
        }
    }
    effects
}

/// Parses and plays `text` for `seat` on `state`, panicking with the text
/// and the reason if it is refused: how a rules test writes its moves.
pub fn play_text<G: Game>(state: &mut G, seat: Seat, text: &str) {
    let action: G::Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    state
        .play(seat, &action)
        .unwrap_or_else(|e| panic!("{seat} `{text}`: {e}"));
}

/// [`assert_refused`] on a typed state: each `(seat, text, rule, message)`
/// is refused with that rule key (`notation` when it does not parse) and
/// message, and changes nothing.
pub fn assert_refused_by<G: Game>(state: &G, cases: &[(Seat, &str, &str, &str)]) {
    for &(seat, text, rule, message) in cases {
        let mut copy = state.clone();
        let (got_rule, got_message) = match text.parse::<G::Action>() {
            Err(e) => ("notation", e.to_string()),
            Ok(action) => {
                let e = copy.play(seat, &action).unwrap_err();
                (e.rule(), e.to_string())
            }
        };
        assert_eq!((got_rule, got_message.as_str()), (rule, message), "{text}");
        assert_eq!(&copy, state, "`{text}` changed the state");
    }
}

/// Parses and applies `text` for `seat` on a copy: if anything is refused,
/// the copy must equal the original. Panics are failures too.
pub fn assert_garbage_harmless<G: Game>(state: &G, seat: Seat, text: &str) {
    let Ok(action) = text.parse::<G::Action>() else {
        return;
    };
    let mut copy = state.clone();
    if copy.play(seat, &action).is_err() {
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
        seats: Default::default(),
        host: false,
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

/// The conformance suite over random games of one game, one `#[test]` per
/// line `name: config, games;` ([`run`]).
///
/// ```
/// use umpire_core::testing::{Config, SealedBids, Variant};
///
/// umpire_core::conformance_tests! {
///     SealedBids;
///     conformance_over_random_games: Config::default(), 20;
///     conformance_when_out_of_time_loses: Config { variant: Variant::Strict }, 5;
/// }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! conformance_tests {
    ($game:ty; $($(#[$doc:meta])* $name:ident: $config:expr, $games:expr;)+) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                $crate::conformance::run::<$game>(&$config, $games);
            }
        )+
    };
}

/// Property tests that typed garbage never panics and never changes a
/// state ([`assert_garbage_harmless`]), one per line `name: actions, text;`:
/// the state is some random `actions` into a game (a range of them), and
/// `text` is a regex of what a seat types. The first line says how a state
/// is built: `random Game, config` ([`random_state`]) or `state: f` for a
/// function `f(seed, actions)`; and `cases: n` how many cases each test
/// tries, if not proptest's default. The calling crate needs `proptest` (a
/// dev-dependency of every game).
///
/// ```ignore
/// umpire_core::garbage_tests! {
///     random SealedBids, Config::default(), cases: 64;
///     any_text_is_harmless: 0usize..20, ".{0,40}";
///     bid_like_text_is_harmless: 0usize..20, "(bid|ponder|confirm) ?[0-9]?";
/// }
/// ```
#[macro_export]
macro_rules! garbage_tests {
    (random $game:ty, $config:expr $(, cases: $cases:expr)?; $($rest:tt)+) => {
        $crate::garbage_tests! {
            state: |seed, actions| -> $game {
                $crate::conformance::random_state(&$config, seed, actions)
            } $(, cases: $cases)?;
            $($rest)+
        }
    };
    (state: $state:expr; $($rest:tt)+) => {
        $crate::garbage_tests!(@tests $state, proptest::prelude::ProptestConfig::default(); $($rest)+);
    };
    (state: $state:expr, cases: $cases:expr; $($rest:tt)+) => {
        $crate::garbage_tests!(@tests $state, proptest::prelude::ProptestConfig::with_cases($cases); $($rest)+);
    };
    (@tests $state:expr, $config:expr;
     $($(#[$doc:meta])* $name:ident: $actions:expr, $text:expr;)+) => {
        proptest::proptest! {
            #![proptest_config($config)]
            $(
                $(#[$doc])*
                #[test]
                fn $name(seed in 0u64..1000, actions in $actions, p1 in proptest::bool::ANY, text in $text) {
                    let seat = if p1 { $crate::Seat::P1 } else { $crate::Seat::P2 };
                    $crate::conformance::assert_garbage_harmless(&($state)(seed, actions), seat, &text);
                }
            )+
        }
    };
}

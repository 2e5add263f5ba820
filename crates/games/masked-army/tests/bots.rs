//! Masked Army's bots: strength where claimed, levels, budgets and memories
//! doing what their names say, and no knowledge beyond their seat's window.

use serde_json::json;
use umpire_core::bot_checks::play_named;
use umpire_core::{
    Erased, Game, Level, Match, MatchOptions, Seat, SeatView, Think, Viewer, seeded_rng,
};
use umpire_masked_army::{MaskedArmy, Memory, REGISTRATION};

umpire_core::bot_tests! {
    MaskedArmy, REGISTRATION;
    greedy_beats_random: wins("greedy", "random", 36, 40);
    search_beats_random: wins("search:200", "random", 10, 10);
    search_beats_greedy: wins("search:1000", "greedy", 7, 10);
    search_knows_only_its_seat_s_window: blind("search:100", 6);
}

/// Greedy, handed a sampled state that its seat cannot tell from the real
/// one, chooses exactly as it does on the real state: it reads nothing but
/// its seat's window (and what it was shown before).
#[test]
fn greedy_knows_only_its_seat_s_window() {
    let mut m = Match::new(REGISTRATION.game, &json!({}), 4, MatchOptions::untimed()).unwrap();
    let mut rng = seeded_rng(4);
    let mut history = Vec::new();
    m.submit(Seat::P1, "first P1", 0).unwrap();
    for _ in 0..24 {
        let seat = m.decision().seats().iter().next().unwrap();
        let action = m.seat_view(seat).sample_action(&mut rng).unwrap();
        m.submit(seat, &action, 0).unwrap();
        history.push(m.clone());
    }
    let me = Seat::P1;
    let real = m.state().downcast::<MaskedArmy>().unwrap().clone();
    for n in 0..20u64 {
        // Another state P1 cannot tell apart from the real one (it knows
        // nothing but the current view there).
        let view = real.view(Viewer::Seat(me));
        let other = MaskedArmy::sample(Viewer::Seat(me), &view, &Memory::default(), &mut rng);
        let mut choices = Vec::new();
        for state in [&real, &other] {
            let mut bot = REGISTRATION.make_bot("greedy").unwrap();
            for past in &history[..history.len() - 1] {
                bot.observe(past.seat_view(me));
            }
            let erased = Erased(state.clone());
            let window = SeatView::new(&erased, me);
            choices.push(bot.choose(window, &Think::unlimited(), &mut seeded_rng(n)));
        }
        assert_eq!(choices[0], choices[1], "sample {n}");
    }
}

#[test]
fn budgets_and_memories_are_read_from_the_name() {
    for good in [
        "search:10",
        "search@50ms",
        "hard@1s",
        "forgetful:0.3",
        "human:2",
    ] {
        assert!(REGISTRATION.make_bot(good).is_ok(), "{good} was refused");
    }
    for bad in [
        "search@soon",
        "search:0",
        "search:x",
        "greedy:3",
        "forgetful:2",
        "human:-1",
    ] {
        assert!(REGISTRATION.make_bot(bad).is_err(), "{bad} was accepted");
    }
}

/// Medium is `forgetful`, hard is `perfect` (search).
#[test]
fn levels_pick_forgetful_and_perfect() {
    let picked = |level: &str| REGISTRATION.bot(level).map(|b| (b.name, b.level));
    assert_eq!(picked("medium"), Some(("forgetful", Level::Medium)));
    assert_eq!(picked("hard"), Some(("perfect", Level::Hard)));
}

/// Recall 1 remembers everything: the same moves as greedy, move for move.
#[test]
fn forgetful_with_full_recall_plays_as_greedy() {
    for seed in 0..6 {
        let a = play_named(&REGISTRATION, ["forgetful:1", "random"], seed);
        let b = play_named(&REGISTRATION, ["greedy", "random"], seed);
        assert_eq!(a, b, "seed {seed}");
    }
}

/// Recall 0 keeps no hidden colour: the same moves as a bot that remembers
/// no earlier piece (it sees only the board's one visible piece).
#[test]
fn forgetful_with_no_recall_uses_no_hidden_colour() {
    let mut differ = 0;
    for seed in 0..6 {
        let a = play_named(&REGISTRATION, ["forgetful:0", "random"], seed);
        let b = play_named(&REGISTRATION, ["human:0", "random"], seed);
        assert_eq!(a, b, "seed {seed}");
        let c = play_named(&REGISTRATION, ["greedy", "random"], seed);
        differ += usize::from(a != c);
    }
    // And remembering does change play.
    assert!(differ >= 5, "only {differ} of 6 games differ from greedy's");
}

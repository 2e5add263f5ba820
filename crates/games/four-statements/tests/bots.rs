//! Four Statements' bots: strength where claimed, and no knowledge beyond
//! their seat's window.

use serde_json::json;
use umpire_core::{
    Erased, Game, Match, MatchOptions, Record, Seat, SeatView, Think, Viewer, seeded_rng,
};
use umpire_four_statements::{FourStatements, REGISTRATION, deduce, knowledge};

umpire_core::bot_tests! {
    FourStatements, REGISTRATION;
    greedy_beats_random: wins("greedy", "random", 9, 10);
    /// Every bluff weighed (No Limit among them when it pays), claim and
    /// reveal legal to the end, and the grid named.
    search_beats_random: wins("search:30", "random", 2, 2);
    search_knows_only_its_seat_s_window: blind("search:2", 2);
}

/// Greedy, handed a state drawn from its seat's view (another grid, other
/// secrets of the opponent), chooses exactly as on the real state.
#[test]
fn greedy_knows_only_its_seat_s_window() {
    let mut compared = 0;
    for seed in 0..6u64 {
        let config = json!({"max_rounds": 8});
        let mut m = Match::new(REGISTRATION.game, &config, seed, MatchOptions::untimed()).unwrap();
        let mut rng = seeded_rng(seed);
        for _ in 0..(4 + seed * 3) {
            let Some(seat) = m.decision().seats().iter().next() else {
                break;
            };
            let action = m.seat_view(seat).sample_action(&mut rng).unwrap();
            m.submit(seat, &action, 0).unwrap();
        }
        let real = m.state().downcast::<FourStatements>().unwrap().clone();
        for me in m.decision().seats().iter() {
            let view = real.view(Viewer::Seat(me));
            let other =
                FourStatements::sample(Viewer::Seat(me), &view, &Default::default(), &mut rng);
            let mut choices = Vec::new();
            for state in [&real, &other] {
                let erased = Erased(state.clone());
                let window = SeatView::new(&erased, me);
                let mut bot = REGISTRATION.make_bot("greedy").unwrap();
                choices.push(bot.choose(window, &Think::unlimited(), &mut seeded_rng(seed)));
            }
            assert_eq!(choices[0], choices[1], "seed {seed}, {me}");
            compared += 1;
        }
    }
    assert!(compared >= 6);
}

/// With two grids left the search waits rather than guess: the next
/// round's bluff tells them apart, and a wrong guess costs every RP. The
/// position is from a game of `search@200ms` (P2) against `greedy`
/// (`umpire arena four-statements --bots search@200ms,greedy --seed
/// 1000`, seed 1099) in which the search guessed in round 3, wrongly,
/// while `greedy` still had 218 grids to tell apart.
#[test]
fn search_does_not_gamble_with_two_grids_left() {
    let record: Record = serde_json::from_str(include_str!("records/two-grids-left.json")).unwrap();
    let m = Match::replay(REGISTRATION.game, &record).unwrap();
    let state = m.state().downcast::<FourStatements>().unwrap().clone();
    let me = Seat::P2;
    assert_eq!(state.decision().kind(me), Some("reveal"));
    let known = knowledge::from_view(me, &state.view(Viewer::Seat(me)));
    assert_eq!(deduce::count(&known), 2, "two grids left");
    let erased = Erased(state);
    for seed in 0..4 {
        let mut bot = REGISTRATION.make_bot("search:200").unwrap();
        let window = SeatView::new(&erased, me);
        let action = bot
            .choose(window, &Think::unlimited(), &mut seeded_rng(seed))
            .unwrap();
        assert!(!action.starts_with("guess"), "seed {seed}: {action}");
    }
}

//! The bots: legal play in every game, strength where claimed, and no
//! knowledge beyond their seat's window.

use std::time::Duration;

use serde_json::json;
use umpire_bomb_domain::BombDomain;
use umpire_bots::{Bot, Think, make};
use umpire_core::testing::SealedBids;
use umpire_core::{AnyGame, Game, Match, MatchOptions, Seat, Viewer, erase, seeded_rng};
use umpire_flower_domain::FlowerDomain;
use umpire_four_statements::FourStatements;
use umpire_masked_army::{MaskedArmy, Memory};
use umpire_pentomino_wall::PentominoWall;

/// Plays one untimed match; returns the winner.
fn play(game: &'static dyn AnyGame, bots: [&str; 2], seed: u64) -> Option<Seat> {
    play_with(game, &json!({}), bots, seed)
}

/// Plays one untimed match with `config`; returns the winner.
fn play_with(
    game: &'static dyn AnyGame,
    config: &serde_json::Value,
    bots: [&str; 2],
    seed: u64,
) -> Option<Seat> {
    let mut m = Match::new(game, config, seed, MatchOptions::untimed()).unwrap();
    let mut players: Vec<Box<dyn Bot>> = bots.iter().map(|b| make(game.id(), b).unwrap()).collect();
    let mut rng = seeded_rng(seed);
    let think = Think::unlimited();
    while let Some(seat) = m.decision().seats().iter().next() {
        for s in Seat::BOTH {
            players[s.index()].observe(m.seat_view(s));
        }
        let action = players[seat.index()]
            .choose(m.seat_view(seat), &think, &mut rng)
            .expect("a bot to move has an action");
        m.submit(seat, &action, 0)
            .unwrap_or_else(|e| panic!("{} played `{action}`: {e}", bots[seat.index()]));
    }
    m.outcome().unwrap().winner
}

#[test]
fn random_plays_every_game_to_the_end() {
    for game in [
        erase::<MaskedArmy>(),
        erase::<SealedBids>(),
        erase::<FlowerDomain>(),
        erase::<BombDomain>(),
        erase::<PentominoWall>(),
    ] {
        for seed in 0..5 {
            play(game, ["random", "random"], seed);
        }
    }
    // Random seats never guess the grid: a round limit ends the match.
    let limited = json!({"max_rounds": 6});
    for seed in 0..5 {
        let winner = play_with(
            erase::<FourStatements>(),
            &limited,
            ["random", "random"],
            seed,
        );
        assert_eq!(winner, None);
    }
}

/// Greedy's wins against random over `games` games, seats swapped every
/// other game.
fn greedy_wins(game: &'static dyn AnyGame, games: u64) -> usize {
    let mut wins = 0;
    for seed in 0..games {
        let (greedy, bots) = if seed % 2 == 0 {
            (Seat::P1, ["greedy", "random"])
        } else {
            (Seat::P2, ["random", "greedy"])
        };
        wins += usize::from(play(game, bots, seed) == Some(greedy));
    }
    wins
}

#[test]
fn greedy_beats_random_at_masked_army() {
    let wins = greedy_wins(erase::<MaskedArmy>(), 40);
    assert!(wins >= 36, "greedy won {wins} of 40");
}

#[test]
fn greedy_beats_random_at_bomb_domain() {
    let wins = greedy_wins(erase::<BombDomain>(), 12);
    assert!(wins >= 11, "greedy won {wins} of 12");
}

#[test]
fn greedy_beats_random_at_flower_domain() {
    let wins = greedy_wins(erase::<FlowerDomain>(), 20);
    assert!(wins >= 19, "greedy won {wins} of 20");
}

#[test]
fn greedy_beats_random_at_pentomino_wall() {
    let wins = greedy_wins(erase::<PentominoWall>(), 20);
    assert!(wins >= 18, "greedy won {wins} of 20");
}

#[test]
fn greedy_beats_random_at_four_statements() {
    let wins = greedy_wins(erase::<FourStatements>(), 10);
    assert!(wins >= 9, "greedy won {wins} of 10");
}

/// Four Statements' greedy, handed a state drawn from its seat's view
/// (another grid, other secrets of the opponent), chooses exactly as on the
/// real state.
#[test]
fn four_statements_greedy_knows_only_its_seat_s_window() {
    let game = erase::<FourStatements>();
    let mut compared = 0;
    for seed in 0..6u64 {
        let mut m = Match::new(
            game,
            &json!({"max_rounds": 8}),
            seed,
            MatchOptions::untimed(),
        )
        .unwrap();
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
            let other = FourStatements::sample(
                Viewer::Seat(me),
                &real.view(Viewer::Seat(me)),
                &Default::default(),
                &mut rng,
            );
            let mut choices = Vec::new();
            for state in [&real, &other] {
                let erased = umpire_core::Erased(state.clone());
                let window = umpire_core::SeatView::new(&erased, me);
                let mut bot = make("four-statements", "greedy").unwrap();
                choices.push(bot.choose(window, &Think::unlimited(), &mut seeded_rng(seed)));
            }
            assert_eq!(choices[0], choices[1], "seed {seed}, {me}");
            compared += 1;
        }
    }
    assert!(compared >= 6);
}

/// On the largest move lists (an unrestricted second move, over 200,000
/// moves) greedy answers within its budget, and with the best it has when
/// stopped early.
#[test]
fn flower_domain_greedy_keeps_to_its_budget() {
    let game = erase::<FlowerDomain>();
    let config = json!({"first_move": "original"});
    let mut m = Match::new(game, &config, 0, MatchOptions::untimed()).unwrap();
    for (seat, text) in [
        (Seat::P1, "ready"),
        (Seat::P2, "ready"),
        (Seat::P1, "first P1"),
        (Seat::P1, "red"),
        (Seat::P2, "blue"),
        (Seat::P2, "green"),
        (Seat::P1, "A1-A2 to A1-A2"),
    ] {
        m.submit(seat, text, 0).unwrap();
    }
    let mut bot = make(game.id(), "greedy").unwrap();
    let mut rng = seeded_rng(0);
    let started = std::time::Instant::now();
    let action = bot
        .choose(m.seat_view(Seat::P2), &Think::unlimited(), &mut rng)
        .unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "greedy took {took:?}");
    m.clone().submit(Seat::P2, &action, 0).unwrap();
    let stopped = Think::for_at_most(Duration::ZERO);
    let action = bot
        .choose(m.seat_view(Seat::P2), &stopped, &mut rng)
        .unwrap();
    m.submit(Seat::P2, &action, 0).unwrap();
}

/// Greedy, handed a sampled state that its seat cannot tell from the real
/// one, chooses exactly as it does on the real state: it reads nothing but
/// its seat's window.
#[test]
fn greedy_knows_only_its_seat_s_window() {
    let game = erase::<MaskedArmy>();
    let mut m = Match::new(game, &json!({}), 4, MatchOptions::untimed()).unwrap();
    let mut rng = seeded_rng(4);
    let mut memory = Memory::default();
    let mut history = Vec::new();
    m.submit(Seat::P1, "first P1", 0).unwrap();
    for _ in 0..24 {
        let seat = m.decision().seats().iter().next().unwrap();
        let action = m.seat_view(seat).sample_action(&mut rng).unwrap();
        m.submit(seat, &action, 0).unwrap();
        m.seat_view(Seat::P1).remember::<MaskedArmy>(&mut memory);
        history.push(m.clone());
    }
    let me = Seat::P1;
    let real = m.state().downcast::<MaskedArmy>().unwrap().clone();
    for n in 0..20u64 {
        // Another state P1 cannot tell apart from the real one (it knows
        // nothing but the current view there).
        let other = MaskedArmy::sample(
            Viewer::Seat(me),
            &real.view(Viewer::Seat(me)),
            &Memory::default(),
            &mut rng,
        );
        let mut choices = Vec::new();
        for state in [&real, &other] {
            let mut bot = make("masked-army", "greedy").unwrap();
            for past in &history[..history.len() - 1] {
                bot.observe(past.seat_view(me));
            }
            let erased = umpire_core::Erased(state.clone());
            let window = umpire_core::SeatView::new(&erased, me);
            let mut rng = seeded_rng(n);
            choices.push(bot.choose(window, &Think::unlimited(), &mut rng));
        }
        assert_eq!(choices[0], choices[1], "sample {n}");
    }
}

#[test]
fn bots_are_named_by_name_or_level() {
    assert!(make("masked-army", "greedy").is_ok());
    assert!(make("bomb-domain", "greedy").is_ok());
    assert!(make("bomb-domain", "medium").is_ok());
    assert!(make("masked-army", "medium").is_ok());
    assert!(make("sealed-bids", "easy").is_ok());
    let e = make("sealed-bids", "greedy").err().unwrap();
    assert_eq!(e, "no bot `greedy` for sealed-bids (known: random)");
}

#[test]
fn a_stopped_or_late_think_says_stop() {
    let think = Think::for_at_most(Duration::from_secs(60));
    let shared = think.clone();
    assert!(!think.should_stop());
    shared.stop();
    assert!(think.should_stop());
    assert!(Think::for_at_most(Duration::ZERO).should_stop());
}

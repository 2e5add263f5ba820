//! The search bots: legal and strong where claimed at fixed budgets, blind
//! to everything but their seat's window, and the Masked Army memories
//! doing what their names say.

use std::time::Duration;

use serde_json::json;
use umpire_bomb_domain::BombDomain;
use umpire_bots::{Bot, Think, make};
use umpire_core::{AnyGame, Game, Match, MatchOptions, Seat, SeatView, Viewer, erase, seeded_rng};
use umpire_flower_domain::FlowerDomain;
use umpire_four_statements::FourStatements;
use umpire_masked_army::MaskedArmy;
use umpire_pentomino_wall::PentominoWall;

/// Plays one untimed match between bots named `bots` (P1, P2); returns the
/// winner and every action in order.
fn play(game: &'static dyn AnyGame, bots: [&str; 2], seed: u64) -> (Option<Seat>, Vec<String>) {
    let mut m = Match::new(game, &json!({}), seed, MatchOptions::untimed()).unwrap();
    let mut players: Vec<Box<dyn Bot>> = bots.iter().map(|b| make(game.id(), b).unwrap()).collect();
    let mut rng = seeded_rng(seed);
    let think = Think::unlimited();
    let mut actions = Vec::new();
    while let Some(seat) = m.decision().seats().iter().next() {
        for s in Seat::BOTH {
            players[s.index()].observe(m.seat_view(s));
        }
        let action = players[seat.index()]
            .choose(m.seat_view(seat), &think, &mut rng)
            .expect("a bot to move has an action");
        m.submit(seat, &action, 0)
            .unwrap_or_else(|e| panic!("{} played `{action}`: {e}", bots[seat.index()]));
        actions.push(action);
    }
    (m.outcome().unwrap().winner, actions)
}

/// `bot`'s wins against `other` over `games` games, seats swapped every
/// other game.
fn wins(game: &'static dyn AnyGame, bot: &str, other: &str, games: u64) -> u64 {
    (0..games)
        .filter(|&seed| {
            let (me, bots) = if seed % 2 == 0 {
                (Seat::P1, [bot, other])
            } else {
                (Seat::P2, [other, bot])
            };
            play(game, bots, seed).0 == Some(me)
        })
        .count() as u64
}

#[test]
fn search_beats_random_at_masked_army() {
    let won = wins(erase::<MaskedArmy>(), "search:200", "random", 10);
    assert_eq!(won, 10);
}

#[test]
fn search_beats_greedy_at_masked_army() {
    let won = wins(erase::<MaskedArmy>(), "search:1000", "greedy", 10);
    assert!(won >= 7, "search won {won} of 10");
}

/// Bomb Domain's placements are simultaneous: decoupled selection there.
#[test]
fn search_beats_random_at_bomb_domain() {
    let won = wins(erase::<BombDomain>(), "search:100", "random", 4);
    assert_eq!(won, 4);
}

#[test]
fn search_beats_greedy_at_pentomino_wall() {
    let won = wins(erase::<PentominoWall>(), "search:1000", "greedy", 2);
    assert_eq!(won, 2);
}

#[test]
fn search_beats_random_at_flower_domain() {
    let won = wins(erase::<FlowerDomain>(), "search:30", "random", 2);
    assert_eq!(won, 2);
}

/// Four Statements: every bluff weighed (No Limit among them when it pays),
/// claim and reveal legal to the end, and the grid named.
#[test]
fn search_beats_random_at_four_statements() {
    let won = wins(erase::<FourStatements>(), "search:30", "random", 2);
    assert_eq!(won, 2);
}

/// With its time up before it starts, search still answers, legally.
#[test]
fn search_answers_when_stopped_at_once() {
    for game in [erase::<MaskedArmy>(), erase::<PentominoWall>()] {
        let mut m = Match::new(game, &json!({}), 1, MatchOptions::untimed()).unwrap();
        let mut rng = seeded_rng(1);
        for _ in 0..6 {
            let seat = m.decision().seats().iter().next().unwrap();
            let mut bot = make(game.id(), "search").unwrap();
            let stopped = Think::for_at_most(Duration::ZERO);
            let action = bot.choose(m.seat_view(seat), &stopped, &mut rng).unwrap();
            m.submit(seat, &action, 0).unwrap();
        }
    }
}

#[test]
fn budgets_are_read_from_the_name() {
    assert!(make("masked-army", "search:10").is_ok());
    assert!(make("masked-army", "search@50ms").is_ok());
    assert!(make("masked-army", "hard@1s").is_ok());
    assert!(make("masked-army", "forgetful:0.3").is_ok());
    assert!(make("masked-army", "human:2").is_ok());
    for bad in [
        "search@soon",
        "search:0",
        "search:x",
        "greedy:3",
        "forgetful:2",
        "human:-1",
    ] {
        let e = make("masked-army", bad).err();
        assert!(e.is_some(), "{bad} was accepted");
    }
    let e = make("masked-army", "random@1s").err().unwrap();
    assert_eq!(
        e,
        "bot `random@1s`: this bot takes nothing after its name, not `@1s`"
    );
}

/// Masked Army's levels: medium is `forgetful`, hard is `perfect` (search);
/// the other games' hard level is search.
#[test]
fn masked_army_levels_pick_forgetful_and_perfect() {
    assert_eq!(
        umpire_bots::level_of("masked-army", "forgetful"),
        Some("medium")
    );
    assert_eq!(
        umpire_bots::level_of("masked-army", "perfect"),
        Some("hard")
    );
    for game in [
        "flower-domain",
        "bomb-domain",
        "pentomino-wall",
        "four-statements",
    ] {
        assert_eq!(
            umpire_bots::level_of(game, "search"),
            Some("hard"),
            "{game}"
        );
        assert_eq!(umpire_bots::level_of(game, "hard"), Some("hard"), "{game}");
    }
}

/// Recall 1 remembers everything: the same moves as greedy, move for move.
#[test]
fn forgetful_with_full_recall_plays_as_greedy() {
    for seed in 0..6 {
        let a = play(erase::<MaskedArmy>(), ["forgetful:1", "random"], seed);
        let b = play(erase::<MaskedArmy>(), ["greedy", "random"], seed);
        assert_eq!(a, b, "seed {seed}");
    }
}

/// Recall 0 keeps no hidden colour: the same moves as a bot that remembers
/// no earlier piece (it sees only the board's one visible piece).
#[test]
fn forgetful_with_no_recall_uses_no_hidden_colour() {
    let mut differ = 0;
    for seed in 0..6 {
        let a = play(erase::<MaskedArmy>(), ["forgetful:0", "random"], seed);
        let b = play(erase::<MaskedArmy>(), ["human:0", "random"], seed);
        assert_eq!(a, b, "seed {seed}");
        let c = play(erase::<MaskedArmy>(), ["greedy", "random"], seed);
        differ += usize::from(a != c);
    }
    // And remembering does change play.
    assert!(differ >= 5, "only {differ} of 6 games differ from greedy's");
}

/// A bot handed two states its seat cannot tell apart (same view, same
/// memory) chooses the same action from the same seed: it reads nothing
/// but its seat's window. Along random games, wherever a state drawn from
/// a seat's view differs from the real one (colours, sealed choices), the
/// bot is asked on both; `checks` such places are compared in all.
fn blind_to_hidden<G: Game>(bot: &str, checks: usize) {
    let game = erase::<G>();
    let mut compared = 0;
    for seed in 0..20u64 {
        let mut m = Match::new(game, &json!({}), seed, MatchOptions::untimed()).unwrap();
        let mut rng = seeded_rng(seed);
        while let Some(seat) = m.decision().seats().iter().next() {
            let real = m.state().downcast::<G>().unwrap().clone();
            for me in m.decision().seats().iter() {
                let view = real.view(Viewer::Seat(me));
                let mut memory = G::Memory::default();
                G::remember(&mut memory, &view);
                let other = G::sample(Viewer::Seat(me), &view, &memory, &mut rng);
                assert_eq!(other.view(Viewer::Seat(me)), view);
                if other == real || compared >= checks {
                    continue;
                }
                let choices: Vec<Option<String>> = [&real, &other]
                    .into_iter()
                    .map(|state| {
                        let erased = umpire_core::Erased(state.clone());
                        let mut bot = make(G::ID, bot).unwrap();
                        let window = SeatView::new(&erased, me);
                        bot.choose(window, &Think::unlimited(), &mut seeded_rng(seed))
                    })
                    .collect();
                assert!(choices[0].is_some());
                assert_eq!(choices[0], choices[1], "{} seed {seed}, {me}", G::ID);
                compared += 1;
            }
            if compared >= checks {
                return;
            }
            let action = m.seat_view(seat).sample_action(&mut rng).unwrap();
            m.submit(seat, &action, 0).unwrap();
        }
    }
    panic!(
        "{}: only {compared} of {checks} places with hidden differences",
        G::ID
    );
}

#[test]
fn search_knows_only_its_seat_s_window_at_masked_army() {
    blind_to_hidden::<MaskedArmy>("search:100", 6);
}

#[test]
fn search_knows_only_its_seat_s_window_at_bomb_domain() {
    blind_to_hidden::<BombDomain>("search:30", 4);
}

#[test]
fn search_knows_only_its_seat_s_window_at_four_statements() {
    blind_to_hidden::<FourStatements>("search:2", 2);
}

#[test]
fn search_knows_only_its_seat_s_window_at_pentomino_wall() {
    blind_to_hidden::<PentominoWall>("search:30", 4);
}

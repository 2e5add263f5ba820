//! Every game's bots, read from the catalogue: each plays its game to the
//! end, is made by its name, answers when stopped at once, and the levels
//! pick bots of that level.

use std::time::Duration;

use serde_json::json;
use umpire_core::bot_checks::play;
use umpire_core::{Level, Match, MatchOptions, Registration, Think, seeded_rng};

/// The default config, with a round limit where the game offers one:
/// random seats may never reach the game's own end.
fn ending_config(registration: &Registration) -> serde_json::Value {
    let limited = registration
        .game
        .options()
        .iter()
        .any(|o| o.key == "max_rounds");
    if limited {
        json!({"max_rounds": 6})
    } else {
        json!({})
    }
}

#[test]
fn random_plays_every_game_to_the_end() {
    for registration in umpire_catalog::registrations_with_tests() {
        for seed in 0..5 {
            let bots = ["random", "random"].map(|n| registration.make_bot(n).unwrap());
            play(registration.game, &ending_config(registration), bots, seed);
        }
    }
}

#[test]
fn every_bot_is_made_by_its_name_and_every_level_by_its_bots() {
    for registration in umpire_catalog::registrations_with_tests() {
        let id = registration.id();
        for bot in registration.bots() {
            assert!(
                registration.make_bot(bot.name).is_ok(),
                "{id}: {}",
                bot.name
            );
            let picked = registration
                .bot(bot.level.as_str())
                .expect("a bot of its level");
            assert_eq!(picked.level, bot.level, "{id}");
        }
        let names: Vec<&str> = registration.bots().map(|b| b.name).collect();
        let e = registration.make_bot("deep-blue").err().unwrap();
        assert_eq!(
            e,
            format!("no bot `deep-blue` for {id} (known: {})", names.join(", "))
        );
    }
}

#[test]
fn every_game_offers_all_three_levels() {
    for registration in umpire_catalog::registrations() {
        for level in Level::ALL {
            let bot = registration.bot(level.as_str());
            assert!(bot.is_some(), "{}: no {level} bot", registration.id());
        }
    }
}

/// With its time up before it starts, every bot still answers, legally.
#[test]
fn every_bot_answers_when_stopped_at_once() {
    for registration in umpire_catalog::registrations_with_tests() {
        let config = ending_config(registration);
        for info in registration.bots() {
            let mut m = Match::new(registration.game, &config, 1, MatchOptions::untimed()).unwrap();
            let mut rng = seeded_rng(1);
            let mut bot = (info.make)("").unwrap();
            for _ in 0..6 {
                let Some(seat) = m.decision().seats().iter().next() else {
                    break;
                };
                let stopped = Think::for_at_most(Duration::ZERO);
                let action = bot.choose(m.seat_view(seat), &stopped, &mut rng).unwrap();
                m.submit(seat, &action, 0).unwrap_or_else(|e| {
                    panic!("{} {}: `{action}`: {e}", registration.id(), info.name)
                });
            }
        }
    }
}

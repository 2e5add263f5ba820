//! Bots. A bot is handed a [`SeatView`]: its seat's view and legal actions,
//! never the state, so it cannot cheat. It is shown every view of its seat as
//! the match goes ([`Bot::observe`]), so it can remember what it was shown, as
//! a player would.

mod masked_army;
mod random;

use umpire_core::{MatchRng, SeatView};

pub use masked_army::Greedy as MaskedArmyGreedy;
pub use random::Random;

/// A player program for one seat of one match.
pub trait Bot: Send {
    /// Shown the seat's view after every change in the match.
    fn observe(&mut self, _seat: SeatView<'_>) {}

    /// Picks an action, in notation, for a seat that must act now.
    fn choose(&mut self, seat: SeatView<'_>, rng: &mut MatchRng) -> Option<String>;
}

/// A bot that can be named in the CLI and the server.
#[derive(Clone, Copy, Debug)]
pub struct BotInfo {
    pub name: &'static str,
    /// `easy`, `medium` or `hard`.
    pub level: &'static str,
    pub about: &'static str,
    /// `None` for a bot that plays every game.
    pub game: Option<&'static str>,
    make: fn() -> Box<dyn Bot>,
}

static BOTS: &[BotInfo] = &[
    BotInfo {
        name: "random",
        level: "easy",
        about: "uniformly random legal moves",
        game: None,
        make: || Box::new(Random),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "remembers every colour it was shown; grows its own armies and blocks the opponent's, one move ahead",
        game: Some("masked-army"),
        make: || Box::<masked_army::Greedy>::default(),
    },
];

/// The bots that play `game`.
pub fn for_game(game: &str) -> Vec<BotInfo> {
    BOTS.iter()
        .filter(|b| b.game.is_none_or(|g| g == game))
        .copied()
        .collect()
}

/// A new bot for `game`, by name or level.
pub fn make(game: &str, name: &str) -> Result<Box<dyn Bot>, String> {
    let bots = for_game(game);
    let named = bots.iter().find(|b| b.name == name);
    // A level picks the strongest bot of that level for the game.
    let by_level = || bots.iter().rev().find(|b| b.level == name);
    match named.or_else(by_level) {
        Some(info) => Ok((info.make)()),
        None => {
            let names: Vec<&str> = bots.iter().map(|b| b.name).collect();
            Err(format!(
                "no bot `{name}` for {game} (known: {})",
                names.join(", ")
            ))
        }
    }
}

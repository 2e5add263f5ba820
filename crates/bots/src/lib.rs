//! Bots. A bot is handed a [`SeatView`]: its seat's view and legal actions,
//! never the state, so it cannot cheat. It is shown every view of its seat as
//! the match goes ([`Bot::observe`]), so it can remember what it was shown, as
//! a player would.

mod bomb_domain;
mod flower_domain;
mod four_statements;
mod masked_army;
mod pentomino_wall;
mod random;
mod think;

use umpire_core::{MatchRng, SeatView};

pub use bomb_domain::Greedy as BombDomainGreedy;
pub use flower_domain::Greedy as FlowerDomainGreedy;
pub use four_statements::Greedy as FourStatementsGreedy;
pub use masked_army::Greedy as MaskedArmyGreedy;
pub use pentomino_wall::Greedy as PentominoWallGreedy;
pub use random::Random;
pub use think::Think;

/// A player program for one seat of one match.
pub trait Bot: Send {
    /// Shown the seat's view after every change in the match.
    fn observe(&mut self, _seat: SeatView<'_>) {}

    /// Picks an action, in notation, for a seat that must act now. A bot
    /// that searches stops when `think` says so (its deadline passed, or it
    /// was replaced) and answers with the best it has.
    fn choose(&mut self, seat: SeatView<'_>, think: &Think, rng: &mut MatchRng) -> Option<String>;
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
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "one move ahead: the move that most raises its score over the opponent's, growing its own regions",
        game: Some("flower-domain"),
        make: || Box::new(flower_domain::Greedy),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "one turn ahead: the move, peg and detonation that leave it the most cells, pieces and blast to come; places where its blasts reach farthest",
        game: Some("bomb-domain"),
        make: || Box::<bomb_domain::Greedy>::default(),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "places each piece where it most raises its wall's score, presents what helps the opponent least, gives set-aside pieces away for credits",
        game: Some("pentomino-wall"),
        make: || Box::new(pentomino_wall::Greedy),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "counts the grids still possible: bluffs where it is least sure, claims what most grids make true, buys the most uncertain cell, guesses when one grid is left",
        game: Some("four-statements"),
        make: || Box::new(four_statements::Greedy),
    },
];

/// The bots that play `game`.
pub fn for_game(game: &str) -> Vec<BotInfo> {
    BOTS.iter()
        .filter(|b| b.game.is_none_or(|g| g == game))
        .copied()
        .collect()
}

/// The bot that `name` (a bot's name or a level) picks for `game`.
fn find(game: &str, name: &str) -> Option<BotInfo> {
    let bots = for_game(game);
    let named = bots.iter().find(|b| b.name == name);
    // A level picks the strongest bot of that level for the game.
    let by_level = || bots.iter().rev().find(|b| b.level == name);
    named.or_else(by_level).copied()
}

/// The level of the bot that `name` picks for `game`.
pub fn level_of(game: &str, name: &str) -> Option<&'static str> {
    find(game, name).map(|b| b.level)
}

/// A new bot for `game`, by name or level.
pub fn make(game: &str, name: &str) -> Result<Box<dyn Bot>, String> {
    match find(game, name) {
        Some(info) => Ok((info.make)()),
        None => {
            let bots = for_game(game);
            let names: Vec<&str> = bots.iter().map(|b| b.name).collect();
            Err(format!(
                "no bot `{name}` for {game} (known: {})",
                names.join(", ")
            ))
        }
    }
}

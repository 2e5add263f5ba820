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
pub mod search;
mod think;

use umpire_core::{MatchRng, SeatView};

pub use bomb_domain::Greedy as BombDomainGreedy;
pub use flower_domain::Greedy as FlowerDomainGreedy;
pub use four_statements::Greedy as FourStatementsGreedy;
pub use masked_army::{Greedy as MaskedArmyGreedy, Recall};
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
    /// Makes the bot from what follows its name (`""`, `":2000"`, `"@200ms"`).
    make: fn(&str) -> Result<Box<dyn Bot>, String>,
}

/// For bots that take no argument after their name.
fn plain(arg: &str, bot: impl FnOnce() -> Box<dyn Bot>) -> Result<Box<dyn Bot>, String> {
    if arg.is_empty() {
        Ok(bot())
    } else {
        Err(format!(
            "this bot takes nothing after its name, not `{arg}`"
        ))
    }
}

/// A search bot for `game`, its budget read from `arg`.
fn searcher(game: &str, arg: &str) -> Result<Box<dyn Bot>, String> {
    search::make(game, arg).unwrap_or_else(|| Err(format!("no search for {game}")))
}

static BOTS: &[BotInfo] = &[
    BotInfo {
        name: "random",
        level: "easy",
        about: "uniformly random legal moves",
        game: None,
        make: |a| plain(a, || Box::new(Random)),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "remembers every colour it was shown; grows its own armies and blocks the opponent's, one move ahead",
        game: Some("masked-army"),
        make: |a| plain(a, || Box::<masked_army::Greedy>::default()),
    },
    BotInfo {
        name: "human",
        level: "medium",
        about: "greedy that remembers only the last four pieces' colours, about a person's span \
            (human:N for the last N)",
        game: Some("masked-army"),
        make: |a| {
            let n = arg_or(a, HUMAN_PIECES, |n: usize| n <= 64)?;
            Ok(Box::new(masked_army::Greedy::new(Recall::Recent(n))))
        },
    },
    BotInfo {
        name: "forgetful",
        level: "medium",
        about: "greedy that recalls each hidden colour with a set chance, tuned to win about \
            half its games against `human` (forgetful:P for chance P)",
        game: Some("masked-army"),
        make: |a| {
            let p = arg_or(a, FORGETFUL_RECALL, |p: f64| (0.0..=1.0).contains(&p))?;
            Ok(Box::new(masked_army::Greedy::new(Recall::Chance(p))))
        },
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "one move ahead: the move that most raises its score over the opponent's, growing its own regions",
        game: Some("flower-domain"),
        make: |a| plain(a, || Box::new(flower_domain::Greedy)),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "one turn ahead: the move, peg and detonation that leave it the most cells, pieces and blast to come; places where its blasts reach farthest",
        game: Some("bomb-domain"),
        make: |a| plain(a, || Box::<bomb_domain::Greedy>::default()),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "places each piece where it most raises its wall's score, presents what helps the opponent least, gives set-aside pieces away for credits",
        game: Some("pentomino-wall"),
        make: |a| plain(a, || Box::new(pentomino_wall::Greedy)),
    },
    BotInfo {
        name: "greedy",
        level: "medium",
        about: "counts the grids still possible: bluffs where it is least sure, claims what most grids make true, buys the most uncertain cell, guesses when one grid is left",
        game: Some("four-statements"),
        make: |a| plain(a, || Box::new(four_statements::Greedy)),
    },
    BotInfo {
        name: "search",
        level: "hard",
        about: SEARCH_ABOUT,
        game: Some("masked-army"),
        make: |a| searcher("masked-army", a),
    },
    BotInfo {
        name: "search",
        level: "hard",
        about: SEARCH_ABOUT,
        game: Some("flower-domain"),
        make: |a| searcher("flower-domain", a),
    },
    BotInfo {
        name: "search",
        level: "hard",
        about: SEARCH_ABOUT,
        game: Some("bomb-domain"),
        make: |a| searcher("bomb-domain", a),
    },
    BotInfo {
        name: "search",
        level: "hard",
        about: SEARCH_ABOUT,
        game: Some("pentomino-wall"),
        make: |a| searcher("pentomino-wall", a),
    },
    BotInfo {
        name: "search",
        level: "hard",
        about: SEARCH_ABOUT,
        game: Some("four-statements"),
        make: |a| searcher("four-statements", a),
    },
    BotInfo {
        name: "perfect",
        level: "hard",
        about: "the search bot, which remembers every colour it was shown",
        game: Some("masked-army"),
        make: |a| searcher("masked-army", a),
    },
];

/// How many pieces' colours `human` remembers.
pub const HUMAN_PIECES: usize = 4;
/// The chance that `forgetful` recalls a hidden colour (see docs/strength.md).
pub const FORGETFUL_RECALL: f64 = 0.45;

/// The number after a bot's name (`:N`), or `default` without one.
fn arg_or<T: std::str::FromStr + std::fmt::Display + Copy>(
    arg: &str,
    default: T,
    valid: impl Fn(T) -> bool,
) -> Result<T, String> {
    if arg.is_empty() {
        return Ok(default);
    }
    arg.strip_prefix(':')
        .and_then(|n| n.parse::<T>().ok())
        .filter(|&n| valid(n))
        .ok_or_else(|| format!("`{arg}` is not a valid :NUMBER (default :{default})"))
}

const SEARCH_ABOUT: &str = "information-set Monte Carlo tree search, 200 ms a move \
    (search:ITERATIONS or search@TIME for other budgets)";

/// The bots that play `game`.
pub fn for_game(game: &str) -> Vec<BotInfo> {
    BOTS.iter()
        .filter(|b| b.game.is_none_or(|g| g == game))
        .copied()
        .collect()
}

/// A bot's name and what follows it: `search@200ms` is `search` and `@200ms`.
fn split_name(name: &str) -> (&str, &str) {
    let at = name.find([':', '@']).unwrap_or(name.len());
    name.split_at(at)
}

/// The bot that `name` (a bot's name or a level) picks for `game`.
fn find(game: &str, name: &str) -> Option<BotInfo> {
    let name = split_name(name).0;
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
        Some(info) => (info.make)(split_name(name).1).map_err(|e| format!("bot `{name}`: {e}")),
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

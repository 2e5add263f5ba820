//! The games umpire knows: one registration line per game. Everything else
//! about a game (its bots and levels, its search, its commands) is in its
//! crate's [`Registration`]; the server, the command line and the tests
//! read it from here.

use std::sync::LazyLock;

use umpire_core::{AnyGame, Bot, BotInfo, Level, Registration};

static GAMES: &[&Registration] = &[
    &umpire_masked_army::REGISTRATION,
    &umpire_flower_domain::REGISTRATION,
    &umpire_bomb_domain::REGISTRATION,
    &umpire_pentomino_wall::REGISTRATION,
    &umpire_four_statements::REGISTRATION,
];

/// Games that exist to test the engine, the server and the client; served
/// only when asked (`--test-games`).
static TEST_GAMES: &[&Registration] = &[&umpire_core::testing::REGISTRATION];

static WITH_TESTS: LazyLock<Vec<&'static Registration>> =
    LazyLock::new(|| GAMES.iter().chain(TEST_GAMES).copied().collect());

static ERASED: LazyLock<[Vec<&'static dyn AnyGame>; 2]> = LazyLock::new(|| {
    let erased = |list: &[&'static Registration]| list.iter().map(|r| r.game).collect();
    [erased(GAMES), erased(&WITH_TESTS)]
});

/// Every game's registration, in a stable order.
pub fn registrations() -> &'static [&'static Registration] {
    GAMES
}

/// Every game's registration, then the test games'.
pub fn registrations_with_tests() -> &'static [&'static Registration] {
    &WITH_TESTS
}

/// The registration of the game (or test game) with this id.
pub fn registration(id: &str) -> Option<&'static Registration> {
    WITH_TESTS.iter().copied().find(|r| r.id() == id)
}

/// Every game, in a stable order.
pub fn games() -> &'static [&'static dyn AnyGame] {
    &ERASED[0]
}

/// Every game, then the test games.
pub fn with_tests() -> &'static [&'static dyn AnyGame] {
    &ERASED[1]
}

/// The game with this id.
pub fn game(id: &str) -> Option<&'static dyn AnyGame> {
    find(games(), id)
}

/// The game with this id, or an error that lists the known ids.
pub fn require(id: &str) -> Result<&'static dyn AnyGame, String> {
    require_in(games(), id)
}

/// The game with this id among `games`.
pub fn find(games: &[&'static dyn AnyGame], id: &str) -> Option<&'static dyn AnyGame> {
    games.iter().copied().find(|g| g.id() == id)
}

/// The game with this id among `games`, or an error that lists their ids.
pub fn require_in(
    games: &[&'static dyn AnyGame],
    id: &str,
) -> Result<&'static dyn AnyGame, String> {
    find(games, id).ok_or_else(|| {
        let ids: Vec<&str> = games.iter().map(|g| g.id()).collect();
        format!("unknown game `{id}` (known: {})", ids.join(", "))
    })
}

/// The bots that play game `id` (none for an unknown game).
pub fn bots(id: &str) -> Vec<&'static BotInfo> {
    registration(id).map_or_else(Vec::new, |r| r.bots().collect())
}

/// A new bot for game `id`, by name or level (`search@200ms`, `hard`).
pub fn make_bot(id: &str, name: &str) -> Result<Box<dyn Bot>, String> {
    let registration = registration(id).ok_or_else(|| format!("unknown game `{id}`"))?;
    registration.make_bot(name)
}

/// The level of the bot that `name` picks for game `id`.
pub fn level_of(id: &str, name: &str) -> Option<Level> {
    registration(id)?.bot(name).map(|b| b.level)
}

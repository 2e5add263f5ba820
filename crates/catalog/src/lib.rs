//! The games umpire knows. Adding a game is one line here.

use std::sync::LazyLock;

use umpire_core::{AnyGame, erase};

static GAMES: &[&dyn AnyGame] = &[
    erase::<umpire_masked_army::MaskedArmy>(),
    erase::<umpire_flower_domain::FlowerDomain>(),
    erase::<umpire_bomb_domain::BombDomain>(),
    erase::<umpire_pentomino_wall::PentominoWall>(),
    erase::<umpire_four_statements::FourStatements>(),
];

/// Games that exist to test the engine, the server and the client; served
/// only when asked (`umpire serve --test-games`).
static TEST_GAMES: &[&dyn AnyGame] = &[erase::<umpire_core::testing::SealedBids>()];

static WITH_TESTS: LazyLock<Vec<&'static dyn AnyGame>> =
    LazyLock::new(|| GAMES.iter().chain(TEST_GAMES).copied().collect());

/// Every game, in a stable order.
pub fn games() -> &'static [&'static dyn AnyGame] {
    GAMES
}

/// Every game, then the test games.
pub fn with_tests() -> &'static [&'static dyn AnyGame] {
    &WITH_TESTS
}

/// The game with this id.
pub fn game(id: &str) -> Option<&'static dyn AnyGame> {
    find(GAMES, id)
}

/// The game with this id, or an error that lists the known ids.
pub fn require(id: &str) -> Result<&'static dyn AnyGame, String> {
    require_in(GAMES, id)
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

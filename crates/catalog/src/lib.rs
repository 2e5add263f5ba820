//! The games umpire knows. Adding a game is one line here.

use umpire_core::{AnyGame, erase};

static GAMES: &[&dyn AnyGame] = &[erase::<umpire_masked_army::MaskedArmy>()];

/// Every game, in a stable order.
pub fn games() -> &'static [&'static dyn AnyGame] {
    GAMES
}

/// The game with this id.
pub fn game(id: &str) -> Option<&'static dyn AnyGame> {
    GAMES.iter().copied().find(|g| g.id() == id)
}

/// The game with this id, or an error that lists the known ids.
pub fn require(id: &str) -> Result<&'static dyn AnyGame, String> {
    game(id).ok_or_else(|| {
        let ids: Vec<&str> = GAMES.iter().map(|g| g.id()).collect();
        format!("unknown game `{id}` (known: {})", ids.join(", "))
    })
}

//! What every game's bots build on: the information-set search of the hard
//! level ([`search`]), which a game joins by implementing
//! [`search::SearchGame`] and listing [`search::bot`] among its bots in its
//! [`Registration`](umpire_core::Registration). The bot contract itself
//! ([`Bot`], [`Think`]) is the engine's.

#[cfg(feature = "bench")]
pub mod bench;
pub mod search;

pub use umpire_core::{Bot, Think};

use umpire_core::{BotInfo, Level};

/// The bots a game usually fields: its own `greedy` bot at medium (`B`,
/// which weighs one move ahead; `about` says how), and the search at hard
/// and, on every core, at expert.
pub const fn greedy_and_search<G: search::SearchGame, B: Bot + Default + 'static>(
    about: &'static str,
) -> [BotInfo; 3] {
    [
        BotInfo::plain::<B>("greedy", Level::Medium, about),
        search::bot::<G>(),
        search::expert::<G>(),
    ]
}

//! What every game's bots build on: the information-set search of the hard
//! level ([`search`]), which a game joins by implementing
//! [`search::SearchGame`] and listing [`search::bot`] among its bots in its
//! [`Registration`](umpire_core::Registration). The bot contract itself
//! ([`Bot`], [`Think`]) is the engine's.

#[cfg(feature = "bench")]
pub mod bench;
pub mod search;

pub use umpire_core::{Bot, Think};

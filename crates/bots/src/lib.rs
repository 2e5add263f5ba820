//! What every game's bots build on: the information-set search of the hard
//! level ([`search`]), which a game joins by implementing
//! [`search::SearchGame`] and listing [`search::bot`] among its bots in its
//! [`Registration`](umpire_core::Registration). The bot contract itself
//! ([`Bot`], [`Think`]) is the engine's.

#[cfg(feature = "bench")]
pub mod bench;
mod four_statements;
pub mod search;

pub use umpire_core::{Bot, Think};

/// Four Statements' bots (kept here until its crate holds them).
pub static FOUR_STATEMENTS: &[umpire_core::BotInfo] = &[
    umpire_core::BotInfo {
        name: "greedy",
        level: umpire_core::Level::Medium,
        about: "counts the grids still possible: bluffs where it is least sure, claims what most grids make true, buys the most uncertain cell, guesses when one grid is left",
        make: |a| umpire_core::plain(a, || Box::new(four_statements::Greedy)),
    },
    search::bot::<umpire_four_statements::FourStatements>(),
];

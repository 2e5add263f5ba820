//! Four Statements: each seat knows a few cells of a hidden 4×4 colour grid,
//! makes four statements a round about a subset of it, claims the truth of
//! the opponent's, buys cells and guesses the grid. Rules: `RULES.md`.

pub mod deduce;
pub mod grid;
pub mod statement;
pub mod table;

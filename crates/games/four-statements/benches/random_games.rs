//! Random-against-random Four Statements games (in CPU time) through the
//! generic engine API (random subsets and valid statements, claims,
//! Detective, buys and guesses, ten rounds to a draw). Judging statements:
//! `benches/judge.rs`.

use umpire_four_statements::{Config, FourStatements};

umpire_bots::random_games_bench!(
    FourStatements,
    Config {
        max_rounds: Some(10),
        ..Config::default()
    }
);

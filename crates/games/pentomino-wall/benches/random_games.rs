//! Random-against-random Pentomino Wall games (in CPU time) through the
//! generic engine API: sampling a legal action, applying it, detecting the
//! end, scoring.

use umpire_pentomino_wall::{Config, PentominoWall};

umpire_bots::random_games_bench!(PentominoWall, Config::default());

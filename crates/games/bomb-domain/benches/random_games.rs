//! Random-against-random Bomb Domain games per second (in CPU time) through
//! the generic engine API: sampling a legal action (starter choice, sealed
//! placements, whole turns), applying it, the final blast and the count.

use umpire_bomb_domain::{BombDomain, Config};

umpire_bots::random_games_bench!(BombDomain, Config::default());

//! Random-against-random Masked Army games per second (in CPU time): the
//! engine's hot path (sampling a legal move, applying it, detecting the end,
//! scoring).

use umpire_masked_army::{Config, MaskedArmy};

umpire_bots::random_games_bench!(MaskedArmy, Config::default());

//! Bomb Domain knowledge for the search.

use crate::BombDomain;

use umpire_bots::search::SearchGame;

impl SearchGame for BombDomain {}

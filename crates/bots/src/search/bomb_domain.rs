//! Bomb Domain knowledge for the search.

use umpire_bomb_domain::BombDomain;

use super::SearchGame;

impl SearchGame for BombDomain {}

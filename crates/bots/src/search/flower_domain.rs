//! Flower Domain knowledge for the search.

use umpire_flower_domain::FlowerDomain;

use super::SearchGame;

impl SearchGame for FlowerDomain {}

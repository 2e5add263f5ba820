//! Masked Army knowledge for the search.

use crate::MaskedArmy;

use umpire_bots::search::SearchGame;

impl SearchGame for MaskedArmy {}

//! Masked Army knowledge for the search.

use umpire_masked_army::MaskedArmy;

use super::SearchGame;

impl SearchGame for MaskedArmy {}

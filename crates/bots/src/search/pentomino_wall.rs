//! Pentomino Wall knowledge for the search.

use umpire_pentomino_wall::PentominoWall;

use super::SearchGame;

impl SearchGame for PentominoWall {}

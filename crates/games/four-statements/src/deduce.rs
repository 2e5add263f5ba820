//! The deduction engine: from all one seat knows, the exact number of grids
//! still possible and each cell's colour counts. (Contract stub.)

use rand::Rng;

use crate::grid::{CELLS, Colour, Grid};
use crate::table::Table;

/// All one seat knows of the grid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// Cells whose colour the seat knows (dealt or bought).
    pub known: [Option<Colour>; CELLS],
    /// Facts: each allows some colourings of its cells.
    pub facts: Vec<Table>,
    /// Whole grids known to be wrong (the seat's own wrong guesses).
    pub not: Vec<Grid>,
}

/// The grids consistent with a [`Knowledge`]: how many, and how many of
/// them give each cell each colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posterior {
    pub count: u64,
    /// `cells[i][c]`: possible grids where cell `i` has colour `c`.
    pub cells: [[u64; 4]; CELLS],
}

/// The exact posterior.
pub fn posterior(_knowledge: &Knowledge) -> Posterior {
    todo!()
}

/// The same by enumerating every grid: the tests' oracle.
pub fn brute_force(_knowledge: &Knowledge) -> Posterior {
    todo!()
}

/// A grid drawn uniformly from those still possible, if any.
pub fn sample<R: Rng + ?Sized>(_knowledge: &Knowledge, _rng: &mut R) -> Option<Grid> {
    todo!()
}

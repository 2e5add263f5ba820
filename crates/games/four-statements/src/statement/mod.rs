//! The statement language: what a seat may say about its subset, parsed from
//! English, printed as one canonical sentence, evaluated and checked for
//! validity. (Contract stub: replaced by the real language.)

use std::fmt;
use std::str::FromStr;

use umpire_core::{Cell, ParseError};

use crate::grid::{CellSet, Grid};
use crate::table::Table;

/// Longest statement, in words.
pub const MAX_WORDS: usize = 15;

/// One statement about a subset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Statement(());

/// Why a statement is not valid for a subset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("{0} words: a statement has at most 15")]
    TooManyWords(usize),
    #[error("{0} never changes the statement's truth: every tile of the subset must matter")]
    CellDoesNotMatter(Cell),
    #[error("{0} lies in no 2×2 square inside the subset")]
    NotInSquare(Cell),
}

impl Invalid {
    /// A short stable key for the broken rule.
    pub fn rule(&self) -> &'static str {
        match self {
            Invalid::TooManyWords(_) => "too-many-words",
            Invalid::CellDoesNotMatter(_) => "every-tile-matters",
            Invalid::NotInSquare(_) => "two-by-two",
        }
    }
}

impl Statement {
    /// Its truth on `grid`, speaking of the tiles of `subset`.
    pub fn eval(&self, _subset: CellSet, _grid: Grid) -> bool {
        todo!()
    }

    /// The colourings of `subset` that make it true.
    pub fn table(&self, subset: CellSet) -> Table {
        Table::from_fn(subset, |g| self.eval(subset, g))
    }

    /// A random statement valid for `subset`.
    pub fn random<R: rand::Rng + ?Sized>(_subset: CellSet, _rng: &mut R) -> Statement {
        todo!()
    }

    /// Words of the canonical sentence.
    pub fn words(&self) -> usize {
        todo!()
    }

    /// Whether it is a valid statement about `subset`, and why not.
    pub fn check(&self, _subset: CellSet) -> Result<(), Invalid> {
        todo!()
    }
}

impl FromStr for Statement {
    type Err = ParseError;
    fn from_str(_text: &str) -> Result<Statement, ParseError> {
        todo!()
    }
}

impl fmt::Display for Statement {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!()
    }
}

//! The statement language: what a seat says about its subset, read from
//! plain English into one typed meaning, printed back as one canonical
//! sentence (the reading), evaluated, and judged exactly.
//!
//! ```
//! use umpire_four_statements::grid::CellSet;
//! use umpire_four_statements::statement::judge;
//!
//! let block = CellSet::parse("A1 B1 A2 B2").unwrap();
//! let said = judge("There are two red tiles and two blue ones.", block).unwrap();
//! assert_eq!(said.reading(), "At least two tiles are red and at least two tiles are blue.");
//! assert_eq!(said.words(), 9);
//! ```
//!
//! # The parts
//!
//! - [`Statement`]: the meaning, a tree of [`Atom`]s joined by `and`, `or`,
//!   `xor`, `if … then` and negation. The judge, the deduction engine and
//!   the bots all work on it.
//! - `words`: the player's text as normalised words (spelling variants,
//!   contractions, number words), and the typos it can correct.
//! - `forms`: the phrasings of each atom, as a table of patterns.
//! - `parse`: every reading of a sentence: atoms joined by connectives,
//!   each bracketing that English allows.
//! - `print`: the canonical sentence of a meaning.
//! - `eval`: truth on a grid, as a few bit operations on colour masks.
//! - `diagram`, `sweep`: exact decision diagrams of a statement over the
//!   colourings of a subset, for validity at every size.
//! - `validity`: the rules (every tile matters, every part matters, 2×2).
//! - `judge`: text and subset in, a [`Said`] or a [`Refusal`] out.
//! - `random`: random valid statements (bots).

use std::fmt;
use std::str::FromStr;

use umpire_core::ParseError;

use crate::grid::{CellSet, Grid};

mod diagram;
mod eval;
mod forms;
mod judge;
mod meaning;
mod parse;
mod print;
mod random;
mod refusal;
mod sweep;
mod validity;
mod words;

pub use judge::{Said, judge, read};
pub use meaning::{
    Adjacency, Amount, Atom, Cmp, Colours, Line, Position, Quantifier, Side, Statement, Touching,
};
pub use random::{arbitrary, random};
pub use refusal::{Ambiguity, Invalid, Refusal};
pub use validity::MAX_DEPTH;
pub use words::count as count_words;

/// Longest statement, in words as the player typed them.
pub const MAX_WORDS: usize = 15;

/// Statements' truth on one subset, grid after grid: what the subset gives
/// every evaluation is worked out once.
///
/// A colouring can also be given as four masks, one per colour (red
/// first), each of the subset's grid indices (`row * 4 + col`) of that
/// colour: a few bit operations then judge a statement.
pub struct Evaluator {
    frame: eval::Frame,
}

impl Evaluator {
    pub fn new(subset: CellSet) -> Evaluator {
        Evaluator {
            frame: eval::Frame::new(subset),
        }
    }

    /// `s`'s truth on `grid`.
    pub fn eval(&self, s: &Statement, grid: Grid) -> bool {
        self.frame
            .eval(s, &eval::masks_of(CellSet(self.frame.subset), grid))
    }

    /// `s`'s truth on the colouring given as masks.
    pub fn eval_masks(&self, s: &Statement, masks: &[u16; 4]) -> bool {
        self.frame.eval(s, masks)
    }

    /// `s`'s truth on `masks` with its part `part` (found by address, so a
    /// part of `s` itself) taken as `value`: what `s` says without that
    /// part.
    pub fn eval_replacing(
        &self,
        s: &Statement,
        masks: &[u16; 4],
        part: &Statement,
        value: bool,
    ) -> bool {
        self.frame.eval_forcing(s, masks, Some((part, value)))
    }
}

impl FromStr for Statement {
    type Err = ParseError;

    /// The sentence's simplest reading, whatever the subset (canonical
    /// sentences have one); [`judge`] reads it for a subset, refusing
    /// sentences with readings that differ there.
    fn from_str(text: &str) -> Result<Statement, ParseError> {
        parse::simplest(text)
    }
}

impl fmt::Display for Statement {
    /// The canonical sentence: capitalised, ending with a full stop.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print::capitalised(&self.sentence()))
    }
}

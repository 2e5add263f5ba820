//! The statement language: what a seat may say about its subset, parsed from
//! English, printed as one canonical sentence, evaluated and checked for
//! validity. The language in words, with examples: "The statement language"
//! in the game's `RULES.md`.
//!
//! # Shape
//!
//! A [`Statement`] is an `or` of `xor`s of `and`s of [`Literal`]s, each an
//! [`Atom`] possibly negated. This is exactly the parse tree of English read
//! with the precedence below, so every statement has one canonical sentence
//! and that sentence parses back to the same statement.
//!
//! # Precedence
//!
//! Tightest first: "it is not true that" (applies to the one claim right after
//! it), then `and`, then `xor`, then `or`; each is read left to right. So
//! "A or B and C" is "A or (B and C)", and "it is not true that A and B" is
//! "(not A) and B". "Either A or B but not both" is "A xor B"; "either A or B"
//! without "but not both" is the inclusive "or".
//!
//! # Entry points
//!
//! - [`judge`]: the engine's single entry point, text and subset in, a valid
//!   statement or a [`Refusal`] out (unparsable text, or the rule it breaks:
//!   `outside-subset`, `outside-game`, `coordinates`, `too-many-words`,
//!   `every-tile-matters`, `two-by-two`).
//! - [`Statement::from_str`]: English in (a [`ParseError`] with offset,
//!   expectations and a suggestion when one is close).
//! - [`Statement::check`]: the structural rules for a subset.
//! - [`random`]: a random statement valid for a subset (bots).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use umpire_core::{Cell, ParseError};

use crate::grid::{CellSet, Colour, Grid};
use crate::table::Table;

mod eval;
mod parse;
mod print;

pub use eval::random;
pub use parse::judge;

/// Longest statement, in words.
pub const MAX_WORDS: usize = 15;

/// How many: "at least two", "exactly three", "at most one". "No" is
/// `Exactly(0)`; a bare number ("two red tiles") and "a"/"one" mean at least.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Count {
    AtLeast(u8),
    Exactly(u8),
    AtMost(u8),
}

impl Count {
    /// Whether `n` satisfies it.
    pub fn holds(self, n: u32) -> bool {
        match self {
            Count::AtLeast(k) => n >= u32::from(k),
            Count::Exactly(k) => n == u32::from(k),
            Count::AtMost(k) => n <= u32::from(k),
        }
    }

    /// The number it names.
    pub fn number(self) -> u8 {
        match self {
            Count::AtLeast(k) | Count::Exactly(k) | Count::AtMost(k) => k,
        }
    }
}

/// Which neighbours count: "adjacent" (the eight around, diagonals
/// included), "orthogonally adjacent" (sharing a side) or "diagonally
/// adjacent" (sharing only a corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adjacency {
    Any,
    Orthogonal,
    Diagonal,
}

/// More, fewer or as many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    More,
    Fewer,
    AsMany,
}

/// Rows or columns of the subset (only those it meets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    Row,
    Column,
}

/// "Some" (there is one) or "every".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Some,
    Every,
}

/// One tile named by its position: it speaks of one cell only, so it is only
/// ever valid for a one-cell subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    /// The leftmost column's topmost tile.
    Leftmost,
    /// The rightmost column's topmost tile.
    Rightmost,
    /// The top row's leftmost tile.
    Top,
    /// The bottom row's leftmost tile.
    Bottom,
}

/// One claim about the subset's tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// "At least two tiles are red."
    Count { colour: Colour, count: Count },
    /// "More tiles are red than blue."
    Compare {
        left: Colour,
        comparison: Comparison,
        right: Colour,
    },
    /// "There are exactly three colours."
    Colours(Count),
    /// "A red tile is adjacent to a blue tile." (`a == b`: "Two red tiles
    /// are adjacent.")
    Adjacent {
        a: Colour,
        b: Colour,
        adjacency: Adjacency,
    },
    /// "Two adjacent tiles share a colour."
    SameColourNeighbours(Adjacency),
    /// "Some 2x2 square has at least one red tile." (squares whose four cells
    /// are all in the subset)
    Square {
        quantifier: Quantifier,
        colour: Colour,
        count: Count,
    },
    /// "The largest red group has at least three tiles." (`colour: None`: the
    /// largest group of any one colour)
    Largest {
        colour: Option<Colour>,
        orthogonal: bool,
        count: Count,
    },
    /// "All red tiles are connected." (true with zero or one red tile)
    Connected { colour: Colour, orthogonal: bool },
    /// "Every row has at least one red tile."
    Lines {
        line: Line,
        quantifier: Quantifier,
        colour: Colour,
        count: Count,
    },
    /// "The leftmost tile is red."
    Tile { position: Position, colour: Colour },
}

/// An atom, or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Literal {
    pub negated: bool,
    pub atom: Atom,
}

/// One statement about a subset: an `or` of `xor`s of `and`s of literals,
/// none of the lists empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Statement {
    any: Vec<Vec<Vec<Literal>>>,
}

/// Why a statement is not valid for a subset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("{0} words: a statement has at most 15")]
    TooManyWords(usize),
    #[error("{0} never changes the statement's truth: every tile of the subset must matter")]
    CellDoesNotMatter(Cell),
    #[error("{0} lies in no 2×2 square inside the subset")]
    NotInSquare(Cell),
    #[error("it speaks of tiles outside the subset: a statement speaks only of the subset's tiles")]
    OutsideSubset,
    #[error("it speaks of things outside the grid: a statement speaks only of the tiles' colours")]
    OutsideGame,
    #[error("it names coordinates: rows, columns and cells may not be named or numbered")]
    Coordinates,
}

impl Invalid {
    /// A short stable key for the broken rule.
    pub fn rule(&self) -> &'static str {
        match self {
            Invalid::TooManyWords(_) => "too-many-words",
            Invalid::CellDoesNotMatter(_) => "every-tile-matters",
            Invalid::NotInSquare(_) => "two-by-two",
            Invalid::OutsideSubset => "outside-subset",
            Invalid::OutsideGame => "outside-game",
            Invalid::Coordinates => "coordinates",
        }
    }
}

impl umpire_core::RuleViolation for Invalid {
    fn rule(&self) -> &'static str {
        Invalid::rule(self)
    }
}

/// Why [`judge`] refused a statement: the text does not parse, or the
/// statement breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error(transparent)]
    Unparsable(ParseError),
    #[error(transparent)]
    Invalid(Invalid),
}

impl Refusal {
    /// `notation` for text that does not parse, else the broken rule's key.
    pub fn rule(&self) -> &'static str {
        match self {
            Refusal::Unparsable(_) => "notation",
            Refusal::Invalid(e) => e.rule(),
        }
    }
}

impl From<Refusal> for umpire_core::ActionError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Unparsable(e) => e.into(),
            Refusal::Invalid(e) => umpire_core::ActionError::new(e.rule(), e.to_string()),
        }
    }
}

impl Literal {
    pub fn new(atom: Atom) -> Literal {
        Literal {
            negated: false,
            atom,
        }
    }
}

impl std::ops::Not for Literal {
    type Output = Literal;
    fn not(self) -> Literal {
        Literal {
            negated: !self.negated,
            atom: self.atom,
        }
    }
}

impl From<Atom> for Statement {
    fn from(atom: Atom) -> Statement {
        Statement::literal(Literal::new(atom))
    }
}

impl Statement {
    /// One literal.
    pub fn literal(literal: Literal) -> Statement {
        Statement {
            any: vec![vec![vec![literal]]],
        }
    }

    /// `ors[i]` are joined by `or`, `ors[i][j]` by `xor`, `ors[i][j][k]` by
    /// `and`; `None` if some list is empty.
    pub fn from_clauses(ors: Vec<Vec<Vec<Literal>>>) -> Option<Statement> {
        let ok = !ors.is_empty()
            && ors
                .iter()
                .all(|x| !x.is_empty() && x.iter().all(|a| !a.is_empty()));
        ok.then_some(Statement { any: ors })
    }

    /// The `or` of `xor`s of `and`s of literals.
    pub fn clauses(&self) -> &[Vec<Vec<Literal>>] {
        &self.any
    }

    /// Every literal, left to right.
    pub fn literals(&self) -> impl Iterator<Item = &Literal> {
        self.any.iter().flatten().flatten()
    }

    /// `self or other`.
    #[must_use]
    pub fn or(mut self, other: Statement) -> Statement {
        self.any.extend(other.any);
        self
    }

    /// Its truth on `grid`, speaking of the tiles of `subset`.
    pub fn eval(&self, subset: CellSet, grid: Grid) -> bool {
        let frame = eval::Frame::new(subset);
        frame.eval(self, &eval::masks_of(subset, grid))
    }

    /// The colourings of `subset` that make it true. Remembered per thread:
    /// a seat's knowledge is rebuilt from the same statements over and over
    /// (bots count it many times a move), and a table over 8 cells takes
    /// 65,536 evaluations.
    pub fn table(&self, subset: CellSet) -> Table {
        thread_local! {
            static TABLES: RefCell<HashMap<(Statement, CellSet), Table>> =
                RefCell::new(HashMap::new());
        }
        /// Tables kept before the memo starts afresh (at most 8 KiB each: 8 MiB).
        const KEPT: usize = 1024;
        let key = (self.clone(), subset);
        if let Some(t) = TABLES.with_borrow(|m| m.get(&key).cloned()) {
            return t;
        }
        let t = Table::from_bits(subset, eval::Frame::new(subset).truth_bits(self));
        TABLES.with_borrow_mut(|m| {
            if m.len() >= KEPT {
                m.clear();
            }
            m.insert(key, t.clone());
        });
        t
    }

    /// A random statement valid for `subset` (see [`random`]).
    pub fn random<R: rand::Rng + ?Sized>(subset: CellSet, rng: &mut R) -> Statement {
        random(subset, rng)
    }

    /// Words of the canonical sentence.
    pub fn words(&self) -> usize {
        self.to_string().split_whitespace().count()
    }

    /// Whether it is a valid statement about `subset`, and why not: at most
    /// 15 words, every cell in a 2×2 square inside the subset when it speaks
    /// of 2×2 squares, and every cell matters.
    pub fn check(&self, subset: CellSet) -> Result<(), Invalid> {
        let words = self.words();
        if words > MAX_WORDS {
            return Err(Invalid::TooManyWords(words));
        }
        eval::Frame::new(subset).check(self)
    }
}

impl FromStr for Statement {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Statement, ParseError> {
        parse::parse(text)
    }
}

impl fmt::Display for Statement {
    /// The canonical sentence: capitalised, ending with a full stop.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = print::sentence(self);
        let mut chars = s.chars();
        if let Some(c) = chars.next() {
            write!(f, "{}{}", c.to_ascii_uppercase(), chars.as_str())?;
        }
        f.write_str(".")
    }
}

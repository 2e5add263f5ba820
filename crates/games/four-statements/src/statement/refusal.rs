//! Why a statement is refused: the rule it breaks, or text that does not
//! read.

use std::fmt;

use umpire_core::{Cell, ParseError};

/// Why a statement is not valid for a subset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("{0} words: a statement has at most 15")]
    TooManyWords(usize),
    #[error("{0} never changes the statement's truth: every tile of the subset must matter")]
    CellDoesNotMatter(Cell),
    #[error(
        "“{0}” never changes the statement's truth on this subset: every part must matter (leave it out)"
    )]
    NeedlessPart(String),
    #[error("{0} lies in no 2×2 square inside the subset")]
    NotInSquare(Cell),
    #[error("it speaks of tiles outside the subset: a statement speaks only of the subset's tiles")]
    OutsideSubset,
    #[error("it speaks of things outside the grid: a statement speaks only of the tiles' colours")]
    OutsideGame,
    #[error("it names coordinates: rows, columns and cells may not be named or numbered")]
    Coordinates,
    #[error("{0}")]
    Ambiguous(Ambiguity),
    #[error("it nests its parts too deep to read clearly: say it with fewer ands, ors and nots")]
    TooComplex,
    #[error(
        "the umpire cannot settle it on this subset in good time: say it more simply (the largest group of one colour settles faster than of any colour)"
    )]
    Unsettled,
}

/// Two readings of one sentence that mean different things on the subset,
/// each with the sentence that says it and nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ambiguity {
    pub readings: Vec<String>,
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "it can be read in {} ways", self.readings.len())?;
        for (i, r) in self.readings.iter().enumerate() {
            write!(f, "{} “{r}”", if i == 0 { ":" } else { " or" })?;
        }
        f.write_str(": say the one you mean")
    }
}

impl Invalid {
    /// A short stable key for the broken rule.
    pub fn rule(&self) -> &'static str {
        match self {
            Invalid::TooManyWords(_) => "too-many-words",
            Invalid::CellDoesNotMatter(_) => "every-tile-matters",
            Invalid::NeedlessPart(_) => "every-part-matters",
            Invalid::NotInSquare(_) => "two-by-two",
            Invalid::OutsideSubset => "outside-subset",
            Invalid::OutsideGame => "outside-game",
            Invalid::Coordinates => "coordinates",
            Invalid::Ambiguous(_) => "ambiguous",
            Invalid::TooComplex | Invalid::Unsettled => "too-complex",
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

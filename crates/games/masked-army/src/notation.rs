//! Masked Army notation: `first P2` (the advantage seat names who starts) and
//! `E5 F5` (mover's colour on E5, opponent's colour on F5).

use std::fmt;
use std::str::FromStr;

use umpire_core::grid::parse_cells;
use umpire_core::{Cell, ParseError, Seat};

/// One action of Masked Army.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The advantage seat chooses who places first.
    First(Seat),
    /// A domino: the mover's colour on `mine`, the opponent's on `theirs`.
    Place { mine: Cell, theirs: Cell },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::First(seat) => write!(f, "first {seat}"),
            Action::Place { mine, theirs } => {
                mine.fmt(f)?;
                f.write_str(" ")?;
                theirs.fmt(f)
            }
        }
    }
}

impl FromStr for Action {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Action, ParseError> {
        let trimmed = text.trim();
        let lower = trimmed.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("first") {
            return Ok(Action::First(rest.parse()?));
        }
        // Cells are read on the largest board notation allows; whether they
        // are on this board is a rule, checked when the piece is placed.
        match parse_cells(trimmed, 26, 99)?.as_slice() {
            [mine, theirs] => Ok(Action::Place {
                mine: *mine,
                theirs: *theirs,
            }),
            _ => Err(ParseError::new(format!(
                "expected two cells like `E5 F5` (your colour first) or `first P1`, got `{trimmed}`"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for text in ["first P1", "first P2", "E5 F5", "A1 A2", "I9 H9"] {
            assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
        }
        assert_eq!("  e5-f5 ".parse::<Action>().unwrap().to_string(), "E5 F5");
        assert_eq!("FIRST p2".parse(), Ok(Action::First(Seat::P2)));
    }

    #[test]
    fn says_what_is_wrong() {
        let message = |text: &str| text.parse::<Action>().unwrap_err().message().to_string();
        assert_eq!(
            message("E5"),
            "expected two cells like `E5 F5` (your colour first) or `first P1`, got `E5`"
        );
        assert!(message("first P3").contains("P1 or P2"));
        assert!("hello".parse::<Action>().is_err());
    }
}

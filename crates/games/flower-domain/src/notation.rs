//! Flower Domain notation: `ready`, `first P1`, a colour (`red`, `yellow`,
//! `green`, `blue`), `pass`, and moves such as `A1-B1-C1-C2 to B3-B2-B1-A1`
//! (the n-th meadow cell's flower goes to the n-th garden cell).
//!
//! ```
//! use umpire_flower_domain::Action;
//!
//! // Pairs are put in canonical order: meadow cells in reading order.
//! let a: Action = "b1-a1 to c4-c3".parse().unwrap();
//! assert_eq!(a.to_string(), "A1-B1 to C3-C4");
//! assert_eq!("RED".parse::<Action>().unwrap().to_string(), "red");
//! ```

use std::fmt;
use std::str::FromStr;

use umpire_core::grid::parse_cells;
use umpire_core::{Cell, ParseError, Seat};

use crate::board::Colour;

/// One action of Battle of the Flower Domain.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Done studying the meadow.
    Ready,
    /// The advantage seat names the seat that drafts first.
    First(Seat),
    /// A draft pick.
    Draft(Colour),
    /// Flowers from the meadow cells `from` go to the garden cells `to`,
    /// pair by pair.
    Move {
        from: Vec<Cell>,
        to: Vec<Cell>,
    },
    Pass,
}

impl Action {
    /// A move with its pairs in canonical order (meadow cells in reading order).
    pub fn new_move(from: Vec<Cell>, to: Vec<Cell>) -> Action {
        let mut pairs: Vec<(Cell, Cell)> = from.into_iter().zip(to).collect();
        pairs.sort_by_key(|(f, _)| (f.row, f.col));
        let (from, to) = pairs.into_iter().unzip();
        Action::Move { from, to }
    }
}

/// Cells as the notation writes a group of them: `A1-B1-C1`.
pub(crate) fn cell_list(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Ready => f.write_str("ready"),
            Action::First(seat) => write!(f, "first {seat}"),
            Action::Draft(colour) => write!(f, "{colour}"),
            Action::Move { from, to } => write!(f, "{} to {}", cell_list(from), cell_list(to)),
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Action, ParseError> {
        const EXPECTED: [&str; 5] = [
            "a move like `A1-B1 to C3-C4`",
            "pass",
            "ready",
            "a colour (red, yellow, green, blue)",
            "first P1",
        ];
        let trimmed = text.trim();
        let lower = trimmed.to_ascii_lowercase();
        match lower.as_str() {
            "ready" => return Ok(Action::Ready),
            "pass" => return Ok(Action::Pass),
            _ => {}
        }
        if let Some(colour) = Colour::ALL.into_iter().find(|c| c.name() == lower) {
            return Ok(Action::Draft(colour));
        }
        if let Some(rest) = lower.strip_prefix("first") {
            return Ok(Action::First(rest.parse()?));
        }
        let lead = text.len() - text.trim_start().len();
        let Some((at, sep)) = ["->", "to"]
            .iter()
            .find_map(|sep| lower.find(sep).map(|at| (at, sep.len())))
        else {
            if lower
                .split_whitespace()
                .all(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
            {
                return Err(ParseError::new(format!("`{trimmed}` is not an action"))
                    .at(0)
                    .expected(EXPECTED));
            }
            return Err(ParseError::new(format!(
                "a move names meadow cells, then `to`, then garden cells, like `A1-B1 to C3-C4`; got `{trimmed}`"
            ))
            .expected(EXPECTED));
        };
        let offset = |e: ParseError, base: usize| match e.offset() {
            Some(o) => e.at(o + lead + base),
            None => e,
        };
        // Cells are read on the largest board notation allows; whether they
        // are on this board is a rule, checked when the move is made.
        let from = parse_cells(&trimmed[..at], 26, 99).map_err(|e| offset(e, 0))?;
        let to_text = &trimmed[at + sep..];
        let to = parse_cells(to_text, 26, 99).map_err(|e| offset(e, at + sep))?;
        if from.is_empty() || to.is_empty() {
            return Err(ParseError::new(format!(
                "a move names meadow cells, then `to`, then garden cells, like `A1-B1 to C3-C4`; got `{trimmed}`"
            )));
        }
        if from.len() != to.len() {
            return Err(ParseError::new(format!(
                "{} meadow cells but {} garden cells: name one garden cell for each flower",
                from.len(),
                to.len()
            )));
        }
        Ok(Action::new_move(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for text in [
            "ready",
            "first P1",
            "first P2",
            "red",
            "yellow",
            "green",
            "blue",
            "pass",
            "A1-B1-C1-C2 to B3-B2-B1-A1",
            "E5-F5 to J10-J9",
        ] {
            assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
        }
        // Other spellings read as the written action.
        for (typed, written) in [
            (" a1 b1,c1-c2 TO b3 b2 b1 a1 ", "A1-B1-C1-C2 to B3-B2-B1-A1"),
            ("A1-B1 -> C1-C2", "A1-B1 to C1-C2"),
        ] {
            assert_eq!(typed.parse::<Action>().unwrap().to_string(), written);
        }
        assert_eq!("FIRST p2".parse(), Ok(Action::First(Seat::P2)));
    }

    #[test]
    fn says_what_is_wrong() {
        for (text, message) in [
            (
                "A1-B1 to C1",
                "2 meadow cells but 1 garden cells: name one garden cell for each flower",
            ),
            ("purple", "`purple` is not an action"),
        ] {
            assert_eq!(text.parse::<Action>().unwrap_err().message(), message);
        }
        let e = "A1-B1 to C1-C!".parse::<Action>().unwrap_err();
        assert_eq!(e.offset(), Some(13));
        for text in ["first P3", "A1 B1", "to"] {
            assert!(text.parse::<Action>().is_err(), "{text}");
        }
    }
}

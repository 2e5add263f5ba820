//! Judging what a player typed: how many words, which one meaning on their
//! subset, and whether that meaning keeps the rules.

use std::fmt;

use umpire_core::ParseError;

use super::parse::{self, MAX_READINGS};
use super::print::number_word;
use super::validity::{same_meaning, settle_positions};
use super::words::count;
use super::{Ambiguity, Invalid, MAX_WORDS, Refusal, Statement};
use crate::grid::CellSet;

/// A statement as a player said it: their words, and the one meaning umpire
/// reads in them (its reading, [`Said::reading`], is what gets judged).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Said {
    text: String,
    statement: Statement,
}

impl Said {
    /// A statement said in its canonical sentence (how bots speak).
    pub fn new(statement: Statement) -> Said {
        Said {
            text: statement.to_string(),
            statement,
        }
    }

    /// Words and the meaning read in them, as a view shows them (to
    /// rebuild a state from a view).
    pub(crate) fn spoken(text: &str, statement: Statement) -> Said {
        Said {
            text: text.to_string(),
            statement,
        }
    }

    /// The words as typed (spaces tidied).
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn statement(&self) -> &Statement {
        &self.statement
    }

    /// The canonical sentence of its meaning: "You are saying: …".
    pub fn reading(&self) -> String {
        self.statement.to_string()
    }

    /// Words typed, as the 15-word limit counts them.
    pub fn words(&self) -> usize {
        count(&self.text)
    }
}

impl fmt::Display for Said {
    /// As the notation writes it: the words, then the reading in brackets
    /// when it is worded otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reading = self.reading();
        if reading == self.text {
            f.write_str(&self.text)
        } else {
            write!(f, "{} [{reading}]", self.text)
        }
    }
}

/// Judges `text` as a statement about `subset`: at most 15 words typed,
/// one meaning on the subset ([`read`]), and valid for it
/// ([`Statement::check`]).
pub fn judge(text: &str, subset: CellSet) -> Result<Said, Refusal> {
    let words = count(text);
    if words > MAX_WORDS {
        return Err(Refusal::Invalid(Invalid::TooManyWords(words)));
    }
    let statement = read(text, subset)?;
    statement.check(subset).map_err(Refusal::Invalid)?;
    Ok(Said {
        text: text.split_whitespace().collect::<Vec<_>>().join(" "),
        statement,
    })
}

/// The one meaning of `text` on `subset`. A sentence English reads in
/// several ways is read each way; readings that mean the same on the subset
/// are one (the simplest is kept). When they differ, the sentence is refused
/// as [`Invalid::Ambiguous`] with each reading, unless every reading breaks
/// a rule (then the first reading's rule is given).
pub fn read(text: &str, subset: CellSet) -> Result<Statement, Refusal> {
    let readings = match parse::readings(text) {
        Ok(r) => r,
        Err(e) => return Err(not_a_statement(text, e)),
    };
    let readings: Vec<Statement> = readings
        .iter()
        .flat_map(|r| settle_positions(r, subset))
        .collect();
    if readings.len() > MAX_READINGS {
        return Err(Refusal::Invalid(Invalid::TooComplex));
    }
    let mut kinds: Vec<Statement> = Vec::new();
    for r in readings {
        let mut known = false;
        for k in &kinds {
            known |= same_meaning(k, &r, subset).map_err(Refusal::Invalid)?;
        }
        if !known {
            kinds.push(r);
        }
    }
    if kinds.len() == 1 {
        return Ok(kinds.pop().expect("one reading"));
    }
    let verdicts: Vec<Result<(), Invalid>> = kinds.iter().map(|k| k.check(subset)).collect();
    if let Some(Err(first)) = verdicts
        .first()
        .filter(|_| verdicts.iter().all(Result::is_err))
    {
        return Err(Refusal::Invalid(first.clone()));
    }
    Err(Refusal::Invalid(Invalid::Ambiguous(Ambiguity {
        readings: kinds.iter().map(ToString::to_string).collect(),
    })))
}

/// Text that is no statement: coordinates, the grid beyond the subset, or
/// something that is not about tiles at all are rules of their own.
fn not_a_statement(text: &str, e: ParseError) -> Refusal {
    let words = loose_words(text);
    if names_coordinates(&words) {
        return Refusal::Invalid(Invalid::Coordinates);
    }
    if speaks_outside_subset(&words) {
        return Refusal::Invalid(Invalid::OutsideSubset);
    }
    // Of the players themselves: nothing the grid can say.
    if words.iter().any(|w| {
        matches!(
            w.as_str(),
            "opponent" | "opponents" | "player" | "players" | "me" | "you" | "your" | "marcer"
        )
    }) {
        return Refusal::Invalid(Invalid::OutsideGame);
    }
    // The clause where reading stopped (from the connective before it to
    // the end): if it speaks of no tile or colour, it is about something
    // else.
    let at = e.offset().unwrap_or(0);
    let before = loose_words(&text.chars().take(at).collect::<String>());
    let start = before
        .iter()
        .rposition(|w| matches!(w.as_str(), "and" | "or" | "but" | "xor" | "that"))
        .map_or(0, |i| i + 1);
    let after = loose_words(&text.chars().skip(at).collect::<String>());
    let clause: Vec<&String> = before[start..].iter().chain(&after).collect();
    if !clause.is_empty() && !clause.iter().any(|w| game_word(w)) {
        return Refusal::Invalid(Invalid::OutsideGame);
    }
    Refusal::Unparsable(e)
}

/// Lower-cased words of `text`, split at anything but letters and digits.
fn loose_words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether the text names coordinates: a cell such as `A1`, "row 2",
/// "column B", "the first row", or coordinates at all.
fn names_coordinates(words: &[String]) -> bool {
    let cell = |w: &str| {
        let b = w.as_bytes();
        b.len() == 2 && (b'a'..=b'd').contains(&b[0]) && (b'1'..=b'4').contains(&b[1])
    };
    let number = |w: &str| number_word(w).is_some() || w.parse::<u8>().is_ok();
    let ordinal = |w: &str| {
        matches!(
            w,
            "first" | "second" | "third" | "fourth" | "1st" | "2nd" | "3rd" | "4th"
        )
    };
    words.iter().enumerate().any(|(i, w)| {
        let next = words.get(i + 1).map(String::as_str).unwrap_or("");
        cell(w)
            || w.starts_with("coordinate")
            || matches!(w.as_str(), "numerical" | "numbered" | "index")
            || (matches!(w.as_str(), "row" | "rows" | "column" | "columns")
                && (number(next) || (next.len() == 1 && ("abcd".contains(next)))))
            || (ordinal(w) && matches!(next, "row" | "column"))
    })
}

fn speaks_outside_subset(words: &[String]) -> bool {
    words.iter().any(|w| {
        matches!(
            w.as_str(),
            "grid" | "board" | "outside" | "entire" | "whole" | "hidden" | "elsewhere"
        )
    })
}

/// A word that speaks of the tiles.
fn game_word(w: &str) -> bool {
    matches!(
        w,
        "tile"
            | "tiles"
            | "square"
            | "squares"
            | "cell"
            | "cells"
            | "red"
            | "blue"
            | "green"
            | "yellow"
            | "reds"
            | "blues"
            | "greens"
            | "yellows"
            | "colour"
            | "colours"
            | "color"
            | "colors"
            | "adjacent"
            | "row"
            | "rows"
            | "column"
            | "columns"
            | "group"
            | "connected"
            | "2x2"
    )
}

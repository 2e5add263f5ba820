//! The host's final call on a statement ("The host will make all final
//! judgment calls"): in a match with a host, the umpire's ruling accepts a
//! statement the machine refuses, or refuses one it accepts, for one seat
//! on one subset in the open bluff phase, with a reason both players see
//! once the bluffs are in.
//!
//! ```text
//! accept subset A1 B1 A2 B2; Two tiles are red-ish.; reason "red-ish" is red at this table
//! refuse subset A1 B1 A2 B2; There is a red tile.; reason too easy a bluff for this final
//! ```
//!
//! A ruling names the statement by its words (spaces and case aside). An
//! accepted statement needs a meaning, so its truth can be told: a
//! sentence the machine reads one way, or the reading the host accepts in
//! brackets after it, as the notation writes it (`… [At least two tiles
//! are red.]`). A refused statement in the seat's sealed bluff sends the
//! bluff back: the seat submits again.

use std::fmt;
use std::str::FromStr;

use umpire_core::{ParseError, Seat};

use crate::grid::CellSet;
use crate::statement::{self, Refusal, Said, Statement};

/// The longest reason, in characters.
pub const MAX_REASON: usize = 200;

/// One ruling as the record writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub accept: bool,
    pub subset: CellSet,
    /// The statement's words, spaces tidied.
    pub words: String,
    /// The reading the host accepts, written in brackets.
    pub reading: Option<String>,
    pub reason: String,
}

/// A ruling in force: whose, when, on what, and the meaning an accepted
/// statement is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    pub round: u32,
    pub seat: Seat,
    pub accept: bool,
    pub subset: CellSet,
    pub words: String,
    /// For an accepted statement: what it means, so its truth can be told.
    pub meaning: Option<Statement>,
    pub reason: String,
}

impl Ruling {
    /// Whether this ruling is about `words` on `subset`.
    pub fn about(&self, subset: CellSet, words: &str) -> bool {
        self.subset == subset && same_words(&self.words, words)
    }

    /// The statement as accepted: its words with the meaning the host gave.
    pub fn said(&self) -> Option<Said> {
        self.meaning
            .clone()
            .map(|meaning| Said::spoken(&self.words, meaning))
    }
}

/// Words alike but for spaces and case.
pub fn same_words(a: &str, b: &str) -> bool {
    tidy(a).to_lowercase() == tidy(b).to_lowercase()
}

fn tidy(words: &str) -> String {
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.accept { "accept" } else { "refuse" };
        write!(f, "{verb} subset {}; {}", self.subset, self.words)?;
        if let Some(reading) = &self.reading {
            write!(f, " [{reading}]")?;
        }
        write!(f, "; reason {}", self.reason)
    }
}

const FORM: &str = "accept subset A1 B1 A2 B2; <the statement>; reason <why>";

impl FromStr for Written {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Written, ParseError> {
        let text = text.trim();
        let (verb, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let accept = match verb.to_ascii_lowercase().as_str() {
            "accept" => true,
            "refuse" => false,
            _ => {
                return Err(ParseError::new(format!(
                    "`{verb}` is not a ruling: a ruling starts with accept or refuse"
                ))
                .at(0)
                .expected([FORM]));
            }
        };
        let mut parts = rest.splitn(3, ';').map(str::trim);
        let (Some(subset), Some(statement), Some(reason)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Err(ParseError::new(
                "a ruling names the subset, the statement and the reason, separated by `;`",
            )
            .expected([FORM]));
        };
        let cells = subset
            .strip_prefix("subset")
            .or_else(|| subset.strip_prefix("SUBSET"))
            .ok_or_else(|| ParseError::new("a ruling's subset is written `subset A1 B1 A2 B2`"))?;
        let subset = CellSet::parse(cells)?;
        if subset.is_empty() {
            return Err(ParseError::new("the ruling's subset names no cell"));
        }
        let (words, reading) = match statement.strip_suffix(']').and_then(|s| s.rsplit_once('[')) {
            Some((words, reading)) => (words.trim(), Some(tidy(reading))),
            None => (statement, None),
        };
        if words.is_empty() {
            return Err(ParseError::new("the ruling names no statement"));
        }
        let reason = reason
            .strip_prefix("reason")
            .or_else(|| reason.strip_prefix("Reason"))
            .map(str::trim)
            .ok_or_else(|| {
                ParseError::new(
                    "a ruling ends with its reason, `reason <why>`, which both players see",
                )
                .expected([FORM])
            })?;
        check_reason(reason)?;
        Ok(Written {
            accept,
            subset,
            words: tidy(words),
            reading,
            reason: reason.to_string(),
        })
    }
}

fn check_reason(reason: &str) -> Result<(), ParseError> {
    let length = reason.chars().count();
    if length == 0 {
        return Err(ParseError::new("give a reason: both players see it"));
    }
    if length > MAX_REASON {
        return Err(ParseError::new(format!(
            "a reason has at most {MAX_REASON} characters; this one has {length}"
        )));
    }
    if reason.chars().any(char::is_control) {
        return Err(ParseError::new("a reason cannot hold control characters"));
    }
    Ok(())
}

/// Why a ruling cannot be made (the state is left as it was).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unruled {
    #[error("a ruling is made while the bluff phase is open, before both bluffs are in")]
    NotNow,
    #[error("the machine already {0} this statement on this subset: there is nothing to overrule")]
    Already(&'static str),
    #[error(
        "the machine cannot read this statement ({0}), so its truth could not be told: ask the player for other words"
    )]
    Unreadable(String),
    #[error(
        "the machine reads this statement as: {0}; write the reading you accept in brackets after it, as one of these"
    )]
    Readings(String),
}

impl umpire_core::RuleViolation for Unruled {
    fn rule(&self) -> &'static str {
        match self {
            Unruled::NotNow => "ruling-too-late",
            Unruled::Already(_) => "nothing-to-overrule",
            Unruled::Unreadable(_) => "unreadable",
            Unruled::Readings(_) => "readings",
        }
    }
}

/// The meaning an accepted statement is given: the one way the machine
/// reads its words, or of the ways it reads them, the reading in brackets.
pub fn meaning(written: &Written) -> Result<Statement, Unruled> {
    let chosen = written.reading.as_deref();
    match statement::read(&written.words, written.subset) {
        Ok(meaning) if chosen.is_none_or(|r| r == meaning.to_string()) => Ok(meaning),
        Ok(meaning) => Err(Unruled::Readings(meaning.to_string())),
        Err(Refusal::Invalid(statement::Invalid::Ambiguous(a))) => match chosen {
            Some(r) if a.readings.iter().any(|x| x == r) => {
                statement::read(r, written.subset).map_err(|e| Unruled::Unreadable(e.to_string()))
            }
            _ => Err(Unruled::Readings(a.readings.join(" / "))),
        },
        Err(e) => Err(Unruled::Unreadable(e.to_string())),
    }
}

/// Whether the machine accepts `words` on `subset` as a statement (the
/// 15-word limit included).
pub fn machine_accepts(words: &str, subset: CellSet) -> bool {
    statement::judge(words, subset).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulings_round_trip_and_say_what_is_missing() {
        let text = "ACCEPT subset a1 b1 a2 b2;  Two   tiles are red. [At least two tiles are red.] ; reason fine; really";
        let w: Written = text.parse().unwrap();
        assert!(w.accept);
        assert_eq!(w.reason, "fine; really");
        assert_eq!(
            w.to_string(),
            "accept subset A1 B1 A2 B2; Two tiles are red. [At least two tiles are red.]; reason fine; really"
        );
        assert_eq!(w.to_string().parse::<Written>().unwrap(), w);
        for (bad, says) in [
            ("overrule subset A1; x; reason y", "accept or refuse"),
            ("refuse subset A1 B1; There is a red tile.", "separated by"),
            (
                "refuse subset A1 B1; There is a red tile.; because",
                "reason <why>",
            ),
            (
                "refuse subset A1 B1; There is a red tile.; reason ",
                "give a reason",
            ),
            ("refuse A1 B1; There is a red tile.; reason x", "subset A1"),
        ] {
            let e = bad.parse::<Written>().unwrap_err();
            assert!(e.message().contains(says), "{bad}: {e}");
        }
        let long = format!("refuse subset A1; x; reason {}", "y".repeat(201));
        assert!(
            long.parse::<Written>()
                .unwrap_err()
                .message()
                .contains("201")
        );
    }
}

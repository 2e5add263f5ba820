//! Four Statements notation (RULINGS.md): a seat's whole submission of a
//! phase is one action.
//!
//! - bluff: `subset A1 B1 A2 B2; <statement>; <statement>; <statement>;
//!   <statement>`, with `smokescreen 2` and `nolimit` as further parts;
//! - claims: `claims T F T -`; before them, `detective 3` asks Detective
//!   for the truth of the opponent's statement 3;
//! - reveal: `buy B3`, `buy B3 C4`, `guess RRBG YGBR BBRY GYRG`, `pass`, or
//!   `guess` alone to take the guessing time first and send the grid later.

use std::fmt;
use std::str::FromStr;

use umpire_core::ParseError;

use crate::grid::{CellSet, Grid};
use crate::statement::{self, Invalid, Refusal, Said};

/// Statements in a bluff.
pub const STATEMENTS: usize = 4;

/// A seat's bluff: its subset, its four statements and the items it uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bluff {
    pub subset: CellSet,
    pub statements: [Said; STATEMENTS],
    /// The statement (0-based) hidden from the opponent by Smokescreen.
    pub smokescreen: Option<usize>,
    /// No Limit: the subset rules do not apply this round.
    pub nolimit: bool,
}

/// A seat's claims on the opponent's four statements: true, false, or no
/// claim (`-`) for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claims {
    pub claims: [Option<bool>; STATEMENTS],
}

/// One action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Bluff(Box<Bluff>),
    Claims(Claims),
    /// Detective: the truth of the opponent's statement (0-based), told at
    /// once, in the claim phase.
    Detective(usize),
    /// Buy these cells, 8 RP each.
    Buy(CellSet),
    /// Guess the whole grid.
    Guess(Grid),
    /// Take the guessing time (150 s more) and send the grid later.
    WillGuess,
    Pass,
    /// A bluff with a statement the rules refuse outright whatever the
    /// subset (it speaks of the whole grid, of things outside the game, of
    /// coordinates): it parses so that the refusal names the rule.
    Refused {
        text: String,
        statement: usize,
        why: Invalid,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bluff(b) => {
                write!(f, "subset {}", b.subset)?;
                for s in &b.statements {
                    write!(f, "; {s}")?;
                }
                if let Some(i) = b.smokescreen {
                    write!(f, "; smokescreen {}", i + 1)?;
                }
                if b.nolimit {
                    f.write_str("; nolimit")?;
                }
                Ok(())
            }
            Action::Claims(c) => {
                f.write_str("claims")?;
                for claim in c.claims {
                    f.write_str(match claim {
                        Some(true) => " T",
                        Some(false) => " F",
                        None => " -",
                    })?;
                }
                Ok(())
            }
            Action::Detective(i) => write!(f, "detective {}", i + 1),
            Action::Buy(cells) => write!(f, "buy {cells}"),
            Action::Guess(grid) => {
                let text = grid.to_string();
                write!(
                    f,
                    "guess {} {} {} {}",
                    &text[0..4],
                    &text[4..8],
                    &text[8..12],
                    &text[12..16]
                )
            }
            Action::WillGuess => f.write_str("guess"),
            Action::Pass => f.write_str("pass"),
            Action::Refused { text, .. } => f.write_str(text),
        }
    }
}

const FORMS: [&str; 6] = [
    "subset A1 B1 A2 B2; <four statements, separated by ;>",
    "claims T F T T",
    "detective 3",
    "buy B3",
    "guess RRBG YGBR BBRY GYRG",
    "pass",
];

impl FromStr for Action {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Action, ParseError> {
        let trimmed = text.trim();
        let lead = text.len() - text.trim_start().len();
        let (word, rest) = match trimmed.find(char::is_whitespace) {
            Some(i) => (&trimmed[..i], &trimmed[i..]),
            None => (trimmed, ""),
        };
        // Offsets in errors count characters of the whole text.
        let offset = |byte: usize| text[..byte.min(text.len())].chars().count();
        let rest_at = lead + word.len();
        match word.to_ascii_lowercase().as_str() {
            "subset" => parse_bluff(trimmed, lead, text),
            "claims" | "claim" => parse_claims(rest, rest_at, text).map(Action::Claims),
            "detective" => number(rest, offset(rest_at), "detective").map(Action::Detective),
            "buy" => {
                let cells = CellSet::parse(rest).map_err(|e| shift(e, offset(rest_at)))?;
                if cells.is_empty() {
                    return Err(
                        ParseError::new("`buy` names the cells to buy, like `buy B3`")
                            .at(offset(rest_at))
                            .expected(["a cell like B3"]),
                    );
                }
                Ok(Action::Buy(cells))
            }
            "guess" if rest.trim().is_empty() => Ok(Action::WillGuess),
            "guess" => Grid::parse(rest)
                .map(Action::Guess)
                .map_err(|e| shift(e, offset(rest_at))),
            "pass" if rest.trim().is_empty() => Ok(Action::Pass),
            "pass" => Err(ParseError::new("`pass` takes nothing after it").at(offset(rest_at))),
            "" => Err(ParseError::new("an empty action").expected(FORMS)),
            other => {
                let suggestion = ["subset", "claims", "detective", "buy", "guess", "pass"]
                    .into_iter()
                    .find(|w| close(w, other));
                let e = ParseError::new(format!(
                    "`{word}` is not an action: a submission starts with subset, claims, detective, buy, guess or pass"
                ))
                .at(offset(lead))
                .expected(FORMS);
                Err(match suggestion {
                    Some(s) => e.suggest(format!("{s}{rest}")),
                    None => e,
                })
            }
        }
    }
}

/// Whether `typed` is one edit from `word` (a typo).
fn close(word: &str, typed: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (word.chars().collect(), typed.chars().collect());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let next = (prev + cost).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()] <= 1
}

/// The same error, its offset moved by `by` characters.
fn shift(e: ParseError, by: usize) -> ParseError {
    let mut moved = ParseError::new(e.message()).expected(e.expectations().iter().cloned());
    if let Some(at) = e.offset() {
        moved = moved.at(at + by);
    } else {
        moved = moved.at(by);
    }
    match e.suggestion() {
        Some(s) => moved.suggest(s),
        None => moved,
    }
}

/// Splits `text` at `;` into trimmed parts with their character offsets in
/// `whole`, where `text` starts at byte `start`.
fn parts<'a>(text: &'a str, start: usize, whole: &str) -> Vec<(&'a str, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    for piece in text.split(';') {
        let lead = piece.len() - piece.trim_start().len();
        let byte = start + from + lead;
        out.push((piece.trim(), whole[..byte.min(whole.len())].chars().count()));
        from += piece.len() + 1;
    }
    out
}

/// A 1-based statement number, 1–4.
fn number(text: &str, at: usize, item: &str) -> Result<usize, ParseError> {
    match text.trim().parse::<usize>() {
        Ok(n @ 1..=STATEMENTS) => Ok(n - 1),
        _ => Err(ParseError::new(format!(
            "`{item}` takes a statement number, 1 to 4, like `{item} 2`"
        ))
        .at(at)
        .expected(["1", "2", "3", "4"])),
    }
}

fn parse_bluff(text: &str, start: usize, whole: &str) -> Result<Action, ParseError> {
    parse_bluff_ruled(text, start, whole, &|_, _| None)
}

/// A statement the host accepted, with its meaning, by its words and
/// subset (`None`: the machine judges it).
pub(crate) type Accepted<'a> = &'a dyn Fn(&str, CellSet) -> Option<Said>;

/// A bluff's whole text read again with the statements the host accepted.
pub(crate) fn bluff_ruled(text: &str, accepted: Accepted) -> Result<Action, ParseError> {
    let text = text.trim();
    parse_bluff_ruled(text, 0, text, accepted)
}

fn parse_bluff_ruled(
    text: &str,
    start: usize,
    whole: &str,
    accepted: Accepted,
) -> Result<Action, ParseError> {
    let parts = parts(text, start, whole);
    // The subset first, wherever it stands: statements are judged on it.
    let mut subset = None;
    for &(part, at) in &parts {
        let lower = part.to_ascii_lowercase();
        if let Some(cells) = lower.strip_prefix("subset") {
            if subset.is_some() {
                return Err(ParseError::new("a bluff names one subset").at(at));
            }
            let s = CellSet::parse(&part[part.len() - cells.len()..])
                .map_err(|e| shift(e, at + "subset".len()))?;
            if s.is_empty() {
                return Err(ParseError::new("the subset names no cell")
                    .at(at)
                    .expected(["cells like A1 B1 A2 B2"]));
            }
            subset = Some(s);
        }
    }
    let subset = subset.ok_or_else(|| {
        ParseError::new("a bluff starts with its subset, like `subset A1 B1 A2 B2`")
            .at(0)
            .expected(["subset"])
    })?;
    let mut statements = Vec::new();
    let mut smokescreen = None;
    let mut nolimit = false;
    for (part, at) in parts {
        let lower = part.to_ascii_lowercase();
        if lower.starts_with("subset") {
            continue;
        } else if lower == "nolimit" || lower == "no limit" {
            if nolimit {
                return Err(ParseError::new("No Limit is given once").at(at));
            }
            nolimit = true;
        } else if let Some(n) = lower.strip_prefix("smokescreen") {
            if smokescreen.is_some() {
                return Err(ParseError::new("Smokescreen hides one statement").at(at));
            }
            smokescreen = Some(number(n, at, "smokescreen")?);
        } else if part.is_empty() {
            return Err(ParseError::new("an empty part between two `;`")
                .at(at)
                .expected(["a statement"]));
        } else {
            let n = statements.len() + 1;
            match said(part, subset, accepted) {
                Ok(s) => statements.push(s),
                Err(Refusal::Invalid(why)) => {
                    return Ok(Action::Refused {
                        text: text.to_string(),
                        statement: n,
                        why,
                    });
                }
                Err(Refusal::Unparsable(e)) => {
                    let e = shift(e, at);
                    let mut named = ParseError::new(format!("statement {n}: {}", e.message()))
                        .expected(e.expectations().iter().cloned());
                    if let Some(at) = e.offset() {
                        named = named.at(at);
                    }
                    if let Some(s) = e.suggestion() {
                        named = named.suggest(s);
                    }
                    return Err(named);
                }
            }
        }
    }
    let count = statements.len();
    let statements: [Said; STATEMENTS] = statements.try_into().map_err(|_| {
        ParseError::new(format!(
            "{count} statements: a bluff makes exactly four, separated by `;`"
        ))
        .expected(FORMS[..1].iter().copied())
    })?;
    Ok(Action::Bluff(Box::new(Bluff {
        subset,
        statements,
        smokescreen,
        nolimit,
    })))
}

/// A statement of a bluff: the player's words, judged on the subset, and
/// then the reading in brackets that the notation adds, which must be the
/// one the umpire reads.
fn said(part: &str, subset: CellSet, accepted: Accepted) -> Result<Said, Refusal> {
    let (words, gloss) = match part.strip_suffix(']').and_then(|p| p.rsplit_once('[')) {
        Some((words, gloss)) => (words.trim_end(), Some(gloss.trim())),
        None => (part, None),
    };
    let said = match accepted(words, subset) {
        Some(said) => said,
        None => statement::judge(words, subset)?,
    };
    match gloss {
        Some(g) if g != said.reading() => Err(Refusal::Unparsable(
            ParseError::new(format!(
                "the reading in brackets, “{g}”, is not how the umpire reads this statement: “{}”",
                said.reading()
            ))
            .suggest(said.to_string()),
        )),
        _ => Ok(said),
    }
}

fn parse_claims(text: &str, start: usize, whole: &str) -> Result<Claims, ParseError> {
    let mut claims = Vec::new();
    for (n, (part, at)) in parts(text, start, whole).into_iter().enumerate() {
        let lower = part.to_ascii_lowercase();
        if n > 0 {
            let message = if lower.starts_with("detective") {
                "Detective is asked on its own, before the claims: send `detective 3`, then your claims"
                    .to_string()
            } else {
                format!("`{part}` is not part of claims")
            };
            return Err(ParseError::new(message).at(at).expected(["claims T F T T"]));
        }
        for word in lower.split(|c: char| c.is_whitespace() || c == ',') {
            claims.push(match word {
                "" => continue,
                "t" | "true" => Some(true),
                "f" | "false" => Some(false),
                "-" => None,
                other => {
                    return Err(ParseError::new(format!(
                        "`{other}` is not a claim: write T, F or - for each statement"
                    ))
                    .at(at)
                    .expected(["T", "F", "-"]));
                }
            });
        }
    }
    let count = claims.len();
    let claims = claims.try_into().map_err(|_| {
        ParseError::new(format!(
            "{count} claims: claim each of the four statements, T, F or -, like `claims T F T -`"
        ))
        .expected(["claims T F T T"])
    })?;
    Ok(Claims { claims })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reveal_forms_round_trip() {
        for text in [
            "buy B3",
            "buy B3 C4",
            "guess RRBG YGBR BBRY GYRG",
            "guess",
            "pass",
            "claims T F - T",
            "detective 3",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        assert_eq!(
            "claims t,f,true,-".parse::<Action>().unwrap().to_string(),
            "claims T F T -"
        );
        assert_eq!(
            "GUESS rrbgygbrbbrygyrg"
                .parse::<Action>()
                .unwrap()
                .to_string(),
            "guess RRBG YGBR BBRY GYRG"
        );
    }

    #[test]
    fn errors_say_where() {
        let e = "buy B3 Q9".parse::<Action>().unwrap_err();
        assert!(e.message().contains("Q9"), "{e}");
        assert_eq!(e.offset(), Some(7));
        let e = "claims T F".parse::<Action>().unwrap_err();
        assert!(e.message().starts_with("2 claims"), "{e}");
        let e = "gess RRBG".parse::<Action>().unwrap_err();
        assert_eq!(e.suggestion(), Some("guess RRBG"));
        assert!("detective 5".parse::<Action>().is_err());
        let e = "claims T F T T; detective 3".parse::<Action>().unwrap_err();
        assert!(e.message().contains("on its own"), "{e}");
        assert!("pass now".parse::<Action>().is_err());
    }
}

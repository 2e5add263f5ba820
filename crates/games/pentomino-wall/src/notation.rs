//! Pentomino Wall notation, read from text alone (whether an action fits
//! the match is a rule, checked when it is played):
//!
//! ```
//! use umpire_pentomino_wall::Action;
//!
//! for text in [
//!     "first P2",
//!     "take F",
//!     "take F L",
//!     "present T90 aside P",
//!     "exchange L",
//!     "orient L90",
//!     "place Fm90 at C4",
//!     "give P, return Z, keep W",
//! ] {
//!     assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
//! }
//! // Case, order and separators are forgiven; output is canonical.
//! let a: Action = "KEEP w return z; give p".parse().unwrap();
//! assert_eq!(a.to_string(), "give P, return Z, keep W");
//! assert_eq!("place tm90 c4".parse::<Action>().unwrap().to_string(), "place T90 at C4");
//! assert_eq!("take L F".parse::<Action>().unwrap().to_string(), "take F L");
//! ```

use std::fmt;
use std::str::FromStr;

use umpire_core::words::{Word, words};
use umpire_core::{Cell, ParseError, Seat};

use crate::pieces::{Orientation, Piece, Pieces};
use crate::wall::Placed;

/// One action of Pentomino Wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The advantage seat names who drafts first in round 1.
    First(Seat),
    /// A draft pick, or two for a Double Turn.
    Take(Piece, Option<Piece>),
    /// The turn's sealed choice: the piece presented to the opponent, as
    /// oriented, and the piece set aside.
    Present { present: Orientation, aside: Piece },
    /// Exchange the presented piece for this piece of the placer's hand.
    Exchange(Piece),
    /// The presenter orients the piece swapped in by an Exchange.
    Orient(Orientation),
    /// Place the piece to place, in this orientation, with the top-left of
    /// its bounding box here.
    Place(Placed),
    /// What becomes of each set-aside piece at a round's end.
    RoundEnd(RoundEnd),
}

/// The round-end choice for each set-aside piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RoundEnd {
    /// Given to the opponent's next hand (+1 credit to the giver).
    pub give: Pieces,
    /// Returned to the pool.
    pub ret: Pieces,
    /// Kept for one's own next hand (the opponent gains 1, 2, 4, … credits).
    pub keep: Pieces,
}

impl RoundEnd {
    /// Every piece named.
    pub fn pieces(&self) -> Pieces {
        self.give.union(self.ret).union(self.keep)
    }

    /// Every piece returned.
    pub fn returning(pieces: Pieces) -> RoundEnd {
        RoundEnd {
            ret: pieces,
            ..RoundEnd::default()
        }
    }
}

impl fmt::Display for RoundEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = [
            ("give", self.give),
            ("return", self.ret),
            ("keep", self.keep),
        ]
        .iter()
        .flat_map(|&(verb, set)| set.iter().map(move |p| format!("{verb} {p}")))
        .collect();
        f.write_str(&items.join(", "))
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::First(seat) => write!(f, "first {seat}"),
            Action::Take(a, None) => write!(f, "take {a}"),
            Action::Take(a, Some(b)) => write!(f, "take {a} {b}"),
            Action::Present { present, aside } => write!(f, "present {present} aside {aside}"),
            Action::Exchange(p) => write!(f, "exchange {p}"),
            Action::Orient(o) => write!(f, "orient {o}"),
            Action::Place(p) => write!(f, "place {} at {}", p.orientation, p.at),
            Action::RoundEnd(r) => r.fmt(f),
        }
    }
}

const EXPECTED: [&str; 7] = [
    "first P1",
    "take F",
    "present T90 aside P",
    "exchange L",
    "orient L90",
    "place Tm90 at C4",
    "give P, return Z, keep W",
];

fn piece(word: Word<'_>) -> Result<Piece, ParseError> {
    let mut chars = word.text.chars();
    match (chars.next().and_then(Piece::from_letter), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(ParseError::new(format!(
            "`{}` is not a piece: the pieces are F I L N P T U V W X Y Z",
            word.text
        ))
        .at(word.at)
        .expected(["a piece letter like F"])),
    }
}

fn orientation(word: Word<'_>) -> Result<Orientation, ParseError> {
    word.text
        .parse::<Orientation>()
        .map_err(|e| match e.offset() {
            Some(o) => e.at(o + word.at),
            None => e.at(word.at),
        })
}

fn missing(what: &str, example: &str, end: usize) -> ParseError {
    ParseError::new(format!("{what} is missing: write it like `{example}`"))
        .at(end)
        .expected([example])
}

fn too_many(word: Word<'_>, example: &str) -> ParseError {
    ParseError::new(format!(
        "unexpected `{}`: write it like `{example}`",
        word.text
    ))
    .at(word.at)
}

/// Exactly `n` words after the verb, or a clear error.
fn expect_len<'a>(
    words: &[Word<'a>],
    n: usize,
    what: &str,
    example: &str,
    end: usize,
) -> Result<(), ParseError> {
    if words.len() < n {
        return Err(missing(what, example, end));
    }
    match words.get(n) {
        Some(&w) => Err(too_many(w, example)),
        None => Ok(()),
    }
}

impl FromStr for Action {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Action, ParseError> {
        let all = words(text, &[',', ';']);
        let end = text.chars().count();
        let Some(&verb) = all.first() else {
            return Err(ParseError::new("an empty action").expected(EXPECTED));
        };
        let rest = &all[1..];
        match verb.text.to_ascii_lowercase().as_str() {
            "first" => {
                expect_len(rest, 1, "the seat", "first P1", end)?;
                rest[0]
                    .text
                    .parse()
                    .map(Action::First)
                    .map_err(|e: ParseError| e.at(rest[0].at).expected(["P1", "P2"]))
            }
            "take" => {
                if rest.is_empty() {
                    return Err(missing("the piece", "take F", end));
                }
                if let Some(&w) = rest.get(2) {
                    return Err(ParseError::new(format!(
                        "unexpected `{}`: a draft turn takes one piece, or two for a Double Turn (`take F L`)",
                        w.text
                    ))
                    .at(w.at));
                }
                let a = piece(rest[0])?;
                match rest.get(1) {
                    None => Ok(Action::Take(a, None)),
                    Some(&w) => {
                        let b = piece(w)?;
                        Ok(Action::Take(a.min(b), Some(a.max(b))))
                    }
                }
            }
            "present" | "aside" => parse_present(verb, rest, end),
            "exchange" => {
                expect_len(rest, 1, "the piece from your hand", "exchange L", end)?;
                Ok(Action::Exchange(piece(rest[0])?))
            }
            "orient" => {
                expect_len(rest, 1, "the orientation", "orient L90", end)?;
                Ok(Action::Orient(orientation(rest[0])?))
            }
            "place" => parse_place(rest, end),
            "give" | "return" | "keep" => parse_round_end(&all, end),
            _ => Err(ParseError::new(format!("`{}` is not an action", verb.text))
                .at(verb.at)
                .expected(EXPECTED)),
        }
    }
}

/// `present T90 aside P`, or `aside P present T90`.
fn parse_present(verb: Word<'_>, rest: &[Word<'_>], end: usize) -> Result<Action, ParseError> {
    const EXAMPLE: &str = "present T90 aside P";
    expect_len(rest, 3, "the other half", EXAMPLE, end)?;
    let second = rest[1].text.to_ascii_lowercase();
    let presenting = verb.text.eq_ignore_ascii_case("present");
    let wanted = if presenting { "aside" } else { "present" };
    if second != wanted {
        return Err(ParseError::new(format!(
            "expected `{wanted}` after `{} {}`, got `{}`",
            verb.text, rest[0].text, rest[1].text
        ))
        .at(rest[1].at)
        .expected([wanted]));
    }
    let (present, aside) = if presenting {
        (rest[0], rest[2])
    } else {
        (rest[2], rest[0])
    };
    Ok(Action::Present {
        present: orientation(present)?,
        aside: piece(aside)?,
    })
}

/// `place Tm90 at C4` (`at` may be left out).
fn parse_place(rest: &[Word<'_>], end: usize) -> Result<Action, ParseError> {
    const EXAMPLE: &str = "place Tm90 at C4";
    let Some(&o) = rest.first() else {
        return Err(missing("the orientation", EXAMPLE, end));
    };
    let orientation = orientation(o)?;
    let cells = match rest.get(1) {
        Some(w) if w.text.eq_ignore_ascii_case("at") => &rest[2..],
        _ => &rest[1..],
    };
    expect_len(cells, 1, "the cell", EXAMPLE, end)?;
    let w = cells[0];
    // Cells are read on the largest board notation allows; whether they
    // are on the wall is a rule, checked when the piece is placed.
    let at = Cell::parse(w.text, 26, 99).map_err(|e| match e.offset() {
        Some(off) => e.at(off + w.at),
        None => e.at(w.at),
    })?;
    Ok(Action::Place(Placed::new(orientation, at)))
}

/// `give P, return Z, keep W`: each verb applies to the pieces after it.
fn parse_round_end(all: &[Word<'_>], end: usize) -> Result<Action, ParseError> {
    let mut choice = RoundEnd::default();
    let mut verb: Option<&str> = None;
    let mut pending_verb = None;
    for &w in all {
        let lower = w.text.to_ascii_lowercase();
        if matches!(lower.as_str(), "give" | "return" | "keep") {
            if let Some(v) = pending_verb {
                return Err(missing(
                    &format!("the piece after `{v}`"),
                    "give P, return Z, keep W",
                    w.at,
                ));
            }
            verb = Some(match lower.as_str() {
                "give" => "give",
                "return" => "return",
                _ => "keep",
            });
            pending_verb = verb;
            continue;
        }
        let p = piece(w).map_err(|e| e.expected(["a piece letter", "give", "return", "keep"]))?;
        if choice.pieces().contains(p) {
            return Err(
                ParseError::new(format!("{p} is named twice: one choice per piece")).at(w.at),
            );
        }
        let set = match verb {
            Some("give") => &mut choice.give,
            Some("return") => &mut choice.ret,
            _ => &mut choice.keep,
        };
        *set = set.with(p);
        pending_verb = None;
    }
    if let Some(v) = pending_verb {
        return Err(missing(
            &format!("the piece after `{v}`"),
            "give P, return Z, keep W",
            end,
        ));
    }
    Ok(Action::RoundEnd(choice))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for text in [
            "first P1",
            "take X",
            "take I Z",
            "present Fm270 aside X",
            "exchange Z",
            "orient N180",
            "place I90 at J1",
            "place X at A1",
            "give F, give I, keep Z",
            "return L, return N, return P",
        ] {
            assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
        }
        assert_eq!(
            "aside p present t90".parse::<Action>().unwrap().to_string(),
            "present T90 aside P"
        );
        assert_eq!(
            "give P Z, keep W".parse::<Action>().unwrap().to_string(),
            "give P, give Z, keep W"
        );
        assert_eq!(
            "place T at k10".parse::<Action>().unwrap().to_string(),
            "place T at K10"
        );
    }

    #[test]
    fn says_what_is_wrong_and_where() {
        let e = "place Q at C4".parse::<Action>().unwrap_err();
        assert_eq!(
            e.message(),
            "`Q` is not a piece: the pieces are F I L N P T U V W X Y Z"
        );
        assert_eq!(e.offset(), Some(6));
        let e = "orient T45".parse::<Action>().unwrap_err();
        assert!(
            e.message().starts_with("`T45` is not an orientation"),
            "{e}"
        );
        assert_eq!(e.offset(), Some(8));
        let e = "present T90 P".parse::<Action>().unwrap_err();
        assert_eq!(
            e.message(),
            "the other half is missing: write it like `present T90 aside P`"
        );
        let e = "present T90 beside P".parse::<Action>().unwrap_err();
        assert_eq!(
            e.message(),
            "expected `aside` after `present T90`, got `beside`"
        );
        let e = "give P, keep P, return W".parse::<Action>().unwrap_err();
        assert_eq!(e.message(), "P is named twice: one choice per piece");
        let e = "give, keep W".parse::<Action>().unwrap_err();
        assert_eq!(
            e.message(),
            "the piece after `give` is missing: write it like `give P, return Z, keep W`"
        );
        let e = "take F L N".parse::<Action>().unwrap_err();
        assert!(e.message().starts_with("unexpected `N`"), "{e}");
        assert_eq!(
            "paint".parse::<Action>().unwrap_err().message(),
            "`paint` is not an action"
        );
        assert_eq!(
            "orient T0".parse::<Action>().unwrap_err().suggestion(),
            Some("T")
        );
        assert!("".parse::<Action>().is_err());
        assert!("first P3".parse::<Action>().is_err());
        assert!("place T at 4C".parse::<Action>().is_err());
        assert!("place T at".parse::<Action>().is_err());
    }
}

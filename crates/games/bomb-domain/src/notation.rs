//! Bomb Domain notation, parsed from text alone (whether a move is legal is
//! the rules' business, in `lib.rs`).
//!
//! ```
//! use umpire_bomb_domain::Action;
//!
//! let a: Action = "x a7 S b2, P c4".parse().unwrap();
//! assert_eq!(a.to_string(), "square B2, plus C4, cross A7");
//! let t: Action = "move d4-d6 f3-h3; peg g7; detonate c3".parse().unwrap();
//! assert_eq!(t.to_string(), "move D4-D6 F3-H3; peg G7; detonate C3");
//! let e = "detonate C3; peg G7".parse::<Action>().unwrap_err();
//! assert_eq!(e.suggestion(), Some("peg G7; detonate C3"));
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use umpire_core::grid::parse_cells;
use umpire_core::words::Word;
use umpire_core::{Cell, ParseError, Seat};

use crate::board::Kind;

/// One action of Bomb Domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The starter choice: the seat that takes the first turn.
    First(Seat),
    /// The DMO hands the starter choice to the EC.
    Defer,
    /// One placement round's submission.
    Place(Placement),
    /// One whole turn.
    Turn(Turn),
}

/// A placement submission: one cell per kind, indexed by `Kind as usize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub cells: [Cell; 3],
}

impl Placement {
    pub fn new(square: Cell, plus: Cell, cross: Cell) -> Placement {
        Placement {
            cells: [square, plus, cross],
        }
    }

    pub fn cell(&self, kind: Kind) -> Cell {
        self.cells[kind as usize]
    }

    /// Each piece with its cell, square first.
    pub fn pieces(&self) -> impl Iterator<Item = (Kind, Cell)> + '_ {
        Kind::ALL.into_iter().map(|k| (k, self.cell(k)))
    }
}

/// One piece's move from a cell to a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: Cell,
    pub to: Cell,
}

/// The move step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Two pieces, one vertically and one horizontally, the same number of
    /// cells, in the order written.
    Pair(Step, Step),
    /// One piece one cell diagonally, when no pair exists; ends the turn.
    Diagonal(Step),
}

/// A whole turn: each part optional; none at all is `pass`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turn {
    pub motion: Option<Motion>,
    pub peg: Option<Cell>,
    pub detonate: Option<Cell>,
}

impl Turn {
    pub const PASS: Turn = Turn {
        motion: None,
        peg: None,
        detonate: None,
    };
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [s, p, x] = self.cells;
        write!(f, "square {s}, plus {p}, cross {x}")
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        match self.motion {
            Some(Motion::Pair(a, b)) => parts.push(format!("move {a} {b}")),
            Some(Motion::Diagonal(s)) => parts.push(format!("diagonal {s}")),
            None => {}
        }
        if let Some(peg) = self.peg {
            parts.push(format!("peg {peg}"));
        }
        if let Some(cell) = self.detonate {
            parts.push(format!("detonate {cell}"));
        }
        if parts.is_empty() {
            f.write_str("pass")
        } else {
            f.write_str(&parts.join("; "))
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::First(seat) => write!(f, "first {seat}"),
            Action::Defer => f.write_str("defer"),
            Action::Place(p) => p.fmt(f),
            Action::Turn(t) => t.fmt(f),
        }
    }
}

const EXPECTED: [&str; 5] = [
    "first P1",
    "defer",
    "square B2, plus C4, cross A7",
    "move D4-D6 F3-H3; peg G7; detonate C3",
    "pass",
];

/// Characters (not bytes) before byte `at` of `text`.
fn chars_before(text: &str, at: usize) -> usize {
    text[..at].chars().count()
}

/// Words separated by white space and commas.
fn words(text: &str) -> Vec<Word<'_>> {
    umpire_core::words::words(text, &[','])
}

impl FromStr for Action {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Action, ParseError> {
        let lower = text.to_ascii_lowercase();
        let Some(&Word {
            start: at,
            text: first,
            ..
        }) = words(&lower).first()
        else {
            return Err(ParseError::new("expected an action, got nothing")
                .at(0)
                .expected(EXPECTED));
        };
        let first = first.split(';').next().unwrap_or_default();
        match first {
            "first" => {
                let rest = &text[at + first.len()..];
                rest.parse().map(Action::First).map_err(|_| {
                    ParseError::new(format!(
                        "expected the seat that starts, P1 or P2, after `first`, got `{}`",
                        rest.trim()
                    ))
                    .at(chars_before(text, at + first.len()))
                    .expected(["first P1", "first P2"])
                })
            }
            "defer" if text.trim().len() == first.len() => Ok(Action::Defer),
            "defer" => Err(
                ParseError::new(format!("`defer` stands alone, got `{}`", text.trim()))
                    .at(chars_before(text, at + first.len()))
                    .suggest("defer"),
            ),
            "square" | "plus" | "cross" | "s" | "p" | "x" => {
                parse_placement(text).map(Action::Place)
            }
            "pass" | "move" | "diagonal" | "peg" | "detonate" => parse_turn(text).map(Action::Turn),
            _ => Err(ParseError::new(format!(
                "`{}` is not an action: expected `first`, `defer`, a placement or a turn",
                &text[at..at + first.len()]
            ))
            .at(chars_before(text, at))
            .expected(EXPECTED)),
        }
    }
}

fn kind_word(word: &str) -> Option<Kind> {
    match word.to_ascii_lowercase().as_str() {
        "square" | "s" => Some(Kind::Square),
        "plus" | "p" => Some(Kind::Plus),
        "cross" | "x" => Some(Kind::Cross),
        _ => None,
    }
}

/// `square B2, plus C4, cross A7`: any order, short forms, commas optional.
fn parse_placement(text: &str) -> Result<Placement, ParseError> {
    const FORM: &str = "square B2, plus C4, cross A7";
    let words = words(text);
    let mut cells: [Option<Cell>; 3] = [None; 3];
    let mut i = 0;
    while i < words.len() {
        let Word {
            start: at,
            text: word,
            ..
        } = words[i];
        let Some(kind) = kind_word(word) else {
            return Err(ParseError::new(format!(
                "`{word}` is not a piece: a submission is written like `{FORM}`"
            ))
            .at(chars_before(text, at))
            .expected(["square", "plus", "cross", "S", "P", "X"]));
        };
        let Some(&Word {
            start: cell_at,
            text: cell_text,
            ..
        }) = words.get(i + 1)
        else {
            return Err(ParseError::new(format!(
                "`{word}` needs a cell, like `{} B2`",
                kind.name()
            ))
            .at(chars_before(text, at + word.len()))
            .expected(["a cell like B2"]));
        };
        let cell = Cell::parse(cell_text, 26, 99).map_err(|e| {
            let off = e.offset().unwrap_or(0);
            e.at(chars_before(text, cell_at) + off)
        })?;
        if cells[kind as usize].replace(cell).is_some() {
            return Err(ParseError::new(format!(
                "two {kind} pieces: a submission places one square, one plus and one cross"
            ))
            .at(chars_before(text, at)));
        }
        i += 2;
    }
    match cells {
        [Some(s), Some(p), Some(x)] => Ok(Placement::new(s, p, x)),
        _ => {
            let missing: Vec<&str> = Kind::ALL
                .into_iter()
                .filter(|&k| cells[k as usize].is_none())
                .map(Kind::name)
                .collect();
            Err(ParseError::new(format!(
                "no {}: a submission places one square, one plus and one cross, like `{FORM}`",
                missing.join(" and no ")
            ))
            .at(text.chars().count())
            .expected(missing))
        }
    }
}

/// The parts of a turn, in the order they happen.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Motion,
    Peg,
    Detonate,
}

fn parse_turn(text: &str) -> Result<Turn, ParseError> {
    let mut turn = Turn::PASS;
    let mut seen: Vec<(Part, usize)> = Vec::new();
    let mut passed = None;
    let mut start = 0;
    for piece in text.split(';') {
        let base = start;
        start += piece.len() + 1;
        let Some(&Word {
            start: at,
            text: word,
            ..
        }) = words(piece).first()
        else {
            continue;
        };
        let at = base + at;
        let lower = word.to_ascii_lowercase();
        let rest_at = at + word.len();
        let rest = &text[rest_at..base + piece.len()];
        let cells = |n: usize, form: &str| -> Result<Vec<Cell>, ParseError> {
            let cells = parse_cells(rest, 26, 99).map_err(|e| {
                let off = e.offset().unwrap_or(0);
                e.at(chars_before(text, rest_at) + off)
            })?;
            if cells.len() != n {
                return Err(ParseError::new(format!(
                    "`{lower}` takes {n} cell{}, like `{form}`, got `{}`",
                    if n == 1 { "" } else { "s" },
                    rest.trim()
                ))
                .at(chars_before(text, rest_at))
                .expected([form]));
            }
            Ok(cells)
        };
        let part = match lower.as_str() {
            "pass" if rest.trim().is_empty() => {
                passed = Some(at);
                continue;
            }
            "pass" => {
                return Err(ParseError::new(format!(
                    "`pass` stands alone, got `{}`",
                    piece.trim()
                ))
                .at(chars_before(text, rest_at))
                .suggest("pass"));
            }
            "move" => {
                let c = cells(4, "move D4-D6 F3-H3")?;
                turn.motion = Some(Motion::Pair(
                    Step {
                        from: c[0],
                        to: c[1],
                    },
                    Step {
                        from: c[2],
                        to: c[3],
                    },
                ));
                Part::Motion
            }
            "diagonal" => {
                let c = cells(2, "diagonal D4-E5")?;
                turn.motion = Some(Motion::Diagonal(Step {
                    from: c[0],
                    to: c[1],
                }));
                Part::Motion
            }
            "peg" => {
                turn.peg = Some(cells(1, "peg G7")?[0]);
                Part::Peg
            }
            "detonate" => {
                turn.detonate = Some(cells(1, "detonate C3")?[0]);
                Part::Detonate
            }
            _ => {
                return Err(ParseError::new(format!(
                    "`{word}` is not a part of a turn: a turn is written like `move D4-D6 F3-H3; peg G7; detonate C3`"
                ))
                .at(chars_before(text, at))
                .expected(["move", "diagonal", "peg", "detonate", "pass"]));
            }
        };
        if let Some(&(_, _)) = seen.iter().find(|(p, _)| *p == part) {
            return Err(ParseError::new(format!(
                "a turn has at most one {} part",
                match part {
                    Part::Motion => "move or diagonal",
                    Part::Peg => "peg",
                    Part::Detonate => "detonate",
                }
            ))
            .at(chars_before(text, at)));
        }
        seen.push((part, at));
    }
    if let Some(at) = passed {
        if !seen.is_empty() {
            return Err(ParseError::new(
                "`pass` is a turn with no part: it cannot go with a move, peg or detonation",
            )
            .at(chars_before(text, at))
            .suggest(turn.to_string()));
        }
    }
    if let Some(w) = seen.windows(2).find(|w| w[0].0 > w[1].0) {
        return Err(ParseError::new(
            "the parts of a turn go in the order they happen: move (or diagonal), then peg, then detonate",
        )
        .at(chars_before(text, w[1].1))
        .suggest(turn.to_string()));
    }
    if seen.is_empty() && passed.is_none() {
        return Err(ParseError::new("expected a turn, got nothing")
            .at(0)
            .expected(["pass"]));
    }
    Ok(turn)
}

/// `FromStr` and serde as notation text for a part of [`Action`].
macro_rules! text_serde {
    ($ty:ty, $variant:ident, $what:literal) => {
        impl FromStr for $ty {
            type Err = ParseError;

            fn from_str(text: &str) -> Result<$ty, ParseError> {
                match text.parse::<Action>()? {
                    Action::$variant(x) => Ok(x),
                    other => Err(ParseError::new(format!(
                        concat!("`{}` is not ", $what),
                        other
                    ))),
                }
            }
        }

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

text_serde!(Placement, Place, "a placement");
text_serde!(Turn, Turn, "a turn");

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Action {
        text.parse()
            .unwrap_or_else(|e: ParseError| panic!("{text}: {e}"))
    }

    fn error(text: &str) -> ParseError {
        text.parse::<Action>().unwrap_err()
    }

    #[test]
    fn round_trips() {
        for text in [
            "first P1",
            "first P2",
            "defer",
            "square B2, plus C4, cross A7",
            "move D4-D7 F3-I3",
            "move F3-I3 D4-D7; peg G7; detonate C3",
            "diagonal D4-E5",
            "peg A1",
            "detonate I9",
            "peg A1; detonate B2",
            "pass",
        ] {
            assert_eq!(parse(text).to_string(), text);
        }
    }

    #[test]
    fn reads_loose_forms() {
        assert_eq!(
            parse("  P c4 x A7 s b2 ").to_string(),
            "square B2, plus C4, cross A7"
        );
        assert_eq!(
            parse("CROSS a7,SQUARE b2 , plus c4").to_string(),
            "square B2, plus C4, cross A7"
        );
        assert_eq!(
            parse("MOVE d4 d7, f3 i3 ;peg g7;").to_string(),
            "move D4-D7 F3-I3; peg G7"
        );
        assert_eq!(parse("first p2"), Action::First(Seat::P2));
        assert_eq!(parse(" PASS "), Action::Turn(Turn::PASS));
    }

    #[test]
    fn says_what_is_wrong() {
        let e = error("square B2, plus C4");
        assert_eq!(
            e.message(),
            "no cross: a submission places one square, one plus and one cross, like `square B2, plus C4, cross A7`"
        );
        assert_eq!(
            error("square B2 square C4 cross A7").message(),
            "two square pieces: a submission places one square, one plus and one cross"
        );
        let e = error("square B2, plus C4, bomb A7");
        assert_eq!(e.offset(), Some(20));
        assert!(e.message().starts_with("`bomb` is not a piece"));
        assert_eq!(
            error("square").message(),
            "`square` needs a cell, like `square B2`"
        );
        assert_eq!(
            error("move D4-D7").message(),
            "`move` takes 4 cells, like `move D4-D6 F3-H3`, got `D4-D7`"
        );
        let e = error("peg G7; move D4-D6 F3-H3");
        assert_eq!(e.suggestion(), Some("move D4-D6 F3-H3; peg G7"));
        assert_eq!(e.offset(), Some(8));
        assert_eq!(
            error("peg A1; peg B2").message(),
            "a turn has at most one peg part"
        );
        assert_eq!(error("pass; peg A1").suggestion(), Some("peg A1"));
        assert_eq!(error("peg A1 B2").offset(), Some(3));
        assert_eq!(error("peg Ä1").offset(), Some(4));
        assert!(error("first P3").message().contains("P1 or P2"));
        assert!(error("defer now").message().contains("stands alone"));
        assert!(error("bomb").message().contains("not an action"));
        assert!(error("").message().contains("nothing"));
        assert!(error(";").message().contains("not an action"));
        assert!(error("move;").message().contains("4 cells"));
    }

    #[test]
    fn serialises_as_notation() {
        let p = Placement::new(Cell::new(1, 1), Cell::new(2, 3), Cell::new(0, 6));
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, r#""square B2, plus C4, cross A7""#);
        assert_eq!(serde_json::from_str::<Placement>(&json).unwrap(), p);
        assert!(serde_json::from_str::<Placement>(r#""pass""#).is_err());
    }
}

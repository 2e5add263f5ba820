//! English in: a recursive-descent parser over lower-cased words that backs
//! up between the forms of a claim and remembers the furthest point any form
//! reached, with what it expected there.

use std::collections::BTreeSet;

use umpire_core::ParseError;

use super::print::number_word;
use super::{
    Adjacency, Atom, Comparison, Count, Invalid, Line, Literal, Position, Quantifier, Refusal,
    Statement,
};
use crate::grid::{CellSet, Colour};

#[derive(Clone, Debug)]
struct Tok {
    word: String,
    at: usize,
    len: usize,
}

/// Lower-cased words with their character offsets; commas dropped, one final
/// full stop allowed.
fn tokenize(text: &str) -> Result<(Vec<Tok>, usize), ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let word_char = |c: char| c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' || c == '×';
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
        } else if c == '.' && chars[i + 1..].iter().all(|c| c.is_whitespace()) {
            break;
        } else if word_char(c) {
            let start = i;
            while i < chars.len() && word_char(chars[i]) {
                i += 1;
            }
            let raw: String = chars[start..i].iter().collect::<String>().to_lowercase();
            let raw = raw.replace('’', "'").replace('×', "x");
            let len = i - start;
            let mut push = |w: &str| {
                toks.push(Tok {
                    word: w.to_string(),
                    at: start,
                    len,
                })
            };
            match raw.as_str() {
                "it's" => {
                    push("it");
                    push("is");
                }
                "isn't" => {
                    push("is");
                    push("not");
                }
                "color" => push("colour"),
                "colors" => push("colours"),
                "less" => push("fewer"),
                "2x2" | "2-by-2" | "two-by-two" => push("2x2"),
                w => push(w),
            }
        } else {
            return Err(
                ParseError::new(format!("`{c}` cannot appear in a statement"))
                    .at(i)
                    .expected(["a word"]),
            );
        }
    }
    Ok((toks, chars.len()))
}

const COLOURS: [&str; 4] = ["red", "blue", "green", "yellow"];
const TILE: [&str; 8] = [
    "tile", "tiles", "square", "squares", "cell", "cells", "space", "spaces",
];

type P<T> = Result<T, ()>;

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    best: usize,
    expected: BTreeSet<&'static str>,
}

impl Parser {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|t| t.word.as_str())
    }

    fn note(&mut self, what: &[&'static str]) {
        if self.pos > self.best {
            self.best = self.pos;
            self.expected.clear();
        }
        if self.pos == self.best {
            self.expected.extend(what.iter().copied());
        }
    }

    /// Takes the next word if it is one of `words`.
    fn one_of(&mut self, words: &[&'static str]) -> P<&'static str> {
        if let Some(w) = self.peek() {
            if let Some(&hit) = words.iter().find(|&&x| x == w) {
                self.pos += 1;
                return Ok(hit);
            }
        }
        self.note(words);
        Err(())
    }

    fn word(&mut self, w: &'static str) -> P<()> {
        self.one_of(&[w]).map(|_| ())
    }

    fn words(&mut self, ws: &[&'static str]) -> P<()> {
        ws.iter().try_for_each(|w| self.word(w))
    }

    fn opt(&mut self, w: &'static str) -> bool {
        self.word(w).is_ok()
    }

    /// Runs `f`, backing up when it fails.
    fn attempt<T>(&mut self, f: impl FnOnce(&mut Parser) -> P<T>) -> P<T> {
        let save = self.pos;
        let r = f(self);
        if r.is_err() {
            self.pos = save;
        }
        r
    }

    /// The first of the forms that parses.
    fn first<T>(&mut self, forms: &[fn(&mut Parser) -> P<T>]) -> P<T> {
        for f in forms {
            if let Ok(v) = self.attempt(f) {
                return Ok(v);
            }
        }
        Err(())
    }

    fn colour(&mut self) -> P<Colour> {
        let w = self.one_of(&COLOURS)?;
        Ok(Colour::from_name(w).expect("a colour name"))
    }

    fn tile(&mut self) -> P<()> {
        self.one_of(&TILE).map(|_| ())
    }

    fn number(&mut self) -> P<u8> {
        if let Some(w) = self.peek() {
            let n = number_word(w).or_else(|| w.parse::<u8>().ok());
            if let Some(n) = n {
                self.pos += 1;
                return Ok(n);
            }
        }
        self.note(&["a number"]);
        Err(())
    }

    /// "at least two", "exactly three", "at most one", "no", "two" (at
    /// least), "a"/"an"/"some" (at least one), "more than two", "fewer than
    /// three", "only two".
    fn count(&mut self) -> P<Count> {
        let w = self.one_of(&[
            "at", "exactly", "only", "more", "fewer", "no", "a", "an", "some",
        ]);
        match w {
            Ok("at") => match self.one_of(&["least", "most"])? {
                "least" => Ok(Count::AtLeast(self.number()?)),
                _ => Ok(Count::AtMost(self.number()?)),
            },
            Ok("exactly" | "only") => Ok(Count::Exactly(self.number()?)),
            Ok("more") => {
                self.word("than")?;
                let n = self.number()?;
                Ok(Count::AtLeast(n.checked_add(1).ok_or(())?))
            }
            Ok("fewer") => {
                self.word("than")?;
                let n = self.number()?;
                if n == 0 {
                    self.pos -= 1;
                    self.note(&["a number above zero"]);
                    return Err(());
                }
                Ok(Count::AtMost(n - 1))
            }
            Ok("no") => Ok(Count::Exactly(0)),
            Ok(_) => Ok(Count::AtLeast(1)),
            Err(()) => Ok(Count::AtLeast(self.number()?)),
        }
    }

    fn is_are(&mut self) -> P<()> {
        self.one_of(&["is", "are"]).map(|_| ())
    }

    fn adjacency(&mut self) -> P<Adjacency> {
        let a = match self.one_of(&["orthogonally", "diagonally"]) {
            Ok("orthogonally") => Adjacency::Orthogonal,
            Ok(_) => Adjacency::Diagonal,
            Err(()) => Adjacency::Any,
        };
        self.one_of(&["adjacent", "touching"])?;
        Ok(a)
    }

    /// "to a blue tile" after "adjacent".
    fn other_colour(&mut self) -> P<Colour> {
        self.one_of(&["to"])?;
        self.one_of(&["a", "an", "another", "some"])?;
        let c = self.colour()?;
        self.tile()?;
        Ok(c)
    }

    fn square(&mut self) -> P<()> {
        if self.one_of(&["2x2"]).is_err() {
            self.one_of(&["two", "2"])?;
            self.one_of(&["by", "x"])?;
            self.one_of(&["two", "2"])?;
        }
        self.one_of(&["square", "block"]).map(|_| ())
    }

    /// "has at least two red tiles" (after a square or a line).
    fn has_colour(&mut self) -> P<(Count, Colour)> {
        self.one_of(&["has", "contains", "with", "having"])?;
        let count = self.count()?;
        let colour = self.colour()?;
        self.tile()?;
        Ok((count, colour))
    }

    fn line(&mut self) -> P<Line> {
        match self.one_of(&["row", "column"])? {
            "row" => Ok(Line::Row),
            _ => Ok(Line::Column),
        }
    }

    fn literal(&mut self) -> P<Literal> {
        let negated = self.attempt(|p| {
            p.words(&["it", "is"])?;
            if p.one_of(&["not", "false"])? == "not" && p.one_of(&["true", "the"])? == "the" {
                p.word("case")?;
            }
            p.word("that")
        });
        if negated.is_ok() {
            return Ok(!self.literal()?);
        }
        let l = self.first(&[
            there,
            count_subject,
            touch_subject,
            neg_touch,
            compare,
            outnumber,
            pair,
            square_claim,
            largest,
            connected,
            line_claim,
            tile,
            colours_appear,
        ])?;
        // "… in the subset" says nothing more.
        let _ = self.attempt(|p| {
            p.one_of(&["in", "of"])?;
            p.one_of(&["the", "my", "this", "our"])?;
            p.word("subset")
        });
        Ok(l)
    }

    fn and(&mut self) -> P<Vec<Literal>> {
        let mut v = vec![self.literal()?];
        while self.opt("and") {
            v.push(self.literal()?);
        }
        Ok(v)
    }

    fn xor(&mut self) -> P<Vec<Vec<Literal>>> {
        let mut v = vec![self.and()?];
        while self.opt("xor") {
            v.push(self.and()?);
        }
        Ok(v)
    }

    fn statement(&mut self) -> P<Statement> {
        let either = self.opt("either");
        let mut any = vec![self.xor()?];
        while self.opt("or") {
            any.push(self.xor()?);
        }
        if any.len() == 2 && self.attempt(|p| p.words(&["but", "not", "both"])).is_ok() {
            let right = any.pop().expect("two");
            any[0].extend(right);
        } else if either && any.len() < 2 {
            self.note(&["or"]);
            return Err(());
        }
        if self.pos < self.toks.len() {
            self.note(&["and", "or", "xor", "the end of the statement"]);
            return Err(());
        }
        Ok(Statement { any })
    }
}

fn lit(atom: Atom) -> P<Literal> {
    Ok(Literal::new(atom))
}

/// "There are two red tiles", "there are more red tiles than blue tiles",
/// "there are exactly three colours", "there is a blue tile adjacent to a
/// green tile", "there is a 2x2 square with one red tile", "there is a row
/// with two red tiles".
fn there(p: &mut Parser) -> P<Literal> {
    p.word("there")?;
    p.is_are()?;
    p.first(&[
        |p| {
            p.opt("exactly");
            p.words(&["as", "many"])?;
            let left = p.colour()?;
            p.tile()?;
            p.word("as")?;
            let right = p.colour()?;
            p.opt("tiles");
            lit(Atom::Compare {
                left,
                comparison: Comparison::AsMany,
                right,
            })
        },
        |p| {
            let comparison = match p.one_of(&["more", "fewer"])? {
                "more" => Comparison::More,
                _ => Comparison::Fewer,
            };
            let left = p.colour()?;
            p.tile()?;
            p.word("than")?;
            let right = p.colour()?;
            p.opt("tiles");
            lit(Atom::Compare {
                left,
                comparison,
                right,
            })
        },
        |p| {
            let negated = p.opt("no");
            if !negated {
                p.one_of(&["a", "an", "some", "one"])?;
            }
            p.square()?;
            let (count, colour) = p.has_colour()?;
            Ok(Literal {
                negated,
                atom: Atom::Square {
                    quantifier: Quantifier::Some,
                    colour,
                    count,
                },
            })
        },
        |p| {
            let negated = p.opt("no");
            if !negated {
                p.one_of(&["a", "an", "some", "one"])?;
            }
            let line = p.line()?;
            let (count, colour) = p.has_colour()?;
            Ok(Literal {
                negated,
                atom: Atom::Lines {
                    line,
                    quantifier: Quantifier::Some,
                    colour,
                    count,
                },
            })
        },
        |p| {
            let count = p.count()?;
            p.one_of(&["different", "distinct"]).ok();
            p.one_of(&["colour", "colours"])?;
            lit(Atom::Colours(count))
        },
        |p| {
            let count = p.count()?;
            let colour = p.colour()?;
            p.tile()?;
            if count == Count::AtLeast(1) {
                if let Ok(adjacency) = p.attempt(|p| {
                    p.opt("that");
                    p.opt("is");
                    p.adjacency()
                }) {
                    let b = p.other_colour()?;
                    return lit(Atom::Adjacent {
                        a: colour,
                        b,
                        adjacency,
                    });
                }
            }
            lit(Atom::Count { colour, count })
        },
    ])
}

/// "Exactly three tiles are red", "no tile is green".
fn count_subject(p: &mut Parser) -> P<Literal> {
    let count = p.count()?;
    p.opt("of");
    p.opt("the");
    p.tile()?;
    p.is_are()?;
    let colour = p.colour()?;
    lit(Atom::Count { colour, count })
}

/// "A red tile is adjacent to a blue tile."
fn touch_subject(p: &mut Parser) -> P<Literal> {
    p.one_of(&["a", "an", "some", "one"])?;
    let a = p.colour()?;
    p.tile()?;
    p.opt("is");
    let adjacency = p.adjacency()?;
    let b = p.other_colour()?;
    lit(Atom::Adjacent { a, b, adjacency })
}

/// "No red tile is adjacent to a blue tile."
fn neg_touch(p: &mut Parser) -> P<Literal> {
    p.word("no")?;
    let a = p.colour()?;
    p.tile()?;
    p.is_are()?;
    let adjacency = p.adjacency()?;
    let b = p.other_colour()?;
    Ok(!Literal::new(Atom::Adjacent { a, b, adjacency }))
}

/// "More tiles are red than blue", "as many tiles are red as blue".
fn compare(p: &mut Parser) -> P<Literal> {
    let comparison = match p.one_of(&["more", "fewer", "as"])? {
        "more" => Comparison::More,
        "fewer" => Comparison::Fewer,
        _ => {
            p.word("many")?;
            Comparison::AsMany
        }
    };
    p.tile()?;
    p.is_are()?;
    let left = p.colour()?;
    p.one_of(if comparison == Comparison::AsMany {
        &["as"]
    } else {
        &["than"]
    })?;
    let right = p.colour()?;
    lit(Atom::Compare {
        left,
        comparison,
        right,
    })
}

/// "Red tiles outnumber blue tiles."
fn outnumber(p: &mut Parser) -> P<Literal> {
    let left = p.colour()?;
    p.tile()?;
    p.word("outnumber")?;
    let right = p.colour()?;
    p.tile()?;
    lit(Atom::Compare {
        left,
        comparison: Comparison::More,
        right,
    })
}

/// "Two adjacent tiles share a colour", "two red tiles are adjacent", and
/// their "no two" negations.
fn pair(p: &mut Parser) -> P<Literal> {
    let negated = p.opt("no");
    p.one_of(&["two", "2"])?;
    let l = p.first(&[
        |p| {
            let adjacency = p.adjacency()?;
            p.tile()?;
            p.first(&[
                |p| p.words(&["share", "a", "colour"]),
                |p| p.words(&["have", "the", "same", "colour"]),
                |p| p.words(&["are", "the", "same", "colour"]),
            ])?;
            lit(Atom::SameColourNeighbours(adjacency))
        },
        |p| {
            let a = p.colour()?;
            p.tile()?;
            p.word("are")?;
            let adjacency = p.adjacency()?;
            lit(Atom::Adjacent { a, b: a, adjacency })
        },
        |p| {
            let adjacency = p.adjacency()?;
            p.tile()?;
            p.word("are")?;
            let a = p.colour()?;
            lit(Atom::Adjacent { a, b: a, adjacency })
        },
    ])?;
    Ok(if negated { !l } else { l })
}

/// "Some 2x2 square has one red tile", "every 2x2 square has …", "no 2x2
/// square has …", "not every 2x2 square has …".
fn square_claim(p: &mut Parser) -> P<Literal> {
    let (quantifier, negated) = quantifier(p)?;
    p.square()?;
    let (count, colour) = p.has_colour()?;
    Ok(Literal {
        negated,
        atom: Atom::Square {
            quantifier,
            colour,
            count,
        },
    })
}

fn quantifier(p: &mut Parser) -> P<(Quantifier, bool)> {
    match p.one_of(&["some", "a", "one", "every", "each", "no", "not"])? {
        "every" | "each" => Ok((Quantifier::Every, false)),
        "no" => Ok((Quantifier::Some, true)),
        "not" => {
            p.one_of(&["every", "each"])?;
            Ok((Quantifier::Every, true))
        }
        _ => Ok((Quantifier::Some, false)),
    }
}

/// "Every row has a red tile", "some column has two blue tiles", "no row
/// has a green tile".
fn line_claim(p: &mut Parser) -> P<Literal> {
    let (quantifier, negated) = quantifier(p)?;
    let line = p.line()?;
    let (count, colour) = p.has_colour()?;
    Ok(Literal {
        negated,
        atom: Atom::Lines {
            line,
            quantifier,
            colour,
            count,
        },
    })
}

fn ortho(p: &mut Parser) -> Option<bool> {
    p.attempt(
        |p| match p.one_of(&["orthogonal", "orthogonally", "connected"])? {
            "orthogonal" => Ok(true),
            "orthogonally" => p.word("connected").map(|()| true),
            _ => Ok(false),
        },
    )
    .ok()
}

/// "The largest red group has at least three tiles."
fn largest(p: &mut Parser) -> P<Literal> {
    p.word("the")?;
    p.one_of(&["largest", "biggest"])?;
    let o1 = ortho(p);
    let colour = p.colour().ok();
    let o2 = ortho(p);
    let orthogonal = o1.or(o2).unwrap_or(false);
    p.one_of(&["group", "region"])?;
    p.one_of(&["has", "contains"])?;
    let count = p.count()?;
    p.tile()?;
    lit(Atom::Largest {
        colour,
        orthogonal,
        count,
    })
}

/// "All red tiles are (orthogonally) connected", "not all …".
fn connected(p: &mut Parser) -> P<Literal> {
    let negated = p.opt("not");
    p.one_of(&["all", "the"])?;
    p.opt("the");
    let colour = p.colour()?;
    p.tile()?;
    p.word("are")?;
    let orthogonal = p.opt("orthogonally");
    p.word("connected")?;
    Ok(Literal {
        negated,
        atom: Atom::Connected { colour, orthogonal },
    })
}

/// "The leftmost tile is red."
fn tile(p: &mut Parser) -> P<Literal> {
    p.word("the")?;
    let position = match p.one_of(&[
        "leftmost",
        "rightmost",
        "top",
        "topmost",
        "uppermost",
        "bottom",
        "bottommost",
        "lowest",
        "first",
        "last",
    ])? {
        "leftmost" => Position::Leftmost,
        "rightmost" => Position::Rightmost,
        "top" | "topmost" | "uppermost" | "first" => Position::Top,
        _ => Position::Bottom,
    };
    p.tile()?;
    p.word("is")?;
    let colour = p.colour()?;
    lit(Atom::Tile { position, colour })
}

/// "Exactly three colours appear."
fn colours_appear(p: &mut Parser) -> P<Literal> {
    let count = p.count()?;
    p.one_of(&["different", "distinct"]).ok();
    p.one_of(&["colour", "colours"])?;
    p.one_of(&["appear", "occur"])?;
    lit(Atom::Colours(count))
}

/// Every word the grammar knows (for suggestions).
const VOCABULARY: &[&str] = &[
    "there",
    "is",
    "are",
    "at",
    "least",
    "most",
    "exactly",
    "only",
    "more",
    "fewer",
    "than",
    "no",
    "tile",
    "tiles",
    "red",
    "blue",
    "green",
    "yellow",
    "adjacent",
    "orthogonally",
    "diagonally",
    "to",
    "square",
    "squares",
    "with",
    "has",
    "every",
    "each",
    "some",
    "row",
    "column",
    "largest",
    "group",
    "connected",
    "all",
    "the",
    "colour",
    "colours",
    "share",
    "same",
    "not",
    "true",
    "that",
    "and",
    "or",
    "xor",
    "either",
    "both",
    "but",
    "many",
    "as",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "leftmost",
    "rightmost",
    "outnumber",
    "different",
    "appear",
];

/// Optimal string alignment distance (a swap of two letters counts one).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, x) in d[0].iter_mut().enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

fn parse_tokens(toks: Vec<Tok>) -> Result<Statement, (usize, Vec<&'static str>, Vec<Tok>)> {
    let mut p = Parser {
        toks,
        pos: 0,
        best: 0,
        expected: BTreeSet::new(),
    };
    match p.statement() {
        Ok(s) => Ok(s),
        Err(()) => Err((p.best, p.expected.into_iter().collect(), p.toks)),
    }
}

/// Parses a statement; `depth` bounds the typo corrections tried for a
/// suggestion.
fn parse_at(text: &str, depth: usize) -> Result<Statement, ParseError> {
    let (toks, len) = tokenize(text)?;
    if toks.is_empty() {
        return Err(ParseError::new("an empty statement")
            .at(0)
            .expected(["there", "at least", "exactly", "a claim"]));
    }
    let (best, expected, toks) = match parse_tokens(toks) {
        Ok(s) => return Ok(s),
        Err(e) => e,
    };
    let (at, message) = match toks.get(best) {
        Some(t) => (t.at, format!("`{}` is not understood here", t.word)),
        None => (len, "the statement ends too early".to_string()),
    };
    let mut err = ParseError::new(message)
        .at(at)
        .expected(expected.iter().copied());
    if let Some(t) = toks.get(best) {
        // A close word: the expected ones first, then any the grammar knows.
        let limit = if t.word.chars().count() <= 4 { 1 } else { 2 };
        let mut candidates: Vec<(usize, &str)> = expected
            .iter()
            .chain(VOCABULARY)
            .chain(&COLOURS)
            .filter(|w| !w.contains(' '))
            .map(|w| (distance(&t.word, w), *w))
            .filter(|&(d, _)| d > 0 && d <= limit)
            .collect();
        candidates.sort_by_key(|&(d, _)| d);
        if !candidates.is_empty() {
            let mut fixed = None;
            if depth > 0 {
                for &(_, w) in candidates.iter().take(4) {
                    let chars: Vec<char> = text.chars().collect();
                    let mut s: String = chars[..t.at].iter().collect();
                    s.push_str(w);
                    s.extend(&chars[t.at + t.len..]);
                    if let Ok(st) = parse_at(&s, depth - 1) {
                        fixed = Some(st.to_string());
                        break;
                    }
                }
            }
            // Else the closest word that fits here.
            let word = candidates
                .iter()
                .find(|(_, w)| expected.contains(w))
                .map(|(_, w)| w.to_string());
            if let Some(s) = fixed.or(word) {
                err = err.suggest(s);
            }
        }
    }
    Err(err)
}

pub(super) fn parse(text: &str) -> Result<Statement, ParseError> {
    parse_at(text, 2)
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

fn game_word(w: &str) -> bool {
    VOCABULARY.contains(&w)
        && !matches!(
            w,
            "is" | "are"
                | "the"
                | "that"
                | "to"
                | "at"
                | "and"
                | "or"
                | "but"
                | "not"
                | "true"
                | "with"
                | "has"
                | "as"
                | "no"
                | "some"
                | "all"
                | "than"
                | "more"
                | "most"
                | "only"
                | "least"
                | "many"
                | "either"
                | "both"
                | "there"
                | "xor"
        )
        || COLOURS.contains(&w)
        || TILE.contains(&w)
}

/// The single entry point for a seat's statement about its subset: parses
/// `text` and checks it for `subset`. Text that does not parse is refused as
/// [`Refusal::Unparsable`], unless it names coordinates (`coordinates`),
/// speaks of the grid beyond the subset (`outside-subset`) or goes on about
/// things that are not tiles (`outside-game`); a parsed statement must pass
/// [`Statement::check`].
pub fn judge(text: &str, subset: CellSet) -> Result<Statement, Refusal> {
    match parse(text) {
        Ok(s) => {
            s.check(subset).map_err(Refusal::Invalid)?;
            Ok(s)
        }
        Err(e) => {
            let words = loose_words(text);
            if names_coordinates(&words) {
                return Err(Refusal::Invalid(Invalid::Coordinates));
            }
            if speaks_outside_subset(&words) {
                return Err(Refusal::Invalid(Invalid::OutsideSubset));
            }
            // Where the parser stopped: if what follows, from the claim that
            // failed, speaks of no tile or colour, it is about something else.
            let rest = e.offset().map_or("", |at| {
                let start = text.char_indices().nth(at).map_or(text.len(), |(b, _)| b);
                &text[start..]
            });
            let rest_words = loose_words(rest);
            let at_clause_start = e.offset().is_some_and(|at| {
                let before: String = text.chars().take(at).collect();
                let before = loose_words(&before);
                before.is_empty()
                    || matches!(
                        before.last().map(String::as_str),
                        Some("and" | "or" | "but" | "xor" | "that")
                    )
            });
            if !rest_words.is_empty() && at_clause_start && !rest_words.iter().any(|w| game_word(w))
            {
                return Err(Refusal::Invalid(Invalid::OutsideGame));
            }
            Err(Refusal::Unparsable(e))
        }
    }
}

//! The slots of a pattern: a phrase of one kind, and what it means.

use std::sync::OnceLock;

use super::super::print::number_word;
use super::{Caps, El, compile, matches};
use crate::grid::Colour;
use crate::statement::{Adjacency, Amount, Cmp, Colours, Line, Quantifier, Side};

/// A phrase of one kind, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// A number, 0–16, in digits or words.
    Number,
    /// How many, before a noun: "at least two", "no", "all", "most", "an
    /// odd number of" (and "not all", which negates).
    Amount,
    /// How many, after "is": "two" (exactly), "at least two", "odd".
    Is,
    /// Colours joined by "or": "red", "red or blue", "not red".
    Colours,
    /// One colour.
    Colour,
    /// Colours joined by "and": "red and blue", "red, blue and green".
    List,
    /// A word for tiles ("tiles", "squares", "ones"), and "in the subset".
    Tile,
    /// "adjacent to", "orthogonally next to", "touching".
    NextTo,
    /// "adjacent", "neighbouring", "touching" before a noun.
    Adjacent,
    /// "row(s)" or "column(s)".
    Line,
    /// "some", "every", "no", "not every".
    Quantifier,
    /// "not" or "never", or nothing.
    Not,
    /// "orthogonally (connected)", or nothing.
    Orthogonal,
    /// "leftmost", "top", "bottom"…
    Side,
    /// "a 2x2 square", "2 by 2 block".
    Square,
    /// "group", "region", "cluster".
    Group,
    /// The subset as a subject: "I", "my subset", "the subset".
    Subject,
    /// "more" or "fewer".
    More,
    /// "exactly", "at least", "at most", "more than", "fewer than", "not
    /// exactly", or nothing (exactly), before "as many".
    HowMuch,
    /// "two times" ("twice"), "three times".
    Times,
    /// Colours added up: "blue and green combined".
    Combined,
}

impl Slot {
    /// What it takes, in words, for errors.
    pub(super) fn describe(self) -> &'static str {
        match self {
            Slot::Number => "a number",
            Slot::Amount | Slot::Is => "how many (a number, “at least two”, “all”…)",
            Slot::Colours | Slot::Colour | Slot::List => "a colour",
            Slot::Tile => "tiles",
            Slot::NextTo => "adjacent to",
            Slot::Adjacent => "adjacent",
            Slot::Line => "row or column",
            Slot::Quantifier => "some, every or no",
            Slot::Not => "not",
            Slot::Orthogonal => "orthogonally",
            Slot::Side => "leftmost, rightmost, top or bottom",
            Slot::Square => "2x2 square",
            Slot::Group => "group",
            Slot::Subject => "the subset",
            Slot::More => "more or fewer",
            Slot::HowMuch => "exactly, at least or at most",
            Slot::Times => "twice",
            Slot::Combined => "colours combined",
        }
    }
}

impl Slot {
    /// The slot `{name}` of a pattern.
    pub(super) fn named(name: &str) -> Slot {
        match name {
            "n" => Slot::Number,
            "amount" => Slot::Amount,
            "is" => Slot::Is,
            "colours" => Slot::Colours,
            "colour" => Slot::Colour,
            "list" => Slot::List,
            "tile" => Slot::Tile,
            "nextto" => Slot::NextTo,
            "adjacent" => Slot::Adjacent,
            "line" => Slot::Line,
            "q" => Slot::Quantifier,
            "not" => Slot::Not,
            "orth" => Slot::Orthogonal,
            "side" => Slot::Side,
            "square" => Slot::Square,
            "group" => Slot::Group,
            "subject" => Slot::Subject,
            "more" => Slot::More,
            "howmuch" => Slot::HowMuch,
            "times" => Slot::Times,
            "combined" => Slot::Combined,
            other => panic!("unknown slot {{{other}}}"),
        }
    }
}

fn word(words: &[String], at: usize) -> &str {
    words.get(at).map_or("", String::as_str)
}

/// A number at `at`: digits or a number word.
fn number(words: &[String], at: usize) -> Option<u8> {
    let w = word(words, at);
    number_word(w).or_else(|| w.parse::<u8>().ok().filter(|&n| n <= 16))
}

/// The words `seq` at `at`, and where they end.
fn phrase(words: &[String], at: usize, seq: &str) -> Option<usize> {
    let mut i = at;
    for w in seq.split(' ') {
        if word(words, i) != w {
            return None;
        }
        i += 1;
    }
    Some(i)
}

/// The first of `options` (phrase, value) found at `at`, every one that is.
fn phrases<T: Copy>(words: &[String], at: usize, options: &[(&str, T)]) -> Vec<(T, usize)> {
    options
        .iter()
        .filter_map(|&(p, v)| phrase(words, at, p).map(|end| (v, end)))
        .collect()
}

/// The amount a phrase makes of the number after it ("more than" two is at
/// least three).
type ToAmount = fn(u8) -> Option<Amount>;

/// Amounts before a noun, with "of the" after them where English puts it;
/// `true` for a bare number ("two").
fn amounts(words: &[String], at: usize) -> Vec<((Amount, bool, bool), usize)> {
    let mut out = Vec::new();
    let n = |i: usize| number(words, i);
    let mut add = |a: Amount, not: bool, bare: bool, end: usize| {
        out.push(((a, not, bare), end));
        for of in ["of the", "of my", "of these", "of them", "the", "my"] {
            if let Some(e) = phrase(words, end, of) {
                out.push(((a, not, bare), e));
            }
        }
    };
    // A number, alone or with words around it.
    if let Some(k) = n(at) {
        let bare = if k == 0 {
            Amount::NONE
        } else {
            Amount::at_least(k)
        };
        add(bare, false, true, at + 1);
    }
    for article in ["a", "an", "a single"] {
        if let Some(e) = phrase(words, at, article) {
            add(Amount::SOME, false, true, e);
        }
    }
    let mut push = |a: Amount, not: bool, end: usize| add(a, not, false, end);
    if let Some(k) = n(at) {
        if let Some(e) = phrase(words, at + 1, "or more") {
            push(Amount::at_least(k), false, e);
        }
        if let Some(e) = phrase(words, at + 1, "or fewer") {
            push(Amount::at_most(k), false, e);
        }
        if word(words, at + 1) == "or" {
            if let Some(m) = n(at + 2).filter(|&m| m == k + 1) {
                push(
                    Amount::Range {
                        min: k,
                        max: Some(m),
                    },
                    false,
                    at + 3,
                );
            }
        }
    }
    let before_number: &[(&str, ToAmount)] = &[
        ("at least", |k| Some(Amount::at_least(k))),
        ("no fewer than", |k| Some(Amount::at_least(k))),
        ("not fewer than", |k| Some(Amount::at_least(k))),
        ("at most", |k| Some(Amount::at_most(k))),
        ("no more than", |k| Some(Amount::at_most(k))),
        ("not more than", |k| Some(Amount::at_most(k))),
        ("up to", |k| Some(Amount::at_most(k))),
        ("exactly", |k| Some(Amount::exactly(k))),
        ("precisely", |k| Some(Amount::exactly(k))),
        ("just", |k| Some(Amount::exactly(k))),
        ("only", |k| Some(Amount::exactly(k))),
        ("more than", |k| k.checked_add(1).map(Amount::at_least)),
        ("over", |k| k.checked_add(1).map(Amount::at_least)),
        ("fewer than", |k| k.checked_sub(1).map(Amount::at_most)),
        ("under", |k| k.checked_sub(1).map(Amount::at_most)),
    ];
    for (p, f) in before_number {
        if let Some(e) = phrase(words, at, p) {
            if let Some(a) = n(e).and_then(f) {
                push(a, false, e + 1);
            }
        }
    }
    for p in ["between", "from"] {
        if let Some(e) = phrase(words, at, p) {
            if let (Some(a), Some(b)) = (n(e), n(e + 2)) {
                if a <= b && matches!(word(words, e + 1), "and" | "to") {
                    push(
                        Amount::Range {
                            min: a,
                            max: Some(b),
                        },
                        false,
                        e + 3,
                    );
                }
            }
        }
    }
    let fixed: &[(&str, Amount, bool)] = &[
        ("some", Amount::SOME, false),
        ("any", Amount::SOME, false),
        ("at least one", Amount::SOME, false),
        ("multiple", Amount::at_least(2), false),
        ("no", Amount::NONE, false),
        ("none of the", Amount::NONE, false),
        ("none of my", Amount::NONE, false),
        ("not a single", Amount::NONE, false),
        ("not a single one of", Amount::NONE, false),
        ("not one of", Amount::NONE, false),
        ("not one", Amount::NONE, false),
        ("not any", Amount::NONE, false),
        ("all", Amount::All, false),
        ("only", Amount::All, false),
        ("all the", Amount::All, false),
        ("every", Amount::All, false),
        ("each", Amount::All, false),
        ("every single", Amount::All, false),
        ("every one of", Amount::All, false),
        ("each one of", Amount::All, false),
        ("not all", Amount::All, true),
        ("not all the", Amount::All, true),
        ("not every", Amount::All, true),
        ("most", Amount::Half(Cmp::More), false),
        ("the majority of", Amount::Half(Cmp::More), false),
        ("more than half", Amount::Half(Cmp::More), false),
        ("over half", Amount::Half(Cmp::More), false),
        ("at least half", Amount::Half(Cmp::AtLeast), false),
        ("half", Amount::Half(Cmp::Equal), false),
        ("exactly half", Amount::Half(Cmp::Equal), false),
        ("not exactly half", Amount::Half(Cmp::Differ), false),
        ("at most half", Amount::Half(Cmp::AtMost), false),
        ("no more than half", Amount::Half(Cmp::AtMost), false),
        ("fewer than half", Amount::Half(Cmp::Less), false),
        ("under half", Amount::Half(Cmp::Less), false),
        ("an odd number of", Amount::Odd(true), false),
        ("an even number of", Amount::Odd(false), false),
    ];
    for &(p, a, not) in fixed {
        if let Some(e) = phrase(words, at, p) {
            push(a, not, e);
        }
    }
    out
}

/// An amount after "is": a bare number is exact here ("the number of red
/// tiles is two").
fn amounts_after_is(words: &[String], at: usize) -> Vec<((Amount, bool), usize)> {
    let mut out = Vec::new();
    let (not, at) = match word(words, at) {
        "not" => (true, at + 1),
        _ => (false, at),
    };
    if let Some(k) = number(words, at) {
        out.push(((Amount::exactly(k), not), at + 1));
    }
    let comparisons: &[(&str, ToAmount)] = &[
        ("at least", |k| Some(Amount::at_least(k))),
        ("at most", |k| Some(Amount::at_most(k))),
        ("exactly", |k| Some(Amount::exactly(k))),
        ("greater than", |k| k.checked_add(1).map(Amount::at_least)),
        ("more than", |k| k.checked_add(1).map(Amount::at_least)),
        ("larger than", |k| k.checked_add(1).map(Amount::at_least)),
        ("bigger than", |k| k.checked_add(1).map(Amount::at_least)),
        ("above", |k| k.checked_add(1).map(Amount::at_least)),
        ("over", |k| k.checked_add(1).map(Amount::at_least)),
        ("fewer than", |k| k.checked_sub(1).map(Amount::at_most)),
        ("smaller than", |k| k.checked_sub(1).map(Amount::at_most)),
        ("lower than", |k| k.checked_sub(1).map(Amount::at_most)),
        ("below", |k| k.checked_sub(1).map(Amount::at_most)),
        ("under", |k| k.checked_sub(1).map(Amount::at_most)),
    ];
    for (p, f) in comparisons {
        if let Some(e) = phrase(words, at, p) {
            if let Some(a) = number(words, e).and_then(f) {
                out.push(((a, not), e + 1));
            }
        }
    }
    for (p, a) in [
        ("odd", Amount::Odd(true)),
        ("even", Amount::Odd(false)),
        ("an odd number", Amount::Odd(true)),
        ("an even number", Amount::Odd(false)),
    ] {
        if let Some(e) = phrase(words, at, p) {
            out.push(((a, not), e));
        }
    }
    if word(words, at) == "between" {
        if let (Some(a), Some(b)) = (number(words, at + 1), number(words, at + 3)) {
            if a <= b && word(words, at + 2) == "and" {
                out.push((
                    (
                        Amount::Range {
                            min: a,
                            max: Some(b),
                        },
                        not,
                    ),
                    at + 4,
                ));
            }
        }
    }
    out
}

pub(super) const TILE_WORDS: [&str; 12] = [
    "tile", "tiles", "square", "squares", "cell", "cells", "space", "spaces", "spot", "spots",
    "one", "ones",
];

/// Where a tile word (and an optional "in the subset") ends.
fn tile_ends(words: &[String], at: usize) -> Vec<usize> {
    if !TILE_WORDS.contains(&word(words, at)) {
        return Vec::new();
    }
    let mut ends = vec![at + 1];
    let scope = compile_once(
        "(in|of|among|within [the|my|this|our] subset|selection|area|region | in it | [that|which] i chose|picked|selected)",
    );
    let mut more = Vec::new();
    matches(scope, words, at + 1, Caps::default(), &mut more);
    ends.extend(more.into_iter().map(|(_, e)| e));
    ends
}

/// Compiles a pattern used inside a slot, once.
fn compile_once(pattern: &'static str) -> &'static [El] {
    type Compiled = Vec<(&'static str, &'static [El])>;
    static CACHE: OnceLock<std::sync::Mutex<Compiled>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().expect("the pattern cache");
    if let Some((_, els)) = cache.iter().find(|(p, _)| *p == pattern) {
        return els;
    }
    let els: &'static [El] = Box::leak(compile(pattern).into_boxed_slice());
    cache.push((pattern, els));
    els
}

/// Colours joined by "or" (or commas), each possibly "not red".
fn colour_sets(words: &[String], at: usize) -> Vec<(Colours, usize)> {
    let mut out = Vec::new();
    let (not, start) = match word(words, at) {
        "not" => (true, at + 1),
        _ => (false, at),
    };
    let Some(first) = Colour::from_name(word(words, start)) else {
        return out;
    };
    let mut set = Colours::one(first);
    let mut i = start + 1;
    let finish = |set: Colours| {
        if not {
            Colours::from_mask(!set.mask())
        } else {
            Some(set)
        }
    };
    let push = |set: Colours, end: usize, out: &mut Vec<(Colours, usize)>| {
        if let Some(s) = finish(set) {
            out.push((s, end));
            if word(words, end) == "coloured" {
                out.push((s, end + 1));
            }
        }
    };
    push(set, i, &mut out);
    loop {
        let sep = word(words, i);
        if !matches!(sep, "or" | ",") {
            break;
        }
        let Some(c) = Colour::from_name(word(words, i + 1)) else {
            break;
        };
        set = set.with(c);
        i += 2;
        if sep == "or" {
            push(set, i, &mut out);
        }
    }
    out
}

/// Colours joined by "and" (commas before the last): two or more.
fn colour_lists(words: &[String], at: usize) -> Vec<(Vec<Colour>, usize)> {
    let mut out = Vec::new();
    let Some(first) = Colour::from_name(word(words, at)) else {
        return out;
    };
    let mut list = vec![first];
    let mut i = at + 1;
    loop {
        let (sep_end, last) = match word(words, i) {
            "," if word(words, i + 1) == "and" => (i + 2, true),
            "," => (i + 1, false),
            "and" => (i + 1, true),
            _ => break,
        };
        let Some(c) = Colour::from_name(word(words, sep_end)) else {
            break;
        };
        if list.contains(&c) {
            break;
        }
        list.push(c);
        i = sep_end + 1;
        if last {
            out.push((list.clone(), i));
            break;
        }
    }
    out
}

/// "adjacent to", "orthogonally next to", "touching", "sharing a side
/// with": where it ends and which neighbours it means.
fn next_to(words: &[String], at: usize) -> Vec<(Adjacency, usize)> {
    let mut out = Vec::new();
    let (adverb, start) = adverb(words, at);
    for base in [
        "adjacent to",
        "next to",
        "beside",
        "touching",
        "bordering",
        "bordering on",
        "neighbouring",
        "in contact with",
        "diagonal to",
    ] {
        if let Some(e) = phrase(words, start, base) {
            let adjacency = if base == "diagonal to" {
                if adverb.is_some() {
                    continue;
                }
                Adjacency::Diagonal
            } else {
                adverb.unwrap_or(Adjacency::Any)
            };
            out.push((adjacency, e));
            // "adjacent to each other" has no second colour: not here.
        }
    }
    if adverb.is_none() {
        for p in [
            "sharing a side with",
            "sharing an edge with",
            "that shares a side with",
            "that shares an edge with",
        ] {
            if let Some(e) = phrase(words, at, p) {
                out.push((Adjacency::Orthogonal, e));
            }
        }
    }
    out
}

/// "orthogonally", "diagonally", "horizontally or vertically", or none.
fn adverb(words: &[String], at: usize) -> (Option<Adjacency>, usize) {
    if let Some(e) = phrase(words, at, "horizontally or vertically") {
        return (Some(Adjacency::Orthogonal), e);
    }
    match word(words, at) {
        "orthogonally" | "orthogonal" => (Some(Adjacency::Orthogonal), at + 1),
        "diagonally" => (Some(Adjacency::Diagonal), at + 1),
        _ => (None, at),
    }
}

fn adjacent_words(words: &[String], at: usize) -> Vec<(Adjacency, usize)> {
    let (adverb, start) = adverb(words, at);
    let mut out = Vec::new();
    if matches!(
        word(words, start),
        "adjacent" | "neighbouring" | "touching" | "bordering"
    ) {
        out.push((adverb.unwrap_or(Adjacency::Any), start + 1));
    }
    if adverb.is_none() && word(words, at) == "diagonal" {
        out.push((Adjacency::Diagonal, at + 1));
    }
    out
}

/// Each phrase found (its value and where it ends), its value added to a
/// copy of `caps` by `add`.
fn taking<T>(
    found: Vec<(T, usize)>,
    caps: &Caps,
    add: impl Fn(&mut Caps, T),
) -> Vec<(Caps, usize)> {
    found
        .into_iter()
        .map(|(v, end)| {
            let mut c = caps.clone();
            add(&mut c, v);
            (c, end)
        })
        .collect()
}

const LINES: &[(&str, Line)] = &[
    ("row", Line::Row),
    ("rows", Line::Row),
    ("column", Line::Column),
    ("columns", Line::Column),
];

const QUANTIFIERS: &[(&str, (Quantifier, bool))] = &[
    ("some", (Quantifier::Some, false)),
    ("a", (Quantifier::Some, false)),
    ("an", (Quantifier::Some, false)),
    ("one", (Quantifier::Some, false)),
    ("at least one", (Quantifier::Some, false)),
    ("every", (Quantifier::Every, false)),
    ("each", (Quantifier::Every, false)),
    ("all", (Quantifier::Every, false)),
    ("all the", (Quantifier::Every, false)),
    ("all of the", (Quantifier::Every, false)),
    ("no", (Quantifier::Some, true)),
    ("not a single", (Quantifier::Some, true)),
    ("not one", (Quantifier::Some, true)),
    ("none of the", (Quantifier::Some, true)),
    ("not every", (Quantifier::Every, true)),
    ("not each", (Quantifier::Every, true)),
    ("not all", (Quantifier::Every, true)),
    ("not all the", (Quantifier::Every, true)),
];

const SIDES: &[(&str, Side)] = &[
    ("leftmost", Side::Left),
    ("left", Side::Left),
    ("rightmost", Side::Right),
    ("right", Side::Right),
    ("top", Side::Top),
    ("topmost", Side::Top),
    ("uppermost", Side::Top),
    ("highest", Side::Top),
    ("upper", Side::Top),
    ("bottom", Side::Bottom),
    ("bottommost", Side::Bottom),
    ("lowest", Side::Bottom),
    ("lower", Side::Bottom),
];

/// Before "as many": how it compares ("exactly" when nothing is said).
const HOW_MUCH: &[(&str, Cmp)] = &[
    ("exactly", Cmp::Equal),
    ("at least", Cmp::AtLeast),
    ("at most", Cmp::AtMost),
    ("more than", Cmp::More),
    ("fewer than", Cmp::Less),
    ("not exactly", Cmp::Differ),
];

const COMBINED: [&str; 6] = [
    "combined",
    "together",
    "altogether",
    "in total",
    "put together",
    "added together",
];

/// Colours added up: "blue and green (tiles) combined".
fn combined(words: &[String], at: usize) -> Vec<(Colours, usize)> {
    let mut out = Vec::new();
    for (list, end) in colour_lists(words, at) {
        let end = end + usize::from(TILE_WORDS.contains(&word(words, end)));
        let union = list.iter().fold(Colours::one(list[0]), |s, &c| s.with(c));
        out.extend(
            COMBINED
                .iter()
                .filter_map(|p| phrase(words, end, p).map(|e| (union, e))),
        );
    }
    out
}

/// An optional word: nothing, or the phrase (when found) setting `on`.
fn optional(words: &[String], at: usize, phrases: &[&str]) -> Vec<(bool, usize)> {
    let mut out = vec![(false, at)];
    out.extend(
        phrases
            .iter()
            .filter_map(|p| phrase(words, at, p).map(|e| (true, e))),
    );
    out
}

/// Every way slot `s` fills at `at`.
pub(super) fn fill(s: Slot, words: &[String], at: usize, caps: &Caps) -> Vec<(Caps, usize)> {
    match s {
        Slot::Number => {
            let found = number(words, at).map(|k| (k, at + 1)).into_iter().collect();
            taking(found, caps, |c, k| c.numbers.push(k))
        }
        Slot::Amount => taking(amounts(words, at), caps, |c, (a, not, bare)| {
            c.amounts.push(a);
            c.amount_not |= not;
            c.bare = bare;
        }),
        Slot::Is => taking(amounts_after_is(words, at), caps, |c, (a, not)| {
            c.amounts.push(a);
            c.amount_not |= not;
            c.bare = false;
        }),
        Slot::Colours => taking(colour_sets(words, at), caps, |c, v| c.colours.push(v)),
        Slot::Colour => {
            let found = Colour::from_name(word(words, at))
                .map(|col| (Colours::one(col), at + 1))
                .into_iter()
                .collect();
            taking(found, caps, |c, v| c.colours.push(v))
        }
        Slot::List => taking(colour_lists(words, at), caps, |c, v| c.lists.push(v)),
        Slot::Tile => {
            let found = tile_ends(words, at)
                .into_iter()
                .map(|end| ((), end))
                .collect();
            taking(found, caps, |_, ()| {})
        }
        Slot::NextTo => taking(next_to(words, at), caps, |c, v| c.adjacency.push(v)),
        Slot::Adjacent => taking(adjacent_words(words, at), caps, |c, v| c.adjacency.push(v)),
        Slot::Line => taking(phrases(words, at, LINES), caps, |c, v| c.lines.push(v)),
        Slot::Quantifier => taking(phrases(words, at, QUANTIFIERS), caps, |c, v| {
            c.quantifiers.push(v)
        }),
        Slot::Not => taking(optional(words, at, &["not", "never"]), caps, |c, on| {
            c.not |= on
        }),
        Slot::Orthogonal => {
            let said = ["orthogonally", "orthogonal", "orthogonally connected"];
            taking(optional(words, at, &said), caps, |c, on| c.orthogonal |= on)
        }
        Slot::Side => taking(phrases(words, at, SIDES), caps, |c, v| c.sides.push(v)),
        Slot::Square | Slot::Group | Slot::Subject => {
            let pattern = match s {
                Slot::Square => {
                    "(2x2 | two by two | 2 by 2 | 2 x 2) square|squares|block|blocks|box|boxes|area|areas"
                }
                Slot::Group => {
                    "[connected|separate|distinct|different] group|groups|region|regions|cluster|clusters|island|islands|blob|blobs"
                }
                _ => "(i | we | my|the|this subset|selection | my tiles | it)",
            };
            let mut out = Vec::new();
            matches(compile_once(pattern), words, at, caps.clone(), &mut out);
            out
        }
        Slot::More => {
            let found = phrases(words, at, &[("more", Cmp::More), ("fewer", Cmp::Less)]);
            taking(found, caps, |c, v| c.cmps.push(v))
        }
        Slot::HowMuch => {
            let mut found = phrases(words, at, HOW_MUCH);
            found.push((Cmp::Equal, at));
            taking(found, caps, |c, v| c.cmps.push(v))
        }
        Slot::Combined => taking(combined(words, at), caps, |c, v| {
            c.colours.push(v);
            c.combined = true;
        }),
        Slot::Times => {
            let found = number(words, at)
                .filter(|&k| (2..=4).contains(&k) && word(words, at + 1) == "times")
                .map(|k| (k, at + 2))
                .into_iter()
                .collect();
            taking(found, caps, |c, k| c.factor = k)
        }
    }
}

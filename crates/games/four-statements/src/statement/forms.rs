//! The phrasings of the atoms: a table of patterns, each with the meaning
//! it gives ([`FORMS`]), and the small engine that matches them.
//!
//! A pattern is words separated by spaces: `is|are` takes one of the words,
//! `[in the subset]` may be left out, `( share a colour | have the same
//! colour )` takes one of the phrases (`[a | b c]`: one of them, or none), and `{amount}`, `{colours}` and the
//! other slots take a phrase of their kind ([`Slot`]). Every way a pattern
//! matches is kept: the parser then weighs every reading.

use std::sync::OnceLock;

use super::print::number_word;
use super::{Adjacency, Amount, Atom, Cmp, Colours, Line, Position, Quantifier, Side, Statement};
use crate::grid::Colour;

/// A phrase of one kind, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
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
    /// "twice", "three times".
    Times,
    /// Colours added up: "blue and green combined".
    Combined,
}

/// What the slots of one match took, in order.
#[derive(Clone, Debug, Default)]
pub(super) struct Caps {
    amounts: Vec<Amount>,
    /// Whether an amount said "not all"/"not every".
    amount_not: bool,
    colours: Vec<Colours>,
    lists: Vec<Vec<Colour>>,
    adjacency: Vec<Adjacency>,
    lines: Vec<Line>,
    quantifiers: Vec<(Quantifier, bool)>,
    sides: Vec<Side>,
    numbers: Vec<u8>,
    cmps: Vec<Cmp>,
    factor: u8,
    /// Whether the last amount was a bare number.
    bare: bool,
    /// Whether colours were added up ("blue and green combined").
    combined: bool,
    not: bool,
    orthogonal: bool,
}

#[derive(Clone, Debug)]
enum El {
    Words(Vec<&'static str>),
    Optional(Vec<El>),
    OneOf(Vec<Vec<El>>),
    Slot(Slot),
}

/// The meanings a match gives (several when the phrase itself reads two
/// ways, like "all tiles are not red").
type Build = fn(&Caps) -> Vec<Statement>;

/// One phrasing.
pub(super) struct Form {
    pattern: Vec<El>,
    build: Build,
}

impl Slot {
    /// What it takes, in words, for errors.
    fn describe(self) -> &'static str {
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

fn slot(name: &str) -> Slot {
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

/// Compiles a pattern (see the module's doc).
fn compile(pattern: &'static str) -> Vec<El> {
    fn seq(items: &mut std::iter::Peekable<std::vec::IntoIter<&'static str>>) -> Vec<El> {
        let mut out = Vec::new();
        while let Some(&item) = items.peek() {
            match item {
                "]" | ")" | "|" => break,
                "[" => {
                    items.next();
                    let mut choices = vec![seq(items)];
                    while items.peek() == Some(&"|") {
                        items.next();
                        choices.push(seq(items));
                    }
                    assert_eq!(items.next(), Some("]"), "unclosed [");
                    out.push(El::Optional(match choices.len() {
                        1 => choices.pop().expect("one"),
                        _ => vec![El::OneOf(choices)],
                    }));
                }
                "(" => {
                    items.next();
                    let mut choices = vec![seq(items)];
                    while items.peek() == Some(&"|") {
                        items.next();
                        choices.push(seq(items));
                    }
                    assert_eq!(items.next(), Some(")"), "unclosed (");
                    out.push(El::OneOf(choices));
                }
                w => {
                    items.next();
                    if let Some(name) = w.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
                        out.push(El::Slot(slot(name)));
                    } else {
                        out.push(El::Words(w.split('|').collect()));
                    }
                }
            }
        }
        out
    }
    let spaced: Vec<&'static str> = pattern.split_whitespace().collect();
    // Brackets are written against their words: split them off.
    let mut items = Vec::new();
    for w in spaced {
        let mut w = w;
        while let Some(rest) = w.strip_prefix(['[', '(']) {
            items.push(&w[..1]);
            w = rest;
        }
        let mut closing = Vec::new();
        while let Some(rest) = w.strip_suffix([']', ')']) {
            closing.push(&w[w.len() - 1..]);
            w = rest;
        }
        if !w.is_empty() {
            items.push(w);
        }
        items.extend(closing.into_iter().rev());
    }
    let mut iter = items.into_iter().peekable();
    let out = seq(&mut iter);
    assert!(iter.next().is_none(), "unbalanced pattern {pattern}");
    out
}

/// The furthest word a match got to, and what it wanted there (kept only
/// when `on`: for error messages).
#[derive(Default)]
struct Trace {
    on: bool,
    at: usize,
    wanted: Vec<String>,
}

impl Trace {
    fn note(&mut self, at: usize, what: impl FnOnce() -> Vec<String>) {
        if !self.on || at < self.at {
            return;
        }
        if at > self.at {
            self.at = at;
            self.wanted.clear();
        }
        for w in what() {
            if !self.wanted.contains(&w) {
                self.wanted.push(w);
            }
        }
    }
}

/// Every way `pattern` matches `words` from `at`: the captures and where
/// each match ends.
fn matches(pattern: &[El], words: &[String], at: usize, caps: Caps, out: &mut Vec<(Caps, usize)>) {
    traced(pattern, words, at, caps, out, &mut Trace::default());
}

fn traced(
    pattern: &[El],
    words: &[String],
    at: usize,
    caps: Caps,
    out: &mut Vec<(Caps, usize)>,
    trace: &mut Trace,
) {
    let Some((first, rest)) = pattern.split_first() else {
        out.push((caps, at));
        return;
    };
    match first {
        El::Words(ws) => {
            if words.get(at).is_some_and(|w| ws.contains(&w.as_str())) {
                traced(rest, words, at + 1, caps, out, trace);
            } else {
                trace.note(at, || ws.iter().map(|w| (*w).to_string()).collect());
            }
        }
        El::Optional(inner) => {
            traced(rest, words, at, caps.clone(), out, trace);
            let mut mid = Vec::new();
            traced(inner, words, at, caps, &mut mid, trace);
            for (c, end) in mid {
                traced(rest, words, end, c, out, trace);
            }
        }
        El::OneOf(choices) => {
            for choice in choices {
                let mut mid = Vec::new();
                traced(choice, words, at, caps.clone(), &mut mid, trace);
                for (c, end) in mid {
                    traced(rest, words, end, c, out, trace);
                }
            }
        }
        El::Slot(s) => {
            let filled = fill(*s, words, at, &caps);
            if filled.iter().all(|(_, end)| *end == at) {
                trace.note(at, || vec![s.describe().to_string()]);
            }
            for (c, end) in filled {
                traced(rest, words, end, c, out, trace);
            }
        }
    }
}

/// How far each phrasing starting at `at` got, and what it wanted there.
pub(super) fn reach(words: &[String], at: usize) -> Vec<(usize, Vec<String>)> {
    let mut trace = Trace {
        on: true,
        at,
        wanted: Vec::new(),
    };
    for form in forms() {
        let mut out = Vec::new();
        traced(
            &form.pattern,
            words,
            at,
            Caps::default(),
            &mut out,
            &mut trace,
        );
    }
    vec![(trace.at, trace.wanted)]
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
        for of in ["of the", "of my", "of these", "of them"] {
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
        ("a", Amount::SOME, false),
        ("an", Amount::SOME, false),
        ("some", Amount::SOME, false),
        ("any", Amount::SOME, false),
        ("at least one", Amount::SOME, false),
        ("a single", Amount::SOME, false),
        ("multiple", Amount::at_least(2), false),
        ("no", Amount::NONE, false),
        ("none of the", Amount::NONE, false),
        ("none of my", Amount::NONE, false),
        ("not a single", Amount::NONE, false),
        ("not one", Amount::NONE, false),
        ("not any", Amount::NONE, false),
        ("all", Amount::All, false),
        ("all the", Amount::All, false),
        ("every", Amount::All, false),
        ("each", Amount::All, false),
        ("every single", Amount::All, false),
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

const TILE_WORDS: [&str; 12] = [
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

/// Every way slot `s` fills at `at`.
fn fill(s: Slot, words: &[String], at: usize, caps: &Caps) -> Vec<(Caps, usize)> {
    let with = |f: &dyn Fn(&mut Caps)| {
        let mut c = caps.clone();
        f(&mut c);
        c
    };
    match s {
        Slot::Number => number(words, at)
            .map(|k| (with(&|c| c.numbers.push(k)), at + 1))
            .into_iter()
            .collect(),
        Slot::Amount | Slot::Is => {
            let found = if s == Slot::Amount {
                amounts(words, at)
            } else {
                amounts_after_is(words, at)
                    .into_iter()
                    .map(|((a, not), end)| ((a, not, false), end))
                    .collect()
            };
            found
                .into_iter()
                .map(|((a, not, bare), end)| {
                    (
                        with(&|c| {
                            c.amounts.push(a);
                            c.amount_not |= not;
                            c.bare = bare;
                        }),
                        end,
                    )
                })
                .collect()
        }
        Slot::Colours => colour_sets(words, at)
            .into_iter()
            .map(|(set, end)| (with(&|c| c.colours.push(set)), end))
            .collect(),
        Slot::Colour => Colour::from_name(word(words, at))
            .map(|col| (with(&|c| c.colours.push(Colours::one(col))), at + 1))
            .into_iter()
            .collect(),
        Slot::List => colour_lists(words, at)
            .into_iter()
            .map(|(list, end)| (with(&|c| c.lists.push(list.clone())), end))
            .collect(),
        Slot::Tile => tile_ends(words, at)
            .into_iter()
            .map(|end| (caps.clone(), end))
            .collect(),
        Slot::NextTo => next_to(words, at)
            .into_iter()
            .map(|(a, end)| (with(&|c| c.adjacency.push(a)), end))
            .collect(),
        Slot::Adjacent => adjacent_words(words, at)
            .into_iter()
            .map(|(a, end)| (with(&|c| c.adjacency.push(a)), end))
            .collect(),
        Slot::Line => phrases(
            words,
            at,
            &[
                ("row", Line::Row),
                ("rows", Line::Row),
                ("column", Line::Column),
                ("columns", Line::Column),
            ],
        )
        .into_iter()
        .map(|(l, end)| (with(&|c| c.lines.push(l)), end))
        .collect(),
        Slot::Quantifier => phrases(
            words,
            at,
            &[
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
            ],
        )
        .into_iter()
        .map(|(q, end)| (with(&|c| c.quantifiers.push(q)), end))
        .collect(),
        Slot::Not => {
            let mut out = vec![(caps.clone(), at)];
            if matches!(word(words, at), "not" | "never") {
                out.push((with(&|c| c.not = true), at + 1));
            }
            out
        }
        Slot::Orthogonal => {
            let mut out = vec![(caps.clone(), at)];
            for p in ["orthogonally", "orthogonal", "orthogonally connected"] {
                if let Some(e) = phrase(words, at, p) {
                    out.push((with(&|c| c.orthogonal = true), e));
                }
            }
            out
        }
        Slot::Side => phrases(
            words,
            at,
            &[
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
            ],
        )
        .into_iter()
        .map(|(side, end)| (with(&|c| c.sides.push(side)), end))
        .collect(),
        Slot::Square | Slot::Group | Slot::Subject => {
            let pattern = match s {
                Slot::Square => {
                    "(2x2 | two by two | 2 by 2 | 2 x 2) square|squares|block|blocks|box|boxes|area|areas"
                }
                Slot::Group => {
                    "[connected] group|groups|region|regions|cluster|clusters|island|islands|blob|blobs"
                }
                _ => "(i | my|the|this subset|selection | my tiles | it)",
            };
            let mut out = Vec::new();
            matches(compile_once(pattern), words, at, caps.clone(), &mut out);
            out
        }
        Slot::More => phrases(words, at, &[("more", Cmp::More), ("fewer", Cmp::Less)])
            .into_iter()
            .map(|(cmp, end)| (with(&|c| c.cmps.push(cmp)), end))
            .collect(),
        Slot::HowMuch => {
            let mut found = phrases(
                words,
                at,
                &[
                    ("exactly", Cmp::Equal),
                    ("at least", Cmp::AtLeast),
                    ("at most", Cmp::AtMost),
                    ("more than", Cmp::More),
                    ("fewer than", Cmp::Less),
                    ("not exactly", Cmp::Differ),
                ],
            );
            found.push((Cmp::Equal, at));
            found
                .into_iter()
                .map(|(cmp, end)| (with(&|c| c.cmps.push(cmp)), end))
                .collect()
        }
        Slot::Combined => {
            let mut out = Vec::new();
            for (list, end) in colour_lists(words, at) {
                let set = list
                    .iter()
                    .fold(0u8, |m, &col| m | Colours::one(col).mask());
                let union = Colours::from_mask(set).expect("a colour");
                for p in [
                    "combined",
                    "together",
                    "altogether",
                    "in total",
                    "put together",
                    "added together",
                ] {
                    if let Some(e) = phrase(words, end, p) {
                        out.push((
                            with(&|c| {
                                c.colours.push(union);
                                c.combined = true;
                            }),
                            e,
                        ));
                    }
                }
            }
            out
        }
        Slot::Times => {
            let mut found = Vec::new();
            if word(words, at) == "twice" {
                found.push((2, at + 1));
            }
            if let Some(k) = number(words, at).filter(|&k| (2..=4).contains(&k)) {
                if word(words, at + 1) == "times" {
                    found.push((k, at + 2));
                }
            }
            found
                .into_iter()
                .map(|(k, end)| (with(&|c| c.factor = k), end))
                .collect()
        }
    }
}

// ---------------------------------------------------------------- builders

fn one(s: Statement) -> Vec<Statement> {
    vec![s]
}

/// The amount at `i`, with "not all" applied.
fn count_of(c: &Caps, colours: Colours) -> Statement {
    let s = Statement::from(Atom::Count {
        colours,
        amount: c.amounts[0],
    });
    if c.amount_not { s.not() } else { s }
}

fn negate_if(not: bool, s: Statement) -> Statement {
    if not { s.not() } else { s }
}

fn count(c: &Caps) -> Vec<Statement> {
    one(negate_if(c.not, count_of(c, c.colours[0])))
}

/// "All tiles are not red": none is red, or not all are.
fn count_not_after(c: &Caps) -> Vec<Statement> {
    let colours = c.colours[0];
    let none_of = Colours::from_mask(!colours.mask());
    let mut out = Vec::new();
    if let Some(others) = none_of {
        out.push(negate_if(c.amount_not, count_of(c, others)));
    }
    if c.amounts[0] == Amount::All && !c.amount_not {
        out.push(count_of(c, colours).not());
    }
    out
}

fn appears(c: &Caps) -> Vec<Statement> {
    one(negate_if(
        c.not,
        Atom::Count {
            colours: c.colours[0],
            amount: Amount::SOME,
        }
        .into(),
    ))
}

fn list_appear(c: &Caps) -> Vec<Statement> {
    let parts = c.lists[0]
        .iter()
        .map(|&col| {
            negate_if(
                c.not,
                Atom::Count {
                    colours: Colours::one(col),
                    amount: Amount::SOME,
                }
                .into(),
            )
        })
        .collect();
    one(Statement::and(parts))
}

fn only_list(c: &Caps) -> Vec<Statement> {
    let set = c.lists[0]
        .iter()
        .fold(0u8, |m, &col| m | Colours::one(col).mask());
    one(Atom::Count {
        colours: Colours::from_mask(set).expect("a colour"),
        amount: Amount::All,
    }
    .into())
}

fn colour_amount(c: &Caps) -> Vec<Statement> {
    let s = Statement::from(Atom::Colours(c.amounts[0].of(4)));
    one(negate_if(c.not ^ c.amount_not, s))
}

fn colours_exact(k: u8) -> Statement {
    Atom::Colours(Amount::exactly(k)).into()
}

fn compare(c: &Caps, cmp: Cmp, factor: u8) -> Vec<Statement> {
    let cmp = if c.not { cmp.negated() } else { cmp };
    let (left, right) = (c.colours[0], c.colours[1]);
    let mut out = vec![
        Atom::Compare {
            left,
            cmp,
            factor,
            right,
        }
        .into(),
    ];
    // "than blue or green": than the two together, or than each?
    if right.len() > 1 && !c.combined {
        out.push(Statement::and(
            right
                .iter()
                .map(|col| {
                    Atom::Compare {
                        left,
                        cmp,
                        factor,
                        right: Colours::one(col),
                    }
                    .into()
                })
                .collect(),
        ));
    }
    out
}

fn compare_combined(c: &Caps, cmp: Cmp) -> Vec<Statement> {
    let cmp = if c.not { cmp.negated() } else { cmp };
    let right = c.lists[0]
        .iter()
        .fold(0u8, |m, &col| m | Colours::one(col).mask());
    one(Atom::Compare {
        left: c.colours[0],
        cmp,
        factor: 1,
        right: Colours::from_mask(right).expect("a colour"),
    }
    .into())
}

fn compare_each(c: &Caps, cmp: Cmp) -> Vec<Statement> {
    let cmp = if c.not { cmp.negated() } else { cmp };
    one(Statement::and(
        c.lists[0]
            .iter()
            .map(|&col| {
                Atom::Compare {
                    left: c.colours[0],
                    cmp,
                    factor: 1,
                    right: Colours::one(col),
                }
                .into()
            })
            .collect(),
    ))
}

/// "Twice as many tiles are red as blue", "at least three times as many".
fn factor_compare(c: &Caps) -> Vec<Statement> {
    compare(c, c.cmps[0], c.factor)
}

fn more(c: &Caps) -> Vec<Statement> {
    compare(c, c.cmps[0], 1)
}

fn extreme(c: &Caps, most: bool) -> Vec<Statement> {
    single(c)
        .map(|colour| negate_if(c.not, Atom::Extreme { colour, most }.into()))
        .into_iter()
        .collect()
}

fn touch(c: &Caps, quantifier: Quantifier, negated: bool, of: Colours, near: Colours) -> Statement {
    let amount = c.amounts.last().copied().unwrap_or(Amount::SOME);
    let s = Statement::from(Atom::Touch {
        quantifier,
        of,
        near,
        adjacency: c.adjacency[0],
        amount,
    });
    negate_if(negated ^ c.not, s)
}

/// "{q} {colours} tile is adjacent to {amount} {colours} tiles".
fn touch_q(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    one(touch(c, q, neg, c.colours[0], c.colours[1]))
}

/// The same with "another red tile": the second colour is the first.
fn touch_same(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    one(touch(c, q, neg, c.colours[0], c.colours[0]))
}

/// "every tile is adjacent to a red tile": any colour.
fn touch_any_tile(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    one(touch(c, q, neg, Colours::ALL, c.colours[0]))
}

fn touch_some(c: &Caps) -> Vec<Statement> {
    one(touch(
        c,
        Quantifier::Some,
        false,
        c.colours[0],
        c.colours[1],
    ))
}

fn pair(c: &Caps) -> Vec<Statement> {
    one(touch(
        c,
        Quantifier::Some,
        false,
        c.colours[0],
        c.colours[0],
    ))
}

fn no_pair(c: &Caps) -> Vec<Statement> {
    one(touch(c, Quantifier::Some, true, c.colours[0], c.colours[0]))
}

fn same_neighbours(c: &Caps) -> Vec<Statement> {
    let a = c.adjacency.first().copied().unwrap_or(Adjacency::Any);
    one(negate_if(c.not, Atom::SameNeighbours(a).into()))
}

fn no_same_neighbours(c: &Caps) -> Vec<Statement> {
    let a = c.adjacency.first().copied().unwrap_or(Adjacency::Any);
    one(Statement::from(Atom::SameNeighbours(a)).not())
}

fn square(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    let amount = c.amounts.first().copied().unwrap_or(Amount::SOME).of(4);
    one(negate_if(
        neg ^ c.not,
        Atom::Square {
            quantifier: q,
            colours: c.colours[0],
            amount,
        }
        .into(),
    ))
}

fn square_all(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    one(negate_if(
        neg ^ c.not,
        Atom::Square {
            quantifier: q,
            colours: c.colours[0],
            amount: Amount::exactly(4),
        }
        .into(),
    ))
}

fn lines(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    let amount = c.amounts.first().copied().unwrap_or(Amount::SOME);
    one(negate_if(
        neg ^ c.not ^ c.amount_not,
        Atom::Lines {
            line: c.lines[0],
            quantifier: q,
            colours: c.colours[0],
            amount,
        }
        .into(),
    ))
}

fn lines_all(c: &Caps) -> Vec<Statement> {
    let (q, neg) = c.quantifiers[0];
    one(negate_if(
        neg ^ c.not,
        Atom::Lines {
            line: c.lines[0],
            quantifier: q,
            colours: c.colours[0],
            amount: Amount::All,
        }
        .into(),
    ))
}

/// The one colour named (a group is of one colour: "red or blue" reads as
/// nothing there).
fn single(c: &Caps) -> Option<Colour> {
    c.colours[0].single()
}

fn connected(c: &Caps) -> Vec<Statement> {
    let Some(colour) = single(c) else {
        return Vec::new();
    };
    one(negate_if(
        c.not ^ c.amount_not,
        Atom::Groups {
            colour,
            orthogonal: c.orthogonal,
            amount: Amount::at_most(1),
        }
        .into(),
    ))
}

/// "The red tiles form two groups": a bare number is exact here.
fn form_groups(c: &Caps) -> Vec<Statement> {
    let amount = match c.amounts[0] {
        Amount::Range { min, max: None } if c.bare => Amount::exactly(min),
        other => other,
    };
    let Some(colour) = single(c) else {
        return Vec::new();
    };
    one(negate_if(
        c.not,
        Atom::Groups {
            colour,
            orthogonal: c.orthogonal,
            amount,
        }
        .into(),
    ))
}

fn groups(c: &Caps) -> Vec<Statement> {
    let Some(colour) = single(c) else {
        return Vec::new();
    };
    one(negate_if(
        c.not,
        Atom::Groups {
            colour,
            orthogonal: c.orthogonal,
            amount: c.amounts[0],
        }
        .into(),
    ))
}

fn largest(c: &Caps, colour: Option<Colour>) -> Vec<Statement> {
    let amount = c.amounts[0];
    if amount.negated().is_none() && !matches!(amount, Amount::Range { .. }) {
        return Vec::new();
    }
    one(negate_if(
        c.not ^ c.amount_not,
        Atom::Largest {
            colour,
            orthogonal: c.orthogonal,
            amount,
        }
        .into(),
    ))
}

fn largest_of(c: &Caps) -> Vec<Statement> {
    match single(c) {
        Some(colour) => largest(c, Some(colour)),
        None => Vec::new(),
    }
}

fn largest_any(c: &Caps) -> Vec<Statement> {
    largest(c, None)
}

/// "There are three adjacent red tiles": two are a pair, more a group.
fn run_of(c: &Caps) -> Vec<Statement> {
    let Amount::Range { min, max: None } = c.amounts[0] else {
        return Vec::new();
    };
    let adjacency = c.adjacency.first().copied().unwrap_or(Adjacency::Any);
    if min == 2 {
        return one(Statement::from(Atom::Touch {
            quantifier: Quantifier::Some,
            of: c.colours[0],
            near: c.colours[0],
            adjacency,
            amount: Amount::SOME,
        }));
    }
    let Some(colour) = single(c).filter(|_| adjacency != Adjacency::Diagonal && min > 2) else {
        return Vec::new();
    };
    one(Atom::Largest {
        colour: Some(colour),
        orthogonal: adjacency == Adjacency::Orthogonal,
        amount: c.amounts[0],
    }
    .into())
}

/// "The leftmost tile", "the top left tile" (both orders), "the top tile
/// of the leftmost column".
fn tile(c: &Caps) -> Vec<Statement> {
    let positions: Vec<Position> = match c.sides.as_slice() {
        [first] => vec![Position {
            first: *first,
            then: None,
        }],
        [a, b] if a.crosses(*b) => vec![
            Position {
                first: *a,
                then: Some(*b),
            },
            Position {
                first: *b,
                then: Some(*a),
            },
        ],
        _ => Vec::new(),
    };
    positions
        .into_iter()
        .map(|position| {
            negate_if(
                c.not,
                Atom::Tile {
                    position,
                    colours: c.colours[0],
                }
                .into(),
            )
        })
        .collect()
}

/// "The top tile of the leftmost column": the line's side first (a column
/// is the left or right one, a row the top or bottom one).
fn tile_of_line(c: &Caps, column: bool) -> Vec<Statement> {
    let (then, first) = (c.sides[0], c.sides[1]);
    if !then.crosses(first) || matches!(first, Side::Left | Side::Right) != column {
        return Vec::new();
    }
    one(negate_if(
        c.not,
        Atom::Tile {
            position: Position {
                first,
                then: Some(then),
            },
            colours: c.colours[0],
        }
        .into(),
    ))
}

/// The phrasings, by atom. `{not}` takes "not" or nothing; see [`Slot`].
const TABLE: &[(&str, Build)] = &[
    // ---- how many tiles are of a colour
    ("there is|are {not} {amount} {colours} [{tile}]", count),
    (
        "there is|are {not} {amount} {tile} that|which is|are {colours}",
        count,
    ),
    (
        "there is|are {not} {amount} {tile} coloured {colours}",
        count,
    ),
    ("{amount} {colours} {tile}", count),
    ("{amount} {tile} [in total] is|are {not} {colours}", count),
    ("{amount} [{tile}] is|are {colours}", count),
    ("{amount} {tile} is|are {colours} in colour", count),
    ("{amount} {tile} is|are not {colours}", count_not_after),
    (
        "{subject} has|have|contains|contain|includes|include {not} {amount} {colours} {tile}",
        count,
    ),
    (
        "{subject} does|do not have|contain|include {amount} {colours} {tile}",
        |c| one(count_of(c, c.colours[0]).not()),
    ),
    ("the number|count|amount of {colours} {tile} is {is}", |c| {
        one(count_of(c, c.colours[0]))
    }),
    ("the {tile} are all {colours}", |c| {
        one(Atom::Count {
            colours: c.colours[0],
            amount: Amount::All,
        }
        .into())
    }),
    ("the {tile} are not all {colours}", |c| {
        one(Statement::from(Atom::Count {
            colours: c.colours[0],
            amount: Amount::All,
        })
        .not())
    }),
    ("there is|are only {colours} {tile}", |c| {
        one(Atom::Count {
            colours: c.colours[0],
            amount: Amount::All,
        }
        .into())
    }),
    (
        "{colours} appears|appear|occurs|occur|exists|exist [in the subset]",
        appears,
    ),
    ("{colours} is|are present|used", appears),
    ("{colours} does|do {not} appear|occur|exist", appears),
    ("{colours} is|are {not} present", appears),
    ("{colours} is|are absent|missing", |c| {
        one(Atom::Count {
            colours: c.colours[0],
            amount: Amount::NONE,
        }
        .into())
    }),
    ("{colours} appears|occurs {amount} time|times", count),
    ("{colours} {tile} make|makes up {amount} the {tile}", count),
    ("{colours} {tile} are the majority", |c| {
        one(Atom::Count {
            colours: c.colours[0],
            amount: Amount::Half(Cmp::More),
        }
        .into())
    }),
    // ---- which colours appear
    ("{list} [both] appear|occur|exist", list_appear),
    ("{list} [both] do {not} appear|occur", list_appear),
    ("{list} [both|all] are {not} present", list_appear),
    ("there are [both] {list} {tile}", list_appear),
    ("{list} {tile} both|all appear", list_appear),
    ("{subject} has|contains both {list} {tile}", list_appear),
    (
        "only {list} (appear | occur | are present | are used)",
        only_list,
    ),
    (
        "only {colours} (appears | occurs | is present | is used)",
        |c| {
            one(Atom::Count {
                colours: c.colours[0],
                amount: Amount::All,
            }
            .into())
        },
    ),
    ("{subject} has|contains only {list} {tile}", only_list),
    ("there are only {list} {tile}", only_list),
    ("every|each tile is either {list}", |c| {
        let mut c = c.clone();
        c.lists[0].dedup();
        only_list(&c)
    }),
    (
        "{amount} [different|distinct] colour|colours (appear | appears | occur | occurs | are present | is present | are used | is used)",
        colour_amount,
    ),
    (
        "there is|are {not} {amount} [different|distinct] colour|colours [present|used]",
        colour_amount,
    ),
    (
        "{subject} has|have|contains|contain|uses|use {amount} [different|distinct] colour|colours",
        colour_amount,
    ),
    (
        "the {tile} have|are|show {amount} [different|distinct] colour|colours",
        colour_amount,
    ),
    (
        "the number of [different|distinct] colours is {is}",
        colour_amount,
    ),
    (
        "there are {tile} of {amount} [different|distinct] colour|colours",
        colour_amount,
    ),
    (
        "all four colours (appear | are present | are used | occur)",
        |_| one(colours_exact(4)),
    ),
    (
        "(all [four] | every | each) colour|colours (appear | appears | is present | are present | is used | are used | occurs | occur)",
        |_| one(colours_exact(4)),
    ),
    ("there are tiles of all|every [four] colour|colours", |_| {
        one(colours_exact(4))
    }),
    ("every colour is represented|present", |_| {
        one(colours_exact(4))
    }),
    ("no colour is missing|absent", |_| one(colours_exact(4))),
    (
        "a|some|at least one colour is missing|absent|not present",
        |_| one(Atom::Colours(Amount::at_most(3)).into()),
    ),
    (
        "not all [four] colours (appear | are present | are used)",
        |_| one(Atom::Colours(Amount::at_most(3)).into()),
    ),
    ("all [the] {tile} are|have the same colour", |_| {
        one(colours_exact(1))
    }),
    ("every|each tile has|is the same colour", |_| {
        one(colours_exact(1))
    }),
    ("the {tile} are not all the same colour", |_| {
        one(Atom::Colours(Amount::at_least(2)).into())
    }),
    ("not all [the] {tile} are|have the same colour", |_| {
        one(Atom::Colours(Amount::at_least(2)).into())
    }),
    ("only one colour (appears | is present | is used)", |_| {
        one(colours_exact(1))
    }),
    // ---- comparisons
    (
        "there is|are {not} {more} {colours} {tile} than ({colours} [{tile}] | {combined})",
        more,
    ),
    (
        "there is|are {not} {more} {colours} than {colours} {tile}",
        more,
    ),
    (
        "{more} {tile} are {colours} than ({colours} | {combined})",
        more,
    ),
    (
        "{more} of the {tile} are {colours} than ({colours} | {combined})",
        more,
    ),
    (
        "there is|are {not} {more} {colours} {tile} than {list} [{tile}]",
        |c| {
            let mut out = compare_combined(c, c.cmps[0]);
            out.extend(compare_each(c, c.cmps[0]));
            out
        },
    ),
    (
        "there is|are {more} {colours} {tile} than each of {list} [{tile}]",
        |c| compare_each(c, c.cmps[0]),
    ),
    ("{colours} {tile} {not} outnumber {colours} [{tile}]", |c| {
        compare(c, Cmp::More, 1)
    }),
    ("{colours} outnumbers|outnumber {colours}", |c| {
        compare(c, Cmp::More, 1)
    }),
    (
        "{colours} {tile} do|does not outnumber {colours} [{tile}]",
        |c| compare(c, Cmp::AtMost, 1),
    ),
    (
        "{colours} [{tile}] is|are more numerous|common|frequent than ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::More, 1),
    ),
    (
        "{colours} [{tile}] is|are fewer|rarer than ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::Less, 1),
    ),
    (
        "{colours} [{tile}] is|are fewer common|numerous|frequent than ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::Less, 1),
    ),
    (
        "there is|are [exactly] as many {colours} {tile} as ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::Equal, 1),
    ),
    (
        "there is|are {not} [exactly] as many {colours} as {colours} {tile}",
        |c| compare(c, Cmp::Equal, 1),
    ),
    (
        "{howmuch} as many {tile} are {colours} as ({colours} | {combined})",
        |c| compare(c, c.cmps[0], 1),
    ),
    (
        "there is|are at least as many {colours} {tile} as ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::AtLeast, 1),
    ),
    (
        "there is|are at most as many {colours} {tile} as ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::AtMost, 1),
    ),
    (
        "there is|are no more {colours} {tile} than ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::AtMost, 1),
    ),
    (
        "there is|are no fewer {colours} {tile} than ({colours} [{tile}] | {combined})",
        |c| compare(c, Cmp::AtLeast, 1),
    ),
    (
        "there is|are the same number of {colours} and {colours} {tile}",
        |c| compare(c, Cmp::Equal, 1),
    ),
    (
        "there is|are {not} an equal number of {colours} and {colours} {tile}",
        |c| compare(c, Cmp::Equal, 1),
    ),
    ("{colours} and {colours} {tile} are equal in number", |c| {
        compare(c, Cmp::Equal, 1)
    }),
    (
        "the number of {colours} {tile} equals|matches the number of {colours} [{tile}]",
        |c| compare(c, Cmp::Equal, 1),
    ),
    (
        "the number of {colours} {tile} is {not} equal to|the same as the number of {colours} [{tile}]",
        |c| compare(c, Cmp::Equal, 1),
    ),
    (
        "the numbers of {colours} and {colours} {tile} differ|are different",
        |c| compare(c, Cmp::Differ, 1),
    ),
    (
        "the number of {colours} {tile} is {not} greater|larger|bigger|higher|more than the number of {colours} [{tile}]",
        |c| compare(c, Cmp::More, 1),
    ),
    (
        "the number of {colours} {tile} is {not} smaller|fewer|lower than the number of {colours} [{tile}]",
        |c| compare(c, Cmp::Less, 1),
    ),
    (
        "{howmuch} {times} as many {tile} are {colours} as ({colours} | {combined})",
        factor_compare,
    ),
    (
        "there is|are {howmuch} {times} as many {colours} {tile} as ({colours} [{tile}] | {combined})",
        factor_compare,
    ),
    // ---- the most common colour
    (
        "{colours} is {not} the most common|frequent|numerous colour",
        |c| extreme(c, true),
    ),
    (
        "{colours} is {not} the least common|frequent|numerous colour",
        |c| extreme(c, false),
    ),
    (
        "there is|are more {colours} {tile} than [{tile} of] any other colour",
        |c| extreme(c, true),
    ),
    ("more {tile} are {colours} than any other colour", |c| {
        extreme(c, true)
    }),
    ("fewer {tile} are {colours} than any other colour", |c| {
        extreme(c, false)
    }),
    (
        "there is|are fewer {colours} {tile} than [{tile} of] any other colour",
        |c| extreme(c, false),
    ),
    (
        "{colours} appears|occurs more [often] than any other colour",
        |c| extreme(c, true),
    ),
    (
        "{colours} appears|occurs fewer [often] than any other colour",
        |c| extreme(c, false),
    ),
    (
        "another colour has at least as many {tile} as {colours}",
        |c| {
            single(c)
                .map(|colour| Statement::from(Atom::Extreme { colour, most: true }).not())
                .into_iter()
                .collect()
        },
    ),
    (
        "another colour has at most as many {tile} as {colours}",
        |c| {
            single(c)
                .map(|colour| {
                    Statement::from(Atom::Extreme {
                        colour,
                        most: false,
                    })
                    .not()
                })
                .into_iter()
                .collect()
        },
    ),
    ("no colour is more common than {colours}", |c| {
        let Some(colour) = single(c) else {
            return Vec::new();
        };
        one(Statement::and(
            Colour::ALL
                .into_iter()
                .filter(|&x| x != colour)
                .map(|x| {
                    Atom::Compare {
                        left: Colours::one(colour),
                        cmp: Cmp::AtLeast,
                        factor: 1,
                        right: Colours::one(x),
                    }
                    .into()
                })
                .collect(),
        ))
    }),
    // ---- neighbours of other colours
    (
        "{q} {colours} {tile} is|are|lies|sits {not} {nextto} {amount} {colours} {tile}",
        touch_q,
    ),
    (
        "{q} {colours} {tile} is|are {not} {nextto} another {colours} {tile}",
        |c| {
            let (q, neg) = c.quantifiers[0];
            one(touch(c, q, neg, c.colours[0], c.colours[1]))
        },
    ),
    (
        "{q} {colours} {tile} is|are {nextto} another|other {tile} of the same colour",
        touch_same,
    ),
    (
        "{q} {colours} {tile} is|are {not} {nextto} {amount} other {colours} {tile}",
        touch_q,
    ),
    (
        "{q} {tile} is {nextto} {amount} {colours} {tile}",
        touch_any_tile,
    ),
    (
        "{q} {colours} {tile} touches|touch|borders|border|neighbours|neighbour|abuts|abut {amount} {colours} {tile}",
        |c| {
            let mut c = c.clone();
            c.adjacency.insert(0, Adjacency::Any);
            touch_q(&c)
        },
    ),
    (
        "{q} {colours} {tile} orthogonally touches|touch|borders|border {amount} {colours} {tile}",
        |c| {
            let mut c = c.clone();
            c.adjacency.insert(0, Adjacency::Orthogonal);
            touch_q(&c)
        },
    ),
    (
        "{q} {colours} {tile} shares|share a side|an edge with {amount} {colours} {tile}",
        |c| {
            let mut c = c.clone();
            c.adjacency.insert(0, Adjacency::Orthogonal);
            touch_q(&c)
        },
    ),
    (
        "{q} {colours} {tile} has|have {amount} [{adjacent}] {colours} neighbour|neighbours",
        |c| {
            let mut c = c.clone();
            if c.adjacency.is_empty() {
                c.adjacency.push(Adjacency::Any);
            }
            touch_q(&c)
        },
    ),
    (
        "{q} {colours} {tile} has|have {amount} orthogonal neighbour|neighbours that is|are {colours}",
        |c| {
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Orthogonal);
            touch_q(&c)
        },
    ),
    (
        "{q} {colours} {tile} has|have {amount} neighbour|neighbours that is|are {colours}",
        |c| {
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Any);
            touch_q(&c)
        },
    ),
    (
        "{q} {colours} {tile} is|are surrounded by {colours} {tile}",
        |c| {
            let (q, neg) = c.quantifiers[0];
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Any);
            c.amounts.push(Amount::All);
            one(touch(&c, q, neg, c.colours[0], c.colours[1]))
        },
    ),
    (
        "there is|are {not} {amount} {colours} {tile} {nextto} {amount} {colours} {tile}",
        |c| {
            if c.amounts[0] != Amount::SOME && c.amounts[0] != Amount::NONE {
                return Vec::new();
            }
            let mut c = c.clone();
            let negated = c.amounts.remove(0) == Amount::NONE;
            one(touch(
                &c,
                Quantifier::Some,
                negated,
                c.colours[0],
                c.colours[1],
            ))
        },
    ),
    (
        "there is|are {not} {amount} {colours} {tile} with {amount} [{adjacent}] {colours} neighbour|neighbours",
        |c| {
            if c.amounts[0] != Amount::SOME && c.amounts[0] != Amount::NONE {
                return Vec::new();
            }
            let mut c = c.clone();
            let negated = c.amounts.remove(0) == Amount::NONE;
            if c.adjacency.is_empty() {
                c.adjacency.push(Adjacency::Any);
            }
            one(touch(
                &c,
                Quantifier::Some,
                negated,
                c.colours[0],
                c.colours[1],
            ))
        },
    ),
    (
        "there is|are {not} {amount} {colours} {tile} {nextto} another {colours} {tile}",
        |c| {
            if c.amounts[0] != Amount::SOME && c.amounts[0] != Amount::NONE {
                return Vec::new();
            }
            let mut c = c.clone();
            let negated = c.amounts.remove(0) == Amount::NONE;
            one(touch(
                &c,
                Quantifier::Some,
                negated,
                c.colours[0],
                c.colours[1],
            ))
        },
    ),
    (
        "[a|some] {colours} [{tile}] and [a|some] {colours} {tile} are {not} {adjacent} [to each other | to one another]",
        touch_some,
    ),
    (
        "{colours} {tile} and {colours} {tile} are never {adjacent} [to each other | to one another]",
        |c| one(touch(c, Quantifier::Some, true, c.colours[0], c.colours[1])),
    ),
    (
        "{colours} {tile} are never {nextto} {colours} {tile}",
        |c| one(touch(c, Quantifier::Some, true, c.colours[0], c.colours[1])),
    ),
    (
        "{colours} {tile} {not} touch|border {colours} {tile}",
        |c| {
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Any);
            one(touch(
                &c,
                Quantifier::Some,
                false,
                c.colours[0],
                c.colours[1],
            ))
        },
    ),
    (
        "{colours} {tile} never touch|border {colours} {tile}",
        |c| {
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Any);
            one(touch(
                &c,
                Quantifier::Some,
                true,
                c.colours[0],
                c.colours[1],
            ))
        },
    ),
    (
        "{colours} {tile} do not touch|border {colours} {tile}",
        |c| {
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Any);
            one(touch(
                &c,
                Quantifier::Some,
                true,
                c.colours[0],
                c.colours[1],
            ))
        },
    ),
    // ---- a colour beside itself
    (
        "two {colours} {tile} are {adjacent} [to each other | to one another]",
        pair,
    ),
    (
        "two {colours} {tile} touch|border [each other | one another]",
        |c| {
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Any);
            pair(&c)
        },
    ),
    (
        "no two {colours} {tile} are {adjacent} [to each other | to one another]",
        no_pair,
    ),
    (
        "no two {colours} {tile} touch|border [each other | one another]",
        |c| {
            let mut c = c.clone();
            c.adjacency.push(Adjacency::Any);
            no_pair(&c)
        },
    ),
    ("there is|are {amount} {adjacent} {colours} {tile}", run_of),
    ("there is|are no {adjacent} {colours} {tile}", no_pair),
    ("there is|are a pair of {adjacent} {colours} {tile}", pair),
    (
        "some {colours} {tile} are {adjacent} [to each other | to one another]",
        pair,
    ),
    (
        "{colours} {tile} are never {adjacent} [to each other | to one another]",
        no_pair,
    ),
    (
        "the {colours} {tile} are not {adjacent} to each other|one another",
        no_pair,
    ),
    (
        "{amount} {colours} {tile} are {adjacent} [to each other | to one another | in a row]",
        run_of,
    ),
    // ---- neighbours sharing a colour
    (
        "two {adjacent} {tile} (share a colour | share the same colour | have the same colour | have a colour in common)",
        same_neighbours,
    ),
    (
        "two {adjacent} {tile} are [of] the same colour",
        same_neighbours,
    ),
    (
        "some {adjacent} {tile} (share a colour | share the same colour | have the same colour | have a colour in common)",
        same_neighbours,
    ),
    (
        "there is|are {not} two {adjacent} {tile} of|with the same colour",
        same_neighbours,
    ),
    (
        "there is|are {not} a pair of {adjacent} {tile} of|with the same colour",
        same_neighbours,
    ),
    ("{q} {tile} is {nextto} a {tile} of the same colour", |c| {
        let (q, neg) = c.quantifiers[0];
        if q == Quantifier::Every {
            return Vec::new();
        }
        let mut c = c.clone();
        c.not ^= neg;
        same_neighbours(&c)
    }),
    ("{q} {tile} is {nextto} a {tile} of its own colour", |c| {
        let (q, neg) = c.quantifiers[0];
        if q == Quantifier::Every {
            return Vec::new();
        }
        let mut c = c.clone();
        c.not ^= neg;
        same_neighbours(&c)
    }),
    (
        "two {tile} of the same colour are {adjacent}",
        same_neighbours,
    ),
    (
        "no two {adjacent} {tile} (share a colour | share the same colour | have the same colour | have a colour in common)",
        no_same_neighbours,
    ),
    (
        "no two {adjacent} {tile} are [of] the same colour",
        no_same_neighbours,
    ),
    (
        "no two {tile} of the same colour are {adjacent}",
        no_same_neighbours,
    ),
    (
        "{adjacent} {tile} never (share a colour | share the same colour | have the same colour)",
        no_same_neighbours,
    ),
    (
        "{adjacent} {tile} always have|are different colours",
        no_same_neighbours,
    ),
    (
        "all {adjacent} {tile} have|are different colours",
        no_same_neighbours,
    ),
    // ---- 2x2 squares
    (
        "{q} {square} has|have|contains|contain|includes|include {not} {amount} {colours} {tile} [in it]",
        square,
    ),
    (
        "there is|are {not} {q} {square} with|containing|having {amount} {colours} {tile}",
        square,
    ),
    (
        "there is|are {not} {q} {square} that has|contains {amount} {colours} {tile}",
        square,
    ),
    (
        "in {q} {square} there is|are {amount} {colours} {tile}",
        square,
    ),
    (
        "{q} {square} is {not} all|entirely|completely {colours}",
        square_all,
    ),
    ("there is|are {not} {q} {colours} {square}", square_all),
    (
        "{q} {square} has|contains only {colours} {tile}",
        square_all,
    ),
    // ---- rows and columns
    (
        "{q} {line} has|have|contains|contain|includes|include {not} {amount} {colours} {tile}",
        lines,
    ),
    (
        "there is|are {not} {q} {line} with|containing|having {amount} {colours} {tile}",
        lines,
    ),
    (
        "there is|are {not} {q} {line} that has|contains {amount} {colours} {tile}",
        lines,
    ),
    (
        "in {q} {line} there is|are {amount} {colours} {tile}",
        lines,
    ),
    (
        "there is|are {amount} {colours} {tile} in {q} {line}",
        |c| lines(c),
    ),
    (
        "{q} {line} is {not} all|entirely|completely {colours}",
        lines_all,
    ),
    ("{q} {line} has|contains only {colours} {tile}", lines_all),
    ("there is|are {not} {q} {colours} {line}", lines_all),
    // ---- groups
    (
        "[all | all the | all of the | the] {colour} {tile} are {not} [all] {orth} connected|joined",
        connected,
    ),
    (
        "[all | all the | all of the | the] {colour} {tile} are {not} [all] connected orthogonally",
        |c| {
            let mut c = c.clone();
            c.orthogonal = true;
            connected(&c)
        },
    ),
    ("{amount} {colour} {tile} are {orth} connected", |c| {
        if c.amount_not && c.amounts[0] == Amount::All {
            let mut c = c.clone();
            c.amount_not = false;
            c.not = true;
            return connected(&c);
        }
        if c.amounts[0] == Amount::All {
            return connected(c);
        }
        let mut c = c.clone();
        c.adjacency.push(if c.orthogonal {
            Adjacency::Orthogonal
        } else {
            Adjacency::Any
        });
        run_of(&c)
    }),
    (
        "the {colour} {tile} form|make {not} {amount} [single] {orth} {group}",
        form_groups,
    ),
    (
        "the {colour} {tile} do not form|make {amount} [single] {orth} {group}",
        |c| {
            let mut c = c.clone();
            c.not = true;
            form_groups(&c)
        },
    ),
    (
        "there is|are {not} {amount} {orth} {colour} {group}",
        groups,
    ),
    (
        "there is|are {not} {amount} {group} of {colour} {tile}",
        groups,
    ),
    (
        "the largest|biggest {orth} {colour} {group} has|contains|is {not} {amount} {tile}",
        largest_of,
    ),
    (
        "the largest|biggest {orth} {group} of {colour} {tile} has|contains|is {not} {amount} {tile}",
        largest_of,
    ),
    (
        "the largest|biggest {orth} {colour} {group} does not have|contain {amount} {tile}",
        |c| {
            let mut c = c.clone();
            c.not = true;
            largest_of(&c)
        },
    ),
    (
        "the largest|biggest {orth} {group} has|contains|is {not} {amount} {tile}",
        largest_any,
    ),
    (
        "the largest|biggest {orth} {group} does not have|contain {amount} {tile}",
        |c| {
            let mut c = c.clone();
            c.not = true;
            largest_any(&c)
        },
    ),
    (
        "there is|are a|an {orth} {group} of {amount} [connected] {colour} {tile}",
        largest_of,
    ),
    ("there is|are {amount} connected {colour} {tile}", |c| {
        let mut c = c.clone();
        c.adjacency.push(Adjacency::Any);
        run_of(&c)
    }),
    (
        "there is|are a|an {orth} {group} of {amount} {tile} of the same colour",
        largest_any,
    ),
    ("no {colour} {group} has more than {n} {tile}", |c| {
        let mut c = c.clone();
        c.amounts.push(Amount::at_most(c.numbers[0]));
        largest_of(&c)
    }),
    ("every {colour} {group} has at most {n} {tile}", |c| {
        let mut c = c.clone();
        c.amounts.push(Amount::at_most(c.numbers[0]));
        largest_of(&c)
    }),
    // ---- one tile by its position
    ("the {side} {tile} is {not} {colours}", tile),
    ("the {side} {side} {tile} is {not} {colours}", tile),
    (
        "the {tile} in|at the {side} {side} [corner] is {not} {colours}",
        tile,
    ),
    (
        "the {side} {tile} of|in the {side} column is {not} {colours}",
        |c| tile_of_line(c, true),
    ),
    (
        "the {side} {tile} of|in the {side} row is {not} {colours}",
        |c| tile_of_line(c, false),
    ),
];

/// The compiled table.
pub(super) fn forms() -> &'static [Form] {
    static FORMS: OnceLock<Vec<Form>> = OnceLock::new();
    FORMS.get_or_init(|| {
        TABLE
            .iter()
            .map(|&(p, build)| Form {
                pattern: compile(p),
                build,
            })
            .collect()
    })
}

/// Every atom phrase starting at `at`: its meanings and where it ends.
pub(super) fn atoms_at(words: &[String], at: usize) -> Vec<(Statement, usize)> {
    let mut out: Vec<(Statement, usize)> = Vec::new();
    for form in forms() {
        let mut found = Vec::new();
        matches(&form.pattern, words, at, Caps::default(), &mut found);
        for (caps, end) in found {
            for s in (form.build)(&caps) {
                if !out.iter().any(|(x, e)| *e == end && *x == s) {
                    out.push((s, end));
                }
            }
        }
    }
    out
}

/// Every word the table knows (for typos), longest first.
pub(super) fn vocabulary() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        fn collect(els: &[El], out: &mut Vec<&'static str>) {
            for el in els {
                match el {
                    El::Words(ws) => out.extend(ws.iter().copied()),
                    El::Optional(inner) => collect(inner, out),
                    El::OneOf(choices) => choices.iter().for_each(|c| collect(c, out)),
                    El::Slot(_) => {}
                }
            }
        }
        let mut out: Vec<&'static str> = Vec::new();
        for form in forms() {
            collect(&form.pattern, &mut out);
        }
        out.extend(TILE_WORDS);
        out.extend(Colour::ALL.map(|c| c.name()));
        out.extend([
            "least",
            "most",
            "exactly",
            "more",
            "fewer",
            "than",
            "half",
            "odd",
            "even",
            "adjacent",
            "orthogonally",
            "diagonally",
            "touching",
            "neighbouring",
            "next",
            "beside",
            "row",
            "rows",
            "column",
            "columns",
            "square",
            "block",
            "group",
            "region",
            "connected",
            "leftmost",
            "rightmost",
            "top",
            "bottom",
            "and",
            "or",
            "either",
            "neither",
            "nor",
            "both",
            "if",
            "then",
            "unless",
            "not",
            "true",
            "false",
            "case",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "twelve",
            "between",
            "precisely",
            "majority",
            "subset",
            "colours",
            "colour",
            "different",
            "appear",
            "appears",
        ]);
        out.sort_unstable();
        out.dedup();
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn patterns_compile_and_match() {
        let p = compile("there is|are [only] {amount} {colours} {tile}");
        let mut out = Vec::new();
        matches(
            &p,
            &ws("there are at least two red or blue tiles"),
            0,
            Caps::default(),
            &mut out,
        );
        let full: Vec<_> = out.iter().filter(|(_, e)| *e == 9).collect();
        assert_eq!(full.len(), 1);
        assert_eq!(full[0].0.colours[0].mask(), 0b11);
        assert_eq!(full[0].0.amounts[0], Amount::at_least(2));
        for (pattern, _) in TABLE {
            compile(pattern);
        }
    }

    #[test]
    fn atoms_are_found() {
        let words = ws("no tile is red");
        let found = atoms_at(&words, 0);
        assert!(found.iter().any(|(_, e)| *e == 4), "{found:?}");
    }
}

//! The phrasings of the atoms, and the small engine that matches them.
//!
//! The phrasings are data, `forms.txt` beside this file, one a line: a
//! meaning (a builder in `build`) and a pattern of words and slots (filled
//! by `slots`). Every way a pattern matches is kept: the parser then weighs
//! every reading.

use std::sync::OnceLock;

use super::{Adjacency, Amount, Cmp, Colours, Line, Quantifier, Side, Statement};
use crate::grid::Colour;

mod build;
mod slots;

use build::Build;
use slots::{Slot, fill};

/// The phrasings.
const FORMS: &str = include_str!("forms.txt");

/// What the slots of one match took, in order.
#[derive(Clone, Debug, Default)]
pub(super) struct Caps {
    pub(super) amounts: Vec<Amount>,
    /// Whether an amount said "not all"/"not every".
    pub(super) amount_not: bool,
    pub(super) colours: Vec<Colours>,
    pub(super) lists: Vec<Vec<Colour>>,
    pub(super) adjacency: Vec<Adjacency>,
    pub(super) lines: Vec<Line>,
    pub(super) quantifiers: Vec<(Quantifier, bool)>,
    pub(super) sides: Vec<Side>,
    pub(super) numbers: Vec<u8>,
    pub(super) cmps: Vec<Cmp>,
    pub(super) factor: u8,
    /// Whether the last amount was a bare number.
    pub(super) bare: bool,
    /// Whether colours were added up ("blue and green combined").
    pub(super) combined: bool,
    pub(super) not: bool,
    pub(super) orthogonal: bool,
}

/// A part of a compiled pattern.
#[derive(Clone, Debug)]
enum El {
    Words(Vec<&'static str>),
    Optional(Vec<El>),
    OneOf(Vec<Vec<El>>),
    Slot(Slot),
    /// `<not>`, `<any>`, …: what the phrase itself says.
    Mark(Mark),
}

/// What a phrase says by its words alone.
#[derive(Clone, Copy, Debug)]
enum Mark {
    Not,
    Any,
    Orthogonal,
    All,
}

impl Mark {
    fn apply(self, c: &mut Caps) {
        match self {
            Mark::Not => c.not = !c.not,
            Mark::Any => c.adjacency.push(Adjacency::Any),
            Mark::Orthogonal => {
                c.adjacency.push(Adjacency::Orthogonal);
                c.orthogonal = true;
            }
            Mark::All => c.amounts.push(Amount::All),
        }
    }
}

/// One phrasing: its pattern, and the meanings a match gives.
pub(super) struct Form {
    pattern: Vec<El>,
    build: Build,
}

/// Compiles a pattern (see the module's doc).
fn compile(pattern: &'static str) -> Vec<El> {
    type Items = std::iter::Peekable<std::vec::IntoIter<&'static str>>;
    /// The phrases `a | b c` up to `close`, after an opening bracket.
    fn choices(items: &mut Items, close: &str) -> Vec<Vec<El>> {
        items.next();
        let mut choices = vec![seq(items)];
        while items.peek() == Some(&"|") {
            items.next();
            choices.push(seq(items));
        }
        assert_eq!(items.next(), Some(close), "unclosed bracket");
        choices
    }
    fn seq(items: &mut Items) -> Vec<El> {
        let mut out = Vec::new();
        while let Some(&item) = items.peek() {
            match item {
                "]" | ")" | "|" => break,
                "[" => {
                    let mut choices = choices(items, "]");
                    out.push(El::Optional(match choices.len() {
                        1 => choices.pop().expect("one"),
                        _ => vec![El::OneOf(choices)],
                    }));
                }
                "(" => out.push(El::OneOf(choices(items, ")"))),
                w => {
                    items.next();
                    if let Some(name) = w.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
                        out.push(El::Slot(Slot::named(name)));
                    } else if let Some(name) = w.strip_prefix('<').and_then(|w| w.strip_suffix('>'))
                    {
                        out.push(El::Mark(match name {
                            "not" => Mark::Not,
                            "any" => Mark::Any,
                            "orthogonal" => Mark::Orthogonal,
                            "all" => Mark::All,
                            other => panic!("unknown mark <{other}>"),
                        }));
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
        El::Mark(m) => {
            let mut caps = caps;
            m.apply(&mut caps);
            traced(rest, words, at, caps, out, trace);
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

/// The compiled phrasings.
pub(super) fn forms() -> &'static [Form] {
    static COMPILED: OnceLock<Vec<Form>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        FORMS
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|line| {
                let (name, pattern) = line
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("forms.txt: `{line}` has no pattern"));
                Form {
                    pattern: compile(pattern.trim()),
                    build: build::named(name)
                        .unwrap_or_else(|| panic!("forms.txt: no meaning `{name}`")),
                }
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
                    El::Slot(_) | El::Mark(_) => {}
                }
            }
        }
        let mut out: Vec<&'static str> = Vec::new();
        for form in forms() {
            collect(&form.pattern, &mut out);
        }
        out.extend(slots::TILE_WORDS);
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
        assert!(forms().len() > 150);
    }

    #[test]
    fn atoms_are_found() {
        let words = ws("no tile is red");
        let found = atoms_at(&words, 0);
        assert!(found.iter().any(|(_, e)| *e == 4), "{found:?}");
    }
}

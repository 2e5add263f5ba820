//! Every reading of a sentence: its atoms (from `forms`) joined by the
//! connectives English has, with every bracketing English allows.
//!
//! "It is not true that A and B" reads both as "(not A) and B" and as "not
//! (A and B)"; "A and B or C" both ways round; "either A or B" as "or" and
//! as "but not both". The judge then keeps one reading when all mean the
//! same on the subset, and asks which one was meant when they do not.
//!
//! The readings of each span of words are worked out once (a chart, as in
//! CYK parsing): a sentence of n words has n²/2 spans.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use umpire_core::ParseError;

use super::Statement;
use super::forms::{atoms_at, vocabulary};
use super::words::{Word, close_words, words};

/// Readings kept for one span: more means a sentence too tangled to judge.
pub(super) const MAX_READINGS: usize = 24;

/// Words that may open a clause after a connective: an atom that fails
/// there is worth reporting.
const OPENERS: [&str; 14] = [
    "and", "or", "but", "that", "then", "if", "either", "neither", "nor", "both", "unless", ",",
    "xor", "also",
];

struct Chart<'w> {
    words: &'w [String],
    /// Atoms by start: meaning and end.
    atoms: Vec<Vec<(Statement, usize)>>,
    memo: HashMap<(usize, usize), Vec<Statement>>,
}

/// Phrases that say "the following is false" / "…is true".
const NEGATIONS: [&str; 7] = [
    "it is not true that",
    "it is false that",
    "it is not the case that",
    "it is untrue that",
    "it is not so that",
    "not true that",
    "it is incorrect that",
];

fn starts(words: &[String], at: usize, phrase: &str) -> Option<usize> {
    let mut i = at;
    for w in phrase.split(' ') {
        if words.get(i).map(String::as_str) != Some(w) {
            return None;
        }
        i += 1;
    }
    Some(i)
}

fn push_unique(out: &mut Vec<Statement>, s: Statement) {
    if !out.contains(&s) {
        out.push(s);
    }
}

impl Chart<'_> {
    fn word(&self, i: usize) -> &str {
        self.words.get(i).map_or("", String::as_str)
    }

    /// Readings of words `i..j` as one statement.
    fn span(&mut self, i: usize, j: usize) -> Vec<Statement> {
        if i >= j {
            return Vec::new();
        }
        if let Some(found) = self.memo.get(&(i, j)) {
            return found.clone();
        }
        // Guards against cycles while the span is being worked out.
        self.memo.insert((i, j), Vec::new());
        let mut out = Vec::new();
        self.atoms_of(i, j, &mut out);
        self.prefixed(i, j, &mut out);
        self.binary(i, j, &mut out);
        out.truncate(MAX_READINGS + 1);
        self.memo.insert((i, j), out.clone());
        out
    }

    fn atoms_of(&self, i: usize, j: usize, out: &mut Vec<Statement>) {
        for (s, end) in &self.atoms[i] {
            let scoped = [
                "in the subset",
                "in my subset",
                "in this subset",
                "in the selection",
                "at all",
            ]
            .iter()
            .any(|p| starts(self.words, *end, p) == Some(j));
            if *end == j || scoped {
                push_unique(out, s.clone());
            }
        }
    }

    /// "It is not true that …", "both … and …", "either … or …", "neither
    /// … nor …", "if … then …".
    fn prefixed(&mut self, i: usize, j: usize, out: &mut Vec<Statement>) {
        for p in NEGATIONS {
            if let Some(k) = starts(self.words, i, p) {
                for s in self.span(k, j) {
                    push_unique(out, s.not());
                }
            }
        }
        for p in [
            "it is true that",
            "in my subset ,",
            "in the subset ,",
            "in my subset",
        ] {
            if let Some(k) = starts(self.words, i, p) {
                for s in self.span(k, j) {
                    push_unique(out, s);
                }
            }
        }
        match self.word(i) {
            "both" => self.pair(i + 1, j, &["and"], out, |a, b| {
                vec![Statement::and(vec![a, b])]
            }),
            "neither" => self.pair(i + 1, j, &["nor"], out, |a, b| {
                vec![Statement::or(vec![a, b]).not()]
            }),
            "either" => {
                for (end, closer) in [
                    (", but not both", true),
                    ("but not both", true),
                    ("or both", false),
                    (", or both", false),
                ] {
                    let n = end.split(' ').count();
                    if j >= n && starts(self.words, j - n, end) == Some(j) {
                        self.pair(i + 1, j - n, &["or"], out, move |a, b| {
                            vec![if closer {
                                Statement::xor(a, b)
                            } else {
                                Statement::or(vec![a, b])
                            }]
                        });
                    }
                }
                // Without a closer, "either … or" may be exclusive.
                self.pair(i + 1, j, &["or"], out, |a, b| {
                    vec![
                        Statement::or(vec![a.clone(), b.clone()]),
                        Statement::xor(a, b),
                    ]
                });
            }
            "if" => {
                for sep in [", then", "then", ","] {
                    self.pair(i + 1, j, &[sep], out, |a, b| vec![Statement::implies(a, b)]);
                }
            }
            _ => {}
        }
    }

    /// Readings of `i..j` as A `sep` B, made into statements by `make`.
    fn pair(
        &mut self,
        i: usize,
        j: usize,
        seps: &[&str],
        out: &mut Vec<Statement>,
        make: impl Fn(Statement, Statement) -> Vec<Statement>,
    ) {
        for k in i + 1..j {
            for sep in seps {
                let Some(after) = starts(self.words, k, sep) else {
                    continue;
                };
                let left = self.span(i, k);
                if left.is_empty() {
                    continue;
                }
                let right = self.span(after, j);
                for a in &left {
                    for b in &right {
                        for s in make(a.clone(), b.clone()) {
                            push_unique(out, s);
                        }
                    }
                }
            }
        }
    }

    /// A and B, A or B (and lists "A, B and C"), A xor B, A if B, A only if
    /// B, A if and only if B, A unless B.
    fn binary(&mut self, i: usize, j: usize, out: &mut Vec<Statement>) {
        type Make = fn(Vec<Statement>) -> Vec<Statement>;
        let joins: [(&str, Make); 8] = [
            ("and", |v| vec![Statement::and(v)]),
            ("but", |v| vec![Statement::and(v)]),
            ("and also", |v| vec![Statement::and(v)]),
            ("or", |v| vec![Statement::or(v)]),
            ("xor", |v| match <[Statement; 2]>::try_from(v) {
                Ok([a, b]) => vec![Statement::xor(a, b)],
                Err(_) => Vec::new(),
            }),
            ("if and only if", |v| match <[Statement; 2]>::try_from(v) {
                Ok([a, b]) => vec![Statement::iff(a, b)],
                Err(_) => Vec::new(),
            }),
            ("only if", |v| match <[Statement; 2]>::try_from(v) {
                Ok([a, b]) => vec![Statement::implies(a, b)],
                Err(_) => Vec::new(),
            }),
            // "A unless B": A or B, and perhaps not both.
            ("unless", |v| match <[Statement; 2]>::try_from(v) {
                Ok([a, b]) => vec![
                    Statement::or(vec![a.clone(), b.clone()]),
                    Statement::xor(a, b),
                ],
                Err(_) => Vec::new(),
            }),
        ];
        for k in i + 1..j {
            // "A if B" is "if B then A" (but not inside "if and only if").
            if self.word(k) == "if"
                && starts(self.words, k, "if and only if").is_none()
                && self.word(k.wrapping_sub(1)) != "only"
            {
                let left = self.span(i, k);
                if !left.is_empty() {
                    let right = self.span(k + 1, j);
                    for a in &left {
                        for b in &right {
                            push_unique(out, Statement::implies(b.clone(), a.clone()));
                        }
                    }
                }
            }
            for (word, make) in joins {
                let comma = self.word(k) == ",";
                let at = if comma { k + 1 } else { k };
                let Some(after) = starts(self.words, at, word) else {
                    continue;
                };
                let rights = self.span(after, j);
                if rights.is_empty() {
                    continue;
                }
                for items in self.list(i, k) {
                    for b in &rights {
                        let mut v = items.clone();
                        v.push(b.clone());
                        if v.len() > 2 && !matches!(word, "and" | "or" | "but") {
                            continue;
                        }
                        for s in make(v) {
                            push_unique(out, s);
                        }
                        if out.len() > MAX_READINGS {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Readings of `i..j` as a list "A, B, C" (one item or more, split at
    /// commas), item by item.
    fn list(&mut self, i: usize, j: usize) -> Vec<Vec<Statement>> {
        let mut out: Vec<Vec<Statement>> = self.span(i, j).into_iter().map(|s| vec![s]).collect();
        for k in i + 1..j {
            if self.word(k) != "," {
                continue;
            }
            let tails = self.span(k + 1, j);
            if tails.is_empty() {
                continue;
            }
            for head in self.list(i, k) {
                for t in &tails {
                    let mut v = head.clone();
                    v.push(t.clone());
                    out.push(v);
                }
                if out.len() > MAX_READINGS {
                    return out;
                }
            }
        }
        out
    }
}

/// The simplest reading of `text`, as [`Statement::from_str`] gives it.
/// Remembered per thread: a seat's knowledge reads the same sentences from
/// its view again and again.
pub(super) fn simplest(text: &str) -> Result<Statement, ParseError> {
    thread_local! {
        static READ: RefCell<HashMap<String, Result<Statement, ParseError>>> =
            RefCell::new(HashMap::new());
    }
    /// Sentences kept before the memo starts afresh.
    const KEPT: usize = 4096;
    if let Some(found) = READ.with_borrow(|m| m.get(text).cloned()) {
        return found;
    }
    let found = readings(text).map(|mut r| r.swap_remove(0));
    READ.with_borrow_mut(|m| {
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(text.to_string(), found.clone());
    });
    found
}

/// Every distinct reading of `text`, the simplest first; or where it stopped
/// making sense.
pub(super) fn readings(text: &str) -> Result<Vec<Statement>, ParseError> {
    let typed = words(text)?;
    if typed.is_empty() {
        return Err(ParseError::new("an empty statement")
            .at(0)
            .expected(["a statement, like “There are two red tiles.”"]));
    }
    let list: Vec<String> = typed.iter().map(|w| w.text.clone()).collect();
    let mut found = parse_words(&list);
    if found.is_empty() {
        return Err(failure(text, &typed, &list));
    }
    found.sort_by_key(Statement::size);
    Ok(found)
}

fn parse_words(list: &[String]) -> Vec<Statement> {
    let mut chart = Chart {
        words: list,
        atoms: (0..list.len()).map(|i| atoms_at(list, i)).collect(),
        memo: HashMap::new(),
    };
    chart.span(0, list.len())
}

/// Why nothing was read: the furthest any statement got, what it wanted
/// there, and a correction when one word was mistyped.
fn failure(text: &str, typed: &[Word], list: &[String]) -> ParseError {
    let (at, expected) = furthest(list);
    let mut err = match typed.get(at) {
        Some(w) if !vocabulary().contains(&w.text.as_str()) && w.text.parse::<u8>().is_err() => {
            ParseError::new(format!("`{}` is not a word statements use", w.text)).at(w.at)
        }
        Some(w) => ParseError::new(format!("`{}` is not understood here", w.text)).at(w.at),
        None => ParseError::new("the statement ends too early").at(text.chars().count()),
    };
    err = err.expected(expected);
    if let Some((fixed, reading)) = correction(text, typed, list) {
        err = ParseError::new(format!(
            "{}: did you mean “{fixed}”? It reads “{reading}”",
            err.message()
        ))
        .at(err.offset().unwrap_or(0))
        .expected(err.expectations().iter().cloned())
        .suggest(fixed);
    }
    err
}

/// The furthest word any phrasing reached, from the start or after a
/// connective, and the words it wanted there.
fn furthest(list: &[String]) -> (usize, Vec<String>) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain((1..=list.len()).filter(|&i| OPENERS.contains(&list[i - 1].as_str())))
        .collect();
    let mut best = 0;
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    for s in starts {
        for (at, want) in super::forms::reach(list, s) {
            if at > best {
                best = at;
                wanted.clear();
            }
            if at == best {
                wanted.extend(want);
            }
        }
        // A whole clause read here: what may follow it.
        for (_, end) in atoms_at(list, s) {
            if end > best {
                best = end;
                wanted.clear();
            }
            if end == best && end < list.len() {
                wanted.extend(["and", "or", "the end of the statement"].map(String::from));
            }
        }
    }
    (best, wanted.into_iter().take(12).collect())
}

/// The sentence with its unknown words corrected, when exactly one
/// correction reads, and that reading.
fn correction(text: &str, typed: &[Word], list: &[String]) -> Option<(String, String)> {
    let unknown: Vec<usize> = (0..list.len())
        .filter(|&i| {
            let w = list[i].as_str();
            w != "," && !vocabulary().contains(&w) && w.parse::<u8>().is_err()
        })
        .collect();
    if unknown.is_empty() || unknown.len() > 2 {
        return None;
    }
    let options: Vec<Vec<&str>> = unknown
        .iter()
        .map(|&i| {
            close_words(&list[i], vocabulary())
                .into_iter()
                .take(4)
                .collect()
        })
        .collect();
    let mut fixes: Vec<(Vec<String>, Statement)> = Vec::new();
    let mut choice = vec![0usize; unknown.len()];
    'all: loop {
        if options.iter().all(|o| !o.is_empty()) {
            let mut fixed = list.to_vec();
            for (n, &i) in unknown.iter().enumerate() {
                fixed[i] = options[n][choice[n]].to_string();
            }
            let read = parse_words(&fixed);
            if let Some(s) = read.into_iter().min_by_key(Statement::size) {
                fixes.push((fixed, s));
            }
        }
        for n in 0..choice.len() {
            choice[n] += 1;
            if choice[n] < options[n].len() {
                continue 'all;
            }
            choice[n] = 0;
        }
        break;
    }
    let [(fixed, reading)] = <[_; 1]>::try_from(fixes).ok()?;
    // The typed text with each corrected word put in its place.
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut from = 0;
    for &i in &unknown {
        let w = &typed[i];
        out.extend(&chars[from..w.at]);
        out.push_str(&fixed[i]);
        from = w.at + w.len;
    }
    out.extend(&chars[from..]);
    Some((out, reading.to_string()))
}

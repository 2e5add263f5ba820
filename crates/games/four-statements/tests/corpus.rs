//! The corpus (`tests/corpus/statements.txt`): statements as players write
//! them, each judged as the corpus says, and each reading true exactly when
//! the statement is, on random layouts. And the held-out set
//! (`tests/corpus/held-out.txt`), written afresh to measure how much a new
//! player is understood.

use rand::{RngExt, SeedableRng};
use umpire_four_statements::grid::{CellSet, Colour, Grid};
use umpire_four_statements::statement::{Statement, judge};

const CORPUS: &str = include_str!("corpus/statements.txt");
const HELD_OUT: &str = include_str!("corpus/held-out.txt");
const HELD_OUT_2: &str = include_str!("corpus/held-out-2.txt");

/// One line of the corpus.
struct Entry {
    line: usize,
    text: &'static str,
    subset: CellSet,
    /// The reading, or `Err(rule)` for a refusal.
    expected: Result<&'static str, &'static str>,
}

fn entries() -> Vec<Entry> {
    parse(CORPUS)
}

fn parse(text: &'static str) -> Vec<Entry> {
    let mut subset = CellSet::EMPTY;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(cells) = line.strip_prefix('@') {
            subset = CellSet::parse(cells).unwrap_or_else(|e| panic!("line {line_no}: {e}"));
            continue;
        }
        let (text, expected) = line
            .split_once(" => ")
            .unwrap_or_else(|| panic!("line {line_no}: no `=>`"));
        let expected = match expected.strip_prefix("! ") {
            Some(rule) => Err(rule),
            None => Ok(expected),
        };
        out.push(Entry {
            line: line_no,
            text,
            subset,
            expected,
        });
    }
    out
}

#[test]
fn every_corpus_statement_is_judged_as_the_corpus_says() {
    let all = entries();
    assert!(all.len() >= 400, "{} statements", all.len());
    let mut wrong = Vec::new();
    for e in &all {
        let got = match judge(e.text, e.subset) {
            Ok(said) => Ok(said.reading()),
            Err(refusal) => Err(refusal.rule()),
        };
        let expected = e.expected.map(str::to_string);
        if got != expected {
            wrong.push(format!(
                "line {}: {:?}\n    expected {expected:?}\n    got      {got:?}",
                e.line, e.text
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} judged otherwise:\n{}",
        wrong.len(),
        all.len(),
        wrong.join("\n")
    );
}

#[test]
fn every_reading_is_true_exactly_when_its_statement_is() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(400);
    for e in entries() {
        let (Ok(said), Ok(reading)) = (judge(e.text, e.subset), e.expected) else {
            continue;
        };
        let expected: Statement = reading.parse().expect("a reading parses");
        for _ in 0..64 {
            let grid = (0..16).fold(Grid(0), |g, i| {
                g.with(i, Colour::from_index(rng.random_range(0..4)))
            });
            assert_eq!(
                said.statement().eval(e.subset, grid),
                expected.eval(e.subset, grid),
                "line {}: {:?} on {grid}",
                e.line,
                e.text
            );
        }
    }
}

/// A random whole grid.
fn layout(rng: &mut impl rand::Rng) -> Grid {
    (0..16).fold(Grid(0), |g, i| {
        g.with(i, Colour::from_index(rng.random_range(0..4)))
    })
}

/// Of each held-out set, at least 90% are judged with the meaning a host
/// would give them (or refused as a host would refuse them), and none is
/// accepted with another meaning.
#[test]
fn held_out_statements_are_understood() {
    understood(parse(HELD_OUT), "held out");
}

#[test]
fn second_held_out_statements_are_understood() {
    understood(parse(HELD_OUT_2), "held out, second set");
}

fn understood(all: Vec<Entry>, name: &str) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(90);
    let (mut understood, mut wrong, mut missed) = (0, Vec::new(), Vec::new());
    for e in &all {
        let got = judge(e.text, e.subset);
        let verdict = match (&got, e.expected) {
            (Ok(said), Ok(reading)) => {
                let meant: Statement = reading
                    .parse()
                    .unwrap_or_else(|err| panic!("line {}: {reading:?}: {err}", e.line));
                let same = (0..500).all(|_| {
                    let g = layout(&mut rng);
                    said.statement().eval(e.subset, g) == meant.eval(e.subset, g)
                });
                if same { Ok(()) } else { Err(true) }
            }
            (Ok(_), Err(_)) => Err(true),
            (Err(refusal), Err(rule)) if refusal.rule() == rule => Ok(()),
            (Err(_), _) => Err(false),
        };
        let shown = match &got {
            Ok(said) => said.reading(),
            Err(refusal) => format!("! {}: {refusal}", refusal.rule()),
        };
        match verdict {
            Ok(()) => understood += 1,
            Err(true) => wrong.push(format!("line {}: {:?} => {shown}", e.line, e.text)),
            Err(false) => missed.push(format!("line {}: {:?} => {shown}", e.line, e.text)),
        }
    }
    println!(
        "{name}: {understood} of {} understood ({:.1}%), {} misread, {} refused",
        all.len(),
        100.0 * understood as f64 / all.len() as f64,
        wrong.len(),
        missed.len()
    );
    for m in missed.iter().chain(&wrong) {
        println!("  {m}");
    }
    assert!(
        wrong.is_empty(),
        "accepted with another meaning:\n{}",
        wrong.join("\n")
    );
    assert!(
        10 * understood >= 9 * all.len(),
        "{understood} of {} understood",
        all.len()
    );
}

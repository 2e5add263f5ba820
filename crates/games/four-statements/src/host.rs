//! The umpire's judgement of one statement, for a host who runs the game in
//! a chat room (`umpire statement check`): the subset rules, then the
//! statement's reading, its words and its verdict, and its truth on a
//! grid when one is given. It judges exactly as a match does.
//!
//! ```
//! use umpire_four_statements::grid::CellSet;
//! use umpire_four_statements::host::{Ask, Kind, verdict};
//!
//! let ask = Ask::new(CellSet::parse("A1 B1 A2 B2").unwrap());
//! let v = verdict("There are two red tiles.", &ask);
//! assert_eq!(v.kind, Kind::Valid);
//! assert_eq!(v.reading.as_deref(), Some("At least two tiles are red."));
//! let far = Ask::new(CellSet::parse("A1 C3").unwrap());
//! assert_eq!(verdict("There are two red tiles.", &far).rule, Some("subset-connected"));
//! ```

use serde::Serialize;
use umpire_core::RuleViolation;

use crate::grid::{CellSet, Grid};
use crate::statement::{Invalid, Refusal, judge};
use crate::subset_rules;

/// What is asked: the subset, the seat's previous subset, whether No Limit
/// lifts the subset rules, and the grid to tell the truth on.
#[derive(Clone, Debug)]
pub struct Ask {
    pub subset: CellSet,
    pub previous: Option<CellSet>,
    pub no_limit: bool,
    pub layout: Option<Grid>,
}

impl Ask {
    pub fn new(subset: CellSet) -> Ask {
        Ask {
            subset,
            previous: None,
            no_limit: false,
            layout: None,
        }
    }
}

/// Valid, invalid (a rule is broken, by the subset or the statement), or
/// not a statement at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Valid,
    Invalid,
    Unparsable,
}

/// The judgement, as `--json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub valid: bool,
    pub kind: Kind,
    /// The broken rule's key (`notation` when unparsable).
    pub rule: Option<&'static str>,
    /// Why, in words.
    pub reason: Option<String>,
    /// What the statement says, as the umpire reads it.
    pub reading: Option<String>,
    /// Words typed, as the 15-word limit counts them.
    pub words: usize,
    /// The readings of an ambiguous statement, each said unambiguously.
    pub readings: Vec<String>,
    /// A corrected sentence, when a word was mistyped.
    pub suggestion: Option<String>,
    /// Its truth on the layout, when one is given and it is valid.
    pub truth: Option<bool>,
}

/// Judges `text` as the umpire of a match would for `ask`.
pub fn verdict(text: &str, ask: &Ask) -> Verdict {
    let mut v = Verdict {
        valid: false,
        kind: Kind::Invalid,
        rule: None,
        reason: None,
        reading: None,
        words: crate::statement::count_words(text),
        readings: Vec::new(),
        suggestion: None,
        truth: None,
    };
    if !ask.no_limit {
        if let Err(e) = subset_rules(ask.subset, ask.previous) {
            v.rule = Some(e.rule());
            v.reason = Some(format!("the subset: {e}"));
            return v;
        }
    }
    match judge(text, ask.subset) {
        Ok(said) => {
            v.valid = true;
            v.kind = Kind::Valid;
            v.reading = Some(said.reading());
            v.truth = ask.layout.map(|g| said.statement().eval(ask.subset, g));
        }
        Err(refusal) => {
            v.rule = Some(refusal.rule());
            v.reason = Some(match &refusal {
                Refusal::Unparsable(e) => describe(e),
                Refusal::Invalid(e) => e.to_string(),
            });
            match refusal {
                Refusal::Unparsable(e) => {
                    v.kind = Kind::Unparsable;
                    v.suggestion = e.suggestion().map(str::to_string);
                }
                Refusal::Invalid(Invalid::Ambiguous(a)) => v.readings = a.readings,
                Refusal::Invalid(_) => {
                    // What it says, when it reads at all.
                    v.reading = crate::statement::read(text, ask.subset)
                        .ok()
                        .map(|s| s.to_string());
                }
            }
        }
    }
    v
}

/// Text that is no statement, in words: what was wrong, at which
/// character, what was expected there.
fn describe(e: &umpire_core::ParseError) -> String {
    let mut out = e.message().to_string();
    if let Some(at) = e.offset() {
        out += &format!(" (at character {})", at + 1);
    }
    if !e.expectations().is_empty() {
        out += &format!("; expected {}", e.expectations().join(", "));
    }
    out
}

//! Errors: notation that does not parse, actions that break a rule, bad configs.
//!
//! Input is checked in two steps, as in shakmaty: text is first parsed into an
//! action (a [`ParseError`] says where the text went wrong and what was
//! expected), then the action is checked against the state (a rule error
//! names the rule it breaks). Either way the state is left untouched.
//!
//! ```
//! use umpire_core::{ActionError, ParseError};
//!
//! let e = ParseError::new("expected a colour")
//!     .at(8)
//!     .expected(["red", "blue"])
//!     .suggest("red");
//! let shown = ActionError::from(e);
//! assert_eq!(shown.rule, "notation");
//! assert_eq!(shown.at, Some(8));
//! assert_eq!(shown.suggestion.as_deref(), Some("red"));
//! ```

use std::fmt;

use serde::Serialize;

use crate::Seat;

/// Text that is not valid notation: what was wrong, where (a character
/// offset into the text, when known), what was expected there, and a close
/// form the text may have meant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    message: String,
    at: Option<usize>,
    expected: Vec<String>,
    suggestion: Option<String>,
}

impl ParseError {
    pub fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
            at: None,
            expected: Vec::new(),
            suggestion: None,
        }
    }

    /// Where the text went wrong, in characters from its start.
    pub fn at(mut self, offset: usize) -> Self {
        self.at = Some(offset);
        self
    }

    /// What would have been accepted there.
    pub fn expected<S: Into<String>>(mut self, what: impl IntoIterator<Item = S>) -> Self {
        self.expected = what.into_iter().map(Into::into).collect();
        self
    }

    /// A close form the text may have meant.
    pub fn suggest(mut self, text: impl Into<String>) -> Self {
        self.suggestion = Some(text.into());
        self
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn offset(&self) -> Option<usize> {
        self.at
    }

    pub fn expectations(&self) -> &[String] {
        &self.expected
    }

    pub fn suggestion(&self) -> Option<&str> {
        self.suggestion.as_deref()
    }
}

/// An action that breaks a rule of the game. Every game's error type names the
/// rule it breaks with a short stable key (`occupied`, `not-your-turn`, …) and
/// says it in plain words through `Display`.
pub trait RuleViolation: std::error::Error + Send + Sync + 'static {
    /// A short, stable, kebab-case key for the broken rule.
    fn rule(&self) -> &'static str;
}

/// The rules every game shares: acting out of turn or after the end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not {seat}'s turn: waiting for {waiting}")]
    NotYourTurn { seat: Seat, waiting: String },
    #[error("{seat} has already submitted for this round")]
    AlreadySubmitted { seat: Seat },
}

impl RuleViolation for TurnError {
    fn rule(&self) -> &'static str {
        match self {
            TurnError::GameOver => "game-over",
            TurnError::NotYourTurn { .. } => "not-your-turn",
            TurnError::AlreadySubmitted { .. } => "already-submitted",
        }
    }
}

/// Why [`crate::Game::play`] refused an action: the seat may not act now, or
/// the action breaks one of the game's own rules. Games never repeat the
/// turn rules themselves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused<E> {
    #[error(transparent)]
    Turn(#[from] TurnError),
    #[error(transparent)]
    Rule(E),
}

impl<E: RuleViolation> RuleViolation for Refused<E> {
    fn rule(&self) -> &'static str {
        match self {
            Refused::Turn(e) => e.rule(),
            Refused::Rule(e) => e.rule(),
        }
    }
}

/// A config that cannot start a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad config: {0}")]
pub struct ConfigError(pub String);

/// Why an action given as text was refused, in a form every layer above the
/// games can show: the rule key (or `notation` for text that did not parse)
/// and the reason in words; for notation, where and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub struct ActionError {
    pub rule: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl ActionError {
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Self {
        ActionError {
            rule: rule.into(),
            message: message.into(),
            at: None,
            expected: Vec::new(),
            suggestion: None,
        }
    }

    pub fn from_rule(e: &dyn RuleViolation) -> Self {
        ActionError::new(e.rule(), e.to_string())
    }
}

impl From<ParseError> for ActionError {
    fn from(e: ParseError) -> Self {
        ActionError {
            rule: "notation".into(),
            message: e.message,
            at: e.at,
            expected: e.expected,
            suggestion: e.suggestion,
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(at) = self.at {
            write!(f, " (at character {})", at + 1)?;
        }
        if !self.expected.is_empty() {
            write!(f, "; expected {}", self.expected.join(" or "))?;
        }
        if let Some(s) = &self.suggestion {
            write!(f, "; did you mean `{s}`?")?;
        }
        write!(f, " ({})", self.rule)
    }
}

//! Errors: notation that does not parse, actions that break a rule, bad configs.
//!
//! Input is checked in two steps, as in shakmaty: text is first parsed into an
//! action (a [`ParseError`] says what was wrong with the text), then the action
//! is checked against the state (a rule error names the rule it breaks). Either
//! way the state is left untouched.

use std::fmt;

use serde::Serialize;

use crate::Seat;

/// Text that is not valid notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    message: String,
}

impl ParseError {
    pub fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
        }
    }

    pub fn message(&self) -> &str {
        &self.message
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

/// A config that cannot start a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad config: {0}")]
pub struct ConfigError(pub String);

/// Why an action given as text was refused, in a form every layer above the
/// games can show: the rule key (or `notation` for text that did not parse)
/// and the reason in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub struct ActionError {
    pub rule: String,
    pub message: String,
}

impl ActionError {
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Self {
        ActionError {
            rule: rule.into(),
            message: message.into(),
        }
    }

    pub fn from_rule(e: &dyn RuleViolation) -> Self {
        ActionError::new(e.rule(), e.to_string())
    }
}

impl From<ParseError> for ActionError {
    fn from(e: ParseError) -> Self {
        ActionError::new("notation", e.message)
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.rule)
    }
}

//! How a game describes its config options, so a lobby (or any client) can
//! offer them without knowing the game.
//!
//! ```
//! use umpire_core::{ConfigOption, OptionKind};
//!
//! let first_move = ConfigOption::new("first_move", "First move")
//!     .about("The amended rule, or the rulebook's original one")
//!     .kind(OptionKind::choice(&["amended", "original"]));
//! let json = serde_json::to_value(&first_move).unwrap();
//! assert_eq!(json["kind"]["type"], "choice");
//! ```

use serde::Serialize;

/// One option of a game's config: its key in the JSON config, a label, a
/// sentence about it, what values it takes and whether it is hidden. The
/// default value is the game's default config's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigOption {
    pub key: &'static str,
    pub label: &'static str,
    pub about: &'static str,
    pub kind: OptionKind,
    /// Its value is one of the game's secrets (a hidden grid, the cells a
    /// seat is shown): a player must not set it for a match they play,
    /// and players are told when a host did.
    pub hidden: bool,
}

/// The values an option takes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionKind {
    /// `P1` or `P2`.
    Seat,
    /// One of a fixed list of strings.
    Choice { choices: Vec<&'static str> },
    /// A whole number in `min..=max`; `optional` allows `null` (no limit).
    Number { min: i64, max: i64, optional: bool },
    /// `true` or `false`.
    Flag,
    /// Free text (a layout, say); `null` or empty means the default.
    Text { placeholder: &'static str },
}

impl OptionKind {
    pub fn choice(choices: &[&'static str]) -> OptionKind {
        OptionKind::Choice {
            choices: choices.to_vec(),
        }
    }

    /// Free text, shown as `placeholder` while empty.
    pub fn text(placeholder: &'static str) -> OptionKind {
        OptionKind::Text { placeholder }
    }
}

impl ConfigOption {
    /// A seat option by default; set the kind with [`ConfigOption::kind`].
    pub fn new(key: &'static str, label: &'static str) -> ConfigOption {
        ConfigOption {
            key,
            label,
            about: "",
            kind: OptionKind::Seat,
            hidden: false,
        }
    }

    pub fn about(self, about: &'static str) -> ConfigOption {
        ConfigOption { about, ..self }
    }

    pub fn kind(self, kind: OptionKind) -> ConfigOption {
        ConfigOption { kind, ..self }
    }

    /// Whether `value` is one the option takes, as its kind says; else why
    /// not, in words.
    pub fn check(&self, value: &serde_json::Value) -> Result<(), String> {
        let key = self.key;
        match &self.kind {
            OptionKind::Number { min, max, optional } => match value.as_i64() {
                None if value.is_null() && *optional => Ok(()),
                Some(n) if (*min..=*max).contains(&n) => Ok(()),
                _ => Err(format!(
                    "{key} is {value}; it takes a whole number from {min} to {max}{}",
                    if *optional { ", or null for none" } else { "" }
                )),
            },
            OptionKind::Choice { choices } => match value.as_str() {
                Some(c) if choices.contains(&c) => Ok(()),
                _ => Err(format!(
                    "{key} is {value}; it takes one of {}",
                    choices.join(", ")
                )),
            },
            OptionKind::Seat => match value.as_str() {
                Some("P1" | "P2") => Ok(()),
                _ => Err(format!("{key} is {value}; it takes P1 or P2")),
            },
            OptionKind::Flag => match value.is_boolean() {
                true => Ok(()),
                false => Err(format!("{key} is {value}; it takes true or false")),
            },
            OptionKind::Text { .. } => match value.is_string() || value.is_null() {
                true => Ok(()),
                false => Err(format!("{key} is {value}; it takes text")),
            },
        }
    }

    /// Marks the option as one of the game's secrets ([`ConfigOption::hidden`]).
    pub fn hidden(self) -> ConfigOption {
        ConfigOption {
            hidden: true,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_option_takes_only_what_its_kind_says() {
        let rounds = ConfigOption::new("max_rounds", "Round limit").kind(OptionKind::Number {
            min: 1,
            max: 1000,
            optional: true,
        });
        assert!(rounds.check(&json!(1000)).is_ok());
        assert!(rounds.check(&json!(null)).is_ok());
        let e = rounds.check(&json!(100000)).unwrap_err();
        assert_eq!(
            e,
            "max_rounds is 100000; it takes a whole number from 1 to 1000, or null for none"
        );
        assert!(rounds.check(&json!(0)).is_err());
        let first = ConfigOption::new("first", "First").kind(OptionKind::choice(&["a", "b"]));
        assert!(first.check(&json!("a")).is_ok());
        assert!(first.check(&json!("c")).is_err());
        let seat = ConfigOption::new("advantage", "Advantage");
        assert!(seat.check(&json!("P2")).is_ok());
        assert!(seat.check(&json!("P3")).is_err());
    }
}

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

    /// Marks the option as one of the game's secrets ([`ConfigOption::hidden`]).
    pub fn hidden(self) -> ConfigOption {
        ConfigOption {
            hidden: true,
            ..self
        }
    }
}

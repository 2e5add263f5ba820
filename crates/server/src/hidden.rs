//! A game's hidden options (the secrets a host may fix): which a config
//! fixed, and a config with them drawn anew.

use serde_json::Value;
use umpire_core::AnyGame;

/// The labels of the hidden options ([`umpire_core::ConfigOption::hidden`])
/// that a normalized `config` sets to something other than their default:
/// the secrets a host fixed.
pub fn fixed(game: &dyn AnyGame, config: &Value) -> Vec<&'static str> {
    let default = game.default_config();
    game.options()
        .into_iter()
        .filter(|o| o.hidden && config.get(o.key) != default.get(o.key))
        .map(|o| o.label)
        .collect()
}

/// `config` with every hidden option back at its default: a rematch draws
/// its secrets anew.
pub fn without_hidden(game: &dyn AnyGame, config: &Value) -> Value {
    let default = game.default_config();
    let mut config = config.clone();
    for option in game.options().into_iter().filter(|o| o.hidden) {
        if let (Some(config), Some(value)) = (config.as_object_mut(), default.get(option.key)) {
            config.insert(option.key.to_string(), value.clone());
        }
    }
    config
}

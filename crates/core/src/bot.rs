//! Bots: player programs for one seat. A bot is handed a [`SeatView`]: its
//! seat's view and legal actions, never the state, so it cannot cheat. It
//! is shown every view of its seat as the match goes ([`Bot::observe`]), so
//! it can remember what it was shown, as a player would.
//!
//! A game names its bots in its catalogue [`Entry`](crate::Entry), each with
//! a [`Level`]; [`RANDOM`] plays every game.
//!
//! ```
//! use umpire_core::{Level, RANDOM};
//!
//! assert_eq!((RANDOM.name, RANDOM.level), ("random", Level::Easy));
//! assert!((RANDOM.make)("").is_ok());
//! assert_eq!(
//!     (RANDOM.make)("@1s").err().unwrap(),
//!     "this bot takes nothing after its name, not `@1s`"
//! );
//! ```

use std::fmt;

use crate::{MatchRng, SeatView, Think};

/// A player program for one seat of one match.
pub trait Bot: Send {
    /// Shown the seat's view after every change in the match.
    fn observe(&mut self, _seat: SeatView<'_>) {}

    /// Picks an action, in notation, for a seat that must act now. A bot
    /// that searches stops when `think` says so (its deadline passed, or it
    /// was replaced) and answers with the best it has.
    fn choose(&mut self, seat: SeatView<'_>, think: &Think, rng: &mut MatchRng) -> Option<String>;
}

/// How strong a bot is; a player may name a level instead of a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    /// The hard level's search on every core, for longer: costly, so a
    /// server may turn it off.
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A bot that can be named in the CLI and the server.
#[derive(Clone, Copy, Debug)]
pub struct BotInfo {
    pub name: &'static str,
    pub level: Level,
    pub about: &'static str,
    /// Makes the bot from what follows its name (`""`, `":2000"`, `"@200ms"`).
    pub make: fn(&str) -> Result<Box<dyn Bot>, String>,
}

impl BotInfo {
    /// A bot that takes nothing after its name, made by `B::default()`.
    pub const fn plain<B: Bot + Default + 'static>(
        name: &'static str,
        level: Level,
        about: &'static str,
    ) -> BotInfo {
        BotInfo {
            name,
            level,
            about,
            make: |a| plain(a, || Box::<B>::default()),
        }
    }
}

/// For bots that take no argument after their name.
pub fn plain(arg: &str, bot: impl FnOnce() -> Box<dyn Bot>) -> Result<Box<dyn Bot>, String> {
    if arg.is_empty() {
        Ok(bot())
    } else {
        Err(format!(
            "this bot takes nothing after its name, not `{arg}`"
        ))
    }
}

/// The number after a bot's name (`:N`), or `default` without one.
pub fn arg_or<T: std::str::FromStr + fmt::Display + Copy>(
    arg: &str,
    default: T,
    valid: impl Fn(T) -> bool,
) -> Result<T, String> {
    if arg.is_empty() {
        return Ok(default);
    }
    arg.strip_prefix(':')
        .and_then(|n| n.parse::<T>().ok())
        .filter(|&n| valid(n))
        .ok_or_else(|| format!("`{arg}` is not a valid :NUMBER (default :{default})"))
}

/// Uniformly random over the seat's legal actions.
#[derive(Default)]
pub struct Random;

impl Bot for Random {
    fn choose(&mut self, seat: SeatView<'_>, _: &Think, rng: &mut MatchRng) -> Option<String> {
        seat.sample_action(rng)
    }
}

/// The bot that plays every game.
pub static RANDOM: BotInfo =
    BotInfo::plain::<Random>("random", Level::Easy, "uniformly random legal moves");

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_number_after_the_name_is_read_and_checked() {
        assert_eq!(arg_or("", 4usize, |_| true), Ok(4));
        assert_eq!(arg_or(":7", 4usize, |n| n < 10), Ok(7));
        assert_eq!(
            arg_or(":12", 4usize, |n| n < 10),
            Err("`:12` is not a valid :NUMBER (default :4)".to_string())
        );
        assert!(arg_or("7", 4usize, |_| true).is_err());
    }

    #[test]
    fn a_stopped_or_late_think_says_stop() {
        let think = Think::for_at_most(Duration::from_secs(60));
        let shared = think.clone();
        assert!(!think.should_stop());
        shared.stop();
        assert!(think.should_stop());
        assert!(Think::for_at_most(Duration::ZERO).should_stop());
    }
}

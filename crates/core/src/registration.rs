//! A game's one place in the catalogue: the game, its bots and the commands
//! it adds to `umpire`. Each game crate exports one [`Registration`], and
//! the catalogue lists them; the server, the command line, the bots' list
//! and the tests read everything about a game from there, so a game cannot
//! be missing from one of them.
//!
//! ```
//! use umpire_core::Level;
//! use umpire_core::testing::REGISTRATION;
//!
//! let names: Vec<&str> = REGISTRATION.bots().map(|b| b.name).collect();
//! assert_eq!(names, ["random", "eager"]);
//! // A level picks the strongest bot of that level.
//! assert_eq!(REGISTRATION.bot("medium").map(|b| b.name), Some("eager"));
//! assert_eq!(REGISTRATION.bot("eager").map(|b| b.level), Some(Level::Medium));
//! assert!(REGISTRATION.make_bot("eager").is_ok());
//! assert_eq!(
//!     REGISTRATION.make_bot("greedy").err().unwrap(),
//!     "no bot `greedy` for sealed-bids (known: random, eager)"
//! );
//! ```

use std::io::Write;

use crate::{AnyGame, Bot, BotInfo, RANDOM};

/// Everything umpire knows of one game.
pub struct Registration {
    pub game: &'static dyn AnyGame,
    /// The game's own bots, in order of strength within each level
    /// ([`RANDOM`] plays every game and is not listed here).
    pub bots: &'static [BotInfo],
    /// Commands the game adds to the command line (`umpire NAME …`).
    pub commands: &'static [Command],
    /// Words of its rules that code shared by every game has no reason to
    /// say (besides its id and name); a test keeps them out of that code.
    pub words: &'static [&'static str],
}

/// A command a game adds to `umpire`, run with the words after its name.
pub struct Command {
    pub name: &'static str,
    /// Its line in `umpire --help`.
    pub about: &'static str,
    /// Runs it with `args` (the words after its name; `--help` prints its
    /// help), printing to `out` and `err`; returns its exit status.
    pub run: fn(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8,
}

/// A bot's name and what follows it: `search@200ms` is `search` and `@200ms`.
fn split_name(name: &str) -> (&str, &str) {
    let at = name.find([':', '@']).unwrap_or(name.len());
    name.split_at(at)
}

impl Registration {
    pub fn id(&self) -> &'static str {
        self.game.id()
    }

    /// Every bot that plays the game: [`RANDOM`], then the game's own.
    pub fn bots(&self) -> impl Iterator<Item = &'static BotInfo> + Clone + use<> {
        std::iter::once(&RANDOM).chain(self.bots)
    }

    /// The bot that `name` picks: a bot's name, or a level (the strongest
    /// bot of that level). What follows the name (`:N`, `@TIME`) is ignored.
    pub fn bot(&self, name: &str) -> Option<&'static BotInfo> {
        let name = split_name(name).0;
        let named = self.bots().find(|b| b.name == name);
        let by_level = || self.bots().filter(|b| b.level.as_str() == name).last();
        named.or_else(by_level)
    }

    /// A new bot, by name or level, with what follows the name.
    pub fn make_bot(&self, name: &str) -> Result<Box<dyn Bot>, String> {
        match self.bot(name) {
            Some(info) => (info.make)(split_name(name).1).map_err(|e| format!("bot `{name}`: {e}")),
            None => {
                let names: Vec<&str> = self.bots().map(|b| b.name).collect();
                Err(format!(
                    "no bot `{name}` for {} (known: {})",
                    self.id(),
                    names.join(", ")
                ))
            }
        }
    }

    /// The command of this name, if the game adds one.
    pub fn command(&self, name: &str) -> Option<&'static Command> {
        self.commands.iter().find(|c| c.name == name)
    }
}

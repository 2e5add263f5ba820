//! The umpire engine.
//!
//! A game is a plain definition ([`Game`]): setup from a config and a seed,
//! who decides now ([`Decision`]), actions in the rulebook's notation that are
//! applied or refused with the broken rule, a view per viewer that holds only
//! what that viewer may know, an [`Outcome`] with the deciding tiebreak, and a
//! clock policy. [`Match`] adds clocks and a [`Record`]; the erased layer
//! ([`AnyGame`], [`AnyState`]) lets the server, CLI and bots drive any game
//! by id, JSON config and text actions. [`conformance`] is the test suite
//! every game runs.

mod bot;
pub mod bot_checks;
mod clock;
pub mod conformance;
mod decision;
mod erased;
mod error;
mod game;
pub mod grid;
mod matches;
mod options;
mod outcome;
mod players;
mod record;
mod registration;
mod rng;
mod seat;
mod seat_view;
pub mod testing;
mod think;
pub mod words;

pub use bot::{Bot, BotInfo, Level, RANDOM, Random, arg_or, plain};
pub use clock::{ClockPolicy, ClockStatus, Clocks, MAX_CLOCK_MS, MAX_PERIODS, Timeout, TurnClock};
pub use decision::{Decision, Pending, Seats};
pub use erased::{AnyGame, AnyState, Def, Erased, erase};
pub use error::{ActionError, ConfigError, ParseError, Refused, RuleViolation, TurnError};
pub use game::{Game, Render};
pub use grid::{Board, Cell};
pub use matches::{ClockBasis, Match, MatchOptions};
pub use options::{ConfigOption, OptionKind};
pub use outcome::Outcome;
pub use players::{MAX_NAME, Player, check_players, named, seat_name};
pub use record::{By, Entry, RESIGN, Record, ReplayError, TIMEOUT};
pub use registration::{Command, Registration};
pub use rng::{MatchRng, seeded_rng};
pub use seat::{PerSeat, Seat, Viewer};
pub use seat_view::SeatView;
pub use think::Think;

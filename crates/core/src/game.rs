//! The definition of a game: everything the engine needs to run one.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{ClockPolicy, ConfigError, Decision, Outcome, ParseError, RuleViolation, Seat};
use crate::{Timeout, TurnClock, Viewer};

/// A two-player game with its rules, notation, views and clock policy.
///
/// A state is created from a config and a seed, and changes only through
/// [`Game::apply`]. Every random element must come from the seed (through
/// [`crate::seeded_rng`]), so the same seed and the same actions give the same
/// state everywhere.
pub trait Game: Clone + PartialEq + Debug + Send + Sync + 'static {
    /// Match options; `Default` is the rulebook's standard game.
    type Config: Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync;
    /// One action, printed and parsed in the rulebook's notation.
    type Action: Clone + PartialEq + Debug + Display + FromStr<Err = ParseError> + Send;
    /// What one viewer may know of the state.
    type View: Serialize + PartialEq + Debug;
    /// Why an action was refused.
    type Error: RuleViolation;

    /// Stable id, e.g. `masked-army`.
    const ID: &'static str;
    /// Display name.
    const NAME: &'static str;
    /// The rules in our own words, with the notation (Markdown).
    const RULES: &'static str;

    /// Sets up a match.
    fn new(config: &Self::Config, seed: u64) -> Result<Self, ConfigError>;

    /// Who must act now, or that the game is over.
    fn decision(&self) -> Decision;

    /// Applies `seat`'s action. An illegal action returns the broken rule and
    /// leaves the state exactly as it was.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<(), Self::Error>;

    /// All legal actions of `seat` now, lazily; `None` when there are too many
    /// to list (validate instead, and sample with [`Game::sample_action`]).
    /// A seat's legal actions may depend only on what that seat may know.
    fn legal_actions(&self, seat: Seat) -> Option<impl Iterator<Item = Self::Action> + '_>;

    /// A random legal action of `seat`, uniform over the legal actions when
    /// they can be listed. Games with huge action spaces override this.
    fn sample_action<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Self::Action> {
        let mut chosen = None;
        for (seen, action) in self.legal_actions(seat)?.enumerate() {
            if rng.random_range(0..=seen) == 0 {
                chosen = Some(action);
            }
        }
        chosen
    }

    /// What `viewer` may know now. Once the game is over, everything.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The view as a plain-text board for a terminal; `colour` allows ANSI colours.
    fn render(view: &Self::View, colour: bool) -> String;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The match-wide time allowances from the rulebook.
    fn clock_policy(config: &Self::Config) -> ClockPolicy;

    /// The time `seat` has for the decision it faces now.
    fn turn_clock(&self, seat: Seat) -> TurnClock;

    /// What happens when `seat` runs out of time now.
    fn timeout(&self, seat: Seat) -> Timeout<Self::Action>;

    /// A state that `viewer` cannot tell from this one: what the viewer may not
    /// know is redrawn at random, everything it may know is kept. Used to test
    /// that views leak nothing, and by bots that sample hidden information.
    fn resample_hidden<R: Rng + ?Sized>(&self, viewer: Viewer, rng: &mut R) -> Self;
}

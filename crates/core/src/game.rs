//! The definition of a game: everything the engine needs to run one.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Refused;
use crate::{ActionError, ClockPolicy, ConfigError, ConfigOption, Decision, Outcome, ParseError};
use crate::{RuleViolation, Seat, Timeout, TurnClock, Viewer};

/// How a game's view reads to a person: the board for a terminal, what a
/// seat decides now, the latest event. It reads the view alone, so a
/// terminal, a log and a replay say the same from the same view.
pub trait Render {
    /// The view as a plain-text board for a terminal, with a legend for
    /// every symbol; `colour` allows ANSI colours. Who must decide what is
    /// [`Render::prompt`]'s, so a match that ended off the board (a
    /// resignation) shows no turn.
    fn render(&self, colour: bool) -> String;

    /// What `seat` decides now and how to write it, in the game's words,
    /// read from the seat's own view; `None` when it decides nothing. An
    /// action in backticks is legal now as written; a form to fill in is
    /// written without backticks, its blanks in capitals (place PIECE at
    /// CELL). Default: none.
    fn prompt(&self, _seat: Seat) -> Option<String> {
        None
    }

    /// The latest event this view shows, in the game's words ("P2 placed
    /// blue on E5, red on F5"), for terminal play and logs. Default: none.
    fn last_event(&self) -> Option<String> {
        None
    }
}

/// A two-player game with its rules, notation, views and clock policy.
///
/// A state is created from a config and a seed, and changes only through
/// [`Game::play`] and [`Game::timeout`]. Every random element must come from
/// the seed (through [`crate::seeded_rng`]), so the same seed and the same
/// actions give the same state everywhere.
///
/// Hidden information follows OpenSpiel's information states: a viewer's
/// [`Game::View`] holds every public fact and that viewer's own secrets;
/// [`Game::sample`] rebuilds a whole state from a view (plus what a seat
/// remembers of earlier views, [`Game::Memory`]) without ever touching the
/// real state. The conformance suite checks that the two agree.
pub trait Game: Clone + PartialEq + Debug + Send + Sync + 'static {
    /// Match options; `Default` is the rulebook's standard game.
    type Config: Serialize + DeserializeOwned + Default + Clone + Debug + Send + Sync;
    /// One action, printed and parsed in the rulebook's notation.
    type Action: Clone + PartialEq + Debug + Display + FromStr<Err = ParseError> + Send;
    /// What one viewer may know of the state now, and how it reads to a
    /// person ([`Render`]).
    type View: Serialize + DeserializeOwned + PartialEq + Debug + Render + Send + Sync;
    /// What a seat may remember of earlier views (colours it was shown,
    /// answers it was given). `Default` remembers nothing.
    type Memory: Clone + Debug + Default + Send + Sync;
    /// Why an action was refused (the turn rules are core's: [`Refused`]).
    type Error: RuleViolation;

    /// Stable id, lower case words joined by `-` (`sealed-bids`).
    const ID: &'static str;
    /// Display name.
    const NAME: &'static str;
    /// The rules in our own words, with the notation (Markdown).
    const RULES: &'static str;
    /// Names of umpire-view fields whose values follow from others that a
    /// viewer may know without being shown them: in a game of deduction a
    /// statement's truth can follow from the cells a seat knows. The
    /// conformance suite does not ask a sampler to vary them. Default: none.
    const DEDUCIBLE: &'static [&'static str] = &[];
    /// Kinds of decision whose actions may take long to judge (a statement
    /// whose validity is searched for): a server judges them off the
    /// threads that serve everyone else. Default: none.
    const COSTLY: &'static [&'static str] = &[];
    /// Whether the rulebook deletes the earlier moves while the match runs,
    /// so that players play from memory: a terminal then shows only the
    /// current view. Default: no.
    const HIDES_HISTORY: bool = false;
    /// The umpire's rulings the game takes ([`Game::rule`]), in words: how
    /// a host writes one, for the host's console. Empty: none.
    const RULINGS: &'static str = "";

    /// Sets up a match.
    fn new(config: &Self::Config, seed: u64) -> Result<Self, ConfigError>;

    /// The config's options as a lobby should offer them; keys not listed
    /// keep their defaults.
    fn options() -> Vec<ConfigOption> {
        Vec::new()
    }

    /// What each seat must decide now; [`Decision::over`] once the game is over.
    fn decision(&self) -> Decision;

    /// What everyone but the seat itself may know of each seat's decision.
    /// A game whose decisions or time depend on a secret choice (a seat that
    /// chose to guess gets more time) shows a cover here, together with
    /// [`Game::public_turn_clock`]. Default: decisions are public.
    fn public_decision(&self) -> Decision {
        self.decision()
    }

    /// Applies `seat`'s action. Called only for a seat that has a pending
    /// decision (use [`Game::play`]). An illegal action returns the broken
    /// rule and leaves the state exactly as it was.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<(), Self::Error>;

    /// Whether `seat`'s `action` only writes out a choice the rules already
    /// made for it (a draft's forced last pick). A record may hold it or
    /// leave it out: it is accepted even out of turn and changes nothing.
    /// Default: never.
    fn given(&self, _seat: Seat, _action: &Self::Action) -> bool {
        false
    }

    /// The umpire's ruling about `seat`'s play, in the game's notation for
    /// rulings ([`Game::RULINGS`]): a host's final call where the rulebook
    /// gives the host one (accept a statement the machine refused, or
    /// refuse one it accepted). Applied, it returns the ruling in canonical
    /// words; refused, it leaves the state as it was. Only a match with a
    /// host takes rulings. Default: the game takes none.
    fn rule(&mut self, _seat: Seat, _ruling: &str) -> Result<String, ActionError> {
        Err(ActionError::new(
            "no-rulings",
            format!("{} takes no rulings from the umpire", Self::NAME),
        ))
    }

    /// Checks that `seat` may act now, then applies its action.
    fn play(&mut self, seat: Seat, action: &Self::Action) -> Result<(), Refused<Self::Error>> {
        self.decision().require(seat)?;
        self.apply(seat, action).map_err(Refused::Rule)
    }

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

    /// Adds what `view` shows to what a seat remembers. Default: nothing.
    fn remember(_memory: &mut Self::Memory, _view: &Self::View) {}

    /// A whole state that `viewer` cannot tell from the one it sees: built
    /// from `view` and `memory` alone, everything they do not fix drawn at
    /// random, as real play could have produced it. A seat that remembers
    /// everything it was shown may get back the real state.
    fn sample<R: Rng + ?Sized>(
        viewer: Viewer,
        view: &Self::View,
        memory: &Self::Memory,
        rng: &mut R,
    ) -> Self;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The match-wide time allowances from the rulebook.
    fn clock_policy(config: &Self::Config) -> ClockPolicy;

    /// The time `seat` has for the decision it faces now.
    fn turn_clock(&self, seat: Seat) -> TurnClock;

    /// The time everyone else is shown for `seat`'s decision in
    /// [`Game::public_decision`]. Default: the real one.
    fn public_turn_clock(&self, seat: Seat) -> TurnClock {
        self.turn_clock(seat)
    }

    /// `seat` ran out of time: applies the rulebook's effect (a pass, a
    /// skipped turn, pieces lost, a default choice) and says what it did, or
    /// returns [`Timeout::Lose`] without changing anything. The effect need
    /// not be an action a player could send. It must move the seat on to
    /// another decision (or none), or the match would time out for ever.
    fn timeout(&mut self, seat: Seat) -> Timeout;
}

/// The first lines of a [`Game`] impl, for a game that names its types
/// by the convention every game here follows: `Config`, `Action`, `View`
/// and `Illegal` (its error). `id`, `name` and `rules` are [`Game::ID`],
/// [`Game::NAME`] and [`Game::RULES`]; a fourth argument names the
/// [`Game::Memory`] type of a game that keeps one (none: `()`):
///
/// ```ignore
/// impl Game for MyGame {
///     umpire_core::game_header!("my-game", "My Game", include_str!("../RULES.md"));
///
///     fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> { … }
///     …
/// }
/// ```
#[macro_export]
macro_rules! game_header {
    ($id:expr, $name:expr, $rules:expr $(, $memory:ty)? $(,)?) => {
        type Config = Config;
        type Action = Action;
        type View = View;
        type Memory = $crate::game_header!(@memory $($memory)?);
        type Error = Illegal;

        const ID: &'static str = $id;
        const NAME: &'static str = $name;
        const RULES: &'static str = $rules;
    };
    (@memory) => { () };
    (@memory $memory:ty) => { $memory };
}

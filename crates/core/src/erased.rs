//! The type-erased layer: a game id, a JSON config, actions as text and views
//! as JSON. The server, the CLI and the bots' registry drive every game through
//! it without knowing the concrete game.
//!
//! ```
//! use umpire_core::{Seat, Viewer, erase};
//! use umpire_core::testing::SealedBids;
//!
//! let game = erase::<SealedBids>();
//! let mut state = game.start(&game.default_config(), 5).unwrap();
//! assert_eq!(state.apply(Seat::P1, " BID 2 ").unwrap(), "bid 2");
//! assert_eq!(state.apply(Seat::P1, "bid 1").unwrap_err().rule, "already-submitted");
//! assert_eq!(state.view(Viewer::Spectator)["sealed"]["P1"], serde_json::Value::Null);
//! ```

use std::any::Any;
use std::fmt::Debug;
use std::marker::PhantomData;

use serde::Deserialize;
use serde_json::Value;

use crate::{
    ActionError, ClockPolicy, ConfigError, ConfigOption, Decision, Game, MatchRng, Outcome, Render,
    Seat, Timeout, TurnClock, Viewer,
};

/// A game known by its id.
pub trait AnyGame: Send + Sync {
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    /// The rules in our own words, with the notation (Markdown).
    fn rules(&self) -> &'static str;
    /// Whether the rules delete earlier moves while the match runs.
    fn hides_history(&self) -> bool;
    /// How a host writes the umpire's rulings ([`Game::RULINGS`]); empty
    /// when the game takes none.
    fn rulings(&self) -> &'static str;
    /// The standard config with every option spelled out.
    fn default_config(&self) -> Value;
    /// The options a lobby offers, described by the game.
    fn options(&self) -> Vec<ConfigOption>;
    /// Checks a config and fills in every default.
    fn normalize_config(&self, config: &Value) -> Result<Value, ConfigError>;
    /// The rulebook's match-wide clock for this config.
    fn clock_policy(&self, config: &Value) -> Result<ClockPolicy, ConfigError>;
    /// Sets up a match.
    fn start(&self, config: &Value, seed: u64) -> Result<Box<dyn AnyState>, ConfigError>;
    /// Whether actions of decisions of this kind may take long to judge
    /// ([`crate::Game::COSTLY`]).
    fn costly(&self, kind: &str) -> bool;
    /// A random legal action for `seat`, chosen from that seat's view alone
    /// (as a remote client sees it): a state is sampled from the view, and
    /// legal actions depend only on what the seat may know. `Ok(None)` when
    /// the seat has nothing to decide.
    fn sample_action_from_view(
        &self,
        seat: Seat,
        view: &Value,
        rng: &mut MatchRng,
    ) -> Result<Option<String>, String>;
}

/// A running game of some kind.
pub trait AnyState: Send + Sync + Debug {
    fn game_id(&self) -> &'static str;
    fn decision(&self) -> Decision;
    fn public_decision(&self) -> Decision;
    /// Parses an action, checks the turn and applies it; returns it in
    /// canonical notation. On error the state is unchanged.
    fn apply(&mut self, seat: Seat, action: &str) -> Result<String, ActionError>;
    /// Applies the umpire's ruling about `seat` ([`Game::rule`]); returns
    /// it in canonical words. On error the state is unchanged.
    fn rule(&mut self, seat: Seat, ruling: &str) -> Result<String, ActionError>;
    /// The action in canonical notation if it only writes out a choice the
    /// rules already made for `seat` ([`Game::given`]).
    fn given(&self, seat: Seat, action: &str) -> Option<String>;
    fn view(&self, viewer: Viewer) -> Value;
    /// [`AnyState::view`] as JSON text, written straight from the game's
    /// types (the server's hot path: no `Value` tree in between).
    fn view_text(&self, viewer: Viewer) -> String;
    fn render(&self, viewer: Viewer, colour: bool) -> String;
    /// What `seat` decides now, in the game's words, from its own view.
    fn prompt(&self, seat: Seat) -> Option<String>;
    /// The latest event `viewer` sees, in the game's words.
    fn last_event(&self, viewer: Viewer) -> Option<String>;
    fn outcome(&self) -> Option<Outcome>;
    /// Legal actions in notation, or `None` when there are too many to list.
    fn legal_actions(&self, seat: Seat) -> Option<Box<dyn Iterator<Item = String> + '_>>;
    /// [`AnyState::legal_actions`] as a JSON array of strings, written
    /// without a string per action; `None` also past `max` actions.
    fn legal_json(&self, seat: Seat, max: usize) -> Option<String>;
    fn sample_action(&self, seat: Seat, rng: &mut MatchRng) -> Option<String>;
    fn turn_clock(&self, seat: Seat) -> TurnClock;
    fn public_turn_clock(&self, seat: Seat) -> TurnClock;
    /// Applies the game's timeout effect for `seat`.
    fn timeout(&mut self, seat: Seat) -> Timeout;
    fn clone_box(&self) -> Box<dyn AnyState>;
    /// Whether `other` is the same game in the identical state.
    fn same_as(&self, other: &dyn AnyState) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn AnyState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Bytes reserved for a view's or a legal list's JSON text.
const VIEW_CAPACITY: usize = 1024;

/// The erased definition of `G`; see [`erase`].
pub struct Def<G>(PhantomData<fn() -> G>);

/// The erased definition of a game, to register in a catalogue.
pub const fn erase<G: Game>() -> &'static dyn AnyGame {
    &Def::<G>(PhantomData)
}

fn parse_config<G: Game>(config: &Value) -> Result<G::Config, ConfigError> {
    let config = if config.is_null() {
        Value::Object(Default::default())
    } else {
        config.clone()
    };
    let parsed: G::Config =
        serde_json::from_value(config).map_err(|e| ConfigError(format!("{}: {e}", G::ID)))?;
    let value = serde_json::to_value(&parsed).expect("configs serialise");
    for option in G::options() {
        option
            .check(value.get(option.key).unwrap_or(&Value::Null))
            .map_err(|why| ConfigError(format!("{}: {why}", G::ID)))?;
    }
    Ok(parsed)
}

impl<G: Game> AnyGame for Def<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn name(&self) -> &'static str {
        G::NAME
    }

    fn rules(&self) -> &'static str {
        G::RULES
    }

    fn hides_history(&self) -> bool {
        G::HIDES_HISTORY
    }

    fn rulings(&self) -> &'static str {
        G::RULINGS
    }

    fn default_config(&self) -> Value {
        serde_json::to_value(G::Config::default()).expect("configs serialise")
    }

    fn options(&self) -> Vec<ConfigOption> {
        G::options()
    }

    fn normalize_config(&self, config: &Value) -> Result<Value, ConfigError> {
        let config = parse_config::<G>(config)?;
        Ok(serde_json::to_value(config).expect("configs serialise"))
    }

    fn clock_policy(&self, config: &Value) -> Result<ClockPolicy, ConfigError> {
        Ok(G::clock_policy(&parse_config::<G>(config)?))
    }

    fn start(&self, config: &Value, seed: u64) -> Result<Box<dyn AnyState>, ConfigError> {
        Ok(Box::new(Erased(G::new(&parse_config::<G>(config)?, seed)?)))
    }

    fn costly(&self, kind: &str) -> bool {
        G::COSTLY.contains(&kind)
    }

    fn sample_action_from_view(
        &self,
        seat: Seat,
        view: &Value,
        rng: &mut MatchRng,
    ) -> Result<Option<String>, String> {
        let view: G::View =
            G::View::deserialize(view).map_err(|e| format!("not a {} view: {e}", G::ID))?;
        let mut memory = G::Memory::default();
        G::remember(&mut memory, &view);
        let state = G::sample(Viewer::Seat(seat), &view, &memory, rng);
        Ok(state.sample_action(seat, rng).map(|a| a.to_string()))
    }
}

/// A typed state behind the erased interface.
#[derive(Clone, Debug, PartialEq)]
pub struct Erased<G>(pub G);

impl dyn AnyState + '_ {
    /// The typed state, if this is a `G`.
    pub fn downcast<G: Game>(&self) -> Option<&G> {
        self.as_any().downcast_ref::<Erased<G>>().map(|e| &e.0)
    }
}

impl<G: Game> AnyState for Erased<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn decision(&self) -> Decision {
        self.0.decision()
    }

    fn public_decision(&self) -> Decision {
        self.0.public_decision()
    }

    fn apply(&mut self, seat: Seat, action: &str) -> Result<String, ActionError> {
        let action: G::Action = action.parse()?;
        self.0
            .play(seat, &action)
            .map_err(|e| ActionError::from_rule(&e))?;
        Ok(action.to_string())
    }

    fn rule(&mut self, seat: Seat, ruling: &str) -> Result<String, ActionError> {
        self.0.rule(seat, ruling)
    }

    fn given(&self, seat: Seat, action: &str) -> Option<String> {
        let action: G::Action = action.parse().ok()?;
        self.0.given(seat, &action).then(|| action.to_string())
    }

    fn view(&self, viewer: Viewer) -> Value {
        serde_json::to_value(self.0.view(viewer)).expect("views serialise")
    }

    fn view_text(&self, viewer: Viewer) -> String {
        // Room for a usual view up front: growing from serde_json's small
        // buffer copied it several times.
        let mut out = Vec::with_capacity(VIEW_CAPACITY);
        serde_json::to_writer(&mut out, &self.0.view(viewer)).expect("views serialise");
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }

    fn render(&self, viewer: Viewer, colour: bool) -> String {
        self.0.view(viewer).render(colour)
    }

    fn prompt(&self, seat: Seat) -> Option<String> {
        self.0.view(Viewer::Seat(seat)).prompt(seat)
    }

    fn last_event(&self, viewer: Viewer) -> Option<String> {
        self.0.view(viewer).last_event()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn legal_actions(&self, seat: Seat) -> Option<Box<dyn Iterator<Item = String> + '_>> {
        let actions = self.0.legal_actions(seat)?;
        Some(Box::new(actions.map(|a| a.to_string())))
    }

    fn legal_json(&self, seat: Seat, max: usize) -> Option<String> {
        use std::fmt::Write;
        let mut out = Vec::with_capacity(VIEW_CAPACITY);
        // Each action's notation is written once to a buffer and then as one
        // JSON string, not piece by piece through serde's escaping writer.
        let mut notation = String::new();
        out.push(b'[');
        for (n, action) in self.0.legal_actions(seat)?.enumerate() {
            if n == max {
                return None;
            }
            if n > 0 {
                out.push(b',');
            }
            notation.clear();
            write!(notation, "{action}").ok()?;
            serde_json::to_writer(&mut out, notation.as_str()).ok()?;
        }
        out.push(b']');
        String::from_utf8(out).ok()
    }

    fn sample_action(&self, seat: Seat, rng: &mut MatchRng) -> Option<String> {
        self.0.sample_action(seat, rng).map(|a| a.to_string())
    }

    fn turn_clock(&self, seat: Seat) -> TurnClock {
        self.0.turn_clock(seat)
    }

    fn public_turn_clock(&self, seat: Seat) -> TurnClock {
        self.0.public_turn_clock(seat)
    }

    fn timeout(&mut self, seat: Seat) -> Timeout {
        self.0.timeout(seat)
    }

    fn clone_box(&self) -> Box<dyn AnyState> {
        Box::new(self.clone())
    }

    fn same_as(&self, other: &dyn AnyState) -> bool {
        other.as_any().downcast_ref::<Self>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

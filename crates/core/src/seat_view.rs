//! What a bot (or any seat's client) is handed: the seat's view and its own
//! legal actions, never the state. The state sits in a private field, so code
//! outside the engine cannot reach it.

use serde_json::Value;

use crate::{AnyState, Decision, Game, MatchRng, Seat, Viewer};

/// One seat's window on a match.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    state: &'a dyn AnyState,
    seat: Seat,
}

impl<'a> SeatView<'a> {
    pub fn new(state: &'a dyn AnyState, seat: Seat) -> SeatView<'a> {
        SeatView { state, seat }
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    pub fn game_id(&self) -> &'static str {
        self.state.game_id()
    }

    /// Who must act: public in every game.
    pub fn decision(&self) -> Decision {
        self.state.decision()
    }

    /// The seat's view as JSON.
    pub fn view(&self) -> Value {
        self.state.view(Viewer::Seat(self.seat))
    }

    /// The seat's view, typed, when the match is a `G`.
    pub fn typed_view<G: Game>(&self) -> Option<G::View> {
        Some(self.state.downcast::<G>()?.view(Viewer::Seat(self.seat)))
    }

    /// The seat's legal actions, typed, when the match is a `G` and they can be
    /// listed. Legal actions depend only on what the seat may know (the
    /// conformance suite checks this for every game).
    pub fn typed_legal_actions<G: Game>(&self) -> Option<Vec<G::Action>> {
        Some(
            self.state
                .downcast::<G>()?
                .legal_actions(self.seat)?
                .collect(),
        )
    }

    /// The seat's legal actions in notation, when they can be listed.
    pub fn legal_actions(&self) -> Option<Vec<String>> {
        Some(self.state.legal_actions(self.seat)?.collect())
    }

    /// A uniformly random legal action of the seat.
    pub fn sample_action(&self, rng: &mut MatchRng) -> Option<String> {
        self.state.sample_action(self.seat, rng)
    }
}

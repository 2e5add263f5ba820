//! What a bot (or any seat's client) is handed: the seat's view and its own
//! legal actions, never the state. The state sits in a private field, so code
//! outside the engine cannot reach it.
//!
//! ```
//! use umpire_core::{Match, MatchOptions, Seat};
//! use umpire_core::testing::SealedBids;
//!
//! let game = umpire_core::erase::<SealedBids>();
//! let mut m = Match::new(game, &serde_json::json!({}), 1, MatchOptions::untimed()).unwrap();
//! m.submit(Seat::P1, "bid 3", 0).unwrap();
//! let window = m.seat_view(Seat::P2);
//! // P2 sees P1 still bidding, whatever P1 did, and only its own actions.
//! assert_eq!(window.decision().kind(Seat::P1), Some("bid"));
//! assert_eq!(window.legal_actions().unwrap(), ["bid 1", "bid 2", "bid 3", "ponder"]);
//! // A state drawn from P2's window alone: P2 cannot tell it from the real one.
//! let mut rng = umpire_core::seeded_rng(1);
//! let drawn: SealedBids = window.sample(&(), &mut rng).unwrap();
//! assert_eq!(serde_json::to_value(umpire_core::Game::view(&drawn, umpire_core::Viewer::Seat(Seat::P2))).unwrap(), window.view());
//! ```

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

    /// What the seat may know of who must act: its own decision and the
    /// public picture of the other seat's.
    pub fn decision(&self) -> Decision {
        Decision::seen_by(self.state, Viewer::Seat(self.seat))
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

    /// Adds what the seat is shown now to what it remembers.
    pub fn remember<G: Game>(&self, memory: &mut G::Memory) {
        if let Some(view) = self.typed_view::<G>() {
            G::remember(memory, &view);
        }
    }

    /// A whole state consistent with everything the seat sees now and
    /// remembers, drawn at random: built from the seat's view and `memory`
    /// alone, never from the real state. `None` when the match is not a `G`.
    pub fn sample<G: Game, R: rand::Rng + ?Sized>(
        &self,
        memory: &G::Memory,
        rng: &mut R,
    ) -> Option<G> {
        let view = self.typed_view::<G>()?;
        Some(G::sample(Viewer::Seat(self.seat), &view, memory, rng))
    }

    /// A uniformly random legal action of the seat.
    pub fn sample_action(&self, rng: &mut MatchRng) -> Option<String> {
        self.state.sample_action(self.seat, rng)
    }
}

use umpire_core::{MatchRng, SeatView};

use crate::{Bot, Think};

/// Uniformly random over the seat's legal actions.
pub struct Random;

impl Bot for Random {
    fn choose(&mut self, seat: SeatView<'_>, _: &Think, rng: &mut MatchRng) -> Option<String> {
        seat.sample_action(rng)
    }
}

//! Four Statements knowledge for the search. Random play never names the
//! grid, so rollouts say nothing: the search looks a few decisions ahead
//! over the greedy bot's choice and a few others, and judges a position by
//! how close each seat is to knowing the grid (the grids still possible
//! for it, counted exactly by the deduction engine).

use umpire_core::{Game, MatchRng, Seat, Viewer};
use umpire_four_statements::deduce;
use umpire_four_statements::knowledge;
use umpire_four_statements::{Action, FourStatements};

use super::{SearchGame, logistic};
use crate::four_statements::{bluff, claims, reveal};

/// Other actions drawn beside the greedy bot's at each decision.
const OTHERS: usize = 3;
/// Halving the grids left is worth this much lead (logistic scale, bits).
const SCALE: f64 = 2.0;

impl SearchGame for FourStatements {
    const ROLLOUT_DEPTH: usize = 0;
    const EXPLORATION: f64 = 0.3;

    fn candidates(&self, seat: Seat, rng: &mut MatchRng) -> Vec<Action> {
        let view = self.view(Viewer::Seat(seat));
        let known = knowledge::from_view(seat, &view);
        let now = deduce::posterior(&known);
        let greedy = match self.decision().kind(seat) {
            Some("bluff") => Action::Bluff(Box::new(bluff(self, seat, &known, &now, rng))),
            Some("claim") => Action::Claims(claims(&view, seat, &known, &now)),
            Some(_) => reveal(&view, seat, &known, &now, rng),
            None => return Vec::new(),
        };
        let mut options = vec![greedy];
        for _ in 0..OTHERS {
            if let Some(a) = self.sample_action(seat, rng)
                && !options.contains(&a)
            {
                options.push(a);
            }
        }
        options
    }

    fn evaluate(&self) -> f64 {
        let bits = |seat: Seat| {
            let known = knowledge::from_view(seat, &self.view(Viewer::Seat(seat)));
            (deduce::posterior(&known).count.max(1) as f64).log2()
        };
        logistic(bits(Seat::P2) - bits(Seat::P1), SCALE)
    }
}

//! Four Statements knowledge for the search. Random play never names the
//! grid, so rollouts say nothing: the search looks a few decisions ahead
//! over the greedy bot's choices (a few of its bluffs; buying or waiting), and judges a position by
//! how close each seat is to knowing the grid (the grids still possible
//! for it, counted exactly by the deduction engine).

use umpire_core::{Game, MatchRng, Seat, Viewer};
use umpire_four_statements::deduce;
use umpire_four_statements::knowledge;
use umpire_four_statements::{Action, FourStatements};

use super::{Budget, SearchGame, logistic};
use crate::four_statements::{bluff, claims, reveal};

/// The greedy bot's bluffs drawn at each bluff decision.
const BLUFFS: usize = 3;
/// Halving the grids left is worth this much lead (logistic scale, bits).
const SCALE: f64 = 2.0;

impl SearchGame for FourStatements {
    const ROLLOUT_DEPTH: usize = 0;
    const EXPLORATION: f64 = 0.3;
    /// Iterations cost 10 to 20 ms each: 200 ms leave too few to beat the
    /// greedy bot, 20 beat it (docs/strength.md). Two seconds at most.
    const BUDGET: Budget = Budget {
        iterations: Some(20),
        millis: Some(2000),
    };

    fn candidates(&self, seat: Seat, rng: &mut MatchRng) -> Vec<Action> {
        let view = self.view(Viewer::Seat(seat));
        let known = knowledge::from_view(seat, &view);
        let now = deduce::posterior(&known);
        let mut options = Vec::new();
        let mut add = |a: Action| {
            if !options.contains(&a) {
                options.push(a);
            }
        };
        match self.decision().kind(seat) {
            // The greedy bot's bluff drawn a few times: other subsets and
            // statements of the same kind (random ones give away more).
            Some("bluff") => {
                for _ in 0..BLUFFS {
                    add(Action::Bluff(Box::new(bluff(
                        self, seat, &known, &now, rng,
                    ))));
                }
            }
            // The likeliest truths: nothing to weigh.
            Some("claim") => add(Action::Claims(claims(&view, seat, &known, &now))),
            // Greedy's buy or guess, or waiting.
            Some(_) => {
                add(reveal(&view, seat, &known, &now, rng));
                if self.decision().kind(seat) == Some("reveal") {
                    add(Action::Pass);
                }
            }
            None => {}
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

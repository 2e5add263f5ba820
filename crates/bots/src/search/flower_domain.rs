//! Flower Domain knowledge for the search: a move list of 10^5 moves is cut
//! to the greedy bot's best few, and a position is judged by the score lead
//! (the rollout stops at once: random flower moves say little).

use rand::RngExt;
use umpire_core::{MatchRng, Seat};
use umpire_flower_domain::{Action, Colour, FlowerDomain, Phase, garden_regions};

use super::{SearchGame, logistic};
use crate::Think;

/// The search's draft order.
const DRAFT: [Colour; 4] = [Colour::Blue, Colour::Yellow, Colour::Green, Colour::Red];
/// Moves kept per node, by the greedy bot's value.
const KEEP: usize = 12;
/// A lead of this many cells is worth about 73% (logistic scale).
const SCALE: f64 = 3.0;
/// The worth of a cell in a colour's second or third region.
const SECOND: f64 = 0.3;

impl SearchGame for FlowerDomain {
    const ROLLOUT_DEPTH: usize = 2;
    const EXPLORATION: f64 = 0.2;
    const WIDEN: f64 = 1.5;

    fn candidates(&self, seat: Seat, rng: &mut MatchRng) -> Vec<Action> {
        // Before play the leaf value cannot tell the choices apart (the
        // garden is empty), so the draft follows a measured rule: blue and
        // yellow beat red and green (docs/strength.md), so the opponent
        // drafts first, and blue goes before the rest.
        if self.phase() != Phase::Play {
            return crate::flower_domain::setup_action(self, seat.other(), DRAFT)
                .into_iter()
                .collect();
        }
        // The best KEEP by value, ties broken at random; passing is worth 0.
        let mut top: Vec<((i64, u32), Option<Action>)> = vec![((0, rng.random()), None)];
        let think = Think::unlimited();
        crate::flower_domain::for_each_move(self, seat, &think, |value, p| {
            // A tie-break is drawn only for a move that may get in.
            if top.len() >= KEEP && value < top[top.len() - 1].0.0 {
                return;
            }
            let key = (value, rng.random::<u32>());
            if top.len() < KEEP || key > top[top.len() - 1].0 {
                let at = top.partition_point(|(k, _)| *k > key);
                top.insert(at, (key, Some(FlowerDomain::action_of(&p))));
                top.truncate(KEEP);
            }
        });
        top.into_iter()
            .map(|(_, a)| a.unwrap_or(Action::Pass))
            .collect()
    }

    /// The greedy bot's move: random flower moves say little.
    fn rollout_action(&self, seat: Seat, rng: &mut MatchRng) -> Option<Action> {
        match self.phase() {
            Phase::Play => Some(crate::flower_domain::best_action(
                self,
                seat,
                &Think::unlimited(),
                rng,
            )),
            _ => crate::flower_domain::setup_action(self, seat.other(), DRAFT),
        }
    }

    fn evaluate(&self) -> f64 {
        let regions = garden_regions(self.garden());
        let lead: f64 = Colour::ALL
            .iter()
            .map(|&c| {
                // The largest region scores; the next ones may join it.
                let size = |i: usize| regions[c].get(i).map_or(0.0, |r| f64::from(r.count_ones()));
                let largest = size(0) + SECOND * (size(1) + size(2));
                match self.owner(c) {
                    Some(Seat::P1) => largest,
                    Some(Seat::P2) => -largest,
                    None => 0.0,
                }
            })
            .sum();
        logistic(lead, SCALE)
    }
}

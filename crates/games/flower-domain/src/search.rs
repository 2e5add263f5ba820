//! Flower Domain knowledge for the search: a position is judged by each
//! colour's largest region and its room to grow, and a move list of 10^5
//! moves is cut to the best few by that value.

use crate::{
    Action, BOARD, CELLS, Colour, FlowerDomain, Flowers, Phase, Placement, garden_regions,
};
use umpire_core::{MatchRng, Seat};

use crate::bot::{Regions, meadow_colours, setup_action};
use umpire_bots::search::{SearchGame, Tuning, logistic};

/// The search's draft order.
const DRAFT: [Colour; 4] = [Colour::Blue, Colour::Yellow, Colour::Green, Colour::Red];
/// Moves kept per node.
const KEEP: usize = 16;
/// What an empty cell next to a colour's largest region is worth while the
/// meadow is full; it falls with the flowers left to fill it.
const ROOM: f64 = 1.5;
/// A lead of this much value is worth about 73% (logistic scale).
const SCALE: f64 = 3.0;

impl SearchGame for FlowerDomain {
    const TUNING: Tuning = Tuning::EVALUATED;

    fn candidates(&self, seat: Seat, rng: &mut MatchRng) -> Vec<Action> {
        // Before play the value cannot tell the choices apart (the garden
        // is empty), so the draft follows a measured rule: blue and yellow
        // beat red and green (docs/strength.md), so the opponent drafts
        // first, and blue goes before the rest.
        if self.phase() != Phase::Play {
            return setup_action(self, seat.other(), DRAFT)
                .into_iter()
                .collect();
        }
        let mut ranked: Vec<(f64, Action)> = shortlist(self, seat, rng)
            .into_iter()
            .map(|p| {
                (
                    value(self, &after(self, &p), seat),
                    FlowerDomain::action_of(&p),
                )
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        // Passing keeps the position; the first move must be made.
        if self.garden().occupied() != 0 {
            let pass = value(self, self.garden(), seat);
            let at = ranked.partition_point(|(v, _)| *v >= pass);
            ranked.insert(at, (pass, Action::Pass));
        }
        ranked.into_iter().map(|(_, a)| a).collect()
    }

    fn rollout_action(&self, seat: Seat, _rng: &mut MatchRng) -> Option<Action> {
        // Only the draft is played past the tree (the rollout depth is 0).
        setup_action(self, seat.other(), DRAFT)
    }

    fn evaluate(&self) -> f64 {
        logistic(value(self, self.garden(), Seat::P1), SCALE)
    }
}

/// +1 for `me`'s colours, -1 for the opponent's, 0 before the draft.
fn sign(state: &FlowerDomain, colour: Colour, me: Seat) -> f64 {
    match state.owner(colour) {
        Some(s) if s == me => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// What an empty cell next to a largest region is worth now.
fn room(state: &FlowerDomain) -> f64 {
    ROOM * f64::from(state.meadow().occupied().count_ones()) / CELLS as f64
}

/// `garden`'s value for `me` in `state`'s draft and meadow: for each
/// colour, its largest region plus the room it has to grow (the empty
/// cells next to it); `me`'s colours count up, the opponent's down.
fn value(state: &FlowerDomain, garden: &Flowers, me: Seat) -> f64 {
    let empty = !garden.occupied();
    let room = room(state);
    let regions = garden_regions(garden);
    Colour::ALL
        .iter()
        .map(|&c| {
            let (size, next) = regions[c].first().map_or((0, 0), |&r| {
                (r.count_ones(), (BOARD.around(r) & empty).count_ones())
            });
            sign(state, c, me) * (f64::from(size) + room * f64::from(next))
        })
        .sum()
}

/// The garden after `p`.
fn after(state: &FlowerDomain, p: &Placement) -> Flowers {
    let mut garden = *state.garden();
    for (f, t) in p.pairs() {
        if let Some(c) = state.meadow().colour_at_index(f) {
            garden.put(t, c);
        }
    }
    garden
}

/// The `KEEP` moves that most raise [`value`] by an estimate that sums
/// each flower's worth at its garden cell, looked up from a table made
/// once (exact but for flowers of one move next to each other); ties
/// broken at random.
fn shortlist(state: &FlowerDomain, me: Seat, rng: &mut MatchRng) -> Vec<Placement> {
    let empty = !state.garden().occupied();
    let room = room(state);
    let regions = Regions::all(state);
    let next = regions.each_ref().map(|r| BOARD.around(r.first) & empty);
    let worth: [[f64; CELLS]; 4] = std::array::from_fn(|ci| {
        let r = &regions[ci];
        let s = sign(state, Colour::ALL[ci], me);
        std::array::from_fn(|t| {
            let bit = 1u128 << t;
            let merged = r.merged(t);
            // Growth of the largest region, and (to break ties) of any.
            let mut v =
                s * (f64::from(merged.saturating_sub(r.largest())) + 0.001 * f64::from(merged));
            if next[ci] & bit != 0 {
                // Joins the largest region: its empty neighbours become room.
                let fresh = (BOARD.around(bit) & empty & !next[ci]).count_ones();
                v += s * room * (f64::from(fresh) - 1.0);
            }
            // Takes room from every other colour it borders.
            for (oi, &oc) in Colour::ALL.iter().enumerate() {
                if oi != ci && next[oi] & bit != 0 {
                    v -= sign(state, oc, me) * room;
                }
            }
            v
        })
    });
    state
        .move_gen()
        .best(&meadow_colours(state), &worth, KEEP, rng)
        .into_iter()
        .map(|(_, p)| p)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use umpire_core::Game;

    /// A match just drafted: P1 drafts first (red, blue), P2 gets yellow
    /// and green; the meadow is full.
    fn drafted() -> FlowerDomain {
        let mut state = FlowerDomain::new(&Config::default(), 0).unwrap();
        let picks = [Colour::Red, Colour::Yellow, Colour::Green, Colour::Blue];
        while state.phase() != Phase::Play {
            for seat in [Seat::P1, Seat::P2] {
                if state.decision().get(seat).is_some() {
                    let action = setup_action(&state, Seat::P1, picks).unwrap();
                    state.apply(seat, &action).unwrap();
                }
            }
        }
        state
    }

    fn garden(cells: &[(usize, Colour)]) -> Flowers {
        let mut garden = Flowers::default();
        for &(i, c) in cells {
            garden.put(i, c);
        }
        garden
    }

    #[test]
    fn value_counts_largest_regions_and_their_room() {
        let state = drafted();
        assert_eq!(state.owner(Colour::Red), Some(Seat::P1));
        assert_eq!(state.owner(Colour::Yellow), Some(Seat::P2));
        // Red on E5 and F5, six empty cells around, a full meadow.
        let open = garden(&[(44, Colour::Red), (45, Colour::Red)]);
        assert_eq!(value(&state, &open, Seat::P1), 2.0 + 1.5 * 6.0);
        assert_eq!(value(&state, &open, Seat::P2), -(2.0 + 1.5 * 6.0));
        // Yellow on D5 takes one cell of red's room and has three of its own.
        let mut walled = open;
        walled.put(43, Colour::Yellow);
        let v = 2.0 + 1.5 * 5.0 - (1.0 + 1.5 * 3.0);
        assert_eq!(value(&state, &walled, Seat::P1), v);
    }

    #[test]
    fn candidates_are_legal_and_best_first() {
        let mut state = drafted();
        let mut rng = umpire_core::seeded_rng(3);
        for _ in 0..6 {
            let seat = if state.decision().get(Seat::P1).is_some() {
                Seat::P1
            } else {
                Seat::P2
            };
            let list = state.candidates(seat, &mut rng);
            assert!(list.len() <= KEEP + 1 && !list.is_empty());
            let values: Vec<f64> = list
                .iter()
                .map(|a| {
                    let mut next = state.clone();
                    next.apply(seat, a).unwrap();
                    value(&state, next.garden(), seat)
                })
                .collect();
            assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
            let best = list.into_iter().find(|a| *a != Action::Pass).unwrap();
            state.apply(seat, &best).unwrap();
        }
    }
}

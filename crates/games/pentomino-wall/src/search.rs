//! Pentomino Wall knowledge for the search: each decision's options ranked
//! by the greedy bot's measures (a placement by the wall it leaves, a piece
//! to present by how little it helps the opponent), only the best few of
//! the placements kept, and a position judged by the walls' values.

use crate::{Action, Kind, PentominoWall, RoundEnd};
use rand::RngExt;
use umpire_core::{Game, MatchRng, Seat, Viewer};

use crate::bot::{AWKWARD, Weigher, least_useful, orientation_values, value, worth_to};
use umpire_bots::search::{SearchGame, Tuning, logistic};

/// Placements kept per node, by the value of the wall they leave.
const KEEP: usize = 16;
/// A lead of this many points is worth about 73% (logistic scale).
const SCALE: f64 = 4.0;

impl SearchGame for PentominoWall {
    const TUNING: Tuning = Tuning::EVALUATED;

    fn candidates(&self, seat: Seat, rng: &mut MatchRng) -> Vec<Action> {
        let listed = |state: &PentominoWall| -> Vec<Action> {
            state
                .legal_actions(seat)
                .map(Iterator::collect)
                .unwrap_or_default()
        };
        match self.pending(seat) {
            Some(Kind::Draft) => {
                let pool = self.pool();
                let mut takes: Vec<Action> = AWKWARD
                    .into_iter()
                    .filter(|&p| pool.contains(p))
                    .map(|p| Action::Take(p, None))
                    .collect();
                for a in listed(self) {
                    if !takes.contains(&a) {
                        takes.push(a);
                    }
                }
                takes
            }
            Some(Kind::Present) => presents(self, seat),
            Some(Kind::Place) => placements(self, seat, rng),
            Some(Kind::Orient) => {
                let them = seat.other();
                let Some(piece) = self.view(Viewer::Seat(seat)).exchanged[them] else {
                    return listed(self);
                };
                let values = orientation_values(self, them, piece);
                let mut ranked: Vec<(f64, Action)> = piece
                    .orientations()
                    .map(|o| (worth_to(self, them, o, &values), Action::Orient(o)))
                    .collect();
                ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
                ranked.into_iter().map(|(_, a)| a).collect()
            }
            Some(Kind::RoundEnd) => {
                let give = Action::RoundEnd(RoundEnd {
                    give: self.view(Viewer::Seat(seat)).aside[seat],
                    ..RoundEnd::default()
                });
                let mut options = vec![give];
                for _ in 0..8 {
                    if let Some(a) = self.sample_action(seat, rng)
                        && !options.contains(&a)
                    {
                        options.push(a);
                    }
                }
                options
            }
            Some(Kind::First) | None => listed(self),
        }
    }

    fn evaluate(&self) -> f64 {
        let worth = |s: Seat| value(self.wall(s)) + f64::from(self.credits(s));
        logistic(worth(Seat::P1) - worth(Seat::P2), SCALE)
    }
}

/// Each piece of the hand presented in the orientation least useful to
/// the opponent, the most useful other piece set aside; least useful first.
fn presents(state: &PentominoWall, me: Seat) -> Vec<Action> {
    let hand = state.hand(me);
    let mut options: Vec<(f64, crate::Piece, _)> = hand
        .iter()
        .map(|p| {
            let (o, worth) = least_useful(state, me.other(), p);
            (worth, p, o)
        })
        .collect();
    options.sort_by(|a, b| a.0.total_cmp(&b.0));
    options
        .iter()
        .filter_map(|&(_, piece, present)| {
            let aside = options.iter().rev().find(|x| x.1 != piece).map(|x| x.1)?;
            Some(Action::Present { present, aside })
        })
        .collect()
}

/// The KEEP placements that leave the best wall, less the credits paid.
fn placements(state: &PentominoWall, me: Seat, rng: &mut MatchRng) -> Vec<Action> {
    let Some(from) = state.to_place(me) else {
        return Vec::new();
    };
    let weigher = Weigher::new(state.wall(me));
    let mut top: Vec<((f64, u32), Action)> = Vec::with_capacity(KEEP + 1);
    for p in state.placements(me) {
        let (_, paid) = state.reorientation(from, p.orientation);
        let key = (weigher.value_with(p) - f64::from(paid), rng.random::<u32>());
        let better = |k: &(f64, u32)| k.0 > key.0 || (k.0 == key.0 && k.1 > key.1);
        if top.len() < KEEP || !better(&top[top.len() - 1].0) {
            let at = top.partition_point(|(k, _)| better(k));
            top.insert(at, (key, Action::Place(p)));
            top.truncate(KEEP);
        }
    }
    top.into_iter().map(|(_, a)| a).collect()
}

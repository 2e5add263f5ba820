//! A one-turn-ahead Bomb Domain bot.
//!
//! It rebuilds a state from its seat's view (the only secret, the other
//! seat's sealed placement, is drawn at random and never matters to its
//! own choice) and weighs positions by cells held, pieces kept and the
//! best blast its pieces could set off next.

use crate::{Action, BombDomain, Kind, Motion, Placement, Turn};
use rand::RngExt;
use umpire_core::{BotInfo, Cell, Game, MatchRng, Seat, SeatView};

use umpire_core::Think;

/// Bomb Domain's bots, weakest first within a level.
pub(crate) static BOTS: [BotInfo; 3] = umpire_bots::greedy_and_search::<BombDomain, Greedy>(
    "one turn ahead: the move, peg and detonation that leave it the most cells, pieces and blast to come; places where its blasts reach farthest",
);

/// A piece on the board is worth about this many cells: it claims cells
/// as it moves, can blow up, and goes off in the final blast.
const PIECE: i32 = 4;
/// Move steps weighed in full each turn; more are sampled down to this.
const MOTIONS: usize = 400;
/// Placements drawn and weighed each round.
const PLACEMENTS: usize = 300;

/// Plays the turn that leaves it the most cells (and pieces, and blast to
/// come), choosing the move step first and then peg and detonation; places
/// its pieces where their blasts would reach the most cells not its own.
#[derive(Default)]
pub struct Greedy;

/// What `kind` on `cell` would claim if it blew up now, weighed for `me`:
/// the opponent's cells twice (they change hands), nobody's once.
fn blast_gain(state: &BombDomain, me: Seat, kind: Kind, cell: Cell) -> i32 {
    let b = state.board();
    let reach = state.shapes().of(kind, cell) & !b.occupied();
    let theirs = (reach & b.owner[me.other()]).count_ones();
    let nobody = (reach & !b.owner[me] & !b.owner[me.other()]).count_ones();
    (2 * theirs + nobody) as i32
}

/// The best blast `me` could set off next turn.
fn best_blast(state: &BombDomain, me: Seat) -> i32 {
    state
        .pieces(me)
        .into_iter()
        .map(|(k, c)| blast_gain(state, me, k, c))
        .max()
        .unwrap_or(0)
}

/// How good `state` is for `me`, in cells.
fn value(state: &BombDomain, me: Seat) -> i32 {
    let cells = state.cells();
    let pieces = |s: Seat| state.pieces(s).len() as i32;
    cells[me] as i32 - cells[me.other()] as i32 + PIECE * (pieces(me) - pieces(me.other()))
}

/// The state after `me` plays `turn`, if legal.
fn after(state: &BombDomain, me: Seat, turn: Turn) -> Option<BombDomain> {
    let mut next = state.clone();
    next.play(me, &Action::Turn(turn)).ok()?;
    Some(next)
}

/// The highest-scoring item, ties broken at random.
fn best<T: Copy>(items: &[T], rng: &mut MatchRng, score: impl Fn(T) -> Option<i32>) -> Option<T> {
    let mut top: Option<(i32, u32, T)> = None;
    for &item in items {
        let Some(s) = score(item) else { continue };
        let tie = rng.random::<u32>();
        if top.is_none_or(|(ts, tt, _)| (s, tie) > (ts, tt)) {
            top = Some((s, tie, item));
        }
    }
    top.map(|(_, _, item)| item)
}

impl Greedy {
    fn turn(&self, state: &BombDomain, me: Seat, rng: &mut MatchRng) -> Option<Turn> {
        let mut motions = state.motions(me);
        while motions.len() > MOTIONS {
            let i = rng.random_range(1..motions.len());
            motions.swap_remove(i);
        }
        // The move step: cells it claims now, and the blast it sets up.
        let motion = best(&motions, rng, |m| {
            let next = after(
                state,
                me,
                Turn {
                    motion: m,
                    ..Turn::PASS
                },
            )?;
            let setup = match m {
                Some(Motion::Diagonal(_)) => 0,
                _ => best_blast(&next, me) / 2,
            };
            Some(2 * value(&next, me) + setup)
        })?;
        if let Some(Motion::Diagonal(_)) = motion {
            return Some(Turn {
                motion,
                ..Turn::PASS
            });
        }
        // Then the peg and the detonation that follow it.
        let turns = state.turns_with(me, motion);
        best(&turns, rng, |t| Some(value(&after(state, me, t)?, me)))
    }

    fn placement(&self, state: &BombDomain, me: Seat, rng: &mut MatchRng) -> Option<Placement> {
        let drawn: Vec<Placement> = (0..PLACEMENTS)
            .filter_map(|_| state.sample_placement(me, rng))
            .collect();
        best(&drawn, rng, |p| {
            Some(p.pieces().map(|(k, c)| blast_gain(state, me, k, c)).sum())
        })
    }
}

impl umpire_core::Bot for Greedy {
    fn choose(&mut self, seat: SeatView<'_>, _: &Think, rng: &mut MatchRng) -> Option<String> {
        let me = seat.seat();
        let state: BombDomain = seat.sample(&(), rng)?;
        let action = match state.decision().kind(me)? {
            // Moving second gives the last turn before the final blast.
            "first" | "deferred-first" => Action::First(me.other()),
            "place" => Action::Place(self.placement(&state, me, rng)?),
            _ => Action::Turn(self.turn(&state, me, rng)?),
        };
        Some(action.to_string())
    }
}

//! A one-move-ahead Pentomino Wall bot.
//!
//! Everything it decides on is public (the opponent's sealed choice plays
//! no part), so a state sampled from its view serves as the real one. It
//! weighs a wall by its running score, less a penalty for unpainted pockets
//! too small for a pentomino (they can only be filled by overlapping).

use crate::{Action, GRID, Kind, Orientation, PentominoWall, Piece, Placed, RoundEnd, Wall};
use rand::RngExt;
use umpire_core::{BotInfo, Game, MatchRng, Seat, SeatView, Viewer};

use umpire_core::Think;

/// Pentomino Wall's bots, weakest first within a level.
pub(crate) static BOTS: [BotInfo; 3] = umpire_bots::greedy_and_search::<PentominoWall, Greedy>(
    "places each piece where it most raises its wall's score, presents what helps the opponent least, gives set-aside pieces away for credits",
);

/// Places each piece where it most raises its wall's value; presents the
/// piece and orientation whose best placement helps the opponent least and
/// sets aside the one that would help it most; drafts the awkward pieces
/// (to present them) and gives every set-aside piece away for credits.
#[derive(Default)]
pub struct Greedy;

/// Draft order: the pieces hardest to fit first, since the pieces a seat
/// drafts are the ones its opponent will have to place.
pub(crate) const AWKWARD: [Piece; 12] = [
    Piece::X,
    Piece::W,
    Piece::F,
    Piece::Z,
    Piece::N,
    Piece::Y,
    Piece::T,
    Piece::V,
    Piece::U,
    Piece::I,
    Piece::L,
    Piece::P,
];

/// Unpainted cells in pockets of fewer than five cells, of a wall with
/// `painted` cells.
fn pocket_cells(painted: u128) -> u32 {
    let pockets = GRID.groups(GRID.all & !painted).map(u128::count_ones);
    pockets.filter(|&size| size < 5).sum()
}

/// What a wall is worth to its owner, credits aside.
pub(crate) fn value(wall: &Wall) -> f64 {
    wall.total(0) as f64 - 1.5 * f64::from(pocket_cells(wall.painted()))
}

/// [`value`] of `wall` with `p` placed too (without building that wall).
pub(crate) fn value_with(wall: &Wall, p: Placed) -> f64 {
    wall.total_with(p) as f64 - 1.5 * f64::from(pocket_cells(wall.painted() | p.mask()))
}

/// The value of `wall` with its best placement of `o` (any legal anchor).
fn best_with(wall: &Wall, o: Orientation) -> f64 {
    let mut anchors = wall.anchors(o);
    let mut best = f64::NEG_INFINITY;
    while anchors != 0 {
        let at = umpire_core::Cell::from_index(anchors.trailing_zeros() as usize, 10);
        anchors &= anchors - 1;
        best = best.max(value_with(wall, Placed::new(o, at)));
    }
    best
}

/// How good `o`, presented to `to`, is for `to`: its best placement in any
/// orientation it can afford, less the credits that costs.
pub(crate) fn worth_to(
    state: &PentominoWall,
    to: Seat,
    o: Orientation,
    by_orientation: &[(Orientation, f64)],
) -> f64 {
    let credits = state.credits(to);
    by_orientation
        .iter()
        .filter_map(|&(target, v)| {
            let (_, paid) = state.reorientation(o, target);
            (paid <= credits).then_some(v - f64::from(paid))
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Each orientation of `piece` with the best value `to` gets from it.
pub(crate) fn orientation_values(
    state: &PentominoWall,
    to: Seat,
    piece: Piece,
) -> Vec<(Orientation, f64)> {
    let wall = state.wall(to);
    piece
        .orientations()
        .map(|o| (o, best_with(wall, o)))
        .collect()
}

/// The orientation of `piece` that is worth least to `to`, and its worth.
pub(crate) fn least_useful(state: &PentominoWall, to: Seat, piece: Piece) -> (Orientation, f64) {
    let values = orientation_values(state, to, piece);
    piece
        .orientations()
        .map(|o| (o, worth_to(state, to, o, &values)))
        .fold((Orientation::base(piece), f64::INFINITY), |best, x| {
            if x.1 < best.1 { x } else { best }
        })
}

fn present(state: &PentominoWall, me: Seat) -> Option<Action> {
    let them = me.other();
    let options: Vec<(Piece, Orientation, f64)> = state
        .hand(me)
        .iter()
        .map(|p| {
            let (o, worth) = least_useful(state, them, p);
            (p, o, worth)
        })
        .collect();
    let &(piece, o, _) = options.iter().min_by(|a, b| a.2.total_cmp(&b.2))?;
    // Set aside what would help the opponent most, so it is never presented.
    let &(aside, ..) = options
        .iter()
        .filter(|x| x.0 != piece)
        .max_by(|a, b| a.2.total_cmp(&b.2))?;
    Some(Action::Present { present: o, aside })
}

fn place(state: &PentominoWall, me: Seat, think: &Think, rng: &mut MatchRng) -> Option<Action> {
    let from = state.to_place(me)?;
    let wall = state.wall(me);
    let mut best: Option<(f64, Placed)> = None;
    let mut ties = 0u32;
    for (n, p) in state.placements(me).enumerate() {
        if n % 64 == 63 && think.should_stop() {
            break;
        }
        let (_, paid) = state.reorientation(from, p.orientation);
        let v = value_with(wall, p) - f64::from(paid);
        match best {
            Some((b, _)) if v < b => {}
            Some((b, _)) if v == b => {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best = Some((v, p));
                }
            }
            _ => (best, ties) = (Some((v, p)), 1),
        }
    }
    best.map(|(_, p)| Action::Place(p))
}

impl umpire_core::Bot for Greedy {
    fn choose(&mut self, seat: SeatView<'_>, think: &Think, rng: &mut MatchRng) -> Option<String> {
        let me = seat.seat();
        let view = seat.typed_view::<PentominoWall>()?;
        let state = PentominoWall::sample(Viewer::Seat(me), &view, &(), rng);
        let action = match state.pending(me)? {
            Kind::First => Action::First(me),
            Kind::Draft => {
                let pool = state.pool();
                let pick = AWKWARD.into_iter().find(|&p| pool.contains(p))?;
                Action::Take(pick, None)
            }
            Kind::Present => present(&state, me)?,
            Kind::Place => place(&state, me, think, rng)?,
            Kind::Orient => {
                let piece = view.exchanged[me.other()]?;
                Action::Orient(least_useful(&state, me.other(), piece).0)
            }
            Kind::RoundEnd => Action::RoundEnd(RoundEnd {
                give: view.aside[me],
                ..RoundEnd::default()
            }),
        };
        Some(action.to_string())
    }
}

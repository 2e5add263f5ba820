//! A one-move-ahead Pentomino Wall bot.
//!
//! Everything it decides on is public (the opponent's sealed choice plays
//! no part), so a state sampled from its view serves as the real one. It
//! weighs a wall by its running score, less a penalty for unpainted pockets
//! too small for a pentomino (they can only be filled by overlapping).

use crate::{Action, GRID, Kind, Orientation, PentominoWall, Piece, Placed, RoundEnd, Tally, Wall};
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

/// The unpainted cells of a wall and those of them in pockets of fewer
/// than five cells (only overlapping paint can fill those).
#[derive(Clone, Copy, Debug)]
struct Pockets {
    free: u128,
    small: u128,
}

impl Pockets {
    fn of(painted: u128) -> Pockets {
        let free = GRID.all & !painted;
        let small = GRID
            .groups(free)
            .filter(|g| g.count_ones() < 5)
            .fold(0, |small, g| small | g);
        Pockets { free, small }
    }

    fn cells(self) -> u32 {
        self.small.count_ones()
    }

    /// The pocket cells once `mask` is painted too. New paint only splits
    /// the unpainted groups it covers, and each part of a split group
    /// touches it, so only the groups next to it are looked at, and each
    /// only until it has five cells (flooding the whole wall for every
    /// placement weighed was half of the search's time).
    fn cells_with(self, mask: u128) -> u32 {
        let free = self.free & !mask;
        let kept = self.small & !GRID.group(self.small, self.small & mask);
        let mut cells = kept.count_ones();
        let mut seeds = GRID.around(mask) & free & !kept;
        while seeds != 0 {
            let mut part = seeds & seeds.wrapping_neg();
            while part.count_ones() < 5 {
                let next = GRID.grow(part) & free;
                if next == part {
                    cells += part.count_ones();
                    break;
                }
                part = next;
            }
            seeds &= !part;
        }
        cells
    }
}

/// What a wall is worth to its owner, credits aside: its running score
/// less 1.5 a pocket cell.
pub(crate) fn value(wall: &Wall) -> f64 {
    wall.total(0) as f64 - 1.5 * f64::from(Pockets::of(wall.painted()).cells())
}

/// A wall ready to weigh placements on: [`value`] with one more piece,
/// without building that wall.
pub(crate) struct Weigher<'a> {
    tally: Tally<'a>,
    pockets: Pockets,
}

impl Weigher<'_> {
    pub(crate) fn new(wall: &Wall) -> Weigher<'_> {
        Weigher {
            tally: wall.tally(),
            pockets: Pockets::of(wall.painted()),
        }
    }

    pub(crate) fn value_with(&self, p: Placed) -> f64 {
        let pockets = self.pockets.cells_with(p.mask());
        self.tally.total_with(p) as f64 - 1.5 * f64::from(pockets)
    }
}

/// The value of `wall` with its best placement of `o` (any legal anchor).
fn best_with(weigher: &Weigher, o: Orientation) -> f64 {
    let mut anchors = weigher.tally.wall().anchors(o);
    let mut best = f64::NEG_INFINITY;
    while anchors != 0 {
        let at = umpire_core::Cell::from_index(anchors.trailing_zeros() as usize, 10);
        anchors &= anchors - 1;
        best = best.max(weigher.value_with(Placed::new(o, at)));
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
    let weigher = Weigher::new(state.wall(to));
    piece
        .orientations()
        .map(|o| (o, best_with(&weigher, o)))
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
    let weigher = Weigher::new(state.wall(me));
    let mut best: Option<(f64, Placed)> = None;
    let mut ties = 0u32;
    for (n, p) in state.placements(me).enumerate() {
        if n % 64 == 63 && think.should_stop() {
            break;
        }
        let (_, paid) = state.reorientation(from, p.orientation);
        let v = weigher.value_with(p) - f64::from(paid);
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

#[cfg(test)]
mod tests {
    use super::Pockets;
    use crate::{GRID, Piece, Placed};
    use proptest::prelude::*;
    use umpire_core::Cell;

    proptest! {
        /// Weighing a placement's pockets near the piece agrees with
        /// flooding the whole wall, on walls sparse and dense.
        #[test]
        fn pockets_near_a_placement_match_the_whole_wall(
            a: u128,
            b: u128,
            dense: bool,
            piece in 0..12usize,
            turn in 0..8usize,
            at in 0..90usize,
        ) {
            let painted = GRID.all & if dense { a | b } else { a & b };
            let mut orientations: Vec<_> = Piece::ALL[piece].orientations().collect();
            let o = orientations.swap_remove(turn % orientations.len());
            let p = Placed::new(o, Cell::from_index(at, 10));
            prop_assume!(p.fits());
            let whole = Pockets::of(painted | p.mask()).cells();
            prop_assert_eq!(Pockets::of(painted).cells_with(p.mask()), whole);
        }
    }
}

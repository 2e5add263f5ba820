//! Rebuilding a whole state from one viewer's view. Everything is public
//! but the other seat's sealed placement of the open round; a sample draws
//! a legal placement for it, from the board as it stood before the round
//! (what the real submission was checked against).

use rand::Rng;
use umpire_core::{PerSeat, Seat, Viewer};

use crate::board::{Board, GRID, Kind, SIZE};
use crate::view::set_of;
use crate::{BombDomain, Phase, ROUNDS, Sealed, SealedView, Shapes, TURNS, View};

/// The domain rows of a view as two sets (anything but `1` and `2` is
/// nobody's).
fn domain(rows: &[String]) -> PerSeat<u128> {
    let mut owner = PerSeat::<u128>::default();
    for (row, line) in rows.iter().take(SIZE as usize).enumerate() {
        for (col, c) in line.chars().take(SIZE as usize).enumerate() {
            let b = GRID.bit(umpire_core::Cell::new(col as u8, row as u8));
            match c {
                '1' => owner.p1 |= b,
                '2' => owner.p2 |= b,
                _ => {}
            }
        }
    }
    owner.p2 &= !owner.p1;
    owner
}

/// A state `viewer` cannot tell from the one that showed it `view`. A view
/// no real match shows (from a client, say) gives some state, never a panic.
pub fn from_view<R: Rng + ?Sized>(_viewer: Viewer, view: &View, rng: &mut R) -> BombDomain {
    let s = &view.shapes;
    let shapes = Shapes::shared([&s.square, &s.plus, &s.cross, &s.final_blast])
        .unwrap_or_else(|_| Shapes::shared(["", "", "", ""]).expect("the standard shapes"));
    let mut board = Board {
        owner: domain(&view.domain),
        ..Board::default()
    };
    let mut taken = 0u128;
    for seat in Seat::BOTH {
        for kind in Kind::ALL {
            let set = set_of(view.pieces[seat].of(kind)) & !taken;
            board.pieces[seat][kind as usize] = set;
            taken |= set;
        }
    }
    for seat in Seat::BOTH {
        let placed = set_of(&view.pegs[seat]) & !taken;
        taken |= placed;
        let left = set_of(&view.blast_pegs[seat]) & !taken;
        taken |= left;
        board.placed[seat] = placed;
        board.pegs[seat] = placed | left;
    }
    let phase = view.phase;
    let mut game = BombDomain {
        shapes,
        dmo: view.dmo,
        phase,
        deferred: view.deferred,
        chooser: view.chooser,
        starter: view.starter.or((phase == Phase::Turns).then_some(view.dmo)),
        round: match phase {
            Phase::First => 0,
            Phase::Place => view.round.clamp(1, ROUNDS),
            _ => ROUNDS,
        },
        sealed: PerSeat::default(),
        turn: match phase {
            Phase::Turns => view.turn.min(TURNS - 1),
            Phase::Over => TURNS,
            _ => 0,
        },
        board,
        lost: view.lost,
        diagonal: view.diagonal.filter(|c| GRID.all & GRID.bit_if_on(*c) != 0),
        last: view.last,
    };
    if phase == Phase::Place {
        for seat in Seat::BOTH {
            game.sealed[seat] = match view.sealed[seat] {
                SealedView::Waiting => Sealed::Waiting,
                SealedView::Missed => Sealed::Missed,
                SealedView::Placed(p) => Sealed::Placed(p),
                SealedView::Submitted => game
                    .sample_placement(seat, rng)
                    .map_or(Sealed::Waiting, Sealed::Placed),
            };
        }
        if game.sealed.p1 != Sealed::Waiting && game.sealed.p2 != Sealed::Waiting {
            // No real view shows both seats done with a round still open.
            game.sealed.p2 = Sealed::Waiting;
        }
    }
    game
}

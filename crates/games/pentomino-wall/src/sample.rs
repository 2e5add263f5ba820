//! Views, and states rebuilt from them.
//!
//! Everything in Pentomino Wall is public but a seat's sealed choice of the
//! turn before both are in. A view holds every public fact, so a sample is
//! the state the view shows, with each hidden sealed choice drawn at random
//! from the hand it was made from (uniform over pieces to present, their
//! orientations and pieces to set aside). A view that no match shows (a
//! client's garbage) gives a fresh match rather than a panic.

use rand::{Rng, RngExt};
use umpire_core::{Game, PerSeat, Seat, Viewer};

use crate::pieces::{Piece, Pieces};
use crate::view::{Kept, Sealed, View, WallView};
use crate::wall::Wall;
use crate::{Config, PentominoWall, ROUNDS, TURNS};

/// What `viewer` may know of `state`.
pub fn view(state: &PentominoWall, viewer: Viewer) -> View {
    let sees = |seat: Seat| viewer == Viewer::Umpire || viewer == Viewer::Seat(seat);
    View {
        advantage: state.config.advantage,
        quarter_turns: state.config.quarter_turns,
        phase: state.phase,
        round: state.round,
        turn: state.turn,
        first_drafter: state.first,
        drafter: state.drafter,
        picks: state.picks,
        pool: state.pool,
        hands: state.hands,
        aside: state.aside,
        credits: state.credits,
        submitted: state.sealed.map(Option::is_some),
        sealed: PerSeat::from_fn(|s| state.sealed[s].filter(|_| sees(s))),
        presented: state.presented,
        to_place: state.to_place,
        exchanged: state.exchanged,
        orients_first: state.orients_first,
        placed: state.placed,
        walls: state.walls.map(|w| WallView {
            placed: w.placed().to_vec(),
            rows: w.rows(),
        }),
        kept: state.kept.map(|k| {
            Piece::ALL
                .into_iter()
                .filter(|p| k[p.index()] > 0)
                .map(|piece| Kept {
                    piece,
                    rounds: k[piece.index()],
                })
                .collect()
        }),
        choices: state.choices,
        carry: state.carry,
        scores: state.scores(),
        history: state.history.clone(),
        last: state.last,
    }
}

/// The state `view` shows, with hidden sealed choices drawn at random.
pub fn sample<R: Rng + ?Sized>(viewer: Viewer, view: &View, rng: &mut R) -> PentominoWall {
    let config = Config {
        advantage: view.advantage,
        quarter_turns: view.quarter_turns,
    };
    let Some(mut state) = rebuild(view, config.clone()) else {
        return PentominoWall::new(&config, 0).expect("every config starts a match");
    };
    for seat in Seat::BOTH {
        let hidden = view.sealed[seat].is_none() && view.submitted[seat];
        if hidden && viewer != Viewer::Umpire {
            state.sealed[seat] = draw_sealed(view.hands[seat], rng);
        }
    }
    state
}

/// A sealed choice from `hand`, uniform over presented piece, its
/// orientation and the piece set aside.
pub fn draw_sealed<R: Rng + ?Sized>(hand: Pieces, rng: &mut R) -> Option<Sealed> {
    let h = hand.len();
    if h < 2 {
        return None;
    }
    let total: usize = hand.iter().map(|p| p.orientation_count()).sum::<usize>() * (h - 1);
    let mut r = rng.random_range(0..total);
    for p in hand.iter() {
        let here = p.orientation_count() * (h - 1);
        if r < here {
            return Some(Sealed {
                present: p.orientations().nth(r / (h - 1))?,
                aside: hand.without(p).nth(r % (h - 1))?,
            });
        }
        r -= here;
    }
    None
}

/// The public state of `view`, if it is one a match could show.
fn rebuild(view: &View, config: Config) -> Option<PentominoWall> {
    if !(1..=ROUNDS).contains(&view.round) || view.turn > TURNS || view.history.len() > 18 {
        return None;
    }
    let walls = PerSeat::new(wall(&view.walls.p1)?, wall(&view.walls.p2)?);
    let mut kept = PerSeat::new([0u8; 12], [0u8; 12]);
    for seat in Seat::BOTH {
        for k in &view.kept[seat] {
            kept[seat][k.piece.index()] = k.rounds.min(ROUNDS);
        }
    }
    let sealed = PerSeat::from_fn(|s| view.sealed[s].filter(|_| view.submitted[s]));
    Some(PentominoWall {
        config,
        phase: view.phase,
        round: view.round,
        turn: view.turn,
        first: view.first_drafter,
        drafter: view.drafter,
        picks: view.picks,
        pool: view.pool,
        hands: view.hands,
        aside: view.aside,
        credits: view.credits,
        sealed,
        presented: view.presented,
        to_place: view.to_place,
        exchanged: view.exchanged,
        orients_first: view.orients_first,
        placed: view.placed,
        walls,
        kept,
        choices: view.choices,
        carry: view.carry,
        history: view.history.clone(),
        last: view.last,
    })
}

fn wall(view: &WallView) -> Option<Wall> {
    if view.placed.len() > 18 {
        return None;
    }
    Wall::from_placements(view.placed.iter().copied()).ok()
}

//! Drawing whole Four Statements states from what a viewer sees.
//!
//! The grid is drawn exactly from what a seat knows (the deduction engine's
//! posterior), uniformly for a spectator. Every secret of the other seat is
//! drawn at random (its dealt and bought cells, smokescreened statements,
//! Detective question, reveal choices, sealed submissions; its claims right
//! as often as a fair player's), and the rounds are played again with
//! them, so truths and points follow from the drawn grid as in real play.
//! One thing is let go: what the other seat's buying says of its points (it
//! could afford the cells) is not used, and a replayed buy it could not
//! afford is granted.

use rand::{Rng, RngExt, seq::SliceRandom};
use umpire_core::{PerSeat, Seat, Viewer};

use crate::deduce;
use crate::grid::{CELLS, CellSet, Colour, Grid};
use crate::knowledge::{self, Memory};
use crate::ruling::Ruling;
use crate::statement::{self, Said};
use crate::view::RoundView;
use crate::view::{SideView, Status, View};
use crate::{
    Action, Bluff, CELL_PRICE, Claims, DEALT, FourStatements, Item, Phase, Reveal, STATEMENTS,
};

pub fn from_view<R: Rng + ?Sized>(
    viewer: Viewer,
    view: &View,
    memory: &Memory,
    rng: &mut R,
) -> FourStatements {
    drawn(viewer, view, grids_for(viewer, view, memory).as_ref(), rng)
}

/// The grids a seat's draws come from: those still possible for it; `None`
/// when the view shows the grid or the viewer is no seat.
pub fn grids_for(viewer: Viewer, view: &View, memory: &Memory) -> Option<deduce::Grids> {
    let seat = viewer.seat().filter(|_| view.layout.is_none())?;
    Some(deduce::Grids::new(&memory.of(seat, view)))
}

/// A state drawn as [`from_view`] draws it, the grid from `grids`
/// ([`grids_for`] the same viewer, view and memory): counted once, they
/// serve any number of draws.
pub fn drawn<R: Rng + ?Sized>(
    viewer: Viewer,
    view: &View,
    grids: Option<&deduce::Grids>,
    rng: &mut R,
) -> FourStatements {
    let layout = match (&view.layout, viewer.seat(), grids) {
        (Some(text), _, _) => Grid::parse(text).unwrap_or_default(),
        (None, Some(seat), Some(grids)) => {
            // Facts over the widest subsets are not counted: draws that
            // break them are drawn again.
            let mut grid = grids.draw(rng).unwrap_or_else(|| random_grid(rng));
            for _ in 0..10_000 {
                if knowledge::wide_facts_hold(seat, view, grid) {
                    break;
                }
                grid = grids.draw(rng).unwrap_or(grid);
            }
            grid
        }
        _ => random_grid(rng),
    };
    let known = dealt(view, rng);
    let detective = PerSeat::from_fn(|seat| detective(viewer, view, seat, rng));
    let mut g = FourStatements::start(layout, known, view.max_rounds, view.aids);
    for (n, r) in view.rounds.iter().enumerate() {
        let (Some(p1), Some(p2)) = (&r.sides.p1, &r.sides.p2) else {
            break;
        };
        let sides = PerSeat::new(p1, p2);
        for seat in Seat::BOTH {
            g.sealed_bluff[seat] = Some(bluff(sides[seat], rng));
        }
        g.end_bluff();
        for seat in Seat::BOTH {
            if let Some((_, i)) = detective[seat].filter(|&(round, _)| round == n) {
                g.asked[seat] = Some(i);
                g.items[seat][Item::Detective as usize] = Some(r.round);
            }
        }
        if !(r.round < view.round || view.phase > Phase::Claim) {
            break;
        }
        for seat in Seat::BOTH {
            g.sealed_claims[seat] = Some(claims(&g, seat, sides[seat], rng));
        }
        g.end_claims();
        if !(r.round < view.round || view.phase == Phase::Over) {
            break;
        }
        let next = view.rounds.get(n + 1);
        let mut order = Seat::BOTH;
        order.shuffle(rng);
        for seat in order {
            let buys_next = next
                .and_then(|r| r.sides[seat].as_ref())
                .and_then(|s| s.bought)
                .is_some_and(|b| b > 0);
            let reveal = reveal(&g, seat, sides[seat], buys_next, rng);
            submit(&mut g, seat, reveal);
        }
        g.end_reveal_if_done();
    }
    g.rulings = rulings(view);
    sealed(&mut g, viewer, view, rng);
    g
}

/// The host's rulings as the view shows them; what it hides of one (the
/// words of another seat's refused statement) is left empty, matching
/// nothing.
fn rulings(view: &View) -> Vec<Ruling> {
    view.rulings
        .iter()
        .map(|r| {
            let subset = r.subset.unwrap_or_default();
            Ruling {
                round: r.round,
                seat: r.seat,
                accept: r.accepted,
                subset,
                words: r.statement.clone().unwrap_or_default(),
                meaning: r
                    .reading
                    .as_deref()
                    .and_then(|t| statement::read(t, subset).ok()),
                reason: r.reason.clone(),
            }
        })
        .collect()
}

fn random_grid<R: Rng + ?Sized>(rng: &mut R) -> Grid {
    (0..CELLS).fold(Grid(0), |g, i| {
        g.with(i, Colour::from_index(rng.random_range(0..4)))
    })
}

/// Each seat's dealt cells: as shown, or drawn apart from the other's.
fn dealt<R: Rng + ?Sized>(view: &View, rng: &mut R) -> PerSeat<[Option<u32>; CELLS]> {
    let shown = |seat: Seat| crate::view::dealt(view, seat);
    let mut sets = PerSeat::new(shown(Seat::P1), shown(Seat::P2));
    for seat in Seat::BOTH {
        if sets[seat].is_none() {
            let taken = sets[seat.other()].unwrap_or_default();
            let mut free: Vec<usize> = (0..CELLS).filter(|&i| !taken.contains(i)).collect();
            free.shuffle(rng);
            sets[seat] = Some(free[..DEALT].iter().fold(CellSet::EMPTY, |s, &i| s.with(i)));
        }
    }
    sets.map(|s| {
        let mut known = [None; CELLS];
        for i in s.unwrap_or_default().indices() {
            known[i] = Some(0);
        }
        known
    })
}

/// A side's bluff, a smokescreened statement the viewer cannot read drawn
/// at random.
fn bluff<R: Rng + ?Sized>(side: &SideView, rng: &mut R) -> Bluff {
    let random = |rng: &mut R| Said::new(statement::random(side.subset, rng));
    let said: Vec<Said> = side
        .statements
        .iter()
        .map(|s| {
            let read = s.text.as_deref().and_then(|t| t.parse().ok());
            match (read, &s.said) {
                (Some(read), Some(words)) => Said::spoken(words, read),
                _ => random(rng),
            }
        })
        .collect();
    Bluff {
        subset: side.subset,
        statements: said
            .try_into()
            .unwrap_or_else(|_| std::array::from_fn(|_| random(rng))),
        smokescreen: side.smokescreen.map(|n| n - 1),
        nolimit: side.nolimit,
    }
}

/// A side's claims: as shown, or drawn (keeping off the smokescreened
/// statement).
fn claims<R: Rng + ?Sized>(g: &FourStatements, seat: Seat, side: &SideView, rng: &mut R) -> Claims {
    if let Some(text) = &side.claims {
        if let Ok(Action::Claims(c)) = format!("claims {text}").parse::<Action>() {
            return c;
        }
    }
    g.likely_claims(seat, CLAIMS_RIGHT, rng)
}

/// How often a hidden claim is drawn right. Random claims (right one time
/// in two) made the other seat's RP too low, so that the search counted on
/// winning ties it then lost on RP; `greedy`'s claims were right 80% of the
/// time over 40 of its games against itself (rounds 1-3: 68-76%, round 4:
/// 90%).
const CLAIMS_RIGHT: f64 = 0.8;

/// When `seat` asked Detective (the round's place in `view.rounds`) and on
/// which statement: as shown to a viewer who may see it, else drawn (never,
/// or in a round whose claims have begun, on a statement not
/// smokescreened): whether it was used is the seat's secret.
fn detective<R: Rng + ?Sized>(
    viewer: Viewer,
    view: &View,
    seat: Seat,
    rng: &mut R,
) -> Option<(usize, usize)> {
    fn sides(r: &RoundView, seat: Seat) -> Option<(&SideView, &SideView)> {
        Some((r.sides[seat].as_ref()?, r.sides[seat.other()].as_ref()?))
    }
    if viewer == Viewer::Seat(seat) || view.layout.is_some() {
        return view.rounds.iter().enumerate().find_map(|(n, r)| {
            let (mine, _) = sides(r, seat)?;
            Some((n, mine.detective? - 1))
        });
    }
    let open: Vec<(usize, usize)> = view
        .rounds
        .iter()
        .enumerate()
        .filter(|(_, r)| r.round < view.round || view.phase >= Phase::Claim)
        .filter_map(|(n, r)| Some((n, sides(r, seat)?.1.smokescreen)))
        .flat_map(|(n, hidden)| {
            (0..STATEMENTS)
                .filter(move |&i| hidden != Some(i + 1))
                .map(move |i| (n, i))
        })
        .collect();
    (!open.is_empty() && rng.random()).then(|| open[rng.random_range(0..open.len())])
}

/// A side's finished reveal: as shown, or drawn (a pass or a wrong guess;
/// never a wrong guess before a round in which it buys).
fn reveal<R: Rng + ?Sized>(
    g: &FourStatements,
    seat: Seat,
    side: &SideView,
    buys_next: bool,
    rng: &mut R,
) -> Reveal {
    let bought = side.bought.unwrap_or(0);
    if bought > 0 {
        let cells = side.bought_cells.unwrap_or_else(|| {
            let mut free: Vec<usize> = (0..CELLS).filter(|&i| g.known[seat][i].is_none()).collect();
            free.shuffle(rng);
            free.iter()
                .take(bought)
                .fold(CellSet::EMPTY, |s, &i| s.with(i))
        });
        return Reveal::Buy(cells);
    }
    if let Some(guess) = &side.guess {
        let grid = Grid::parse(&guess[..16.min(guess.len())]).unwrap_or_default();
        return Reveal::Guess { grid, order: 0 };
    }
    if side.bought_cells.is_some() || buys_next || rng.random() {
        return Reveal::Pass;
    }
    Reveal::Guess {
        grid: wrong_guess(g.layout, rng),
        order: 0,
    }
}

/// A random grid other than `layout`.
fn wrong_guess<R: Rng + ?Sized>(layout: Grid, rng: &mut R) -> Grid {
    let grid = random_grid(rng);
    if grid != layout {
        return grid;
    }
    let i = rng.random_range(0..CELLS);
    grid.with(i, Colour::from_index(grid.get(i) as u8 + 1))
}

/// Records `seat`'s reveal, in submission order; a buy it cannot afford in
/// the replay is granted.
fn submit(g: &mut FourStatements, seat: Seat, reveal: Reveal) {
    g.submissions += 1;
    let order = g.submissions;
    let reveal = match reveal {
        Reveal::Guess { grid, .. } => Reveal::Guess { grid, order },
        Reveal::Buy(cells) => {
            let cost = CELL_PRICE * cells.len() as u32;
            g.rp[seat] = g.rp[seat].max(cost);
            Reveal::Buy(cells)
        }
        other => other,
    };
    g.side_mut(seat).reveal = Some(reveal);
}

/// The open phase's submissions: as shown to the viewer, or drawn.
fn sealed<R: Rng + ?Sized>(g: &mut FourStatements, viewer: Viewer, view: &View, rng: &mut R) {
    let own = |seat: Seat| viewer == Viewer::Umpire || viewer == Viewer::Seat(seat);
    let shown = |seat: Seat| -> Option<Action> { view.sealed[seat].as_deref()?.parse().ok() };
    match view.phase {
        Phase::Bluff => {
            for seat in Seat::BOTH {
                if view.status[seat] != Status::Submitted {
                    continue;
                }
                let ruled = |text: &str| g.ruled_bluff(seat, text);
                g.sealed_bluff[seat] = Some(match shown(seat) {
                    Some(Action::Bluff(b)) => *b,
                    Some(Action::Refused { text, .. }) => match ruled(&text) {
                        Some(b) => b,
                        None => g.random_bluff(seat, rng),
                    },
                    _ => g.random_bluff(seat, rng),
                });
            }
        }
        Phase::Claim => {
            for seat in Seat::BOTH {
                if view.status[seat] != Status::Submitted {
                    continue;
                }
                g.sealed_claims[seat] = Some(match shown(seat) {
                    Some(Action::Claims(c)) => c,
                    _ => g.likely_claims(seat, CLAIMS_RIGHT, rng),
                });
            }
        }
        Phase::Reveal => {
            let mut order = Seat::BOTH;
            order.shuffle(rng);
            // Seats whose reveal is secret: at most one of them may be done,
            // or the phase would be over.
            let mut may_finish = !Seat::BOTH
                .into_iter()
                .any(|s| own(s) && view.status[s] == Status::Submitted);
            for seat in order {
                let status = if own(seat) {
                    view.status[seat]
                } else {
                    let choices: &[Status] = if may_finish {
                        &[Status::Waiting, Status::Guessing, Status::Submitted]
                    } else {
                        &[Status::Waiting, Status::Guessing]
                    };
                    choices[rng.random_range(0..choices.len())]
                };
                match status {
                    Status::Guessing => g.guessing[seat] = true,
                    Status::Submitted => {
                        may_finish = false;
                        let reveal = match shown(seat).filter(|_| own(seat)) {
                            Some(Action::Buy(cells)) => Reveal::Buy(cells),
                            Some(Action::Guess(grid)) => Reveal::Guess { grid, order: 0 },
                            Some(_) => Reveal::Pass,
                            None if rng.random() => Reveal::Pass,
                            None => Reveal::Guess {
                                grid: wrong_guess(g.layout, rng),
                                order: 0,
                            },
                        };
                        submit(g, seat, reveal);
                    }
                    _ => {}
                }
            }
        }
        Phase::Over => {}
    }
}

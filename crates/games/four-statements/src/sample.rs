//! Drawing whole Four Statements states from what a viewer sees.
//!
//! The grid is drawn exactly from what a seat knows (the deduction engine's
//! posterior), uniformly for a spectator. Every secret of the other seat is
//! drawn at random (its smokescreened statements, Detective question,
//! reveal choices, sealed submissions; its claims right as often as a fair
//! player's; its dealt and bought cells weighed by where it bluffed, since
//! seats bluff on the cells they do not know), and the rounds are played
//! again with them, so truths and points follow from the drawn grid as in
//! real play.
//! One thing is let go: what the other seat's buying says of its points (it
//! could afford the cells) is not used, and a replayed buy it could not
//! afford is granted.

use rand::{
    Rng, RngExt,
    seq::{IndexedRandom, SliceRandom},
};
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
            let odds = bought_odds(view, seat, n);
            let reveal = reveal(&g, seat, sides[seat], buys_next, &odds, rng);
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

/// Each seat's dealt cells: as shown, or drawn apart from the other's,
/// weighed by where the seat bluffed ([`dealt_odds`]).
fn dealt<R: Rng + ?Sized>(view: &View, rng: &mut R) -> PerSeat<[Option<u32>; CELLS]> {
    let shown = |seat: Seat| crate::view::dealt(view, seat);
    let mut sets = PerSeat::new(shown(Seat::P1), shown(Seat::P2));
    for seat in Seat::BOTH {
        if sets[seat].is_none() {
            let taken = sets[seat.other()].unwrap_or_default();
            let odds = dealt_odds(view, seat);
            let free: Vec<usize> = (0..CELLS).filter(|&i| !taken.contains(i)).collect();
            sets[seat] = Some(weighed_cells(&free, &odds, DEALT, rng));
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

/// How much likelier a cell is to be one a seat was dealt, for lying inside
/// (first) or outside (second) its subset, in rounds 1 to 4. Seats bluff
/// where they are unsure, away from the cells they know: in the 600 games
/// of Four Statements' ladder between `expert`, `search@200ms` and
/// `greedy`, a dealt cell was in its seat's first subset 15% of the time,
/// any other cell that seat did not know 60%, so a cell outside it is 8
/// times as likely to be dealt as one inside (rounds 2-4: 34/53%, 26/57%,
/// 37/50%; round 5 on, even).
const DEALT_ODDS: [(f64, f64); 4] = [
    (0.253, 2.112),
    (0.630, 1.421),
    (0.461, 1.708),
    (0.732, 1.272),
];

/// Each cell's odds of being among `seat`'s dealt cells, from the subsets
/// its bluffs have shown.
fn dealt_odds(view: &View, seat: Seat) -> [f64; CELLS] {
    let subsets = view
        .rounds
        .iter()
        .filter_map(|r| Some(r.sides[seat].as_ref()?.subset));
    odds_by(subsets.zip(DEALT_ODDS))
}

/// Each cell's odds: the product, over subsets, of its odds inside or
/// outside each.
fn odds_by(subsets: impl Iterator<Item = (CellSet, (f64, f64))>) -> [f64; CELLS] {
    let mut odds = [1.0; CELLS];
    for (subset, (inside, outside)) in subsets {
        for (i, o) in odds.iter_mut().enumerate() {
            *o *= if subset.contains(i) { inside } else { outside };
        }
    }
    odds
}

/// How much likelier a cell is to be one a seat bought in a round, for
/// lying inside (first) or outside (second) its subset of two or more
/// rounds before, the round before, the same round, one round after, two,
/// and three or more. A seat buys the cells its bluffs had spoken of least
/// and then bluffs away from them: over the same 600 games, a bought cell
/// was in the seat's next subset 30% of the time, any other cell it did not
/// know 56%.
const BOUGHT_ODDS: [(f64, f64); 6] = [
    (0.743, 1.409),
    (0.831, 1.239),
    (0.614, 1.527),
    (0.533, 1.592),
    (0.595, 1.455),
    (0.673, 1.315),
];

/// Each cell's odds of being among the cells `seat` bought in the round at
/// `bought` in `view.rounds`, from the subsets its bluffs have shown.
fn bought_odds(view: &View, seat: Seat, bought: usize) -> [f64; CELLS] {
    let subsets = view.rounds.iter().enumerate().filter_map(|(k, r)| {
        let at = (k + 2).saturating_sub(bought).min(BOUGHT_ODDS.len() - 1);
        Some((r.sides[seat].as_ref()?.subset, BOUGHT_ODDS[at]))
    });
    odds_by(subsets)
}

/// `n` of the `free` cells, each set drawn with a chance in proportion to
/// the product of its cells' `odds` (every set counted: at most 1,820).
fn weighed_cells<R: Rng + ?Sized>(
    free: &[usize],
    odds: &[f64; CELLS],
    n: usize,
    rng: &mut R,
) -> CellSet {
    fn sets(free: &[usize], n: usize, from: CellSet, out: &mut Vec<CellSet>) {
        match free.split_first() {
            _ if n == 0 => out.push(from),
            Some((&i, rest)) if rest.len() + 1 >= n => {
                sets(rest, n - 1, from.with(i), out);
                sets(rest, n, from, out);
            }
            _ => {}
        }
    }
    let mut all = Vec::new();
    sets(free, n.min(free.len()), CellSet::EMPTY, &mut all);
    let weight = |s: &CellSet| s.indices().map(|i| odds[i]).product::<f64>();
    all.choose_weighted(rng, weight)
        .copied()
        .unwrap_or_default()
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
    odds: &[f64; CELLS],
    rng: &mut R,
) -> Reveal {
    let bought = side.bought.unwrap_or(0);
    if bought > 0 {
        let cells = side.bought_cells.unwrap_or_else(|| {
            let free: Vec<usize> = (0..CELLS).filter(|&i| g.known[seat][i].is_none()).collect();
            weighed_cells(&free, odds, bought, rng)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use umpire_core::{Game, seeded_rng};

    /// P1's view once both seats bluffed: P1 knows row 1, P2 row 4 and
    /// bluffed on rows 2 and 3.
    fn first_bluffs_seen_by_p1() -> View {
        let config = Config {
            known_p1: "A1 B1 C1 D1".into(),
            known_p2: "A4 B4 C4 D4".into(),
            ..Config::default()
        };
        let mut g = FourStatements::new(&config, 7).unwrap();
        let even = "An even number of tiles are green.; An even number of tiles are red.; \
                    An even number of tiles are blue.; An even number of tiles are yellow.";
        for (seat, subset) in [
            (Seat::P1, "A2 B2 A3 B3"),
            (Seat::P2, "A2 B2 C2 D2 A3 B3 C3 D3"),
        ] {
            let bluff: Action = format!("subset {subset}; {even}").parse().unwrap();
            g.play(seat, &bluff).unwrap();
        }
        g.view(Viewer::Seat(Seat::P1))
    }

    #[test]
    fn the_other_seats_dealt_cells_are_drawn_away_from_where_it_bluffed() {
        let seen = first_bluffs_seen_by_p1();
        let mut rng = seeded_rng(7);
        let (mut outside, draws) = (0, 400);
        for _ in 0..draws {
            let drawn =
                FourStatements::sample(Viewer::Seat(Seat::P1), &seen, &Memory::default(), &mut rng);
            let dealt = crate::view::dealt(&drawn.view(Viewer::Seat(Seat::P2)), Seat::P2).unwrap();
            assert_eq!(dealt.len(), DEALT);
            assert!(dealt.indices().all(|i| i >= 4), "never P1's own cells");
            outside += dealt.indices().filter(|&i| i >= 12).count();
        }
        // Drawn evenly, a third of them would lie in row 4; by the odds,
        // about two thirds do.
        let share = outside as f64 / (draws * DEALT) as f64;
        assert!(share > 0.55 && share < 0.8, "{share}");
    }

    #[test]
    fn cells_are_drawn_in_proportion_to_their_odds() {
        let mut odds = [1.0; CELLS];
        odds[3] = 9.0;
        let free = [1, 3, 5, 7];
        let mut rng = seeded_rng(1);
        let mut hits = 0;
        for _ in 0..1000 {
            let one = weighed_cells(&free, &odds, 1, &mut rng);
            assert_eq!(one.len(), 1);
            hits += one.contains(3) as u32;
            let two = weighed_cells(&free, &odds, 2, &mut rng);
            assert_eq!(two.len(), 2);
            assert!(two.indices().all(|i| free.contains(&i)));
        }
        // 9 in 12 for the weighted cell.
        assert!((700..800).contains(&hits), "{hits}");
        assert_eq!(
            weighed_cells(&free, &odds, 6, &mut rng).len(),
            4,
            "no more than are free"
        );
    }

    #[test]
    fn a_cell_the_seat_bluffed_on_around_its_buy_is_less_likely_bought() {
        let view = first_bluffs_seen_by_p1();
        let odds = bought_odds(&view, Seat::P2, 0);
        assert!(odds[4] < 1.0 && odds[0] > 1.0, "{odds:?}");
    }
}

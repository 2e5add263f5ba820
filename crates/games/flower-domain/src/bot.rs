//! A one-move-ahead Flower Domain bot.
//!
//! Nothing is hidden in this game, so the seat's view rebuilds the exact
//! state. Every legal move is scored without playing it: a flower placed at
//! a garden cell joins the regions of its colour next to that cell, so the
//! change in each colour's largest region is known from region labels
//! computed once per turn.

use crate::{Action, BOARD, CELLS, Colour, FlowerDomain, Phase, Placement, garden_regions};
use rand::RngExt;
use umpire_core::grid::Groups;
use umpire_core::{BotInfo, Game, MatchRng, Seat, SeatView, Viewer};

use umpire_core::Think;

/// Flower Domain's bots, weakest first within a level.
pub(crate) static BOTS: [BotInfo; 3] = umpire_bots::greedy_and_search::<FlowerDomain, Greedy>(
    "one move ahead: the move that most raises its score over the opponent's, growing its own regions",
);

/// Plays the move that most raises its own score minus the opponent's (the
/// largest regions of each seat's colours), then, among equals, the one that
/// grows its own regions most and the opponent's least. Passes when every
/// move would cost it. Stops looking when `think` says so.
#[derive(Default)]
pub struct Greedy;

/// Garden regions of one colour, labelled; the largest region.
pub(crate) struct Regions {
    groups: Groups,
    pub(crate) first: u128,
}

impl Regions {
    /// Each colour's regions, in the order of [`Colour::ALL`].
    pub(crate) fn all(state: &FlowerDomain) -> [Regions; 4] {
        let regions = garden_regions(state.garden());
        Colour::ALL.map(|c| Regions {
            groups: Groups::from_groups(BOARD, regions[c].iter().copied()),
            first: regions[c].first().copied().unwrap_or(0),
        })
    }

    /// The size of the largest region.
    pub(crate) fn largest(&self) -> u32 {
        self.first.count_ones()
    }

    /// The size of the region a new flower at `cell` would be part of.
    pub(crate) fn merged(&self, cell: usize) -> u32 {
        self.groups.joined(cell)
    }
}

/// Draft order: red moves first, blue wins a tie that never resolves.
const PICKS: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Yellow, Colour::Green];

impl umpire_core::Bot for Greedy {
    fn choose(&mut self, seat: SeatView<'_>, think: &Think, rng: &mut MatchRng) -> Option<String> {
        let me = seat.seat();
        let view = seat.typed_view::<FlowerDomain>()?;
        let state = FlowerDomain::sample(Viewer::Seat(me), &view, &(), rng);
        seat.decision().get(me)?;
        match state.phase() {
            Phase::Play => Some(best_action(&state, me, think, rng).to_string()),
            _ => setup_action(&state, me, PICKS).map(|a| a.to_string()),
        }
    }
}

/// Before play: ready at once, `first` drafts first, and picks go by
/// `picks`.
pub(crate) fn setup_action(
    state: &FlowerDomain,
    first: Seat,
    picks: [Colour; 4],
) -> Option<Action> {
    match state.phase() {
        Phase::Study => Some(Action::Ready),
        Phase::First => Some(Action::First(first)),
        Phase::Draft => picks
            .into_iter()
            .find(|&c| state.owner(c).is_none())
            .map(Action::Draft),
        Phase::Play | Phase::Over => None,
    }
}

/// The best move, or [`Action::Pass`].
fn best_action(state: &FlowerDomain, me: Seat, think: &Think, rng: &mut MatchRng) -> Action {
    let restricted = state.garden().occupied() == 0;
    // Passing keeps the score as it is: a move must not cost anything,
    // except the first move of the game, which someone has to make.
    let mut best: Option<(i64, Placement)> = None;
    let mut ties = 0u32;
    for_each_move(state, me, think, |value, p| match best {
        None if value >= 0 || restricted => (best, ties) = (Some((value, p)), 1),
        Some((v, _)) if value > v => (best, ties) = (Some((value, p)), 1),
        Some((v, _)) if value == v => {
            // Uniform among equals (reservoir sampling).
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                best = Some((value, p));
            }
        }
        _ => {}
    });
    match best {
        Some((_, p)) => FlowerDomain::action_of(&p),
        None => Action::Pass,
    }
}

/// Calls `f` with every move and its value for `me`: the change in its
/// score minus the opponent's, times 1000, plus how much it grows its own
/// regions less the opponent's. Stops early when `think` says so.
fn for_each_move(state: &FlowerDomain, me: Seat, think: &Think, mut f: impl FnMut(i64, Placement)) {
    // The flowers of one move all differ in colour, so each adds to its own
    // colour's regions alone: a move's value is the sum of what each flower
    // is worth at its garden cell, looked up from a table made once.
    let regions = Regions::all(state);
    let worth: [[i64; CELLS]; 4] = std::array::from_fn(|ci| {
        let r = &regions[ci];
        // +1 for my colours, -1 for the opponent's.
        let sign = if state.owner(Colour::ALL[ci]) == Some(me) {
            1
        } else {
            -1
        };
        std::array::from_fn(|t| {
            let merged = r.merged(t);
            sign * (i64::from(merged.saturating_sub(r.largest())) * 1_000 + i64::from(merged))
        })
    });
    let colour_at = meadow_colours(state);
    for (n, p) in state.placements().enumerate() {
        if n % 4096 == 4095 && think.should_stop() {
            break;
        }
        let value = p
            .pairs()
            .map(|(f, t)| worth[colour_at[f] as usize][t])
            .sum();
        f(value, p);
    }
}

/// Each meadow cell's colour as an index into [`Colour::ALL`] (any value
/// for an empty cell: no move takes from one).
pub(crate) fn meadow_colours(state: &FlowerDomain) -> [u8; CELLS] {
    std::array::from_fn(|i| {
        state
            .meadow()
            .colour_at_index(i)
            .map_or(u8::MAX, |c| c as u8)
    })
}

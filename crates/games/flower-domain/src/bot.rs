//! A one-move-ahead Flower Domain bot.
//!
//! Nothing is hidden in this game, so the seat's view rebuilds the exact
//! state. Every legal move is scored without playing it: a flower placed at
//! a garden cell joins the regions of its colour next to that cell, so the
//! change in each colour's largest region is known from region labels
//! computed once per turn.

use crate::{Action, BOARD, CELLS, Colour, FlowerDomain, Phase, garden_regions};
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
/// move would cost it.
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
    fn choose(&mut self, seat: SeatView<'_>, _: &Think, rng: &mut MatchRng) -> Option<String> {
        let me = seat.seat();
        let view = seat.typed_view::<FlowerDomain>()?;
        let state = FlowerDomain::sample(Viewer::Seat(me), &view, &(), rng);
        seat.decision().get(me)?;
        match state.phase() {
            Phase::Play => Some(best_action(&state, me, rng).to_string()),
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

/// The best move, or [`Action::Pass`]. The flowers of one move all
/// differ in colour, so each adds to its own colour's regions alone: a
/// move's value is the sum of what each flower is worth at its garden
/// cell, from a table made once: the change in the seat's score minus the
/// opponent's, times 1000, plus how much it grows its own regions less the
/// opponent's. Equals are drawn at random.
fn best_action(state: &FlowerDomain, me: Seat, rng: &mut MatchRng) -> Action {
    let regions = Regions::all(state);
    let worth: [[f64; CELLS]; 4] = std::array::from_fn(|ci| {
        let r = &regions[ci];
        // +1 for my colours, -1 for the opponent's.
        let sign = if state.owner(Colour::ALL[ci]) == Some(me) {
            1.0
        } else {
            -1.0
        };
        std::array::from_fn(|t| {
            let merged = r.merged(t);
            sign * (f64::from(merged.saturating_sub(r.largest())) * 1_000.0 + f64::from(merged))
        })
    });
    let best = state
        .move_gen()
        .best(&meadow_colours(state), &worth, 1, rng);
    // Passing keeps the score as it is: a move must not cost anything,
    // except the first move of the game, which someone has to make.
    let restricted = state.garden().occupied() == 0;
    match best.first() {
        Some((value, p)) if *value >= 0.0 || restricted => FlowerDomain::action_of(p),
        _ => Action::Pass,
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

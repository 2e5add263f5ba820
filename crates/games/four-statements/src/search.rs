//! Four Statements knowledge for the search. Random play never names the
//! grid, so rollouts say nothing: the search looks to the end of the round
//! over a few choices (bluffs whose truths tell the most; the greedy bot's
//! claims; buying, waiting, or naming the grid once certain), and judges
//! a position by each seat's chance to name the grid first: from how much
//! it still has to learn (the grids still possible for it, counted exactly
//! by the deduction engine, less what its RP can buy) and, for a tie, its
//! RP.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::deduce;
use crate::knowledge::{self, Memory};
use crate::sample;
use crate::view::View;
use crate::{Action, Bluff, CELL_PRICE, FourStatements, Phase};
use umpire_core::{Game, MatchRng, Seat, Viewer};

use crate::bot::{informative_bluff, informative_bluff_on, no_limit_subset, reveal, sharp_claim};
use umpire_bots::search::{Sampler, SearchGame, Tuning, logistic};

/// Bluffs weighed at each bluff decision.
const BLUFFS: usize = 4;
/// The bits a cell the seat's RP can buy is worth in the leaf value. At 2
/// (a cell's whole colour) the search hoarded RP, bought a third as often
/// as `greedy`, and lost more races to name the grid first.
const CELL_BITS: f64 = 1.0;

impl SearchGame for FourStatements {
    /// No rollouts, like [`Tuning::EVALUATED`], but exploring a little more
    /// and widening at the default pace.
    const TUNING: Tuning = Tuning {
        exploration: 0.3,
        widen: 2.0,
        rollout_depth: 0,
    };

    /// The grids still possible for `me`, counted once for every draw.
    fn sampler<'a>(me: Seat, view: &'a View, memory: &'a Memory) -> Sampler<'a, Self> {
        let grids = sample::grids_for(Viewer::Seat(me), view, memory);
        Box::new(move |rng| sample::drawn(Viewer::Seat(me), view, grids.as_ref(), rng))
    }

    fn candidates(&self, seat: Seat, rng: &mut MatchRng) -> Vec<Action> {
        let view = self.view(Viewer::Seat(seat));
        let known = knowledge::from_view(seat, &view);
        let now = deduce::posterior(&known);
        let mut options = Vec::new();
        let mut add = |a: Action| {
            if !options.contains(&a) {
                options.push(a);
            }
        };
        match self.decision().kind(seat) {
            // A few bluffs whose truths tell the most, the most telling
            // first (random ones tell little and give away more).
            Some("bluff") => {
                let mut bluffs: Vec<(f64, Bluff)> = (0..BLUFFS)
                    .map(|_| informative_bluff(self, seat, &known, &now, rng))
                    .collect();
                if let Some(cells) = no_limit_subset(self, seat, &now, rng) {
                    bluffs.push(informative_bluff_on(
                        self, seat, &known, &now, cells, true, rng,
                    ));
                }
                bluffs.sort_by(|a, b| b.0.total_cmp(&a.0));
                for (_, b) in bluffs {
                    add(Action::Bluff(Box::new(b)));
                }
            }
            // Detective on an unsure statement, the likeliest truths, or
            // with few grids left the claims likeliest to leave one:
            // nothing to weigh.
            Some("claim") => add(sharp_claim(&view, seat, &known, &now, rng)),
            // Greedy's buy, or its guess once the grid is certain, and
            // waiting; never a gamble on a grid still in doubt (see
            // [`gambles`]) unless a guess is already due.
            Some(kind) => {
                let action = reveal(&view, seat, &known, &now, rng);
                if kind == "guess" || !gambles(&action, now.count) {
                    add(action);
                }
                if kind == "reveal" {
                    add(Action::Pass);
                }
            }
            None => {}
        }
        options
    }

    /// The next round's bluffs: weighing them would take a count of the
    /// grids per statement, for a round the leaf value already foresees.
    fn horizon(&self) -> bool {
        self.phase() == Phase::Bluff
    }

    /// Each seat's chance to name the grid first, from what it still has
    /// to learn: the bits of its grids left, less [`CELL_BITS`] for each
    /// cell its RP can buy (see [`race`]).
    fn evaluate(&self) -> f64 {
        let bits = |seat: Seat| {
            let known = knowledge::from_view(seat, &self.view(Viewer::Seat(seat)));
            let left = (count(known).max(1) as f64).log2();
            let cells = (self.rp(seat) / CELL_PRICE) as f64;
            (left - CELL_BITS * cells).max(0.0)
        };
        let lead = f64::from(self.rp(Seat::P1)) - f64::from(self.rp(Seat::P2));
        race(bits(Seat::P1), bits(Seat::P2), lead)
    }
}

/// Whether `action` guesses with `grids` still possible. Even from two, a
/// guess loses more games than it wins: a wrong one costs every RP, and
/// the next round's bluff tells two grids apart, so the seat that waits
/// names the grid a round later with its RP whole and, knowing more than
/// its opponent, wins the tie. Over 1,600 games against `greedy`, where
/// the other seat was not naming the grid that round, the search won 109
/// of the 111 such reveals it waited at and 99 of the 150 it guessed at
/// (where the other seat was, a guess won 27 of 69: docs/strength.md).
fn gambles(action: &Action, grids: u64) -> bool {
    matches!(action, Action::Guess(_)) && grids > 1
}

/// Bits a seat's bluff tells it in a round, on average…
const BITS_A_ROUND: f64 = 3.5;
/// …give or take this much.
const BITS_SPREAD: f64 = 1.0;
/// An RP lead this large wins a tie a round away about three times in
/// four (logistic scale, RP; it widens with the square root of the rounds).
const RP_SCALE: f64 = 12.0;
/// Rounds looked ahead; a race longer than that is called even.
const ROUNDS: u32 = 12;

/// The chance that P1, with `p1` bits left to learn, wins against P2 with
/// `p2`, P1 leading by `lead` RP. Games are won in whole rounds: each seat
/// names the grid in the first round by which its bluffs have told it
/// enough (a sum of rounds of [`BITS_A_ROUND`] each, give or take
/// [`BITS_SPREAD`]), and when both name it in the same round, the one with
/// more RP wins. A bit ahead weighs nothing if both still finish together,
/// and then the RP decide: judging by the lead in bits alone, the search
/// spent RP on cells and guesses that won no round, and lost those ties.
fn race(p1: f64, p2: f64, lead: f64) -> f64 {
    let done =
        |bits: f64, n: f64| logistic((n * BITS_A_ROUND - bits) / (BITS_SPREAD * n.sqrt()), NORMAL);
    let (mut win, mut p1_before, mut p2_before) = (0.0, 0.0, 0.0);
    for n in 1..=ROUNDS {
        let n = f64::from(n);
        let (p1_by, p2_by) = (done(p1, n), done(p2, n));
        let (p1_now, p2_now) = (p1_by - p1_before, p2_by - p2_before);
        win += p1_now * (1.0 - p2_by) + p1_now * p2_now * logistic(lead, RP_SCALE * n.sqrt());
        (p1_before, p2_before) = (p1_by, p2_by);
    }
    win + 0.5 * (1.0 - p1_before) * (1.0 - p2_before)
}

/// The standard normal distribution function, near enough: a logistic of
/// this scale.
const NORMAL: f64 = 1.0 / 1.702;

/// [`deduce::count`], remembered per thread: the leaves of one search
/// often share a seat's knowledge (its own statements' truths vary with
/// the grid drawn, but over few outcomes).
fn count(known: deduce::Knowledge) -> u64 {
    thread_local! {
        static COUNTS: RefCell<HashMap<deduce::Knowledge, u64>> = RefCell::new(HashMap::new());
    }
    /// Counts kept before the memo starts afresh.
    const KEPT: usize = 4096;
    if let Some(n) = COUNTS.with_borrow(|m| m.get(&known).copied()) {
        return n;
    }
    let n = deduce::count(&known);
    COUNTS.with_borrow_mut(|m| {
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(known, n);
    });
    n
}

#[cfg(test)]
mod tests {
    use super::race;
    use crate::knowledge::{self, Memory};
    use crate::{Action, Config, FourStatements, deduce};
    use umpire_bots::search::{Budget, search};
    use umpire_core::{Game, Seat, Think, Viewer, seeded_rng};

    #[test]
    fn a_claim_is_not_searched() {
        // The claim phase has one candidate (the likeliest truths, or
        // Detective): the search plays it after one iteration a thread,
        // not after its whole budget.
        let mut state = FourStatements::new(&Config::default(), 3).unwrap();
        let mut rng = seeded_rng(3);
        for seat in Seat::BOTH {
            let bluff = state.random_bluff(seat, &mut rng);
            state.play(seat, &Action::Bluff(Box::new(bluff))).unwrap();
        }
        assert_eq!(state.decision().kind(Seat::P1), Some("claim"));
        let view = state.view(Viewer::Seat(Seat::P1));
        let budget = Budget {
            iterations: Some(500),
            millis: None,
        };
        let found = search::<FourStatements>(
            Seat::P1,
            &view,
            &Memory::default(),
            budget,
            2,
            &Think::unlimited(),
            &mut rng,
        );
        assert_eq!(found.iterations, 2, "one iteration on each of 2 threads");
        let known = knowledge::from_view(Seat::P1, &view);
        let now = deduce::posterior(&known);
        let claim = crate::bot::sharp_claim(&view, Seat::P1, &known, &now, &mut rng);
        assert_eq!(found.action, Some(claim));
    }

    #[test]
    fn the_race_is_even_between_equals_and_fair_to_both_seats() {
        assert!((race(6.0, 6.0, 0.0) - 0.5).abs() < 1e-9);
        for (a, b, lead) in [(0.0, 4.0, 3.0), (9.0, 2.5, -5.0), (20.0, 21.0, 8.0)] {
            assert!((race(a, b, lead) + race(b, a, -lead) - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn fewer_bits_and_more_rp_win_more_often() {
        assert!(race(2.0, 8.0, 0.0) > 0.9);
        assert!(race(2.0, 8.0, 0.0) > race(4.0, 8.0, 0.0));
        // Both finish next round: the RP decide, not the bit ahead.
        assert!(race(0.5, 1.5, -16.0) < 0.5);
        assert!(race(1.0, 1.0, 16.0) > 0.7);
    }
}

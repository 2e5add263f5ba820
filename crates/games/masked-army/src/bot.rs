//! A one-move-ahead Masked Army bot, with a perfect memory of what it was
//! shown or a human-like one: each colour recalled with a set chance
//! (`forgetful`), or only the last few pieces' colours (`human`).

use std::collections::VecDeque;

use crate::board::{BOARD, SIZE};
use crate::{Action, MaskedArmy, Memory, View};
use rand::RngExt;
use umpire_core::grid::{Groups, bits};
use umpire_core::{BotInfo, Cell, Level, MatchRng, PerSeat, Seat, SeatView, arg_or};

use umpire_core::Think;

/// Masked Army's bots, weakest first within a level.
pub(crate) static BOTS: &[BotInfo] = &[
    BotInfo::plain::<Greedy>(
        "greedy",
        Level::Medium,
        "remembers every colour it was shown; grows its own armies and blocks the opponent's, one move ahead",
    ),
    BotInfo {
        name: "human",
        level: Level::Medium,
        about: "greedy that remembers only the last four pieces' colours, about a person's span \
            (human:N for the last N)",
        make: |a| {
            let n = arg_or(a, HUMAN_PIECES, |n: usize| n <= 64)?;
            Ok(Box::new(Greedy::new(Recall::Recent(n))))
        },
    },
    BotInfo {
        name: "forgetful",
        level: Level::Medium,
        about: "greedy that recalls each hidden colour with a set chance, tuned to win about \
            half its games against `human` (forgetful:P for chance P)",
        make: |a| {
            let p = arg_or(a, FORGETFUL_RECALL, |p: f64| (0.0..=1.0).contains(&p))?;
            Ok(Box::new(Greedy::new(Recall::Chance(p))))
        },
    },
    umpire_bots::search::bot::<MaskedArmy>(),
    BotInfo {
        name: "perfect",
        about: "the search bot, which remembers every colour it was shown",
        ..umpire_bots::search::bot::<MaskedArmy>()
    },
    umpire_bots::search::expert::<MaskedArmy>(),
];

/// How many pieces' colours `human` remembers.
pub const HUMAN_PIECES: usize = 4;
/// The chance that `forgetful` recalls a hidden colour (see docs/strength.md).
pub const FORGETFUL_RECALL: f64 = 0.45;

/// What a bot keeps of the colours it was shown (each view shows the last
/// piece's two colours; the colours on the board it sees now it always knows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recall {
    /// Every colour.
    Perfect,
    /// Each colour with this chance, drawn once when the colour is hidden.
    Chance(f64),
    /// The colours of the last so many pieces placed.
    Recent(usize),
}

/// Picks the move that most grows its own armies while least growing the
/// opponent's, as far as it remembers the colours, valuing an army by the
/// square of its size.
pub struct Greedy {
    recall: Recall,
    /// Every colour shown so far.
    seen: Memory,
    /// The cells whose recall was drawn, and those kept.
    drawn: u128,
    kept: u128,
    /// The cells of the last pieces placed, newest last.
    recent: VecDeque<u128>,
    /// What it remembers now: the colours `recall` keeps.
    memory: Memory,
}

impl Default for Greedy {
    fn default() -> Greedy {
        Greedy::new(Recall::Perfect)
    }
}

impl Greedy {
    pub fn new(recall: Recall) -> Greedy {
        Greedy {
            recall,
            seen: Memory::default(),
            drawn: 0,
            kept: 0,
            recent: VecDeque::new(),
            memory: Memory::default(),
        }
    }

    /// Notes the view's colours, and its last piece among the recent ones.
    fn note(&mut self, view: &View) {
        self.seen.remember(view);
        if let Some(last) = view.last {
            // A cell off the board (a view no match shows) marks nothing.
            let cells = BOARD.bit_if_on(last.mine) | BOARD.bit_if_on(last.theirs);
            if self.recent.back() != Some(&cells) {
                self.recent.push_back(cells);
            }
            if let Recall::Recent(n) = self.recall {
                while self.recent.len() > n {
                    self.recent.pop_front();
                }
            }
        }
    }

    /// Sets `memory` to what it recalls now, drawing the recall of colours
    /// it has not drawn for yet.
    fn recall(&mut self, view: &View, rng: &mut MatchRng) {
        let seen = self.seen.known.p1 | self.seen.known.p2;
        let keep = match self.recall {
            Recall::Perfect => seen,
            Recall::Chance(p) => {
                for cell in bits(seen & !self.drawn).map(|i| 1 << i) {
                    // No draw at 0 or 1, so a sure recall uses no randomness.
                    let kept = p >= 1.0 || (p > 0.0 && rng.random_bool(p));
                    if kept {
                        self.kept |= cell;
                    }
                }
                self.drawn |= seen;
                self.kept
            }
            Recall::Recent(_) => self.recent.iter().fold(0, |a, &c| a | c),
        };
        let mut now = Memory::default();
        now.remember(view);
        self.memory.known = PerSeat::from_fn(|s| (self.seen.known[s] & keep) | now.known[s]);
    }

    /// The armies of `seat`'s remembered cells.
    fn armies(&self, seat: Seat) -> Groups {
        Groups::of(BOARD, self.memory.known[seat])
    }
}

/// How much a new cell at `i` adds to its colour's sum of squared army sizes.
fn gain(i: usize, armies: &Groups) -> i64 {
    let merged = i64::from(armies.joined(i));
    let sizes = armies.next_to(i).map(|a| i64::from(armies.sizes()[a]));
    merged * merged - sizes.map(|s| s * s).sum::<i64>()
}

impl umpire_core::Bot for Greedy {
    fn observe(&mut self, seat: SeatView<'_>) {
        if let Some(view) = seat.typed_view::<MaskedArmy>() {
            self.note(&view);
        }
    }

    fn choose(&mut self, seat: SeatView<'_>, _: &Think, rng: &mut MatchRng) -> Option<String> {
        let view = seat.typed_view::<MaskedArmy>()?;
        self.note(&view);
        self.recall(&view, rng);
        let me = seat.seat();
        let actions = seat.typed_legal_actions::<MaskedArmy>()?;
        let (mine, theirs) = (self.armies(me), self.armies(me.other()));
        let value = |a: &Action| match *a {
            // Going first is a free tempo.
            Action::First(s) => i64::from(s == me),
            Action::Place { mine: m, theirs: t } => {
                let idx = |c: Cell| c.index(SIZE);
                gain(idx(m), &mine) - gain(idx(t), &theirs)
            }
        };
        let best = actions.iter().map(value).max()?;
        let top: Vec<&Action> = actions.iter().filter(|a| value(a) == best).collect();
        Some(top[rng.random_range(0..top.len())].to_string())
    }
}

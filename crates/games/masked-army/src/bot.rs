//! A one-move-ahead Masked Army bot, with a perfect memory of what it was
//! shown or a human-like one: each colour recalled with a set chance
//! (`forgetful`), or only the last few pieces' colours (`human`).

use std::collections::VecDeque;

use crate::{Action, MaskedArmy, Memory, View};
use rand::RngExt;
use umpire_core::{BotInfo, Cell, Level, MatchRng, PerSeat, Seat, SeatView, arg_or, plain};

use umpire_core::Think;

/// Masked Army's bots, weakest first within a level.
pub(crate) static BOTS: &[BotInfo] = &[
    BotInfo {
        name: "greedy",
        level: Level::Medium,
        about: "remembers every colour it was shown; grows its own armies and blocks the opponent's, one move ahead",
        make: |a| plain(a, || Box::<Greedy>::default()),
    },
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
];

/// How many pieces' colours `human` remembers.
pub const HUMAN_PIECES: usize = 4;
/// The chance that `forgetful` recalls a hidden colour (see docs/strength.md).
pub const FORGETFUL_RECALL: f64 = 0.45;

const SIZE: usize = 9;
const CELLS: usize = SIZE * SIZE;

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
            let cells = bit(last.mine) | bit(last.theirs);
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
                let mut fresh = seen & !self.drawn;
                while fresh != 0 {
                    let cell = fresh & fresh.wrapping_neg();
                    fresh &= fresh - 1;
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

    /// Army labels and sizes of `seat`'s remembered cells.
    fn armies(&self, seat: Seat) -> ([usize; CELLS], Vec<u32>) {
        let mine = self.memory.known[seat];
        let has = |i: usize| mine & (1u128 << i) != 0;
        let mut label = [usize::MAX; CELLS];
        let mut sizes = Vec::new();
        for start in 0..CELLS {
            if !has(start) || label[start] != usize::MAX {
                continue;
            }
            let id = sizes.len();
            let mut stack = vec![start];
            label[start] = id;
            let mut size = 0;
            while let Some(i) = stack.pop() {
                size += 1;
                for n in neighbours(i) {
                    if has(n) && label[n] == usize::MAX {
                        label[n] = id;
                        stack.push(n);
                    }
                }
            }
            sizes.push(size);
        }
        (label, sizes)
    }
}

fn bit(cell: Cell) -> u128 {
    // A cell off the board (a view no match shows) marks nothing.
    u32::try_from(cell.index(SIZE as u8))
        .ok()
        .filter(|&i| (i as usize) < CELLS)
        .map_or(0, |i| 1u128 << i)
}

fn neighbours(i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / SIZE, i % SIZE);
    [
        (r > 0).then(|| i - SIZE),
        (r + 1 < SIZE).then(|| i + SIZE),
        (c > 0).then(|| i - 1),
        (c + 1 < SIZE).then(|| i + 1),
    ]
    .into_iter()
    .flatten()
}

/// How much a new cell at `i` adds to its colour's sum of squared army sizes.
fn gain(i: usize, label: &[usize; CELLS], sizes: &[u32]) -> i64 {
    let mut joined: Vec<usize> = neighbours(i)
        .map(|n| label[n])
        .filter(|&l| l != usize::MAX)
        .collect();
    joined.sort_unstable();
    joined.dedup();
    let merged: i64 = 1 + joined.iter().map(|&l| sizes[l] as i64).sum::<i64>();
    merged * merged
        - joined
            .iter()
            .map(|&l| (sizes[l] as i64).pow(2))
            .sum::<i64>()
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
        let (mine, mine_sizes) = self.armies(me);
        let (theirs, their_sizes) = self.armies(me.other());
        let value = |a: &Action| match *a {
            // Going first is a free tempo.
            Action::First(s) => i64::from(s == me),
            Action::Place { mine: m, theirs: t } => {
                let idx = |c: Cell| c.index(SIZE as u8);
                gain(idx(m), &mine, &mine_sizes) - gain(idx(t), &theirs, &their_sizes)
            }
        };
        let best = actions.iter().map(value).max()?;
        let top: Vec<&Action> = actions.iter().filter(|a| value(a) == best).collect();
        Some(top[rng.random_range(0..top.len())].to_string())
    }
}

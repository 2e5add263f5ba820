//! A one-move-ahead Masked Army bot with a perfect memory of what it was shown.

use rand::RngExt;
use umpire_core::{Cell, MatchRng, Seat, SeatView};
use umpire_masked_army::{Action, MaskedArmy, Memory};

use crate::Think;

const SIZE: usize = 9;
const CELLS: usize = SIZE * SIZE;

/// Remembers every colour it has seen (the last piece of each view) and picks
/// the move that most grows its own armies while least growing the
/// opponent's, valuing an army by the square of its size.
#[derive(Default)]
pub struct Greedy {
    memory: Memory,
}

impl Greedy {
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

impl crate::Bot for Greedy {
    fn observe(&mut self, seat: SeatView<'_>) {
        seat.remember::<MaskedArmy>(&mut self.memory);
    }

    fn choose(&mut self, seat: SeatView<'_>, _: &Think, rng: &mut MatchRng) -> Option<String> {
        self.observe(seat);
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

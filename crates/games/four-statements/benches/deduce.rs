//! The exact posterior of mid-game knowledge states, against enumerating
//! every grid: 4 known cells, 2–3 own rounds (four statements each) over
//! connected 6–8-cell subsets and 1–2 claims facts over the opponent's.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{Rng, RngExt};
use umpire_core::seeded_rng;
use umpire_four_statements::deduce::{Knowledge, brute_force, posterior, sample};
use umpire_four_statements::grid::{CELLS, CellSet, Colour, Grid};
use umpire_four_statements::table::Table;

/// A random connected set of `n` cells.
fn connected(rng: &mut impl Rng, n: usize) -> CellSet {
    let mut set = CellSet::single(rng.random_range(0..CELLS));
    while set.len() < n {
        let border: Vec<usize> = set.orthogonal_border().indices().collect();
        set = set.with(border[rng.random_range(0..border.len())]);
    }
    set
}

/// A random statement-like predicate over `cells`.
fn predicate(rng: &mut impl Rng, cells: CellSet) -> Box<dyn Fn(Grid) -> bool> {
    let colour = Colour::from_index(rng.random_range(0..4u8));
    let list: Vec<usize> = cells.indices().collect();
    let a = list[rng.random_range(0..list.len())];
    let b = list[rng.random_range(0..list.len())];
    let m = rng.random_range(1..=3usize);
    match rng.random_range(0..3) {
        0 => Box::new(move |g: Grid| g.count(cells, colour) >= m),
        1 => Box::new(move |g: Grid| g.get(a) == g.get(b)),
        _ => Box::new(move |g: Grid| g.get(a) == colour || g.count(cells, colour) > m),
    }
}

/// A mid-game state of one seat, from a hidden grid.
fn state(seed: u64, rounds: usize, claims: usize) -> Knowledge {
    let mut rng = seeded_rng(seed);
    let hidden = Grid(rng.random());
    let mut k = Knowledge::default();
    while k.known.iter().flatten().count() < 4 {
        let i = rng.random_range(0..CELLS);
        k.known[i] = Some(hidden.get(i));
    }
    for _ in 0..rounds {
        // Own round: the truth pattern of four statements.
        let n = rng.random_range(6..=8);
        let cells = connected(&mut rng, n);
        let preds: Vec<_> = (0..4).map(|_| predicate(&mut rng, cells)).collect();
        let truth: Vec<bool> = preds.iter().map(|p| p(hidden)).collect();
        k.facts.push(Table::from_fn(cells, |g| {
            preds.iter().zip(&truth).all(|(p, &t)| p(g) == t)
        }));
    }
    for _ in 0..claims {
        // Claims on the opponent's round: how many were right.
        let n = rng.random_range(6..=8);
        let cells = connected(&mut rng, n);
        let preds: Vec<_> = (0..4).map(|_| predicate(&mut rng, cells)).collect();
        let claimed: Vec<bool> = (0..4).map(|_| rng.random()).collect();
        let right = |g: Grid| {
            preds
                .iter()
                .zip(&claimed)
                .filter(|(p, c)| p(g) == **c)
                .count()
        };
        let points = right(hidden);
        k.facts.push(Table::from_fn(cells, |g| right(g) == points));
    }
    k
}

/// A rare wide state: 4 known cells and a fact over the 12 others (an
/// item lifted the subset size limit), plus one round.
fn wide_state(seed: u64) -> Knowledge {
    let mut k = state(seed, 1, 0);
    let unknown = CellSet(
        (0..CELLS)
            .filter(|&i| k.known[i].is_none())
            .fold(0, |m, i| m | 1 << i),
    );
    let mut rng = seeded_rng(seed);
    let hidden = Grid(rng.random());
    let reds = hidden.count(unknown, Colour::Red);
    k.facts.push(Table::from_fn(unknown, |g| {
        g.count(unknown, Colour::Red) == reds
    }));
    k
}

fn bench(c: &mut Criterion) {
    let states = [state(1, 2, 1), state(2, 3, 1), state(3, 3, 2)];
    for (n, k) in states.iter().enumerate() {
        let cells: Vec<usize> = k.facts.iter().map(|f| f.cells().len()).collect();
        let p = posterior(k);
        eprintln!(
            "state {n}: fact sizes {cells:?}, {} grids possible",
            p.count
        );
    }
    let mut group = c.benchmark_group("four-statements");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for (n, k) in states.iter().enumerate() {
        group.bench_with_input(BenchmarkId::new("posterior", n), k, |b, k| {
            b.iter(|| posterior(k))
        });
    }
    let wide = wide_state(4);
    group.bench_function("posterior wide", |b| b.iter(|| posterior(&wide)));
    let mut rng = seeded_rng(0);
    group.bench_with_input(BenchmarkId::new("sample", 1), &states[1], |b, k| {
        b.iter(|| sample(k, &mut rng))
    });
    group.sample_size(10);
    for (n, k) in states.iter().enumerate() {
        group.bench_with_input(BenchmarkId::new("brute force", n), k, |b, k| {
            b.iter(|| brute_force(k))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

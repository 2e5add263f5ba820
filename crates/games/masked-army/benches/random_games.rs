//! Random-against-random Masked Army games per second: the engine's hot path
//! (sampling a legal move, applying it, detecting the end, scoring).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use umpire_core::{Game, seeded_rng};
use umpire_masked_army::{Config, MaskedArmy};

/// Plays one whole game with uniformly random legal moves; returns its length.
fn random_game(seed: u64) -> usize {
    let mut rng = seeded_rng(seed);
    let mut state = MaskedArmy::new(&Config::default(), seed).unwrap();
    let mut moves = 0;
    while let Some(seat) = state.decision().seats.iter().next() {
        let action = state.sample_action(seat, &mut rng).unwrap();
        state.apply(seat, &action).unwrap();
        moves += 1;
    }
    std::hint::black_box(state.outcome());
    moves
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("masked-army");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random game", |b| {
        b.iter(|| {
            seed += 1;
            random_game(seed)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

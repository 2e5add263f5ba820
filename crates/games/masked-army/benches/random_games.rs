//! Random-against-random Masked Army games per second: the engine's hot path
//! (sampling a legal move, applying it, detecting the end, scoring).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use umpire_core::conformance::play_randomly;
use umpire_core::{Game, seeded_rng};
use umpire_masked_army::{Config, MaskedArmy};

/// Plays one whole game with uniformly random legal moves; returns its length.
fn random_game(seed: u64) -> usize {
    let mut state = MaskedArmy::new(&Config::default(), seed).unwrap();
    let length = play_randomly(&mut state, usize::MAX, &mut seeded_rng(seed));
    std::hint::black_box(state.outcome());
    length
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

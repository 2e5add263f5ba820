//! Random-against-random Pentomino Wall games through the generic engine
//! API: sampling a legal action, applying it, detecting the end, scoring.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use umpire_core::conformance::play_randomly;
use umpire_core::{Game, seeded_rng};
use umpire_pentomino_wall::{Config, PentominoWall};

/// Plays one whole game with uniformly random legal actions; returns its length.
fn random_game(seed: u64) -> usize {
    let mut state = PentominoWall::new(&Config::default(), seed).unwrap();
    let length = play_randomly(&mut state, usize::MAX, &mut seeded_rng(seed));
    std::hint::black_box(state.outcome());
    length
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pentomino-wall");
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

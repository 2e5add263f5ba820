//! Random-against-random Bomb Domain games per second through the generic
//! engine API: sampling a legal action (starter choice, sealed placements,
//! whole turns), applying it, the final blast and the count.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use umpire_bomb_domain::{BombDomain, Config};
use umpire_core::conformance::play_randomly;
use umpire_core::{Game, seeded_rng};

/// Plays one whole game with random legal actions; returns its length.
fn random_game(config: &Config, seed: u64) -> usize {
    let mut state = BombDomain::new(config, seed).unwrap();
    let length = play_randomly(&mut state, usize::MAX, &mut seeded_rng(seed));
    std::hint::black_box(state.outcome());
    length
}

fn bench(c: &mut Criterion) {
    let config = Config::default();
    let mut group = c.benchmark_group("bomb-domain");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random game", |b| {
        b.iter(|| {
            seed += 1;
            random_game(&config, seed)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Random-against-random Four Statements games through the generic engine
//! API (random subsets and valid statements, claims, Detective, buys and
//! guesses, ten rounds to a draw). Judging statements: `benches/judge.rs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use umpire_core::conformance::play_randomly;
use umpire_core::{Game, seeded_rng};
use umpire_four_statements::{Config, FourStatements};

fn random_game(config: &Config, seed: u64) -> usize {
    let mut state = FourStatements::new(config, seed).unwrap();
    let length = play_randomly(&mut state, usize::MAX, &mut seeded_rng(seed));
    std::hint::black_box(state.outcome());
    length
}

fn bench(c: &mut Criterion) {
    let config = Config {
        max_rounds: Some(10),
        ..Config::default()
    };
    let mut group = c.benchmark_group("four-statements");
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

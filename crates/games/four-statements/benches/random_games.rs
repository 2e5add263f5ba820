//! Random-against-random Four Statements games through the generic engine
//! API (random subsets and valid statements, claims, buys and guesses, ten
//! rounds to a draw), and the validity check of statements on an 8-tile
//! subset (every tile must matter: up to all 4^8 colourings are judged).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use umpire_core::conformance::play_randomly;
use umpire_core::{Game, seeded_rng};
use umpire_four_statements::grid::CellSet;
use umpire_four_statements::statement::Statement;
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
    let subset = CellSet::parse("A1 B1 C1 D1 A2 B2 C2 D2").unwrap();
    for text in [
        "There are at least two red tiles.",
        "A red tile is orthogonally adjacent to a blue tile or there are exactly two green tiles.",
        "The largest blue group has at least three tiles.",
        // Invalid: no colouring shows the other tiles matter, so all 4^8
        // are judged before the refusal.
        "The leftmost tile is red.",
    ] {
        let s: Statement = text.parse().unwrap();
        group.bench_function(format!("check 8 tiles: {text}"), |b| {
            b.iter(|| std::hint::black_box(s.check(subset)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

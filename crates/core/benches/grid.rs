//! `cargo bench -p umpire-core --bench grid`: the board geometry every game
//! leans on, on half-full 9×9 and 10×10 boards: connected groups, their
//! labels, neighbours and a uniform draw of a cell.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::RngExt;
use umpire_core::grid::{Board, Groups, nth_bit};
use umpire_core::seeded_rng;

/// Sets of cells, each cell in with a chance of one half.
fn sets(board: Board, n: usize) -> Vec<u128> {
    let mut rng = seeded_rng(1);
    (0..n).map(|_| rng.random::<u128>() & board.all).collect()
}

fn bench(c: &mut Criterion) {
    for board in [Board::new(9, 9), Board::new(10, 10)] {
        let mut group = c.benchmark_group(format!("grid {}x{}", board.width, board.height));
        let sets = sets(board, 64);
        group.bench_function("groups of 64 sets", |b| {
            b.iter(|| sets.iter().map(|&s| board.groups(s).count()).sum::<usize>())
        });
        group.bench_function("labelled groups of 64 sets", |b| {
            b.iter(|| {
                (sets.iter())
                    .map(|&s| Groups::of(board, s).joined(40))
                    .sum::<u32>()
            })
        });
        group.bench_function("grow 64 sets", |b| {
            b.iter(|| sets.iter().fold(0, |acc, &s| acc ^ board.around(s)))
        });
        group.bench_function("nth bit of 64 sets", |b| {
            b.iter(|| {
                (sets.iter())
                    .map(|&s| nth_bit(s, s.count_ones() / 2))
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

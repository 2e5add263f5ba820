//! `cargo bench -p umpire-pentomino-wall --bench search`: search iterations per second.

use criterion::{Criterion, criterion_group, criterion_main};
use umpire_pentomino_wall::PentominoWall;

fn search(c: &mut Criterion) {
    umpire_bots::bench::search::<PentominoWall>(c, 30, "place", 1000);
}

criterion_group!(benches, search);
criterion_main!(benches);

//! `cargo bench -p umpire-flower-domain --bench search`: search iterations per second.

use criterion::{Criterion, criterion_group, criterion_main};
use umpire_flower_domain::FlowerDomain;

fn search(c: &mut Criterion) {
    umpire_bots::bench::search::<FlowerDomain>(c, 12, "move", 100);
}

criterion_group!(benches, search);
criterion_main!(benches);

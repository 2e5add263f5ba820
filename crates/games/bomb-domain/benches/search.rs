//! `cargo bench -p umpire-bomb-domain --bench search`: search iterations per second.

use criterion::{Criterion, criterion_group, criterion_main};
use umpire_bomb_domain::BombDomain;

fn search(c: &mut Criterion) {
    umpire_bots::bench::search::<BombDomain>(c, 12, "turn", 1000);
}

criterion_group!(benches, search);
criterion_main!(benches);

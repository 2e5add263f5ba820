//! `cargo bench -p umpire-masked-army --bench search`: search iterations per second.

use criterion::{Criterion, criterion_group, criterion_main};
use umpire_masked_army::MaskedArmy;

fn search(c: &mut Criterion) {
    umpire_bots::bench::search::<MaskedArmy>(c, 11, "place", 2000);
}

criterion_group!(benches, search);
criterion_main!(benches);

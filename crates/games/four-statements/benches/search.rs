//! `cargo bench -p umpire-four-statements --bench search`: search iterations per second.

use criterion::{Criterion, criterion_group, criterion_main};
use umpire_four_statements::FourStatements;

fn searches(c: &mut Criterion) {
    umpire_bots::bench::search::<FourStatements>(c, 6, "bluff", 200);
}

criterion_group!(benches, searches);
criterion_main!(benches);

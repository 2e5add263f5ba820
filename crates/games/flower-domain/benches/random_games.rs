//! Random-against-random Flower Domain games (in CPU time) through the
//! generic engine API (sampling a legal action, applying it, detecting the
//! end, scoring), and listing every legal move of an opening position.

use criterion::{Criterion, criterion_group, criterion_main};
use umpire_bots::bench::{ThreadCpu, cpu_time, random_games};
use umpire_core::conformance::play_text;
use umpire_core::{Game, Seat};
use umpire_flower_domain::{Config, FlowerDomain};

#[path = "../tests/common/mod.rs"]
mod common;
use common::DRAFT;

/// Seed 0's position after the study and the draft: red's first move.
fn opening(config: &Config) -> (FlowerDomain, Seat) {
    let mut state = FlowerDomain::new(config, 0).unwrap();
    for (seat, text) in DRAFT {
        play_text(&mut state, seat, text);
    }
    (state, Seat::P1)
}

fn bench(c: &mut Criterion<ThreadCpu>) {
    random_games::<FlowerDomain>(c, &Config::default());
    let mut group = c.benchmark_group("flower-domain");
    for (name, config) in [
        ("list opening moves (amended)", Config::default()),
        (
            "list second moves (any)",
            Config {
                first_move: umpire_flower_domain::FirstMove::Original,
                ..Config::default()
            },
        ),
    ] {
        let (mut state, seat) = opening(&config);
        if name.contains("second") {
            // Any first move, then the other seat faces an unrestricted list.
            let first = state.legal_actions(seat).unwrap().nth(1).unwrap();
            state.play(seat, &first).unwrap();
        }
        let seat = state.decision().seats().iter().next().unwrap();
        group.bench_function(name, |b| {
            b.iter(|| state.legal_actions(seat).unwrap().count())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = cpu_time();
    targets = bench
}
criterion_main!(benches);

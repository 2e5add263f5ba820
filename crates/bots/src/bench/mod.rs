//! The search benchmark every game's crate runs (`benches/search.rs`, with
//! this crate's `bench` feature): search iterations per second from a
//! position a few random moves into a match; criterion's throughput is
//! iterations per second.

use criterion::{Criterion, Throughput};
use serde_json::json;
use umpire_core::{Match, MatchOptions, Seat, Think, Viewer, erase, seeded_rng};

use crate::search::{Budget, SearchGame, search as search_move};

/// The seat to move, its view and memory after `moves` random actions and
/// as many more as it takes to reach a decision of `kind`.
fn position<G: SearchGame>(moves: usize, kind: &str) -> (Seat, G::View, G::Memory) {
    let mut m = Match::new(erase::<G>(), &json!({}), 7, MatchOptions::untimed())
        .expect("the default config");
    let mut rng = seeded_rng(7);
    let mut memory = G::Memory::default();
    for n in 0.. {
        let Some(seat) = m.decision().seats().iter().next() else {
            panic!("{}: no {kind} decision after {moves} moves", G::ID);
        };
        if n >= moves && m.decision().kind(seat) == Some(kind) {
            break;
        }
        let action = m.seat_view(seat).sample_action(&mut rng).expect("a move");
        m.submit(seat, &action, 0).expect("a legal move");
        m.seat_view(Seat::P1).remember::<G>(&mut memory);
    }
    let state = m.state().downcast::<G>().expect("the game").clone();
    let seat = state.decision().seats().iter().next().expect("not over");
    let mut memory_of_seat = G::Memory::default();
    if seat == Seat::P1 {
        memory_of_seat = memory;
    }
    G::remember(&mut memory_of_seat, &state.view(Viewer::Seat(seat)));
    (seat, state.view(Viewer::Seat(seat)), memory_of_seat)
}

/// Benchmarks `iterations` of search (as `search/<id>`) from the first
/// decision of `kind` after `moves` random actions of seed 7.
pub fn search<G: SearchGame>(c: &mut Criterion, moves: usize, kind: &str, iterations: u64) {
    let (seat, view, memory) = position::<G>(moves, kind);
    let budget = Budget {
        iterations: Some(iterations),
        millis: None,
    };
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(iterations));
    group.sample_size(10);
    group.bench_function(G::ID, |b| {
        let mut rng = seeded_rng(1);
        b.iter(|| search_move::<G>(seat, &view, &memory, budget, &Think::unlimited(), &mut rng));
    });
    group.finish();
}

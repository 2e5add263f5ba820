//! The benchmarks every game's crate runs (with this crate's `bench`
//! feature): the search's iterations per second from a position a few
//! random moves into a match (`benches/search.rs`; criterion's throughput
//! is iterations per second), and random games timed in CPU time
//! ([`ThreadCpu`], `benches/random_games.rs`).

mod thread_cpu;

pub use thread_cpu::ThreadCpu;

use criterion::{Criterion, Throughput};
use serde_json::json;
use umpire_core::conformance::play_randomly;
use umpire_core::{Game, Match, MatchOptions, Seat, Think, Viewer, erase, seeded_rng};

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
        b.iter(|| {
            search_move::<G>(
                seat,
                &view,
                &memory,
                budget,
                1,
                &Think::unlimited(),
                &mut rng,
            )
        });
    });
    group.finish();
}

/// Criterion timing in this thread's CPU time.
pub fn cpu_time() -> Criterion<ThreadCpu> {
    Criterion::default().with_measurement(ThreadCpu)
}

/// Benchmarks whole games of random legal actions from `config`, a new
/// seed each (as `<id>/random game`): sampling an action, applying it,
/// detecting the end, scoring.
pub fn random_games<G: Game>(c: &mut Criterion<ThreadCpu>, config: &G::Config) {
    let mut group = c.benchmark_group(G::ID);
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random game", |b| {
        b.iter(|| {
            seed += 1;
            let mut state = G::new(config, seed).expect("the benchmark's config");
            let length = play_randomly(&mut state, usize::MAX, &mut seeded_rng(seed));
            std::hint::black_box(state.outcome());
            length
        })
    });
    group.finish();
}

/// A game's whole random-game benchmark (`benches/random_games.rs`):
/// `umpire_bots::random_games_bench!(MyGame, Config::default());`
#[macro_export]
macro_rules! random_games_bench {
    ($game:ty, $config:expr) => {
        fn bench(c: &mut criterion::Criterion<$crate::bench::ThreadCpu>) {
            $crate::bench::random_games::<$game>(c, &$config);
        }
        criterion::criterion_group! {
            name = benches;
            config = $crate::bench::cpu_time();
            targets = bench
        }
        criterion::criterion_main!(benches);
    };
}

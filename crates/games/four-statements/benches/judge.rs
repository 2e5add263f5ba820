//! Judging statements as players send them: a generated set of 1,000
//! statements (random meanings of every kind, valid or not, said in their
//! canonical sentences) on subsets of 4–16 tiles (those over 8, and a
//! quarter of them scattered, are No Limit subsets). Each judgement reads
//! the sentence, weighs its readings and decides validity exactly.
//!
//! Before criterion's runs it times every statement on its own (the median
//! of 5 runs) and prints the p50, p99 and slowest judgement of the set.
//! Three statements written to cost the most are timed on their own too.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng, seq::SliceRandom};
use umpire_four_statements::grid::CellSet;
use umpire_four_statements::random_connected;
use umpire_four_statements::statement::{arbitrary, judge};

/// Statements made to cost the judge the most.
const DEAR: [&str; 3] = [
    "The largest group has exactly four tiles and no two adjacent tiles share a colour.",
    "The largest group has exactly two tiles and all four colours appear.",
    "The largest group has exactly three tiles and the largest group has exactly four tiles.",
];

/// The set: (sentence, subset), seeded.
fn statements() -> Vec<(String, CellSet)> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1000);
    (0..1000)
        .map(|n| {
            let size = 4 + n % 13;
            let subset = if size > 8 && rng.random_ratio(1, 4) {
                let mut cells: Vec<usize> = (0..16).collect();
                cells.shuffle(&mut rng);
                cells[..size].iter().fold(CellSet::EMPTY, |s, &i| s.with(i))
            } else {
                random_connected(size, &mut rng)
            };
            (arbitrary(subset, &mut rng).to_string(), subset)
        })
        .collect()
}

fn time(text: &str, subset: CellSet) -> std::time::Duration {
    let mut runs: Vec<_> = (0..5)
        .map(|_| {
            let started = std::time::Instant::now();
            std::hint::black_box(judge(text, subset)).ok();
            started.elapsed()
        })
        .collect();
    runs.sort();
    runs[2]
}

fn bench(c: &mut Criterion) {
    let set = statements();
    let mut times: Vec<(std::time::Duration, usize)> = set
        .iter()
        .enumerate()
        .map(|(i, (text, subset))| (time(text, *subset), i))
        .collect();
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].0;
    let (slowest, worst) = *times.last().expect("statements");
    let valid = set.iter().filter(|(t, s)| judge(t, *s).is_ok()).count();
    println!(
        "judged {} statements ({valid} valid) on 4–16 tiles: p50 {:?}, p99 {:?}, slowest {:?}: {:?} on {}",
        set.len(),
        at(0.5),
        at(0.99),
        slowest,
        set[worst].0,
        set[worst].1
    );
    let mut group = c.benchmark_group("four-statements");
    group.sample_size(10);
    group.bench_function("judge 1,000 statements", |b| {
        b.iter(|| {
            for (text, subset) in &set {
                std::hint::black_box(judge(text, *subset)).ok();
            }
        })
    });
    let (text, subset) = &set[worst];
    group.bench_function("judge the slowest statement", |b| {
        b.iter(|| std::hint::black_box(judge(text, *subset)).ok())
    });
    // Written to be dear: the largest group of any colour on the whole
    // grid, where only a decision diagram can settle the statement.
    for text in DEAR {
        group.bench_function(format!("dear: {text}"), |b| {
            b.iter(|| std::hint::black_box(judge(text, CellSet::ALL)).ok())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

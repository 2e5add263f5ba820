//! The deduction engine against the brute-force oracle, on random knowledge
//! states shaped like the game's (connected subsets, predicate facts, claims)
//! and on random truth tables, plus sampling and edge cases.

use rand::{Rng, RngExt};
use umpire_core::seeded_rng;
use umpire_four_statements::deduce::{
    Knowledge, Posterior, brute_force, count, posterior, posterior_within, sample, sample_within,
    samples,
};
use umpire_four_statements::grid::{CELLS, CellSet, Colour, Grid};
use umpire_four_statements::table::Table;

fn random_grid(rng: &mut impl Rng) -> Grid {
    Grid(rng.random())
}

/// A random connected set of `n` cells, grown from a random cell.
fn connected(rng: &mut impl Rng, n: usize) -> CellSet {
    let mut set = CellSet::single(rng.random_range(0..CELLS));
    while set.len() < n {
        let border: Vec<usize> = set.orthogonal_border().indices().collect();
        set = set.with(border[rng.random_range(0..border.len())]);
    }
    assert!(set.is_connected());
    set
}

/// A random connected subset of 4–8 cells, as a round's.
fn subset(rng: &mut impl Rng) -> CellSet {
    let n = rng.random_range(4..=8);
    connected(rng, n)
}

/// A random predicate over `cells`, like the statements' kinds.
fn predicate(rng: &mut impl Rng, cells: CellSet) -> Box<dyn Fn(Grid) -> bool> {
    let colour = Colour::from_index(rng.random_range(0..4u8));
    let list: Vec<usize> = cells.indices().collect();
    let a = list[rng.random_range(0..list.len())];
    let b = list[rng.random_range(0..list.len())];
    let m = rng.random_range(0..=3usize);
    match rng.random_range(0..5) {
        0 => Box::new(move |g: Grid| g.count(cells, colour) >= m),
        1 => Box::new(move |g: Grid| g.count(cells, colour) == m),
        2 => Box::new(move |g: Grid| g.get(a) == g.get(b)),
        3 => Box::new(move |g: Grid| g.get(a) == colour || g.count(cells, colour) > m + 1),
        _ => Box::new(move |g: Grid| {
            Colour::ALL
                .iter()
                .filter(|&&c| g.count(cells, c) > 0)
                .count()
                > m
        }),
    }
}

/// An own round: four statements on a subset, the fact is their truth
/// pattern on the hidden grid.
fn round_fact(rng: &mut impl Rng, hidden: Grid, cells: CellSet) -> Table {
    let preds: Vec<_> = (0..4).map(|_| predicate(rng, cells)).collect();
    let truth: Vec<bool> = preds.iter().map(|p| p(hidden)).collect();
    Table::from_fn(cells, |g| preds.iter().zip(&truth).all(|(p, &t)| p(g) == t))
}

/// Claims on the opponent's four statements: the fact is how many of the
/// claims were right.
fn claims_fact(rng: &mut impl Rng, hidden: Grid, cells: CellSet) -> Table {
    let preds: Vec<_> = (0..4).map(|_| predicate(rng, cells)).collect();
    let claims: Vec<bool> = (0..4).map(|_| rng.random()).collect();
    let right = |g: Grid| {
        preds
            .iter()
            .zip(&claims)
            .filter(|(p, c)| p(g) == **c)
            .count()
    };
    let points = right(hidden);
    Table::from_fn(cells, |g| right(g) == points)
}

/// Each colouring allowed with chance `p`.
fn random_table(rng: &mut impl Rng, cells: CellSet, p: f64) -> Table {
    let mut t = Table::none(cells);
    for k in 0..t.size() {
        if rng.random_bool(p) {
            t.insert(k);
        }
    }
    t
}

/// A random state: `known` cells of a hidden grid and a mix of facts.
fn random_state(rng: &mut impl Rng, known: usize) -> Knowledge {
    let hidden = random_grid(rng);
    let mut k = Knowledge::default();
    while k.known.iter().flatten().count() < known {
        let i = rng.random_range(0..CELLS);
        k.known[i] = Some(hidden.get(i));
    }
    for _ in 0..rng.random_range(1..=5) {
        let cells = subset(rng);
        let fact = match rng.random_range(0..4) {
            0 => round_fact(rng, hidden, cells),
            1 => claims_fact(rng, hidden, cells),
            // Random tables: dense, sparse (often contradictory), or over
            // any cells, not only connected ones.
            2 => {
                let p = rng.random_range(0.05..0.9);
                random_table(rng, cells, p)
            }
            _ => {
                let cells = CellSet(rng.random::<u16>() & rng.random::<u16>());
                random_table(rng, cells, 0.5)
            }
        };
        k.facts.push(fact);
    }
    // Wrong guesses: some possible, some not, some repeated.
    for _ in 0..rng.random_range(0..3) {
        let g = if rng.random_bool(0.5) {
            hidden
        } else {
            random_grid(rng)
        };
        k.not.push(g);
        if rng.random_bool(0.3) {
            k.not.push(g);
        }
    }
    k
}

/// A state's posterior, every way, agrees with the oracle; returns it.
fn check(k: &Knowledge) -> Posterior {
    let expected = brute_force(k);
    assert_eq!(posterior(k), expected, "{k:?}");
    assert_eq!(count(k), expected.count, "count: {k:?}");
    for width in [2, 4, 7] {
        assert_eq!(posterior_within(k, width), expected, "width {width}: {k:?}");
    }
    for cell in &expected.cells {
        assert_eq!(cell.iter().sum::<u64>(), expected.count);
    }
    expected
}

#[test]
fn random_states_match_brute_force() {
    let mut rng = seeded_rng(1);
    let mut possible = 0;
    for _ in 0..300 {
        let known = rng.random_range(8..=11);
        let k = random_state(&mut rng, known);
        possible += usize::from(check(&k).count > 0);
    }
    // Both kinds occur.
    assert!((50..300).contains(&possible), "{possible}");
}

#[test]
fn wide_states_match_brute_force() {
    let mut rng = seeded_rng(2);
    for _ in 0..4 {
        let k = random_state(&mut rng, 7);
        check(&k);
    }
}

#[test]
fn realistic_states_match_brute_force() {
    // Consistent knowledge from one hidden grid: the count is never 0.
    let mut rng = seeded_rng(3);
    for _ in 0..40 {
        let hidden = random_grid(&mut rng);
        let mut k = Knowledge::default();
        while k.known.iter().flatten().count() < 8 {
            let i = rng.random_range(0..CELLS);
            k.known[i] = Some(hidden.get(i));
        }
        for _ in 0..rng.random_range(2..=4) {
            let cells = subset(&mut rng);
            k.facts.push(round_fact(&mut rng, hidden, cells));
        }
        let cells = subset(&mut rng);
        k.facts.push(claims_fact(&mut rng, hidden, cells));
        let p = check(&k);
        assert!(p.count >= 1);
        for i in 0..CELLS {
            assert!(p.cells[i][hidden.get(i) as usize] >= 1);
        }
    }
}

#[test]
fn a_twelve_cell_fact() {
    let mut rng = seeded_rng(4);
    let hidden = random_grid(&mut rng);
    let cells = connected(&mut rng, 12);
    let mut k = Knowledge::default();
    // Six known cells, three of them inside the fact: nine unknown cells.
    let inside: Vec<usize> = cells.indices().collect();
    let outside: Vec<usize> = CellSet::ALL.minus(cells).indices().collect();
    for &i in inside[..3].iter().chain(&outside[..3]) {
        k.known[i] = Some(hidden.get(i));
    }
    let reds = hidden.count(cells, Colour::Red);
    k.facts.push(Table::from_fn(cells, |g| {
        g.count(cells, Colour::Red) == reds
    }));
    let small = connected(&mut rng, 5);
    k.facts.push(round_fact(&mut rng, hidden, small));
    k.not.push(hidden);
    check(&k);
}

#[test]
fn a_fact_wider_than_one_table() {
    // Eleven unknown cells in one fact: more than one elimination table
    // holds, so the engine fixes cells; compared on the count and a few
    // cells, the oracle being slow in a debug build.
    let mut rng = seeded_rng(5);
    let hidden = random_grid(&mut rng);
    let mut k = Knowledge::default();
    for i in [0, 5, 10, 15, 3] {
        k.known[i] = Some(hidden.get(i));
    }
    let cells = CellSet::ALL.minus(CellSet(1 | 1 << 5 | 1 << 10 | 1 << 15 | 1 << 3));
    let greens = hidden.count(cells, Colour::Green);
    k.facts.push(Table::from_fn(cells, |g| {
        g.count(cells, Colour::Green) == greens && g.get(1) != g.get(2)
    }));
    let p = posterior(&k);
    assert_eq!(p, brute_force(&k));
    assert!(p.count > 0);
    let mut rng = seeded_rng(6);
    for _ in 0..5 {
        let g = sample(&k, &mut rng).unwrap();
        assert!(k.allows(g));
    }
}

#[test]
fn nothing_known() {
    let p = posterior(&Knowledge::default());
    assert_eq!(p.count, 1 << 32);
    assert!(p.cells.iter().flatten().all(|&n| n == 1 << 30));
    assert_eq!(p.probability(7, Colour::Green), 0.25);
    assert_eq!(p.is_certain(), None);
    // A fact over no unknown cell that holds changes nothing.
    let mut k = Knowledge::default();
    k.facts.push(Table::all(CellSet::EMPTY));
    assert_eq!(posterior(&k), p);
}

#[test]
fn everything_known() {
    let mut rng = seeded_rng(7);
    let hidden = random_grid(&mut rng);
    let mut k = Knowledge::default();
    for i in 0..CELLS {
        k.known[i] = Some(hidden.get(i));
    }
    let cells = connected(&mut rng, 6);
    k.facts.push(round_fact(&mut rng, hidden, cells));
    let p = check(&k);
    assert_eq!(p.count, 1);
    assert_eq!(p.is_certain(), Some(hidden));
    assert_eq!(p.certain_colour(4), Some(hidden.get(4)));
    assert_eq!(p.probability(4, hidden.get(4)), 1.0);
    assert_eq!(sample(&k, &mut rng), Some(hidden));
    // The one grid guessed wrong: nothing is left.
    k.not.push(hidden);
    k.not.push(hidden);
    assert_eq!(check(&k), Posterior::NONE);
    assert_eq!(sample(&k, &mut rng), None);
    assert_eq!(Posterior::NONE.probability(0, Colour::Red), 0.0);
}

#[test]
fn contradictions_leave_nothing() {
    let mut k = Knowledge::default();
    k.known[0] = Some(Colour::Red);
    // A1 is red, yet a fact allows only blue there.
    k.facts
        .push(Table::from_fn(CellSet::parse("A1 B1").unwrap(), |g| {
            g.get(0) == Colour::Blue
        }));
    assert_eq!(posterior(&k), Posterior::NONE);
    assert_eq!(sample(&k, &mut seeded_rng(8)), None);
    // Two facts that cannot both hold.
    let mut k = Knowledge::default();
    let cells = CellSet::parse("A1 B1 A2 B2").unwrap();
    k.facts
        .push(Table::from_fn(cells, |g| g.count(cells, Colour::Red) >= 3));
    k.facts
        .push(Table::from_fn(cells, |g| g.count(cells, Colour::Blue) >= 2));
    k.known[15] = Some(Colour::Yellow);
    assert_eq!(posterior(&k), Posterior::NONE);
}

#[test]
fn uncertain_when_two_grids_remain() {
    let mut k = Knowledge::default();
    for i in 1..CELLS {
        k.known[i] = Some(Colour::Green);
    }
    k.facts.push(Table::from_fn(CellSet::single(0), |g| {
        matches!(g.get(0), Colour::Red | Colour::Blue)
    }));
    let p = check(&k);
    assert_eq!(p.count, 2);
    assert_eq!(p.is_certain(), None);
    assert_eq!(p.certain_colour(0), None);
    assert_eq!(p.certain_colour(1), Some(Colour::Green));
    assert_eq!(p.probability(0, Colour::Blue), 0.5);
}

/// Draws from a small state: only possible grids, each about equally often.
fn check_uniform(
    k: &Knowledge,
    per_grid: usize,
    mut draw: impl FnMut(&mut dyn Rng) -> Option<Grid>,
) {
    let p = brute_force(k);
    assert!(p.count > 1 && p.count <= 128, "{}", p.count);
    let draws = per_grid * p.count as usize;
    let mut rng = seeded_rng(9);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..draws {
        let g = draw(&mut rng).expect("a grid is possible");
        assert!(k.allows(g), "{g}");
        *seen.entry(g).or_insert(0usize) += 1;
    }
    assert_eq!(seen.len() as u64, p.count, "every possible grid appears");
    // Chi-square with count − 1 degrees of freedom; far above any
    // plausible value for ≤ 127 degrees.
    let expected = draws as f64 / p.count as f64;
    let chi2: f64 = seen
        .values()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 2.0 * p.count as f64 + 40.0, "chi² {chi2}");
}

#[test]
fn samples_are_uniform() {
    let mut rng = seeded_rng(10);
    let hidden = random_grid(&mut rng);
    let mut k = Knowledge::default();
    for i in 0..12 {
        k.known[i] = Some(hidden.get(i));
    }
    // The last row, with a fact linking it to the row above.
    let cells = CellSet::parse("C3 D3 A4 B4 C4 D4").unwrap();
    k.facts.push(Table::from_fn(cells, |g| {
        g.count(cells, Colour::Red) == hidden.count(cells, Colour::Red)
    }));
    k.not.push(hidden);
    k.not.push(hidden);
    k.not.push(random_grid(&mut rng));
    check(&k);
    check_uniform(&k, 200, |rng| sample(&k, rng));
    // Split into many runs: the draw first picks a run by its count.
    check_uniform(&k, 40, |rng| sample_within(&k, 2, rng));
    // Many draws from one count are each uniform too.
    let mut rng = seeded_rng(12);
    let many = samples(&k, 200 * brute_force(&k).count as usize, &mut rng);
    let mut at = 0;
    check_uniform(&k, 200, |_| {
        at += 1;
        many.get(at - 1).copied()
    });
}

#[test]
fn samples_of_random_states_are_possible() {
    let mut rng = seeded_rng(11);
    for _ in 0..100 {
        let known = rng.random_range(4..=10);
        let k = random_state(&mut rng, known);
        let count = posterior(&k).count;
        match sample(&k, &mut rng) {
            Some(g) => assert!(k.allows(g)),
            None => assert_eq!(count, 0),
        }
        let many = samples(&k, 5, &mut rng);
        assert_eq!(many.len(), if count > 0 { 5 } else { 0 });
        assert!(many.iter().all(|&g| k.allows(g)));
        if count > 0 {
            assert!(k.allows(sample_within(&k, 3, &mut rng).unwrap()));
        }
    }
}

/// A mid-game state: 4 known cells, three rounds and a claims fact.
fn mid_game(rng: &mut impl Rng) -> (Grid, Knowledge) {
    let hidden = random_grid(rng);
    let mut k = Knowledge::default();
    while k.known.iter().flatten().count() < 4 {
        let i = rng.random_range(0..CELLS);
        k.known[i] = Some(hidden.get(i));
    }
    for _ in 0..3 {
        let cells = subset(rng);
        k.facts.push(round_fact(rng, hidden, cells));
    }
    let cells = subset(rng);
    k.facts.push(claims_fact(rng, hidden, cells));
    (hidden, k)
}

#[test]
fn mid_game_states_are_self_consistent() {
    // Too many grids for the oracle in a debug build: instead, fixing a
    // cell to a colour leaves exactly that cell's colour count, and every
    // split of the work agrees.
    let mut rng = seeded_rng(12);
    for _ in 0..10 {
        let (hidden, k) = mid_game(&mut rng);
        let p = posterior(&k);
        assert!(
            p.cells
                .iter()
                .enumerate()
                .all(|(i, c)| c[hidden.get(i) as usize] > 0)
        );
        assert_eq!(posterior_within(&k, 6), p);
        for _ in 0..3 {
            let i = rng.random_range(0..CELLS);
            let c = Colour::from_index(rng.random_range(0..4u8));
            let mut fixed = k.clone();
            if fixed.known[i].is_none() {
                fixed.known[i] = Some(c);
                assert_eq!(posterior(&fixed).count, p.cells[i][c as usize]);
            }
        }
    }
}

#[test]
fn mid_game_states_match_brute_force() {
    // 4^12 grids each: only in an optimised build.
    if cfg!(debug_assertions) {
        return;
    }
    let mut rng = seeded_rng(13);
    for _ in 0..3 {
        let (_, mut k) = mid_game(&mut rng);
        k.not.push(random_grid(&mut rng));
        check(&k);
    }
}

//! The judge's verdict against brute force over every colouring of the
//! subset: every tile matters (a colouring of the others where the tile's
//! colour changes the truth), and every part matters (a colouring where the
//! part taken as true, and one where taken as false, changes the truth).

use rand::{RngExt, SeedableRng};
use umpire_four_statements::grid::{self, CellSet};
use umpire_four_statements::statement::{Evaluator, Invalid, Statement, arbitrary};

/// Every colouring of `cells`, as masks, one after another (each step
/// recolours a few cells, odometer style); `visit` returns true to stop.
fn colourings(cells: &[u16], mut visit: impl FnMut(&[u16; 4]) -> bool) -> bool {
    let mut digits = vec![0usize; cells.len()];
    let mut m = [0u16; 4];
    m[0] = cells.iter().fold(0, |a, &b| a | b);
    loop {
        if visit(&m) {
            return true;
        }
        let mut i = 0;
        loop {
            if i == cells.len() {
                return false;
            }
            m[digits[i]] &= !cells[i];
            digits[i] = (digits[i] + 1) % 4;
            m[digits[i]] |= cells[i];
            if digits[i] != 0 {
                break;
            }
            i += 1;
        }
    }
}

/// Whether `bit`'s colour changes `s`'s truth with the other cells coloured
/// as `m`.
fn witness(e: &Evaluator, s: &Statement, m: &[u16; 4], bit: u16) -> bool {
    let truth = |c: usize| {
        let mut with = *m;
        with[c] |= bit;
        e.eval_masks(s, &with)
    };
    let first = truth(0);
    (1..4).any(|c| truth(c) != first)
}

/// A random colouring of `cells`: uniform, or all one colour but a few
/// cells, or neighbours kept apart where it can.
fn random_colouring(cells: &[u16], rng: &mut impl rand::Rng) -> [u16; 4] {
    let mut m = [0u16; 4];
    let base = rng.random_range(0..4);
    let mode = rng.random_range(0..3);
    for &c in cells {
        let col = match mode {
            0 => rng.random_range(0..4),
            1 if rng.random_ratio(5, 6) => base,
            1 => rng.random_range(0..4),
            _ => {
                let around = c << 1 | c >> 1 | c << 4 | c >> 4;
                let free: Vec<usize> = (0..4).filter(|&k| m[k] & around == 0).collect();
                if free.is_empty() {
                    rng.random_range(0..4)
                } else {
                    free[rng.random_range(0..free.len())]
                }
            }
        };
        m[col] |= c;
    }
    m
}

/// Whether some colouring of `others` lets `bit` change `s`'s truth:
/// random colourings first (any one found is a proof), then every
/// colouring, split over two threads by the last cell's colour.
fn matters(
    e: &Evaluator,
    s: &Statement,
    others: &[u16],
    bit: u16,
    rng: &mut impl rand::Rng,
) -> bool {
    if (0..20_000).any(|_| witness(e, s, &random_colouring(others, rng), bit)) {
        return true;
    }
    let Some((&last, rest)) = others.split_last() else {
        return witness(e, s, &[0; 4], bit);
    };
    std::thread::scope(|scope| {
        let halves: Vec<_> = [[0usize, 1], [2, 3]]
            .into_iter()
            .map(|colours| {
                scope.spawn(move || {
                    colours.into_iter().any(|c| {
                        colourings(rest, |m| {
                            let mut m = *m;
                            m[c] |= last;
                            witness(e, s, &m, bit)
                        })
                    })
                })
            })
            .collect();
        halves.into_iter().any(|h| h.join().expect("no panic"))
    })
}

/// The verdict of brute force: the first tile that never matters, then the
/// first part that never does (`parts`: whether to weigh parts).
fn brute(s: &Statement, subset: CellSet, parts: bool) -> Result<(), Invalid> {
    let e = Evaluator::new(subset);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(u64::from(subset.0));
    let cells: Vec<u16> = subset.indices().map(|i| 1 << i).collect();
    for &bit in &cells {
        let others: Vec<u16> = cells.iter().copied().filter(|&c| c != bit).collect();
        if !matters(&e, s, &others, bit, &mut rng) {
            return Err(Invalid::CellDoesNotMatter(grid::cell(
                bit.trailing_zeros() as usize
            )));
        }
    }
    if parts {
        for part in s.weighed_parts() {
            let shown = [true, false].map(|value| {
                colourings(&cells, |m| {
                    e.eval_masks(s, m) != e.eval_replacing(s, m, part, value)
                })
            });
            if shown.contains(&false) {
                let text = part.to_string();
                return Err(Invalid::NeedlessPart(text.trim_end_matches('.').into()));
            }
        }
    }
    Ok(())
}

/// `n` random statements from `seed`, the `i`th on a random connected
/// subset of `least + i % 5` tiles.
fn cases(seed: u64, n: usize, least: usize) -> Vec<(CellSet, Statement)> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let subset = umpire_four_statements::random_connected(least + i % 5, &mut rng);
            (subset, arbitrary(subset, &mut rng))
        })
        .collect()
}

/// 500 random statements on random 4–8-tile subsets: the judge agrees
/// with brute force on both rules.
#[test]
fn small_subsets_agree_with_brute_force() {
    let mut invalid = 0;
    for (subset, s) in cases(500, 500, 4) {
        let judged = s.check(subset);
        assert_eq!(judged, brute(&s, subset, true), "{s} on {subset}");
        invalid += usize::from(judged.is_err());
    }
    // Both verdicts are tried, many times each.
    assert!((50..450).contains(&invalid), "{invalid} invalid of 500");
}

/// 50 random statements on random 12–16-tile subsets (No Limit): the judge
/// agrees with brute force on every tile mattering. (A colouring found at
/// random proves a tile matters; a tile shown by none is tried on all
/// 4^(n-1) colourings of the others.)
#[test]
fn large_subsets_agree_with_brute_force() {
    let mut invalid = 0;
    for (subset, s) in cases(1216, 50, 12) {
        let judged = match s.check(subset) {
            Err(Invalid::NeedlessPart(_)) => Ok(()),
            other => other,
        };
        let started = std::time::Instant::now();
        assert_eq!(judged, brute(&s, subset, false), "{s} on {subset}");
        invalid += usize::from(judged.is_err());
        println!("{:>2} tiles, {:?}: {s}", subset.len(), started.elapsed());
    }
    println!("{invalid} of 50 have a tile that never matters");
}

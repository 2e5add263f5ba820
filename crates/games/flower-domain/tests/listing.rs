//! The legal-move listing against a brute-force enumerator, uniform
//! sampling, and the opening counts quoted in `RULES.md`.

use std::collections::{BTreeSet, HashSet};

use rand::RngExt;
use umpire_core::conformance::play_text;
use umpire_core::{Game, Seat, seeded_rng};
use umpire_flower_domain::{Action, Config, FirstMove, FlowerDomain, Phase};

mod common;
use common::{DRAFT, TURNS};

/// A move as (meadow cells, garden cells), both as `row * 10 + col`, pairs
/// sorted by meadow cell.
type Key = Vec<(u8, u8)>;

fn key(action: &Action) -> Option<Key> {
    let Action::Move { from, to } = action else {
        return None;
    };
    let mut pairs: Key = from
        .iter()
        .zip(to)
        .map(|(f, t)| (f.row * 10 + f.col, t.row * 10 + t.col))
        .collect();
    pairs.sort();
    Some(pairs)
}

/// Every legal move, found the slow way: every connected set of 2–4
/// meadow flowers of different colours, turned by each of the eight
/// symmetries and shifted to every garden cell, kept when it lands on empty
/// cells and follows the first-move rule. Duplicates merge in the set.
fn brute_force(state: &FlowerDomain) -> HashSet<Key> {
    let meadow = state.meadow();
    let garden = state.garden();
    let flower = |i: i32| meadow.colour_at_index(i as usize);
    let first = garden.occupied() == 0;
    let sizes = match (first, state.view(umpire_core::Viewer::Spectator).first_move) {
        (false, _) => 2..=4,
        (true, FirstMove::Amended) => 4..=4,
        (true, FirstMove::Original) => 2..=2,
    };
    // Connected sets, grown cell by cell from every flower.
    let mut sets: BTreeSet<Vec<i32>> = BTreeSet::new();
    let mut layer: BTreeSet<Vec<i32>> = (0..100)
        .filter(|&i| flower(i).is_some())
        .map(|i| vec![i])
        .collect();
    for size in 2..=4 {
        let mut next = BTreeSet::new();
        for set in &layer {
            for &c in set {
                let (x, y) = (c % 10, c / 10);
                for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                    let n = ny * 10 + nx;
                    if !(0..10).contains(&nx) || !(0..10).contains(&ny) || set.contains(&n) {
                        continue;
                    }
                    let Some(colour) = flower(n) else { continue };
                    if set.iter().any(|&s| flower(s) == Some(colour)) {
                        continue;
                    }
                    let mut grown = set.clone();
                    grown.push(n);
                    grown.sort();
                    next.insert(grown);
                }
            }
        }
        if sizes.contains(&size) {
            sets.extend(next.iter().cloned());
        }
        layer = next;
    }
    let mut moves = HashSet::new();
    for set in &sets {
        let (x0, y0) = (set[0] % 10, set[0] / 10);
        for [a, b, c, d] in TURNS {
            for target in 0..100 {
                let (tx, ty) = (target % 10, target / 10);
                let mut pairs = Vec::new();
                for &s in set {
                    let (dx, dy) = (s % 10 - x0, s / 10 - y0);
                    let (x, y) = (tx + a * dx + b * dy, ty + c * dx + d * dy);
                    if !(0..10).contains(&x) || !(0..10).contains(&y) {
                        break;
                    }
                    let t = y * 10 + x;
                    if garden.colour_at_index(t as usize).is_some() {
                        break;
                    }
                    pairs.push((s as u8, t as u8));
                }
                if pairs.len() != set.len() {
                    continue;
                }
                let centre = [44u8, 45, 54, 55];
                if first
                    && state.view(umpire_core::Viewer::Spectator).first_move == FirstMove::Amended
                    && !pairs.iter().any(|(_, t)| centre.contains(t))
                {
                    continue;
                }
                moves.insert(pairs);
            }
        }
    }
    moves
}

/// The position after the study and a draft, red to move first.
fn opening(config: &Config, seed: u64) -> FlowerDomain {
    let mut state = FlowerDomain::new(config, seed).unwrap();
    for (seat, text) in DRAFT {
        play_text(&mut state, seat, text);
    }
    state
}

/// [`opening`] of seed `seed`, with the amended first move for even
/// seeds and the original one for odd seeds.
fn opening_by_parity(seed: u64) -> FlowerDomain {
    let first_move = if seed % 2 == 0 {
        FirstMove::Amended
    } else {
        FirstMove::Original
    };
    opening(
        &Config {
            first_move,
            ..Config::default()
        },
        seed,
    )
}

/// Each meadow cell's colour as an index into the worth tables of
/// `MoveGen::best`.
fn colours(state: &FlowerDomain) -> [u8; 100] {
    std::array::from_fn(|i| {
        state
            .meadow()
            .colour_at_index(i)
            .map_or(u8::MAX, |c| c as u8)
    })
}

/// Lists `state`'s moves for the seat to move and checks them against the
/// brute force: the same set, each listed once, the count the generator says.
fn check_listing(state: &FlowerDomain) -> usize {
    let seat = state.decision().seats().iter().next().unwrap();
    let mut listed = HashSet::new();
    let mut passes = 0;
    for action in state.legal_actions(seat).unwrap() {
        match key(&action) {
            Some(k) => assert!(listed.insert(k), "`{action}` listed twice"),
            None => {
                assert_eq!(action, Action::Pass);
                passes += 1;
            }
        }
    }
    assert_eq!(passes, 1);
    assert_eq!(listed.len() as u64, state.move_gen().count());
    let brute = brute_force(state);
    assert_eq!(listed.len(), brute.len());
    assert!(listed == brute, "the listing and the brute force differ");
    listed.len()
}

#[test]
fn opening_counts_match_the_rules_doc() {
    // Quoted in RULES.md: seed 0, red's first move.
    let amended = opening(&Config::default(), 0);
    let meadow = amended
        .view(umpire_core::Viewer::Spectator)
        .meadow
        .join(" ");
    assert_eq!(
        meadow,
        "YGGRRYGYGY RYYBRGBRYG GYBYGBGYRB GGBRBRBRGR RYBBRBYRRG \
         YYBYRGGYBY GGBRRYBGRR BGBRBYBGYR YYRBGGBRGY BYRYGGBBBR"
    );
    assert_eq!(check_listing(&amended), 11_752);
    let original = Config {
        first_move: FirstMove::Original,
        ..Config::default()
    };
    let mut state = opening(&original, 0);
    assert_eq!(check_listing(&state), 50_400);
    // After one two-flower move, an unrestricted list.
    let first = state.legal_actions(Seat::P1).unwrap().nth(1).unwrap();
    assert_eq!(first.to_string(), "A1-A2 to A1-A2");
    state.play(Seat::P1, &first).unwrap();
    assert_eq!(check_listing(&state), 228_243);
}

/// 200 positions from random games of both first-move rules.
#[test]
fn listing_equals_brute_force_on_200_random_positions() {
    let mut rng = seeded_rng(8);
    let mut checked = 0;
    for seed in 0.. {
        let mut state = opening_by_parity(seed);
        while state.phase() == Phase::Play && checked < 200 {
            // Positions late in a game are cheap; check one in four early ones.
            if state.move_gen().count() < 30_000 || rng.random_range(0..4) == 0 {
                check_listing(&state);
                checked += 1;
            }
            let seat = state.decision().seats().iter().next().unwrap();
            let action = state.sample_action(seat, &mut rng).unwrap();
            state.play(seat, &action).unwrap();
        }
        if checked >= 200 {
            break;
        }
    }
}

/// Sampling is uniform: on a position with few moves, every move comes up
/// about equally often, pass included.
#[test]
fn sampling_is_uniform_over_the_legal_actions() {
    let mut rng = seeded_rng(3);
    let mut state = opening(&Config::default(), 5);
    // Play until few moves are left.
    while state.move_gen().count() > 40 {
        let seat = state.decision().seats().iter().next().unwrap();
        let action = match state.sample_action(seat, &mut rng).unwrap() {
            Action::Pass => continue,
            a => a,
        };
        state.play(seat, &action).unwrap();
    }
    let seat = state.decision().seats().iter().next().unwrap();
    let legal: Vec<String> = state
        .legal_actions(seat)
        .unwrap()
        .map(|a| a.to_string())
        .collect();
    let n = legal.len();
    let draws = 2_000 * n;
    let mut counts = std::collections::HashMap::new();
    for _ in 0..draws {
        let a = state.sample_action(seat, &mut rng).unwrap().to_string();
        *counts.entry(a).or_insert(0usize) += 1;
    }
    assert_eq!(counts.len(), n, "every legal action comes up");
    for a in &legal {
        let c = counts[a];
        assert!(
            (1_700..=2_300).contains(&c),
            "`{a}` drawn {c} times of {draws}"
        );
    }
}

/// `MoveGen::best`, which scores each colouring of a shape once, keeps
/// the placements the listing says are best: on random positions and
/// random worth tables (small integers, so that many placements tie, and
/// fractions), the same values as the whole listing's best, each kept
/// placement legal and worth what it is said to be.
#[test]
fn the_best_placements_are_the_listings_best() {
    let mut rng = seeded_rng(11);
    let mut checked = 0;
    for seed in 0..40 {
        let mut state = opening_by_parity(seed);
        while state.phase() == Phase::Play {
            let colours = colours(&state);
            let whole = rng.random_range(0..2) == 0;
            let worth: [[f64; 100]; 4] = std::array::from_fn(|_| {
                std::array::from_fn(|_| match whole {
                    true => f64::from(rng.random_range(-3..=3)),
                    false => rng.random_range(-2.0..2.0),
                })
            });
            let value = |p: &umpire_flower_domain::Placement| -> f64 {
                p.pairs().map(|(f, t)| worth[colours[f] as usize][t]).sum()
            };
            let listed: HashSet<umpire_flower_domain::Placement> = state.placements().collect();
            let mut all: Vec<f64> = listed.iter().map(value).collect();
            all.sort_by(|a, b| b.total_cmp(a));
            let keep = rng.random_range(1..=20);
            let best = state.move_gen().best(&colours, &worth, keep, &mut rng);
            assert_eq!(best.len(), keep.min(all.len()));
            for (k, (v, p)) in best.iter().enumerate() {
                assert!(listed.contains(p), "{p:?} is not a legal placement");
                assert!(
                    (v - value(p)).abs() < 1e-9,
                    "{p:?} is worth {}, not {v}",
                    value(p)
                );
                assert!(
                    (v - all[k]).abs() < 1e-9,
                    "the {k}-th best is worth {}, not {v}",
                    all[k]
                );
            }
            let kept: HashSet<_> = best.iter().map(|(_, p)| *p).collect();
            assert_eq!(kept.len(), best.len(), "a placement kept twice");
            checked += 1;
            let seat = state.decision().seats().iter().next().unwrap();
            let action = state.sample_action(seat, &mut rng).unwrap();
            state.play(seat, &action).unwrap();
        }
    }
    assert!(checked > 400, "{checked} positions");
}

/// Equals are kept at random: with every placement worth the same, the
/// one best placement differs from draw to draw.
#[test]
fn the_best_of_equals_is_drawn_at_random() {
    let state = opening(&Config::default(), 3);
    let colours = colours(&state);
    let worth = [[0.0; 100]; 4];
    let mut rng = seeded_rng(2);
    let drawn: HashSet<_> = (0..50)
        .map(|_| state.move_gen().best(&colours, &worth, 1, &mut rng)[0].1)
        .collect();
    assert!(drawn.len() > 40, "{} distinct of 50", drawn.len());
}

//! Boards drawn from what a viewer sees and what a seat remembers: only
//! boards real play could produce, and the real one from a full memory.

use rand::RngExt;
use umpire_core::{Game, Seat, Viewer, seeded_rng};
use umpire_masked_army::{Config, MaskedArmy, Memory, Phase, View};

/// A game `pieces` pieces in, with what each seat remembers of every view.
fn played(seed: u64, pieces: usize) -> (MaskedArmy, [Memory; 2]) {
    let mut rng = seeded_rng(seed);
    let mut state = MaskedArmy::new(&Config::default(), seed).unwrap();
    let mut memory = [Memory::default(), Memory::default()];
    state.play(Seat::P1, &"first P1".parse().unwrap()).unwrap();
    for _ in 0..pieces {
        let seat = state.decision().seats().iter().next().unwrap();
        let action = state.sample_action(seat, &mut rng).unwrap();
        state.play(seat, &action).unwrap();
        for s in Seat::BOTH {
            MaskedArmy::remember(&mut memory[s.index()], &state.view(Viewer::Seat(s)));
        }
    }
    (state, memory)
}

/// Whether the cells of `board` (rows of `1`, `2`, `.`) split into
/// dominoes of one `1` and one `2` each: a maximum bipartite matching
/// (augmenting paths) between the two colours, independent of the sampler.
fn splits_into_dominoes(board: &[String], fixed: [(usize, usize); 2]) -> bool {
    let at = |r: usize, c: usize| board[r].as_bytes()[c];
    let mut reds = Vec::new();
    let mut blues = 0;
    for r in 0..9 {
        for c in 0..9 {
            if fixed.contains(&(r, c)) {
                continue;
            }
            match at(r, c) {
                b'1' => reds.push((r, c)),
                b'2' => blues += 1,
                _ => {}
            }
        }
    }
    if reds.len() != blues {
        return false;
    }
    let mut partner = std::collections::HashMap::<(usize, usize), usize>::new();
    fn augment(
        i: usize,
        reds: &[(usize, usize)],
        ok: &dyn Fn((usize, usize)) -> bool,
        seen: &mut Vec<(usize, usize)>,
        partner: &mut std::collections::HashMap<(usize, usize), usize>,
    ) -> bool {
        let (r, c) = reds[i];
        let near = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for n in near {
            if n.0 >= 9 || n.1 >= 9 || !ok(n) || seen.contains(&n) {
                continue;
            }
            seen.push(n);
            let free = match partner.get(&n) {
                None => true,
                Some(&j) => augment(j, reds, ok, seen, partner),
            };
            if free {
                partner.insert(n, i);
                return true;
            }
        }
        false
    }
    let ok = |n: (usize, usize)| at(n.0, n.1) == b'2' && !fixed.contains(&n);
    (0..reds.len()).all(|i| augment(i, &reds, &ok, &mut Vec::new(), &mut partner))
}

fn last_cells(view: &View) -> [(usize, usize); 2] {
    let last = view.last.unwrap();
    [last.mine, last.theirs].map(|c| (c.row as usize, c.col as usize))
}

#[test]
fn samples_from_the_current_view_are_boards_real_play_could_produce() {
    let (state, _) = played(11, 20);
    let mut rng = seeded_rng(5);
    for viewer in [Viewer::Seat(Seat::P1), Viewer::Spectator] {
        let view = state.view(viewer);
        let mut seen_boards = std::collections::HashSet::new();
        for _ in 0..1_000 {
            let drawn = MaskedArmy::sample(viewer, &view, &Memory::default(), &mut rng);
            assert_eq!(drawn.view(viewer), view, "the viewer cannot tell it apart");
            let full = drawn.view(Viewer::Umpire);
            assert_eq!(full.last, view.last, "the last piece as shown");
            let fixed = last_cells(&view);
            for (r, c) in fixed {
                assert_ne!(full.board[r].as_bytes()[c], b'#');
            }
            assert!(
                splits_into_dominoes(&full.board, fixed),
                "{:#?} does not split into red-blue dominoes",
                full.board
            );
            seen_boards.insert(full.board);
        }
        assert!(
            seen_boards.len() > 500,
            "{} distinct boards",
            seen_boards.len()
        );
    }
}

#[test]
fn the_old_resampling_s_impossible_boards_are_gone() {
    // Counted as the issue counted them: unequal colour counts after 20 pieces.
    let mut rng = seeded_rng(1);
    let mut unequal = 0;
    for seed in 0..50 {
        let (state, _) = played(seed, 20);
        let view = state.view(Viewer::Spectator);
        for _ in 0..20 {
            let drawn = MaskedArmy::sample(Viewer::Spectator, &view, &Memory::default(), &mut rng);
            let full = drawn.view(Viewer::Umpire);
            let count = |ch: char| full.board.concat().chars().filter(|&c| c == ch).count();
            unequal += usize::from(count('1') != count('2'));
        }
    }
    assert_eq!(unequal, 0);
}

#[test]
fn a_full_memory_draws_the_real_board() {
    let mut rng = seeded_rng(3);
    for seed in 0..20 {
        let pieces = rng.random_range(1..40);
        let (state, memory) = played(seed, pieces);
        for seat in Seat::BOTH {
            let viewer = Viewer::Seat(seat);
            let view = state.view(viewer);
            for _ in 0..20 {
                let drawn = MaskedArmy::sample(viewer, &view, &memory[seat.index()], &mut rng);
                assert_eq!(
                    drawn.view(Viewer::Umpire).board,
                    state.view(Viewer::Umpire).board
                );
                if view.phase != Phase::Over {
                    assert_eq!(drawn, state);
                }
            }
        }
    }
}

#[test]
fn a_partial_memory_keeps_what_it_remembers() {
    let (state, mut memory) = played(4, 30);
    let mut rng = seeded_rng(8);
    memory[0].forget(0.5, &mut rng);
    let kept = memory[0].known;
    let view = state.view(Viewer::Seat(Seat::P1));
    let truth = state.view(Viewer::Umpire).board.concat();
    let mut boards = std::collections::HashSet::new();
    for _ in 0..200 {
        let drawn = MaskedArmy::sample(Viewer::Seat(Seat::P1), &view, &memory[0], &mut rng);
        let board = drawn.view(Viewer::Umpire).board.concat();
        for (i, (got, real)) in board.chars().zip(truth.chars()).enumerate() {
            if (kept.p1 | kept.p2) & (1u128 << i) != 0 {
                assert_eq!(got, real, "remembered cell {i}");
            }
        }
        boards.insert(board);
    }
    assert!(boards.len() > 1, "what was forgotten varies");
}

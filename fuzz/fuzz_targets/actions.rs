//! Any text, as any seat, in any game: never a panic, and a refused action
//! leaves the state exactly as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_core::{Match, Seat, seeded_rng};

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let games = umpire_catalog::games();
    let game = games[head as usize % games.len()];
    let mut m = Match::new(game, &serde_json::json!({}), u64::from(head), umpire_core::MatchOptions::default()).unwrap();
    let mut rng = seeded_rng(u64::from(head));
    let mut now = 0u64;
    for line in rest.split(|&b| b == b'\n') {
        let Some((&control, text)) = line.split_first() else {
            continue;
        };
        let seat = if control & 1 == 0 { Seat::P1 } else { Seat::P2 };
        now += u64::from(control) * 1_000;
        // Every fourth line plays a legal move, so fuzzing reaches deep states.
        if control & 6 == 0 {
            if let Some(s) = m.decision().seats().iter().next() {
                if let Some(a) = m.state().sample_action(s, &mut rng) {
                    let _ = m.submit(s, &a, now);
                }
            }
            continue;
        }
        let text = String::from_utf8_lossy(text);
        let before = m.state().clone_box();
        let actions = m.record().actions.len();
        let timeouts = m.advance(now).len();
        if m.submit(seat, &text, now).is_err() && timeouts == 0 {
            assert!(
                m.state().same_as(&*before),
                "refused `{text}` changed the state"
            );
            assert_eq!(m.record().actions.len(), actions);
        }
        let _ = m.view(umpire_core::Viewer::Spectator);
    }
});

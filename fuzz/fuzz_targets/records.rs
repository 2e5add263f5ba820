//! Any bytes as a match record: replay answers with a result or an error,
//! never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_core::{Match, Record};

fuzz_target!(|data: &[u8]| {
    let Ok(record) = serde_json::from_slice::<Record>(data) else {
        return;
    };
    if let Some(game) = umpire_catalog::game(&record.game) {
        if let Ok(m) = Match::replay(game, &record) {
            let _ = m.outcome();
            let _ = m.render(umpire_core::Viewer::Umpire, false);
        }
    }
});

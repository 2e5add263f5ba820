//! What the store tests share: rows and entries to write, and the places
//! to test each backend on.

use umpire_core::{Entry, PerSeat, Seat};

use super::place::{Place, scratch_schema};
use super::types::{MatchRow, SeatKind, Tokens};

pub fn row(id: &str) -> MatchRow {
    MatchRow {
        id: id.into(),
        game: "g".into(),
        config: serde_json::json!({}),
        seed: 7,
        timed: true,
        clock: None,
        seats: PerSeat::new(
            SeatKind::Person,
            SeatKind::Bot {
                bot: "random".into(),
            },
        ),
        tokens: Tokens {
            seats: PerSeat::new("a".into(), "b".into()),
            umpire: "u".into(),
            invite: None,
            rematch: None,
        },
        takeover: true,
        created_ms: 1,
        creator: None,
        players: Default::default(),
        hosted: false,
        seed_set: false,
        audience: true,
    }
}

pub fn entry(i: usize) -> Entry {
    Entry::new(
        if i % 2 == 0 { Seat::P1 } else { Seat::P2 },
        format!("move {i}"),
        i as u64 * 10,
    )
}

/// A SQLite file in `dir`, and a PostgreSQL schema of `dir`'s own when
/// `UMPIRE_TEST_POSTGRES` names a database (`scripts/test` starts one).
pub async fn places(dir: &std::path::Path) -> Vec<Place> {
    let mut places = vec![Place::Sqlite(dir.join("s.db"))];
    match std::env::var("UMPIRE_TEST_POSTGRES") {
        Ok(url) => places.push(
            scratch_schema(&url, dir)
                .await
                .expect("a schema on the test PostgreSQL"),
        ),
        Err(_) => eprintln!(
            "PostgreSQL not tested: UMPIRE_TEST_POSTGRES is not set (scripts/test sets it)"
        ),
    }
    places
}

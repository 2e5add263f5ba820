//! The store: every match and every accepted action, kept before anyone
//! hears of it. One interface ([`Backend`]) with two databases behind it:
//! SQLite, embedded in one file (the default), and PostgreSQL, a server
//! that many nodes may share. Each commits writes in groups (one sync for
//! many matches' moves) and creates or migrates its schema at start
//! (`migrations/`), refusing a schema newer than the binary.

mod backend;
mod error;
mod place;
mod postgres;
mod sqlite;
#[cfg(test)]
mod testing;
mod types;

use std::sync::Arc;

use backend::Backend;
pub use error::StoreError;
pub use place::{Place, connect_postgres, scratch_schema};
pub use postgres::{Claim, LEASE_TIME, Leases};
pub use types::{FinishedSummary, Invite, Loaded, MatchRow, Op, SeatKind, Tokens};

/// The store's handle; cheap to clone. A match's task holds one fenced with
/// the epoch it runs the match in ([`Store::fenced`]).
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
    epoch: u64,
    /// The nodes' shared state, when the store is PostgreSQL.
    leases: Option<Arc<postgres::Leases>>,
    /// Failures on demand, for tests of what the server does when the
    /// store fails.
    #[cfg(test)]
    faults: Arc<Faults>,
}

/// Which of the store's operations fail, for tests.
#[cfg(test)]
#[derive(Default)]
pub struct Faults {
    pub writes: std::sync::atomic::AtomicBool,
    /// Writes are made but reported failed, as when a commit's answer is
    /// lost with its connection.
    pub answers: std::sync::atomic::AtomicBool,
    pub reads: std::sync::atomic::AtomicBool,
    /// Writes that failed so far.
    pub failed_writes: std::sync::atomic::AtomicU64,
}

#[cfg(test)]
impl Faults {
    fn check(flag: &std::sync::atomic::AtomicBool, what: &str) -> Result<(), StoreError> {
        match flag.load(std::sync::atomic::Ordering::SeqCst) {
            true => Err(StoreError::Unavailable(format!(
                "the {what} failed (a test asked so)"
            ))),
            false => Ok(()),
        }
    }
}

impl Store {
    /// Opens the store at `place`, creating or migrating its schema; for
    /// node `node` of a service whose nodes share the store (PostgreSQL
    /// only), the matches it creates are its own.
    pub async fn open_as(place: &Place, node: Option<&str>) -> Result<Store, StoreError> {
        let mut leases = None;
        let backend: Arc<dyn Backend> = match place {
            Place::Sqlite(path) => {
                if node.is_some() {
                    return Err(StoreError::Failed(
                        "nodes of one service share a PostgreSQL store, not a SQLite file".into(),
                    ));
                }
                let path = path.clone();
                let opened = tokio::task::spawn_blocking(move || sqlite::Sqlite::open(&path))
                    .await
                    .map_err(|e| StoreError::Failed(e.to_string()))?;
                Arc::new(opened?)
            }
            Place::Postgres(url) => {
                let (backend, shared) = postgres::Postgres::open(url, node).await?;
                leases = shared.map(Arc::new);
                Arc::new(backend)
            }
        };
        Ok(Store {
            backend,
            epoch: 0,
            leases,
            #[cfg(test)]
            faults: Arc::default(),
        })
    }

    /// This handle for the owner of a match in `epoch`.
    pub fn fenced(&self, epoch: u64) -> Store {
        Store {
            epoch,
            ..self.clone()
        }
    }

    /// The nodes' shared state (leases, limits), for a node of a service.
    pub fn leases(&self) -> Option<&Arc<postgres::Leases>> {
        self.leases.as_ref()
    }

    /// Makes writes and reads fail on demand.
    #[cfg(test)]
    pub fn faults(&self) -> &Faults {
        &self.faults
    }

    /// Writes `op`; returns once it is committed and durable.
    pub async fn write(&self, op: Op) -> Result<(), StoreError> {
        #[cfg(test)]
        Faults::check(&self.faults.writes, "write").inspect_err(|_| {
            (self.faults.failed_writes).fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        })?;
        let written = self.backend.write(op, self.epoch).await;
        #[cfg(test)]
        Faults::check(&self.faults.answers, "write's answer")?;
        written
    }

    /// One match with its actions.
    pub async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        #[cfg(test)]
        Faults::check(&self.faults.reads, "read")?;
        self.backend.load(id).await
    }

    /// The latest finished matches, newest first.
    pub async fn finished(
        &self,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<FinishedSummary>, StoreError> {
        #[cfg(test)]
        Faults::check(&self.faults.reads, "read")?;
        self.backend.finished(limit, offset).await
    }

    /// Every unfinished match, to resume at start-up.
    pub async fn unfinished(&self) -> Result<Vec<Loaded>, StoreError> {
        self.backend.unfinished().await
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use umpire_core::{Entry, Outcome, Seat};

    use super::testing::{entry, places, row};
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_writes_are_all_committed_in_order() {
        let dir = tempfile::tempdir().expect("a temp dir");
        for place in places(dir.path()).await {
            writes_on(&place).await;
        }
    }

    async fn writes_on(place: &Place) {
        let store = Store::open_as(place, None).await.expect("opens");
        let ids: Vec<String> = (0..40).map(|i| format!("m{i}")).collect();
        for id in &ids {
            store
                .write(Op::Create(Box::new(row(id))))
                .await
                .expect("created");
        }
        // Every match appends 25 actions, all matches at once.
        let mut tasks = Vec::new();
        for id in ids.clone() {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..25 {
                    let op = Op::Append {
                        id: id.clone(),
                        first: i,
                        entries: vec![entry(i)],
                        finished: None,
                    };
                    store.write(op).await.expect("appended");
                }
            }));
        }
        for t in tasks {
            t.await.expect("done");
        }
        // A duplicate index is refused and harms nobody else.
        let dup = Op::Append {
            id: "m0".into(),
            first: 3,
            entries: vec![entry(3)],
            finished: None,
        };
        assert!(store.write(dup).await.is_err());
        // After a refusal the writer reads the live log again; the match
        // goes on from where it was.
        let next = Op::Append {
            id: "m0".into(),
            first: 25,
            entries: vec![entry(25)],
            finished: None,
        };
        store.write(next).await.expect("appended after the refusal");
        drop(store);
        let store = Store::open_as(place, None).await.expect("reopens");
        let unfinished = store.unfinished().await.expect("reads");
        assert_eq!(unfinished.len(), 40);
        for loaded in unfinished {
            let count = if loaded.row.id == "m0" { 26 } else { 25 };
            let want: Vec<Entry> = (0..count).map(entry).collect();
            assert_eq!(loaded.actions, want, "{}", loaded.row.id);
            assert_eq!(loaded.row.seats, row("x").seats);
        }
        let outcome = Outcome::forfeit(Seat::P1, "resignation", "P2 resigned".into());
        let last = Op::Append {
            id: "m1".into(),
            first: 25,
            entries: vec![entry(25)],
            finished: Some((outcome.clone(), 99)),
        };
        store.write(last).await.expect("finished");
        let finished = store.finished(10, 0).await.expect("reads");
        assert_eq!(finished.len(), 1);
        assert_eq!(
            (finished[0].moves, finished[0].outcome.as_ref()),
            (26, Some(&outcome))
        );
        assert_eq!(store.unfinished().await.expect("reads").len(), 39);
    }

    /// A match's chat is kept with it, in the order said, on both
    /// databases, and comes back with the match.
    #[tokio::test]
    async fn chat_lines_are_kept_with_their_match() {
        use crate::chat::{ChatLine, Room};
        let dir = tempfile::tempdir().expect("a temp dir");
        for place in places(dir.path()).await {
            let store = Store::open_as(&place, None).await.expect("opens");
            for id in ["talky", "quiet"] {
                store
                    .write(Op::Create(Box::new(row(id))))
                    .await
                    .expect("created");
            }
            let lines = [
                (Room::Players, "P1", "good luck <b>"),
                (Room::Spectators, "spectator 1", "go red"),
                (Room::Players, "P2", "you too"),
            ]
            .map(|(room, by, text)| ChatLine {
                room,
                by: by.into(),
                at_ms: 5,
                text: text.into(),
            });
            for line in &lines {
                let op = Op::Chat {
                    id: "talky".into(),
                    line: line.clone(),
                };
                store.write(op).await.expect("kept");
            }
            drop(store);
            let store = Store::open_as(&place, None).await.expect("reopens");
            let loaded = store.load("talky").await.expect("reads").expect("there");
            assert_eq!(loaded.chat, lines, "{place}");
            let quiet = store.load("quiet").await.expect("reads").expect("there");
            assert_eq!(quiet.chat, [], "{place}");
            let unfinished = store.unfinished().await.expect("reads");
            let talky = unfinished
                .iter()
                .find(|m| m.row.id == "talky")
                .expect("resumed");
            assert_eq!(talky.chat, lines, "{place}");
        }
    }

    /// Marks the store at `place` as migrated by a newer umpire.
    async fn mark_newer(place: &Place) {
        let newer = "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
                     VALUES (999, 'from_the_future', '2030-01-01T00:00:00Z', '1')";
        match place {
            Place::Sqlite(path) => {
                let db = rusqlite::Connection::open(path).expect("opens");
                db.execute_batch(newer).expect("marked");
            }
            Place::Postgres(url) => {
                let db = connect_postgres(url).await.expect("connects");
                db.batch_execute(newer).await.expect("marked");
            }
        }
    }

    #[tokio::test]
    async fn a_schema_from_a_newer_umpire_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().expect("a temp dir");
        for place in places(dir.path()).await {
            let store = Store::open_as(&place, None).await.expect("opens");
            store
                .write(Op::Create(Box::new(row("kept"))))
                .await
                .expect("written");
            drop(store);
            mark_newer(&place).await;
            let refused = Store::open_as(&place, None).await.err().expect("refused");
            let words = refused.to_string();
            assert!(
                words.contains("migration 999") && words.contains("newer umpire"),
                "{place}: {words}"
            );
            assert!(!refused.is_retryable());
        }
    }

    #[test]
    fn a_place_is_a_path_or_a_url() {
        assert_eq!(
            "umpire.db".parse(),
            Ok(Place::Sqlite(PathBuf::from("umpire.db")))
        );
        assert_eq!(
            "sqlite:/tmp/u.db".parse(),
            Ok(Place::Sqlite(PathBuf::from("/tmp/u.db")))
        );
        let url = "postgres://umpire:secret@127.0.0.1:5432/umpire";
        let place: Place = url.parse().unwrap();
        assert_eq!(place, Place::Postgres(url.to_string()));
        assert!(!place.to_string().contains("secret"), "{place}");
        assert!("mysql://x".parse::<Place>().is_err());
        assert!("sqlite:".parse::<Place>().is_err());
    }
}

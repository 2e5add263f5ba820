//! The SQLite store: one file in WAL mode with `synchronous=FULL`.
//!
//! Every write goes through one writer thread that drains its queue, writes
//! everything pending in one transaction, commits (one fsync for the batch)
//! and only then acknowledges each waiter. So an action is durable before
//! anyone is told it was accepted, and a thousand busy matches share fsyncs
//! instead of paying one each. Reads use their own connection: WAL lets them
//! run beside the writer. The actions of matches being played are appended
//! to a log and move to their match's place when it ends ([`live_log`]).

mod live_log;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use umpire_core::{Entry, PerSeat};

use super::backend::{Ack, Backend, migration_error, to_writer};
use super::error::StoreError;
use super::types::{
    FinishedSummary, Loaded, MatchRow, Op, SeatKind, by_from, players_from, players_json,
};
use crate::chat::{ChatLine, Room};
use live_log::LiveLog;

mod embedded {
    refinery::embed_migrations!("migrations/sqlite");
}

/// The SQLite store's handle.
pub struct Sqlite {
    writer: mpsc::Sender<(Op, Ack)>,
    reader: Arc<Mutex<Connection>>,
    /// Keeps the checkpointer running while the store lives.
    _checkpointer: mpsc::Sender<()>,
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let failed = |e| StoreError::Failed(format!("cannot open {}: {e}", path.display()));
    let db = Connection::open(path).map_err(failed)?;
    // Small pages: each write touches a few scattered pages, so smaller ones
    // mean less to sync. Only a new file takes it.
    db.pragma_update(None, "page_size", 1024)
        .and_then(|_| db.pragma_update(None, "journal_mode", "WAL"))
        .and_then(|_| db.pragma_update(None, "synchronous", "FULL"))
        .and_then(|_| db.busy_timeout(std::time::Duration::from_secs(5)))
        .map_err(failed)?;
    Ok(db)
}

/// A refused write (an entry out of order, a match not played: the live
/// log's refusals and the keys' constraints) or any other failure.
fn sql_err(e: rusqlite::Error) -> StoreError {
    match &e {
        rusqlite::Error::SqliteFailure(f, why)
            if f.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            StoreError::Refused(why.clone().unwrap_or_else(|| e.to_string()))
        }
        _ => StoreError::Failed(e.to_string()),
    }
}

/// Creates the schema, or brings an older one up to date; a schema from a
/// newer umpire is refused.
fn migrate(db: &mut Connection, path: &Path) -> Result<(), StoreError> {
    embedded::migrations::runner()
        .set_abort_missing(true)
        .run(db)
        .map(|_| ())
        .map_err(|e| {
            StoreError::Failed(format!(
                "cannot migrate {}: {}",
                path.display(),
                migration_error(&e)
            ))
        })
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

impl Sqlite {
    /// Opens (or creates) the store and starts its writer thread.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let mut db = connect(path)?;
        migrate(&mut db, path)?;
        // Checkpoints run on their own thread, not inside a commit that
        // players are waiting for.
        db.pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(sql_err)?;
        let reader = connect(path)?;
        let checkpoints = connect(path)?;
        let log = LiveLog::open(&db).map_err(|e| {
            StoreError::Failed(format!(
                "cannot read the live log of {}: {e}",
                path.display()
            ))
        })?;
        let (writer, queue) = mpsc::channel();
        let thread = |e| StoreError::Failed(format!("cannot start the store's threads: {e}"));
        std::thread::Builder::new()
            .name("umpire-store".into())
            .spawn(move || write_loop(db, log, queue))
            .map_err(thread)?;
        let (alive, stop) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("umpire-checkpoint".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) =
                    stop.recv_timeout(std::time::Duration::from_secs(1))
                {
                    // PASSIVE never blocks the writer; a failure is retried.
                    let _ = checkpoints.execute_batch("PRAGMA wal_checkpoint(PASSIVE);");
                }
            })
            .map_err(thread)?;
        Ok(Sqlite {
            writer,
            reader: Arc::new(Mutex::new(reader)),
            _checkpointer: alive,
        })
    }

    /// Runs a read on the reader connection, off the async executor.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    ) -> Result<T, StoreError> {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let db = reader.lock().unwrap_or_else(|e| e.into_inner());
            f(&db).map_err(sql_err)
        })
        .await
        .map_err(|e| StoreError::Failed(e.to_string()))?
    }
}

impl Backend for Sqlite {
    /// One node only: the epoch is always 0.
    fn write(&self, op: Op, _epoch: u64) -> BoxFuture<'_, Result<(), StoreError>> {
        to_writer(|ack| self.writer.send((op, ack)).is_ok())
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Loaded>, StoreError>> {
        let id = id.to_string();
        self.read(move |db| load(db, &id)).boxed()
    }

    fn finished(
        &self,
        limit: usize,
        offset: usize,
    ) -> BoxFuture<'_, Result<Vec<FinishedSummary>, StoreError>> {
        self.read(move |db| finished(db, limit, offset)).boxed()
    }

    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<Loaded>, StoreError>> {
        self.read(unfinished).boxed()
    }
}

/// Every unfinished match, read in one snapshot: the writer may move
/// entries between the tables meanwhile.
fn unfinished(db: &Connection) -> Result<Vec<Loaded>, rusqlite::Error> {
    let read = db.unchecked_transaction()?;
    let ids: Vec<String> = read
        .prepare("SELECT id FROM matches WHERE finished = 0 ORDER BY created_ms")
        .and_then(|mut q| q.query_map([], |r| r.get(0))?.collect())?;
    let mut out = Vec::new();
    for id in ids {
        if let Some((m, _)) = load_keyed(&read, &id)? {
            out.push(m);
        }
    }
    let at: HashMap<String, usize> = (out.iter().enumerate())
        .map(|(i, m)| (m.row.id.clone(), i))
        .collect();
    live_log::scan(&read, None, |_, row| match at.get(&row.id) {
        Some(&i) => live_log::extend(&mut out[i].actions, row),
        None => Ok(()),
    })?;
    Ok(out)
}

/// The latest finished matches, newest first.
fn finished(
    db: &Connection,
    limit: usize,
    offset: usize,
) -> Result<Vec<FinishedSummary>, rusqlite::Error> {
    let mut q = db.prepare(
        "SELECT id, game, created_ms, finished_ms, seats, moves, outcome, players FROM matches
         WHERE finished = 1 ORDER BY finished_ms DESC LIMIT ?1 OFFSET ?2",
    )?;
    q.query_map([limit as i64, offset as i64], |r| {
        let seats: String = r.get(4)?;
        let outcome: Option<String> = r.get(6)?;
        let players: Option<String> = r.get(7)?;
        Ok(FinishedSummary {
            id: r.get(0)?,
            game: r.get(1)?,
            created_ms: r.get::<_, i64>(2)? as u64,
            finished_ms: r.get::<_, Option<i64>>(3)?.unwrap_or(0) as u64,
            seats: serde_json::from_str(&seats)
                .unwrap_or(PerSeat::new(SeatKind::Person, SeatKind::Person)),
            players: players_from(players.as_deref()),
            moves: r.get::<_, i64>(5)? as u64,
            outcome: outcome.and_then(|o| serde_json::from_str(&o).ok()),
        })
    })?
    .collect()
}

/// One match with its actions, read in one snapshot.
fn load(db: &Connection, id: &str) -> Result<Option<Loaded>, rusqlite::Error> {
    let read = db.unchecked_transaction()?;
    let Some((mut loaded, live)) = load_keyed(&read, id)? else {
        return Ok(None);
    };
    if live {
        live_log::scan(&read, Some(id), |_, row| {
            live_log::extend(&mut loaded.actions, row)
        })?;
    }
    Ok(Some(loaded))
}

/// One match with its actions in the keyed table, and whether it is still
/// played (more of its actions may be in the live log).
fn load_keyed(db: &Connection, id: &str) -> Result<Option<(Loaded, bool)>, rusqlite::Error> {
    let row = db
        .query_row(
            "SELECT id, game, config, seed, timed, clock, seats, tokens, takeover, created_ms, finished,
                    outcome, players, hosted, seed_set, audience
             FROM matches WHERE id = ?1",
            [id],
            |r| {
                let text = |i: usize| r.get::<_, String>(i);
                let bad = |i: usize, e: serde_json::Error| {
                    rusqlite::Error::FromSqlConversionFailure(
                        i,
                        rusqlite::types::Type::Text,
                        Box::new(e),
                    )
                };
                let clock: Option<String> = r.get(5)?;
                let row = MatchRow {
                    id: text(0)?,
                    game: text(1)?,
                    config: serde_json::from_str(&text(2)?).map_err(|e| bad(2, e))?,
                    seed: r.get::<_, i64>(3)? as u64,
                    timed: r.get(4)?,
                    clock: match clock {
                        Some(c) => Some(serde_json::from_str(&c).map_err(|e| bad(5, e))?),
                        None => None,
                    },
                    seats: serde_json::from_str(&text(6)?).map_err(|e| bad(6, e))?,
                    tokens: serde_json::from_str(&text(7)?).map_err(|e| bad(7, e))?,
                    takeover: r.get(8)?,
                    created_ms: r.get::<_, i64>(9)? as u64,
                    creator: None,
                    players: players_from(r.get::<_, Option<String>>(12)?.as_deref()),
                    hosted: r.get(13)?,
                    seed_set: r.get(14)?,
                    audience: r.get(15)?,
                };
                let finished = r.get::<_, i64>(10)?;
                let reason = match finished == 2 {
                    true => Some(r.get::<_, Option<String>>(11)?.unwrap_or_default()),
                    false => None,
                };
                Ok((row, reason, finished == 0))
            },
        )
        .optional()?;
    let Some((row, abandoned, live)) = row else {
        return Ok(None);
    };
    let mut q = db.prepare(
        "SELECT seat, action, at_ms, effect, actor FROM actions WHERE match_id = ?1 ORDER BY idx",
    )?;
    let actions = q
        .query_map([id], |r| {
            let seat: String = r.get(0)?;
            Ok(Entry {
                seat: seat.parse().unwrap_or_default(),
                action: r.get(1)?,
                at_ms: r.get::<_, i64>(2)? as u64,
                effect: r.get(3)?,
                by: by_from(r.get::<_, Option<String>>(4)?.as_deref()),
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let loaded = Loaded {
        row,
        actions,
        abandoned,
        chat: chat(db, id)?,
    };
    Ok(Some((loaded, live)))
}

/// A match's chat, in the order said.
fn chat(db: &Connection, id: &str) -> Result<Vec<ChatLine>, rusqlite::Error> {
    let mut q = db.prepare_cached(
        "SELECT room, author, at_ms, text FROM chat WHERE match_id = ?1 ORDER BY rowid",
    )?;
    q.query_map([id], |r| {
        let room: String = r.get(0)?;
        Ok(ChatLine {
            room: room.parse().unwrap_or(Room::Spectators),
            by: r.get(1)?,
            at_ms: r.get::<_, i64>(2)? as u64,
            text: r.get(3)?,
        })
    })?
    .collect()
}

/// The writer thread: drain, write in one transaction, commit, acknowledge.
fn write_loop(mut db: Connection, log: LiveLog, queue: mpsc::Receiver<(Op, Ack)>) {
    // What the writer knows of the live log; after any failure it is read
    // again from the store before the next write (`None` until that works).
    let mut log = Some(log);
    // Ends when every `Store` handle is gone.
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < 4096 {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        if log.is_none() {
            log = LiveLog::open(&db)
                .inspect_err(|e| tracing::error!("store: cannot read the live log: {e}"))
                .ok();
        }
        let mut results = Vec::with_capacity(batch.len());
        let committed = (|| {
            let Some(log) = log.as_mut() else {
                return Err("the live log could not be read".to_string());
            };
            let mut tx = db.transaction().map_err(|e| e.to_string())?;
            for (op, _) in &batch {
                // A savepoint per write: one bad write leaves no half of itself.
                let mut one = || {
                    let sp = tx.savepoint()?;
                    apply(&sp, log, op)?;
                    sp.commit()
                };
                results.push(one());
            }
            // Tidying that fails is undone alone; the writes still commit.
            let tidied = tx.savepoint().and_then(|sp| {
                log.tidy(&sp)?;
                sp.commit()
            });
            if let Err(e) = &tidied {
                tracing::error!("store: tidying the live log failed: {e}");
            }
            tx.commit().map_err(|e| e.to_string())?;
            Ok(tidied.is_ok())
        })();
        if committed != Ok(true) || results.iter().any(Result::is_err) {
            log = None;
        }
        // A committed batch has one result per write.
        let mut results = results.into_iter();
        for (_, ack) in batch {
            let result = match &committed {
                Ok(_) => results.next().unwrap_or(Ok(())).map_err(sql_err),
                Err(e) => Err(StoreError::Failed(format!("the commit failed: {e}"))),
            };
            // A waiter that gave up is no harm.
            let _ = ack.send(result);
        }
    }
}

fn apply(db: &Connection, log: &mut LiveLog, op: &Op) -> Result<(), rusqlite::Error> {
    match op {
        Op::Create(row) => {
            db.execute(
                "INSERT INTO matches (id, game, config, seed, timed, clock, seats, tokens, takeover,
                                      created_ms, players, hosted, seed_set, audience)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    row.id,
                    row.game,
                    json(&row.config),
                    row.seed as i64,
                    row.timed,
                    row.clock.as_ref().map(json),
                    json(&row.seats),
                    json(&row.tokens),
                    row.takeover,
                    row.created_ms as i64,
                    players_json(&row.players),
                    row.hosted,
                    row.seed_set,
                    row.audience,
                ],
            )?;
            log.created(&row.id);
        }
        Op::Append {
            id,
            first,
            entries,
            finished: None,
        } => log.append(db, id, *first, entries)?,
        Op::Append {
            id,
            first,
            entries,
            finished: Some((outcome, wall_ms)),
        } => {
            // The match row changes only at the end: one page less per write.
            let moves = (first + entries.len()) as i64;
            db.execute(
                "UPDATE matches SET moves = ?2, finished = 1, finished_ms = ?3, outcome = ?4 WHERE id = ?1",
                params![id, moves, *wall_ms as i64, json(outcome)],
            )?;
            log.finish(db, id, *first, entries)?;
        }
        Op::Seats { id, seats } => {
            db.execute(
                "UPDATE matches SET seats = ?2 WHERE id = ?1",
                params![id, json(seats)],
            )?;
        }
        Op::Tokens { id, tokens } => {
            db.execute(
                "UPDATE matches SET tokens = ?2 WHERE id = ?1",
                params![id, json(tokens)],
            )?;
        }
        Op::Abandon { id, at_ms, reason } => {
            let changed = db.execute(
                "UPDATE matches SET finished = 2, finished_ms = ?2, outcome = ?3
                 WHERE id = ?1 AND finished = 0",
                params![id, *at_ms as i64, reason],
            )?;
            if changed > 0 {
                log.call_off(db, id)?;
            }
        }
        Op::Chat { id, line } => {
            db.execute(
                "INSERT INTO chat (match_id, room, author, at_ms, text)
                 SELECT id, ?2, ?3, ?4, ?5 FROM matches WHERE id = ?1",
                params![
                    id,
                    line.room.as_str(),
                    line.by,
                    line.at_ms as i64,
                    line.text
                ],
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use umpire_core::{Outcome, Seat};

    use super::*;
    use crate::store::testing::{entry, row};

    /// A store on `db` with one match, `id`, created; writes go through
    /// [`apply`] and [`LiveLog::tidy`] as the writer does, with a log that
    /// moves a match's entries early past `limit` rows.
    fn bare(limit: i64) -> (Connection, LiveLog) {
        let mut db = Connection::open_in_memory().expect("opens");
        migrate(&mut db, Path::new(":memory:")).expect("schema");
        let log = LiveLog::with_limit(&db, limit).expect("reads");
        (db, log)
    }

    fn write(db: &Connection, log: &mut LiveLog, op: Op) -> Result<(), rusqlite::Error> {
        apply(db, log, &op)?;
        log.tidy(db)
    }

    fn append(id: &str, i: usize) -> Op {
        Op::Append {
            id: id.into(),
            first: i,
            entries: vec![entry(i)],
            finished: None,
        }
    }

    fn count(db: &Connection, table: &str) -> i64 {
        db.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .expect("counts")
    }

    #[test]
    fn finished_matches_leave_the_live_log_and_its_dead_rows_are_deleted() {
        let (db, mut log) = bare(50_000);
        let outcome = Outcome::forfeit(Seat::P1, "resignation", "P2 resigned".into());
        for m in 0..40 {
            let id = format!("m{m}");
            write(&db, &mut log, Op::Create(Box::new(row(&id)))).expect("created");
            for i in 0..30 {
                write(&db, &mut log, append(&id, i)).expect("appended");
            }
            let last = Op::Append {
                id: id.clone(),
                first: 30,
                entries: vec![entry(30)],
                finished: Some((outcome.clone(), 5)),
            };
            write(&db, &mut log, last).expect("finished");
        }
        // All 40 × 31 entries sit in their matches' place; of the 1,200 log
        // rows only those since the last deletion are left.
        assert_eq!(count(&db, "actions"), 40 * 31);
        assert!(count(&db, "live_actions") < 512, "the log was trimmed");
        let want: Vec<Entry> = (0..31).map(entry).collect();
        for m in 0..40 {
            let loaded = load(&db, &format!("m{m}")).expect("reads").expect("found");
            assert_eq!(loaded.actions, want);
        }
        // Nothing more can be appended to a finished match.
        let late = write(&db, &mut log, append("m3", 31)).expect_err("refused");
        assert!(late.to_string().contains("not being played"), "{late}");
    }

    #[test]
    fn a_long_match_is_moved_early_and_loads_whole_before_and_after_a_restart() {
        let (db, mut log) = bare(100);
        for id in ["long", "short"] {
            write(&db, &mut log, Op::Create(Box::new(row(id)))).expect("created");
        }
        for i in 0..700 {
            write(&db, &mut log, append("long", i)).expect("appended");
            write(&db, &mut log, append("short", i)).expect("appended");
        }
        // Both matches' entries were moved early, so the log stays short.
        assert!(count(&db, "live_actions") < 100 + 512 + 2);
        assert!(count(&db, "actions") > 1000);
        let want: Vec<Entry> = (0..700).map(entry).collect();
        assert_eq!(
            load(&db, "long").expect("reads").expect("found").actions,
            want
        );
        // A restart reads the same: the next entry is 700, not 699 or 701.
        let mut log = LiveLog::with_limit(&db, 100).expect("reads");
        let dup = write(&db, &mut log, append("long", 699)).expect_err("refused");
        assert!(
            dup.to_string().contains("takes its entry 700 next"),
            "{dup}"
        );
        write(&db, &mut log, append("long", 700)).expect("appended");
        let want: Vec<Entry> = (0..701).map(entry).collect();
        assert_eq!(
            load(&db, "long").expect("reads").expect("found").actions,
            want
        );
    }

    #[test]
    fn a_called_off_match_keeps_its_actions() {
        let (db, mut log) = bare(50_000);
        write(&db, &mut log, Op::Create(Box::new(row("m")))).expect("created");
        for i in 0..3 {
            write(&db, &mut log, append("m", i)).expect("appended");
        }
        let off = Op::Abandon {
            id: "m".into(),
            at_ms: 9,
            reason: "nobody moved".into(),
        };
        write(&db, &mut log, off).expect("called off");
        // Its log rows are dead now; deleting them loses nothing.
        db.execute_batch("DELETE FROM live_actions")
            .expect("deletes");
        let loaded = load(&db, "m").expect("reads").expect("found");
        assert_eq!(loaded.actions, (0..3).map(entry).collect::<Vec<_>>());
        assert_eq!(loaded.abandoned.as_deref(), Some("nobody moved"));
    }

    #[test]
    fn a_match_begun_before_the_live_log_goes_on_from_its_keyed_actions() {
        let (db, _) = bare(50_000);
        apply(
            &db,
            &mut LiveLog::open(&db).expect("reads"),
            &Op::Create(Box::new(row("old"))),
        )
        .expect("created");
        // A store from before the log kept every action in `actions`.
        for i in 0..4 {
            let e = entry(i);
            db.execute(
                "INSERT INTO actions (match_id, idx, seat, action, at_ms) VALUES ('old', ?1, ?2, ?3, ?4)",
                params![i as i64, e.seat.to_string(), e.action, e.at_ms as i64],
            )
            .expect("inserted");
        }
        let mut log = LiveLog::open(&db).expect("reads");
        write(&db, &mut log, append("old", 4)).expect("appended after them");
        let want: Vec<Entry> = (0..5).map(entry).collect();
        assert_eq!(
            load(&db, "old").expect("reads").expect("found").actions,
            want
        );
    }
}

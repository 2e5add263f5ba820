//! The live log: the actions of matches still being played, appended in the
//! order they come.
//!
//! The keyed `actions` table keeps each match's actions together, so an
//! insert there lands on a page of its own match: a commit of thirty moves
//! from thirty matches wrote some ninety one-KiB pages. Appended to this log,
//! the same moves share its last page or two. A match's entries move to
//! `actions` in one insert when it finishes or is called off (the writer
//! keeps the entries not yet moved in memory, so this reads nothing), and
//! the log's dead prefix is then deleted. A match that lives on while the log
//! grows past [`LOG_ROWS`] has its entries moved early, so the log stays
//! short for the readers, who scan it.
//!
//! A match's actions are the rows of `actions`, then its log rows past
//! those, in log order ([`extend`]): rows already moved linger in the log
//! until its prefix is deleted.

use std::collections::{BTreeSet, HashMap};

use rusqlite::{Connection, params};
use umpire_core::Entry;

/// Rows the log may hold past its oldest live entry before that match's
/// entries are moved early.
const LOG_ROWS: i64 = 50_000;
/// The dead prefix is deleted once it is this many rows long.
const TRIM_ROWS: i64 = 512;

/// A live match's entries in the log that are not yet in `actions`.
struct Pending {
    /// The log row of `entries[0]`.
    first_row: i64,
    /// The index of the match's next entry.
    next: usize,
    entries: Vec<Entry>,
}

impl Pending {
    fn new(next: usize) -> Pending {
        Pending {
            first_row: 0,
            next,
            // Room for a usual match's entries up front.
            entries: Vec::with_capacity(32),
        }
    }
}

/// What the store's writer knows of the log.
pub(super) struct LiveLog {
    /// Every unfinished match.
    live: HashMap<String, Pending>,
    /// The first log row of each match with entries there, oldest first.
    needed: BTreeSet<(i64, String)>,
    /// Every row below this one is deleted.
    trimmed: i64,
    /// The newest row.
    last: i64,
    /// [`LOG_ROWS`], smaller in tests.
    limit: i64,
}

/// One row of the log.
pub(super) struct Row {
    pub id: String,
    pub idx: usize,
    pub entry: Entry,
}

/// Whether `row` is the next entry of a match with `known` entries so far:
/// a row already moved to `actions` is not; a gap is an error.
pub(super) fn is_next(known: usize, row: &Row) -> rusqlite::Result<bool> {
    match row.idx.cmp(&known) {
        std::cmp::Ordering::Less => Ok(false),
        std::cmp::Ordering::Equal => Ok(true),
        std::cmp::Ordering::Greater => Err(refused(format!(
            "match {}'s log skips from entry {known} to {}",
            row.id, row.idx
        ))),
    }
}

/// Adds `row`'s entry to `actions`, its match's entries so far, if it is
/// the next one.
pub(super) fn extend(actions: &mut Vec<Entry>, row: Row) -> rusqlite::Result<()> {
    if is_next(actions.len(), &row)? {
        actions.push(row.entry);
    }
    Ok(())
}

/// Calls `f` with each log row (of match `id` only, if given) in log order.
pub(super) fn scan(
    db: &Connection,
    id: Option<&str>,
    mut f: impl FnMut(i64, Row) -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    let mut q = db.prepare_cached(
        "SELECT rowid, match_id, idx, seat, action, at_ms, effect, actor FROM live_actions
         WHERE ?1 IS NULL OR match_id = ?1 ORDER BY rowid",
    )?;
    let mut rows = q.query([id])?;
    while let Some(r) = rows.next()? {
        let seat: String = r.get(3)?;
        let row = Row {
            id: r.get(1)?,
            idx: r.get::<_, i64>(2)? as usize,
            entry: Entry {
                seat: seat.parse().unwrap_or_default(),
                action: r.get(4)?,
                at_ms: r.get::<_, i64>(5)? as u64,
                effect: r.get(6)?,
                by: crate::store::types::by_from(r.get::<_, Option<String>>(7)?.as_deref()),
            },
        };
        f(r.get(0)?, row)?;
    }
    Ok(())
}

/// A write refused the way SQLite refuses one that breaks a constraint.
fn refused(why: String) -> rusqlite::Error {
    let code = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT);
    rusqlite::Error::SqliteFailure(code, Some(why))
}

impl LiveLog {
    /// Reads what the log holds for the unfinished matches.
    pub(super) fn open(db: &Connection) -> rusqlite::Result<LiveLog> {
        LiveLog::with_limit(db, LOG_ROWS)
    }

    /// [`LiveLog::open`], moving a match's entries early past `limit` rows.
    pub(super) fn with_limit(db: &Connection, limit: i64) -> rusqlite::Result<LiveLog> {
        let mut live: HashMap<String, Pending> = HashMap::new();
        let mut q = db.prepare(
            "SELECT id, (SELECT COUNT(*) FROM actions WHERE match_id = id) FROM matches
             WHERE finished = 0",
        )?;
        let mut rows = q.query([])?;
        while let Some(r) = rows.next()? {
            let next = r.get::<_, i64>(1)? as usize;
            live.insert(r.get(0)?, Pending::new(next));
        }
        scan(db, None, |rowid, row| {
            match live.get_mut(&row.id) {
                Some(p) if is_next(p.next, &row)? => {
                    if p.entries.is_empty() {
                        p.first_row = rowid;
                    }
                    p.entries.push(row.entry);
                    p.next += 1;
                }
                // A finished match's rows, or rows already moved.
                _ => {}
            }
            Ok(())
        })?;
        let (trimmed, last) = db.query_row(
            "SELECT COALESCE(MIN(rowid), 0), COALESCE(MAX(rowid), 0) FROM live_actions",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let needed = (live.iter())
            .filter(|(_, p)| !p.entries.is_empty())
            .map(|(id, p)| (p.first_row, id.clone()))
            .collect();
        Ok(LiveLog {
            live,
            needed,
            trimmed,
            last,
            limit,
        })
    }

    /// A new match: it has no entries yet.
    pub(super) fn created(&mut self, id: &str) {
        self.live.insert(id.to_string(), Pending::new(0));
    }

    /// Whether match `id` takes entries from `first` on: a live match whose
    /// next entry that is.
    fn check(&self, id: &str, first: usize) -> rusqlite::Result<()> {
        match self.live.get(id) {
            None => Err(refused(format!("match {id} is not being played"))),
            Some(p) if p.next != first => Err(refused(format!(
                "match {id} takes its entry {} next, not {first}",
                p.next
            ))),
            Some(_) => Ok(()),
        }
    }

    /// Appends `entries` of match `id`, the first of them its entry `first`.
    pub(super) fn append(
        &mut self,
        db: &Connection,
        id: &str,
        first: usize,
        entries: &[Entry],
    ) -> rusqlite::Result<()> {
        self.check(id, first)?;
        let first_row = insert(db, INTO_LOG, id, first, entries)?;
        // Written: now the memory follows.
        let p = self.live.get_mut(id).expect("checked above");
        if let (true, Some(row)) = (p.entries.is_empty(), first_row) {
            p.first_row = row;
            self.needed.insert((row, id.to_string()));
        }
        p.entries.extend_from_slice(entries);
        p.next += entries.len();
        self.last = self.last.max(db.last_insert_rowid());
        Ok(())
    }

    /// Match `id` ends with `entries`, the first of them its entry `first`:
    /// all its entries go to `actions`.
    pub(super) fn finish(
        &mut self,
        db: &Connection,
        id: &str,
        first: usize,
        entries: &[Entry],
    ) -> rusqlite::Result<()> {
        self.check(id, first)?;
        let p = &self.live[id];
        let moved = p.next - p.entries.len();
        insert(db, INTO_ACTIONS, id, moved, p.entries.iter().chain(entries))?;
        self.forget(id);
        Ok(())
    }

    /// Match `id` is called off: its entries go to `actions`.
    pub(super) fn call_off(&mut self, db: &Connection, id: &str) -> rusqlite::Result<()> {
        if let Some(p) = self.live.get(id) {
            insert(db, INTO_ACTIONS, id, p.next - p.entries.len(), &p.entries)?;
            self.forget(id);
        }
        Ok(())
    }

    /// Match `id`'s entries are all in `actions`, and it takes no more.
    fn forget(&mut self, id: &str) {
        if let Some(p) = self.live.remove(id) {
            self.needed.remove(&(p.first_row, id.to_string()));
        }
    }

    /// Keeps the log short: moves the entries of matches that hold on to
    /// rows more than [`LOG_ROWS`] old, then deletes the rows nobody needs.
    pub(super) fn tidy(&mut self, db: &Connection) -> rusqlite::Result<()> {
        while let Some((row, id)) = self.needed.first().cloned() {
            if self.last - row <= self.limit {
                // Every row below the oldest one needed is dead.
                return self.trim(db, row);
            }
            let p = self
                .live
                .get_mut(&id)
                .expect("a needed row is a live match's");
            insert(db, INTO_ACTIONS, &id, p.next - p.entries.len(), &p.entries)?;
            p.entries.clear();
            self.needed.remove(&(row, id));
        }
        // The newest row stays, so row ids keep growing.
        self.trim(db, self.last)
    }

    /// Deletes the rows below `below`, once there are enough of them.
    fn trim(&mut self, db: &Connection, below: i64) -> rusqlite::Result<()> {
        if below - self.trimmed >= TRIM_ROWS {
            db.prepare_cached("DELETE FROM live_actions WHERE rowid < ?1")?
                .execute([below])?;
            self.trimmed = below;
        }
        Ok(())
    }
}

const INTO_LOG: &str =
    "INSERT INTO live_actions (match_id, idx, seat, action, at_ms, effect, actor)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
const INTO_ACTIONS: &str = "INSERT INTO actions (match_id, idx, seat, action, at_ms, effect, actor)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/// Inserts `entries`, match `id`'s entries from `from` on, with `sql` (into
/// the log or into `actions`); returns the row id of the first.
fn insert<'a>(
    db: &Connection,
    sql: &str,
    id: &str,
    from: usize,
    entries: impl IntoIterator<Item = &'a Entry>,
) -> rusqlite::Result<Option<i64>> {
    let mut insert = db.prepare_cached(sql)?;
    let mut first_row = None;
    for (i, e) in entries.into_iter().enumerate() {
        let idx = (from + i) as i64;
        let (seat, at_ms) = (e.seat.as_str(), e.at_ms as i64);
        let actor = crate::store::types::actor(e);
        insert.execute(params![id, idx, seat, e.action, at_ms, e.effect, actor])?;
        first_row.get_or_insert(db.last_insert_rowid());
    }
    Ok(first_row)
}

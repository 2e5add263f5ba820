//! The PostgreSQL store.
//!
//! One writer task holds a connection of its own: it takes every write
//! waiting, sends them all in one transaction (pipelined: one round trip
//! for the lot, not one per write), commits, and only then acknowledges
//! each. PostgreSQL's `synchronous_commit` makes the commit durable, so an
//! action is stored before anyone hears of it, and busy matches share
//! commits. Each write is one statement that does all of its part or
//! nothing: an append moves its match's count of entries from `first` on
//! and inserts at those indexes, so a write out of order inserts nothing
//! (and the key on (match, index) refuses any index twice). Reads use a
//! pool of connections. While the database is away, writes and reads fail
//! as [`StoreError::Unavailable`] and the writer connects again when it
//! is back.

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, join_all};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, NoTls, Row, Statement};
use umpire_core::{Entry, PerSeat};

use super::types::{FinishedSummary, Loaded, MatchRow, Op, SeatKind};
use super::{Backend, StoreError};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

type Ack = oneshot::Sender<Result<(), StoreError>>;

/// Writes sent in one transaction at most.
const BATCH: usize = 1024;
/// Connections kept for reads.
const READERS: usize = 8;

/// The PostgreSQL store's handle.
pub struct Postgres {
    writer: mpsc::UnboundedSender<(Op, Ack)>,
    pool: Pool,
}

/// `url` with its password hidden, for messages and logs.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{name}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    let tail = match tail.find("password=") {
        Some(at) => {
            let end = tail[at..].find('&').map_or(tail.len(), |e| at + e);
            format!("{}password=***{}", &tail[..at], &tail[end..])
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// A place in a schema of its own in the database at `base`, named after
/// `key` (the same key finds the same schema again, after a restart) and
/// created if missing: each test, or load run, keeps to its own.
pub async fn scratch_schema(base: &str, key: &str) -> Result<String, StoreError> {
    use std::hash::{Hash, Hasher};
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hash);
    let schema = format!("umpire_{:016x}", hash.finish());
    let config: tokio_postgres::Config = base
        .parse()
        .map_err(|e| StoreError::Failed(format!("not a PostgreSQL URL: {e}")))?;
    let db = connect(&config)
        .await
        .map_err(|e| cannot_connect(base, &e))?;
    db.batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
        .await
        .map_err(pg_err)?;
    let join = if base.contains('?') { '&' } else { '?' };
    Ok(format!("{base}{join}options=-c%20search_path%3D{schema}"))
}

/// What a PostgreSQL error means for the store: the database away (try
/// again), a write refused by a key, or anything else.
fn pg_err(e: tokio_postgres::Error) -> StoreError {
    use tokio_postgres::error::SqlState;
    let Some(code) = e.code() else {
        // No SQL state: the connection itself failed.
        return StoreError::Unavailable(e.to_string());
    };
    let away = code.code().starts_with("08")
        || [
            SqlState::ADMIN_SHUTDOWN,
            SqlState::CRASH_SHUTDOWN,
            SqlState::CANNOT_CONNECT_NOW,
            SqlState::TOO_MANY_CONNECTIONS,
        ]
        .contains(code);
    let words = e
        .as_db_error()
        .map_or(e.to_string(), |d| d.message().to_string());
    if away {
        StoreError::Unavailable(words)
    } else if *code == SqlState::UNIQUE_VIOLATION || *code == SqlState::FOREIGN_KEY_VIOLATION {
        StoreError::Refused(words)
    } else {
        StoreError::Failed(words)
    }
}

fn pool_err(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        deadpool_postgres::PoolError::Backend(e) => pg_err(e),
        e => StoreError::Unavailable(e.to_string()),
    }
}

/// Connects to `config`, running the connection on its own task.
async fn connect(config: &tokio_postgres::Config) -> Result<Client, tokio_postgres::Error> {
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!("a PostgreSQL connection ended: {e}");
        }
    });
    Ok(client)
}

/// The first connection's failure in words, naming the database without
/// its password.
fn cannot_connect(url: &str, e: &tokio_postgres::Error) -> StoreError {
    use tokio_postgres::error::SqlState;
    let at = without_password(url);
    let words = match e.code() {
        Some(c)
            if *c == SqlState::INVALID_PASSWORD
                || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            format!(
                "PostgreSQL at {at} refused the login: {}",
                e.as_db_error()
                    .map_or(e.to_string(), |d| d.message().to_string())
            )
        }
        Some(_) => format!(
            "PostgreSQL at {at} refused the connection: {}",
            e.as_db_error()
                .map_or(e.to_string(), |d| d.message().to_string())
        ),
        None => {
            let cause = std::error::Error::source(e).map_or(e.to_string(), |s| s.to_string());
            format!("cannot reach PostgreSQL at {at}: {cause}")
        }
    };
    StoreError::Failed(words)
}

impl Postgres {
    /// Connects, creates or migrates the schema, and starts the writer.
    pub async fn open(url: &str) -> Result<Postgres, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::Failed(format!(
                "`{}` is not a PostgreSQL URL: {e}",
                without_password(url)
            ))
        })?;
        let mut client = connect(&config)
            .await
            .map_err(|e| cannot_connect(url, &e))?;
        embedded::migrations::runner()
            .set_abort_missing(true)
            .run_async(&mut client)
            .await
            .map_err(|e| {
                StoreError::Failed(format!(
                    "cannot migrate PostgreSQL at {}: {}",
                    without_password(url),
                    super::migration_error(&e)
                ))
            })?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(READERS)
            .build()
            .map_err(|e| StoreError::Failed(e.to_string()))?;
        let (writer, queue) = mpsc::unbounded_channel();
        tokio::spawn(write_loop(config, Some(client), queue));
        Ok(Postgres { writer, pool })
    }

    async fn reader(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_err)
    }
}

impl Backend for Postgres {
    fn write(&self, op: Op) -> BoxFuture<'_, Result<(), StoreError>> {
        let (ack, done) = oneshot::channel();
        let sent = self.writer.send((op, ack));
        async move {
            let stopped = || StoreError::Failed("the writer has stopped".into());
            sent.map_err(|_| stopped())?;
            done.await.map_err(|_| stopped())?
        }
        .boxed()
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Loaded>, StoreError>> {
        async move {
            let db = self.reader().await?;
            let row = db
                .query_opt(&format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1"), &[&id])
                .await
                .map_err(pg_err)?;
            let Some(row) = row else {
                return Ok(None);
            };
            let mut loaded = loaded(&row)?;
            let entries = db
                .query(
                    "SELECT seat, action, at_ms, effect FROM actions WHERE match_id = $1 ORDER BY idx",
                    &[&id],
                )
                .await
                .map_err(pg_err)?;
            loaded.actions = entries.iter().map(entry).collect::<Result<_, _>>()?;
            Ok(Some(loaded))
        }
        .boxed()
    }

    fn finished(
        &self,
        limit: usize,
        offset: usize,
    ) -> BoxFuture<'_, Result<Vec<FinishedSummary>, StoreError>> {
        async move {
            let db = self.reader().await?;
            let rows = db
                .query(
                    "SELECT id, game, created_ms, finished_ms, seats, moves, outcome FROM matches
                     WHERE finished = 1 ORDER BY finished_ms DESC LIMIT $1 OFFSET $2",
                    &[&(limit as i64), &(offset as i64)],
                )
                .await
                .map_err(pg_err)?;
            rows.iter()
                .map(|r| {
                    Ok(FinishedSummary {
                        id: get(r, 0)?,
                        game: get(r, 1)?,
                        created_ms: get::<i64>(r, 2)? as u64,
                        finished_ms: get::<Option<i64>>(r, 3)?.unwrap_or(0) as u64,
                        seats: json(r, 4)
                            .unwrap_or(PerSeat::new(SeatKind::Person, SeatKind::Person)),
                        moves: get::<i32>(r, 5)? as u64,
                        outcome: get::<Option<Value>>(r, 6)?
                            .and_then(|o| serde_json::from_value(o).ok()),
                    })
                })
                .collect()
        }
        .boxed()
    }

    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<Loaded>, StoreError>> {
        async move {
            let mut db = self.reader().await?;
            // One snapshot for the matches and their entries.
            let read = db
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await
                .map_err(pg_err)?;
            let rows = read
                .query(
                    &format!(
                        "SELECT {MATCH_COLUMNS} FROM matches WHERE finished = 0 ORDER BY created_ms"
                    ),
                    &[],
                )
                .await
                .map_err(pg_err)?;
            let mut out: Vec<Loaded> = rows.iter().map(loaded).collect::<Result<_, _>>()?;
            let at: std::collections::HashMap<String, usize> = (out.iter().enumerate())
                .map(|(i, m)| (m.row.id.clone(), i))
                .collect();
            let entries = read
                .query(
                    "SELECT a.match_id, a.seat, a.action, a.at_ms, a.effect
                     FROM actions a JOIN matches m ON m.id = a.match_id
                     WHERE m.finished = 0 ORDER BY a.match_id, a.idx",
                    &[],
                )
                .await
                .map_err(pg_err)?;
            for r in &entries {
                let id: String = get(r, 0)?;
                if let Some(&i) = at.get(&id) {
                    out[i].actions.push(Entry {
                        seat: get::<String>(r, 1)?.parse().unwrap_or_default(),
                        action: get(r, 2)?,
                        at_ms: get::<i64>(r, 3)? as u64,
                        effect: get(r, 4)?,
                    });
                }
            }
            read.commit().await.map_err(pg_err)?;
            Ok(out)
        }
        .boxed()
    }
}

const MATCH_COLUMNS: &str = "id, game, config, seed, timed, clock, seats, tokens, takeover, created_ms, finished, called_off";

fn get<'a, T: tokio_postgres::types::FromSql<'a>>(row: &'a Row, i: usize) -> Result<T, StoreError> {
    row.try_get(i)
        .map_err(|e| StoreError::Failed(format!("a stored value does not read back: {e}")))
}

/// A JSON column as `T`.
fn json<T: DeserializeOwned>(row: &Row, i: usize) -> Result<T, StoreError> {
    let value: Value = get(row, i)?;
    serde_json::from_value(value)
        .map_err(|e| StoreError::Failed(format!("a stored value does not read back: {e}")))
}

fn loaded(r: &Row) -> Result<Loaded, StoreError> {
    let clock: Option<Value> = get(r, 5)?;
    let row = MatchRow {
        id: get(r, 0)?,
        game: get(r, 1)?,
        config: get(r, 2)?,
        seed: get::<i64>(r, 3)? as u64,
        timed: get(r, 4)?,
        clock: match clock {
            Some(c) => Some(serde_json::from_value(c).map_err(|e| {
                StoreError::Failed(format!("a stored clock does not read back: {e}"))
            })?),
            None => None,
        },
        seats: json(r, 6)?,
        tokens: json(r, 7)?,
        takeover: get(r, 8)?,
        created_ms: get::<i64>(r, 9)? as u64,
    };
    let abandoned = match get::<i16>(r, 10)? {
        2 => Some(get::<Option<String>>(r, 11)?.unwrap_or_default()),
        _ => None,
    };
    Ok(Loaded {
        row,
        actions: Vec::new(),
        abandoned,
    })
}

fn entry(r: &Row) -> Result<Entry, StoreError> {
    Ok(Entry {
        seat: get::<String>(r, 0)?.parse().unwrap_or_default(),
        action: get(r, 1)?,
        at_ms: get::<i64>(r, 2)? as u64,
        effect: get(r, 3)?,
    })
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

/// The writer's statements, prepared once per connection.
struct Statements {
    create: Statement,
    append: Statement,
    finish: Statement,
    seats: Statement,
    tokens: Statement,
    abandon: Statement,
}

/// An append's entries go in at `first` on, once its match's count moved
/// from `first`: no row at all when the match is not at `first`.
const APPEND: &str = "
WITH moved AS (
    UPDATE matches SET moves = $3 WHERE id = $1 AND moves = $2 AND finished = 0 RETURNING id
)
INSERT INTO actions (match_id, idx, seat, action, at_ms, effect)
SELECT moved.id, $2 + e.n - 1, e.seat, e.action, e.at_ms, e.effect
FROM moved, unnest($4::text[], $5::text[], $6::bigint[], $7::text[])
    WITH ORDINALITY AS e(seat, action, at_ms, effect, n)";

/// [`APPEND`] for the entries that end the match.
const FINISH: &str = "
WITH moved AS (
    UPDATE matches SET moves = $3, finished = 1, finished_ms = $8, outcome = $9
    WHERE id = $1 AND moves = $2 AND finished = 0 RETURNING id
)
INSERT INTO actions (match_id, idx, seat, action, at_ms, effect)
SELECT moved.id, $2 + e.n - 1, e.seat, e.action, e.at_ms, e.effect
FROM moved, unnest($4::text[], $5::text[], $6::bigint[], $7::text[])
    WITH ORDINALITY AS e(seat, action, at_ms, effect, n)";

impl Statements {
    async fn prepare(db: &Client) -> Result<Statements, tokio_postgres::Error> {
        Ok(Statements {
            create: db
                .prepare(
                    "INSERT INTO matches (id, game, config, seed, timed, clock, seats, tokens, takeover, created_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                )
                .await?,
            append: db.prepare(APPEND).await?,
            finish: db.prepare(FINISH).await?,
            seats: db
                .prepare("UPDATE matches SET seats = $2 WHERE id = $1")
                .await?,
            tokens: db
                .prepare("UPDATE matches SET tokens = $2 WHERE id = $1")
                .await?,
            abandon: db
                .prepare(
                    "UPDATE matches SET finished = 2, finished_ms = $2, called_off = $3
                     WHERE id = $1 AND finished = 0",
                )
                .await?,
        })
    }
}

/// Runs one write; `Ok(Err(..))` when it is refused without an error from
/// the database (an append out of order inserts nothing).
async fn run(
    db: &impl tokio_postgres::GenericClient,
    st: &Statements,
    op: &Op,
) -> Result<Result<(), StoreError>, tokio_postgres::Error> {
    match op {
        Op::Create(row) => {
            db.execute(
                &st.create,
                &[
                    &row.id,
                    &row.game,
                    &row.config,
                    &(row.seed as i64),
                    &row.timed,
                    &row.clock.as_ref().map(to_json),
                    &to_json(&row.seats),
                    &to_json(&row.tokens),
                    &row.takeover,
                    &(row.created_ms as i64),
                ],
            )
            .await?;
        }
        Op::Append {
            id,
            first,
            entries,
            finished,
        } => {
            let from = *first as i32;
            let to = (first + entries.len()) as i32;
            let seats: Vec<String> = entries.iter().map(|e| e.seat.to_string()).collect();
            let actions: Vec<&str> = entries.iter().map(|e| e.action.as_str()).collect();
            let times: Vec<i64> = entries.iter().map(|e| e.at_ms as i64).collect();
            let effects: Vec<Option<&str>> = entries.iter().map(|e| e.effect.as_deref()).collect();
            let inserted = match finished {
                None => {
                    db.execute(
                        &st.append,
                        &[id, &from, &to, &seats, &actions, &times, &effects],
                    )
                    .await?
                }
                Some((outcome, wall_ms)) => {
                    db.execute(
                        &st.finish,
                        &[
                            id,
                            &from,
                            &to,
                            &seats,
                            &actions,
                            &times,
                            &effects,
                            &(*wall_ms as i64),
                            &to_json(outcome),
                        ],
                    )
                    .await?
                }
            };
            if inserted as usize != entries.len() {
                return Ok(Err(StoreError::Refused(format!(
                    "match {id} is not being played, or its next entry is not {first}"
                ))));
            }
        }
        Op::Seats { id, seats } => {
            db.execute(&st.seats, &[id, &to_json(seats)]).await?;
        }
        Op::Tokens { id, tokens } => {
            db.execute(&st.tokens, &[id, &to_json(tokens)]).await?;
        }
        Op::Abandon { id, at_ms, reason } => {
            db.execute(&st.abandon, &[id, &(*at_ms as i64), reason])
                .await?;
        }
    }
    Ok(Ok(()))
}

/// The writer task: take what waits, write it in one transaction, commit,
/// acknowledge.
async fn write_loop(
    config: tokio_postgres::Config,
    client: Option<Client>,
    mut queue: mpsc::UnboundedReceiver<(Op, Ack)>,
) {
    let mut db = match client {
        Some(c) => Statements::prepare(&c).await.ok().map(|st| (c, st)),
        None => None,
    };
    // Ends when the store's handle is gone.
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        if db.as_ref().is_none_or(|(c, _)| c.is_closed()) {
            db = reconnect(&config).await;
        }
        let results = match db.as_mut() {
            Some((client, st)) => commit(client, st, &batch).await,
            None => Err(StoreError::Unavailable("cannot connect".into())),
        };
        match results {
            Ok(results) => {
                for ((_, ack), result) in batch.into_iter().zip(results) {
                    // A waiter that gave up is no harm.
                    let _ = ack.send(result);
                }
            }
            Err(e) => {
                if e.is_retryable() {
                    db = None;
                }
                tracing::error!("{e}");
                for (_, ack) in batch {
                    let _ = ack.send(Err(e.clone()));
                }
            }
        }
    }
}

async fn reconnect(config: &tokio_postgres::Config) -> Option<(Client, Statements)> {
    let client = connect(config).await.ok()?;
    let st = Statements::prepare(&client).await.ok()?;
    tracing::info!("the store's writer is connected to PostgreSQL again");
    Some((client, st))
}

/// Writes `batch` in one transaction, its statements pipelined; if one
/// fails, the transaction is rolled back and each write is tried in a
/// transaction of its own, so that one bad write harms no other. The
/// result of each write, or why none could be committed.
async fn commit(
    client: &mut Client,
    st: &Statements,
    batch: &[(Op, Ack)],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let tx = client.transaction().await.map_err(pg_err)?;
    let ran = join_all(batch.iter().map(|(op, _)| run(&tx, st, op))).await;
    if ran.iter().all(Result::is_ok) {
        tx.commit().await.map_err(pg_err)?;
        return Ok(ran.into_iter().map(|r| r.unwrap_or(Ok(()))).collect());
    }
    if let Some(Err(e)) = ran.into_iter().find(Result::is_err) {
        let e = pg_err(e);
        if e.is_retryable() {
            return Err(e);
        }
    }
    tx.rollback().await.map_err(pg_err)?;
    let mut results = Vec::with_capacity(batch.len());
    for (op, _) in batch {
        let tx = client.transaction().await.map_err(pg_err)?;
        match run(&tx, st, op).await {
            Ok(result) => {
                tx.commit().await.map_err(pg_err)?;
                results.push(result);
            }
            Err(e) => {
                let e = pg_err(e);
                if e.is_retryable() {
                    return Err(e);
                }
                tx.rollback().await.map_err(pg_err)?;
                results.push(Err(e));
            }
        }
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::without_password;

    #[test]
    fn a_url_is_shown_without_its_password() {
        assert_eq!(
            without_password("postgres://umpire:s3cret@db:5432/umpire"),
            "postgres://umpire:***@db:5432/umpire"
        );
        assert_eq!(
            without_password("postgres://umpire@db/umpire?password=s3cret&sslmode=disable"),
            "postgres://umpire@db/umpire?password=***&sslmode=disable"
        );
        assert_eq!(without_password("postgres://db/u"), "postgres://db/u");
    }
}

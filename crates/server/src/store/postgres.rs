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
use tokio::sync::mpsc;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls, Row, Statement};
use umpire_core::{Entry, PerSeat, Player};

use super::backend::{Ack, Backend, migration_error, to_writer};
use super::error::StoreError;
use super::types::{FinishedSummary, Loaded, MatchRow, Op, SeatKind, actor, by_from, players_json};
use crate::chat::{ChatLine, Room};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// A write, the epoch it is made in, and who waits for it.
type Write = (Op, u64, Ack);

/// The advisory lock held while the schema is migrated.
const MIGRATING: i64 = 0x756d_7069_7265;
/// Writes sent in one transaction at most.
const BATCH: usize = 1024;
/// Connections kept for reads.
const READERS: usize = 8;

/// The PostgreSQL store's handle.
pub struct Postgres {
    writer: mpsc::UnboundedSender<Write>,
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
    let db = connect_url(base).await?;
    db.batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
        .await
        .map_err(pg_err)?;
    let join = if base.contains('?') { '&' } else { '?' };
    Ok(format!("{base}{join}options=-c%20search_path%3D{schema}"))
}

/// A plain connection to the database at `url`: for a scratch schema,
/// and for tests that reach past the store.
pub async fn connect_url(url: &str) -> Result<Client, StoreError> {
    let config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| StoreError::Failed(format!("not a PostgreSQL URL: {e}")))?;
    connect(&config).await.map_err(|e| cannot_connect(url, &e))
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
    /// Connects, creates or migrates the schema, and starts the writer;
    /// for node `node` of a service, also its shared state ([`Leases`]),
    /// and the matches it creates are its own.
    pub async fn open(
        url: &str,
        node: Option<&str>,
    ) -> Result<(Postgres, Option<Leases>), StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::Failed(format!(
                "`{}` is not a PostgreSQL URL: {e}",
                without_password(url)
            ))
        })?;
        let mut client = connect(&config)
            .await
            .map_err(|e| cannot_connect(url, &e))?;
        // One node migrates at a time: nodes started together wait their turn.
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATING])
            .await
            .map_err(|e| cannot_connect(url, &e))?;
        let migrated = embedded::migrations::runner()
            .set_abort_missing(true)
            .run_async(&mut client)
            .await;
        let _ = client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATING])
            .await;
        migrated.map_err(|e| {
            StoreError::Failed(format!(
                "cannot migrate PostgreSQL at {}: {}",
                without_password(url),
                migration_error(&e)
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
        let owner = node.map(str::to_string);
        tokio::spawn(write_loop(config, Some(client), owner, queue));
        let leases = node.map(|node| Leases {
            pool: pool.clone(),
            node: node.to_string(),
            renewed_since: Default::default(),
        });
        Ok((Postgres { writer, pool }, leases))
    }

    async fn reader(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_err)
    }
}

impl Backend for Postgres {
    fn write(&self, op: Op, epoch: u64) -> BoxFuture<'_, Result<(), StoreError>> {
        to_writer(|ack| self.writer.send((op, epoch, ack)).is_ok())
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Loaded>, StoreError>> {
        async move {
            let db = self.reader().await?;
            let row = db
                .query_opt(
                    &format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1"),
                    &[&id],
                )
                .await
                .map_err(pg_err)?;
            let Some(row) = row else {
                return Ok(None);
            };
            let mut loaded = loaded(&row)?;
            let entries =
                "SELECT seat, action, at_ms, effect, actor FROM actions WHERE match_id = $1 ORDER BY idx";
            loaded.actions = of_match(&db, entries, id, entry).await?;
            let chat = "SELECT room, author, at_ms, text FROM chat WHERE match_id = $1 ORDER BY id";
            loaded.chat = of_match(&db, chat, id, chat_line).await?;
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
                    "SELECT id, game, created_ms, finished_ms, seats, moves, outcome, players
                     FROM matches WHERE finished = 1 ORDER BY finished_ms DESC LIMIT $1 OFFSET $2",
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
                        players: players(r, 7),
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
            let actions = of_matches(&read, UNFINISHED_ACTIONS, &at, entry).await?;
            let chat = of_matches(&read, UNFINISHED_CHAT, &at, chat_line).await?;
            for ((m, actions), chat) in out.iter_mut().zip(actions).zip(chat) {
                (m.actions, m.chat) = (actions, chat);
            }
            read.commit().await.map_err(pg_err)?;
            Ok(out)
        }
        .boxed()
    }
}

/// How long a node's lease lasts past its last renewal (it renews every
/// half second); its matches are taken over once it lapses.
const LEASE: &str = "2 seconds";
/// [`LEASE`] as a duration.
pub const LEASE_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// The state the nodes of one service share in the database: who is
/// alive, who runs which match (and in which epoch), and the per-address
/// limits. Times are the database's, so nodes whose clocks differ agree.
pub struct Leases {
    pool: Pool,
    /// This node (one process: its name and a random incarnation).
    node: String,
    /// When its lease was first renewed after the last failure: a node
    /// takes other nodes' matches over only once its own lease held for a
    /// whole lease, so that after the database was away every node renews
    /// before any takes over.
    renewed_since: std::sync::Mutex<Option<std::time::Instant>>,
}

/// What claiming a match gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This node runs it now, in this epoch.
    Ours(u64),
    /// A live node runs it.
    Theirs(String),
    /// No such match.
    Missing,
}

/// A live node and how full it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLoad {
    pub id: String,
    pub name: String,
    pub live: usize,
    pub max_live: usize,
}

impl Leases {
    async fn db(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_err)
    }

    /// Whether this node may take other nodes' matches over: its own lease
    /// has held for a whole lease.
    pub fn steady(&self) -> bool {
        let since = *self.renewed_since.lock().unwrap_or_else(|e| e.into_inner());
        since.is_some_and(|at| at.elapsed() >= LEASE_TIME)
    }

    /// Says this node is alive for another lease, with `live` matches of
    /// its `max_live`; the first call enters it.
    pub async fn renew(&self, name: &str, live: usize, max_live: usize) -> Result<(), StoreError> {
        let renewed = self.renew_row(name, live, max_live).await;
        let mut since = self.renewed_since.lock().unwrap_or_else(|e| e.into_inner());
        match &renewed {
            Ok(()) => {
                since.get_or_insert_with(std::time::Instant::now);
            }
            Err(_) => *since = None,
        }
        renewed
    }

    async fn renew_row(&self, name: &str, live: usize, max_live: usize) -> Result<(), StoreError> {
        self.db()
            .await?
            .execute(
                &format!(
                    "INSERT INTO nodes (id, name, alive_until, live, max_live)
                     VALUES ($1, $2, now() + interval '{LEASE}', $3, $4)
                     ON CONFLICT (id) DO UPDATE SET alive_until = excluded.alive_until,
                         live = excluded.live, max_live = excluded.max_live"
                ),
                &[&self.node, &name, &(live as i32), &(max_live as i32)],
            )
            .await
            .map_err(pg_err)?;
        Ok(())
    }

    /// Takes match `id` over unless a live node runs it: its epoch moves on
    /// (this node's own match, loaded again, too). Without `take_over` (or
    /// before the node is [`Leases::steady`]) only a match nobody runs.
    pub async fn claim(&self, id: &str, take_over: bool) -> Result<Claim, StoreError> {
        let db = self.db().await?;
        let take_over = take_over && self.steady();
        let claimed = db
            .query_opt(
                "UPDATE matches m SET owner = $2, epoch = m.epoch + 1
                 WHERE m.id = $1 AND (m.owner IS NULL OR m.owner = $2 OR ($3 AND NOT EXISTS (
                     SELECT 1 FROM nodes n WHERE n.id = m.owner AND n.alive_until > now())))
                 RETURNING epoch",
                &[&id, &self.node, &take_over],
            )
            .await
            .map_err(pg_err)?;
        if let Some(row) = claimed {
            return Ok(Claim::Ours(row.get::<_, i64>(0) as u64));
        }
        let owner = db
            .query_opt("SELECT owner FROM matches WHERE id = $1", &[&id])
            .await
            .map_err(pg_err)?;
        Ok(match owner {
            Some(row) => Claim::Theirs(row.get::<_, Option<String>>(0).unwrap_or_default()),
            None => Claim::Missing,
        })
    }

    /// The epochs the store holds for matches `ids` (a match another node
    /// took over has moved past the epoch this node runs it in).
    pub async fn epochs(&self, ids: &[String]) -> Result<Vec<(String, u64)>, StoreError> {
        let rows = self
            .db()
            .await?
            .query("SELECT id, epoch FROM matches WHERE id = ANY($1)", &[&ids])
            .await
            .map_err(pg_err)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get::<_, i64>(1) as u64))
            .collect())
    }

    /// Unfinished matches whose node is gone (its lease lapsed, or it let
    /// them go), at most `limit`, oldest first.
    pub async fn orphans(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let rows = self
            .db()
            .await?
            .query(
                "SELECT m.id FROM matches m WHERE m.finished = 0 AND (m.owner IS NULL OR NOT EXISTS (
                     SELECT 1 FROM nodes n WHERE n.id = m.owner AND n.alive_until > now()))
                 ORDER BY m.created_ms LIMIT $1",
                &[&(limit as i64)],
            )
            .await
            .map_err(pg_err)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Lets every match of this node go and ends its lease, so that the
    /// other nodes take them over at once (a node shutting down).
    pub async fn release(&self) -> Result<(), StoreError> {
        let db = self.db().await?;
        db.execute(
            "UPDATE matches SET owner = NULL WHERE owner = $1",
            &[&self.node],
        )
        .await
        .map_err(pg_err)?;
        db.execute(
            "UPDATE nodes SET alive_until = now() WHERE id = $1",
            &[&self.node],
        )
        .await
        .map_err(pg_err)?;
        Ok(())
    }

    /// The live nodes, with how full each is.
    pub async fn nodes(&self) -> Result<Vec<NodeLoad>, StoreError> {
        let rows = self
            .db()
            .await?
            .query(
                "SELECT id, name, live, max_live FROM nodes WHERE alive_until > now() ORDER BY id",
                &[],
            )
            .await
            .map_err(pg_err)?;
        Ok(rows
            .iter()
            .map(|r| NodeLoad {
                id: r.get(0),
                name: r.get(1),
                live: r.get::<_, i32>(2) as usize,
                max_live: r.get::<_, i32>(3) as usize,
            })
            .collect())
    }

    /// Takes one from `address`'s bucket of `kind` (`per_minute` a minute,
    /// bursts of as many), shared by every node; false when it is empty.
    pub async fn allow(
        &self,
        address: &str,
        kind: &str,
        per_minute: u32,
    ) -> Result<bool, StoreError> {
        let full = f64::from(per_minute);
        let row = self
            .db()
            .await?
            .query_one(
                "INSERT INTO buckets AS b (address, kind, tokens, at)
                 VALUES ($1, $2, $3::float8 - 1, now())
                 ON CONFLICT (address, kind) DO UPDATE SET
                     tokens = LEAST($3::float8,
                         b.tokens + extract(epoch FROM now() - b.at)::float8 * $3::float8 / 60) - 1,
                     at = now()
                 RETURNING tokens",
                &[&address, &kind, &full],
            )
            .await
            .map_err(pg_err)?;
        let left: f64 = row.get(0);
        if left < 0.0 {
            // Give the token back: the bucket was empty.
            self.db()
                .await?
                .execute(
                    "UPDATE buckets SET tokens = tokens + 1 WHERE address = $1 AND kind = $2",
                    &[&address, &kind],
                )
                .await
                .map_err(pg_err)?;
        }
        Ok(left >= 0.0)
    }

    /// How many unfinished matches `address` created, and of those how
    /// many are between two bots, over every node.
    pub async fn created_by(&self, address: &str) -> Result<(usize, usize), StoreError> {
        let row = self
            .db()
            .await?
            .query_one(
                "SELECT count(*), count(*) FILTER (WHERE seats->'P1'->>'kind' = 'bot'
                                                  AND seats->'P2'->>'kind' = 'bot')
                 FROM matches WHERE finished = 0 AND creator = $1",
                &[&address],
            )
            .await
            .map_err(pg_err)?;
        Ok((row.get::<_, i64>(0) as usize, row.get::<_, i64>(1) as usize))
    }
}

const MATCH_COLUMNS: &str = "id, game, config, seed, timed, clock, seats, tokens, takeover, created_ms, finished, called_off, players, hosted, seed_set, audience";

fn get<'a, T: tokio_postgres::types::FromSql<'a>>(row: &'a Row, i: usize) -> Result<T, StoreError> {
    row.try_get(i)
        .map_err(|e| StoreError::Failed(format!("a stored value does not read back: {e}")))
}

/// The players of a JSON column that may be null (nobody named).
fn players(row: &Row, i: usize) -> PerSeat<Player> {
    get::<Option<Value>>(row, i)
        .ok()
        .flatten()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
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
        creator: None,
        players: players(r, 12),
        hosted: get(r, 13)?,
        seed_set: get(r, 14)?,
        audience: get(r, 15)?,
    };
    let abandoned = match get::<i16>(r, 10)? {
        2 => Some(get::<Option<String>>(r, 11)?.unwrap_or_default()),
        _ => None,
    };
    Ok(Loaded {
        row,
        actions: Vec::new(),
        abandoned,
        chat: Vec::new(),
    })
}

/// A chat line from `room, author, at_ms, text` at column `from` on.
fn chat_line(r: &Row, from: usize) -> Result<ChatLine, StoreError> {
    Ok(ChatLine {
        room: get::<String>(r, from)?.parse().unwrap_or(Room::Spectators),
        by: get(r, from + 1)?,
        at_ms: get::<i64>(r, from + 2)? as u64,
        text: get(r, from + 3)?,
    })
}

/// An entry from `seat, action, at_ms, effect, actor` at column `from` on.
fn entry(r: &Row, from: usize) -> Result<Entry, StoreError> {
    Ok(Entry {
        seat: get::<String>(r, from)?.parse().unwrap_or_default(),
        action: get(r, from + 1)?,
        at_ms: get::<i64>(r, from + 2)? as u64,
        effect: get(r, from + 3)?,
        by: by_from(get::<Option<String>>(r, from + 4)?.as_deref()),
    })
}

/// The rows `sql` finds for match `id`, each read by `read` from its first
/// column on.
async fn of_match<T>(
    db: &deadpool_postgres::Object,
    sql: &str,
    id: &str,
    read: fn(&Row, usize) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let rows = db.query(sql, &[&id]).await.map_err(pg_err)?;
    rows.iter().map(|r| read(r, 0)).collect()
}

/// Every unfinished match's entries, by match and in order.
const UNFINISHED_ACTIONS: &str = "SELECT a.match_id, a.seat, a.action, a.at_ms, a.effect, a.actor
     FROM actions a JOIN matches m ON m.id = a.match_id
     WHERE m.finished = 0 ORDER BY a.match_id, a.idx";
/// Every unfinished match's chat, by match and in the order said.
const UNFINISHED_CHAT: &str = "SELECT c.match_id, c.room, c.author, c.at_ms, c.text
     FROM chat c JOIN matches m ON m.id = c.match_id
     WHERE m.finished = 0 ORDER BY c.match_id, c.id";

/// The rows `sql` finds, grouped by the match their first column names:
/// one list for each match of `at` (by its index there), each row read by
/// `read` from the second column on; rows of other matches are skipped.
async fn of_matches<T>(
    db: &deadpool_postgres::Transaction<'_>,
    sql: &str,
    at: &std::collections::HashMap<String, usize>,
    read: fn(&Row, usize) -> Result<T, StoreError>,
) -> Result<Vec<Vec<T>>, StoreError> {
    let mut out: Vec<Vec<T>> = std::iter::repeat_with(Vec::new).take(at.len()).collect();
    for r in &db.query(sql, &[]).await.map_err(pg_err)? {
        let id: String = get(r, 0)?;
        if let Some(&i) = at.get(&id) {
            out[i].push(read(r, 1)?);
        }
    }
    Ok(out)
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
    chat: Statement,
    epoch: Statement,
}

/// An append's entries go in at `first` on, once its match's count moved
/// from `first` in the writer's epoch: no row at all when the match is not
/// at `first`, or runs in another epoch.
const APPEND: &str = "
WITH moved AS (
    UPDATE matches SET moves = $3
    WHERE id = $1 AND moves = $2 AND finished = 0 AND epoch = $8 RETURNING id
)
INSERT INTO actions (match_id, idx, seat, action, at_ms, effect, epoch, actor)
SELECT moved.id, $2 + e.n - 1, e.seat, e.action, e.at_ms, e.effect, $8, e.actor
FROM moved, unnest($4::text[], $5::text[], $6::bigint[], $7::text[], $9::text[])
    WITH ORDINALITY AS e(seat, action, at_ms, effect, actor, n)";

/// [`APPEND`] for the entries that end the match.
const FINISH: &str = "
WITH moved AS (
    UPDATE matches SET moves = $3, finished = 1, finished_ms = $9, outcome = $10
    WHERE id = $1 AND moves = $2 AND finished = 0 AND epoch = $8 RETURNING id
)
INSERT INTO actions (match_id, idx, seat, action, at_ms, effect, epoch, actor)
SELECT moved.id, $2 + e.n - 1, e.seat, e.action, e.at_ms, e.effect, $8, e.actor
FROM moved, unnest($4::text[], $5::text[], $6::bigint[], $7::text[], $11::text[])
    WITH ORDINALITY AS e(seat, action, at_ms, effect, actor, n)";

impl Statements {
    async fn prepare(db: &Client) -> Result<Statements, tokio_postgres::Error> {
        Ok(Statements {
            create: db
                .prepare(
                    "INSERT INTO matches (id, game, config, seed, timed, clock, seats, tokens, takeover,
                                          created_ms, owner, creator, players, hosted, seed_set, audience)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
                )
                .await?,
            append: db.prepare(APPEND).await?,
            finish: db.prepare(FINISH).await?,
            seats: db
                .prepare("UPDATE matches SET seats = $2 WHERE id = $1 AND epoch = $3")
                .await?,
            tokens: db
                .prepare("UPDATE matches SET tokens = $2 WHERE id = $1 AND epoch = $3")
                .await?,
            abandon: db
                .prepare(
                    "UPDATE matches SET finished = 2, finished_ms = $2, called_off = $3
                     WHERE id = $1 AND finished = 0 AND epoch = $4",
                )
                .await?,
            chat: db
                .prepare(
                    "INSERT INTO chat (match_id, room, author, at_ms, text, epoch)
                     SELECT id, $2::text, $3::text, $4::bigint, $5::text, $6::bigint
                     FROM matches WHERE id = $1 AND epoch = $6",
                )
                .await?,
            epoch: db
                .prepare("SELECT epoch FROM matches WHERE id = $1")
                .await?,
        })
    }
}

/// Runs one write in `epoch` (`owner` is the node writing, if one of
/// several); `Ok(Err(..))` when it is refused without an error from the
/// database (an append out of order inserts nothing).
async fn run(
    db: &impl tokio_postgres::GenericClient,
    st: &Statements,
    op: &Op,
    epoch: u64,
    owner: Option<&str>,
) -> Result<Result<(), StoreError>, tokio_postgres::Error> {
    let epoch_param = epoch as i64;
    let changed = match op {
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
                    &owner,
                    &row.creator,
                    &players_json(&row.players).map(|_| to_json(&row.players)),
                    &row.hosted,
                    &row.seed_set,
                    &row.audience,
                ],
            )
            .await?;
            return Ok(Ok(()));
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
            let actors: Vec<Option<&str>> = entries.iter().map(actor).collect();
            // A finishing append also writes the end ($9 and $10 of `finish`).
            let end = finished
                .as_ref()
                .map(|(outcome, wall_ms)| (*wall_ms as i64, to_json(outcome)));
            let mut params: Vec<&(dyn ToSql + Sync)> = vec![
                id,
                &from,
                &to,
                &seats,
                &actions,
                &times,
                &effects,
                &epoch_param,
            ];
            if let Some((wall_ms, outcome)) = &end {
                params.extend([wall_ms as &(dyn ToSql + Sync), outcome]);
            }
            params.push(&actors);
            let statement = if end.is_some() {
                &st.finish
            } else {
                &st.append
            };
            let inserted = db.execute(statement, &params).await?;
            let why = format!("match {id} is not being played, or its next entry is not {first}");
            (inserted, entries.len(), id, why)
        }
        Op::Seats { id, seats } => {
            let params: [&(dyn ToSql + Sync); 3] = [id, &to_json(seats), &epoch_param];
            let n = db.execute(&st.seats, &params).await?;
            (n, 1, id, format!("no match {id}"))
        }
        Op::Tokens { id, tokens } => {
            let params: [&(dyn ToSql + Sync); 3] = [id, &to_json(tokens), &epoch_param];
            let n = db.execute(&st.tokens, &params).await?;
            (n, 1, id, format!("no match {id}"))
        }
        Op::Abandon { id, at_ms, reason } => {
            let params: [&(dyn ToSql + Sync); 4] = [id, &(*at_ms as i64), reason, &epoch_param];
            let n = db.execute(&st.abandon, &params).await?;
            // Already over: nothing to call off.
            (n, 1, id, String::new())
        }
        Op::Chat { id, line } => {
            let at = line.at_ms as i64;
            let params: [&(dyn ToSql + Sync); 6] = [
                id,
                &line.room.as_str(),
                &line.by,
                &at,
                &line.text,
                &epoch_param,
            ];
            let n = db.execute(&st.chat, &params).await?;
            (n, 1, id, format!("no match {id}"))
        }
    };
    let (written, wanted, id, why) = changed;
    if written as usize == wanted {
        return Ok(Ok(()));
    }
    // Nothing changed: the match is another node's now, or the write was
    // out of place.
    let now: Option<i64> = db.query_opt(&st.epoch, &[id]).await?.map(|r| r.get(0));
    Ok(match now {
        Some(e) if e != epoch_param => Err(StoreError::Moved(format!(
            "match {id} is run by another node now (epoch {e}, not {epoch})"
        ))),
        _ if why.is_empty() => Ok(()),
        _ => Err(StoreError::Refused(why)),
    })
}

/// The writer task: take what waits, write it in one transaction, commit,
/// acknowledge.
async fn write_loop(
    config: tokio_postgres::Config,
    client: Option<Client>,
    owner: Option<String>,
    mut queue: mpsc::UnboundedReceiver<Write>,
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
            Some((client, st)) => commit(client, st, &batch, owner.as_deref()).await,
            None => Err(StoreError::Unavailable("cannot connect".into())),
        };
        match results {
            Ok(results) => {
                for ((_, _, ack), result) in batch.into_iter().zip(results) {
                    // A waiter that gave up is no harm.
                    let _ = ack.send(result);
                }
            }
            Err(e) => {
                if e.is_retryable() {
                    db = None;
                }
                tracing::error!("{e}");
                for (_, _, ack) in batch {
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
    batch: &[Write],
    owner: Option<&str>,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let tx = client.transaction().await.map_err(pg_err)?;
    let ran = join_all(
        batch
            .iter()
            .map(|(op, epoch, _)| run(&tx, st, op, *epoch, owner)),
    )
    .await;
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
    for (op, epoch, _) in batch {
        let tx = client.transaction().await.map_err(pg_err)?;
        match run(&tx, st, op, *epoch, owner).await {
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

//! A match's task against a store that fails on demand: it never runs ahead
//! of what the store holds.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use umpire_core::testing::SealedBids;
use umpire_core::{Match, MatchOptions, PerSeat, Seat, Viewer, erase};

use super::{Cmd, Handle, Info, Registry, Start, spawn};
use crate::config::Config;
use crate::outbox::Outgoing;
use crate::shown::Shown;
use crate::store::{MatchRow, Op, SeatKind, Store, Tokens};

const WAIT: Duration = Duration::from_secs(10);

struct Setup {
    _dir: tempfile::TempDir,
    store: Store,
    registry: Registry,
    handle: Handle,
}

/// A new Sealed Bids match between two people, stored and running.
async fn setup() -> Setup {
    setup_with(Config::default()).await
}

/// [`setup`] with these server settings.
async fn setup_with(config: Config) -> Setup {
    let dir = tempfile::tempdir().expect("a temp dir");
    // Created now: a match created at 0 is long past its 30 minutes to
    // start, and its task may call it off before the first client joins.
    let created_ms = crate::wall::wall_ms();
    let place = crate::store::Place::Sqlite(dir.path().join("t.db"));
    let store = Store::open_as(&place, None).await.expect("a store");
    let game = erase::<SealedBids>();
    let m = Match::new(game, &json!({}), 7, MatchOptions::default()).expect("a match");
    let tokens = Tokens {
        seats: PerSeat::new("p1".into(), "p2".into()),
        umpire: "u".into(),
        invite: None,
        rematch: None,
    };
    let row = MatchRow {
        id: "m1".into(),
        game: game.id().into(),
        config: m.record().config.clone(),
        seed: 7,
        timed: true,
        clock: None,
        seats: PerSeat::new(SeatKind::Person, SeatKind::Person),
        tokens: tokens.clone(),
        takeover: true,
        created_ms,
        creator: None,
        players: Default::default(),
        hosted: false,
        seed_set: false,
        audience: true,
    };
    store
        .write(Op::Create(Box::new(row.clone())))
        .await
        .expect("stored");
    let registry: Registry = Arc::new(Mutex::new(HashMap::new()));
    let handle = spawn(Start {
        info: Arc::new(Info {
            id: row.id.clone(),
            game,
            tokens,
            takeover: true,
            created_ms,
            fixed: Vec::new(),
            epoch: 0,
            from: None,
            bots_only: false,
            hosted: false,
            audience: true,
            claimed: Default::default(),
        }),
        shown: Shown::start(&m),
        m,
        chat: Vec::new(),
        seats: row.seats,
        store: store.clone(),
        config: Arc::new(config),
        registry: registry.clone(),
        bots: crate::pool::Pool::new("umpire-bot", 1, crate::pool::Below::Idle),
        judges: crate::pool::Pool::new("umpire-judge", 1, crate::pool::Below::Not),
        checks: crate::pool::Pool::new("umpire-check", 1, crate::pool::Below::Nice),
    });
    registry.lock().unwrap().insert(row.id, handle.clone());
    Setup {
        _dir: dir,
        store,
        registry,
        handle,
    }
}

/// Connects `seat` as connection `conn`, which the match admits.
async fn admit(handle: &Handle, seat: Seat, conn: u64) -> Client {
    let (tx, rx) = mpsc::channel(64);
    let (reply, admitted) = oneshot::channel();
    let join = Cmd::Join {
        viewer: Viewer::Seat(seat),
        conn,
        tx: Arc::new(tx),
        reply,
    };
    handle.tx.send(join).await.expect("the task runs");
    assert!(admitted.await.expect("an answer"));
    Client {
        rx,
        queued: Default::default(),
    }
}

/// Connects P1 as connection 1; reads its `hello` and `state`.
async fn join_p1(handle: &Handle) -> Client {
    let mut client = admit(handle, Seat::P1, 1).await;
    assert_eq!(next(&mut client).await.expect("hello")["type"], "hello");
    assert_eq!(next(&mut client).await.expect("state")["type"], "state");
    // Then the match log (this game keeps one) and the chat so far.
    assert_eq!(next(&mut client).await.expect("log")["type"], "log");
    let chat = next(&mut client).await.expect("chat");
    assert_eq!(
        (&chat["type"], &chat["all"]),
        (&"chat".into(), &true.into())
    );
    client
}

/// A client's queue, read one message at a time.
struct Client {
    rx: mpsc::Receiver<Outgoing>,
    queued: std::collections::VecDeque<Utf8Bytes>,
}

async fn bid(handle: &Handle) {
    let act = Cmd::Act {
        conn: 1,
        seat: Seat::P1,
        text: "bid 2".into(),
        at: std::time::Instant::now(),
        by: None,
    };
    handle.tx.send(act).await.expect("the task runs");
}

/// The next message, or `None` once the task dropped the client.
async fn next(client: &mut Client) -> Option<Value> {
    if client.queued.is_empty() {
        let out = tokio::time::timeout(WAIT, client.rx.recv())
            .await
            .expect("a message in time")?;
        match out {
            Outgoing::One(text) => client.queued.push_back(text),
            Outgoing::Two(first, second) => client.queued.extend([first, second]),
        }
    }
    let text = client.queued.pop_front()?;
    Some(serde_json::from_str(&text).expect("JSON"))
}

/// One of the store's faults a test switches.
#[derive(Clone, Copy)]
enum Fault {
    Writes,
    Reads,
    Answers,
}

/// Switches `faults` of the store on or off.
fn switch(s: &Setup, faults: &[Fault], on: bool) {
    let all = s.store.faults();
    for fault in faults {
        let flag = match fault {
            Fault::Writes => &all.writes,
            Fault::Reads => &all.reads,
            Fault::Answers => &all.answers,
        };
        flag.store(on, Ordering::SeqCst);
    }
}

/// A match with P1 joined, whose bid the store refuses with `faults` on.
async fn refused_by_the_store(faults: &[Fault]) -> (Setup, Client) {
    let s = setup().await;
    let mut p1 = join_p1(&s.handle).await;
    switch(&s, faults, true);
    bid(&s.handle).await;
    let error = next(&mut p1).await.expect("an answer");
    assert_eq!(error["rule"], "store", "{error}");
    (s, p1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_goes_back_to_the_stored_state() {
    let (s, mut p1) = refused_by_the_store(&[Fault::Writes]).await;
    let (record, _) = s.handle.record().await.expect("the match runs");
    assert!(record.actions.is_empty(), "{record:?}");
    // Once the store works again, so does the same action.
    switch(&s, &[Fault::Writes], false);
    bid(&s.handle).await;
    let accepted = next(&mut p1).await.expect("an answer");
    assert_eq!(
        (&accepted["type"], &accepted["action"], &accepted["seq"]),
        (&json!("accepted"), &json!("bid 2"), &json!(1))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_waits_while_its_store_is_away_and_goes_on() {
    let (s, mut p1) = refused_by_the_store(&[Fault::Writes, Fault::Reads]).await;
    // While the store cannot be read, nothing is played.
    bid(&s.handle).await;
    let error = next(&mut p1).await.expect("an answer");
    assert_eq!(error["rule"], "store", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap_or_default()
            .contains("unavailable"),
        "{error}"
    );
    // Back: the match goes on with the same action.
    switch(&s, &[Fault::Reads, Fault::Writes], false);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    bid(&s.handle).await;
    let accepted = loop {
        let m = next(&mut p1).await.expect("an answer");
        if m["type"] != "state" {
            break m;
        }
    };
    assert_eq!(accepted["type"], "accepted", "{accepted}");
    assert!(!s.registry.lock().unwrap().is_empty(), "still live");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_reported_failed_that_the_store_kept_is_played_on() {
    let (s, mut p1) = refused_by_the_store(&[Fault::Answers, Fault::Reads]).await;
    // The store answers again: it holds the bid, and the match moves on.
    switch(&s, &[Fault::Answers, Fault::Reads], false);
    let state = next(&mut p1).await.expect("a state");
    assert_eq!(state["type"], "state", "{state}");
    assert_eq!(state["seq"], 1, "{state}");
    let (record, _) = s.handle.record().await.expect("the match runs");
    assert_eq!(record.actions.len(), 1, "{record:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_whose_store_holds_something_else_stops() {
    let (s, mut p1) = refused_by_the_store(&[Fault::Writes, Fault::Reads]).await;
    // Meanwhile something else wrote the match's first entry.
    switch(&s, &[Fault::Writes], false);
    let other = Op::Append {
        id: "m1".into(),
        first: 0,
        entries: vec![umpire_core::Entry::new(Seat::P1, "bid 3", 5)],
        finished: None,
    };
    s.store.write(other).await.expect("written");
    switch(&s, &[Fault::Reads], false);
    let error = next(&mut p1).await.expect("an answer");
    assert_eq!(error["rule"], "server", "{error}");
    assert_eq!(next(&mut p1).await, None, "the client is disconnected");
    tokio::time::timeout(WAIT, s.handle.tx.closed())
        .await
        .expect("the task ends");
    assert!(s.registry.lock().unwrap().is_empty(), "no longer findable");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_wait_a_moment_while_the_store_fails() {
    // A thousand match milliseconds per real one: the bids run out at once.
    let s = setup_with(Config {
        speed: 1000,
        ..Config::default()
    })
    .await;
    switch(&s, &[Fault::Writes], true);
    let mut p1 = join_p1(&s.handle).await;
    // Clocks run once both seats are here.
    let _p2 = admit(&s.handle, Seat::P2, 2).await;
    let arrived = next(&mut p1).await.expect("P2 arrives");
    assert_eq!(arrived["seats"]["P2"]["connected"], true, "{arrived}");
    tokio::time::sleep(Duration::from_millis(600)).await;
    let failed = s.store.faults().failed_writes.load(Ordering::SeqCst);
    assert!((1..=2).contains(&failed), "{failed} writes tried");
    let (record, _) = s.handle.record().await.expect("the match runs");
    assert!(record.actions.is_empty(), "{record:?}");
    // The store is back: the timeouts are applied, said in the log first.
    switch(&s, &[Fault::Writes], false);
    let logged = next(&mut p1).await.expect("the log's line");
    assert_eq!(logged["lines"][0]["text"], "round 1 is over", "{logged}");
    let state = next(&mut p1).await.expect("a state");
    assert_eq!(state["view"]["round"], 1, "{state}");
}

/// The tests read what a client is sent from a channel.
/// (The channel closes when the match drops the client's sender.)
impl crate::outbox::Deliver for mpsc::Sender<Outgoing> {
    fn send(&self, out: Outgoing) -> bool {
        self.try_send(out).is_ok()
    }

    fn close(&self) {}
}

//! One live match: a task that owns the [`Match`] and is the only code that
//! changes it. Commands arrive on a channel, so matches never wait for each
//! other; a timer wakes the task at the next clock deadline, so timeouts act
//! by themselves; bots think on blocking threads and send their move back.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::time::sleep_until;
use umpire_bots::Bot;
use umpire_core::{
    AnyGame, AnyState, Entry, Match, MatchRng, PerSeat, Record, Seat, SeatView, TIMEOUT, Viewer,
    seeded_rng,
};

use crate::Config;
use crate::messages;
use crate::store::{Op, SeatKind, Store, Tokens};
use crate::tokens;

/// A client's outgoing queue, in messages. A client that lets it fill up is
/// too slow and is disconnected rather than allowed to hold anything up.
pub const OUT_QUEUE: usize = 64;
/// Clients watching one match, at most.
const MAX_WATCHERS: usize = 1000;
/// A finished match nobody watches leaves memory after this long.
const IDLE: Duration = Duration::from_secs(10);
/// Observations a bot keeps queued while it is not asked to move.
const MAX_PENDING: usize = 256;

/// What does not change during a match.
pub struct Info {
    pub id: String,
    pub game: &'static dyn AnyGame,
    pub tokens: Tokens,
    pub takeover: bool,
    pub created_ms: u64,
}

impl Info {
    /// Who holds `token`: no token is a spectator; a wrong token is nobody.
    pub fn viewer(&self, token: Option<&str>) -> Option<Viewer> {
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            return Some(Viewer::Spectator);
        };
        // Check every secret, so the time taken says nothing about which matched.
        let mut found = None;
        for seat in Seat::BOTH {
            if tokens::same(token, &self.tokens.seats[seat]) {
                found = Some(Viewer::Seat(seat));
            }
        }
        if tokens::same(token, &self.tokens.umpire) {
            found = Some(Viewer::Umpire);
        }
        found
    }
}

/// A way to talk to a live match.
#[derive(Clone)]
pub struct Handle {
    pub tx: mpsc::Sender<Cmd>,
    pub info: Arc<Info>,
    /// The lobby's summary, kept current by the match's task.
    pub summary: Arc<Mutex<Value>>,
}

impl Handle {
    /// The `state` message `viewer` would receive now.
    pub async fn snapshot(&self, viewer: Viewer) -> Option<Value> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Snapshot { viewer, reply }).await.ok()?;
        answer.await.ok()
    }

    /// The record so far, and whether the match is over.
    pub async fn record(&self) -> Option<(Record, bool)> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Record { reply }).await.ok()?;
        answer.await.ok()
    }
}

pub enum Cmd {
    /// A client connects; its messages go to `tx`. `reply` says whether it
    /// was let in.
    Join {
        viewer: Viewer,
        conn: u64,
        tx: mpsc::Sender<Utf8Bytes>,
        reply: oneshot::Sender<bool>,
    },
    Leave {
        conn: u64,
    },
    /// A seat's action in notation (or `resign`).
    Act {
        conn: u64,
        seat: Seat,
        text: String,
    },
    /// `seat` hands its absent opponent to a bot.
    Takeover {
        conn: u64,
        seat: Seat,
    },
    Snapshot {
        viewer: Viewer,
        reply: oneshot::Sender<Value>,
    },
    Record {
        reply: oneshot::Sender<(Record, bool)>,
    },
    /// A bot's answer for the need that started at `tag`.
    BotDone {
        seat: Seat,
        tag: usize,
        bot: Box<dyn Bot>,
        rng: Box<MatchRng>,
        action: Option<String>,
    },
}

/// Where an action comes from.
#[derive(Clone, Copy)]
enum Source {
    Client(u64),
    Bot,
    /// A random legal action played for a bot.
    Fallback,
}

/// The live matches by id, shared with the hub.
pub type Registry = Arc<Mutex<HashMap<String, Handle>>>;

struct Watcher {
    conn: u64,
    viewer: Viewer,
    tx: mpsc::Sender<Utf8Bytes>,
}

struct SeatSlot {
    kind: SeatKind,
    connected: usize,
    /// Whether a person ever sat here (for the lobby's "open" list).
    ever: bool,
    away_since: Instant,
    bot: Option<BotSlot>,
}

struct BotSlot {
    /// `None` while the bot is thinking on a blocking thread.
    bot: Option<Box<dyn Bot>>,
    rng: Option<Box<MatchRng>>,
    /// States to show the bot before it next chooses.
    pending: Vec<Box<dyn AnyState>>,
    /// The seat must act since the record had this many entries; by when.
    want: Option<(usize, Instant)>,
    /// The need the bot is thinking about now.
    job: Option<usize>,
}

/// Everything needed to start a match's task.
pub struct Start {
    pub info: Arc<Info>,
    pub m: Match,
    pub seats: PerSeat<SeatKind>,
    pub store: Store,
    pub config: Arc<Config>,
    pub registry: Registry,
}

struct Actor {
    info: Arc<Info>,
    m: Match,
    seats: PerSeat<SeatSlot>,
    watchers: Vec<Watcher>,
    store: Store,
    config: Arc<Config>,
    registry: Registry,
    summary: Arc<Mutex<Value>>,
    me: mpsc::WeakSender<Cmd>,
    /// Match time is `base_ms` plus the time since `base`: after a restart it
    /// resumes at the last recorded action, so clocks stand still while the
    /// server is down.
    base_ms: u64,
    base: Instant,
    rng: MatchRng,
    idle_since: Instant,
    removed: bool,
}

/// Starts a match's task and returns its handle (not yet registered).
pub fn spawn(start: Start) -> Handle {
    let (tx, rx) = mpsc::channel(256);
    let summary = Arc::new(Mutex::new(Value::Null));
    let now = Instant::now();
    let actions = &start.m.record().actions;
    let seats = PerSeat::from_fn(|seat| SeatSlot {
        kind: start.seats[seat].clone(),
        connected: 0,
        ever: actions
            .iter()
            .any(|e| e.seat == seat && e.action != TIMEOUT),
        away_since: now,
        bot: None,
    });
    let mut actor = Actor {
        info: start.info.clone(),
        base_ms: start.m.now(),
        m: start.m,
        seats,
        watchers: Vec::new(),
        store: start.store,
        config: start.config,
        registry: start.registry,
        summary: summary.clone(),
        me: tx.downgrade(),
        base: now,
        rng: seeded_rng(rand::random()),
        idle_since: now,
        removed: false,
    };
    for seat in Seat::BOTH {
        if let SeatKind::Bot { bot } = &actor.seats[seat].kind {
            let bot = bot.clone();
            actor.seat_bot(seat, &bot);
        }
    }
    actor.update_summary();
    tokio::spawn(actor.run(rx));
    Handle {
        tx,
        info: start.info,
        summary,
    }
}

impl Actor {
    fn now(&self) -> u64 {
        self.base_ms + self.base.elapsed().as_millis() as u64 * self.config.speed.max(1)
    }

    /// The instant when match time reaches `match_ms`.
    fn at(&self, match_ms: u64) -> Instant {
        let ahead = match_ms.saturating_sub(self.base_ms);
        self.base + Duration::from_millis(ahead.div_ceil(self.config.speed.max(1)))
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.schedule_bots();
        loop {
            let wake = self.next_wake();
            let cmd = tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => Some(cmd),
                    None => break,
                },
                _ = sleep_until(wake.unwrap_or_else(Instant::now).into()), if wake.is_some() => None,
            };
            match cmd {
                Some(cmd) => self.handle(cmd).await,
                None => self.on_timer().await,
            }
            if !self.watchers.is_empty() || !self.m.is_over() {
                self.idle_since = Instant::now();
            }
        }
    }

    /// The earliest of: the next clock deadline, a bot's time budget, and
    /// (for a finished match nobody watches) leaving memory.
    fn next_wake(&self) -> Option<Instant> {
        let mut wake: Option<Instant> = None;
        let mut at = |t: Instant| wake = Some(wake.map_or(t, |w| w.min(t)));
        if let Some(deadline) = self.m.next_deadline() {
            // The engine flags a seat once `now` is past its deadline.
            at(self.at(deadline + 1));
        }
        for slot in [&self.seats.p1, &self.seats.p2] {
            if let Some(BotSlot {
                want: Some((tag, by)),
                job: Some(job),
                ..
            }) = &slot.bot
            {
                if tag == job {
                    at(*by);
                }
            }
        }
        if self.m.is_over() && !self.removed {
            at(self.idle_since + IDLE);
        }
        wake
    }

    async fn on_timer(&mut self) {
        let now = self.now();
        let timeouts = self.m.advance(now);
        if !timeouts.is_empty() {
            self.commit(timeouts, None).await;
        }
        // Bots over their budget play a random legal action instead.
        for seat in Seat::BOTH {
            let late = self.seats[seat].bot.as_ref().is_some_and(|b| {
                matches!((b.want, b.job), (Some((tag, by)), Some(job)) if tag == job && by <= Instant::now())
            });
            if late {
                tracing::debug!(id = %self.info.id, %seat, "bot over its time budget");
                self.fallback(seat).await;
            }
        }
        if self.m.is_over()
            && self.watchers.is_empty()
            && !self.removed
            && self.idle_since.elapsed() >= IDLE
        {
            self.leave_registry();
        }
    }

    /// Stops being findable; the task ends once the last handle is dropped.
    fn leave_registry(&mut self) {
        let mut live = self.registry.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(me) = self.me.upgrade() {
            if live
                .get(&self.info.id)
                .is_some_and(|h| h.tx.same_channel(&me))
            {
                live.remove(&self.info.id);
            }
        }
        self.removed = true;
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join {
                viewer,
                conn,
                tx,
                reply,
            } => {
                let _ = reply.send(self.join(viewer, conn, tx));
            }
            Cmd::Leave { conn } => self.leave(conn),
            // A seat handed to a bot is the bot's for good.
            Cmd::Act { conn, seat, .. } | Cmd::Takeover { conn, seat }
                if self.seats[seat].bot.is_some() =>
            {
                let why = format!("{seat} is played by a bot now");
                self.send_to(conn, messages::error("forbidden", &why));
            }
            Cmd::Act { conn, seat, text } => self.act(seat, &text, Source::Client(conn)).await,
            Cmd::Takeover { conn, seat } => self.takeover(seat, conn).await,
            Cmd::Snapshot { viewer, reply } => {
                let _ = reply.send(self.state_for(viewer));
            }
            Cmd::Record { reply } => {
                let _ = reply.send((self.m.record().clone(), self.m.is_over()));
            }
            Cmd::BotDone {
                seat,
                tag,
                bot,
                rng,
                action,
            } => self.bot_done(seat, tag, bot, rng, action).await,
        }
    }

    fn seats_json(&self) -> Value {
        self.seats_table(true)
    }

    /// Who plays each seat; `away` adds how long an absent person has been away.
    fn seats_table(&self, away: bool) -> Value {
        let seat = |s: &SeatSlot| match &s.kind {
            SeatKind::Person if s.connected > 0 => json!({"kind": "person", "connected": true}),
            SeatKind::Person if away => json!({"kind": "person", "connected": false,
                "away_ms": s.away_since.elapsed().as_millis() as u64}),
            SeatKind::Person => json!({"kind": "person", "connected": false}),
            SeatKind::Bot { bot } => json!({"kind": "bot", "bot": bot}),
        };
        json!({"P1": seat(&self.seats.p1), "P2": seat(&self.seats.p2)})
    }

    fn state_for(&self, viewer: Viewer) -> Value {
        messages::state(&self.m, viewer, &self.seats_json(), self.now())
    }

    fn join(&mut self, viewer: Viewer, conn: u64, tx: mpsc::Sender<Utf8Bytes>) -> bool {
        if self.watchers.len() >= MAX_WATCHERS {
            return false;
        }
        let takeover = json!({"allowed": self.info.takeover, "grace_ms": self.config.grace_ms});
        let hello = messages::hello(
            viewer,
            self.info.game.id(),
            self.info.game.name(),
            &self.info.id,
            takeover,
        );
        let _ = tx.try_send(hello.into());
        self.watchers.push(Watcher { conn, viewer, tx });
        if let Some(seat) = viewer.seat() {
            let slot = &mut self.seats[seat];
            slot.connected += 1;
            slot.ever = true;
            if slot.connected == 1 {
                // Everyone sees the seat come back; that includes the newcomer.
                self.update_summary();
                self.broadcast();
                return true;
            }
        }
        let state = messages::state_text(&self.m, viewer, &self.seats_json(), self.now());
        self.send_to(conn, state);
        true
    }

    fn leave(&mut self, conn: u64) {
        let Some(i) = self.watchers.iter().position(|w| w.conn == conn) else {
            return;
        };
        let w = self.watchers.swap_remove(i);
        self.left(w.viewer);
    }

    fn left(&mut self, viewer: Viewer) {
        if let Some(seat) = viewer.seat() {
            let slot = &mut self.seats[seat];
            slot.connected = slot.connected.saturating_sub(1);
            if slot.connected == 0 {
                slot.away_since = Instant::now();
                self.update_summary();
                self.broadcast();
            }
        }
    }

    fn send_to(&mut self, conn: u64, text: String) {
        if let Some(w) = self.watchers.iter().find(|w| w.conn == conn) {
            if w.tx.try_send(text.into()).is_err() {
                self.drop_watchers(vec![conn]);
            }
        }
    }

    /// Sends every watcher its own `state`, built once per kind of viewer.
    fn broadcast(&mut self) {
        let mut built: HashMap<Viewer, Utf8Bytes> = HashMap::new();
        let seats = self.seats_json();
        let now = self.now();
        let mut slow = Vec::new();
        for w in &self.watchers {
            let text = built
                .entry(w.viewer)
                .or_insert_with(|| messages::state_text(&self.m, w.viewer, &seats, now).into())
                .clone();
            if w.tx.try_send(text).is_err() {
                slow.push(w.conn);
            }
        }
        self.drop_watchers(slow);
    }

    /// Disconnects clients that cannot keep up (their socket closes when
    /// their queue's sender is dropped).
    fn drop_watchers(&mut self, conns: Vec<u64>) {
        for conn in conns {
            if let Some(i) = self.watchers.iter().position(|w| w.conn == conn) {
                let w = self.watchers.swap_remove(i);
                tracing::debug!(id = %self.info.id, conn, "client too slow; disconnected");
                self.left(w.viewer);
            }
        }
    }

    /// A seat's action: applied by the engine, stored, then announced.
    async fn act(&mut self, seat: Seat, text: &str, from: Source) {
        let now = self.now();
        let mut entries = self.m.advance(now);
        if !entries.is_empty() {
            self.show_bots();
        }
        match self.m.submit(seat, text, now) {
            Ok(played) => {
                let canonical = played.action.clone();
                entries.push(played);
                self.commit(entries, Some((seat, canonical))).await;
            }
            Err(e) => {
                if !entries.is_empty() {
                    self.commit(entries, None).await;
                }
                match from {
                    Source::Client(conn) => {
                        self.send_to(conn, messages::error(&e.rule, &e.message))
                    }
                    // A bot that named an illegal action plays a random one.
                    Source::Bot if self.m.decision().seats.contains(seat) => {
                        Box::pin(self.fallback(seat)).await
                    }
                    Source::Bot | Source::Fallback => {
                        tracing::warn!(id = %self.info.id, %seat, rule = %e.rule, "bot action refused");
                    }
                }
            }
        }
    }

    /// Makes `entries` (already applied) durable, then tells everyone. If the
    /// store fails, the match goes back to its last durable state.
    async fn commit(&mut self, entries: Vec<Entry>, accepted: Option<(Seat, String)>) {
        let seq = self.m.record().actions.len();
        let first = seq - entries.len();
        let finished = self
            .m
            .outcome()
            .filter(|_| self.m.is_over())
            .map(|o| (o, wall_ms()));
        let op = Op::Append {
            id: self.info.id.clone(),
            first,
            entries: entries.clone(),
            finished: finished.clone(),
        };
        if let Err(e) = self.store.write(op).await {
            tracing::error!(id = %self.info.id, "{e}; the match goes back to its last stored state");
            let mut durable = self.m.record().clone();
            durable.actions.truncate(first);
            durable.outcome = None;
            if let Ok(m) = Match::replay(self.info.game, &durable) {
                self.m = m;
            }
            if let Some((seat, _)) = accepted {
                let text = messages::error("store", "the action could not be stored; try again");
                self.send_to_seat(seat, text);
            }
            return;
        }
        if let Some((seat, action)) = accepted {
            self.send_to_seat(seat, messages::accepted(&action, seq));
        }
        if let Some((outcome, _)) = &finished {
            tracing::info!(id = %self.info.id, game = self.info.game.id(), moves = seq,
                decided_by = %outcome.decided_by, "match finished");
        }
        self.broadcast();
        self.update_summary();
        self.show_bots();
        for e in &entries {
            if let Some(bot) = &mut self.seats[e.seat].bot {
                bot.want = None;
            }
        }
        self.schedule_bots();
    }

    fn send_to_seat(&mut self, seat: Seat, text: String) {
        let conns: Vec<u64> = self
            .watchers
            .iter()
            .filter(|w| w.viewer == Viewer::Seat(seat))
            .map(|w| w.conn)
            .collect();
        for conn in conns {
            self.send_to(conn, text.clone());
        }
    }

    fn update_summary(&self) {
        let over = self.m.is_over();
        let open = !over
            && Seat::BOTH
                .iter()
                .any(|&s| self.seats[s].kind == SeatKind::Person && !self.seats[s].ever);
        let summary = json!({
            "id": self.info.id,
            "game": self.info.game.id(),
            "name": self.info.game.name(),
            "created_ms": self.info.created_ms,
            "seats": self.seats_table(false),
            "moves": self.m.record().actions.len(),
            "outcome": self.m.outcome(),
            "status": if over { "finished" } else if open { "open" } else { "live" },
        });
        *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = summary;
    }

    /// Puts a bot in `seat`.
    fn seat_bot(&mut self, seat: Seat, name: &str) {
        // A bot stored under a name this build no longer has plays randomly.
        let bot = umpire_bots::make(self.info.game.id(), name)
            .or_else(|_| umpire_bots::make(self.info.game.id(), "random"));
        if let Ok(bot) = bot {
            self.seats[seat].bot = Some(BotSlot {
                bot: Some(bot),
                rng: Some(Box::new(seeded_rng(rand::random()))),
                pending: vec![self.m.state().clone_box()],
                want: None,
                job: None,
            });
        }
    }

    /// Queues the current state for every bot to observe.
    fn show_bots(&mut self) {
        if self.m.is_over() {
            return;
        }
        for seat in Seat::BOTH {
            if let Some(bot) = &mut self.seats[seat].bot {
                if bot.pending.len() >= MAX_PENDING {
                    bot.pending.remove(0);
                }
                bot.pending.push(self.m.state().clone_box());
            }
        }
    }

    /// Starts each bot that must act and is not yet thinking.
    fn schedule_bots(&mut self) {
        let decision = self.m.decision();
        let seq = self.m.record().actions.len();
        // Two bots wait a moment before each move, so people can watch them.
        let both_bots = Seat::BOTH.iter().all(|&s| self.seats[s].bot.is_some());
        let pace = Duration::from_millis(if both_bots {
            self.config.bot_pace_ms
        } else {
            0
        });
        let budget = pace + Duration::from_millis(self.config.bot_budget_ms);
        for seat in Seat::BOTH {
            let state = self.m.state().clone_box();
            let Some(slot) = &mut self.seats[seat].bot else {
                continue;
            };
            if !decision.seats.contains(seat) {
                slot.want = None;
                continue;
            }
            let (tag, _) = *slot.want.get_or_insert((seq, Instant::now() + budget));
            if slot.job.is_some() {
                continue;
            }
            let (Some(mut bot), Some(mut rng)) = (slot.bot.take(), slot.rng.take()) else {
                continue;
            };
            let Some(me) = self.me.upgrade() else {
                continue;
            };
            slot.job = Some(tag);
            let pending = std::mem::take(&mut slot.pending);
            let think = move || {
                // A bot that panics loses only its move: a random one is played.
                let choice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    for s in &pending {
                        bot.observe(SeatView::new(&**s, seat));
                    }
                    bot.choose(SeatView::new(&*state, seat), &mut rng)
                }));
                Cmd::BotDone {
                    seat,
                    tag,
                    bot,
                    rng,
                    action: choice.ok().flatten(),
                }
            };
            tokio::spawn(async move {
                if !pace.is_zero() {
                    tokio::time::sleep(pace).await;
                }
                // Off the async threads: a slow bot never blocks I/O.
                if let Ok(done) = tokio::task::spawn_blocking(think).await {
                    let _ = me.send(done).await;
                }
            });
        }
    }

    async fn bot_done(
        &mut self,
        seat: Seat,
        tag: usize,
        bot: Box<dyn Bot>,
        rng: Box<MatchRng>,
        action: Option<String>,
    ) {
        let Some(slot) = &mut self.seats[seat].bot else {
            return;
        };
        slot.bot = Some(bot);
        slot.rng = Some(rng);
        slot.job = None;
        let current = slot.want.is_some_and(|(t, _)| t == tag);
        if !current {
            // A late answer to an old question: ask again if needed.
            self.schedule_bots();
            return;
        }
        match action {
            Some(action) => self.act(seat, &action, Source::Bot).await,
            None => self.fallback(seat).await,
        }
    }

    /// Plays a random legal action for a bot seat.
    async fn fallback(&mut self, seat: Seat) {
        if let Some(slot) = &mut self.seats[seat].bot {
            slot.want = None;
        }
        let action = SeatView::new(self.m.state(), seat).sample_action(&mut self.rng);
        if let Some(action) = action {
            // A random legal action cannot be refused, so this cannot loop.
            Box::pin(self.act(seat, &action, Source::Fallback)).await;
        }
    }

    /// `seat` hands its opponent, absent past the grace period, to a bot.
    async fn takeover(&mut self, seat: Seat, conn: u64) {
        let other = seat.other();
        let slot = &self.seats[other];
        let grace = Duration::from_millis(self.config.grace_ms);
        let refusal = if !self.info.takeover {
            Some("this match does not allow handing a seat to a bot".to_string())
        } else if self.m.is_over() {
            Some("the game is over".to_string())
        } else if slot.kind != SeatKind::Person {
            Some(format!("{other} is already played by a bot"))
        } else if slot.connected > 0 {
            Some(format!("{other} is connected"))
        } else if slot.away_since.elapsed() < grace {
            let left = grace - slot.away_since.elapsed();
            Some(format!(
                "{other} has been away less than the grace period; try again in {} s",
                left.as_secs() + 1
            ))
        } else {
            None
        };
        if let Some(why) = refusal {
            self.send_to(conn, messages::error("takeover", &why));
            return;
        }
        let name = ["hard", "medium", "easy"]
            .into_iter()
            .find(|level| umpire_bots::make(self.info.game.id(), level).is_ok())
            .unwrap_or("random");
        let mut seats = PerSeat::from_fn(|s| self.seats[s].kind.clone());
        seats[other] = SeatKind::Bot {
            bot: name.to_string(),
        };
        let op = Op::Seats {
            id: self.info.id.clone(),
            seats,
        };
        if let Err(e) = self.store.write(op).await {
            tracing::error!(id = %self.info.id, "{e}");
            self.send_to(
                conn,
                messages::error("store", "the takeover could not be stored"),
            );
            return;
        }
        tracing::info!(id = %self.info.id, seat = %other, bot = name, "seat handed to a bot");
        self.seats[other].kind = SeatKind::Bot {
            bot: name.to_string(),
        };
        self.seat_bot(other, name);
        self.update_summary();
        self.broadcast();
        self.schedule_bots();
    }
}

/// Wall time in ms since the Unix epoch.
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

//! The match's task: its state, its loop (commands and timers) and what
//! each command does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::sleep_until;
use umpire_core::{
    ActionError, By, Entry, Match, MatchRng, PerSeat, Seat, TIMEOUT, Viewer, seeded_rng,
};

use super::handle::{Cmd, Handle, Registry, Start};
use super::info::Info;
use super::parts::{Rematch, SeatSlot, Watcher};
use crate::config::Config;
use crate::pool::Priority;
use crate::shown::Shown;
use crate::store::{Op, SeatKind, Store, StoreError};
use crate::wall::wall_ms;
use crate::{messages, wording};

/// A finished match nobody watches leaves memory after this long.
const IDLE: Duration = Duration::from_secs(10);
/// After the store failed, timeouts are tried again this much later.
const STORE_RETRY: Duration = Duration::from_secs(1);

/// Where an action comes from.
#[derive(Clone, Copy)]
pub(super) enum Source {
    Client(u64),
    /// The umpire's connection: the host entered the seat's action, or
    /// ruled on it.
    Host(u64, By),
    Bot,
    /// A random legal action played for a bot.
    Fallback,
}

impl Source {
    /// The connection that sent the action, if a client did.
    fn conn(self) -> Option<u64> {
        match self {
            Source::Client(conn) | Source::Host(conn, _) => Some(conn),
            Source::Bot | Source::Fallback => None,
        }
    }
}

/// The task that owns one match.
pub(super) struct Actor {
    pub(super) info: Arc<Info>,
    pub(super) m: Match,
    /// What each kind of viewer has been shown of the durable match.
    pub(super) shown: Shown,
    pub(super) seats: PerSeat<SeatSlot>,
    pub(super) watchers: Vec<Watcher>,
    pub(super) store: Store,
    pub(super) config: Arc<Config>,
    pub(super) registry: Registry,
    /// Where this match's bots think.
    pub(super) bots: crate::pool::Pool,
    /// Where its costly actions are judged.
    judges: crate::pool::Pool,
    /// Where its checks are judged.
    pub(super) checks: crate::pool::Pool,
    /// Each seat's check being judged, if any: one at a time.
    checking: PerSeat<Arc<AtomicBool>>,
    pub(super) summary: Arc<Mutex<Value>>,
    pub(super) me: mpsc::WeakSender<Cmd>,
    /// Match time is `base_ms` plus the time since `base`: after a restart it
    /// resumes at the last recorded action, so clocks stand still while the
    /// server is down.
    base_ms: u64,
    base: Instant,
    /// Whether play could start: both seats were here (a bot always is) or
    /// someone acted. Until then match time stands still, so no clock runs.
    playing: bool,
    pub(super) rng: MatchRng,
    idle_since: Instant,
    /// Wall time of the latest action, or of the task's start.
    moved_ms: u64,
    removed: bool,
    /// The match could not be brought back to its stored state: the task ends.
    pub(super) stopped: bool,
    /// When a write last failed, if the last one did.
    pub(super) store_failed: Option<Instant>,
    /// After a failed write, the entries written but not acknowledged
    /// until the store is read again ([`Actor::resync`]): meanwhile
    /// nothing is played.
    pub(super) out_of_step: Option<Vec<umpire_core::Entry>>,
    /// Who asked for a rematch, and the rematch once made.
    pub(super) rematch: Rematch,
    /// The chat.
    pub(super) talk: super::parts::Talk,
    /// The match log.
    pub(super) journal: super::parts::Journal,
}

/// Starts a match's task and returns its handle (not yet registered).
pub fn spawn(start: Start) -> Handle {
    let (tx, rx) = mpsc::channel(256);
    let summary = Arc::new(Mutex::new(Value::Null));
    let now = Instant::now();
    let actions = &start.m.record().actions;
    let seats = PerSeat::from_fn(|seat| {
        let ever = actions
            .iter()
            .any(|e| e.seat == seat && e.action != TIMEOUT);
        SeatSlot::new(start.seats[seat].clone(), ever, now)
    });
    let actions_seen = !actions.is_empty();
    let mut actor = Actor {
        info: start.info.clone(),
        base_ms: start.m.now(),
        m: start.m,
        shown: start.shown,
        seats,
        watchers: Vec::new(),
        store: start.store,
        config: start.config,
        registry: start.registry,
        bots: start.bots,
        judges: start.judges,
        checks: start.checks,
        checking: PerSeat::default(),
        summary: summary.clone(),
        me: tx.downgrade(),
        base: now,
        playing: actions_seen,
        rng: seeded_rng(rand::random()),
        idle_since: now,
        moved_ms: wall_ms(),
        removed: false,
        stopped: false,
        store_failed: None,
        out_of_step: None,
        rematch: Rematch::new(start.info.tokens.rematch.clone()),
        talk: super::parts::Talk::new(start.chat),
        journal: Default::default(),
    };
    for seat in Seat::BOTH {
        if let SeatKind::Bot { bot } = &actor.seats[seat].kind {
            let bot = bot.clone();
            actor.seat_bot(seat, &bot);
        }
    }
    actor.start_if_ready();
    actor.update_summary();
    tokio::spawn(actor.run(rx));
    Handle {
        tx,
        info: start.info,
        summary,
    }
}

impl Actor {
    /// Match time now; it stands still until play can start.
    pub(super) fn now(&self) -> u64 {
        if !self.playing {
            return self.base_ms;
        }
        self.base_ms + self.base.elapsed().as_millis() as u64 * self.config.speed.max(1)
    }

    /// Whether play could start (the clocks run).
    pub(super) fn is_playing(&self) -> bool {
        self.playing
    }

    /// Match time for the clocks shown; `None` until play can start.
    pub(super) fn clock_now(&self) -> Option<u64> {
        self.playing.then(|| self.now())
    }

    /// Whether play can start: each seat is a bot or has a connection, or,
    /// in a host's match, the host's console is here (it acts for both).
    fn seats_ready(&self) -> bool {
        let host_here = self.m.hosted() && self.watchers.iter().any(|w| w.viewer == Viewer::Umpire);
        host_here || Seat::BOTH.iter().all(|&s| self.seats[s].is_here())
    }

    /// Starts match time once both seats are here.
    pub(super) fn start_if_ready(&mut self) {
        if !self.playing && self.seats_ready() {
            self.start_play();
        }
    }

    /// Match time runs from now on: the clocks start.
    fn start_play(&mut self) {
        if self.playing {
            return;
        }
        self.base_ms = self.m.now();
        self.base = Instant::now();
        self.playing = true;
        tracing::debug!(id = %self.info.id, "play starts: the clocks run");
        self.schedule_bots();
    }

    /// Match time at `at` (an action's arrival), which may be before the
    /// task got to it; it stands still until play can start.
    fn time_at(&self, at: Instant) -> u64 {
        if !self.playing {
            return self.base_ms;
        }
        let since = at.saturating_duration_since(self.base).as_millis() as u64;
        self.base_ms + since * self.config.speed.max(1)
    }

    /// The instant when match time reaches `match_ms`.
    pub(super) fn at(&self, match_ms: u64) -> Instant {
        let ahead = match_ms.saturating_sub(self.base_ms);
        self.base + Duration::from_millis(ahead.div_ceil(self.config.speed.max(1)))
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.schedule_bots();
        loop {
            let wake = self.next_wake();
            let cmd = tokio::select! {
                // What already arrived comes before a timer: an action sent
                // in time is not timed out while it waits in the queue.
                biased;
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
            if self.stopped {
                break;
            }
            if !self.watchers.is_empty() || !self.m.is_over() {
                self.idle_since = Instant::now();
            }
        }
    }

    /// The earliest of: the next clock deadline, a bot's time budget, and
    /// (for a finished match nobody watches) leaving memory.
    fn next_wake(&self) -> Option<Instant> {
        // The engine flags a seat once `now` is past its deadline; after a
        // failed write, timeouts wait a moment rather than hammer the store.
        let deadline = self.m.next_deadline().filter(|_| self.playing).map(|d| {
            let due = self.at(d.saturating_add(1));
            self.store_failed
                .map_or(due, |at| due.max(at + STORE_RETRY))
        });
        let idle = (self.m.is_over() && !self.removed).then(|| self.idle_since + IDLE);
        let abandon = self.abandon_at().map(|(at_ms, _)| {
            let due = Instant::now() + Duration::from_millis(at_ms.saturating_sub(wall_ms()));
            self.store_failed
                .map_or(due, |at| due.max(at + STORE_RETRY))
        });
        // Out of step with the store: try it again in a moment.
        let resync = self
            .out_of_step
            .as_ref()
            .and(self.store_failed)
            .map(|at| at + STORE_RETRY);
        [deadline, self.bot_deadline(), idle, abandon, resync]
            .into_iter()
            .flatten()
            .min()
    }

    /// When (wall time) the match is called off, and why: nobody acted
    /// since it was created while its seats never both arrived, or while
    /// it is untimed (`Config::abandon_ms`); or it is untimed and nobody
    /// moved since the last move (`Config::untimed_idle_ms`); 0 for never.
    fn abandon_at(&self) -> Option<(u64, String)> {
        if self.m.is_over() || self.removed {
            return None;
        }
        // Nobody acted: its seats never both arrived, or (untimed, so no
        // clock will end it) they came and nobody moved.
        let untimed = !self.m.record().timed;
        let waiting = self.m.record().actions.is_empty() && (!self.playing || untimed);
        if waiting && self.config.abandon_ms > 0 {
            let at = self.info.created_ms.saturating_add(self.config.abandon_ms);
            return Some((at, wording::abandoned_words(&self.config)));
        }
        (untimed && self.config.untimed_idle_ms > 0).then(|| {
            let at = self.moved_ms.saturating_add(self.config.untimed_idle_ms);
            (at, wording::idle_words(&self.config))
        })
    }

    /// Calls the match off: nobody loses; it leaves the store's unfinished
    /// matches and the lobby, and its watchers are told why.
    async fn abandon(&mut self, words: String) {
        let op = Op::Abandon {
            id: self.info.id.clone(),
            at_ms: wall_ms(),
            reason: words.clone(),
        };
        if let Err(e) = self.store.write(op).await {
            if let StoreError::Moved(_) = e {
                return self.moved();
            }
            tracing::error!(id = %self.info.id, "{e}; calling the match off is tried again");
            self.store_failed = Some(Instant::now());
            return;
        }
        tracing::info!(id = %self.info.id, "{words}");
        // Unfindable first: a client told it is gone must not find it.
        self.leave_registry();
        for w in std::mem::take(&mut self.watchers) {
            // Dropping the queue closes the socket after this message.
            w.send(messages::error("gone", &words));
        }
        self.stopped = true;
    }

    async fn on_timer(&mut self) {
        if self.out_of_step.is_some() {
            self.resync().await;
            if self.out_of_step.is_some() || self.stopped {
                return;
            }
        }
        if let Some((at, words)) = self.abandon_at() {
            if wall_ms() >= at {
                return self.abandon(words).await;
            }
        }
        self.expire(self.now()).await;
        self.fallback_late_bots().await;
        if self.m.is_over()
            && self.watchers.is_empty()
            && !self.removed
            && self.idle_since.elapsed() >= IDLE
        {
            self.leave_registry();
        }
    }

    /// Another node runs the match now (it took it over: this node's
    /// writes are refused): the clients reconnect, to find it there.
    pub(super) fn moved(&mut self) {
        tracing::info!(id = %self.info.id, "the match moved to another node");
        self.let_go("the match moved to another node: reconnecting");
    }

    /// Ends this node's run of the match, telling its clients `why`; they
    /// reconnect and find the node that runs it next.
    fn let_go(&mut self, why: &str) {
        // Unfindable first: a client told to reconnect must not find this
        // task again.
        self.leave_registry();
        for w in std::mem::take(&mut self.watchers) {
            // Dropping it closes the socket after this message.
            w.send(messages::error("moved", why));
        }
        for seat in Seat::BOTH {
            self.stop_bot(seat);
        }
        self.stopped = true;
    }

    /// Stops being findable; the task ends once the last handle is dropped.
    pub(super) fn leave_registry(&mut self) {
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
            Cmd::Act {
                conn,
                seat,
                text,
                at,
                by: None,
            } => self.act(seat, &text, Source::Client(conn), at).await,
            Cmd::Act {
                conn,
                seat,
                text,
                at,
                by: Some(by),
            } => self.host_act(seat, &text, conn, by, at).await,
            Cmd::Ask { conn, seat, text } => self.ask(conn, seat, text),
            Cmd::Words { viewers, reply } => {
                let _ = reply.send(self.words(&viewers));
            }
            Cmd::Check {
                conn,
                seat,
                text,
                id,
            } => self.check(conn, seat, text, id),
            Cmd::Takeover { conn, seat } => self.takeover(seat, conn).await,
            Cmd::Chat { conn, viewer, text } => self.chat(conn, viewer, &text).await,
            Cmd::Rematch { conn, seat, reply } => {
                let _ = reply.send(self.ask_rematch(seat, conn));
            }
            Cmd::Rematched { result } => self.rematched(result).await,
            Cmd::Snapshot { viewer, reply } => {
                if self.follow(viewer) {
                    let _ = reply.send(self.state_for(viewer));
                }
            }
            Cmd::Record { reply } => {
                let _ = reply.send((self.m.record().clone(), self.m.is_over()));
            }
            Cmd::Moved => self.moved(),
            Cmd::HandOver => self.let_go(
                "this match moves to another node (this one is shutting down): reconnecting",
            ),
            Cmd::BotDone {
                seat,
                tag,
                bot,
                rng,
                action,
            } => self.bot_done(seat, tag, bot, rng, action).await,
        }
    }

    /// Counts what `viewer`'s kind is shown from now on (the umpire's
    /// count is kept only once someone asks for it). False if that count
    /// cannot be taken from the record: the match stops.
    pub(super) fn follow(&mut self, viewer: Viewer) -> bool {
        let record = self.m.record();
        match self.shown.follow(viewer, self.info.game, record) {
            Ok(()) => true,
            Err(e) => {
                self.stop(&format!(
                    "what the {viewer} was shown cannot be counted: {e}"
                ));
                false
            }
        }
    }

    /// The `state` message `viewer` would receive now.
    fn state_for(&self, viewer: Viewer) -> Value {
        let seq = self.shown.seq(viewer);
        messages::state(&self.m, viewer, seq, &self.seats_json(), self.clock_now())
    }

    /// A seat's action, received `at`: applied by the engine, stored, then
    /// announced.
    pub(super) async fn act(&mut self, seat: Seat, text: &str, from: Source, at: Instant) {
        if self.stopped {
            return;
        }
        if self.out_of_step.is_some() {
            if let Some(conn) = from.conn() {
                let text = messages::error(
                    "store",
                    "the match's store is unavailable for a moment; try again",
                );
                self.send_to(conn, text);
            }
            return;
        }
        let now = self.time_at(at);
        if !self.expire(now).await {
            if let Some(conn) = from.conn() {
                let text = messages::error("store", "the match could not be stored; try again");
                self.send_to(conn, text);
            }
            return;
        }
        let by = match from {
            Source::Host(_, by) => Some(by),
            _ => None,
        };
        let before = self.before_step(now);
        match self.submit(seat, text, now, by).await {
            Ok(played) => {
                self.moved_ms = wall_ms();
                // The first action starts play, if both seats have not yet.
                self.start_play();
                let mut shown = self.shown.clone();
                let views = shown.step(&self.m);
                let canonical = played.action.clone();
                // Whoever sent it hears it was accepted: the seat, or the host.
                let mover = match by {
                    Some(_) => Viewer::Umpire,
                    None => Viewer::Seat(seat),
                };
                let step = super::parts::Step {
                    shown,
                    views,
                    accepted: Some((mover, canonical)),
                    before,
                };
                self.commit(vec![played], step).await;
            }
            Err(e) => self.refused(seat, text, e, from).await,
        }
    }

    /// Plays `seat`'s action at `now`. An action the game says may take
    /// long to judge is played on a copy on the judges' threads (this task
    /// waits, so nothing else changes the match meanwhile); the others here.
    async fn submit(
        &mut self,
        seat: Seat,
        text: &str,
        now: u64,
        by: Option<By>,
    ) -> Result<Entry, ActionError> {
        let costly = by != Some(By::Umpire)
            && self
                .m
                .decision()
                .kind(seat)
                .is_some_and(|kind| self.info.game.costly(kind));
        if !costly {
            return self.m.submit_by(seat, text, now, by);
        }
        let mut copy = self.m.clone();
        let text = text.to_string();
        let judged = self.judges.run(Priority::First, move || {
            let played = copy.submit_by(seat, &text, now, by);
            (copy, played)
        });
        match judged.await {
            Ok((copy, Ok(played))) => {
                self.m = copy;
                Ok(played)
            }
            Ok((_, Err(e))) => Err(e),
            Err(_) => Err(ActionError::new(
                "server",
                "the action could not be judged; try again",
            )),
        }
    }

    /// Whether `seat`'s action would be accepted now, tried on a copy on
    /// the checks' threads (below the server's priority); the answer goes to `conn`: the canonical
    /// notation, or why not (judged, like a refusal, from what the seat may
    /// know). A seat has one check judged at a time.
    fn check(&mut self, conn: u64, seat: Seat, text: String, id: Option<u64>) {
        if let Err(e) = self.check_refusal(seat) {
            return self.send_to(conn, messages::checked(id, Err(e)));
        }
        let busy = self.checking[seat].clone();
        if busy.swap(true, Ordering::SeqCst) {
            let e = ActionError::new(
                "busy",
                "one check at a time: wait for the answer to your last one",
            );
            return self.send_to(conn, messages::checked(id, Err(e)));
        }
        let Some(to) = self.outbox(conn) else {
            busy.store(false, Ordering::SeqCst);
            return;
        };
        let mut copy = self.m.state().clone_box();
        self.checks.run(Priority::Later, move || {
            let answer = copy.apply(seat, text.trim());
            busy.store(false, Ordering::SeqCst);
            to.send(messages::checked(id, answer).into());
        });
    }

    /// Why `seat` may not have an action checked now, if it may not.
    fn check_refusal(&self, seat: Seat) -> Result<(), ActionError> {
        if self.stopped || self.m.is_over() {
            return Err(ActionError::from_rule(&umpire_core::TurnError::GameOver));
        }
        if self.seats[seat].bot.is_some() {
            return Err(ActionError::new(
                "forbidden",
                format!("{seat} is played by a bot now"),
            ));
        }
        self.turn_refusal(seat).map_or(Ok(()), Err)
    }

    /// Applies the timeouts due before `now`, those of each moment as one
    /// step with a commit of its own, so each viewer gets a message for each
    /// change it may see. False if the store failed.
    pub(super) async fn expire(&mut self, now: u64) -> bool {
        if self.out_of_step.is_some() {
            return false;
        }
        while let Some(due) = self.m.next_deadline().filter(|&d| d < now) {
            let before = self.before_step(due);
            let timeouts = self.m.advance(due.saturating_add(1));
            if timeouts.is_empty() {
                break;
            }
            let mut shown = self.shown.clone();
            let views = shown.step(&self.m);
            let step = super::parts::Step {
                shown,
                views,
                accepted: None,
                before,
            };
            if !self.commit(timeouts, step).await {
                return false;
            }
        }
        !self.stopped
    }

    /// `seat`'s action was refused: the client is told why, as far as it
    /// may know; a bot plays a random legal action instead.
    async fn refused(&mut self, seat: Seat, text: &str, e: ActionError, from: Source) {
        match from {
            Source::Client(conn) => {
                let e = self.turn_refusal(seat).unwrap_or(e);
                self.send_to(conn, messages::refusal(&e));
                self.tell_host_refused(seat, text, &e);
            }
            // The host hears what the player would: the same refusal.
            Source::Host(conn, _) => {
                let e = self.turn_refusal(seat).unwrap_or(e);
                self.send_to(conn, messages::refusal(&e));
            }
            // A bot that named an illegal action plays a random one.
            Source::Bot if self.m.decision().seats().contains(seat) => {
                Box::pin(self.fallback(seat)).await
            }
            Source::Bot | Source::Fallback => {
                tracing::warn!(id = %self.info.id, %seat, rule = %e.rule, "bot action refused");
            }
        }
    }

    /// Why `seat` may not act now, judged from what it may know of the
    /// other seat's decision: the real one may be covered (a seat that must
    /// confirm its bid looks like a seat still bidding).
    fn turn_refusal(&self, seat: Seat) -> Option<ActionError> {
        let seen = self.m.decision_for(Viewer::Seat(seat));
        let refusal = seen.require(seat).err()?;
        Some(ActionError::from_rule(&refusal))
    }
}

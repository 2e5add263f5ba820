//! The hub: creates matches, finds live ones, brings stored ones back.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use umpire_core::{AnyGame, Match, MatchOptions, PerSeat, Seat};

use crate::config::Config;
use crate::hidden::fixed;
use crate::live::{self, Handle, Info, Registry, Start};
use crate::pool::{self, Pool};
use crate::reply::Refusal;
use crate::request::CreateRequest;
use crate::shown::Shown;
use crate::store::{Claim, Invite, Leases, Loaded, MatchRow, Op, SeatKind, Store, Tokens};
use crate::{tokens, wall};

/// A match as it stands: the match, what each kind of viewer was shown of
/// it, and its chat.
struct Standing {
    m: Match,
    shown: Shown,
    chat: Vec<crate::chat::ChatLine>,
}

/// How many orphaned matches a node loads at once when it takes them over.
const ADOPT_AT_ONCE: usize = 16;

pub struct Hub {
    live: Registry,
    pub store: Store,
    config: Arc<Config>,
    /// Creates under way: counted with the live matches against the cap,
    /// so simultaneous creates cannot pass it.
    creating: Arc<std::sync::atomic::AtomicUsize>,
    bots: Pool,
    judges: Pool,
    checks: Pool,
    /// A lock per match this node is taking over (where nodes share the
    /// store).
    claiming: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// This node hands its matches over: it takes none.
    leaving: std::sync::atomic::AtomicBool,
}

/// Where a match is run.
pub enum Found {
    /// By this node.
    Here(Handle),
    /// By another node of the service, named.
    There(String),
}

/// A place among the live matches, held while a match is created.
struct Slot(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Hub {
    pub fn new(store: Store, config: Arc<Config>) -> Hub {
        Hub {
            live: Arc::new(Mutex::new(HashMap::new())),
            store,
            claiming: Default::default(),
            leaving: Default::default(),
            bots: Pool::new("umpire-bot", config.bot_threads, pool::Below::Idle),
            // A person waits for a costly action to be judged: at the
            // server's own priority; checks can wait.
            judges: Pool::new("umpire-judge", config.judge_threads, pool::Below::Not),
            checks: Pool::new(
                "umpire-check",
                config.judge_threads.div_ceil(2),
                pool::Below::Nice,
            ),
            config,
            creating: Default::default(),
        }
    }

    /// The server's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The games this server serves.
    pub fn games(&self) -> &'static [&'static dyn umpire_core::AnyGame] {
        self.config.games()
    }

    pub fn registry(&self) -> std::sync::MutexGuard<'_, HashMap<String, Handle>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Brings back every unfinished match from the store.
    pub async fn resume_all(&self) -> Result<usize, String> {
        let mut resumed = 0;
        for loaded in self.store.unfinished().await? {
            let id = loaded.row.id.clone();
            match self.start(loaded, 0) {
                Ok(handle) => {
                    self.registry().insert(id, handle);
                    resumed += 1;
                }
                Err(e) => tracing::error!(%id, "cannot resume: {e}"),
            }
        }
        Ok(resumed)
    }

    /// Rebuilds a stored match by replaying its actions and starts its task.
    /// `epoch` is the one this node runs it in (0 for a lone node).
    fn start(&self, loaded: Loaded, epoch: u64) -> Result<Handle, String> {
        let game = umpire_catalog::require_in(self.games(), &loaded.row.game)?;
        let record = loaded.row.record(loaded.actions);
        let (m, shown) = Shown::replay(game, &record).map_err(|e| e.to_string())?;
        let chat = loaded.chat;
        Ok(self.spawn(game, loaded.row, Standing { m, shown, chat }, None, epoch))
    }

    /// Starts the task of the match `row` describes, standing as `now`,
    /// run in `epoch`; `from` created it, if known.
    fn spawn(
        &self,
        game: &'static dyn AnyGame,
        row: MatchRow,
        now: Standing,
        from: Option<IpAddr>,
        epoch: u64,
    ) -> Handle {
        let Standing { m, shown, chat } = now;
        live::spawn(Start {
            info: Arc::new(Info {
                id: row.id,
                game,
                claimed: row.tokens.invite.as_ref().is_some_and(|i| i.claimed).into(),
                tokens: row.tokens,
                takeover: row.takeover,
                created_ms: row.created_ms,
                fixed: fixed(game, &row.config)
                    .into_iter()
                    .chain(row.seed_set.then_some("Seed"))
                    .collect(),
                epoch,
                from,
                bots_only: Seat::BOTH
                    .iter()
                    .all(|&s| matches!(row.seats[s], SeatKind::Bot { .. })),
                hosted: row.hosted,
                audience: row.audience,
            }),
            m,
            shown,
            chat,
            seats: row.seats,
            store: self.store.fenced(epoch),
            config: self.config.clone(),
            registry: self.live.clone(),
            bots: self.bots.clone(),
            judges: self.judges.clone(),
            checks: self.checks.clone(),
        })
    }

    /// A match by id: live here, or brought back from the store. Where
    /// several nodes share the store, the node that runs it: this one if it
    /// runs it or takes it over (nobody runs it, or its node is gone),
    /// else the other ([`Found::There`]).
    pub async fn get(&self, id: &str) -> Result<Option<Found>, Refusal> {
        if !tokens::valid_id(id) {
            return Ok(None);
        }
        if let Some(h) = self.running(id) {
            return Ok(Some(Found::Here(h)));
        }
        let Some(leases) = self.store.leases() else {
            return Ok(self.load(id, 0).await?.map(Found::Here));
        };
        if self.leaving() {
            return Err(Refusal(
                503,
                "this node is shutting down; try again (another node takes its matches)".into(),
            ));
        }
        // One take-over of a match at a time here: two would each move its
        // epoch on. Different matches are taken over side by side.
        let lock = self.claiming_lock(id);
        let found = {
            let _one = lock.lock().await;
            self.take_over(leases, id).await
        };
        let mut claiming = self.claiming.lock().unwrap_or_else(|e| e.into_inner());
        if Arc::strong_count(&lock) == 2 {
            claiming.remove(id);
        }
        found
    }

    /// The lock held while match `id` is claimed.
    fn claiming_lock(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut claiming = self.claiming.lock().unwrap_or_else(|e| e.into_inner());
        claiming.entry(id.to_string()).or_default().clone()
    }

    /// Claims match `id` in the store: runs it here if no live node does.
    async fn take_over(&self, leases: &Leases, id: &str) -> Result<Option<Found>, Refusal> {
        if let Some(h) = self.running(id) {
            return Ok(Some(Found::Here(h)));
        }
        let claim = leases.claim(id, true).await.map_err(|e| {
            tracing::error!("{e}");
            Refusal(503, "the store cannot be reached now; try again".into())
        })?;
        match claim {
            Claim::Ours(epoch) => Ok(self.load(id, epoch).await?.map(Found::Here)),
            Claim::Theirs(node) => Ok(Some(Found::There(node))),
            Claim::Missing => Ok(None),
        }
    }

    /// The task of match `id`, if this node runs it.
    fn running(&self, id: &str) -> Option<Handle> {
        let mut live = self.registry();
        match live.get(id) {
            Some(h) if !h.tx.is_closed() => Some(h.clone()),
            // Its task is gone (it stopped): load it afresh.
            Some(_) => {
                live.remove(id);
                None
            }
            None => None,
        }
    }

    /// Loads match `id` from the store and starts its task, run in `epoch`.
    async fn load(&self, id: &str, epoch: u64) -> Result<Option<Handle>, Refusal> {
        let loaded = self.store.load(id).await.map_err(|e| {
            tracing::error!("{e}");
            Refusal(500, "the store could not be read".into())
        })?;
        let Some(loaded) = loaded else {
            return Ok(None);
        };
        if let Some(reason) = loaded.abandoned {
            return Err(Refusal(410, reason));
        }
        let handle = self.start(loaded, epoch).map_err(|e| {
            tracing::error!(%id, "cannot load: {e}");
            Refusal(500, "the match could not be loaded".into())
        })?;
        // Another request may have loaded it meanwhile: keep the first.
        let mut live = self.registry();
        Ok(Some(live.entry(id.to_string()).or_insert(handle).clone()))
    }

    /// Takes over unfinished matches whose node is gone (where nodes share
    /// the store), up to this node's share; returns how many.
    pub async fn adopt_orphans(&self) -> Result<usize, String> {
        let Some(leases) = self.store.leases() else {
            return Ok(0);
        };
        if self.leaving() || !leases.steady() {
            return Ok(0);
        }
        let mut orphans = leases.orphans(256).await?;
        if orphans.is_empty() {
            return Ok(0);
        }
        // Every node left tries them all, each in an order of its own: they
        // split the work as they go (a claim another node won costs one
        // quick update), and none is left for a later round, as a fixed
        // share of the same list would leave half of them.
        use rand::seq::SliceRandom;
        orphans.shuffle(&mut rand::rng());
        // Loaded several at once: each waits mostly on the store, and a
        // dead node's players wait for all of them.
        use futures_util::StreamExt;
        let adopted = futures_util::stream::iter(orphans)
            .map(|id| async move {
                if self.registry().len() >= self.config.max_live {
                    return false;
                }
                matches!(self.get(&id).await, Ok(Some(Found::Here(_))))
            })
            .buffer_unordered(ADOPT_AT_ONCE)
            .filter(|here| std::future::ready(*here))
            .count()
            .await;
        Ok(adopted)
    }

    /// Lets go of the matches another node took over while this one still
    /// ran them (its lease lapsed while it was alive, say under load): their
    /// clients reconnect to find the new owner, and nothing here answers
    /// for them from an old state.
    pub async fn let_go_of_lost(&self) -> Result<usize, String> {
        let Some(leases) = self.store.leases() else {
            return Ok(0);
        };
        let running: Vec<Handle> = self.registry().values().cloned().collect();
        if running.is_empty() {
            return Ok(0);
        }
        let ids: Vec<String> = running.iter().map(|h| h.info.id.clone()).collect();
        let stored: HashMap<String, u64> = leases
            .epochs(&ids)
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .collect();
        let mut lost = 0;
        for h in running {
            if stored.get(&h.info.id).is_some_and(|&e| e > h.info.epoch) {
                let _ = h.tx.send(live::Cmd::Moved).await;
                lost += 1;
            }
        }
        Ok(lost)
    }

    pub fn live_count(&self) -> usize {
        self.registry().len()
    }

    /// How many matches a node runs at most.
    pub fn max_live(&self) -> usize {
        self.config.max_live
    }

    /// Another live node with room for a match, the emptiest, if any.
    pub async fn node_with_room(&self, me: &str) -> Option<String> {
        let nodes = self.store.leases()?.nodes().await.ok()?;
        nodes
            .into_iter()
            .filter(|n| n.id != me && n.live < n.max_live)
            .min_by_key(|n| n.live)
            .map(|n| n.id)
    }

    /// Whether this node is handing its matches over (shutting down).
    pub fn leaving(&self) -> bool {
        self.leaving.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Hands every match this node runs over (it shuts down): each task
    /// tells its clients the match moves and ends; the store then lets
    /// them go, for the other nodes to take over at once.
    pub async fn hand_over(&self) {
        self.leaving
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let handles: Vec<Handle> = self.registry().values().cloned().collect();
        for h in &handles {
            let _ = h.tx.send(live::Cmd::HandOver).await;
        }
        for h in handles {
            h.tx.closed().await;
        }
        if let Some(leases) = self.store.leases() {
            if let Err(e) = leases.release().await {
                tracing::error!("the matches could not be let go: {e}");
            }
        }
    }

    /// Creates a match; answers its id and links.
    /// Creates a match for a client at `from`; answers its id and links.
    pub async fn create(&self, req: CreateRequest, from: IpAddr) -> Result<Value, Refusal> {
        let _slot = self.reserve()?;
        self.within_share(&req, from).await?;
        let creator = req.creator;
        let (game, m, mut row) = self.new_match(req)?;
        // Kept where nodes share the store: the share holds across them.
        if self.store.leases().is_some() {
            row.creator = Some(from.to_string());
        }
        let links = links(&row, creator);
        let id = self.launch(game, m, row, Some(from)).await?;
        Ok(json!({"id": id, "links": links}))
    }

    /// Whether `from` may create one more match like `req`: an address
    /// keeps a share of the live matches (`Config::matches_per_address`),
    /// and of the matches between two bots, which think on the shared
    /// threads (`Config::bot_matches_per_address`).
    async fn within_share(&self, req: &CreateRequest, from: IpAddr) -> Result<(), Refusal> {
        let bots_only = Seat::BOTH
            .iter()
            .all(|&s| matches!(req.seats[s], SeatKind::Bot { .. }));
        let (all, bots) = match self.store.leases() {
            Some(leases) => leases.created_by(&from.to_string()).await.map_err(|e| {
                tracing::error!("{e}");
                Refusal(503, "the store cannot be reached now; try again".into())
            })?,
            None => self
                .registry()
                .values()
                .filter(|h| h.info.from == Some(from) && !h.is_over())
                .fold((0, 0), |(all, bots), h| {
                    (all + 1, bots + usize::from(h.info.bots_only))
                }),
        };
        let (cap, bot_cap) = (
            self.config.matches_per_address,
            self.config.bot_matches_per_address,
        );
        if cap > 0 && all >= cap {
            return Err(Refusal(
                429,
                format!(
                    "your address has {all} live matches, the most it may have; finish or leave some first"
                ),
            ));
        }
        if bots_only && bot_cap > 0 && bots >= bot_cap {
            return Err(Refusal(
                429,
                format!(
                    "your address has {bots} live matches between bots, the most it may have; watch them to the end first"
                ),
            ));
        }
        Ok(())
    }

    /// Creates the rematch of a finished match: `req` is its settings with
    /// the seats swapped, and `tokens` the keys its people already hold.
    /// Answers the new match's id.
    pub async fn rematch(&self, req: CreateRequest, tokens: Tokens) -> Result<String, Refusal> {
        let _slot = self.reserve()?;
        let (game, m, mut row) = self.new_match(req)?;
        row.tokens = tokens;
        self.launch(game, m, row, None).await
    }

    /// Stores a new match and starts its task; answers its id. `from` is
    /// the address that asked for it.
    async fn launch(
        &self,
        game: &'static dyn AnyGame,
        m: Match,
        row: MatchRow,
        from: Option<IpAddr>,
    ) -> Result<String, Refusal> {
        self.store
            .write(Op::Create(Box::new(row.clone())))
            .await
            .map_err(|e| {
                tracing::error!("{e}");
                Refusal(500, "the match could not be stored".into())
            })?;
        let id = row.id.clone();
        let shown = Shown::start(&m);
        let chat = Vec::new();
        let handle = self.spawn(game, row, Standing { m, shown, chat }, from, 0);
        self.registry().insert(id.clone(), handle);
        tracing::info!(%id, game = game.id(), "match created");
        Ok(id)
    }

    /// A place for one more live match, or the refusal when the server
    /// holds its fill (`Config::max_live`).
    fn reserve(&self) -> Result<Slot, Refusal> {
        use std::sync::atomic::Ordering;
        let live = self.registry();
        if live.len() + self.creating.load(Ordering::SeqCst) >= self.config.max_live {
            return Err(Refusal(
                503,
                "too many live matches; try again later".into(),
            ));
        }
        self.creating.fetch_add(1, Ordering::SeqCst);
        Ok(Slot(self.creating.clone()))
    }

    /// Checks a request and sets its match up, with a new id, seed and tokens.
    fn new_match(
        &self,
        req: CreateRequest,
    ) -> Result<(&'static dyn AnyGame, Match, MatchRow), Refusal> {
        let bad = |m: String| Refusal(400, m);
        let game = umpire_catalog::require_in(self.games(), &req.game).map_err(bad)?;
        let config = game
            .normalize_config(&req.config)
            .map_err(|e| bad(e.to_string()))?;
        let fixed = fixed(game, &config);
        if req.creator.is_some() && !fixed.is_empty() {
            return Err(bad(format!(
                "{} {} hidden from your opponent: only a host, who plays neither seat, may set {}",
                fixed.join(", "),
                if fixed.len() == 1 { "is" } else { "are" },
                if fixed.len() == 1 { "it" } else { "them" },
            )));
        }
        for seat in Seat::BOTH {
            if let SeatKind::Bot { bot } = &req.seats[seat] {
                self.config
                    .make_bot(game.id(), bot)
                    .map_err(|e| bad(format!("{seat}: {e}")))?;
            }
        }
        let players = req.names.players().map_err(bad)?;
        if !req.audience && !req.host {
            return Err(bad(
                "only a host's match (`host`) may keep the audience out until the end".into(),
            ));
        }
        if req.host && req.creator.is_some() {
            return Err(bad(
                "a host plays neither seat: leave out `as` to host".into()
            ));
        }
        let clock = match req.clock {
            Some(own) => own.policy(self.config.lag_ms).map_err(bad)?,
            None => {
                let mut clock = game.clock_policy(&config).map_err(|e| bad(e.to_string()))?;
                clock.lag_ms = self.config.lag_ms;
                clock
            }
        };
        // Below 2^53, so JavaScript reads it exactly.
        let seed = match req.seed {
            Some(_) if req.creator.is_some() => {
                return Err(bad(
                    "the seed fixes the game's secrets: only a host, who plays neither seat, may set it".into(),
                ));
            }
            Some(seed) if seed >= 1 << 53 => {
                return Err(bad(format!("seed {seed} is not below 2^53")));
            }
            Some(seed) => seed,
            None => rand::random::<u64>() >> 11,
        };
        let options = MatchOptions {
            timed: req.timed,
            clock: Some(clock),
        };
        let m = Match::new(game, &config, seed, options)
            .and_then(|m| m.with_players(players.clone(), req.host))
            .map_err(|e| bad(e.to_string()))?;
        if let Some(seat) = req.creator {
            if req.seats[seat] != SeatKind::Person {
                return Err(bad(format!("you cannot play {seat}: a bot plays it")));
            }
        }
        // A player's opponent gets an invite, claimed once.
        let invite = req.creator.and_then(|me| {
            let them = me.other();
            (req.seats[them] == SeatKind::Person).then(|| Invite {
                seat: them,
                code: tokens::token(),
                claimed: false,
                open: req.open,
            })
        });
        if req.open && invite.is_none() {
            return Err(bad(
                "only a player (`as`) whose opponent is a person can open the other seat".into(),
            ));
        }
        let row = MatchRow {
            id: tokens::match_id(),
            game: game.id().to_string(),
            config,
            seed,
            timed: req.timed,
            clock: Some(clock),
            seats: req.seats,
            tokens: Tokens {
                seats: PerSeat::from_fn(|_| tokens::token()),
                umpire: tokens::token(),
                invite,
                rematch: None,
            },
            takeover: req.takeover,
            created_ms: wall::wall_ms(),
            creator: None,
            players,
            hosted: req.host,
            seed_set: req.seed.is_some(),
            audience: req.audience,
        };
        Ok((game, m, row))
    }
}

/// The links of a new match. A host gets one per person seat, the
/// spectators' and the umpire's; a player (`creator`) gets their own seat's,
/// the opponent's invite (when a person plays it) and the spectators'.
fn links(row: &MatchRow, creator: Option<Seat>) -> Value {
    let id = &row.id;
    let link = |token: &str| format!("/m/{id}?t={token}");
    let person =
        |seat: Seat| (row.seats[seat] == SeatKind::Person).then(|| link(&row.tokens.seats[seat]));
    match creator {
        Some(me) => json!({
            me.to_string(): link(&row.tokens.seats[me]),
            "invite": row.tokens.invite.as_ref().map(|i| format!("/i/{id}?c={}", i.code)),
            "spectator": format!("/m/{id}"),
        }),
        None => {
            let mut links = json!({
                "P1": person(Seat::P1),
                "P2": person(Seat::P2),
                "spectator": format!("/m/{id}"),
                "umpire": link(&row.tokens.umpire),
            });
            if row.hosted {
                links["console"] = json!(format!("/host/{id}?t={}", row.tokens.umpire));
            }
            links
        }
    }
}

impl Hub {
    /// Takes the invited seat of the match `handle` runs with invite
    /// `code`: answers the seat's link, once; later openers learn the seat
    /// is taken.
    pub async fn claim(
        &self,
        handle: &Handle,
        code: &str,
        mine: &[String],
    ) -> Result<Value, Refusal> {
        use std::sync::atomic::Ordering;
        let id = handle.info.id.as_str();
        let info = &handle.info;
        let Some(invite) = info
            .tokens
            .invite
            .as_ref()
            .filter(|i| tokens::same(code, &i.code))
        else {
            return Err(Refusal(
                403,
                "this invite does not belong to this match".into(),
            ));
        };
        let sender = invite.seat.other();
        if mine
            .iter()
            .any(|t| tokens::same(t, &info.tokens.seats[sender]))
        {
            return Err(Refusal(
                403,
                format!("you play {sender} in this match: send this invite to your opponent"),
            ));
        }
        if info
            .claimed
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return Err(Refusal(
                409,
                format!(
                    "{} is taken: someone opened this invite first; you can watch",
                    invite.seat
                ),
            ));
        }
        let tokens = Tokens {
            invite: Some(Invite {
                claimed: true,
                ..invite.clone()
            }),
            ..info.tokens.clone()
        };
        let stored = self
            .store
            .fenced(info.epoch)
            .write(Op::Tokens {
                id: id.to_string(),
                tokens,
            })
            .await;
        if let Err(e) = stored {
            tracing::error!("{e}");
            info.claimed.store(false, Ordering::SeqCst);
            return Err(Refusal(
                500,
                "the claim could not be stored; try again".into(),
            ));
        }
        // The lobby stops offering the seat at once: the summary loses its
        // invite (and the caller drops the lists sorted before).
        if let Some(summary) = handle
            .summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_object_mut()
        {
            summary.remove("join");
        }
        let seat = invite.seat;
        Ok(json!({"seat": seat.to_string(),
                  "link": format!("/m/{id}?t={}", info.tokens.seats[seat])}))
    }
}

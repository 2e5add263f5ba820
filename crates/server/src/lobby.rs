//! The lobby's lists: the open and the live matches' summaries (JSON
//! values), sorted newest first, with every node's in a service of several;
//! kept for a moment so that many lobbies polling cost what one does; and
//! its pages, the finished matches read from the store.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::cluster::Cluster;
use crate::hub::Hub;
use crate::reply::Refusal;

/// Matches of each list on one page of the lobby.
pub const LOBBY_PAGE: usize = 50;
/// The open and the live matches' summaries, each list newest first.
pub type Lists = (Vec<Value>, Vec<Value>);

/// The sorted lists, and when they were sorted.
type LobbyCache = Mutex<Option<(std::time::Instant, Arc<Lists>)>>;

/// Sorts the summaries into the open and the live list, newest first; the
/// id orders matches made in the same millisecond, so pages neither repeat
/// nor skip one.
fn sort_lists(summaries: Vec<Arc<Mutex<Value>>>) -> Lists {
    let (mut open, mut playing) = split_lists(summaries);
    open.sort_by(newest_first);
    playing.sort_by(newest_first);
    (open, playing)
}

/// The open and the live matches of `summaries`, in no order.
fn split_lists(summaries: Vec<Arc<Mutex<Value>>>) -> Lists {
    let mut open = Vec::new();
    let mut playing = Vec::new();
    for s in summaries {
        let s = s.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match s["status"].as_str() {
            Some("open") => open.push(s),
            Some("live") => playing.push(s),
            _ => {}
        }
    }
    (open, playing)
}

fn newest_first(a: &Value, b: &Value) -> std::cmp::Ordering {
    fn key(v: &Value) -> (Option<u64>, Option<&str>) {
        (v["created_ms"].as_u64(), v["id"].as_str())
    }
    key(b).cmp(&key(a))
}

/// The lobby's lists, sorted and kept.
pub struct Lobby {
    /// The sorted lists, and when they were sorted.
    cache: LobbyCache,
    /// A request is sorting the lists now.
    sorting: std::sync::atomic::AtomicBool,
    /// How long sorted lists are served.
    fresh_ms: u64,
}

impl Lobby {
    pub fn new(fresh_ms: u64) -> Lobby {
        Lobby {
            cache: Mutex::new(None),
            sorting: Default::default(),
            fresh_ms,
        }
    }

    /// Lists sorted before are not served again (a seat was claimed).
    pub fn forget(&self) {
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// This node's own open and live matches (for another node's lobby).
    pub async fn own_lists(hub: &Hub) -> Arc<Lists> {
        let summaries: Vec<Arc<Mutex<Value>>> =
            hub.registry().values().map(|h| h.summary.clone()).collect();
        let lists = tokio::task::spawn_blocking(move || split_lists(summaries)).await;
        Arc::new(lists.unwrap_or_default())
    }

    /// How many matches this node runs.
    /// One page of the lobby: open and live matches from memory, newest
    /// first, finished ones from the store. The live lists are sorted at
    /// most once a second, whoever asks, so many lobbies polling cost what
    /// one does.
    pub async fn page(
        &self,
        hub: &Hub,
        page: usize,
        cluster: Option<&Cluster>,
    ) -> Result<Value, Refusal> {
        let lists = self.live_lists(hub, cluster).await;
        let slice = |all: &[Value]| -> (Vec<Value>, bool) {
            let from = page.saturating_mul(LOBBY_PAGE).min(all.len());
            let to = (from + LOBBY_PAGE).min(all.len());
            (all[from..to].to_vec(), to < all.len())
        };
        let (open, more_open) = slice(&lists.0);
        let (playing, more_live) = slice(&lists.1);
        let mut finished = hub
            .store
            .finished(LOBBY_PAGE + 1, page.saturating_mul(LOBBY_PAGE))
            .await
            .map_err(|e| {
                tracing::error!("{e}");
                Refusal(500, "the store could not be read".into())
            })?;
        let more_finished = finished.len() > LOBBY_PAGE;
        finished.truncate(LOBBY_PAGE);
        let finished: Vec<Value> = finished
            .into_iter()
            .map(|f| {
                let name = umpire_catalog::find(hub.games(), &f.game).map_or("", |g| g.name());
                let mut summary = json!({"id": f.id, "game": f.game, "name": name,
                    "created_ms": f.created_ms, "finished_ms": f.finished_ms, "seats": f.seats,
                    "moves": f.moves, "outcome": f.outcome, "status": "finished"});
                crate::hosting::name_seats(&mut summary["seats"], &f.players);
                summary
            })
            .collect();
        Ok(
            json!({"page": page, "open": open, "live": playing, "finished": finished,
                  "more": {"open": more_open, "live": more_live, "finished": more_finished}}),
        )
    }

    /// The open and the live matches, newest first: sorted afresh at most
    /// once every `fresh_ms`, off the async threads; while one
    /// request sorts, the others get the previous lists.
    async fn live_lists(&self, hub: &Hub, cluster: Option<&Cluster>) -> Arc<Lists> {
        use std::sync::atomic::Ordering;
        let stale = {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            match cache.as_ref() {
                Some((at, lists)) if at.elapsed().as_millis() < u128::from(self.fresh_ms) => {
                    return lists.clone();
                }
                Some((_, lists)) => Some(lists.clone()),
                None => None,
            }
        };
        if self.sorting.swap(true, Ordering::SeqCst) {
            if let Some(lists) = stale {
                return lists;
            }
        }
        // Only the handles are taken under the registry's lock.
        let summaries: Vec<Arc<Mutex<Value>>> =
            hub.registry().values().map(|h| h.summary.clone()).collect();
        let sorted = tokio::task::spawn_blocking(move || sort_lists(summaries)).await;
        let mut lists = sorted.unwrap_or_default();
        // The other nodes' matches too.
        if let Some(cluster) = cluster {
            let (mut open, mut playing) = cluster.lobby(lists).await;
            open.sort_by(newest_first);
            playing.sort_by(newest_first);
            lists = (open, playing);
        }
        self.sorting.store(false, Ordering::SeqCst);
        let lists = Arc::new(lists);
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((std::time::Instant::now(), lists.clone()));
        lists
    }
}

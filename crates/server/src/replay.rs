//! Replays for the replay page (`GET /api/matches/{id}/replay`,
//! `POST /api/replay`): a record checked step by step, with the umpire's view
//! at the start in full and each step's change to it as a JSON Patch
//! (RFC 6902). An answer grows with the record and what changes, not with
//! the square of the record (when each step carried the whole view, a long
//! record of a game whose views keep its history cost gigabytes).
//!
//! The work is bounded, since anyone may ask: records have a length limit,
//! an answer a size ceiling and its work a deadline; it stops once the
//! client is gone; replays run one at a time on a thread of their own, at
//! the pool's lower priority, and few may wait.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;
use umpire_core::{AnyGame, Match, MatchOptions, Record, Viewer};

use crate::pool::{Pool, Priority};

/// Records longer than this are not replayed step by step.
pub const MAX_ACTIONS: usize = 5_000;
/// A record sent to `POST /api/replay` is at most this long, in bytes.
pub const MAX_BODY: usize = 1024 * 1024;
/// An answer past this many bytes is refused.
pub const MAX_ANSWER: usize = 32 * 1024 * 1024;
/// A replay waits this long at most for its turn, then is refused.
const MAX_WAIT: Duration = Duration::from_millis(1_000);
/// A replay's work stops after this long: with the wait, every answer
/// (or refusal) comes within 5 s.
const MAX_WORK: Duration = Duration::from_millis(3_500);
/// Replays waiting or running at most; more are refused at once.
const MAX_QUEUED: usize = 8;

/// Why a replay is not answered: the HTTP status and the words.
pub struct Refused(pub u16, pub String);

/// The replays of one server: their thread and how many wait.
pub struct Replays {
    pool: Pool,
    queued: Arc<AtomicUsize>,
}

/// Tells a replay's work its client is gone once the request is dropped.
struct Gone(Arc<AtomicBool>);

impl Drop for Gone {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One place among the replays waiting or running.
struct Queued(Arc<AtomicUsize>);

impl Drop for Queued {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Replays {
    pub fn new() -> Replays {
        Replays {
            pool: Pool::new("umpire-replay", 1, crate::pool::Below::Nice),
            queued: Arc::default(),
        }
    }

    /// The replay of `record` as JSON text, or why not.
    pub async fn answer(
        &self,
        games: &'static [&'static dyn AnyGame],
        record: Record,
    ) -> Result<String, Refused> {
        if record.actions.len() > MAX_ACTIONS {
            return Err(Refused(
                413,
                format!("the record is too long to replay here ({MAX_ACTIONS} actions at most)"),
            ));
        }
        let game = umpire_catalog::require_in(games, &record.game).map_err(|e| Refused(400, e))?;
        if self.queued.fetch_add(1, Ordering::SeqCst) >= MAX_QUEUED {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(busy());
        }
        let queued = Queued(self.queued.clone());
        let gone = Gone(Arc::default());
        let client_gone = gone.0.clone();
        let asked = Instant::now();
        let work = move || {
            let _queued = queued;
            if asked.elapsed() > MAX_WAIT {
                return Err(busy());
            }
            let deadline = Instant::now() + MAX_WORK;
            let stop = || {
                if client_gone.load(Ordering::Relaxed) {
                    Some(Refused(503, "the client is gone".into()))
                } else if Instant::now() > deadline {
                    Some(Refused(
                        413,
                        "the record is too long to replay here in time; `umpire replay FILE` checks it on your own machine".into(),
                    ))
                } else {
                    None
                }
            };
            answer(game, &record, stop)
        };
        let answer = self.pool.run(Priority::Later, work).await;
        drop(gone);
        answer.unwrap_or_else(|_| Err(Refused(500, "the replay failed".into())))
    }
}

fn busy() -> Refused {
    Refused(
        503,
        "the server is busy with other replays; try again".into(),
    )
}

/// One step of the answer: its entry and the change to the umpire's view
/// (the first step, before any entry, has the whole view).
#[derive(Serialize)]
struct Step<'a, E: Serialize> {
    entry: Option<&'a E>,
    #[serde(skip_serializing_if = "Option::is_none")]
    view: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    patch: Option<&'a [Op<'a>]>,
}

/// One operation of a JSON Patch (RFC 6902).
#[derive(Serialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Op<'a> {
    Add { path: String, value: &'a Value },
    Remove { path: String },
    Replace { path: String, value: &'a Value },
}

/// Appends to `patch` the operations that turn `old` into `new` (`None`:
/// nothing stood there, so `new` is added); `path` is
/// where they are in the whole view (a JSON Pointer). Objects are compared
/// key by key and arrays index by index, so a list that grows costs one
/// `add` per new item. (Written here rather than taken from the json-patch
/// crate, whose `diff` took three times as long on views that keep a
/// game's history.)
fn diff<'a>(old: Option<&Value>, new: &'a Value, path: &mut String, patch: &mut Vec<Op<'a>>) {
    let at = path.len();
    match (old, new) {
        (None, new) => patch.push(Op::Add {
            path: path.clone(),
            value: new,
        }),
        (Some(Value::Object(old)), Value::Object(new)) => {
            for key in old.keys().filter(|k| !new.contains_key(*k)) {
                push_key(path, key);
                patch.push(Op::Remove { path: path.clone() });
                path.truncate(at);
            }
            for (key, value) in new {
                push_key(path, key);
                diff(old.get(key), value, path, patch);
                path.truncate(at);
            }
        }
        (Some(Value::Array(old)), Value::Array(new)) => {
            for (i, value) in new.iter().enumerate() {
                path.push('/');
                path.push_str(&i.to_string());
                diff(old.get(i), value, path, patch);
                path.truncate(at);
            }
            // From the end, so each index is still right when removed.
            for i in (new.len()..old.len()).rev() {
                path.push('/');
                path.push_str(&i.to_string());
                patch.push(Op::Remove { path: path.clone() });
                path.truncate(at);
            }
        }
        (Some(old), new) if old == new => {}
        (Some(_), new) => patch.push(Op::Replace {
            path: path.clone(),
            value: new,
        }),
    }
}

/// Adds `key` to a JSON Pointer, escaped.
fn push_key(path: &mut String, key: &str) {
    path.push('/');
    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

/// The replay of `record` as JSON text: `{"game", "steps": [{"entry",
/// "view" | "patch"}], "record", "outcome"}`. `stop` is asked after each
/// step whether to give up (and why); the answer is refused past
/// [`MAX_ANSWER`] bytes.
pub fn answer(
    game: &'static dyn AnyGame,
    record: &Record,
    stop: impl Fn() -> Option<Refused>,
) -> Result<String, Refused> {
    let options = MatchOptions {
        timed: record.timed,
        clock: record.clock,
    };
    let start = Match::new(game, &record.config, record.seed, options)
        .map_err(|e| Refused(400, e.to_string()))?;
    let mut out = Vec::with_capacity(64 * 1024);
    out.extend_from_slice(b"{\"game\":");
    write(&mut out, &game.id());
    out.extend_from_slice(b",\"steps\":[");
    let mut view = start.view(Viewer::Umpire);
    write(
        &mut out,
        &Step::<()> {
            entry: None,
            view: Some(&view),
            patch: None,
        },
    );
    let mut refused = None;
    let full = Match::replay_each(game, record, |index, m| {
        let next = m.view(Viewer::Umpire);
        let mut patch = Vec::new();
        diff(Some(&view), &next, &mut String::new(), &mut patch);
        out.push(b',');
        let entry = &m.record().actions[index];
        let step = Step {
            entry: Some(entry),
            view: None,
            patch: Some(&patch),
        };
        write(&mut out, &step);
        drop(patch);
        view = next;
        refused = if out.len() > MAX_ANSWER {
            Some(Refused(
                413,
                format!(
                    "the replay is too large to show ({} MiB at most)",
                    MAX_ANSWER >> 20
                ),
            ))
        } else {
            stop()
        };
        // The reason itself travels in `refused`.
        refused.as_ref().map_or(Ok(()), |_| Err(String::new()))
    });
    let full = match (full, refused) {
        (_, Some(refused)) => return Err(refused),
        (Ok(full), None) => full,
        (Err(e), None) => return Err(Refused(400, e.to_string())),
    };
    out.extend_from_slice(b"],\"record\":");
    write(&mut out, full.record());
    out.extend_from_slice(b",\"outcome\":");
    write(&mut out, &full.outcome());
    out.push(b'}');
    // serde_json writes UTF-8 only.
    String::from_utf8(out).map_err(|_| Refused(500, "the replay failed".into()))
}

/// Writes `value` as JSON (writing to a Vec cannot fail).
fn write(out: &mut Vec<u8>, value: &impl Serialize) {
    let _ = serde_json::to_writer(out, value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use umpire_core::{Seat, testing::SealedBids};

    /// Applies each step's patch to the view before it: the views every
    /// step had when each carried its whole view.
    fn views(answer: &str) -> Vec<Value> {
        let answer: Value = serde_json::from_str(answer).unwrap();
        let steps = answer["steps"].as_array().unwrap();
        let mut view = steps[0]["view"].clone();
        let mut views = vec![view.clone()];
        for step in &steps[1..] {
            let patch: json_patch::Patch = serde_json::from_value(step["patch"].clone()).unwrap();
            json_patch::patch(&mut view, &patch).unwrap();
            views.push(view.clone());
        }
        views
    }

    #[test]
    fn patches_rebuild_every_view_of_the_replay() {
        let game = umpire_core::erase::<SealedBids>();
        let mut m = Match::new(game, &serde_json::json!({}), 7, MatchOptions::default()).unwrap();
        for (seat, bid, at) in [
            (Seat::P1, 2, 1_000),
            (Seat::P2, 1, 2_000),
            (Seat::P1, 3, 3_000),
        ] {
            m.submit(seat, &format!("bid {bid}"), at).unwrap();
        }
        let text = answer(game, m.record(), || None).ok().unwrap();
        let mut expected = Vec::new();
        let start = Match::new(game, &serde_json::json!({}), 7, MatchOptions::default()).unwrap();
        expected.push(start.view(Viewer::Umpire));
        Match::replay_each(game, m.record(), |_, step| {
            expected.push(step.view(Viewer::Umpire));
            Ok(())
        })
        .unwrap();
        assert_eq!(views(&text), expected);
    }

    #[test]
    fn a_diff_is_a_json_patch_that_turns_one_value_into_the_other() {
        let pairs = [
            (
                json!({"a": 1, "b": [1, 2, 3], "c/d": {"~e": true}}),
                json!({"a": 2, "b": [1], "c/d": {}, "f": null}),
            ),
            (json!([1, [2, 3]]), json!([1, [2, 4, 5], {"x": 1}])),
            (json!({"a": [1]}), json!({"a": {"0": 1}})),
            (json!(1), json!("one")),
            (
                json!({"h": [{"r": 1}, {"r": 2}]}),
                json!({"h": [{"r": 1}, {"r": 2}, {"r": 3}]}),
            ),
        ];
        for (old, new) in pairs {
            let mut ops = Vec::new();
            diff(Some(&old), &new, &mut String::new(), &mut ops);
            let patch: json_patch::Patch =
                serde_json::from_value(serde_json::to_value(&ops).unwrap()).unwrap();
            let mut doc = old.clone();
            json_patch::patch(&mut doc, &patch).unwrap();
            assert_eq!(doc, new, "{old} -> {new}");
        }
        // A list that grows by one costs one operation.
        let (old, new) = (json!({"h": [1, 2]}), json!({"h": [1, 2, 3]}));
        let mut ops = Vec::new();
        diff(Some(&old), &new, &mut String::new(), &mut ops);
        assert_eq!(
            serde_json::to_value(&ops).unwrap(),
            json!([{"op": "add", "path": "/h/2", "value": 3}])
        );
    }

    #[test]
    fn a_stopped_replay_says_why() {
        let game = umpire_core::erase::<SealedBids>();
        let mut m = Match::new(game, &serde_json::json!({}), 7, MatchOptions::default()).unwrap();
        m.submit(Seat::P1, "bid 2", 1_000).unwrap();
        let refused = answer(game, m.record(), || Some(Refused(503, "gone".into())));
        assert!(matches!(refused, Err(Refused(503, why)) if why == "gone"));
    }
}

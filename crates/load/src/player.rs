//! One load client: a seat of a match, played over WebSocket with random
//! legal actions chosen as a remote client must (from the listed actions,
//! or drawn from its view alone).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{Value, json};
use umpire_core::{AnyGame, MatchRng, Seat, seeded_rng};

use crate::client::{Ws, http_json, token_of};
use crate::tally::{ACCEPTED, OPPONENT_STATE, OWN_STATE, Sent, Tally};

/// A new match made on one of `nodes`, and its two players, each connected
/// to one of them (at random when there are several), with whether it is
/// relayed (its node does not run the match).
pub async fn setup(
    nodes: &[SocketAddr],
    game: &str,
    config: &Value,
) -> Result<((Ws, bool), (Ws, bool)), String> {
    let pick = || nodes[rand::rng().random_range(0..nodes.len())];
    let addr = pick();
    let body = json!({"game": game, "config": config, "timed": true, "takeover": false});
    let (status, created) = http_json(addr, "POST", "/api/matches", Some(&body)).await?;
    if status != 201 {
        return Err(format!("create answered {status}: {created}"));
    }
    let id = created["id"].as_str().ok_or("no id")?;
    let p1 = token_of(&created["links"]["P1"]).ok_or("no P1 token")?;
    let p2 = token_of(&created["links"]["P2"]).ok_or("no P2 token")?;
    let (at1, at2) = (pick(), pick());
    Ok((
        (Ws::connect(at1, id, Some(&p1)).await?, at1 != addr),
        (Ws::connect(at2, id, Some(&p2)).await?, at2 != addr),
    ))
}

/// The parts of a server message a load client reads; the rest is skipped
/// unparsed, so the clients leave the CPU to the server.
#[derive(serde::Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default, borrow)]
    you: Option<&'a str>,
    #[serde(default)]
    outcome: Option<serde::de::IgnoredAny>,
    #[serde(default, borrow)]
    decision: Option<DecisionSeats<'a>>,
    #[serde(default, borrow)]
    legal: Option<Vec<&'a str>>,
}

#[derive(serde::Deserialize)]
struct DecisionSeats<'a> {
    #[serde(borrow)]
    seats: Vec<&'a str>,
}

/// Plays one seat with random legal actions until the match ends.
pub async fn play(
    (mut ws, relayed): (Ws, bool),
    game: &'static dyn AnyGame,
    think: Duration,
    tally: Arc<Tally>,
    shared: Arc<Sent>,
) {
    let mut rng = seeded_rng(rand::random());
    let mut me = String::new();
    let mut seat = 0;
    let mut sent: Option<Instant> = None;
    // An act whose own new state has not come yet.
    let mut awaiting_state: Option<Instant> = None;
    let mut latencies: [Vec<u32>; 3] = Default::default();
    let micros = |d: Duration| d.as_micros().min(u32::MAX as u128) as u32;
    loop {
        let text = match ws.recv_text(Duration::from_secs(60)).await {
            Ok(Some(t)) => t,
            _ => {
                tally.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
        };
        let Ok(msg) = serde_json::from_str::<Incoming>(&text) else {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            break;
        };
        match msg.kind {
            "hello" => {
                me = msg.you.unwrap_or("").to_string();
                seat = usize::from(me == "P2");
            }
            "accepted" => {
                if let Some(at) = sent.take() {
                    latencies[ACCEPTED].push(micros(at.elapsed()));
                    tally.actions.fetch_add(1, Ordering::Relaxed);
                }
            }
            "error" => {
                tally.errors.fetch_add(1, Ordering::Relaxed);
                sent = None;
                awaiting_state = None;
            }
            "state" => {
                // The server answers an act with `accepted` and then the
                // mover's state before it handles the next act, so the
                // first state after our own act is its answer; any later
                // one answers the opponent's act.
                if let Some(at) = awaiting_state.take() {
                    latencies[OWN_STATE].push(micros(at.elapsed()));
                } else {
                    let theirs = shared.at[1 - seat].swap(0, Ordering::Relaxed);
                    if theirs != 0 {
                        let waited = shared.now().saturating_sub(theirs);
                        latencies[OPPONENT_STATE].push(waited.min(u32::MAX as u64) as u32);
                    }
                }
                if msg.outcome.is_some() {
                    tally.finished.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                let to_act = msg.decision.is_some_and(|d| d.seats.contains(&me.as_str()));
                if sent.is_some() || !to_act {
                    continue;
                }
                let action = choose(game, &me, &msg.legal, &text, &mut rng);
                let act = json!({"type": "act", "action": action}).to_string();
                if !think.is_zero() {
                    // Random thinking, 0.5 to 1.5 times the mean, so the
                    // matches do not move in lockstep.
                    let ms = think.as_millis() as u64;
                    let ms = rng.random_range(ms / 2..=ms + ms / 2);
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                }
                sent = Some(Instant::now());
                awaiting_state = sent;
                shared.at[seat].store(shared.now(), Ordering::Relaxed);
                if ws.send_text(act).await.is_err() {
                    tally.errors.fetch_add(1, Ordering::Relaxed);
                    break;
                }
            }
            _ => {}
        }
    }
    {
        let mut routes = tally.routes.lock().unwrap_or_else(|e| e.into_inner());
        for (route, mine) in routes[usize::from(relayed)].iter_mut().zip(&latencies) {
            route.extend(mine);
        }
        let mut all = tally.latencies.lock().unwrap_or_else(|e| e.into_inner());
        for (all, mine) in all.iter_mut().zip(latencies) {
            all.extend(mine);
        }
    }
    ws.close().await;
}

/// A random legal action for seat `me` in the `state` message `text`: one
/// of those it lists, or, when there are too many to list, one drawn from
/// the seat's view. With nothing to choose from, the seat resigns.
fn choose(
    game: &dyn AnyGame,
    me: &str,
    legal: &Option<Vec<&str>>,
    text: &str,
    rng: &mut MatchRng,
) -> String {
    if let Some(legal) = legal.as_ref().filter(|l| !l.is_empty()) {
        return legal[rng.random_range(0..legal.len())].to_string();
    }
    draw(game, me, text, rng).unwrap_or_else(|| "resign".to_string())
}

/// A random legal action for seat `me` drawn from its view in `text`.
fn draw(game: &dyn AnyGame, me: &str, text: &str, rng: &mut MatchRng) -> Option<String> {
    let seat: Seat = me.parse().ok()?;
    let state: serde_json::Value = serde_json::from_str(text).ok()?;
    game.sample_action_from_view(seat, &state["view"], rng)
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use umpire_core::{Match, MatchOptions, Viewer};

    use super::*;

    #[test]
    fn a_state_without_a_legal_list_is_played_from_the_view() {
        for &game in umpire_catalog::games() {
            let m = Match::new(game, &Value::Null, 3, MatchOptions::default()).expect("a match");
            let seat = m.decision().seats().iter().next().expect("a seat to act");
            let text = json!({"type": "state", "view": m.view(Viewer::Seat(seat))}).to_string();
            let mut rng = seeded_rng(5);
            for _ in 0..20 {
                let action = choose(game, &seat.to_string(), &None, &text, &mut rng);
                let mut after = m.clone();
                after.submit(seat, &action, 20).expect("a legal action");
            }
            // Nothing to draw from: the seat gives up rather than stall.
            assert_eq!(
                choose(game, &seat.to_string(), &None, "{}", &mut rng),
                "resign"
            );
        }
    }
}

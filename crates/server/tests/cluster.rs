//! Nodes of one service in this process (a PostgreSQL schema of the test's
//! own, a NATS server of its own): one lobby over every node, a full node
//! placing a create on another, per-address limits held across nodes, a
//! node's SIGTERM handing its matches over, and a node that lost a match
//! while alive letting it go. (Killed nodes, rolling
//! restarts and the bus going away: `crates/cli/tests/cluster.rs`.)

mod common;

use common::*;
use serde_json::json;
use umpire_load::client::{Ws, http_json};
use umpire_server::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_every_nodes_matches() {
    let Some(c) = cluster(3, fast()).await else {
        return;
    };
    let a = people(c.addrs[0], "masked-army").await;
    let b = people(c.addrs[1], "masked-army").await;
    let (status, lobby) = http_json(c.addrs[2], "GET", "/api/matches", None)
        .await
        .expect("the lobby");
    assert_eq!(status, 200, "{lobby}");
    let listed = lobby["open"].to_string();
    assert!(listed.contains(&a.id) && listed.contains(&b.id), "{lobby}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_node_places_a_new_match_on_another() {
    let Some(c) = cluster(
        2,
        Config {
            max_live: 1,
            ..fast()
        },
    )
    .await
    else {
        return;
    };
    let first = people(c.addrs[0], "masked-army").await;
    // Node 0 is full: the next match made through it runs on node 1.
    let second = people(c.addrs[0], "masked-army").await;
    for id in [&first.id, &second.id] {
        let (status, state) = http_json(c.addrs[0], "GET", &format!("/api/matches/{id}"), None)
            .await
            .expect("answers");
        assert_eq!(status, 200, "{state}");
    }
    // Both full now: refused.
    let body = json!({"game": "masked-army"});
    let (status, answer) = http_json(c.addrs[1], "POST", "/api/matches", Some(&body))
        .await
        .expect("answers");
    assert_eq!(status, 503, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_addresss_limits_hold_across_the_nodes() {
    let Some(c) = cluster(
        2,
        Config {
            creates_per_minute: 3,
            matches_per_address: 100,
            ..fast()
        },
    )
    .await
    else {
        return;
    };
    let body = json!({"game": "masked-army"});
    let mut statuses = Vec::new();
    for addr in [c.addrs[0], c.addrs[1], c.addrs[0], c.addrs[1]] {
        let (status, _) = http_json(addr, "POST", "/api/matches", Some(&body))
            .await
            .expect("answers");
        statuses.push(status);
    }
    assert_eq!(statuses, [201, 201, 201, 429], "three a minute in all");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_shutting_down_hands_its_matches_over() {
    let Some(mut c) = cluster(2, fast()).await else {
        return;
    };
    let m = people(c.addrs[0], "masked-army").await;
    // P1 through node 1 (relayed), P2 at node 0 itself.
    let (mut p1, state) = join(c.addrs[1], &m.id, m.p1.as_deref()).await;
    let (_p2, _) = join(c.addrs[0], &m.id, m.p2.as_deref()).await;
    let played = act_first_legal(&mut p1, &state).await;
    assert_eq!(played["type"], "accepted");
    // Node 0 leaves: its clients are told the match moves, and node 1
    // runs it from the store, where it was.
    let leaving = c.nodes.remove(0);
    let stopped = tokio::spawn(leaving.shut_down());
    let (moved, _) = p1.until("error", WAIT).await.expect("told");
    assert_eq!(moved["rule"], "moved", "{moved}");
    stopped.await.expect("handed over");
    let (mut p1, s1) = join(c.addrs[1], &m.id, m.p1.as_deref()).await;
    let (mut p2, s2) = join(c.addrs[1], &m.id, m.p2.as_deref()).await;
    assert!(s1["seq"].as_u64() >= Some(1), "the move is there: {s1}");
    // Play goes on there.
    let (mover, state) = if to_act(&s1, "P1") {
        (&mut p1, s1)
    } else {
        (&mut p2, s2)
    };
    let played = act_first_legal(mover, &state).await;
    assert_eq!(played["type"], "accepted", "{played}");
    let spectator = Ws::connect(c.addrs[1], &m.id, None).await;
    assert!(spectator.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_lets_go_of_a_match_taken_from_it_while_it_was_alive() {
    let Some(c) = cluster(2, fast()).await else {
        return;
    };
    let m = people(c.addrs[0], "masked-army").await;
    let (mut p1, _) = join(c.addrs[0], &m.id, m.p1.as_deref()).await;
    // Another node's claim, as when node 0's lease lapsed under load: the
    // epoch moves on behind node 0's back.
    let umpire_server::Place::Postgres(url) = &c.store else {
        panic!("a PostgreSQL store");
    };
    let db = umpire_server::connect_postgres(url)
        .await
        .expect("connects");
    let moved_on = db
        .execute(
            "UPDATE matches SET owner = NULL, epoch = epoch + 1 WHERE id = $1",
            &[&m.id],
        )
        .await
        .expect("updates");
    assert_eq!(moved_on, 1);
    // Node 0 notices at its next renewal and sends its clients on.
    let (moved, _) = p1.until("error", WAIT).await.expect("told");
    assert_eq!(moved["rule"], "moved", "{moved}");
    // Whichever node is asked now answers from the store's match.
    let (mut p1, state) = join(c.addrs[0], &m.id, m.p1.as_deref()).await;
    let (_p2, _) = join(c.addrs[1], &m.id, m.p2.as_deref()).await;
    if to_act(&state, "P1") {
        let played = act_first_legal(&mut p1, &state).await;
        assert_eq!(played["type"], "accepted", "{played}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_console_is_answered_from_any_node() {
    let Some(c) = cluster(2, fast()).await else {
        return;
    };
    let body = json!({"game": "masked-army", "host": true, "names": {"P1": "Ada"}});
    let m = create(c.addrs[0], body).await;
    for addr in &c.addrs {
        let path = format!("/api/matches/{}/console?t={}", m.id, m.umpire);
        let (status, console) = http_json(*addr, "GET", &path, None).await.expect("answers");
        assert_eq!(status, 200, "{console}");
        let message = console["P1"]["words"]["message"].as_str().unwrap_or("");
        assert!(message.contains("for Ada (P1)"), "{console}");
    }
    // Through the other node's socket, the host enters Ada's action.
    let (mut host, _) = join(c.addrs[1], &m.id, Some(&m.umpire)).await;
    let act = json!({"type": "act", "seat": "P1", "action": "first P1"});
    host.send(&act).await.expect("sent");
    let (accepted, _) = host.until("accepted", WAIT).await.expect("accepted");
    assert_eq!(accepted["action"], "first P1");
}

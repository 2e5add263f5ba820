//! Fair seats (issue 15): nobody can lock a seat holder or the umpire out
//! of their match.

mod common;

use common::*;
use umpire_server::Config;
use umpire_server::client::Ws;

fn game() -> &'static str {
    "masked-army"
}

/// Waits until `ws` is shown `seat` with the connection state `connected`.
async fn until_seat(ws: &mut Ws, seat: &str, connected: bool) {
    loop {
        let (state, _) = ws.until("state", WAIT).await.expect("a state");
        if state["seats"][seat]["connected"] == connected {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_flood_never_locks_out_a_seat_holder_or_the_umpire() {
    let s = start(Config {
        max_spectators: 5,
        ..fast()
    })
    .await;
    let c = people(s.addr, game()).await;
    let (p1, _) = join(s.addr, &c.id, c.p1.as_deref()).await;
    let (mut watching, _) = join(s.addr, &c.id, None).await;
    p1.close().await;
    until_seat(&mut watching, "P1", false).await;
    // The spectators fill their list: the next one is refused.
    let mut flood = Vec::new();
    for _ in 1..5 {
        flood.push(join(s.addr, &c.id, None).await.0);
    }
    let mut refused = Ws::connect(s.addr, &c.id, None).await.expect("connects");
    let (error, _) = refused.until("error", WAIT).await.expect("refused");
    assert_eq!(error["rule"], "full", "{error}");
    // The seat holder comes back, and the umpire comes in.
    let (_p1, state) = join(s.addr, &c.id, c.p1.as_deref()).await;
    assert_eq!(state["seats"]["P1"]["connected"], true, "{state}");
    let (_umpire, _) = join(s.addr, &c.id, Some(&c.umpire)).await;
    until_seat(&mut watching, "P1", true).await;
    // A seat holder's many connections never refuse its newest one.
    let mut p2s = Vec::new();
    for _ in 0..12 {
        p2s.push(join(s.addr, &c.id, c.p2.as_deref()).await.0);
    }
    assert_eq!(p2s.len(), 12);
}

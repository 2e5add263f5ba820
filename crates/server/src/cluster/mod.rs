//! Several nodes, one service (`umpire serve --store postgres://… --bus
//! nats://…`). The nodes share the PostgreSQL store and a NATS bus. Each
//! live match is run by one node, recorded in the store with an epoch that
//! every write of the match carries ([`crate::store::Leases`]): a node that
//! takes a match over moves the epoch on, so the node that had it can never
//! write to it again. A node renews its lease every half second; when it
//! lapses (the node died) the others take its matches over from the store,
//! and on SIGTERM a node hands its matches over at once.
//!
//! Any node serves any client: a request or a WebSocket for a match another
//! node runs is relayed to that node over the bus ([`relay`]), which builds
//! every message from its recipient's own view as always, and sends a
//! relayed connection's messages on a subject of that connection alone
//! ([`owner`]). The lobby lists every node's live matches ([`Cluster::lobby`]).

mod node;
pub mod owner;
pub mod relay;
pub mod wire;

pub use node::Cluster;

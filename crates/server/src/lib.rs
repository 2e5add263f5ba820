//! The umpire game server: `umpire serve`.
//!
//! HTTP + WebSocket on axum; one task per match owns its [`umpire_core::Match`]
//! ([`live`]); every accepted action is synced to SQLite before anyone hears
//! of it ([`store`]); every message is built for its recipient from that
//! recipient's view ([`messages`]). It serves every game of the catalogue
//! (and the test games when asked) and names none. The protocol is `docs/protocol.md`.

mod address;
mod admitted;
mod app;
mod bodies;
pub mod chat;
mod cluster;
mod config;
mod head;
mod hidden;
mod hosting;
mod hub;
mod limits;
mod listen;
mod live;
mod lobby;
pub mod log;
mod messages;
mod origin;
mod outbox;
mod pool;
mod replay;
mod reply;
mod request;
mod routes;
mod server;
mod shown;
mod socket;
mod store;
mod tokens;
mod wall;
mod wording;
mod ws;

pub use config::{BOT_PACE_MS, Config};
pub use server::{Server, serve, start};
pub use store::{Place, connect_postgres, scratch_schema};

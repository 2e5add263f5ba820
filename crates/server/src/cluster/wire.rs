//! What nodes say to each other over the bus: each node listens on
//! subjects of its own (`umpire.node.ID.…`); a relayed connection's frames
//! come back on a subject of that connection alone, so no message for one
//! viewer travels where another viewer's connection reads.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The subject where node `node` takes asks (request and reply).
pub fn asks(node: &str) -> String {
    format!("umpire.node.{node}.ask")
}

/// The subject where node `node` takes relayed clients' messages (no
/// reply: their order is kept, one publisher to one subscriber).
pub fn sends(node: &str) -> String {
    format!("umpire.node.{node}.send")
}

/// Every node answers the lobby's question here.
pub const LOBBY: &str = "umpire.lobby";

/// A header that ends a relayed connection (after the frames before it).
pub const CLOSE: &str = "Umpire-Close";

/// One node's question to the node that runs a match.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "ask", rename_all = "lowercase")]
pub enum Ask {
    /// `GET /api/matches/{id}` for the holder of `token`.
    Snapshot { id: String, token: Option<String> },
    /// `GET /api/matches/{id}/record`.
    Record { id: String, token: Option<String> },
    /// `GET /api/matches/{id}/words`, or with `console` (the umpire's
    /// token) `GET /api/matches/{id}/console`.
    Words {
        id: String,
        token: Option<String>,
        console: bool,
    },
    /// `POST /api/matches/{id}/claim`.
    Claim {
        id: String,
        code: String,
        mine: Vec<String>,
    },
    /// A client of the asking node connects to match `id`; its frames go to
    /// `reply`. The answer is its connection number.
    Join {
        id: String,
        token: Option<String>,
        reply: String,
    },
    /// The asking node still holds these relayed connections.
    Keep { conns: Vec<u64> },
    /// `POST /api/matches` from `from`, placed on this node (the asking
    /// node is full).
    Create { body: String, from: String },
}

/// A relayed client's message, or its leaving.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Send {
    Text { conn: u64, text: String },
    Leave { conn: u64 },
}

/// The answer to an [`Ask`]: an HTTP status and a JSON body (errors as
/// `{"error": …}`, as the API's own; a refused join adds its `rule`).
#[derive(Debug, Serialize, Deserialize)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Answer {
    pub fn ok(body: Value) -> Answer {
        Answer { status: 200, body }
    }

    pub fn error(status: u16, words: &str) -> Answer {
        Answer {
            status,
            body: serde_json::json!({ "error": words }),
        }
    }
}

//! The server's settings (`umpire serve`'s flags).

use std::path::PathBuf;

use umpire_core::{Bot, BotInfo, Level};

use crate::store::Place;

/// Server settings. The defaults are the documented ones.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where matches are kept: a SQLite file (the default, `umpire.db`), or
    /// a PostgreSQL database.
    pub store: Place,
    /// Lag allowance: a seat is flagged only this long after its time is
    /// out, so the network never costs a game. Time inside it is not charged.
    pub lag_ms: u64,
    /// How long a person must be away before the opponent may hand the seat
    /// to a bot (when the match allows it).
    pub grace_ms: u64,
    /// A bot's time per move; past it, the seat plays a random legal action.
    /// A bot never thinks past its seat's clock either (less the lag
    /// allowance and a margin).
    pub bot_budget_ms: u64,
    /// Whether players may pick the expert level (the search on every core,
    /// 2 s a move); a busy server turns it off (`--no-expert-bots`).
    pub expert_bots: bool,
    /// Threads bots think on, below the server's priority; however many
    /// bots play, they share these ([`pool`]).
    pub bot_threads: usize,
    /// Threads that judge actions the games call costly (and half as many,
    /// below the server's priority, that judge checks) ([`pool`]).
    pub judge_threads: usize,
    /// In a match between two bots, the pause before each move, so that
    /// spectators can follow it.
    pub bot_pace_ms: u64,
    /// Match milliseconds per real millisecond: 1 in service; tests raise it
    /// to see clocks run out in a blink.
    pub speed: u64,
    /// Spectators one match admits at most. Seat holders and the umpire
    /// are counted apart and always get in.
    pub max_spectators: usize,
    /// Serve the test games too (`umpire_catalog::with_tests`), for tests
    /// of the server and the browser client.
    pub test_games: bool,
    /// Matches one address may create a minute (and at once); 0: no limit.
    pub creates_per_minute: u32,
    /// WebSocket connections one address may open a minute; 0: no limit.
    pub connects_per_minute: u32,
    /// Replays one address may ask for a minute (and at once); 0: no limit.
    pub replays_per_minute: u32,
    /// A reverse proxy in front of the server: requests from it are
    /// counted against the address it names in `X-Forwarded-For`.
    pub trusted_proxy: Option<std::net::IpAddr>,
    /// The bus of a service of several nodes (`nats://HOST:PORT`); they
    /// share the store, which must then be PostgreSQL. `None`: a lone node.
    pub bus: Option<String>,
    /// This node's name in the service (`--node`).
    pub node: String,
    /// Origins (`https://host:port`) besides the server's own whose pages
    /// may create matches and open sockets (a page served elsewhere).
    pub origins: Vec<String>,
    /// Live matches at most; past it creating one is refused (`503`).
    pub max_live: usize,
    /// Live matches one address may have created at once (0: no cap).
    pub matches_per_address: usize,
    /// Of those, matches between two bots at once (0: no cap): they think
    /// on the threads every bot shares.
    pub bot_matches_per_address: usize,
    /// Connections one address keeps open at most, WebSockets included
    /// (0: no cap); lowered to an eighth of what the open-file limit leaves.
    pub conns_per_address: usize,
    /// How long the lobby's sorted lists are served before they are sorted
    /// again, so many lobbies polling cost what one does.
    pub lobby_fresh_ms: u64,
    /// A match in which nobody acted this long after its creation, its
    /// seats not both taken (or, untimed, taken and left untouched), is
    /// called off: nobody loses, it leaves the lobby.
    pub abandon_ms: u64,
    /// An untimed match in which nobody moved this long (while the server
    /// runs) is called off the same way; 0 for never.
    pub untimed_idle_ms: u64,
}

impl Config {
    /// Whether players may pick `bot` on this server.
    pub fn offers(&self, bot: &BotInfo) -> bool {
        self.offers_level(bot.level)
    }

    fn offers_level(&self, level: Level) -> bool {
        self.expert_bots || level < Level::Expert
    }

    /// A new bot for game `id`, by name or level, as players may pick them
    /// on this server.
    pub fn make_bot(&self, id: &str, name: &str) -> Result<Box<dyn Bot>, String> {
        let level = umpire_catalog::level_of(id, name);
        if level.is_some_and(|level| !self.offers_level(level)) {
            return Err(format!(
                "`{name}`: the expert bots are turned off on this server; the hard level is the strongest here"
            ));
        }
        umpire_catalog::make_bot(id, name)
    }

    /// The games this server serves.
    pub fn games(&self) -> &'static [&'static dyn umpire_core::AnyGame] {
        if self.test_games {
            umpire_catalog::with_tests()
        } else {
            umpire_catalog::games()
        }
    }
}

/// The default pause before each move of a match between two bots, in ms.
pub const BOT_PACE_MS: u64 = 700;

impl Default for Config {
    fn default() -> Config {
        Config {
            store: Place::Sqlite(PathBuf::from("umpire.db")),
            lag_ms: 1_500,
            grace_ms: 60_000,
            bot_budget_ms: 2_000,
            expert_bots: true,
            bot_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            judge_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            bot_pace_ms: BOT_PACE_MS,
            speed: 1,
            max_spectators: 1_000,
            test_games: false,
            creates_per_minute: 30,
            connects_per_minute: 600,
            replays_per_minute: 30,
            trusted_proxy: None,
            origins: Vec::new(),
            bus: None,
            node: "umpire".into(),
            max_live: 20_000,
            matches_per_address: 100,
            bot_matches_per_address: 4,
            conns_per_address: 256,
            lobby_fresh_ms: 1_000,
            abandon_ms: 30 * 60_000,
            untimed_idle_ms: 24 * 3_600_000,
        }
    }
}

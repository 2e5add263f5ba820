//! One live match: a task that owns the [`Match`] and is the only code that
//! changes it. Commands arrive on a channel, so matches never wait for each
//! other; a timer wakes the task at the next clock deadline, so timeouts act
//! by themselves; bots think on blocking threads and send their move back.
//!
//! The task's jobs, one module each: [`actor`] runs the loop and handles
//! commands, [`watchers`] keeps the connected clients and sends them their
//! messages, [`presence`] keeps who sits where (connections, the lobby's
//! summary, handing an absent seat to a bot), [`bots`] drives bot seats,
//! [`commit`] makes applied entries durable before anyone hears of them,
//! [`talk`] keeps the chat and [`journal`] the match log.

mod actor;
mod bots;
mod commit;
mod handle;
mod host;
mod info;
mod journal;
mod parts;
mod presence;
mod rematch;
mod talk;
#[cfg(test)]
mod tests;
mod watchers;

pub use actor::spawn;
pub use handle::{Cmd, Handle, Registry, Start};
pub use info::Info;

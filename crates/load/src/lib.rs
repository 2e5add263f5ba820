//! Tools that drive a running `umpire serve` from outside, as its clients
//! do: the load test (`umpire loadtest`), the protocol client it plays
//! with, and a server started as a child process. The CLI runs the load
//! test; the server's and the CLI's tests use the client and the child.

pub mod client;
pub mod loadtest;
mod player;
mod procfs;
mod report;
pub mod served;
mod tally;

pub use report::{Latency, Report};

//! `umpire`: the command line of the umpire system.

mod arena;
mod elo;
mod markdown;
mod play;
mod replay;
mod serve;
mod statement;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The server spends much of a move allocating small strings and buffers;
/// mimalloc does that for a fraction of glibc's cost (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "umpire",
    version,
    about = "Umpire for two-player Death Match board games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games (id and name).
    Games,
    /// Print a game's rules and notation (formatted on a terminal,
    /// Markdown when piped or with --markdown).
    Rules {
        /// Game id, e.g. masked-army.
        game: String,
        /// Print the Markdown source.
        #[arg(long)]
        markdown: bool,
    },
    /// Play a game in the terminal against a bot.
    Play(play::Args),
    /// Play bots against each other and report their results.
    Arena(arena::Args),
    /// Check a match record and print the final board, outcome and reason.
    Replay(replay::Args),
    /// Run the game server (HTTP + WebSocket, SQLite store).
    Serve(serve::ServeArgs),
    /// Drive N concurrent matches over WebSocket against a server on this machine.
    Loadtest(serve::LoadArgs),
    /// Four Statements for hosts: judge a statement, or deduce from a
    /// seat's knowledge.
    Statement(statement::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        // Its own exit codes: 0 valid, 1 invalid, 2 unparsable.
        Command::Statement(args) => return statement::run(args),
        Command::Games => {
            for game in umpire_catalog::games() {
                println!("{:<16} {}", game.id(), game.name());
            }
            Ok(())
        }
        Command::Rules { game, markdown } => umpire_catalog::require(&game).map(|g| {
            use std::io::IsTerminal;
            if markdown || !std::io::stdout().is_terminal() {
                print!("{}", g.rules());
            } else {
                print!("{}", markdown::render(g.rules(), true));
            }
        }),
        Command::Play(args) => play::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Serve(args) => serve::serve(args),
        Command::Loadtest(args) => serve::loadtest(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

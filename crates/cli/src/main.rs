//! `umpire`: the command line of the umpire system.

mod arena;
mod elo;
mod error;
mod markdown;
mod play;
mod replay;
mod serve;
mod statement;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{ColorChoice, Parser, Subcommand};

use error::Error;

/// The server spends much of a move allocating small strings and buffers;
/// mimalloc does that for a fraction of glibc's cost (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "umpire",
    version,
    about = "Umpire for two-player Death Match board games",
    disable_help_subcommand = true,
    after_help = error::EXIT_CODES
)]
struct Cli {
    /// Colours and styles on a terminal: auto (unless NO_COLOR is set),
    /// always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games (id and name) and the bots that play each.
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
    /// Print the help of umpire, or of a command (`umpire help play`).
    Help {
        /// The command, and its subcommand if it has one.
        command: Vec<String>,
    },
}

/// Whether to style what goes to standard output: `--color`, else a
/// terminal without `NO_COLOR` set to a non-empty value (no-color.org).
fn styled(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// Each game, its name and the bots that play it.
fn games() {
    let games = umpire_catalog::games();
    let width = games.iter().map(|g| g.name().chars().count()).max();
    for game in games {
        let bots: Vec<&str> = umpire_bots::for_game(game.id())
            .iter()
            .map(|b| b.name)
            .collect();
        println!(
            "{:<16} {:<width$}  bots: {}",
            game.id(),
            game.name(),
            bots.join(", "),
            width = width.unwrap_or(0)
        );
    }
    println!(
        "\nA bot is named, or chosen by level: easy, medium, hard (`--bot hard`); \
         search takes a budget, e.g. search@500ms or search:2000."
    );
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let styled = styled(cli.color);
    let result = match cli.command {
        // Its own exit codes: 0 valid, 1 invalid, 2 unparsable.
        Command::Statement(args) => return statement::run(args),
        Command::Help { command } => {
            // The command's own `--help`, exactly as `umpire COMMAND --help`.
            let words = ["umpire".to_string()].into_iter().chain(command);
            Cli::parse_from(words.chain(["--help".to_string()]));
            Ok(())
        }
        Command::Games => {
            games();
            Ok(())
        }
        Command::Rules { game, markdown } => umpire_catalog::require(&game)
            .map(|g| {
                if markdown || !std::io::stdout().is_terminal() {
                    print!("{}", g.rules());
                } else {
                    print!("{}", markdown::render(g.rules(), styled));
                }
            })
            .map_err(Error::from),
        Command::Play(args) => play::run(args, styled),
        Command::Arena(args) => arena::run(args).map_err(Error::from),
        Command::Replay(args) => replay::run(args),
        Command::Serve(args) => serve::serve(args).map_err(Error::from),
        Command::Loadtest(args) => serve::loadtest(args).map_err(Error::from),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => error.report(),
    }
}

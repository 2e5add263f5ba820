//! `umpire`: the command line of the umpire system.

mod arena;
mod elo;
mod error;
mod markdown;
mod play;
mod replay;
mod serve;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{ColorChoice, CommandFactory, FromArgMatches, Parser, Subcommand};
use umpire_core::AnyGame;

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
    /// Know the test games too (for tests of umpire itself).
    #[arg(long, global = true, hide = true)]
    test_games: bool,
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
        /// Game id (`umpire games` lists them).
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
fn list(games: &[&'static dyn AnyGame]) {
    let width = games.iter().map(|g| g.name().chars().count()).max();
    for game in games {
        let bots: Vec<&str> = umpire_catalog::bots(game.id())
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

/// The games this run knows: the catalogue's, with `--test-games` the test
/// games too.
fn known(test_games: bool) -> &'static [&'static dyn AnyGame] {
    if test_games {
        umpire_catalog::with_tests()
    } else {
        umpire_catalog::games()
    }
}

/// The words after `umpire` name a test game's command only with
/// `--test-games` (anywhere among them).
fn with_test_games() -> bool {
    std::env::args().any(|a| a == "--test-games")
}

/// The commands the games add, each with its help line; their arguments
/// are the game's to read, `--help` among them.
fn game_commands(test_games: bool) -> impl Iterator<Item = &'static umpire_core::Command> {
    let registrations = if test_games {
        umpire_catalog::registrations_with_tests()
    } else {
        umpire_catalog::registrations()
    };
    registrations.iter().flat_map(|r| r.commands)
}

/// umpire's command line: its own commands, then the games'.
fn command_line(test_games: bool) -> clap::Command {
    game_commands(test_games).fold(Cli::command(), |cli, c| {
        let args = clap::Arg::new("args")
            .num_args(0..)
            .trailing_var_arg(true)
            .allow_hyphen_values(true);
        cli.subcommand(
            clap::Command::new(c.name)
                .about(c.about)
                .disable_help_flag(true)
                .arg(args),
        )
    })
}

/// Runs a game's command with the words after its name.
fn run_game_command(command: &umpire_core::Command, args: &[String]) -> ExitCode {
    let status = (command.run)(args, &mut std::io::stdout(), &mut std::io::stderr());
    ExitCode::from(status)
}

fn main() -> ExitCode {
    let test_games = with_test_games();
    let matches = command_line(test_games).get_matches();
    if let Some((name, sub)) = matches.subcommand()
        && let Some(command) = game_commands(test_games).find(|c| c.name == name)
    {
        let args: Vec<String> = sub
            .get_many::<String>("args")
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        return run_game_command(command, &args);
    }
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let styled = styled(cli.color);
    let games = known(cli.test_games);
    let result = match cli.command {
        Command::Help { command } => {
            // The command's own `--help`, exactly as `umpire COMMAND --help`.
            if let Some(game_command) = command
                .first()
                .and_then(|name| game_commands(test_games).find(|c| c.name == name))
            {
                return run_game_command(game_command, &["--help".to_string()]);
            }
            let words = ["umpire".to_string()].into_iter().chain(command);
            command_line(test_games).get_matches_from(words.chain(["--help".to_string()]));
            Ok(())
        }
        Command::Games => {
            list(games);
            Ok(())
        }
        Command::Rules { game, markdown } => umpire_catalog::require_in(games, &game)
            .map(|g| {
                if markdown || !std::io::stdout().is_terminal() {
                    print!("{}", g.rules());
                } else {
                    print!("{}", markdown::render(g.rules(), styled));
                }
            })
            .map_err(Error::from),
        Command::Play(args) => play::run(args, styled, games),
        Command::Arena(args) => arena::run(args, games).map_err(Error::from),
        Command::Replay(args) => replay::run(args, games),
        Command::Serve(args) => serve::serve(args, cli.test_games).map_err(Error::from),
        Command::Loadtest(args) => serve::loadtest(args, games).map_err(Error::from),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => error.report(),
    }
}

//! `umpire play GAME`: a person at the terminal against a bot.

use std::io::{BufRead, IsTerminal, Write};

use umpire_core::{Match, Seat, SeatView, Viewer, seeded_rng};

#[derive(clap::Args)]
pub struct Args {
    /// Game id, e.g. masked-army.
    game: String,
    /// The bot to play against (name or level).
    #[arg(long, default_value = "random")]
    bot: String,
    /// The match seed (random elements, bot choices).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Your seat.
    #[arg(long, default_value = "P1")]
    seat: Seat,
    /// Match config as JSON, e.g. '{"advantage":"P2"}'.
    #[arg(long, default_value = "{}")]
    config: String,
}

pub fn run(args: Args) -> Result<(), String> {
    let game = umpire_catalog::require(&args.game)?;
    let config =
        serde_json::from_str(&args.config).map_err(|e| format!("--config is not JSON: {e}"))?;
    let mut game_match =
        Match::new(game, &config, args.seed, false, None).map_err(|e| e.to_string())?;
    let mut bot = umpire_bots::make(game.id(), &args.bot)?;
    let mut rng = seeded_rng(args.seed);
    let (me, them) = (args.seat, args.seat.other());
    let colour = std::io::stdout().is_terminal();
    let mut lines = std::io::stdin().lock().lines();
    println!(
        "{} — you are {me}, {} is {them}. Type a move, `resign`, or `help`.",
        game.name(),
        args.bot
    );
    while !game_match.is_over() {
        bot.observe(SeatView::new(game_match.state(), them));
        let seats = game_match.decision().seats;
        if seats.contains(them) {
            let action = bot
                .choose(SeatView::new(game_match.state(), them), &mut rng)
                .ok_or("the bot found no legal action")?;
            game_match
                .submit(them, &action, 0)
                .map_err(|e| format!("the bot's move was refused: {e}"))?;
            println!("{them} has moved.");
            continue;
        }
        print!("\n{}{me}> ", game_match.render(Viewer::Seat(me), colour));
        std::io::stdout().flush().ok();
        let Some(line) = lines.next() else {
            return Err("input ended before the match did".into());
        };
        let line = line.map_err(|e| e.to_string())?;
        match line.trim() {
            "" => {}
            "help" => print!("{}", game.rules()),
            text => {
                if let Err(e) = game_match.submit(me, text, 0) {
                    println!("Not accepted: {}", e.message);
                }
            }
        }
    }
    print!("\n{}", game_match.render(Viewer::Umpire, colour));
    if let Some(outcome) = game_match.outcome() {
        println!("{}", outcome.reason);
    }
    Ok(())
}

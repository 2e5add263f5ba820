//! `umpire play GAME`: a person at the terminal against a bot.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

use umpire_bots::Think;
use umpire_core::{Match, MatchOptions, Seat, Viewer, seeded_rng};

use crate::markdown;

#[derive(clap::Args)]
pub struct Args {
    /// Game id, e.g. masked-army.
    game: String,
    /// The bot to play against (name or level: easy, medium, hard).
    #[arg(long, default_value = "random")]
    bot: String,
    /// The match seed (random elements, bot choices); a fresh one when not given.
    #[arg(long)]
    seed: Option<u64>,
    /// Your seat.
    #[arg(long, default_value = "P1")]
    seat: Seat,
    /// Match config as JSON, e.g. '{"advantage":"P2"}'.
    #[arg(long, default_value = "{}")]
    config: String,
    /// Run the game's clocks (real time); untimed otherwise.
    #[arg(long)]
    timed: bool,
    /// Save the match record here (the format `umpire replay` and the server use).
    #[arg(long)]
    record: Option<std::path::PathBuf>,
}

/// A match at the terminal: the match, the person's seat, and the clock.
struct Table {
    m: Match,
    me: Seat,
    started: Instant,
    colour: bool,
}

impl Table {
    /// Match time now (0 in an untimed match, whose clocks never run).
    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Applies timeouts due by now and says what they did.
    fn advance(&mut self) {
        let now = self.now();
        for entry in self.m.advance(now) {
            let effect = entry.effect.unwrap_or_default();
            println!("{} ran out of time: {effect}.", entry.seat);
        }
    }

    /// Plays `text` for `seat`, then says what happened as the person sees it.
    fn submit(&mut self, seat: Seat, text: &str) -> Result<(), String> {
        self.advance();
        let now = self.now();
        self.m.submit(seat, text, now).map_err(|e| e.to_string())?;
        match self.m.last_event(Viewer::Seat(self.me)) {
            Some(event) => println!("{event}."),
            None => println!("{seat} has moved."),
        }
        Ok(())
    }

    fn clock_line(&self) -> String {
        let Some(clocks) = self.m.clocks(Viewer::Seat(self.me), self.now()) else {
            return String::new();
        };
        let mine = clocks[self.me];
        let secs = |ms: u64| format!("{}:{:02}", ms / 60_000, ms / 1000 % 60);
        format!(
            "[your time {} + bank {}{}] ",
            secs(mine.turn_ms),
            secs(mine.bank_ms),
            if mine.periods > 0 {
                format!(" + {} × {}", mine.periods, secs(mine.period_ms))
            } else {
                String::new()
            }
        )
    }
}

pub fn run(args: Args) -> Result<(), String> {
    let game = umpire_catalog::require(&args.game)?;
    let config =
        serde_json::from_str(&args.config).map_err(|e| format!("--config is not JSON: {e}"))?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let options = if args.timed {
        MatchOptions::default()
    } else {
        MatchOptions::untimed()
    };
    let m = Match::new(game, &config, seed, options).map_err(|e| e.to_string())?;
    let mut bot = umpire_bots::make(game.id(), &args.bot)?;
    let mut rng = seeded_rng(seed);
    let (me, them) = (args.seat, args.seat.other());
    let mut table = Table {
        m,
        me,
        started: Instant::now(),
        colour: std::io::stdout().is_terminal(),
    };
    let mut lines = std::io::stdin().lock().lines();
    println!(
        "{} — you are {me}, bot {} is {them}.",
        game.name(),
        args.bot
    );
    println!(
        "Seed {seed} (`--seed {seed}` plays this match again). {}",
        if args.timed {
            "Timed: the game's clocks run."
        } else {
            "Untimed (`--timed` runs the clocks)."
        }
    );
    println!("Type a move, or `help`, `rules`, `resign`.");
    while !table.m.is_over() {
        bot.observe(table.m.seat_view(them));
        if table.m.decision().seats().contains(them) {
            let action = bot
                .choose(table.m.seat_view(them), &Think::unlimited(), &mut rng)
                .ok_or("the bot found no legal action")?;
            table
                .submit(them, &action)
                .map_err(|e| format!("the bot's move was refused: {e}"))?;
            continue;
        }
        print!(
            "\n{}{}{me}> ",
            table.m.render(Viewer::Seat(me), table.colour),
            table.clock_line()
        );
        std::io::stdout().flush().ok();
        let Some(line) = lines.next() else {
            save(&table.m, args.record.as_deref())?;
            return Err("input ended before the match did".into());
        };
        let line = line.map_err(|e| e.to_string())?;
        match line.trim() {
            "" => {}
            "help" => print!("\n{}", help(game.rules(), table.colour)),
            "rules" => print!("\n{}", markdown::render(game.rules(), table.colour)),
            text => {
                if let Err(e) = table.submit(me, text) {
                    println!("Not accepted: {e}");
                }
            }
        }
    }
    print!("\n{}", table.m.render(Viewer::Umpire, table.colour));
    if let Some(outcome) = table.m.outcome() {
        let verdict = match outcome.winner {
            Some(w) if w == me => "You win",
            Some(_) => "You lose",
            None => "A draw",
        };
        println!(
            "{verdict} (decided by {}): {}",
            outcome.decided_by, outcome.reason
        );
    }
    save(&table.m, args.record.as_deref())
}

/// The commands and the game's notation.
fn help(rules: &str, styled: bool) -> String {
    let notation = markdown::section(rules, "Notation").unwrap_or("");
    let text = format!(
        "Commands: a move in the notation below, `resign` (you lose at once), \
         `rules` (the whole rules), `help` (this).\n\n{notation}"
    );
    markdown::render(&text, styled)
}

/// Writes the match record to `path`, if one was asked for.
fn save(m: &Match, path: Option<&Path>) -> Result<(), String> {
    let Some(path) = path else {
        return Ok(());
    };
    let text = serde_json::to_string_pretty(m.record()).expect("records serialise");
    std::fs::write(path, text + "\n")
        .map_err(|e| format!("cannot write the record to {}: {e}", path.display()))?;
    println!(
        "Record saved to {0} (check it with `umpire replay {0}`).",
        path.display()
    );
    Ok(())
}

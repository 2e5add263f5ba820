//! `umpire replay FILE`: check a record action by action.

use std::path::PathBuf;

use umpire_core::{Match, Record, Viewer};

#[derive(clap::Args)]
pub struct Args {
    /// A match record (JSON).
    file: PathBuf,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let record: Record = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a match record: {e}", args.file.display()))?;
    let game = umpire_catalog::require(&record.game)?;
    let played = Match::replay(game, &record).map_err(|e| e.to_string())?;
    let outcome = played.outcome();
    if args.json {
        let result = serde_json::json!({
            "game": record.game,
            "actions": record.actions.len(),
            "over": played.is_over(),
            "winner": outcome.as_ref().and_then(|o| o.winner),
            "scores": outcome.as_ref().map(|o| &o.scores),
            "decided_by": outcome.as_ref().map(|o| &o.decided_by),
            "reason": outcome.as_ref().map(|o| &o.reason),
        });
        println!("{result}");
        return Ok(());
    }
    print!("{}", played.render(Viewer::Umpire, false));
    println!("{} actions, all legal.", record.actions.len());
    match outcome {
        Some(o) => println!("{}", o.reason),
        None => println!(
            "The match is not over: waiting for {}.",
            played.decision().seats
        ),
    }
    Ok(())
}

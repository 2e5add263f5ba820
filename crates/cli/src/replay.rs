//! `umpire replay FILE`: check a record action by action, and its outcome.

use std::io::Read;
use std::path::PathBuf;

use umpire_core::{Match, Record, Viewer};

#[derive(clap::Args)]
pub struct Args {
    /// A match record (JSON), or `-` for standard input.
    file: PathBuf,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), String> {
    check(args).map_err(|e| printable(&e))
}

/// `text` with every control character but the line break escaped
/// (`\u{1b}`), so a record cannot drive the terminal it is printed on.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Compact JSON with the control characters serde_json leaves raw (DEL and
/// the C1 controls, which a terminal obeys) escaped as JSON escapes.
fn json_printable(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn check(args: Args) -> Result<(), String> {
    let (text, name) = if args.file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        (text, "standard input".to_string())
    } else {
        let text = std::fs::read_to_string(&args.file)
            .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
        (text, args.file.display().to_string())
    };
    // A byte-order mark some editors write is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let record: Record =
        serde_json::from_str(text).map_err(|e| format!("{name} is not a match record: {e}"))?;
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
        println!("{}", json_printable(&result.to_string()));
        return Ok(());
    }
    print!("{}", printable(&played.render(Viewer::Umpire, false)));
    println!("{} actions, all legal.", record.actions.len());
    match outcome {
        Some(o) => println!("{}", printable(&o.reason)),
        None => println!(
            "The match is not over: waiting for {}.",
            played.decision().seats()
        ),
    }
    Ok(())
}

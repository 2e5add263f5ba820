//! `umpire replay FILE`: check a record action by action, and its outcome.

use std::io::Read;
use std::path::PathBuf;

use umpire_core::{AnyGame, Match, Record, Viewer};

use crate::error::Error;

#[derive(clap::Args)]
pub struct Args {
    /// A match record (JSON), or `-` for standard input.
    file: PathBuf,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, games: &[&'static dyn AnyGame]) -> Result<(), Error> {
    check(args, games).map_err(|mut e| {
        e.message = printable(&e.message);
        e
    })
}

/// The key `umpire play` adds to a record it saves before the match's end,
/// with why it stopped ("P1 quit"); other readers ignore it.
pub const UNFINISHED: &str = "unfinished";

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

fn check(args: Args, games: &[&'static dyn AnyGame]) -> Result<(), Error> {
    let (text, name) = if args.file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Error::file(format!("cannot read standard input: {e}")))?;
        (text, "standard input".to_string())
    } else {
        let text = std::fs::read_to_string(&args.file)
            .map_err(|e| Error::file(format!("cannot read {}: {e}", args.file.display())))?;
        (text, args.file.display().to_string())
    };
    // A byte-order mark some editors write is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let not_a_record = |e: serde_json::Error| format!("{name} is not a match record: {e}");
    let json: serde_json::Value = serde_json::from_str(text).map_err(not_a_record)?;
    let unfinished = json
        .get(UNFINISHED)
        .and_then(|v| v.as_str())
        .map(str::to_owned);
    let record: Record = serde_json::from_value(json).map_err(not_a_record)?;
    let game = umpire_catalog::require_in(games, &record.game)?;
    let played = Match::replay(game, &record).map_err(|e| e.to_string())?;
    let outcome = played.outcome();
    if let (Some(why), Some(o)) = (&unfinished, &outcome) {
        return Err(format!(
            "the record says the match was left unfinished ({why}), but its actions reach the end: {}",
            o.reason
        )
        .into());
    }
    if args.json {
        let result = serde_json::json!({
            "game": record.game,
            "actions": record.actions.len(),
            "over": played.is_over(),
            "winner": outcome.as_ref().and_then(|o| o.winner),
            "scores": outcome.as_ref().map(|o| &o.scores),
            "decided_by": outcome.as_ref().map(|o| &o.decided_by),
            "reason": outcome.as_ref().map(|o| &o.reason),
            "unfinished": unfinished,
        });
        println!("{}", json_printable(&result.to_string()));
        return Ok(());
    }
    if let Some(players) = players_line(&record) {
        println!("{}", printable(&players));
    }
    let named = |text: &str| printable(&played.named(text));
    print!("{}", named(&played.render(Viewer::Umpire, false)));
    let by_host = record.actions.iter().filter(|e| e.by.is_some()).count();
    match by_host {
        0 => println!("{} actions, all legal.", record.actions.len()),
        n => println!(
            "{} actions, all legal ({n} made by the host: entered for a player, or the umpire's rulings).",
            record.actions.len()
        ),
    }
    match outcome {
        Some(o) => {
            let head = match o.winner {
                Some(w) => format!("{w} wins"),
                None => "A draw".into(),
            };
            println!(
                "{}",
                named(&format!(
                    "{head} (decided by {}): {}",
                    o.decided_by, o.reason
                ))
            );
        }
        None => {
            if let Some(why) = &unfinished {
                println!("Left unfinished: {}.", printable(why));
            }
            println!(
                "{}",
                named(&format!(
                    "The match is not over: waiting for {}.",
                    played.decision().seats()
                ))
            )
        }
    }
    Ok(())
}

/// "Ada (P1) against Bo (P2), run by a host.": who played, when the record
/// names anyone or had a host.
fn players_line(record: &Record) -> Option<String> {
    let named = record.seats != Default::default();
    if !named && !record.host {
        return None;
    }
    let who = |seat: umpire_core::Seat| match &record.seats[seat].name {
        Some(name) => format!("{name} ({seat})"),
        None => seat.to_string(),
    };
    let host = if record.host { ", run by a host" } else { "" };
    Some(format!(
        "{} against {}{host}.",
        who(umpire_core::Seat::P1),
        who(umpire_core::Seat::P2)
    ))
}

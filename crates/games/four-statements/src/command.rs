//! `umpire statement`, the command this game adds to `umpire`: the judge
//! for hosts who run the game in a chat room. `check` prints the verdict on
//! a statement ([`crate::host`]); `deduce` counts the grids a seat's
//! knowledge still allows. The knowledge file's format: `docs/statements.md`.

use std::io::Write;
use std::path::PathBuf;

use clap::Parser;
use serde::Serialize;

use crate::deduce;
use crate::grid::{CELLS, CellSet, Colour, Grid, cell};
use crate::host::{Ask, Kind, Verdict, verdict};
use crate::knowledge::Written;

/// Exit codes of `check`: clap's usage errors are 2.
const INVALID: u8 = 1;
const USAGE: u8 = 2;
const UNPARSABLE: u8 = 3;

/// Four Statements for hosts: judge a statement, or deduce from a seat's
/// knowledge.
#[derive(Parser)]
#[command(name = "statement", bin_name = "umpire statement")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Judge a statement about a subset as a match does: the subset rules
    /// (unless --no-limit), what the statement says ("You are saying: …"),
    /// its words, whether it is valid and which rule it breaks, and with
    /// --layout its truth.
    ///
    /// Exit status: 0 valid; 1 invalid (the subset or the statement breaks
    /// a rule, named in the output); 3 not a statement umpire can read;
    /// 2 a usage error (a bad --subset, --previous or --layout).
    Check {
        /// The subset, like "A1 B1 A2 B2".
        #[arg(long)]
        subset: String,
        /// The seat's subset of the round before, for the overlap rule.
        #[arg(long)]
        previous: Option<String>,
        /// No Limit: the subset rules do not apply.
        #[arg(long)]
        no_limit: bool,
        /// The grid, 16 letters of R B G Y read A1…D1, A2…D4.
        #[arg(long)]
        layout: Option<String>,
        /// Print one JSON object: valid, kind, rule, reason, reading, words,
        /// readings, suggestion, truth.
        #[arg(long)]
        json: bool,
        /// The statement, e.g. "There are two red tiles."
        statement: String,
    },
    /// Count the grids a seat's knowledge still allows, and each tile's
    /// chance of each colour.
    ///
    /// The knowledge is a JSON file (or - for standard input) of the tiles
    /// the seat knows, its own statements with the truth it was told, its
    /// claims on the opponent's statements with how many were right (and a
    /// Detective answer), and its wrong guesses. The format, with an
    /// example: docs/statements.md. Exit status: 0, or 2 when the file
    /// cannot be read or is not valid knowledge.
    Deduce {
        /// The knowledge file, or - for standard input.
        file: PathBuf,
        /// Print one JSON object: possible (grids left) and cells (each
        /// tile's chance of red, blue, green and yellow).
        #[arg(long)]
        json: bool,
    },
}

/// `umpire statement …`: `args` are the words after `statement`.
pub(crate) fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let words = std::iter::once("statement".to_string()).chain(args.iter().cloned());
    let args = match Args::try_parse_from(words) {
        Ok(args) => args,
        Err(e) => {
            // `--help` goes to standard output with status 0, as clap's own.
            let _ = match e.use_stderr() {
                true => write!(err, "{}", e.render()),
                false => write!(out, "{}", e.render()),
            };
            return u8::try_from(e.exit_code()).unwrap_or(USAGE);
        }
    };
    let said = match args.command {
        Command::Check {
            subset,
            previous,
            no_limit,
            layout,
            json,
            statement,
        } => ask(&subset, previous.as_deref(), no_limit, layout.as_deref())
            .map(|ask| check(&verdict(&statement, &ask), json)),
        Command::Deduce { file, json } => deduce(&file, json).map(|text| (text, 0)),
    };
    match said {
        // A reader that went away (`| head`) is no error.
        Ok((text, status)) => {
            let _ = out.write_all(text.as_bytes());
            status
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            USAGE
        }
    }
}

/// The question, from the arguments.
fn ask(
    subset: &str,
    previous: Option<&str>,
    no_limit: bool,
    layout: Option<&str>,
) -> Result<Ask, String> {
    let cells = |flag: &str, text: &str| match CellSet::parse(text) {
        Ok(s) if !s.is_empty() => Ok(s),
        Ok(_) => Err(format!("{flag} names no cell")),
        Err(e) => Err(format!("{flag}: {e}")),
    };
    Ok(Ask {
        subset: cells("--subset", subset)?,
        previous: previous.map(|p| cells("--previous", p)).transpose()?,
        no_limit,
        layout: layout
            .map(Grid::parse)
            .transpose()
            .map_err(|e| format!("--layout: {e}"))?,
    })
}

/// What `check` prints, and its exit status.
fn check(v: &Verdict, json: bool) -> (String, u8) {
    let text = if json {
        format!(
            "{}\n",
            serde_json::to_string(v).expect("verdicts serialise")
        )
    } else {
        words(v)
    };
    let status = match v.kind {
        Kind::Valid => 0,
        Kind::Invalid => INVALID,
        Kind::Unparsable => UNPARSABLE,
    };
    (text, status)
}

/// The verdict in lines a host reads.
fn words(v: &Verdict) -> String {
    let mut out = String::new();
    let why = v.reason.as_deref().unwrap_or("");
    let rule = v.rule.unwrap_or("");
    match v.kind {
        Kind::Valid => out += "valid\n",
        Kind::Invalid => out += &format!("invalid ({rule}): {why}\n"),
        Kind::Unparsable => out += &format!("unparsable: {why}\n"),
    }
    if let Some(r) = &v.reading {
        out += &format!("You are saying: {r}\n");
    }
    for r in &v.readings {
        out += &format!("  it may mean: {r}\n");
    }
    if let Some(s) = &v.suggestion {
        out += &format!("did you mean: {s}\n");
    }
    out += &format!("{} words (at most 15)\n", v.words);
    if let Some(truth) = v.truth {
        out += &format!("truth: {truth}\n");
    }
    out
}

/// What `deduce --json` prints.
#[derive(Serialize)]
struct Deduced {
    possible: u64,
    /// Each cell's chance of red, blue, green and yellow.
    cells: std::collections::BTreeMap<String, std::collections::BTreeMap<&'static str, f64>>,
}

/// What `deduce` prints.
fn deduce(file: &PathBuf, json: bool) -> Result<String, String> {
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read standard input: {e}"))?
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?
    };
    let written: Written =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let knowledge = written.knowledge()?;
    let p = deduce::posterior(&knowledge);
    let chance = |i: usize, c: Colour| p.probability(i, c);
    if json {
        let cells = (0..CELLS)
            .map(|i| {
                let odds = Colour::ALL.map(|c| (c.name(), chance(i, c)));
                (cell(i).to_string(), odds.into_iter().collect())
            })
            .collect();
        let deduced = Deduced {
            possible: p.count,
            cells,
        };
        return Ok(format!(
            "{}\n",
            serde_json::to_string(&deduced).expect("serialises")
        ));
    }
    let mut text = format!(
        "{} grid{} possible\n",
        p.count,
        if p.count == 1 { " is" } else { "s are" }
    );
    if p.count == 0 {
        text += "(the knowledge contradicts itself)\n";
        return Ok(text);
    }
    text += "cell    red   blue  green yellow\n";
    for i in 0..CELLS {
        let odds: Vec<String> = Colour::ALL
            .iter()
            .map(|&c| format!("{:>5.1}%", 100.0 * chance(i, c)))
            .collect();
        text += &format!("{:<4} {}\n", cell(i).to_string(), odds.join(" "));
    }
    if let Some(grid) = p.is_certain() {
        text += &format!("the grid: {grid}\n");
    }
    Ok(text)
}

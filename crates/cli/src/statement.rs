//! `umpire statement`: the Four Statements judge for hosts who run the game
//! in a chat room. `check` says whether a statement is valid for a subset
//! (with the rule it breaks) and, given the grid, whether it is true;
//! `deduce` counts the grids a seat's knowledge still allows.

use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use umpire_four_statements::deduce;
use umpire_four_statements::grid::{CELLS, CellSet, Colour, Grid, cell};
use umpire_four_statements::knowledge::Written;
use umpire_four_statements::statement::{self, Refusal, Statement};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Judge a statement about a subset: valid or not (and why), its
    /// canonical sentence, and with --layout its truth. Exit 0 valid,
    /// 1 invalid, 2 unparsable.
    Check {
        /// The subset, like "A1 B1 A2 B2".
        #[arg(long)]
        subset: String,
        /// The grid, 16 letters of R B G Y read A1…D1, A2…D4.
        #[arg(long)]
        layout: Option<String>,
        /// Print one JSON object: valid, reason, rule, canonical, words, truth.
        #[arg(long)]
        json: bool,
        /// The statement, e.g. "There are two red tiles."
        statement: String,
    },
    /// Count the grids a seat's knowledge (a JSON file, or - for standard
    /// input) still allows, and each cell's chance of each colour.
    Deduce {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

/// What `check --json` prints.
#[derive(Serialize)]
struct Verdict {
    valid: bool,
    reason: Option<String>,
    rule: Option<&'static str>,
    canonical: Option<String>,
    words: Option<usize>,
    truth: Option<bool>,
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        Command::Check {
            subset,
            layout,
            json,
            statement,
        } => check(&subset, layout.as_deref(), json, &statement),
        Command::Deduce { file, json } => match deduce(&file, json) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn check(subset: &str, layout: Option<&str>, json: bool, text: &str) -> ExitCode {
    let fail = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let subset = match CellSet::parse(subset) {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => return fail("--subset names no cell".into()),
        Err(e) => return fail(format!("--subset: {e}")),
    };
    let layout = match layout.map(Grid::parse).transpose() {
        Ok(l) => l,
        Err(e) => return fail(format!("--layout: {e}")),
    };
    let parsed: Result<Statement, Refusal> = text
        .parse::<Statement>()
        .or_else(|_| statement::judge(text, subset));
    let verdict = match &parsed {
        Ok(s) => {
            let invalid = s.check(subset).err();
            Verdict {
                valid: invalid.is_none(),
                reason: invalid.as_ref().map(|e| e.to_string()),
                rule: invalid.as_ref().map(|e| e.rule()),
                canonical: Some(s.to_string()),
                words: Some(s.words()),
                truth: layout.map(|g| s.eval(subset, g)),
            }
        }
        Err(refusal) => Verdict {
            valid: false,
            reason: Some(describe(refusal)),
            rule: Some(refusal.rule()),
            canonical: None,
            words: None,
            truth: None,
        },
    };
    if json {
        println!(
            "{}",
            serde_json::to_string(&verdict).expect("verdicts serialise")
        );
    } else {
        match (&verdict.canonical, verdict.valid) {
            (Some(c), true) => println!("valid: {c} ({} words)", verdict.words.unwrap_or(0)),
            (Some(c), false) => println!(
                "invalid ({}): {}\ncanonical: {c}",
                verdict.rule.unwrap_or(""),
                verdict.reason.as_deref().unwrap_or("")
            ),
            (None, _) => println!(
                "{} ({}): {}",
                if matches!(parsed, Err(Refusal::Unparsable(_))) {
                    "unparsable"
                } else {
                    "invalid"
                },
                verdict.rule.unwrap_or(""),
                verdict.reason.as_deref().unwrap_or("")
            ),
        }
        if let Some(truth) = verdict.truth {
            println!("truth: {truth}");
        }
    }
    match parsed {
        Ok(_) if verdict.valid => ExitCode::SUCCESS,
        Err(Refusal::Unparsable(_)) => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

/// A refusal in words: where the text went wrong, what was expected, and a
/// close form.
fn describe(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Invalid(e) => e.to_string(),
        Refusal::Unparsable(e) => {
            let mut out = e.message().to_string();
            if let Some(at) = e.offset() {
                out += &format!(" (at character {})", at + 1);
            }
            if !e.expectations().is_empty() {
                out += &format!("; expected {}", e.expectations().join(", "));
            }
            if let Some(s) = e.suggestion() {
                out += &format!("; did you mean \"{s}\"?");
            }
            out
        }
    }
}

/// What `deduce --json` prints.
#[derive(Serialize)]
struct Deduced {
    possible: u64,
    /// Each cell's chance of red, blue, green and yellow.
    cells: std::collections::BTreeMap<String, std::collections::BTreeMap<&'static str, f64>>,
}

fn deduce(file: &PathBuf, json: bool) -> Result<(), String> {
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
        let out = Deduced {
            possible: p.count,
            cells,
        };
        println!("{}", serde_json::to_string(&out).expect("serialises"));
        return Ok(());
    }
    println!(
        "{} grid{} possible",
        p.count,
        if p.count == 1 { " is" } else { "s are" }
    );
    if p.count == 0 {
        println!("(the knowledge contradicts itself)");
        return Ok(());
    }
    println!("cell    red   blue  green yellow");
    for i in 0..CELLS {
        let odds: Vec<String> = Colour::ALL
            .iter()
            .map(|&c| format!("{:>5.1}%", 100.0 * chance(i, c)))
            .collect();
        println!("{:<4} {}", cell(i).to_string(), odds.join(" "));
    }
    if let Some(grid) = p.is_certain() {
        println!("the grid: {grid}");
    }
    Ok(())
}

//! `umpire arena GAME --bots A,B --games N`: bots against each other, seats
//! swapped every other game, on all cores.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use umpire_bots::Think;
use umpire_core::{AnyGame, Match, MatchOptions, PerSeat, Seat, Seats, seeded_rng};

#[derive(clap::Args)]
pub struct Args {
    /// Game id, e.g. masked-army.
    game: String,
    /// Two bots, comma-separated (names or levels).
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    bots: Vec<String>,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Match config as JSON. A game with a `max_rounds` option gets 100
    /// rounds unless this says otherwise, so that every game ends.
    #[arg(long, default_value = "{}")]
    config: String,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Save every game's record in this folder, as GAME-SEED.json.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
}

#[derive(Clone, Default, Serialize)]
struct BotResult {
    name: String,
    level: String,
    wins: u64,
    draws: u64,
    losses: u64,
}

#[derive(Serialize)]
struct Report {
    game: String,
    games: u64,
    bots: Vec<BotResult>,
    mean_length: f64,
    seconds: f64,
    games_per_second: f64,
}

/// One game's result: the winner by bot index (None for a draw) and length.
struct GameResult {
    winner: Option<usize>,
    actions: usize,
}

fn play_one(
    game: &'static dyn AnyGame,
    config: &serde_json::Value,
    bots: &[String],
    seed: u64,
    swap: bool,
    records: Option<&std::path::Path>,
) -> Result<GameResult, String> {
    let mut m =
        Match::new(game, config, seed, MatchOptions::untimed()).map_err(|e| e.to_string())?;
    // Bot index per seat: bot 0 is P1 in even games, P2 in odd ones.
    let index = PerSeat::new(usize::from(swap), usize::from(!swap));
    let mut players = PerSeat::new(
        umpire_bots::make(game.id(), &bots[index.p1])?,
        umpire_bots::make(game.id(), &bots[index.p2])?,
    );
    let mut rng = seeded_rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let think = Think::unlimited();
    // When both seats decide at once, which submits first alternates, so
    // neither bot is always the one that answers second.
    let mut both = 0usize;
    while !m.is_over() {
        for seat in Seat::BOTH {
            players[seat].observe(m.seat_view(seat));
        }
        let seat = first_to_submit(m.decision().seats(), &mut both).ok_or("no seat to move")?;
        let action = players[seat]
            .choose(m.seat_view(seat), &think, &mut rng)
            .ok_or_else(|| format!("seed {seed}: bot {} found no action", bots[index[seat]]))?;
        m.submit(seat, &action, 0).map_err(|e| {
            format!(
                "seed {seed}: bot {}'s `{action}` refused: {e}",
                bots[index[seat]]
            )
        })?;
    }
    if let Some(dir) = records {
        let path = dir.join(format!("{}-{seed}.json", game.id()));
        let text = serde_json::to_string_pretty(m.record()).expect("records serialise");
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let winner = m.outcome().and_then(|o| o.winner).map(|s| index[s]);
    Ok(GameResult {
        winner,
        actions: m.record().actions.len(),
    })
}

/// The seat that submits now: the only one to move, or when both are,
/// P1 and P2 in turn (counted by `both`).
fn first_to_submit(seats: Seats, both: &mut usize) -> Option<Seat> {
    if seats == Seats::BOTH {
        *both += 1;
        return Some(if *both % 2 == 1 { Seat::P1 } else { Seat::P2 });
    }
    seats.iter().next()
}

pub fn run(args: Args) -> Result<(), String> {
    let game = umpire_catalog::require(&args.game)?;
    if args.bots.len() != 2 {
        return Err("--bots takes two bots, e.g. --bots greedy,random".into());
    }
    if args.games == 0 {
        return Err("--games 0 plays nothing: give at least 1".into());
    }
    let mut levels = Vec::new();
    for bot in &args.bots {
        umpire_bots::make(game.id(), bot)?;
        levels.push(umpire_bots::level_of(game.id(), bot).unwrap_or("?"));
    }
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
    }
    let config = crate::serve::ending_config(game.id(), &args.config, 100)?;
    let progress = ProgressBar::new(args.games);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .expect("a valid template"),
    );
    let next = AtomicU64::new(0);
    let results = Mutex::new(Vec::new());
    let started = Instant::now();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let result = play_one(
                        game,
                        &config,
                        &args.bots,
                        args.seed.wrapping_add(i),
                        i % 2 == 1,
                        args.records.as_deref(),
                    );
                    let failed = result.is_err();
                    results.lock().expect("no worker panics").push(result);
                    progress.inc(1);
                    if failed {
                        next.store(args.games, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let results: Vec<GameResult> = results
        .into_inner()
        .expect("no worker panics")
        .into_iter()
        .collect::<Result<_, _>>()?;
    let mut bots: Vec<BotResult> = args
        .bots
        .iter()
        .zip(&levels)
        .map(|(name, level)| BotResult {
            name: name.clone(),
            level: level.to_string(),
            ..Default::default()
        })
        .collect();
    for r in &results {
        match r.winner {
            Some(w) => {
                bots[w].wins += 1;
                bots[1 - w].losses += 1;
            }
            None => bots.iter_mut().for_each(|b| b.draws += 1),
        }
    }
    let games = results.len() as u64;
    let report = Report {
        game: game.id().into(),
        games,
        bots,
        mean_length: results.iter().map(|r| r.actions as f64).sum::<f64>() / games.max(1) as f64,
        seconds,
        games_per_second: games as f64 / seconds.max(f64::EPSILON),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialise")
        );
    } else {
        println!(
            "{} games of {} in {:.2} s ({:.0} games/s), mean length {:.1} actions",
            games,
            game.name(),
            seconds,
            report.games_per_second,
            report.mean_length
        );
        for (i, b) in report.bots.iter().enumerate() {
            let seats = if i == 0 {
                "P1 in even games"
            } else {
                "P2 in even games"
            };
            println!(
                "  bot {} {:<20} {:>6} wins {:>6} draws {:>6} losses ({:.1}% wins; {seats})",
                i + 1,
                format!("{} ({})", b.name, b.level),
                b.wins,
                b.draws,
                b.losses,
                100.0 * b.wins as f64 / games.max(1) as f64
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simultaneous_decisions_alternate_who_submits_first() {
        let mut both = 0;
        let order: Vec<Seat> = (0..4)
            .filter_map(|_| first_to_submit(Seats::BOTH, &mut both))
            .collect();
        assert_eq!(order, [Seat::P1, Seat::P2, Seat::P1, Seat::P2]);
        // A lone seat to move is simply that seat, and does not count.
        assert_eq!(
            first_to_submit(Seats::one(Seat::P2), &mut both),
            Some(Seat::P2)
        );
        assert_eq!(both, 4);
    }
}

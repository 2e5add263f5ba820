//! `umpire arena GAME --bots A,B --games N`: bots against each other, seats
//! swapped every other game, on all cores.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use umpire_core::{AnyGame, Match, PerSeat, Seat, SeatView, seeded_rng};

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
    /// Match config as JSON.
    #[arg(long, default_value = "{}")]
    config: String,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Default, Serialize)]
struct BotResult {
    name: String,
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
) -> Result<GameResult, String> {
    let mut m = Match::new(game, config, seed, false, None).map_err(|e| e.to_string())?;
    // Bot index per seat: bot 0 is P1 in even games, P2 in odd ones.
    let index = PerSeat::new(usize::from(swap), usize::from(!swap));
    let mut players = PerSeat::new(
        umpire_bots::make(game.id(), &bots[index.p1])?,
        umpire_bots::make(game.id(), &bots[index.p2])?,
    );
    let mut rng = seeded_rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    while !m.is_over() {
        for seat in Seat::BOTH {
            players[seat].observe(SeatView::new(m.state(), seat));
        }
        let seat = m.decision().seats.iter().next().ok_or("no seat to move")?;
        let action = players[seat]
            .choose(SeatView::new(m.state(), seat), &mut rng)
            .ok_or_else(|| format!("seed {seed}: bot {} found no action", bots[index[seat]]))?;
        m.submit(seat, &action, 0).map_err(|e| {
            format!(
                "seed {seed}: bot {}'s `{action}` refused: {e}",
                bots[index[seat]]
            )
        })?;
    }
    let winner = m.outcome().and_then(|o| o.winner).map(|s| index[s]);
    Ok(GameResult {
        winner,
        actions: m.record().actions.len(),
    })
}

pub fn run(args: Args) -> Result<(), String> {
    let game = umpire_catalog::require(&args.game)?;
    if args.bots.len() != 2 {
        return Err("--bots takes two bots, e.g. --bots greedy,random".into());
    }
    for bot in &args.bots {
        umpire_bots::make(game.id(), bot)?;
    }
    let config =
        serde_json::from_str(&args.config).map_err(|e| format!("--config is not JSON: {e}"))?;
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
        .map(|name| BotResult {
            name: name.clone(),
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
        for b in &report.bots {
            println!(
                "  {:<12} {:>6} wins {:>6} draws {:>6} losses ({:.1}% wins)",
                b.name,
                b.wins,
                b.draws,
                b.losses,
                100.0 * b.wins as f64 / games.max(1) as f64
            );
        }
    }
    Ok(())
}

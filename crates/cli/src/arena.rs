//! `umpire arena GAME --bots A,B,C --games N`: a round robin of bots, every
//! pair playing N games with seats swapped every other game, all pairs'
//! games on one pool of threads, then Elo estimates (see `crate::elo`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use umpire_core::{AnyGame, Match, MatchOptions, PerSeat, Record, Seat, Seats, Think, seeded_rng};

use crate::elo;

#[derive(clap::Args)]
pub struct Args {
    /// Game id (`umpire games` lists them).
    game: String,
    /// Two or more bots, comma-separated (names or levels; `umpire games`
    /// lists each game's bots); every pair plays. A bot named twice is told
    /// apart by its place, e.g. random#3.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    bots: Vec<String>,
    /// How many games each pair plays.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the first game. Pairs go in order (1-2, 1-3, …, 2-3, …);
    /// game i of pair k uses seed + k × games + i, whatever the threads.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Match config as JSON. A game with a `max_rounds` option gets 100
    /// rounds unless this says otherwise, so that every game ends.
    #[arg(long, default_value = "{}")]
    config: String,
    /// Worker threads [default: available parallelism].
    #[arg(long)]
    threads: Option<usize>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Save every game's record in this folder, as GAME-SEED.json, with
    /// the run's settings in arena.json.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// Go on with a run stopped part way: games whose records are in the
    /// --records folder are replayed from them, not played again. The
    /// folder's arena.json must hold this run's settings.
    #[arg(long, requires = "records")]
    resume: bool,
}

/// What makes two runs the same run: their games, seeds and bots.
#[derive(Serialize, serde::Deserialize, PartialEq)]
struct Settings {
    game: String,
    bots: Vec<String>,
    games: u64,
    seed: u64,
    config: serde_json::Value,
}

/// Where a run keeps its settings, in its records folder.
const SETTINGS: &str = "arena.json";

/// Writes the run's settings into its records folder; when resuming, checks
/// that the folder's are the same (any games there are of this run).
fn keep_settings(dir: &Path, settings: &Settings, resume: bool) -> Result<(), String> {
    let path = dir.join(SETTINGS);
    if resume && let Ok(text) = std::fs::read_to_string(&path) {
        let theirs: Settings = serde_json::from_str(&text)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        return if theirs == *settings {
            Ok(())
        } else {
            Err(format!(
                "the records in {} are of another run ({}): resume with the same game, --bots, \
                 --games, --seed and --config, or save to another folder",
                dir.display(),
                serde_json::to_string(&theirs).expect("settings serialise")
            ))
        };
    }
    let text = serde_json::to_string_pretty(settings).expect("settings serialise");
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Default, Serialize)]
struct Wdl {
    wins: u64,
    draws: u64,
    losses: u64,
}

impl Wdl {
    fn add(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    fn flipped(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// A bot's totals over all its games.
#[derive(Clone, Serialize)]
struct BotResult {
    /// As given in --bots.
    name: String,
    /// The name, with `#place` (from 1) when the name is given twice.
    label: String,
    level: String,
    #[serde(flatten)]
    total: Wdl,
}

/// The games of one pair, from bot `a`'s side.
#[derive(Serialize)]
struct PairResult {
    a: String,
    b: String,
    games: u64,
    #[serde(flatten)]
    total: Wdl,
    /// A's games as P1 (the pair's even games) and as P2.
    a_as_p1: Wdl,
    a_as_p2: Wdl,
}

/// One bot's Elo estimate.
#[derive(Serialize)]
struct RatingRow {
    bot: String,
    level: String,
    elo: f64,
    /// The 95% interval's ends; null where the record bounds nothing (the
    /// upper end of a bot that scored 100%, the lower of one that scored 0%).
    low: Option<f64>,
    high: Option<f64>,
    games: u64,
    /// Wins plus half the draws, per game.
    score: f64,
}

#[derive(Serialize)]
struct Report {
    game: String,
    /// All games played, with those read from records.
    games: u64,
    /// Games read from the records of an earlier part of the run.
    resumed: u64,
    games_per_pair: u64,
    seed: u64,
    threads: usize,
    bots: Vec<BotResult>,
    pairs: Vec<PairResult>,
    /// By rating, highest first.
    ratings: Vec<RatingRow>,
    /// How the ratings were estimated.
    elo_method: &'static str,
    mean_length: f64,
    seconds: f64,
    games_per_second: f64,
}

const ELO_METHOD: &str = "Bradley-Terry maximum likelihood, a draw half a win; mean rating 0; \
    one virtual draw added per pair; 95% intervals from the Fisher information";

/// One game's result: the winner by index within the pair (None for a
/// draw) and length, and whether it was read from its record.
struct GameResult {
    winner: Option<usize>,
    actions: usize,
    resumed: bool,
}

/// Where game `seed`'s record is kept.
fn record_path(dir: &Path, game: &dyn AnyGame, seed: u64) -> PathBuf {
    dir.join(format!("{}-{seed}.json", game.id()))
}

/// A finished game of an earlier part of the run, replayed from its record.
fn resumed(game: &'static dyn AnyGame, path: &Path, seed: u64) -> Result<Match, String> {
    let bad = |why: String| format!("cannot resume from {}: {why}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let record: Record = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    if record.game != game.id() || record.seed != seed {
        return Err(bad(format!(
            "it is {} seed {}, not {} seed {seed}",
            record.game,
            record.seed,
            game.id()
        )));
    }
    let m = Match::replay(game, &record).map_err(|e| bad(e.to_string()))?;
    if !m.is_over() {
        return Err(bad("the game in it is not over".into()));
    }
    Ok(m)
}

fn play_one(
    game: &'static dyn AnyGame,
    config: &serde_json::Value,
    bots: [&str; 2],
    seed: u64,
    swap: bool,
    records: Option<&Path>,
    resume: bool,
) -> Result<GameResult, String> {
    // Bot index per seat: bot 0 is P1 in even games, P2 in odd ones.
    let index = PerSeat::new(usize::from(swap), usize::from(!swap));
    if let Some(dir) = records.filter(|_| resume) {
        let path = record_path(dir, game, seed);
        if path.exists() {
            let m = resumed(game, &path, seed)?;
            return Ok(GameResult {
                winner: m.outcome().and_then(|o| o.winner).map(|s| index[s]),
                actions: m.record().actions.len(),
                resumed: true,
            });
        }
    }
    let mut m =
        Match::new(game, config, seed, MatchOptions::untimed()).map_err(|e| e.to_string())?;
    let mut players = PerSeat::new(
        umpire_catalog::make_bot(game.id(), bots[index.p1])?,
        umpire_catalog::make_bot(game.id(), bots[index.p2])?,
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
        let path = record_path(dir, game, seed);
        let text = serde_json::to_string_pretty(m.record()).expect("records serialise");
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let winner = m.outcome().and_then(|o| o.winner).map(|s| index[s]);
    Ok(GameResult {
        winner,
        actions: m.record().actions.len(),
        resumed: false,
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

/// Distinct labels: a name given twice gets its place, e.g. `random#3`.
fn labels(bots: &[String]) -> Vec<String> {
    bots.iter()
        .enumerate()
        .map(|(i, name)| {
            if bots.iter().filter(|b| *b == name).count() > 1 {
                format!("{name}#{}", i + 1)
            } else {
                name.clone()
            }
        })
        .collect()
}

/// Every pair once, in order: (0, 1), (0, 2), …, (1, 2), …
fn round_robin(bots: usize) -> Vec<(usize, usize)> {
    (0..bots)
        .flat_map(|a| (a + 1..bots).map(move |b| (a, b)))
        .collect()
}

pub fn run(args: Args, games: &[&'static dyn AnyGame]) -> Result<(), String> {
    let game = umpire_catalog::require_in(games, &args.game)?;
    if args.bots.len() < 2 {
        return Err(
            "--bots takes two or more bots, e.g. --bots greedy,random or --bots easy,medium,hard"
                .into(),
        );
    }
    if args.games == 0 {
        return Err("--games 0 plays nothing: give at least 1".into());
    }
    let threads = match args.threads {
        Some(0) => return Err("--threads 0 runs nothing: give at least 1".into()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut levels = Vec::new();
    for bot in &args.bots {
        umpire_catalog::make_bot(game.id(), bot)?;
        levels.push(umpire_catalog::level_of(game.id(), bot).map_or("?", |l| l.as_str()));
    }
    let labels = labels(&args.bots);
    let pairs = round_robin(args.bots.len());
    let total = (pairs.len() as u64)
        .checked_mul(args.games)
        .ok_or("too many games")?;
    let config = crate::serve::ending_config(game, &args.config, 100)?;
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
        let settings = Settings {
            game: game.id().into(),
            bots: args.bots.clone(),
            games: args.games,
            seed: args.seed,
            config: config.clone(),
        };
        keep_settings(dir, &settings, args.resume)?;
    }
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .expect("a valid template"),
    );
    let next = AtomicU64::new(0);
    let started = Instant::now();
    let workers = threads.min(usize::try_from(total).unwrap_or(usize::MAX));
    // Each worker takes the next game number and keeps its results with
    // their numbers; the totals do not depend on who played what.
    let played: Vec<(u64, Result<GameResult, String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= total {
                            break;
                        }
                        let (a, b) = pairs[(g / args.games) as usize];
                        let i = g % args.games;
                        let result = play_one(
                            game,
                            &config,
                            [&args.bots[a], &args.bots[b]],
                            args.seed.wrapping_add(g),
                            i % 2 == 1,
                            args.records.as_deref(),
                            args.resume,
                        );
                        if result.is_err() {
                            next.store(total, Ordering::Relaxed);
                        }
                        mine.push((g, result));
                        progress.inc(1);
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("no worker panics"))
            .collect()
    });
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    // The first failure by game number, if any.
    if let Some((_, Err(e))) = played
        .iter()
        .filter(|(_, r)| r.is_err())
        .min_by_key(|(g, _)| *g)
    {
        return Err(e.clone());
    }
    let mut pair_results: Vec<PairResult> = pairs
        .iter()
        .map(|&(a, b)| PairResult {
            a: labels[a].clone(),
            b: labels[b].clone(),
            games: 0,
            total: Wdl::default(),
            a_as_p1: Wdl::default(),
            a_as_p2: Wdl::default(),
        })
        .collect();
    let mut actions = 0u64;
    let mut resumed = 0u64;
    for (g, result) in &played {
        let Ok(r) = result else { continue };
        actions += r.actions as u64;
        resumed += u64::from(r.resumed);
        let pair = &mut pair_results[(g / args.games) as usize];
        let one = Wdl {
            wins: u64::from(r.winner == Some(0)),
            draws: u64::from(r.winner.is_none()),
            losses: u64::from(r.winner == Some(1)),
        };
        pair.games += 1;
        pair.total.add(one);
        if (g % args.games) % 2 == 0 {
            pair.a_as_p1.add(one);
        } else {
            pair.a_as_p2.add(one);
        }
    }
    let mut bots: Vec<BotResult> = (0..args.bots.len())
        .map(|i| BotResult {
            name: args.bots[i].clone(),
            label: labels[i].clone(),
            level: levels[i].to_string(),
            total: Wdl::default(),
        })
        .collect();
    for (&(a, b), pair) in pairs.iter().zip(&pair_results) {
        bots[a].total.add(pair.total);
        bots[b].total.add(pair.total.flipped());
    }
    let fitted = elo::fit(
        bots.len(),
        &pairs
            .iter()
            .zip(&pair_results)
            .map(|(&(a, b), p)| elo::Games {
                a,
                b,
                wins: p.total.wins,
                draws: p.total.draws,
                losses: p.total.losses,
            })
            .collect::<Vec<_>>(),
    );
    let tenth = |x: f64| (x * 10.0).round() / 10.0;
    let mut order: Vec<usize> = (0..bots.len()).collect();
    order.sort_by(|&x, &y| fitted[y].elo.total_cmp(&fitted[x].elo).then(x.cmp(&y)));
    let ratings: Vec<RatingRow> = order
        .iter()
        .map(|&i| {
            let r = &fitted[i];
            RatingRow {
                bot: labels[i].clone(),
                level: levels[i].to_string(),
                elo: tenth(r.elo),
                low: (!r.open_below).then(|| tenth(r.low)),
                high: (!r.open_above).then(|| tenth(r.high)),
                games: r.games,
                score: r.score,
            }
        })
        .collect();
    let games = played.len() as u64;
    let report = Report {
        game: game.id().into(),
        games,
        resumed,
        games_per_pair: args.games,
        seed: args.seed,
        threads: workers,
        bots,
        pairs: pair_results,
        ratings,
        elo_method: ELO_METHOD,
        mean_length: actions as f64 / games.max(1) as f64,
        seconds,
        // The games played now, not those read from records.
        games_per_second: (games - resumed) as f64 / seconds.max(f64::EPSILON),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialise")
        );
    } else {
        print_text(&report, game.name());
    }
    Ok(())
}

/// A rate with three significant digits at most, and never a bare 0 for a
/// slow but running arena: 0.042, 6.25, 340.
fn rate(per_second: f64) -> String {
    match per_second {
        r if r >= 100.0 => format!("{r:.0}"),
        r if r >= 10.0 => format!("{r:.1}"),
        r if r >= 1.0 => format!("{r:.2}"),
        r => format!("{r:.3}"),
    }
}

fn print_text(report: &Report, game: &str) {
    println!(
        "{} games of {} in {:.2} s ({} games/s, {} thread{}), mean length {:.1} actions",
        report.games,
        game,
        report.seconds,
        rate(report.games_per_second),
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        report.mean_length
    );
    if report.resumed > 0 {
        println!(
            "({} of them replayed from the records of the run's earlier part; the rate is of the others)",
            report.resumed
        );
    }
    let width = report
        .bots
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    println!();
    println!(
        "Pairs, {} games each, A is P1 in the pair's even games:",
        report.games_per_pair
    );
    println!(
        "  {:<w$}  {:<w$}  {:>6}  {:>6}  {:>6}   {:<15}  A as P2 (W-D-L)",
        "A",
        "B",
        "A wins",
        "draws",
        "B wins",
        "A as P1 (W-D-L)",
        w = width
    );
    let wdl = |x: &Wdl| format!("{}-{}-{}", x.wins, x.draws, x.losses);
    for p in &report.pairs {
        println!(
            "  {:<w$}  {:<w$}  {:>6}  {:>6}  {:>6}   {:<15}  {}",
            p.a,
            p.b,
            p.total.wins,
            p.total.draws,
            p.total.losses,
            wdl(&p.a_as_p1),
            wdl(&p.a_as_p2),
            w = width
        );
    }
    println!();
    println!(
        "Elo (Bradley-Terry fit, a draw half a win, mean 0, 95% intervals from the Fisher information):"
    );
    println!(
        "  {:>2}  {:<w$}  {:<6}  {:>6}  {:<16}  {:>6}  {:>6}",
        "#",
        "bot",
        "level",
        "Elo",
        "95% interval",
        "games",
        "score",
        w = width
    );
    let end = |x: Option<f64>, open: &str| x.map_or(open.to_string(), |x| format!("{x:+.0}"));
    for (i, r) in report.ratings.iter().enumerate() {
        println!(
            "  {:>2}  {:<w$}  {:<6}  {:>+6.0}  {:<16}  {:>6}  {:>5.1}%",
            i + 1,
            r.bot,
            r.level,
            r.elo,
            format!("[{}, {}]", end(r.low, "-inf"), end(r.high, "+inf")),
            r.games,
            100.0 * r.score,
            w = width
        );
    }
    if report
        .ratings
        .iter()
        .any(|r| r.low.is_none() || r.high.is_none())
    {
        println!(
            "  (a bot that won or lost every game: its rating leans on one virtual draw per pair, \
             and its interval is open on that side)"
        );
    }
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

    #[test]
    fn a_slow_arena_shows_its_rate() {
        let shown: Vec<String> = [0.0417, 0.4, 6.25, 42.42, 340.4].map(rate).to_vec();
        assert_eq!(shown, ["0.042", "0.400", "6.25", "42.4", "340"]);
    }
}

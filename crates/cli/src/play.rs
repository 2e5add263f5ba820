//! `umpire play GAME`: a person at the terminal against a bot.
//!
//! Every line is said when it is true: each event once, in the game's
//! words; a sealed move as sealed; a resignation as one. The record is
//! saved from the start (so a bad `--record` path is refused before play)
//! and after every action, and it is kept, marked unfinished, when the
//! person quits, presses Ctrl-C or ends the input. A game whose rules delete
//! earlier moves is played on the terminal's alternate screen, redrawn at
//! every prompt, so nothing but the current view stays readable.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use termimad::crossterm::{cursor, execute, terminal};
use umpire_core::{
    AnyGame, Bot, Entry, Match, MatchOptions, PerSeat, Player, Seat, Think, Viewer, seeded_rng,
};

use crate::error::Error;
use crate::markdown;
use crate::replay::UNFINISHED;

#[derive(clap::Args)]
pub struct Args {
    /// Game id (`umpire games` lists them).
    game: String,
    /// The bot to play against: a level (easy, medium, hard) or a name
    /// (`umpire games` lists each game's bots).
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
    /// The players' names, P1's then P2's (`--names Ada,Bo`): every line
    /// then calls the seats by them, and the record keeps them.
    #[arg(long, value_delimiter = ',', num_args = 1..=2)]
    names: Vec<String>,
    /// Save the match record here (the format `umpire replay` and the
    /// server use): checked before play, kept up to date after every move,
    /// marked unfinished when you quit.
    #[arg(long)]
    record: Option<PathBuf>,
}

/// The longest line taken as a move: the longest action of any game (a
/// round of statements) is a few hundred characters. A longer line is
/// refused without being echoed.
const LONGEST_LINE: usize = 1000;

/// The commands besides moves, as the person reads them.
const COMMANDS: &str =
    "Type a move, or `help`, `rules`, `resign` (you lose), `quit` (leave the match unfinished).";

/// What the person typed, read on a thread of its own so that Ctrl-C and
/// the clocks are heard while the prompt waits.
enum Input {
    Line(String),
    End,
    Interrupt,
}

/// How the person left a match that did not reach its end.
#[derive(Clone, Copy, PartialEq)]
enum Left {
    Quit,
    Interrupted,
    InputEnded,
}

impl Left {
    /// The record's mark and the last line, from `me`'s side.
    fn words(self, me: Seat) -> (String, String) {
        let (mark, how) = match self {
            Left::Quit => (format!("{me} quit"), "You quit"),
            Left::Interrupted => ("interrupted by Ctrl-C".into(), "Interrupted (Ctrl-C)"),
            Left::InputEnded => ("the input ended".into(), "Your input ended"),
        };
        (
            mark,
            format!("{how}: the match is left unfinished, and nobody wins."),
        )
    }
}

/// Lines typed on standard input, Ctrl-C, and the end of input, as one stream.
fn inputs() -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    let interrupts = tx.clone();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        loop {
            let mut bytes = Vec::new();
            match stdin.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        tx.send(Input::End).ok();
    });
    // Ctrl-C is heard here, so the record can be saved before leaving.
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT]) {
        std::thread::spawn(move || {
            for _ in signals.forever() {
                if interrupts.send(Input::Interrupt).is_err() {
                    return;
                }
            }
        });
    }
    rx
}

/// The terminal's alternate screen, left again when dropped (on every path
/// out, errors included), so the person's own screen comes back intact.
struct Screen {
    alternate: bool,
}

impl Screen {
    fn new(alternate: bool) -> Screen {
        if alternate {
            execute!(std::io::stdout(), terminal::EnterAlternateScreen).ok();
        }
        Screen { alternate }
    }

    /// Clears the alternate screen (nothing to do on a scrolling one).
    fn clear(&self) {
        if self.alternate {
            execute!(
                std::io::stdout(),
                terminal::Clear(terminal::ClearType::All),
                terminal::Clear(terminal::ClearType::Purge),
                cursor::MoveTo(0, 0)
            )
            .ok();
        }
    }

    fn leave(&mut self) {
        if std::mem::take(&mut self.alternate) {
            execute!(std::io::stdout(), terminal::LeaveAlternateScreen).ok();
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        self.leave();
    }
}

/// A match at the terminal: the match, the person's seat, the clock, and
/// what has been said.
struct Table {
    m: Match,
    me: Seat,
    started: Instant,
    styled: bool,
    record: Option<PathBuf>,
    /// The first lines of the screen: the game, the seats, the seed.
    header: String,
    /// What happened since the person's last move, to say at the prompt.
    news: Vec<String>,
    /// A refusal or the help, said once below the board.
    notice: String,
    /// The latest event said, so that none is said twice.
    said: Option<String>,
    screen: Screen,
}

impl Table {
    /// Match time now (0 in an untimed match, whose clocks never run).
    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Applies timeouts due by now and says what they did.
    fn advance(&mut self) -> Result<(), Error> {
        let played = self.m.advance(self.now());
        for entry in &played {
            self.tell(entry, false);
        }
        if played.is_empty() {
            return Ok(());
        }
        self.save(None)
    }

    /// Plays `text` for `seat`; on success says what happened, as the
    /// person sees it, and saves the record.
    fn submit(&mut self, seat: Seat, text: &str) -> Result<(), String> {
        let sealed = self.m.decision().get(seat).is_some_and(|p| p.simultaneous);
        let entry = self
            .m
            .submit(seat, text, self.now())
            .map_err(|e| e.to_string())?;
        self.tell(&entry, sealed);
        self.save(None).map_err(|e| e.message)
    }

    /// Says an accepted entry in words: a resignation or a timeout as such,
    /// else the latest event the person sees when it is new, else that the
    /// move was made (`sealed`: it is hidden until both seats are in).
    fn tell(&mut self, entry: &Entry, sealed: bool) {
        let event = self.m.last_event(Viewer::Seat(self.me));
        let seat = entry.seat;
        let line = match entry.action.as_str() {
            "resign" => format!("{seat} resigned."),
            "timeout" => format!(
                "{seat} ran out of time: {}.",
                entry.effect.as_deref().unwrap_or("no effect")
            ),
            _ if event.is_some() && event != self.said => {
                format!("{}.", event.as_deref().unwrap_or_default())
            }
            _ if seat == self.me => format!("Accepted: `{}`.", entry.action),
            _ if sealed => format!("{seat} has made its choice, sealed until both are in."),
            _ => format!("{seat} has moved."),
        };
        self.said = event;
        // On a screen of its own, a game that hides history forgets the
        // person's own move at once.
        let forgotten = self.screen.alternate && seat == self.me && is_move(entry);
        if !forgotten {
            self.news.push(line);
        }
    }

    /// Writes the record, marked unfinished with `why` if given. The
    /// record path was checked when play began, so a failure here is rare
    /// and said as a file error.
    fn save(&self, unfinished: Option<&str>) -> Result<(), Error> {
        let Some(path) = &self.record else {
            return Ok(());
        };
        let mut record = serde_json::to_value(self.m.record()).expect("records serialise");
        if let Some(why) = unfinished {
            record[UNFINISHED] = why.into();
        }
        let text = serde_json::to_string_pretty(&record).expect("records serialise");
        std::fs::write(path, text + "\n").map_err(|e| {
            Error::file(format!(
                "cannot write the record to {}: {e}",
                path.display()
            ))
        })
    }

    /// The person's clock, when clocks run.
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

    /// The screen at a prompt: on the alternate screen everything is
    /// redrawn; on a scrolling one only what is new.
    fn show_prompt(&mut self) {
        self.screen.clear();
        let mut out = String::new();
        if self.screen.alternate {
            out += &self.header;
        }
        for line in &self.news {
            out += line;
            out.push('\n');
        }
        out.push('\n');
        out += &self.m.render(Viewer::Seat(self.me), self.styled);
        out += &prompt_line(&self.m, self.me);
        out.push('\n');
        out += &std::mem::take(&mut self.notice);
        out += &format!("{}{}> ", self.clock_line(), self.me);
        if !self.screen.alternate {
            self.news.clear();
        }
        print!("{}", self.m.named(&out));
        std::io::stdout().flush().ok();
    }

    /// Lets the bot act while it must, then waits for the person: their
    /// move, a command, the end of input, Ctrl-C, or a clock running out.
    /// Returns how the person left, if the match did not end.
    fn play(
        &mut self,
        bot: &mut dyn Bot,
        rng: &mut umpire_core::MatchRng,
        input: &Receiver<Input>,
    ) -> Result<Option<Left>, Error> {
        let (me, them) = (self.me, self.me.other());
        loop {
            self.advance()?;
            if self.m.is_over() {
                return Ok(None);
            }
            bot.observe(self.m.seat_view(them));
            if self.m.decision().seats().contains(them) {
                let action = bot
                    .choose(self.m.seat_view(them), &Think::unlimited(), rng)
                    .ok_or_else(|| "the bot found no legal action".to_string())?;
                self.submit(them, &action)
                    .map_err(|e| format!("the bot's move was refused: {e}"))?;
                continue;
            }
            self.show_prompt();
            let wait = self
                .m
                .next_deadline()
                .map(|d| Duration::from_millis(d.saturating_sub(self.now()) + 1));
            let received = match wait {
                Some(wait) => input.recv_timeout(wait),
                None => input.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let line = match received {
                Ok(Input::Line(line)) => line,
                Ok(Input::Interrupt) => return Ok(Some(Left::Interrupted)),
                Ok(Input::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Ok(Some(Left::InputEnded));
                }
                Err(RecvTimeoutError::Timeout) => {
                    println!();
                    continue;
                }
            };
            let rules = self.m.game().rules();
            match line.trim() {
                "" => {}
                "quit" | "exit" => return Ok(Some(Left::Quit)),
                "help" => self.notice = help(rules, self.styled),
                "rules" => self.notice = markdown::render(rules, self.styled),
                text if text.chars().count() > LONGEST_LINE => {
                    self.notice = format!(
                        "Not accepted: a line of {} characters is longer than any move (at most {LONGEST_LINE}).\n",
                        text.chars().count()
                    );
                }
                text => {
                    let before = self.news.len();
                    match self.submit(me, text) {
                        Ok(()) => {
                            // What came before the person's move is old news.
                            self.news.drain(..before);
                        }
                        Err(e) => self.notice = format!("Not accepted: {e}\n"),
                    }
                }
            }
        }
    }
}

/// Whether `entry` is a move of the game (not a resignation or timeout).
fn is_move(entry: &Entry) -> bool {
    !matches!(entry.action.as_str(), "resign" | "timeout")
}

/// The line that asks `seat` for its decision: the game's words, with an
/// example action when the words show none. Every action in backticks is
/// legal now.
pub fn prompt_line(m: &Match, seat: Seat) -> String {
    let kind = m.decision().kind(seat).unwrap_or("move");
    let mut words = m
        .prompt(seat)
        .unwrap_or_else(|| format!("your decision: {kind}"));
    if let Some(example) = example(m, seat, &words) {
        words += &format!(", e.g. `{example}`");
    }
    words
}

/// A legal action of `seat` to show as an example, unless the words
/// already show one: the first listed (or, for a game whose actions
/// cannot be listed, one drawn with a fixed seed).
fn example(m: &Match, seat: Seat, words: &str) -> Option<String> {
    if words.contains('`') {
        return None;
    }
    let state = m.state();
    match state.legal_actions(seat) {
        Some(mut actions) => actions.next(),
        None => state.sample_action(seat, &mut seeded_rng(0)),
    }
}

pub fn run(args: Args, styled: bool, games: &[&'static dyn AnyGame]) -> Result<(), Error> {
    let game = umpire_catalog::require_in(games, &args.game)?;
    let config =
        serde_json::from_str(&args.config).map_err(|e| format!("--config is not JSON: {e}"))?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let options = if args.timed {
        MatchOptions::default()
    } else {
        MatchOptions::untimed()
    };
    let m = Match::new(game, &config, seed, options)
        .and_then(|m| m.with_players(players(&args.names)?, false))
        .map_err(|e| e.to_string())?;
    let mut bot = umpire_catalog::make_bot(game.id(), &args.bot)?;
    let mut rng = seeded_rng(seed);
    let (me, them) = (args.seat, args.seat.other());
    let header = format!(
        "{} — you are {me}, bot {} is {them}.\nSeed {seed} (`--seed {seed}` plays this match again). {}\n{COMMANDS}\n",
        game.name(),
        args.bot,
        if args.timed {
            "Timed: the game's clocks run."
        } else {
            "Untimed (`--timed` runs the clocks)."
        }
    );
    let header = m.named(&header);
    let alternate = game.hides_history() && std::io::stdout().is_terminal();
    let mut table = Table {
        m,
        me,
        started: Instant::now(),
        styled,
        record: args.record,
        header,
        news: Vec::new(),
        notice: String::new(),
        said: None,
        screen: Screen { alternate: false },
    };
    // The record path is checked before play: an empty record is written.
    table.save(None)?;
    if alternate {
        println!(
            "{} deletes earlier moves: the match is played on a screen of its own that shows only the current board.",
            game.name()
        );
    }
    table.screen = Screen::new(alternate);
    if !alternate {
        print!("{}", table.header);
    }
    let left = table.play(bot.as_mut(), &mut rng, &inputs())?;
    table.screen.leave();
    finish(&table, left)
}

/// The end: the board, the record, and last of all a line that says how
/// the match ended.
fn finish(table: &Table, left: Option<Left>) -> Result<(), Error> {
    let (me, m) = (table.me, &table.m);
    // After the alternate screen, the last events are said again here.
    let news = table
        .news
        .iter()
        .map(|l| format!("{l}\n"))
        .collect::<String>();
    // The whole board once the match is over; the person's own view of a
    // match left unfinished.
    let board = m.render(Viewer::Seat(me), table.styled);
    print!("{}", m.named(&format!("\n{news}\n{board}")));
    let (mark, last) = match (left, m.outcome()) {
        (Some(left), _) => {
            let (mark, line) = left.words(me);
            (Some(mark), line)
        }
        (None, Some(outcome)) => {
            let verdict = match outcome.winner {
                Some(w) if w == me => "You win",
                Some(_) => "You lose",
                None => "A draw",
            };
            (
                None,
                format!(
                    "{verdict} (decided by {}): {}",
                    outcome.decided_by, outcome.reason
                ),
            )
        }
        (None, None) => (None, "The match ended without a result.".into()),
    };
    table.save(mark.as_deref())?;
    if let Some(path) = &table.record {
        println!(
            "Record saved to {0}{1} (check it with `umpire replay {0}`).",
            path.display(),
            if mark.is_some() {
                ", marked unfinished"
            } else {
                ""
            }
        );
    }
    println!("{}", m.named(&last));
    match left {
        Some(Left::Interrupted) => Err(Error {
            code: 130,
            message: String::new(),
        }),
        _ => Ok(()),
    }
}

/// The players `--names` gives, P1's first.
fn players(names: &[String]) -> Result<PerSeat<Player>, umpire_core::ConfigError> {
    let player = |i: usize| match names.get(i) {
        Some(name) => {
            Player::named(name).map_err(|why| umpire_core::ConfigError(format!("--names: {why}")))
        }
        None => Ok(Player::default()),
    };
    Ok(PerSeat::new(player(0)?, player(1)?))
}

/// The commands and the game's notation.
fn help(rules: &str, styled: bool) -> String {
    let notation = markdown::section(rules, "Notation").unwrap_or("");
    let text = format!(
        "Commands: a move in the notation below, `resign` (you lose at once), \
         `quit` or `exit` (leave the match unfinished; the record is kept), \
         `rules` (the whole rules), `help` (this). Ctrl-C and the end of \
         input (Ctrl-D) leave it unfinished too.\n\n{notation}"
    );
    markdown::render(&text, styled)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The actions a prompt suggests: its backticked spans.
    fn suggested(prompt: &str) -> Vec<&str> {
        prompt.split('`').skip(1).step_by(2).collect()
    }

    /// Over random games of every game, every action a prompt suggests is
    /// legal for its seat at that moment: it is in the seat's legal list
    /// (when the game lists them), and the engine accepts it.
    #[test]
    fn no_prompt_offers_an_action_that_is_not_legal() {
        for game in umpire_catalog::games() {
            let mut suggestions = 0;
            // Random players never guess a grid: a round limit ends the game.
            let limited = game.options().iter().any(|o| o.key == "max_rounds");
            let config = if limited {
                serde_json::json!({"max_rounds": 3})
            } else {
                serde_json::json!({})
            };
            for seed in 0..4 {
                let mut m = Match::new(*game, &config, seed, MatchOptions::untimed()).unwrap();
                let mut rng = seeded_rng(seed);
                while let Some(seat) = m.decision().seats().iter().next() {
                    for asked in m.decision().seats().iter() {
                        let prompt = prompt_line(&m, asked);
                        let actions = suggested(&prompt);
                        assert!(!actions.is_empty(), "{}: {prompt}", game.id());
                        for text in actions {
                            suggestions += 1;
                            let mut copy = m.state().clone_box();
                            let canonical = copy.apply(asked, text).unwrap_or_else(|e| {
                                panic!(
                                    "{}: `{text}` offered to {asked} in \"{prompt}\": {e}",
                                    game.id()
                                )
                            });
                            if let Some(mut legal) = m.state().legal_actions(asked) {
                                assert!(
                                    legal.any(|a| a == canonical),
                                    "{}: `{text}` offered to {asked} is not in its legal list",
                                    game.id()
                                );
                            }
                        }
                    }
                    let action = m.state().sample_action(seat, &mut rng).unwrap();
                    m.submit(seat, &action, 0).unwrap();
                }
            }
            assert!(suggestions > 50, "{}: {suggestions}", game.id());
        }
    }

    #[test]
    fn suggestions_are_the_backticked_spans() {
        assert_eq!(
            suggested("choose: `first P1` or `first P2`, written CELL"),
            ["first P1", "first P2"]
        );
    }
}

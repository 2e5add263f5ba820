//! A host's match (docs/hosting.md): the players' names, a clock of the
//! host's own, an audience that may be kept out until the end, and what
//! the host's console is sent: for each player the private message to pass
//! on and for the audience its post, each built from that viewer's own
//! view.

use serde::Deserialize;
use serde_json::{Value, json};
use umpire_core::{ClockPolicy, Match, PerSeat, Player, Seat, Viewer};

/// `names` in `POST /api/matches`: either seat may be left out.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Names {
    #[serde(rename = "P1", default)]
    p1: Option<String>,
    #[serde(rename = "P2", default)]
    p2: Option<String>,
}

impl Names {
    /// The players these names make, each checked ([`Player::named`]), or
    /// what is wrong, naming the seat.
    pub fn players(&self) -> Result<PerSeat<Player>, String> {
        let one = |seat: Seat, name: &Option<String>| match name {
            None => Ok(Player::default()),
            Some(name) => Player::named(name).map_err(|why| format!("{seat}'s name: {why}")),
        };
        let players = PerSeat::new(one(Seat::P1, &self.p1)?, one(Seat::P2, &self.p2)?);
        umpire_core::check_players(&players)?;
        Ok(players)
    }

    /// The names of `players` (for a rematch).
    pub fn of(players: &PerSeat<Player>) -> Names {
        Names {
            p1: players.p1.name.clone(),
            p2: players.p2.name.clone(),
        }
    }
}

/// `clock` in `POST /api/matches`: a host's own clock instead of the
/// rulebook's (each decision's turn time stays the game's).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    #[serde(default)]
    pub bank_ms: u64,
    #[serde(default)]
    pub periods: u32,
    #[serde(default)]
    pub period_ms: u64,
}

/// The longest bank or period a host may give, and the most periods.
const MAX_BANK_MS: u64 = 24 * 3_600_000;
const MAX_HOST_PERIODS: u32 = 100;

impl Clock {
    /// The clock policy, with the server's lag allowance, or what is out
    /// of bounds.
    pub fn policy(self, lag_ms: u64) -> Result<ClockPolicy, String> {
        for (name, value) in [("bank_ms", self.bank_ms), ("period_ms", self.period_ms)] {
            if value > MAX_BANK_MS {
                return Err(format!(
                    "clock: {name} is {value}; a host's clock has at most {MAX_BANK_MS} ms (a day)"
                ));
            }
        }
        if self.periods > MAX_HOST_PERIODS {
            return Err(format!(
                "clock: {} periods; a host's clock has at most {MAX_HOST_PERIODS}",
                self.periods
            ));
        }
        if self.periods > 0 && self.period_ms == 0 {
            return Err("clock: periods need a period_ms above 0".into());
        }
        Ok(ClockPolicy {
            bank_ms: self.bank_ms,
            periods: self.periods,
            period_ms: self.period_ms,
            lag_ms,
        })
    }
}

/// The seats table's part that says who plays a seat: its name, if given.
pub fn seat_name(m: &Match, seat: Seat) -> Option<&str> {
    m.players()[seat].name.as_deref()
}

/// Adds each named player's `name` to a seats table (`{"P1": {…}, …}`),
/// as the live matches' table has it.
pub fn name_seats(seats: &mut Value, players: &PerSeat<Player>) {
    for seat in Seat::BOTH {
        if let (Some(name), Some(shown)) =
            (&players[seat].name, seats[seat.as_str()].as_object_mut())
        {
            shown.insert("name".into(), json!(name));
        }
    }
}

/// What `viewer` is told of the match in the game's words, from its own
/// view, with the players' names: the board, what it decides now (a seat
/// only), the latest event, and once the match is over the result. The
/// `message` joins them as one text to pass on.
pub fn words(m: &Match, viewer: Viewer) -> Value {
    let board = m.named(&m.render(viewer, false));
    let prompt = viewer.seat().and_then(|s| m.prompt(s)).map(|p| m.named(&p));
    let event = m.last_event(viewer).map(|e| m.named(&e));
    let result = result(m);
    let mut message = String::new();
    message.push_str(&format!("{} — {}\n", m.game().name(), addressed(m, viewer)));
    if let Some(event) = &event {
        message.push_str(&format!("Last: {event}\n"));
    }
    message.push('\n');
    message.push_str(board.trim_end());
    message.push('\n');
    if let Some(result) = &result {
        message.push_str(&format!("\n{result}\n"));
    } else if let Some(prompt) = &prompt {
        message.push_str(&format!("\nYour move: {prompt}\n"));
    } else if let Some(waiting) = waiting(m, viewer) {
        message.push_str(&format!("\n{waiting}\n"));
    }
    json!({"viewer": viewer.to_string(), "board": board, "prompt": prompt, "event": event,
           "result": result, "message": message})
}

/// "Waiting for Bo.": whom the match waits for, as `viewer` may know it
/// (a covered decision stays covered); `None` when nobody.
fn waiting(m: &Match, viewer: Viewer) -> Option<String> {
    let seats: Vec<String> = m
        .decision_for(viewer)
        .seats()
        .iter()
        .filter(|&s| viewer.seat() != Some(s))
        .map(|s| umpire_core::seat_name(m.players(), s).to_string())
        .collect();
    (!seats.is_empty()).then(|| format!("Waiting for {}.", seats.join(" and ")))
}

/// Whom a message is for: "for Ada (P1)", "for the audience".
fn addressed(m: &Match, viewer: Viewer) -> String {
    match viewer.seat() {
        Some(seat) => match seat_name(m, seat) {
            Some(name) => format!("for {name} ({seat})"),
            None => format!("for {seat}"),
        },
        None if viewer == Viewer::Umpire => "for the host".into(),
        None => "for the audience".into(),
    }
}

/// The result in words, once the match is over: who won, the score, and
/// what decided it, with the players' names.
pub fn result(m: &Match) -> Option<String> {
    let o = m.outcome()?;
    let name = |seat: Seat| umpire_core::seat_name(m.players(), seat).to_string();
    let head = match o.winner {
        Some(w) => format!("{} wins", name(w)),
        None => "A draw".into(),
    };
    Some(format!(
        "{head}. Score: {} {}, {} {}. Decided by {}: {}.",
        name(Seat::P1),
        o.scores.p1,
        name(Seat::P2),
        o.scores.p2,
        o.decided_by,
        m.named(o.reason.trim_end_matches('.'))
    ))
}

//! Masked Army: players place dominoes carrying both colours on a 9×9 board
//! whose colours are hidden, and try to build the largest army (orthogonally
//! connected group of their colour). Rules: `RULES.md` beside this crate.

mod board;
mod bot;
mod colour;
mod notation;
mod sample;
mod search;
mod view;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use umpire_core::grid::{bits, nth_bit};
use umpire_core::{
    Cell, ClockPolicy, ConfigError, ConfigOption, Decision, Game, OptionKind, Outcome, PerSeat,
    RuleViolation, Seat, Timeout, TurnClock, Viewer,
};

use board::{BOARD, SIZE, group_sizes, horizontal_spots, vertical_spots};
pub use colour::SeatColour;
pub use notation::Action;
pub use sample::Memory;
pub use view::{LastPiece, Phase, View};

/// Masked Army's place in the catalogue: the game and its bots.
pub static REGISTRATION: umpire_core::Registration = umpire_core::Registration {
    game: umpire_core::erase::<MaskedArmy>(),
    bots: bot::BOTS,
    commands: &[],
    words: &["army", "armies", "domino", "dominoes"],
};

/// Match options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The seat with the advantage, who chooses who starts.
    pub advantage: Seat,
    /// P1's colour (red unless chosen).
    pub colour_p1: SeatColour,
    /// P2's colour (blue unless chosen).
    pub colour_p2: SeatColour,
}

impl Default for Config {
    fn default() -> Config {
        let colours = colour::defaults();
        Config {
            advantage: Seat::P1,
            colour_p1: colours.p1,
            colour_p2: colours.p2,
        }
    }
}

/// What the lobby says of the colour options.
const COLOUR_ABOUT: &str = "Players may choose their colours (red and blue by default), from a palette \
    that colour-blind players tell apart; the seats' marks differ too";

/// Why a Masked Army action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the advantage seat must first choose who starts (`first P1` or `first P2`)")]
    ChooseFirst,
    #[error("who starts has already been chosen; place a piece like `E5 F5`")]
    AlreadyChosen,
    #[error("{0} is off the board (columns A–I, rows 1–9)")]
    OffBoard(Cell),
    #[error("{0} is already occupied")]
    Occupied(Cell),
    #[error("{0} and {1} are not orthogonally adjacent: a piece covers two cells side by side")]
    NotAdjacent(Cell, Cell),
}

impl RuleViolation for Illegal {
    fn rule(&self) -> &'static str {
        match self {
            Illegal::ChooseFirst => "choose-first",
            Illegal::AlreadyChosen => "already-chosen",
            Illegal::OffBoard(_) => "off-board",
            Illegal::Occupied(_) => "occupied",
            Illegal::NotAdjacent(..) => "not-adjacent",
        }
    }
}

/// A Masked Army match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaskedArmy {
    advantage: Seat,
    phase: Phase,
    /// Whose turn it is (during `Place`), or who placed last (when `Over`).
    to_move: Seat,
    /// The cells of each seat's colour.
    colours: PerSeat<u128>,
    last: Option<LastPiece>,
    /// Each seat's colour, as the players chose it.
    seat_colours: PerSeat<SeatColour>,
}

impl MaskedArmy {
    fn occupied(&self) -> u128 {
        self.colours.p1 | self.colours.p2
    }

    fn spots(&self) -> (u128, u128) {
        let empty = BOARD.all & !self.occupied();
        (horizontal_spots(empty), vertical_spots(empty))
    }

    /// Army sizes per seat, largest first.
    pub fn armies(&self) -> PerSeat<Vec<u32>> {
        self.colours.map(|&c| group_sizes(c))
    }

    /// The colour of a cell: which seat's army it belongs to, if occupied.
    pub fn colour(&self, cell: Cell) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&s| self.colours[s] & BOARD.bit(cell) != 0)
    }

    fn check_place(&self, mine: Cell, theirs: Cell) -> Result<(), Illegal> {
        for cell in [mine, theirs] {
            if !BOARD.contains(cell) {
                return Err(Illegal::OffBoard(cell));
            }
        }
        if !mine.is_orthogonal_to(theirs) {
            return Err(Illegal::NotAdjacent(mine, theirs));
        }
        for cell in [mine, theirs] {
            if self.occupied() & BOARD.bit(cell) != 0 {
                return Err(Illegal::Occupied(cell));
            }
        }
        Ok(())
    }
}

/// Compares two seats' army sizes, largest first, position by position; a
/// missing army counts 0. Returns the better seat and the deciding position
/// (0 = largest), or `None` when all sizes are equal.
pub fn compare_armies(armies: &PerSeat<Vec<u32>>) -> Option<(Seat, usize)> {
    let len = armies.p1.len().max(armies.p2.len());
    (0..len).find_map(|i| {
        let (a, b) = (
            armies.p1.get(i).copied().unwrap_or(0),
            armies.p2.get(i).copied().unwrap_or(0),
        );
        (a != b).then_some((if a > b { Seat::P1 } else { Seat::P2 }, i))
    })
}

fn ordinal_army(i: usize) -> String {
    match i {
        0 => "largest army".into(),
        1 => "second-largest army".into(),
        2 => "third-largest army".into(),
        n => format!("{}th-largest army", n + 1),
    }
}

impl Game for MaskedArmy {
    umpire_core::game_header!(
        "masked-army",
        "Masked Army",
        include_str!("../RULES.md"),
        Memory
    );

    /// "All previous board updates and your moves will be deleted."
    const HIDES_HISTORY: bool = true;

    fn new(config: &Config, _seed: u64) -> Result<Self, ConfigError> {
        if config.colour_p1 == config.colour_p2 {
            return Err(ConfigError(format!(
                "both seats are {}: choose two different colours",
                config.colour_p1.name()
            )));
        }
        Ok(MaskedArmy {
            advantage: config.advantage,
            phase: Phase::ChooseFirst,
            to_move: config.advantage,
            colours: PerSeat::default(),
            last: None,
            seat_colours: PerSeat::new(config.colour_p1, config.colour_p2),
        })
    }

    fn options() -> Vec<ConfigOption> {
        vec![
            ConfigOption::new("advantage", "Advantage")
                .about("The seat that chooses who places the first piece"),
            ConfigOption::new("colour_p1", "P1's colour")
                .about(COLOUR_ABOUT)
                .kind(OptionKind::choice(&SeatColour::KEYS)),
            ConfigOption::new("colour_p2", "P2's colour")
                .about(COLOUR_ABOUT)
                .kind(OptionKind::choice(&SeatColour::KEYS)),
        ]
    }

    fn decision(&self) -> Decision {
        match self.phase {
            Phase::ChooseFirst => Decision::one(self.advantage, "first"),
            Phase::Place => Decision::one(self.to_move, "place"),
            Phase::Over => Decision::over(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), Illegal> {
        match (*action, self.phase) {
            (Action::First(first), Phase::ChooseFirst) => {
                self.to_move = first;
                self.phase = Phase::Place;
            }
            (Action::Place { .. }, Phase::ChooseFirst) => return Err(Illegal::ChooseFirst),
            (Action::First(_), _) => return Err(Illegal::AlreadyChosen),
            (Action::Place { mine, theirs }, _) => {
                self.check_place(mine, theirs)?;
                self.colours[seat] |= BOARD.bit(mine);
                self.colours[seat.other()] |= BOARD.bit(theirs);
                self.last = Some(LastPiece {
                    by: seat,
                    mine,
                    theirs,
                });
                let (h, v) = self.spots();
                if h | v == 0 {
                    // Nobody can place a piece: `to_move` keeps the last placer.
                    self.phase = Phase::Over;
                } else {
                    self.to_move = seat.other();
                }
            }
        }
        Ok(())
    }

    fn legal_actions(&self, seat: Seat) -> Option<impl Iterator<Item = Action> + '_> {
        let mut actions = Vec::new();
        if self.decision().get(seat).is_some() {
            if self.phase == Phase::ChooseFirst {
                actions.extend(Seat::BOTH.map(Action::First));
            } else {
                let (h, v) = self.spots();
                for (spots, step) in [(h, 1), (v, SIZE as usize)] {
                    for i in bits(spots) {
                        let (a, b) = (BOARD.cell_at(i), BOARD.cell_at(i + step));
                        actions.push(Action::Place { mine: a, theirs: b });
                        actions.push(Action::Place { mine: b, theirs: a });
                    }
                }
            }
        }
        Some(actions.into_iter())
    }

    /// Uniform over legal actions without listing them: count the domino
    /// spots, pick one and an orientation.
    fn sample_action<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        self.decision().get(seat)?;
        if self.phase == Phase::ChooseFirst {
            return Some(Action::First(if rng.random() {
                Seat::P1
            } else {
                Seat::P2
            }));
        }
        let (h, v) = self.spots();
        let (nh, nv) = (h.count_ones(), v.count_ones());
        let pick = rng.random_range(0..2 * (nh + nv));
        let (spot, flip) = (pick / 2, pick % 2 == 1);
        let (i, step) = if spot < nh {
            (nth_bit(h, spot), 1)
        } else {
            (nth_bit(v, spot - nh), SIZE as usize)
        };
        let (a, b) = (BOARD.cell_at(i), BOARD.cell_at(i + step));
        Some(if flip {
            Action::Place { mine: b, theirs: a }
        } else {
            Action::Place { mine: a, theirs: b }
        })
    }

    fn view(&self, viewer: Viewer) -> View {
        let reveal = viewer == Viewer::Umpire || self.phase == Phase::Over;
        let last_cells = self
            .last
            .map_or(0, |l| BOARD.bit(l.mine) | BOARD.bit(l.theirs));
        let board = (0..SIZE)
            .map(|row| {
                let row: Vec<u8> = (0..SIZE)
                    .map(|col| {
                        let cell = Cell::new(col, row);
                        match self.colour(cell) {
                            None => b'.',
                            Some(_) if !reveal && last_cells & BOARD.bit(cell) == 0 => b'#',
                            Some(Seat::P1) => b'1',
                            Some(Seat::P2) => b'2',
                        }
                    })
                    .collect();
                // Bytes, not chars: a view is made for every viewer each move.
                String::from_utf8(row).expect("ASCII")
            })
            .collect();
        View {
            phase: self.phase,
            advantage: self.advantage,
            to_move: self.decision().seats().iter().next(),
            board,
            last: self.last,
            pieces: self.occupied().count_ones() / 2,
            armies: (self.phase == Phase::Over).then(|| self.armies()),
            colours: self.seat_colours,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let armies = self.armies();
        let scores = armies.map(|a| a.first().copied().unwrap_or(0) as i64);
        let (winner, decided_by, reason) = match compare_armies(&armies) {
            Some((seat, i)) => {
                let nth = ordinal_army(i);
                let size = |s: Seat| armies[s].get(i).copied().unwrap_or(0);
                // The larger armies tie when a smaller one decides.
                let tied = if i == 0 {
                    ""
                } else {
                    ", all larger armies being equal"
                };
                let reason = format!(
                    "{seat}'s {nth}, {}, beats {}'s, {}{tied}",
                    size(seat),
                    seat.other(),
                    size(seat.other())
                );
                (seat, nth, reason)
            }
            None => {
                let last = self.to_move;
                let reason = format!("all army sizes are equal, and {last} placed the last piece");
                (last, "last piece placed".to_string(), reason)
            }
        };
        Some(Outcome {
            winner: Some(winner),
            scores,
            decided_by,
            reason,
        })
    }

    fn clock_policy(_: &Config) -> ClockPolicy {
        ClockPolicy::bank(5 * 60_000)
    }

    fn turn_clock(&self, _: Seat) -> TurnClock {
        TurnClock::with_overtime(2 * 60_000)
    }

    fn timeout(&mut self, _: Seat) -> Timeout {
        Timeout::Lose
    }

    fn remember(memory: &mut Memory, view: &View) {
        memory.remember(view);
    }

    /// Every colour but the last piece's is hidden from both seats and
    /// spectators alike. A sample splits the occupied cells into dominoes of
    /// one colour each, keeping the last piece and every colour the seat
    /// remembers, as real play could have placed them.
    fn sample<R: Rng + ?Sized>(_: Viewer, view: &View, memory: &Memory, rng: &mut R) -> Self {
        let colours = sample::colours(view, memory, rng);
        MaskedArmy {
            advantage: view.advantage,
            phase: view.phase,
            to_move: match (view.to_move, view.last) {
                (Some(seat), _) => seat,
                (None, Some(last)) => last.by,
                (None, None) => view.advantage,
            },
            colours,
            last: view.last,
            seat_colours: view.colours,
        }
    }
}
